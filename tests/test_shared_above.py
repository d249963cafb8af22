"""A link to `references/…` or `assets/…` that exists in a folder above the skill (kept once for every skill
under it and merged into each when a package installs them) is not a missing file (set 19: ken-rank keeps
`skills/references/kql2/` for all its bundled skills). A file that exists nowhere is still reported."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

CFG = Config(select=("ORPHAN_REFERENCE", "DEAD_LINK"))


def _codes(tmp_path: Path, body: str) -> list[tuple[str, str]]:
    (tmp_path / ".git").mkdir(exist_ok=True)
    skill = tmp_path / "pkg/skills/bundled/find-code"
    skill.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: find-code\ndescription: Finds code. Use when the user asks where code lives.\n---\n\n{body}\n"
    (skill / "SKILL.md").write_text(text)
    rep = analyze(text, skill / "SKILL.md", config=CFG, workspace_root=tmp_path)
    return sorted((f.code, f.message) for f in rep.findings)


def test_shared_references_and_assets_above_the_skill(tmp_path: Path) -> None:
    shared = tmp_path / "pkg/skills"
    (shared / "references/kql2").mkdir(parents=True)
    (shared / "references/kql2/relationships.md").write_text("# Relationships\n")
    (shared / "assets").mkdir()
    (shared / "assets/logo.png").write_bytes(b"\x89PNG")
    body = ("Read [relationships](references/kql2/relationships.md) and see ![logo](assets/logo.png).\n"
            "Also [gone](references/kql2/gone.md) and ![x](assets/none.png).")
    assert _codes(tmp_path, body) == [
        ("DEAD_LINK", "Link target `assets/none.png` does not exist"),
        ("ORPHAN_REFERENCE", "Link target `references/kql2/gone.md` does not exist in `references/`"),
    ]


def test_a_bare_file_name_above_the_skill_is_not_a_shared_file(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/NOTES.md").write_text("# Notes\n")  # the repository's notes, not the skill's
    assert [c for c, _m in _codes(tmp_path, "See [notes](NOTES.md).")] == ["DEAD_LINK"]


def test_a_path_back_into_the_skill_is_not_shared(tmp_path: Path) -> None:
    """Set 9: `skills/scitex/SKILL.md` links `scitex/SKILL.md` (a sub-skill the package lacks); from `skills/`
    that path is the skill itself, not a file kept above it."""
    (tmp_path / ".git").mkdir()
    skill = tmp_path / "skills/scitex"
    skill.mkdir(parents=True)
    text = "---\nname: scitex\ndescription: Science tools. Use when the user asks for science tools.\n---\n\n" \
           "See [scitex](scitex/SKILL.md).\n"
    (skill / "SKILL.md").write_text(text)
    rep = analyze(text, skill / "SKILL.md", config=CFG, workspace_root=tmp_path)
    assert [f.code for f in rep.findings] == ["DEAD_LINK"]
