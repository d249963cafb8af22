"""Where Claude Code's argument placeholders are in a skill, and whether the skill takes arguments."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

from ... import rx
from ...codespan import code_spans
from ...document import SkillDocument
from ...lazy_re import lazy_compile

# a positional placeholder as Claude Code reads it (`/\$(\d+)(?!\w)/`, 0-based; anthropics/claude-code#94709,
# garrytan/gstack#2896): `$` + one digit not followed by a word character, not escaped with a backslash.
# `$12` (argument 13) is left out: it needs 13 words of arguments.
POSITIONAL = rx.compile(r"(?<!\\)\$([0-9])(?!\w)")
ARGUMENTS = lazy_compile(r"(?<!\\)\$ARGUMENTS\b(?:\[[0-9]+\])?")
# a code span that is nothing but a placeholder: the author writing about the argument (`$0`)
_BARE = rx.compile(r"^`+\s*\$(?:[0-9]|ARGUMENTS(?:\[[0-9]+\])?)\s*`+$")
_PRICE_AFTER = lazy_compile(r"[0-9]*(?:[.,][0-9]|[kKmMbB]\b|\s*(?:USD|per|/|a\s|an\s|each))")


@dataclass(frozen=True, slots=True)
class CodeText:
    """A piece of code in the body: a line of a code block, or an inline code span."""

    line: int
    column: int  # where `text` starts on the line
    text: str
    block: bool  # a code-block line (else an inline span)
    example: bool  # inside a fenced block that shows a SKILL.md or command file (frontmatter keys)


_EXAMPLE_KEYS = rx.compile(r"^\s*(?:argument-hint|allowed-tools|disable-model-invocation|user-invocable)\s*:",
                           re.M)


def code_texts(doc: SkillDocument) -> Iterator[CodeText]:
    """Code-block lines and inline code spans of the body, in order."""
    lines = doc.lines
    cand = doc.index.lines_with(("$",))  # the lines with a `$`: most code has none
    cand = cand[bisect_left(cand, doc.body_start_line):]
    if not cand:
        return
    block_lines: dict[int, bool] = {}
    for b in doc.code_blocks:
        example = bool(b.fenced and _EXAMPLE_KEYS.search(b.content))
        last = b.end_line - 1 if (b.fenced and b.closed) else b.end_line
        for ln in range(b.content_start_line, min(last, len(lines))):
            block_lines[ln] = example
    for ln in cand:
        text = lines[ln]
        if ln in block_lines:
            yield CodeText(ln, 0, text, True, block_lines[ln])
        elif ln in doc.code_lines or ln in doc.html_comment_lines:
            continue  # fence lines
        elif "`" in text:
            for a, b in code_spans(text):
                span = text[a:b]
                if "$" in span and not _BARE.match(span):
                    yield CodeText(ln, a, span, False, False)


def prose_placeholders(doc: SkillDocument) -> tuple[bool, bool]:
    """(uses $ARGUMENTS, uses a positional placeholder) in the body's prose or as a bare code span."""
    args = positional = False
    for p in doc.prose:
        t = p.text
        if "$" not in t:
            continue
        args = args or bool(ARGUMENTS.search(t))
        for m in POSITIONAL.finditer(t):
            if not _PRICE_AFTER.match(t, m.end()):
                positional = True
    for ln in doc.index.lines_with(("`$",)):
        text = doc.lines[ln]
        if ln >= doc.body_start_line and ln not in doc.code_lines:
            for a, b in code_spans(text):
                if _BARE.match(text[a:b]):
                    if "ARGUMENTS" in text[a:b]:
                        args = True
                    else:
                        positional = True
    return args, positional


def accepts_arguments(doc: SkillDocument) -> str | None:
    """Why the skill takes arguments (a short reason), or None.

    A skill takes arguments when its frontmatter says so (`argument-hint`, `arguments`) or its body
    uses `$ARGUMENTS` / `$ARGUMENTS[N]` anywhere (Claude Code's own syntax, meaningless elsewhere).
    """
    fm = doc.frontmatter
    for key in ("argument-hint", "arguments"):
        fld = fm.get(key) if fm.ok else None
        if fld is not None and fld.value not in (None, "", []):
            return f"its `{key}`"
    body = doc.body_text
    if "$ARGUMENTS" in body and ARGUMENTS.search(body):
        return "its `$ARGUMENTS`"
    return None
