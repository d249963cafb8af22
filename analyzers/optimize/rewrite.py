"""Write a new description into a SKILL.md: only the `description` value changes, every other byte stays.

Style: the author's block scalar (`>`, `|`, with its chomping and indentation indicators and header comment)
is kept, the new text written at the block's indentation (folded `>` wrapped at spaces, literal `|` on one
line); a single-quoted value stays single-quoted (`''` escapes), a double-quoted one double-quoted (JSON
escapes, valid YAML); a plain value stays plain when the text is safe as a plain scalar, else it becomes
double-quoted. The result is re-parsed: every other top-level field must have the same value and the
description must read back as the new text, else RewriteError (nothing is written).
"""

from __future__ import annotations

import difflib
import json

import yaml

from .. import rx
from ..document import LineIndex
from ..parse import parse

WRAP = 80
_HEADER = rx.compile(r"([|>])([+-]?)([1-9]?)([+-]?)")
_PLAIN_FIRST = set("-?:,[]{}#&*!|>'\"%@`")


class RewriteError(ValueError):
    """The description cannot be rewritten safely (one line for the user)."""


def one_line(text: str) -> str:
    return " ".join(text.split())


def plain_safe(text: str) -> bool:
    """Whether `text` reads back as this exact string when written as a plain scalar after `key: `."""
    if not text or text != text.strip() or text[0] in _PLAIN_FIRST or ": " in text or " #" in text:
        return False
    if text.endswith(":") or any(ord(c) < 32 or c in "\x7f\u2028\u2029\ufeff" for c in text):
        return False
    try:
        return yaml.safe_load(f"k: {text}\n") == {"k": text}
    except yaml.YAMLError:
        return False


def double_quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # JSON's escapes are YAML double-quoted escapes


def single_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def wrap_words(text: str, width: int) -> list[str]:
    """Break at single spaces only (the text is one_line'd), never inside a word."""
    lines: list[str] = []
    cur = ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        lines.append(cur)
    return lines


def _eol_after(text: str, offset: int) -> tuple[int, str]:
    """(offset of the end of the line holding `offset`, the line break that follows it)."""
    m = rx.compile(r"\r\n|\r|\n").search(text, offset)
    if m is None:
        return len(text), "\n"
    return m.start(), m.group(0)


def _block(text: str, index: LineIndex, fld, new: str) -> tuple[int, int, str]:  # type: ignore[no-untyped-def]
    start = index.offset(fld.value_range.start)
    m = _HEADER.match(text, start)
    if m is None:
        raise RewriteError("the description's block scalar header could not be read")
    style, digit = m.group(1), m.group(3)
    head_line = fld.value_range.start.line
    header_end, eol = _eol_after(text, start)
    key_indent = fld.key_range.start.character
    lines = index.lines
    first_content = None
    last_content = None
    i = head_line + 1
    while i < len(lines):
        line = lines[i]
        if line.strip() == "":
            i += 1
            continue
        ind = len(line) - len(line.lstrip(" "))
        if ind <= key_indent:
            break
        if first_content is None:
            first_content = i
        last_content = i
        i += 1
    if digit:
        indent = key_indent + int(digit)
    elif first_content is not None:
        line = lines[first_content]
        indent = len(line) - len(line.lstrip(" "))
    else:
        indent = key_indent + 2
    pad = " " * indent
    body = wrap_words(new, max(20, WRAP - indent)) if style == ">" else [new]
    replacement = "".join(eol + pad + part for part in body)
    end = header_end if last_content is None else index.starts[last_content] + len(lines[last_content])
    return header_end, end, replacement




def rewrite_description(text: str, new: str) -> str:
    """`text` with its description replaced by `new` (whitespace runs collapsed to one space); RewriteError
    when the file has no readable string description or the result would not read back as intended."""
    new = one_line(new)
    if not new:
        raise RewriteError("the new description is empty")
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    src = text[len(bom):]
    doc = parse(src)
    fm = doc.frontmatter
    if not fm.ok or fm.root_kind != "mapping":
        raise RewriteError("the frontmatter cannot be read as a YAML mapping")
    fld = fm.get("description")
    if fld is None or not isinstance(fld.value, str):
        raise RewriteError("the frontmatter has no text `description` to rewrite")
    index = LineIndex(src)
    if fld.style in ("|", ">"):
        start, end, replacement = _block(src, index, fld, new)
    else:
        start, end = index.offset(fld.value_range.start), index.offset(fld.value_range.end)
        if fld.style == "'":
            replacement = single_quoted(new)
        elif fld.style == '"' or not plain_safe(new):
            replacement = double_quoted(new)
        else:
            replacement = new
    out = src[:start] + replacement + src[end:]
    verify(src, out, new)
    return bom + out


def verify(before: str, after: str, new: str) -> None:
    """Every other top-level field unchanged (keys, order, values) and the description reads back as `new`
    (block scalars: up to their trailing line breaks, which the chomping indicator decides)."""
    a, b = parse(before).frontmatter, parse(after).frontmatter
    if not b.ok or b.root_kind != "mapping":
        raise RewriteError("the rewritten frontmatter would not parse")
    if list(a.fields) != list(b.fields) or len(a.problems) != len(b.problems):
        raise RewriteError("the rewrite would change the frontmatter's keys")
    for key, fld in a.fields.items():
        if key != "description" and b.fields[key].value != fld.value:
            raise RewriteError(f"the rewrite would change `{key}`")
    got = b.fields["description"].value
    style = b.fields["description"].style
    if not isinstance(got, str) or (got.rstrip("\n") if style in ("|", ">") else got) != new:
        raise RewriteError("the new description would not read back as written")


def unified_diff(before: str, after: str, path: str = "SKILL.md") -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))
