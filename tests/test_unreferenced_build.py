"""UNREFERENCED_FILE and files a project's Makefile uses from the skill in its agent folder (set 41p: mistral's
template runs `semgrep --config .agents/skills/workflows/scripts/linting/rules/` from `make lint-workflows`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

RULES = ("scripts/linting/rules/io.yaml", "scripts/linting/rules/imports.yaml")
TARGET = "lint-workflows:\n\tuv run semgrep --config {path} --quiet src/\n"


def _unreferenced(tmp_path: Path, makefile: str | None, body: str, agent: str = ".agents") -> list[str]:
    (tmp_path / ".git").mkdir()
    skill = tmp_path / agent / "skills" / "workflows"
    for rel in RULES:
        (skill / rel).parent.mkdir(parents=True, exist_ok=True)
        (skill / rel).write_text("rules: []\n")
    (skill / "SKILL.md").write_text(f"---\nname: workflows\ndescription: Writes workflows. Use when asked.\n---\n\n{body}\n")
    if makefile is not None:
        (tmp_path / "Makefile").write_text(makefile)
    path = skill / "SKILL.md"
    report = analyze(path.read_text(), path, config=Config(select=("UNREFERENCED_FILE",)), workspace_root=tmp_path)
    return [f.message for f in report.findings]


@pytest.mark.parametrize("path", [".agents/skills/workflows/scripts/linting/rules/",
                                  ".agents/skills/workflows/scripts/linting/"])
def test_a_folder_the_makefile_uses_is_reached(tmp_path: Path, path: str) -> None:
    assert _unreferenced(tmp_path, TARGET.format(path=path), "Run `make lint-workflows` before committing.") == []


def test_one_file_the_makefile_names_is_reached(tmp_path: Path) -> None:
    got = _unreferenced(tmp_path, TARGET.format(path=".agents/skills/workflows/scripts/linting/rules/io.yaml"),
                        "Run `make lint-workflows`.")
    assert got == ["`scripts/linting/rules/imports.yaml` is not referenced from SKILL.md"]


@pytest.mark.parametrize(("makefile", "body"), [
    (TARGET.format(path="lint/rules/"), "Run `make lint-workflows`."),  # another folder
    (TARGET.format(path=".agents/skills/workflows/scripts/linting/rules/"), "Lint the workflows."),  # no make
    (None, "Run `make lint-workflows`."),  # no Makefile
    (TARGET.format(path=".agents/skills/other/scripts/linting/rules/"), "Run `make lint-workflows`."),  # other skill
])
def test_files_the_build_does_not_use_are_reported(tmp_path: Path, makefile: str | None, body: str) -> None:
    assert len(_unreferenced(tmp_path, makefile, body)) == 2
