"""Case-mismatched links: found from directory listings (so a case-insensitive disk gives the same answer),
fixed to the on-disk spelling, and never 'fixed' by creating a twin that differs only in case."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillgrade.analyzers import fixes
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

FM = "---\nname: {name}\ndescription: Use when testing links whose case differs from the files on disk.\n---\n\n"


def _skill(tmp_path: Path, body: str, files: list[str], name: str = "case-skill") -> tuple[Path, str]:
    d = tmp_path / name
    for f in files:
        p = d / f
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("# x\n", encoding="utf-8")
    d.mkdir(parents=True, exist_ok=True)
    text = FM.format(name=name) + body
    (d / "SKILL.md").write_text(text, encoding="utf-8")
    return d / "SKILL.md", text


def _codes(path: Path, text: str, root: Path) -> list:
    return analyze(text, path, config=Config(), workspace_root=root).findings


def test_orphan_reference_never_creates_a_case_twin(tmp_path: Path) -> None:
    path, text = _skill(tmp_path, "See [forms](references/FORMS.md) and [w9](references/Forms/w9.md).\n",
                        ["references/forms.md", "references/forms/w4.md"])
    found = _codes(path, text, tmp_path)
    orphan = [f for f in found if f.code == "ORPHAN_REFERENCE"]
    # FORMS.md is forms.md with another case: not missing, so no file is offered for creation
    assert [f.range.start.character for f in orphan] == [text.splitlines()[5].index("references/Forms")]
    assert orphan[0].fix is None  # creating references/Forms/ beside references/forms/ would twin it
    case = [f for f in found if f.code == "LINK_CASE_MISMATCH"]
    assert len(case) == 1 and case[0].fix is not None
    new, applied = fixes.apply_edits(text, list(case[0].fix.edits))
    assert applied == 1 and "[forms](references/forms.md)" in new
    assert not [f for f in found if f.code in ("DEAD_LINK", "MISSING_MENTIONED_FILE")]


def test_orphan_reference_still_creates_a_new_file(tmp_path: Path) -> None:
    path, text = _skill(tmp_path, "See [api](references/api.md).\n", ["references/forms.md"])
    orphan = [f for f in _codes(path, text, tmp_path) if f.code == "ORPHAN_REFERENCE"]
    assert len(orphan) == 1 and orphan[0].fix is not None and orphan[0].fix.creates


def test_same_findings_when_exists_ignores_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a case-insensitive disk Path.exists() says yes to FORMS.md; the listing still says no."""
    _skill(tmp_path, "", [], name="pdf-tools")
    path, text = _skill(tmp_path, "[forms](references/FORMS.md), [pdf](../PDF-tools/SKILL.md)\n",
                        ["references/forms.md"])
    real_exists = Path.exists

    def insensitive(self: Path, *a, **k) -> bool:
        cur = Path(self.anchor)
        for part in self.parts[1:]:
            if real_exists(cur / part):
                cur = cur / part
                continue
            alts = [c for c in cur.iterdir() if c.name.lower() == part.lower()] if cur.is_dir() else []
            if not alts:
                return False
            cur = alts[0]
        return True

    want = sorted((f.code, f.range.start.character) for f in _codes(path, text, tmp_path))
    monkeypatch.setattr(Path, "exists", insensitive)
    assert (tmp_path / "PDF-TOOLS" / "skill.md").exists()  # the disk now lies as macOS does
    got = sorted((f.code, f.range.start.character) for f in _codes(path, text, tmp_path))
    assert got == want
    assert [c for c, _ in want].count("LINK_CASE_MISMATCH") == 2


HOSTILE = {
    "1e5 mentions in one code span": "`" + "scripts/a.py " * 100_000 + "`",
    "1e5 chars of links and mentions": "[a](references/A.md) references/B.md " * 3_000,
    "1e5 output flags": "`" + "-o scripts/x.py " * 100_000 + "`",
    "1e6-char path": "`scripts/" + "a/" * 500_000 + "x.py`",
    "1e5 command words": "```bash\npython " + "-v " * 100_000 + "scripts/x.py\n```",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_mention_rules_are_linear(name: str, tmp_path: Path) -> None:
    """The link rules' own work on hostile lines (parsing is timed elsewhere)."""
    import time

    from skillgrade.analyzers.parse import parse
    from skillgrade.analyzers.registry import by_code
    from skillgrade.analyzers.rule import RuleContext

    path, text = _skill(tmp_path, HOSTILE[name] + "\n", ["references/a.md", "scripts/b.py", "src/app.ts"])
    doc = parse(text, path, workspace_root=tmp_path)
    for code in ("MISSING_MENTIONED_FILE", "LINK_CASE_MISMATCH", "DEAD_LINK", "ORPHAN_REFERENCE", "UNREFERENCED_FILE"):
        rule = by_code(code)
        assert rule is not None
        t0 = time.perf_counter()
        list(rule.check(doc, RuleContext(rule, Config())))
        assert time.perf_counter() - t0 < 1.5, (name, code)


def test_orphan_reference_stub_of_a_data_file_parses(tmp_path: Path) -> None:
    """`references/config.example.json` is created as `{}` (an empty file is no JSON), a `.md` with its title
    (held-out set 32's second sample)."""
    import json

    import yaml

    path, text = _skill(tmp_path, "See [config](references/config.example.json), [schema](references/schema.yaml) "
                        "and [the forms](references/forms.md).\n", ["references/other.md"])
    made = {os.path.basename(c.path): c.content for f in _codes(path, text, tmp_path)
            if f.code == "ORPHAN_REFERENCE" and f.fix for c in f.fix.creates}
    assert made == {"config.example.json": "{}\n", "schema.yaml": "{}\n", "forms.md": "# Forms\n"}
    assert json.loads(made["config.example.json"]) == {} and yaml.safe_load(made["schema.yaml"]) == {}


def test_orphan_reference_creates_no_file_for_a_folder_link(tmp_path: Path) -> None:
    """Set 35's notion skill links `references/meeting-intelligence/`: a file of that name would stand where the
    folder should be (and silence the finding), so no fix is offered; a file link beside it still gets one."""
    path, text = _skill(tmp_path, "See [meetings](references/meeting-intelligence/), [specs](references/specs) "
                        "and [the api](references/api.md).\n", ["references/other.md"])
    orphan = [f for f in _codes(path, text, tmp_path) if f.code == "ORPHAN_REFERENCE"]
    assert [f.fix is not None for f in orphan] == [False, False, True]
