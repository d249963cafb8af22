"""DEAD_LINK on bare names the skill's parent folder holds: an installer that merges `skills/*.md` into each skill
(zwischen: `skills/direct.md` … with `skills/custom/SKILL.md` into `~/.claude/skills/z/`; re-sample 7)."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

FM = "---\nname: custom\ndescription: Routes commands. Use when the user types a z command.\n---\n\n# Z\n\n"


def _dead(tmp_path: Path, body: str, parent_files: tuple[str, ...]) -> list[str]:
    skills = tmp_path / "pkg" / "skills"
    (skills / "custom").mkdir(parents=True)
    for f in parent_files:
        (skills / f).write_text("# x\n")
    text = FM + body
    path = skills / "custom" / "SKILL.md"
    path.write_text(text)
    report = analyze(text, path, config=Config(select=("DEAD_LINK",)), workspace_root=tmp_path)
    return [f.message.split("`")[1] for f in report.findings]


def test_names_in_a_merged_parent_folder_are_not_dead(tmp_path: Path) -> None:
    body = "- [direct](direct.md)\n- [disable](./disable.md)\n- [gone](gone.md)\n"
    assert _dead(tmp_path, body, ("direct.md", "disable.md")) == ["gone.md"]


def test_one_name_in_the_parent_is_still_dead(tmp_path: Path) -> None:
    """`README.md` in `skills/`: one name is not a merged folder."""
    assert _dead(tmp_path, "See [the readme](README.md).\n", ("README.md",)) == ["README.md"]


def test_a_parent_that_is_a_skill_is_not_merged(tmp_path: Path) -> None:
    body = "- [direct](direct.md)\n- [disable](disable.md)\n"
    assert _dead(tmp_path, body, ("direct.md", "disable.md", "SKILL.md")) == ["direct.md", "disable.md"]
