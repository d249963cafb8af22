"""MISSING_TRIGGER on skills outside this repository (inside it, skillgrade's own code reads keys such as
`triggers`, which exempts a skill as a package that reads them):

- it names a `triggers:` list nothing reads (held-out set 34: Aradotso's skills keep their trigger phrases
  there, where no agent looks);
- it stays silent on a private copy kept under an `internal/` folder whose description opens "Internal …"
  (held-out set 35: `skills/internal/gh/branch-reset`, "Internal mirror for the public `@gh-reset`"); either
  half alone is an ordinary skill."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.findings import Finding
from skillgrade.analyzers.report import analyze


def _findings(tmp_path: Path, folder: str, description: str, extra: str = "") -> list[Finding]:
    skill = tmp_path / "repo" / folder
    skill.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    text = f"---\nname: {skill.name}\ndescription: {description}\n{extra}---\n\n# Skill\n\nDo the work.\n"
    (skill / "SKILL.md").write_text(text)
    report = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER",)),
                     workspace_root=tmp_path / "repo")
    return report.findings


OPTIMIZER = "Complexity optimizer. Simplifies Codex plans and prompts."
PLAIN_MESSAGE = '`description` has no trigger clause (e.g. "Use when …"); the agent cannot tell when to load this skill'


def test_an_unread_triggers_list_is_named(tmp_path: Path) -> None:
    found = _findings(tmp_path, "skills/optimizer", OPTIMIZER, "triggers:\n  - optimize complexity\n  - simplify this plan\n")
    assert [f.message for f in found] == [
        PLAIN_MESSAGE + " (no agent reads the `triggers` list: put its phrases in the description)"]


def test_without_a_list_the_message_is_plain(tmp_path: Path) -> None:
    assert [f.message for f in _findings(tmp_path, "skills/optimizer", OPTIMIZER, "trigger: user_request\n")] == [
        PLAIN_MESSAGE]


INTERNAL = "Internal branch reset guidance, destructive reset/clean only, explicit confirmations."
RESET = "Branch reset guidance, destructive reset/clean only, explicit confirmations."


def test_an_internal_copy_under_internal_is_not_routed(tmp_path: Path) -> None:
    assert _findings(tmp_path, "skills/internal/gh/branch-reset", INTERNAL) == []


REGISTRY = "Central registry of URL detection patterns and extraction rules."


@pytest.mark.parametrize(("folder", "extra", "silent"), [
    # held-out set 45: a registry other skills consult, marked private by its frontmatter, not its description
    ("skills/internal/context/url-patterns", "visibility: internal\n", True),
    ("skills/internal/context/url-patterns", "visibility: Private\n", True),
    ("skills/internal/context/internal-url-patterns", "", True),  # name opens `internal-`
    ("skills/context/url-patterns", "visibility: internal\n", False),  # the marker alone: routed like any other
    ("skills/internal/context/url-patterns", "visibility: public\n", False),  # the folder alone
    ("tools/internal/deploy", "", False),  # a company's internal tools: no marker
])
def test_a_frontmatter_marker_under_internal_is_not_routed(tmp_path: Path, folder: str, extra: str,
                                                           silent: bool) -> None:
    found = _findings(tmp_path, folder, REGISTRY, extra)
    assert found == [] if silent else [f.code for f in found] == ["MISSING_TRIGGER"]


@pytest.mark.parametrize(("folder", "description"), [
    ("skills/gh/branch-reset", INTERNAL),  # "Internal …" alone: an ordinary skill about internals
    ("skills/internal/gh/branch-reset", RESET),  # the folder alone
])
def test_either_half_alone_is_reported(tmp_path: Path, folder: str, description: str) -> None:
    assert [f.code for f in _findings(tmp_path, folder, description)] == ["MISSING_TRIGGER"]
