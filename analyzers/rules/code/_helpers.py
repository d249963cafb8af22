"""Fences as the author paired them: the reading the code rules compare CommonMark's with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import rx

if TYPE_CHECKING:
    from ...document import SkillDocument

# container prefixes: spaces, tabs, quote markers and list markers, in any order (alternatives start
# with different characters, so the scan is linear)
_PREFIX = rx.compile(r"(?:[ \t>]|(?:[-+*]|\d{1,9}[.)])[ \t])*")


@dataclass(frozen=True, slots=True)
class FenceLine:
    """A line that looks like a code fence once container prefixes are removed."""

    column: int  # where the fence characters start
    marker: str  # "`" or "~"
    run: int  # how many fence characters
    info: str  # the info string, stripped


SWALLOWING_KINDS = (6, 7)  # HTML blocks that run to the next blank line: `<div>`-like block tags, any lone tag


def fence_line(line: str) -> FenceLine | None:
    """The fence this line holds, ignoring block-quote, list and indentation context, or None."""
    if "```" not in line and "~~~" not in line:
        return None
    col = 0 if line[:1] in ("`", "~") else _PREFIX.match(line).end()  # type: ignore[union-attr]
    marker = line[col:col + 1]
    if marker not in ("`", "~") or not line.startswith(marker * 3, col):
        return None
    info = line[col:].lstrip(marker)
    end = len(line) - len(info)
    if marker == "`" and "`" in info:
        return None  # inline code at a line start, not a fence
    return FenceLine(col, marker, end - col, info.strip())


@dataclass(frozen=True, slots=True)
class Pairing:
    """Fences paired in reading order, as an author writes them: each opener with the next line that
    can close it (same character, at least as long, no info string), whatever HTML blocks, list items
    or quotes CommonMark sees around them."""

    closes: dict[int, int | None]  # opener line -> its closer line (None: no closer follows)
    closers: frozenset[int]


def author_pairing(lines: list[str], start: int, skip: set[int] | frozenset[int] = frozenset(),
                   end: int | None = None) -> Pairing:
    """Pair the fences of lines[start:end] in one linear pass, ignoring the lines in `skip`."""
    closes: dict[int, int | None] = {}
    closers: set[int] = set()
    open_at: int | None = None
    marker, run = "", 0
    for ln in range(start, len(lines) if end is None else min(end, len(lines))):
        if ln in skip:
            continue
        f = fence_line(lines[ln])
        if f is None:
            continue
        if open_at is None:
            open_at, marker, run = ln, f.marker, f.run
        elif f.marker == marker and f.run >= run and not f.info:
            closes[open_at] = ln
            closers.add(ln)
            open_at = None
    if open_at is not None:
        closes[open_at] = None
    return Pairing(closes, frozenset(closers))


def document_pairing(doc: SkillDocument) -> Pairing:
    """The author's pairing of the body's fences; lines that are certainly no fence to anyone (indented
    code blocks, HTML comments) are left out."""
    skip = set(doc.html_comment_lines)
    for b in doc.code_blocks:
        if not b.fenced:
            skip.update(range(b.start_line, b.end_line))
    return author_pairing(doc.lines, doc.body_start_line, skip)


def line_break(doc: SkillDocument, line: int) -> str:
    """The line break that ends `line` in the file ("\\n" after the last line), so fixes keep CRLF files CRLF."""
    starts = doc.index.starts
    if line + 1 >= len(starts):
        return "\n"
    return doc.text[starts[line] + len(doc.lines[line]):starts[line + 1]] or "\n"


def closes_fence(line: str, marker: str, run: int) -> bool:
    """Whether a top-level line closes a fence of `run` `marker`s (CommonMark: indented at most 3)."""
    s = line.lstrip(" ")
    if len(line) - len(s) > 3 or not s.startswith(marker * run):
        return False
    return not s.rstrip(" \t").strip(marker)


FRONTMATTER_KEYS_WITHIN = 200  # lines a fenced frontmatter block may span


def fenced_frontmatter(lines: list[str]) -> int | None:
    """The line of the fence that closes a code fence opened on line 1 around the skill's own frontmatter
    (```` ```yaml ```` / ```` ````skill ```` on line 1, `---` on line 2, a `name:` or `description:` key before the
    next `---`): the file's last non-blank line when that closes it (the whole file wrapped, as its author paired
    the fences), else the first line that closes it; None when nothing does."""
    fence = fence_line(lines[0]) if len(lines) >= 4 else None
    if fence is None or fence.column or lines[1].rstrip() != "---":
        return None
    keyed = False
    for k in range(2, min(len(lines), 2 + FRONTMATTER_KEYS_WITHIN)):
        if lines[k].rstrip() in ("---", "..."):
            break
        keyed = keyed or lines[k].startswith(("name:", "description:"))
    if not keyed:
        return None
    last = next(k for k in range(len(lines) - 1, 1, -1) if lines[k].strip())  # (a key line at least)
    if closes_fence(lines[last], fence.marker, fence.run):
        return last  # the whole file wrapped, as the author paired the fences (``` blocks inside close it earlier)
    return next((k for k in range(2, len(lines)) if closes_fence(lines[k], fence.marker, fence.run)), None)


def closes_inner_fence(lines: list[str], start: int, close: int) -> bool:
    """Whether, read without the fence line `start`, line `close` closes a fence opened between them (the wrapper's
    closing line doubles as the end of a block inside it: ```` ````yaml ```` … ```` ```bash ```` … ```` ```` ````)."""
    open_fence: FenceLine | None = None
    for k in range(start + 1, close):
        line = lines[k]
        if open_fence is not None:
            if closes_fence(line, open_fence.marker, open_fence.run):
                open_fence = None
            continue
        f = fence_line(line)
        if f is not None and f.column <= 3 and not line[:f.column].strip():
            open_fence = f
    return open_fence is not None and closes_fence(lines[close], open_fence.marker, open_fence.run)
