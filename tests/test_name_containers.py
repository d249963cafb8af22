"""NAME_DIR_MISMATCH / NAME_FORMAT on a package's container folder (`orchestra/skill-assets/SKILL.md`)."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.name.name_dir_mismatch import is_container


def _codes(tmp_path: Path, folder: str, name: str) -> list[str]:
    skill = tmp_path / "skills" / folder
    skill.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: Runs the orchestra. Use when the user asks to coordinate agents.\n---\n\n# O\n"
    (skill / "SKILL.md").write_text(text)
    report = analyze(text, skill / "SKILL.md", config=Config(select=("NAME_DIR_MISMATCH",)), workspace_root=tmp_path)
    return [f.code for f in report.findings]


def test_a_container_inside_a_folder_named_like_the_skill_is_not_a_mismatch(tmp_path: Path) -> None:
    assert _codes(tmp_path, "orchestra/skill-assets", "orchestra") == []


def test_a_container_inside_another_folder_still_is(tmp_path: Path) -> None:
    assert _codes(tmp_path, "conductor/skill-assets", "orchestra") == ["NAME_DIR_MISMATCH"]


def test_container_names() -> None:
    assert is_container("assets") and is_container("skill-assets") and is_container("Skill_Data")
    assert not is_container("claude-assets") and not is_container("pdf-tools") and not is_container("skills")

