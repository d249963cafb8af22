"""The `skillgrade` CLI as a user runs it (subprocess): formats, exit codes, config, cache, compare."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "skills"

CLI = [sys.executable, "-m", "skillgrade.server.cli"]


def run(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, **(env or {})}
    e.pop("FORCE_COLOR", None)
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, env=e, timeout=120)


@pytest.fixture()
def skills(tmp_path: Path) -> Path:
    dst = tmp_path / "repo"
    shutil.copytree(EXAMPLES, dst / "skills")
    (dst / ".git").mkdir()
    return dst


def test_text_output_lines_and_exit_code(skills: Path) -> None:
    p = run("score", str(skills / "skills"), "--no-cache", cwd=skills)
    assert p.returncode == 1  # pdf-tools has error-severity findings
    lines = p.stdout.splitlines()
    assert "skills/pdf-tools/SKILL.md:12:26: ORPHAN_REFERENCE [*] Link target `references/forms.md` does not exist in `references/`" in lines
    assert any(line.startswith("skills/csv-report-builder/SKILL.md: ") and "Gold" in line for line in lines)
    assert "\x1b[" not in p.stdout  # not a TTY: no colour


def test_clean_skill_exits_zero(skills: Path) -> None:
    p = run("score", str(skills / "skills" / "csv-report-builder"), "--no-cache")
    assert p.returncode == 0, p.stdout
    assert "85" in p.stdout or "Gold" in p.stdout


def test_json_single_skill_has_methodology_keys(skills: Path) -> None:
    p = run("score", str(skills / "skills" / "pdf-tools"), "--format", "json", "--no-cache")
    data = json.loads(p.stdout)
    assert isinstance(data["composite"]["score"], float)
    assert data["composite"]["badge"] is None
    assert data["composite"]["dimensions"]["triggering_accuracy"]["grade"] in "ABCDF"
    assert data["composite"]["dimensions"]["output_quality"]["score"] is None  # unmeasured, not 0
    assert set(data["layers"][0]["anti_patterns"]) == {"EMPTY_DESCRIPTION", "ORPHAN_REFERENCE", "DEAD_CROSS_REF"}
    assert data["composite"]["anti_pattern_penalty"] == pytest.approx(0.85)
    orphan = next(f for f in data["findings"] if f["code"] == "ORPHAN_REFERENCE")
    assert orphan["range"]["start"] == {"line": 11, "character": 25}
    assert orphan["fix"]["creates"][0]["create"].endswith("references/forms.md")


def test_output_alias_and_determinism(skills: Path) -> None:
    a = run("score", str(skills / "skills"), "--output", "json", "--no-cache", cwd=skills)
    b = run("score", str(skills / "skills"), "--format", "json", "--no-cache", cwd=skills)
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["summary"]["skills"] == 3


def test_sarif_is_valid_shape(skills: Path) -> None:
    p = run("score", str(skills / "skills"), "--format", "sarif", "--no-cache", cwd=skills)
    sarif = json.loads(p.stdout)
    assert sarif["version"] == "2.1.0"
    run0 = sarif["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert "MISSING_TRIGGER" in ids and all(r["helpUri"].endswith(f"{r['id']}.md") for r in rules)
    res = run0["results"]
    assert res and all(r["ruleId"] in ids and rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in res)
    loc = res[0]["locations"][0]["physicalLocation"]
    assert loc["region"]["startLine"] >= 1 and loc["artifactLocation"]["uri"].endswith("SKILL.md")


def test_markdown_report(skills: Path) -> None:
    p = run("score", str(skills / "skills" / "csv-report-builder"), "--format", "markdown", "--no-cache")
    assert "| triggering_accuracy | 0.25 |" in p.stdout
    assert "unmeasured" in p.stdout


def test_threshold(skills: Path) -> None:
    good = skills / "skills" / "csv-report-builder"
    assert run("score", str(good), "--threshold", "50", "--no-cache").returncode == 0
    assert run("score", str(good), "--threshold", "99", "--no-cache").returncode == 1


def test_select_and_ignore(skills: Path) -> None:
    p = run("score", str(skills / "skills" / "pdf-tools"), "--select", "ORPHAN_REFERENCE", "--no-cache")
    assert "ORPHAN_REFERENCE" in p.stdout and "NAME_FORMAT" not in p.stdout
    p = run("score", str(skills / "skills" / "pdf-tools"), "--ignore", "NAME_FORMAT,NAME_DIR_MISMATCH", "--no-cache")
    assert "NAME_FORMAT" not in p.stdout and "ORPHAN_REFERENCE" in p.stdout


def test_config_file_and_inline_suppression(skills: Path) -> None:
    (skills / ".skillgrade.toml").write_text('ignore = ["UNKNOWN_FIELD"]\nseverity = { NAME_FORMAT = "info" }\n')
    skill = skills / "skills" / "pdf-tools" / "SKILL.md"
    text = skill.read_text().replace("```\npip", "<!-- skillgrade-disable-next-line CODE_BLOCK_UNTAGGED -->\n```\npip")
    skill.write_text(text + "\n<!-- skillgrade-disable DEAD_CROSS_REF -->\n")
    p = run("score", str(skill.parent), "--format", "json", "--no-cache")
    data = json.loads(p.stdout)
    codes = {f["code"]: f["severity"] for f in data["findings"]}
    assert "UNKNOWN_FIELD" not in codes and "DEAD_CROSS_REF" not in codes and "CODE_BLOCK_UNTAGGED" not in codes
    assert codes["NAME_FORMAT"] == "info"
    assert data["suppressed"] == 2


def test_bad_config_is_a_usage_error(skills: Path) -> None:
    (skills / ".skillgrade.toml").write_text("threshold = 'high'\n")
    p = run("score", str(skills / "skills"), "--no-cache")
    assert p.returncode == 2 and "threshold" in p.stderr and "Traceback" not in p.stderr


def test_cache_warm_run_equals_cold_and_invalidates(skills: Path) -> None:
    cold = run("score", str(skills / "skills"), "--format", "json", cwd=skills)
    assert (skills / ".skillgrade_cache").is_dir()
    warm = run("score", str(skills / "skills"), "--format", "json", cwd=skills)
    assert warm.stdout == cold.stdout
    # creating the missing reference must invalidate the cached result of that skill
    (skills / "skills" / "pdf-tools" / "references").mkdir()
    (skills / "skills" / "pdf-tools" / "references" / "forms.md").write_text("# Forms\n")
    after = json.loads(run("score", str(skills / "skills"), "--format", "json", cwd=skills).stdout)
    pdf = next(r for r in after["skills"] if r["skill"]["path"].endswith("pdf-tools/SKILL.md"))
    assert "ORPHAN_REFERENCE" not in [f["code"] for f in pdf["findings"]]
    # a sibling skill appearing must invalidate the dead cross reference
    (skills / "skills" / "pdf-viewer").mkdir()
    (skills / "skills" / "pdf-viewer" / "SKILL.md").write_text("---\nname: pdf-viewer\ndescription: Use when viewing PDF files in a terminal.\n---\n")
    after = json.loads(run("score", str(skills / "skills"), "--format", "json", cwd=skills).stdout)
    pdf = next(r for r in after["skills"] if r["skill"]["path"].endswith("pdf-tools/SKILL.md"))
    assert "DEAD_CROSS_REF" not in [f["code"] for f in pdf["findings"]]


def test_cache_sees_a_same_size_edit_with_the_old_mtime(skills: Path) -> None:
    """Unchanged files are recognised by stat (not re-read); an edit that keeps size and mtime
    still changes ctime, so it is re-read, as git's index does."""
    skill = skills / "skills" / "csv-report-builder" / "SKILL.md"
    old = os.stat(skill)
    past = old.st_mtime_ns - 10 * 1_000_000_000  # older than the 2 s racy window
    os.utime(skill, ns=(past, past))
    time.sleep(2.2)  # let the file's ctime leave the racy window, so the cache records its stat
    first = json.loads(run("score", str(skill), "--format", "json", cwd=skills).stdout)
    text = skill.read_text()
    # same length, but `name:` no longer matches the directory
    edited = text.replace("name: csv-report-builder", "name: csv-report-buildex", 1)
    assert edited != text and len(edited) == len(text)
    skill.write_text(edited)
    os.utime(skill, ns=(past, past))
    again = json.loads(run("score", str(skill), "--format", "json", cwd=skills).stdout)
    assert "NAME_DIR_MISMATCH" in [f["code"] for f in again["findings"]]
    assert "NAME_DIR_MISMATCH" not in [f["code"] for f in first["findings"]]


