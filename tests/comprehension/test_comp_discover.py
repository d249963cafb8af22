"""Where eval files are found for a skill, and which skill an eval file belongs to."""

from __future__ import annotations

import json
from pathlib import Path

from skillgrade.analyzers.comprehension.discover import (
    find_eval_files,
    find_skill_for,
    validate_eval_document,
)


def write(p: Path, value) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(value if isinstance(value, str) else json.dumps(value))
    return p


def test_order_and_ownership(tmp_path):
    skill = tmp_path / "repo" / "skills" / "alpha"
    write(skill / "SKILL.md", "---\nname: alpha\ndescription: d\n---\n# A\n")
    own = write(skill / "evals.json", {"evals": []})  # in the skill's folder: no skill_name needed
    write(skill / "package.json", {"name": "x"})  # not an eval file
    other = write(skill / "evals" / "beta.json", {"skill_name": "beta", "evals": []})  # another skill's
    up = write(tmp_path / "repo" / "_evals" / "alpha.json", {"skill_name": "alpha", "evals": []})
    write(tmp_path / "repo" / "evals" / "alpha.json", {"skill_name": "beta", "evals": []})  # wrong owner
    found, looked = find_eval_files(skill, "alpha")
    assert found == [own, up]
    assert other not in found
    assert str(skill / "evals.json") == looked[0] and str(tmp_path / "repo" / "_evals" / "alpha.json") in looked


def test_skill_for_an_eval_file(tmp_path):
    s = write(tmp_path / "skills" / "alpha" / "SKILL.md",
              "---\nname: alpha\ndescription: d\n---\n# A\n\nParse every payload with a schema validator first.\n")
    e = write(tmp_path / "_evals" / "alpha.json", {"skill_name": "alpha", "evals": [
        {"id": 1, "prompt": "Why parse every payload with schema validator rules?", "transfer": "far"}]})
    assert find_skill_for(e, "alpha") == s
    assert find_skill_for(e, "../etc") is None and find_skill_for(e, "missing") is None
    findings = validate_eval_document(e, e.read_text())
    assert "EVAL_FAR_TRANSFER_OVERLAP" in [f.code for f in findings]
    assert validate_eval_document(tmp_path / "x.yaml", e.read_text()) is None  # eval files are JSON
    assert validate_eval_document(tmp_path / "pkg.json", '{"name": "x"}') is None
