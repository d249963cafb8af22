"""Squad's earned skills (held-out set 47: `ronniegeraghty/azure-sdk-prompts`, whose `.agents/skills/` follow Squad's
template): `domain`, `confidence` (low / medium / high) and `source` are the keys Squad's agents write and its
coordinator reads. Known in that shape or under a Squad team's folder (`.squad/skills/`, `.ai-team/skills/`);
the same keys without the shape, elsewhere, are still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.parse import parse

SKILL = """---
name: "error-handling"
description: "Return errors up, no log-and-return, %w wrapping. Use when writing or reviewing Go error paths."
{keys}
---

## Context

Errors bubble up the call stack and are logged once, at the top.
"""

EARNED = 'domain: "quality"\nconfidence: "high"\nsource: "earned (internal/eval/engine.go patterns)"'


def _unknown(root: Path, folder: str, keys: str) -> list[str]:
    skill = root / folder / "error-handling" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    text = SKILL.format(keys=keys)
    skill.write_text(text)
    found = run_rules(parse(text, skill), Config(select=("UNKNOWN_FIELD",)))[0]
    return sorted(f.message.split("`")[1] for f in found)


@pytest.mark.parametrize("folder", [".agents/skills", ".claude/skills", "skills"])
def test_earned_skill_shape_is_known_anywhere(tmp_path: Path, folder: str) -> None:
    assert _unknown(tmp_path, folder, EARNED) == []


@pytest.mark.parametrize("keys", ['confidence: low\ndomain: testing', 'confidence: Medium\nsource: manual'])
def test_two_of_the_three_are_enough(tmp_path: Path, keys: str) -> None:
    assert _unknown(tmp_path, "skills", keys) == []


@pytest.mark.parametrize("folder", [".squad/skills", ".ai-team/skills"])
def test_squad_folders_know_the_keys_in_any_shape(tmp_path: Path, folder: str) -> None:
    assert _unknown(tmp_path, folder, 'domain: "quality"\nsource: "manual"') == []


def test_near_misses_still_reported(tmp_path: Path) -> None:
    # a confidence off Squad's lifecycle, or alone: no Squad shape, plain custom keys
    assert _unknown(tmp_path, "a/skills", 'confidence: 0.9\ndomain: quality') == ["confidence", "domain"]
    assert _unknown(tmp_path, "b/skills", 'confidence: high') == ["confidence"]
    assert _unknown(tmp_path, "c/skills", 'domain: "quality"\nsource: "manual"') == ["domain", "source"]
    # and a Squad skill's other custom keys are still reported
    assert _unknown(tmp_path, "d/skills", EARNED + "\nowner: platform-team") == ["owner"]
