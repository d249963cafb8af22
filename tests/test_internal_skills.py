"""MISSING_TRIGGER stays silent on a private copy kept under an `internal/` folder whose description opens
"Internal …" (held-out set 35: `skills/internal/gh/branch-reset`, "Internal mirror for the public `@gh-reset`");
either half alone is an ordinary skill."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze


def _codes(tmp_path: Path, folder: str, description: str) -> list[str]:
    skill = tmp_path / "repo" / folder
    skill.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    text = f"---\nname: {skill.name}\ndescription: {description}\n---\n\n# Reset\n\nStay on the current branch.\n"
    (skill / "SKILL.md").write_text(text)
    report = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER",)),
                     workspace_root=tmp_path / "repo")
    return [f.code for f in report.findings]


INTERNAL = "Internal branch reset guidance, destructive reset/clean only, explicit confirmations."
PLAIN = "Branch reset guidance, destructive reset/clean only, explicit confirmations."


def test_an_internal_copy_under_internal_is_not_routed(tmp_path: Path) -> None:
    assert _codes(tmp_path, "skills/internal/gh/branch-reset", INTERNAL) == []


@pytest.mark.parametrize(("folder", "description"), [
    ("skills/gh/branch-reset", INTERNAL),  # "Internal …" alone: an ordinary skill about internals
    ("skills/internal/gh/branch-reset", PLAIN),  # the folder alone
])
def test_either_half_alone_is_reported(tmp_path: Path, folder: str, description: str) -> None:
    assert _codes(tmp_path, folder, description) == ["MISSING_TRIGGER"]
