"""A skill kept in an archive folder is a retired copy: DEAD_LINK does not check the links that leave its folder
(they point where the original lived), and MISSING_TRIGGER does not ask it for a trigger."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.parse import scan_skill_files
from skillgrade.analyzers.report import analyze

TEXT = """---
name: open-questions
description: Keeps the open-questions journal of the project.
---

# Open questions

Follow [ADR-0008](../../adr/0008-open-questions-journal.md) and [the script](scripts/sync.sh).
"""


def _codes(ws: Path, folder: str, select: tuple[str, ...]) -> list[tuple[str, str]]:
    skill = ws / folder / "open-questions"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(TEXT, encoding="utf-8")
    report = analyze(TEXT, skill / "SKILL.md", config=Config(select=select), workspace_root=ws,
                     files=scan_skill_files(skill, ws))
    return [(f.code, f.message) for f in report.findings]


@pytest.mark.parametrize("folder", [".claude-archive/2026-05-21/.claude/skills", "archived/skills",
                                    "_archive/skills", "skills-archive"])
def test_a_retired_copy_keeps_only_its_own_dead_links(tmp_path: Path, folder: str) -> None:
    found = _codes(tmp_path, folder, ("DEAD_LINK", "MISSING_TRIGGER"))
    assert found == [("DEAD_LINK", "Link target `scripts/sync.sh` does not exist")]


@pytest.mark.parametrize("folder", [".claude/skills", "zip-archive-tools/skills", "archivist/skills"])
def test_a_live_skill_gets_every_dead_link_and_the_trigger_finding(tmp_path: Path, folder: str) -> None:
    found = _codes(tmp_path, folder, ("DEAD_LINK", "MISSING_TRIGGER"))
    assert sorted(c for c, _ in found) == ["DEAD_LINK", "DEAD_LINK", "MISSING_TRIGGER"]
