"""MISSING_TRIGGER names a `triggers:` list nothing reads (held-out set 34: Aradotso's skills keep their trigger
phrases there, where no agent looks). A skill outside this repository: inside it, skillgrade's own code reads the
key, which exempts the skill as a package that reads its triggers."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze


def _messages(tmp_path: Path, extra: str) -> list[str]:
    skill = tmp_path / "repo" / "skills" / "optimizer"
    skill.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    text = f"---\nname: optimizer\ndescription: Complexity optimizer. Simplifies Codex plans and prompts.\n{extra}---\n\n# O\n"
    (skill / "SKILL.md").write_text(text)
    report = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER",)),
                     workspace_root=tmp_path / "repo")
    return [f.message for f in report.findings]


def test_an_unread_triggers_list_is_named(tmp_path: Path) -> None:
    msgs = _messages(tmp_path, "triggers:\n  - optimize complexity\n  - simplify this plan\n")
    assert msgs == ['`description` has no trigger clause (e.g. "Use when …"); the agent cannot tell when to load '
                    'this skill (no agent reads the `triggers` list: put its phrases in the description)']


def test_without_a_list_the_message_is_plain(tmp_path: Path) -> None:
    assert _messages(tmp_path, "trigger: user_request\n") == [
        '`description` has no trigger clause (e.g. "Use when …"); the agent cannot tell when to load this skill']