def test_github_annotations(skills: Path) -> None:
    p = run("score", str(skills / "skills"), "--format", "github", "--no-cache", cwd=skills)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    fmt = [ln for ln in lines if ln.startswith("::error file=skills/pdf-tools/SKILL.md,line=2,col=7,")]
    assert fmt and "title=skillgrade NAME_FORMAT::`name: PDF_Tools` must be lowercase" in fmt[0]
    assert any(ln.startswith("::notice ") and "CODE_BLOCK_UNTAGGED" in ln for ln in lines)
    assert any(ln.startswith("skills/csv-report-builder/SKILL.md: ") for ln in lines)  # summary for the log


def test_strict_fails_on_warnings(skills: Path) -> None:
    skill = skills / "skills" / "release-notes"  # one warning (MISSING_TRIGGER), no errors
    assert run("score", str(skill), "--no-cache").returncode == 0
    assert run("score", str(skill), "--no-cache", "--strict").returncode == 1
    assert run("score", str(skills / "skills" / "csv-report-builder"), "--no-cache", "--strict").returncode == 0


def test_github_escaping() -> None:
    from skillgrade.analyzers.render import _gh_escape

    assert _gh_escape("50% done\nnext") == "50%25 done%0Anext"
    assert _gh_escape("a:b,c", prop=True) == "a%3Ab%2Cc"


