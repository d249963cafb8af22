"""UNINVOCABLE_SKILL stays silent on an agent-only skill: both flags set on purpose, and a subagent of the same
plugin or project preloads it through the `skills:` list of its definition (held-out set 45p: nWave's
`agents/nw-platform-architect.md` lists `nw-infrastructure-and-observability`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.parse import parse

SKILL = """---
name: {name}
description: Checks readiness. Use when a reviewer agent validates a story.
disable-model-invocation: true
user-invocable: false
---

# Readiness

Check each item.
"""


def _codes(root: Path, skills: str, agents: str | None, agent_text: str | None) -> set[str]:
    skill = root / skills / "dor-validation" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    text = SKILL.format(name="dor-validation")
    skill.write_text(text)
    if agents is not None and agent_text is not None:
        (root / agents).mkdir(parents=True, exist_ok=True)
        (root / agents / "reviewer.md").write_text(agent_text)
    config = Config(select=("UNINVOCABLE_SKILL",))
    return {f.code for f in run_rules(parse(text, skill), config)[0]}


LISTS = "---\nname: reviewer\ndescription: Reviews stories.\nskills:\n  - other-skill\n  - dor-validation\n---\n\nReview.\n"


@pytest.mark.parametrize(("skills", "agents", "agent_text", "silent"), [
    ("plugin/skills", "plugin/agents", LISTS, True),
    (".claude/skills", ".claude/agents", LISTS, True),
    ("plugin/skills", "plugin/agents", LISTS.replace("  - other-skill\n  - dor-validation\n", " dor-validation, x\n"), True),
    ("plugin/skills", "plugin/agents", LISTS.replace("  - dor-validation", "  - plugin:dor-validation"), True),
    ("plugin/skills", "plugin/agents", LISTS.replace("  - dor-validation\n", ""), False),  # lists other skills only
    ("plugin/skills", "plugin/agents", "# reviewer\n\nUses dor-validation.\n", False),  # no frontmatter list
    ("plugin/skills", "plugin/other", LISTS, False),  # not the agents folder beside the skills
    ("plugin/skills", None, None, False),  # the rule page's example: nobody loads it
])
def test_agent_only_skill(tmp_path: Path, skills: str, agents: str | None, agent_text: str | None,
                          silent: bool) -> None:
    assert _codes(tmp_path, skills, agents, agent_text) == (set() if silent else {"UNINVOCABLE_SKILL"})


def test_an_agent_definition_changed_later_is_seen(tmp_path: Path) -> None:
    """The agents folder is read once while its files stand (a plugin's agent-only skills share it); a definition
    that stops listing the skill brings the finding back, as a long-lived server must see."""
    assert _codes(tmp_path, "plugin/skills", "plugin/agents", LISTS) == set()
    agent = tmp_path / "plugin" / "agents" / "reviewer.md"
    agent.write_text(LISTS.replace("  - dor-validation\n", "") + "\n")  # (a different size, whatever the clock)
    skill = tmp_path / "plugin" / "skills" / "dor-validation" / "SKILL.md"
    text = skill.read_text()
    assert {f.code for f in run_rules(parse(text, skill), Config(select=("UNINVOCABLE_SKILL",)))[0]} == {
        "UNINVOCABLE_SKILL"}
