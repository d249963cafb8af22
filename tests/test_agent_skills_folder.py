"""A skill kept in an `<agent>/skills/` folder is that agent's (held-out set 46: JayRovacsek/nix-config's
`home-manager-modules/opencode/skills/`, a Home Manager module that installs them into OpenCode, which does not read
`allowed-tools`): the Claude Code-only rules stay silent. Not in a folder no agent names, nor when the skill names
Claude Code."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.parse import parse

SKILL = """---
name: market-research
description: Analyses competitors and defines personas. Use when the user plans a product.
allowed-tools:
  - Read
  - Bash
---

# Market research

{body}
"""


def _codes(root: Path, folder: str, body: str = "Look outward before deciding.") -> list[str]:
    skill = root / folder / "market-research" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    text = SKILL.format(body=body)
    skill.write_text(text)
    return [f.code for f in run_rules(parse(text, skill), Config(select=("UNRESTRICTED_BASH",)))[0]]


@pytest.mark.parametrize("folder", ["home-manager-modules/opencode/skills", "windsurf/skills", "modules/Codex/skills"])
def test_agent_skills_folder(tmp_path: Path, folder: str) -> None:
    assert _codes(tmp_path, folder) == []


@pytest.mark.parametrize("folder", ["home-manager-modules/tools/skills", "opencode/docs", "skills"])
def test_other_folders_still_reported(tmp_path: Path, folder: str) -> None:
    assert _codes(tmp_path, folder) == ["UNRESTRICTED_BASH"]


def test_skill_naming_claude_code(tmp_path: Path) -> None:
    assert _codes(tmp_path, "opencode/skills", "Works in Claude Code as well.") == ["UNRESTRICTED_BASH"]