def test_compact_json_from_the_cache_is_identical(tmp_path: Path) -> None:
    """Over 20 skills JSON is compact and spliced from per-report texts kept in the cache."""
    root = tmp_path / "many"
    (root / ".git").mkdir(parents=True)
    for k in range(25):
        d = root / f"skill-{k:02d}"
        d.mkdir()
        (d / "SKILL.md").write_text(f"---\nname: skill-{k:02d}\ndescription: Use when testing number {k}.\n---\n"
                                    f"# S{k}\n\nSee [r](references/missing-{k}.md) and caf\u00e9 \u2603.\n")
    plain = run("score", str(root), "--format", "json", "--no-cache", cwd=root)
    cold = run("score", str(root), "--format", "json", cwd=root)
    warm = run("score", str(root), "--format", "json", cwd=root)
    assert plain.stdout == cold.stdout == warm.stdout
    data = json.loads(warm.stdout)
    assert len(data["skills"]) == 25 and data["summary"]["codes"]["ORPHAN_REFERENCE"] == 25
    assert warm.stdout == json.dumps(data, separators=(",", ":")) + "\n"


def test_duplicate_names_in_one_skills_folder(skills: Path) -> None:
    """Two skills of one skills folder share a name: both reported (near miss: a copy in another folder,
    which no agent loads side by side with the first, is not)."""
    shutil.copytree(skills / "skills" / "release-notes", skills / "legacy" / "release-notes")
    p = run("score", str(skills), "--format", "json", "--no-cache", "--select", "DUPLICATE_SKILL_NAME")
    assert [r["skill"]["path"] for r in json.loads(p.stdout)["skills"] if r["findings"]] == []
    shutil.copytree(skills / "skills" / "release-notes", skills / "skills" / "release-notes-old")
    p = run("score", str(skills), "--format", "json", "--no-cache", "--select", "DUPLICATE_SKILL_NAME")
    data = json.loads(p.stdout)
    dup = sorted(r["skill"]["path"] for r in data["skills"] if r["findings"])
    assert dup == sorted(str(skills / "skills" / n / "SKILL.md") for n in ("release-notes", "release-notes-old"))


