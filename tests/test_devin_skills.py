"""Devin CLI's own skills (held-out set 46: `anlebao/Gemini_Windsurf`'s `.devin/skills/`): `triggers: [user, model]`
says who may invoke the skill (Devin's SkillTrigger), `permissions` and `subagent` are Devin's keys, and the folder
is Devin's, so the Claude Code-only rules stay silent. A `triggers` list of keywords, or the same keys in a Claude
Code skill, are still reported."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.parse import parse

SKILL = """---
name: ci-build-debug
description: "Diagnose & fix CI/CD build failures (dotnet Release, missing files, pre-existing errors)."
allowed-tools:
  - Bash
permissions:
  allow:
    - Read(src/**)
subagent: true
triggers:
{triggers}
---

# CI build debug

Read the failing job's log first.
"""


def _findings(root: Path, folder: str, triggers: str) -> list:
    skill = root / folder / "ci-build-debug" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    text = SKILL.format(triggers=triggers)
    skill.write_text(text)
    config = Config(select=("UNKNOWN_FIELD", "MISSING_TRIGGER", "UNRESTRICTED_BASH"))
    return run_rules(parse(text, skill), config)[0]


ROUTES = "  - user\n  - model"
KEYWORDS = "  - dotnet\n  - ci"


def test_devin_skill_keys_and_routes(tmp_path: Path) -> None:
    found = _findings(tmp_path, ".devin/skills", ROUTES)
    assert [f.code for f in found] == ["MISSING_TRIGGER"], found
    assert "no agent reads" not in found[0].message  # Devin's routes are no trigger phrases to move


def test_devin_routes_in_a_claude_skill(tmp_path: Path) -> None:
    # the routes alone mark the skill as Devin's dialect: its keys are known, the note stays out
    found = _findings(tmp_path, ".claude/skills", ROUTES)
    assert "UNKNOWN_FIELD" not in {f.code for f in found}, found
    assert all("no agent reads" not in f.message for f in found), found


def test_keyword_triggers_still_reported(tmp_path: Path) -> None:
    found = _findings(tmp_path, ".claude/skills", KEYWORDS)
    codes = sorted(f.code for f in found)
    assert codes == ["MISSING_TRIGGER", "UNKNOWN_FIELD", "UNKNOWN_FIELD", "UNKNOWN_FIELD", "UNRESTRICTED_BASH"], found
    trig = next(f for f in found if f.code == "MISSING_TRIGGER")
    assert "no agent reads the `triggers` list" in trig.message


def test_keyword_triggers_in_devin_folder(tmp_path: Path) -> None:
    # Devin's folder: its keys are known, the Claude Code-only rule is silent; the keyword list is no route of
    # Devin's, so the note stays
    found = _findings(tmp_path, ".devin/skills", KEYWORDS)
    assert [f.code for f in found] == ["MISSING_TRIGGER"], found
    assert "no agent reads the `triggers` list" in found[0].message
