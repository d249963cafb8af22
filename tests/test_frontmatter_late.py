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


def _fenced_fix(text: str) -> tuple[str, str]:
    (f,) = analyze(text, None, config=Config(select=("FRONTMATTER_MISSING",))).findings
    fixed, _ = fixes.apply_fixes(text, [f.fix])
    return f.message, fixed


FRONT = ["---", "name: x", "description: Use when merging.", "---", ""]


def test_a_fence_around_the_frontmatter_closing_a_block_inside_loses_only_its_opening_line() -> None:
    # ````yaml on line 1; its closing ```` doubles as the end of the ```bash block opened inside it
    body = ["# X", "Set it:", "```bash", "git config pull.rebase true", "````", "", "```bash", "git merge b",
            "```", ""]
    text = "\n".join(["````yaml", *FRONT, *body])
    msg, fixed = _fenced_fix(text)
    assert "closed on line 11" in msg and msg.endswith("remove the fence line above it")
    assert fixed == "\n".join([*FRONT, *body])
    fences = ("FRONTMATTER_MISSING", "UNCLOSED_FENCE", "NESTED_FENCE", "CODE_BLOCK_INVALID")
    assert analyze(fixed, None, config=Config(select=fences)).findings == []


def test_a_fence_closed_right_after_the_frontmatter_loses_both_lines() -> None:
    text = "\n".join(["```yaml", *FRONT[:4], "```", "", "# X", "Merge with care.", ""])
    msg, fixed = _fenced_fix(text)
    assert "closed on line 6" in msg and msg.endswith("remove the two fence lines")
    assert fixed == "\n".join([*FRONT[:4], "", "# X", "Merge with care.", ""])


def test_a_fence_on_line_one_without_frontmatter_keys_is_no_wrapper() -> None:
    text = "\n".join(["```yaml", "---", "status: draft", "---", "```", "# X", ""])
    (f,) = analyze(text, None, config=Config(select=("FRONTMATTER_MISSING",))).findings
    assert f.message.startswith("No YAML frontmatter")
