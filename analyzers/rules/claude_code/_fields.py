"""Ranges inside frontmatter values, and the `allowed-tools` entries with their ranges."""

from __future__ import annotations

from collections.abc import Iterator

from ...claude_code import ToolEntry, split_tools
from ...document import Field, SkillDocument
from ...findings import Pos, Range


def sub_range(doc: SkillDocument, rng: Range, text: str, start: int, end: int) -> Range:
    """The range of text[start:end] where `text` is the value written on one line in `rng`; else `rng`."""
    return _within(rng, _column(doc, rng, text), start, end)


def _column(doc: SkillDocument, rng: Range, text: str) -> int | None:
    """The column where `text` (a value written on one line in `rng`) starts; None when it is not found there."""
    if rng.start.line != rng.end.line:
        return None
    at = doc.source(rng).find(text)
    return None if at < 0 else rng.start.character + at


def _within(rng: Range, col: int | None, start: int, end: int) -> Range:
    return rng if col is None else Range(Pos(rng.start.line, col + start), Pos(rng.start.line, col + end))


def value_range(doc: SkillDocument, fld: Field) -> Range:
    """The value's text without quotes when it is written on one line, else the whole value."""
    text = fld.text
    return sub_range(doc, fld.value_range, text, 0, len(text)) if text else fld.value_range


def tool_entries(doc: SkillDocument, fld: Field) -> Iterator[tuple[ToolEntry, Range]]:
    """Every entry of `allowed-tools` (a string or a list of strings) with its range in the file."""
    v = fld.value
    if isinstance(v, str):
        col = _column(doc, fld.value_range, v)  # (found once for the value, not once per entry: 10^4 entries)
        for e in split_tools(v):
            yield e, _within(fld.value_range, col, e.start, e.start + len(e.text))
    elif isinstance(v, list) and fld.node is not None and fld.node.__class__.__name__ == "SequenceNode":
        for item, node in zip(v, fld.node.value, strict=False):
            if not isinstance(item, str):
                continue
            rng = doc.node_range(node)
            col = _column(doc, rng, item)
            for e in split_tools(item):
                yield e, _within(rng, col, e.start, e.start + len(e.text))
