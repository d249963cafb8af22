"""CI outputs of `score`: the fix preview (--fix --diff), GitLab Code Quality JSON, and bundled file paths
(what pre-commit passes) grading their skill once."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from skillgrade.analyzers.textdiff import unified_diff
from tests.test_cli import EXAMPLES, run


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    dst = tmp_path / "repo"
    shutil.copytree(EXAMPLES, dst / "skills")
    (dst / ".git").mkdir()
    return dst


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_unified_diff_shapes() -> None:
    assert unified_diff("a\n", "a\n", "x.md") == ""
    assert unified_diff("a\nb\n", "a\nc\n", "s/SKILL.md") == (
        "--- a/s/SKILL.md\n+++ b/s/SKILL.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
    assert unified_diff(None, "# T\n", "r/new.md") == "--- /dev/null\n+++ b/r/new.md\n@@ -0,0 +1 @@\n+# T\n"
    assert unified_diff("a", "a\n", "f") == (
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n")


PDF_SAFE_DIFF = """\
--- a/skills/pdf-tools/SKILL.md
+++ b/skills/pdf-tools/SKILL.md
@@ -1,7 +1,7 @@
 ---
 name: PDF_Tools
 description: PDF toolkit.
-version: 1.10
+version: "1.10"
 author: someone
 ---
~
@@ -11,7 +11,7 @@
~
 See [the form reference](references/forms.md) and [the other skill](../pdf-viewer/SKILL.md).
~
-```
+```bash
 pip install pypdf
 ```
~
--- /dev/null
+++ b/skills/pdf-tools/references/forms.md
@@ -0,0 +1 @@
+# Forms
""".replace("\n~\n", "\n \n")  # ~: a context line that is empty (one space in the diff)


def test_fix_diff_prints_what_fix_would_do_and_writes_nothing(repo: Path) -> None:
    before = _snapshot(repo)
    p = run("score", "skills/pdf-tools", "--fix", "--diff", "--no-cache", cwd=repo)
    assert p.returncode == 1
    assert p.stdout == PDF_SAFE_DIFF
    assert "would apply 3 fixes to 2 files" in p.stderr
    assert _snapshot(repo) == before  # nothing written (not even the result cache)
    unsafe = run("score", "skills/pdf-tools", "--fix", "--unsafe-fixes", "--diff", "--no-cache", cwd=repo)
    assert unsafe.returncode == 1 and "-name: PDF_Tools\n+name: pdf-tools\n" in unsafe.stdout
    assert _snapshot(repo) == before


def test_fix_diff_applies_to_what_fix_writes(repo: Path, tmp_path: Path) -> None:
    """The preview is exact: `git apply` of the diff on one copy == `--fix` on another."""
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy)
    diff = run("score", "skills", "--diff", "--unsafe-fixes", "--no-cache", cwd=repo).stdout
    assert run("score", "skills", "--fix", "--unsafe-fixes", "--no-cache", cwd=copy).returncode in (0, 1)
    (repo / "fix.patch").write_text(diff)
    subprocess.run(["git", "apply", "--unsafe-paths", "fix.patch"], cwd=repo, check=True, capture_output=True)
    (repo / "fix.patch").unlink()
    fixed = {k: v for k, v in _snapshot(copy).items() if not k.startswith(".skillgrade_cache")}
    assert _snapshot(repo) == fixed
    again = run("score", "skills", "--diff", "--unsafe-fixes", "--no-cache", cwd=copy)
    assert again.returncode == 0 and again.stdout == "" and "no fixes to apply" in again.stderr


def test_gitlab_code_quality(repo: Path) -> None:
    p = run("score", "skills", "--format", "gitlab", "--no-cache", cwd=repo)
    assert p.returncode == 1
    issues = json.loads(p.stdout)
    assert len(issues) == 10
    first = issues[0]
    assert set(first) == {"type", "check_name", "description", "severity", "fingerprint", "location"}
    assert first["location"] == {"path": "skills/pdf-tools/SKILL.md", "lines": {"begin": 2}}
    by_code = {i["check_name"]: i for i in issues}
    assert by_code["NAME_FORMAT"]["severity"] == "major"  # error
    assert by_code["NAME_DIR_MISMATCH"]["severity"] == "minor"  # warning
    assert by_code["CODE_BLOCK_UNTAGGED"]["severity"] == "info"  # info
    assert by_code["ORPHAN_REFERENCE"]["location"]["lines"]["begin"] == 12
    assert by_code["ORPHAN_REFERENCE"]["description"].startswith("ORPHAN_REFERENCE: Link target")
    assert len({i["fingerprint"] for i in issues}) == 10
    # lines added above: GitLab sees the same issues (same fingerprints), not resolved + new ones
    pdf = repo / "skills" / "pdf-tools" / "SKILL.md"
    pdf.write_text(pdf.read_text().replace("# PDF tools\n", "# PDF tools\n\nIntro.\n"))
    moved = json.loads(run("score", "skills", "--format", "gitlab", "--no-cache", cwd=repo).stdout)
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in issues]
    assert {i["check_name"]: i for i in moved}["ORPHAN_REFERENCE"]["location"]["lines"]["begin"] == 14
    clean = run("score", "skills/csv-report-builder", "--format", "gitlab", "--no-cache", cwd=repo)
    assert clean.returncode == 0 and json.loads(clean.stdout) == []


def test_bundled_files_grade_their_skill_once(repo: Path) -> None:
    csv = "skills/csv-report-builder"
    p = run("score", f"{csv}/scripts/summarise.py", f"{csv}/references/encodings.md", f"{csv}/SKILL.md",
            "--no-cache", cwd=repo)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("skills/csv-report-builder/SKILL.md: ") == 1 and "skills," not in p.stdout
    (repo / "README.md").write_text("# not a skill\n")
    bad = run("score", "README.md", "--no-cache", cwd=repo)
    assert bad.returncode == 2 and "not a SKILL.md nor a file of a skill" in bad.stderr
    skipped = run("score", "README.md", "--skip-outside-skills", "--no-cache", cwd=repo)
    assert skipped.returncode == 0 and skipped.stdout == ""
    mixed = run("score", "README.md", "skills/pdf-tools/SKILL.md", "--skip-outside-skills", "--no-cache", cwd=repo)
    assert mixed.returncode == 1 and "skills/pdf-tools/SKILL.md: " in mixed.stdout
