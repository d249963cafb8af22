"""FRONTMATTER_MISSING in a Claude Code folder says what Claude Code falls back to; elsewhere it does not."""

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
