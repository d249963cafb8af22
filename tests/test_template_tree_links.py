"""DEAD_LINK on a skill kept in a package's template of a project (held-out set 45q: harnesskit's
`templates/skills/scan-facts/` links `../../../ARCHITECTURE.md`): the installer copies the template into the project
and the skill into `.agents/skills/`, so a link to a file the template holds at its top is alive."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze


def _dead(tmp_path: Path, skill_rel: str, link: str, present: list[str]) -> list[str]:
    root = tmp_path / "pkg"
    (root / ".git").mkdir(parents=True)
    for rel in present:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("# x\n")
    skill = root / skill_rel / "SKILL.md"
    skill.parent.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {skill.parent.name}\ndescription: Use when scanning facts.\n---\n\n# Scan\n\nRead [the rules]({link}).\n"
    skill.write_text(text)
    found = analyze(text, skill, config=Config(select=("DEAD_LINK",)), workspace_root=root).findings
    return [f.message for f in found]


@pytest.mark.parametrize(("skill_rel", "link", "present", "dead"), [
    ("kit/templates/skills/scan-facts", "../../../ARCHITECTURE.md", ["kit/templates/ARCHITECTURE.md"], False),
    ("kit/templates/skills/scan-facts", "../../../docs/practices/a.md", ["kit/templates/docs/practices/a.md"], False),
    ("kit/templates/skills/scan-facts", "../../../RULES.md", ["kit/templates/ARCHITECTURE.md"], True),  # not in it
    ("kit/skills/scan-facts", "../../ARCHITECTURE.md", ["kit/templates/ARCHITECTURE.md"], True),  # no template
])
def test_template_tree_link(tmp_path: Path, skill_rel: str, link: str, present: list[str], dead: bool) -> None:
    assert bool(_dead(tmp_path, skill_rel, link, present)) is dead
