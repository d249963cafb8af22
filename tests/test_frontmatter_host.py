"""FRONTMATTER_MISSING and NAME_MISSING in a Claude Code folder say what Claude Code falls back to; elsewhere they do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

TEXT = "# Change app id\n\nRenames the Android and iOS application id across the Flutter project.\n"


@pytest.mark.parametrize(("folder", "claude"), [(".claude/skills", True), ("skills", False), (".agents/skills", False)])
def test_the_message_names_claude_codes_fallback_only_in_its_folder(tmp_path: Path, folder: str, claude: bool) -> None:
    skill = tmp_path / folder / "change-app-id"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(TEXT, encoding="utf-8")
    (f,) = analyze(TEXT, skill / "SKILL.md", config=Config(select=("FRONTMATTER_MISSING",)),
                   workspace_root=tmp_path).findings
    assert f.message.startswith("No YAML frontmatter: SKILL.md must start with a `---` line")
    assert ("Claude Code falls back to the folder name and the first paragraph" in f.message) is claude


NO_NAME = "---\ndescription: Manages the dotfiles' symlinks. Use when adding a dotfile.\n---\n\n# Symlinks\n\nRun it.\n"


@pytest.mark.parametrize(("folder", "claude"), [(".claude/skills", True), ("skills", False), (".agents/skills", False)])
def test_name_missing_names_the_hosts_of_a_claude_folder(tmp_path: Path, folder: str, claude: bool) -> None:
    """NAME_MISSING stays in a Claude Code folder (OpenCode loads `.claude/skills` too and requires `name`), and there it
    says what Claude Code falls back to and who still needs the name."""
    skill = tmp_path / folder / "symlinks-developer"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(NO_NAME, encoding="utf-8")
    (f,) = analyze(NO_NAME, skill / "SKILL.md", config=Config(select=("NAME_MISSING",)), workspace_root=tmp_path).findings
    assert f.message.startswith("Frontmatter has no `name`")
    assert ("OpenCode, which also loads `.claude/skills`, requires it" in f.message) is claude
    assert f.fix is not None and "name: symlinks-developer" in f.fix.edits[0].new_text
