"""FRONTMATTER_MISSING on a frontmatter block that starts after comments: its fix keeps the file's line breaks."""

from __future__ import annotations

import pytest

from skillgrade.analyzers import fixes
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze


def _fixed(text: str) -> str:
    (f,) = analyze(text, None, config=Config(select=("FRONTMATTER_MISSING",))).findings
    assert f.message.startswith("The frontmatter block starts at line")
    fixed, _ = fixes.apply_fixes(text, [f.fix])
    return fixed


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_the_lines_above_move_below_with_their_own_line_breaks(nl: str) -> None:
    text = nl.join(["<!-- mirrored -->", "", "---", "name: x", "description: Use when testing.", "---", "# X", ""])
    want = nl.join(["---", "name: x", "description: Use when testing.", "---", "<!-- mirrored -->", "", "# X", ""])
    assert _fixed(text) == want


def test_a_block_that_ends_the_file_gets_the_lines_after_a_break() -> None:
    text = "<!-- m -->\n---\nname: x\ndescription: Use when testing.\n---"
    assert _fixed(text) == "---\nname: x\ndescription: Use when testing.\n---\n<!-- m -->"
