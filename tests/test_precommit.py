"""The pre-commit hook (.pre-commit-hooks.yaml) as users run it: `pre-commit try-repo <this repo> skillgrade
--files ...` in a fixture git repository. pre-commit builds the hook's own virtualenv from this repository
(`language: python`: pip installs skillgrade and its dependencies from the package registry) once for the
module, so this file takes a minute or more; the runs after the install take a few seconds each.

The hook repository is a one-commit copy of this working tree's package files (so the hook tested is the one
in the working tree, committed or not, and every run uses the same revision: one install)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.test_cli import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent


def test_hook_manifest() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["skillgrade"]
    hook = hooks[0]
    assert hook["entry"] == "skillgrade score --skip-outside-skills" and hook["language"] == "python"
    assert hook.get("pass_filenames", True) is True and hook["require_serial"] is True
    import re

    files = re.compile(hook["files"])
    for path in ("SKILL.md", "skills/a/SKILL.md", "a/references/r.md", "a/scripts/x.py", "a/assets/logo.png",
                 "a/FORMS.md"):
        assert files.search(path), path
    for path in ("setup.cfg", "src/app.py", "SKILL.md.bak", "notSKILL.mdx"):
        assert not files.search(path), path


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True,
                   capture_output=True)


HOOK_REPO_FILES = (".pre-commit-hooks.yaml", "pyproject.toml", "README.md", "analyzers", "server")


@pytest.fixture(scope="module")
def fixture_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    hooks = tmp_path_factory.mktemp("hooks") / "skillgrade"
    hooks.mkdir()
    for name in HOOK_REPO_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, hooks / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, hooks / name)
    _git("init", "-q", ".", cwd=hooks)
    _git("add", "-A", cwd=hooks)
    _git("commit", "-q", "-m", "hooks", cwd=hooks)
    repo = tmp_path_factory.mktemp("pc") / "repo"
    shutil.copytree(EXAMPLES, repo / "skills")
    (repo / "README.md").write_text("# Skills\n")
    (repo / "setup.cfg").write_text("[metadata]\n")
    _git("init", "-q", ".", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("commit", "-q", "-m", "init", cwd=repo)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PRE_COMMIT_HOME") and not k.startswith("GIT_")}
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env["PRE_COMMIT_COLOR"] = "never"
    return hooks, repo, env


def _try(fixture_repo: tuple[Path, Path, dict], *files: str) -> subprocess.CompletedProcess:
    hooks, repo, env = fixture_repo
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "skillgrade",
                           "--files", *files], cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def test_try_repo_bundled_files_and_failures(fixture_repo: tuple[Path, Path, dict]) -> None:
    ok = _try(fixture_repo, "skills/csv-report-builder/scripts/summarise.py",
              "skills/csv-report-builder/references/encodings.md", "README.md")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "skillgrade......" in ok.stdout and "Passed" in ok.stdout

    bad = _try(fixture_repo, "skills/pdf-tools/SKILL.md", "README.md")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Failed" in bad.stdout
    assert "skills/pdf-tools/SKILL.md:12:26: ORPHAN_REFERENCE" in bad.stdout
    assert bad.stdout.count("skills/pdf-tools/SKILL.md: ") == 1  # its score line: graded once

    none = _try(fixture_repo, "setup.cfg")
    assert none.returncode == 0 and "(no files to check)" in none.stdout and "Skipped" in none.stdout