def test_compare(skills: Path) -> None:
    p = run("compare", str(skills / "skills" / "csv-report-builder"), str(skills / "skills" / "release-notes"))
    assert p.returncode == 0
    assert "composite" in p.stdout and "output_quality" in p.stdout and "unmeasured" in p.stdout
    assert "triggering_accuracy" in p.stdout


def test_rules_and_explain() -> None:
    p = run("rules")
    assert "MISSING_TRIGGER" in p.stdout and "OVER_CONSTRAINED" in p.stdout
    data = json.loads(run("rules", "--format", "json").stdout)
    assert len(data) >= 29 and {r["code"] for r in data if r["anti_pattern"]} == {
        "OVER_CONSTRAINED", "EMPTY_DESCRIPTION", "MISSING_TRIGGER", "BLOATED_SKILL", "ORPHAN_REFERENCE",
        "DEAD_CROSS_REF"}
    e = run("explain", "missing_trigger")
    assert e.returncode == 0 and "## What it does" in e.stdout
    bad = run("explain", "MISSING_TRIGER")
    assert bad.returncode == 2 and "MISSING_TRIGGER" in bad.stderr


def test_deep_and_certify_without_a_key_show_the_static_result(skills: Path) -> None:
    no_key = {k: "" for k in os.environ if k.startswith("ANTHROPIC_")}
    static = run("score", str(skills / "skills"), "--no-cache", env=no_key)
    for args in (("score", "--depth", "deep"), ("score", "--depth", "certify"), ("certify",)):
        p = run(*args, str(skills / "skills"), "--no-cache", env=no_key)
        assert p.returncode == static.returncode and p.stdout == static.stdout
        assert p.stderr.startswith("skillgrade: No API key:") and len(p.stderr.strip().splitlines()) == 1


def test_standard_without_a_key_says_so_and_shows_the_static_result(skills: Path) -> None:
    no_key = {k: "" for k in os.environ if k.startswith("ANTHROPIC_")}
    static = run("score", str(skills / "skills"), "--no-cache", env=no_key)
    for args in (("score", "--depth", "standard"), ("judge",)):
        p = run(*args, str(skills / "skills"), "--no-cache", env=no_key)
        assert p.returncode == static.returncode
        assert p.stdout == static.stdout
        assert p.stderr.strip().splitlines() == ["skillgrade: No API key: set ANTHROPIC_API_KEY (or "
                                                 "ANTHROPIC_AUTH_TOKEN) to run the LLM layers; showing the "
                                                 "static result only."]


def test_colour_only_when_asked_and_never_with_no_color(skills: Path) -> None:
    p = run("score", str(skills / "skills" / "pdf-tools"), "--color", "always", "--no-cache")
    assert "\x1b[" in p.stdout
    p = run("score", str(skills / "skills" / "pdf-tools"), "--color", "auto", "--no-cache", env={"NO_COLOR": "1"})
    assert "\x1b[" not in p.stdout


