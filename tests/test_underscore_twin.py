"""DEAD_LINK and a wheel's underscored package data (set 39p, agentic_scriptorium): the wheel ships
`scriptorium/_skills/<name>/` and `scriptorium/_knowledge/`, its installer copies them side by side as
`skills/` and `knowledge/`, so a skill's `../../knowledge/x.md` works once installed. A target missing from
`_knowledge/` too, a file right above the skills, or skills in a folder without the underscore still fire."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

BODY = ("# Review\n\nSee [authority](../../knowledge/conventions/authority.md), "
        "[typo](../../knowledge/conventions/typo.md) and [design](../../DESIGN.md).\n")


def _tree(root: Path, container: str) -> Path:
    pkg = root / "scriptorium"
    (pkg / "_knowledge" / "conventions").mkdir(parents=True)
    (pkg / "_knowledge" / "conventions" / "authority.md").write_text("# Authority\n")
    skill = pkg / container / "review"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: review\ndescription: Reviews manuscripts. Use when asked to review a paper.\n---\n\n" + BODY,
        encoding="utf-8")
    (skill / "README.md").write_text(BODY, encoding="utf-8")  # a bundled guide with the same links
    return skill / "SKILL.md"


def _dead(path: Path, root: Path) -> list[tuple[str, str]]:
    rep = analyze(path.read_text(), path, config=Config(select=("DEAD_LINK",)), workspace_root=root)
    return sorted((f.file or "SKILL.md", f.message) for f in rep.findings)


def test_underscored_twin_of_a_folder_above_the_skills_is_alive(tmp_path: Path) -> None:
    path = _tree(tmp_path, "_skills")
    assert _dead(path, tmp_path) == [
        ("README.md", "Link target `../../DESIGN.md` does not exist"),
        ("README.md", "Link target `../../knowledge/conventions/typo.md` does not exist"),
        ("SKILL.md", "Link target `../../DESIGN.md` does not exist"),
        ("SKILL.md", "Link target `../../knowledge/conventions/typo.md` does not exist"),
    ]


def test_without_an_underscored_container_the_link_is_dead(tmp_path: Path) -> None:
    path = _tree(tmp_path, "skills")
    got = _dead(path, tmp_path)
    assert ("SKILL.md", "Link target `../../knowledge/conventions/authority.md` does not exist") in got
    assert ("README.md", "Link target `../../knowledge/conventions/authority.md` does not exist") in got
    assert len(got) == 6