def test_fix_applies_safe_fixes_only(skills: Path) -> None:
    skill = skills / "skills" / "pdf-tools"
    p = run("score", str(skill), "--fix", "--no-cache")
    text = (skill / "SKILL.md").read_text()
    assert 'version: "1.10"' in text  # YAML_AMBIGUOUS_VALUE: safe
    assert "```bash\npip install pypdf" in text  # CODE_BLOCK_UNTAGGED: safe
    assert (skill / "references" / "forms.md").is_file()  # ORPHAN_REFERENCE: safe file creation
    assert "name: PDF_Tools" in text  # NAME_FORMAT: unsafe, not applied without --unsafe-fixes
    assert "applied 3 fixes" in p.stderr
    assert "ORPHAN_REFERENCE" not in p.stdout
    p = run("score", str(skill), "--fix", "--unsafe-fixes", "--no-cache")
    assert "name: pdf-tools" in (skill / "SKILL.md").read_text()


def test_duplicate_names_in_separate_repositories_do_not_collide(tmp_path: Path) -> None:
    """Two repositories scored together: a shared name across them is no collision (near miss: two
    skills of one repository still are)."""
    text = "---\nname: commit\ndescription: Use when the user asks to commit staged changes.\n---\n\n# Commit\n"
    for repo in ("repo-a", "repo-b"):
        (tmp_path / repo / ".git").mkdir(parents=True)
        skill = tmp_path / repo / ".claude" / "skills" / "commit"
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(text)
    p = run("score", str(tmp_path / "repo-a"), str(tmp_path / "repo-b"), "--format", "json", "--no-cache",
            "--select", "DUPLICATE_SKILL_NAME")
    data = json.loads(p.stdout)
    assert [r["findings"] for r in data["skills"]] == [[], []]
    p = run("score", str(tmp_path), "--format", "json", "--no-cache", "--select", "DUPLICATE_SKILL_NAME")
    data = json.loads(p.stdout)  # one folder holding two checkouts (`skillgrade score ~/code`)
    assert [r["findings"] for r in data["skills"]] == [[], []]
    legacy = tmp_path / "repo-a" / "legacy" / "commit"  # another folder of the repository: never loaded
    legacy.mkdir(parents=True)
    (legacy / "SKILL.md").write_text(text)
    twin = tmp_path / "repo-a" / ".agents" / "skills" / "commit"  # OpenCode loads .claude/ and .agents/skills
    twin.mkdir(parents=True)
    (twin / "SKILL.md").write_text(text)
    p = run("score", str(tmp_path / "repo-a"), str(tmp_path / "repo-b"), "--format", "json", "--no-cache",
            "--select", "DUPLICATE_SKILL_NAME")
    data = json.loads(p.stdout)
    dup = sorted(r["skill"]["path"] for r in data["skills"] if r["findings"])
    assert dup == sorted([str(tmp_path / "repo-a" / ".claude" / "skills" / "commit" / "SKILL.md"), str(twin / "SKILL.md")])


def test_cache_rereads_a_sibling_skill_that_links_a_shared_file(tmp_path: Path) -> None:
    """UNREFERENCED_FILE stays silent on a file a sibling skill links (`../standards/references/x.md`); the
    cached result of `standards` reads that sibling again, so unlinking it there brings the finding back."""
    root = tmp_path / "plugin"
    (root / ".git").mkdir(parents=True)
    std = root / "skills" / "standards"
    (std / "references").mkdir(parents=True)
    (std / "SKILL.md").write_text("---\nname: standards\ndescription: Use when editing docs.\n---\n# Standards\n")
    (std / "references" / "concise.md").write_text("# Concise\n\nCut words.\n")
    disc = root / "skills" / "discover"
    disc.mkdir()
    linked = "---\nname: discover\ndescription: Use when starting a project.\n---\nSee [it](../standards/references/concise.md).\n"
    (disc / "SKILL.md").write_text(linked)

    def codes() -> list[str]:
        out = json.loads(run("score", str(std), "--format", "json", cwd=root).stdout)
        return [f["code"] for f in out["findings"]]

    assert "UNREFERENCED_FILE" not in codes()
    assert "UNREFERENCED_FILE" not in codes()  # warm
    (disc / "SKILL.md").write_text(linked.replace("../standards/references/concise.md", "references/other.md"))
    assert "UNREFERENCED_FILE" in codes()
