"""UNCLOSED_FENCE: a fenced code block that is opened and never closed."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import CodeBlock, SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from ._helpers import document_pairing, fence_line, line_break

_ATX_2_TO_6 = lazy_compile(r"#{2,6}(?: |$)")


@rule("UNCLOSED_FENCE", family="code", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES)
def unclosed_fence(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A fenced code block is opened and never closed.

    ## What it does
    Reports, at its opening line, a fence (```` ``` ```` or `~~~`) that no later line closes. In
    CommonMark such a block runs to the end of the file (or of the list item or quote holding it), so
    every heading, link and instruction after it is shown, and read, as code.

    A fence that only looks unclosed because an earlier fence was swallowed by an HTML block (the
    fences pair up in reading order, but not in CommonMark) is left to `FENCE_IN_HTML_BLOCK`, and the
    outer closing fence of a block nested with a fence of the same length to `NESTED_FENCE`: each
    names the cause. A line holding only HTML comments and then a closing fence
    (`<!--/cap:search-->```: a template's section marker, stripped by its installer) counts as the
    author's closer. A fence with nothing but blank lines after it, at the end of the file, is named as
    what it is: a stray fence, with an unsafe fix that removes it.

    ## Why is this bad?
    The rest of the skill silently stops being instructions: headings vanish from the outline, links
    are no longer checked or followed, and a model reading the rendered text sees one long code
    block. Tagging the block (what `CODE_BLOCK_UNTAGGED` would suggest) locks the bug in.

    ## Example
    ````markdown
    ```bash
    pip install pypdf

    Then read [the guide](references/guide.md).
    ````

    Use instead:
    ````markdown
    ```bash
    pip install pypdf
    ```

    Then read [the guide](references/guide.md).
    ````

    ## Fix
    Add the closing fence (the same character, at least as many times) where the code ends. When the
    fence is at the top level, carries a language other than `markdown` / `md` (whose examples hold
    headings of their own; an untagged fence may be an author's closer read as an opener), and a `##`
    (or deeper) heading follows it after a blank line, the fix closes the block after the last line of
    code before that heading.

    ## Fix safety
    Always unsafe: only the author knows where the code was meant to end. The heading is a guess
    (a `## comment` inside a shell or Python block would end it early), so review the result.
    """
    unclosed = [b for b in doc.code_blocks if b.fenced and not b.closed]
    if not unclosed:
        return
    pairing = document_pairing(doc)
    from .nested_fence import nested_fences, nested_reading

    nested = nested_fences(doc)
    strays = {stray for _b, _inner, stray in nested}
    balanced = bool(nested) and nested_reading(doc) is not None
    for b in unclosed:
        if b.start_line in pairing.closers or b.start_line in strays:
            continue  # the author's closing fence, read as an opener: the cause is further up (NESTED_FENCE)
        if balanced and any(nb.start_line < b.start_line for nb, _i, _s in nested):
            continue  # the same, shifted further by a nesting NESTED_FENCE reports: read as nested, all close
        if _closed_after_marker(doc, b):
            continue  # a template's `<!--/section-->```: its installer strips the marker, the fence closes
        opened = b.start_line + 1
        if b.end_line >= doc.line_count and not any(ln.strip() for ln in doc.lines[opened:]):
            yield ctx.finding(b.open_range, f"Code fence on line {opened} opens an empty block at the end of the file: "
                                            "a stray fence (remove it)", _remove_stray(doc, b.start_line))
            continue
        if b.end_line >= doc.line_count:
            msg = f"Code fence opened on line {opened} is never closed: the rest of the file is code"
        elif b.end_line == opened:
            msg = f"Code fence opened on line {opened} is never closed: its list item or quote ends right after it"
        else:
            span = f"line {b.end_line} is" if b.end_line == opened + 1 else f"lines {opened + 1}-{b.end_line} are"
            msg = f"Code fence opened on line {opened} is never closed: {span} code, to the end of its list item or quote"
        meant = pairing.closes.get(b.start_line)
        if meant is not None:
            msg += (f"; line {meant + 1} looks like its closing fence but is indented too far or sits"
                    " outside the block's list item or quote")
        yield ctx.finding(b.open_range, msg, _close_before_heading(doc, b))


def _closed_after_marker(doc: SkillDocument, b: CodeBlock) -> bool:
    """A line of the block holding only HTML comments and then a fence that would close it
    (`<!--/cap:search-->```): a template's section marker glued to the author's closing fence."""
    fence = fence_line(doc.lines[b.start_line])
    if fence is None:
        return False
    for ln in range(b.start_line + 1, min(b.end_line, doc.line_count)):
        text = doc.lines[ln]
        rest = text.lstrip(" ")
        if len(text) - len(rest) > 3 or not rest.startswith("<!--"):
            continue
        while rest.startswith("<!--"):
            end = rest.find("-->", 4)
            if end < 0:
                break
            rest = rest[end + 3:].lstrip(" \t")
        else:
            run = len(rest) - len(rest.lstrip(fence.marker))
            if run >= fence.run and not rest[run:].strip():
                return True
    return False


def _remove_stray(doc: SkillDocument, ln: int) -> Fix:
    """An unsafe fix deleting a stray fence line (with the line break before it)."""
    if ln == 0:
        return Fix.unsafe("Remove the stray fence", Edit(Range(Pos(0, 0), Pos(0, len(doc.lines[0]))), ""))
    return Fix.unsafe("Remove the stray fence",
                      Edit(Range(Pos(ln - 1, len(doc.lines[ln - 1])), Pos(ln, len(doc.lines[ln]))), ""))


def _close_before_heading(doc: SkillDocument, b: CodeBlock) -> Fix | None:
    """An unsafe fix closing a top-level block before the first `##` heading that follows a blank line."""
    lines = doc.lines
    fence = fence_line(lines[b.start_line])
    if fence is None or fence.column or b.end_line < doc.line_count:
        return None  # in a list item or quote (or not a plain fence line): no guess
    if not b.info or b.language.lower() in ("markdown", "md"):
        return None  # untagged: perhaps an author's closer read as an opener; markdown: its own `##` headings
    last = None  # the last non-blank line of code so far
    for ln in range(b.start_line + 1, min(b.end_line, len(lines))):
        text = lines[ln]
        if _ATX_2_TO_6.match(text) and last is not None and last < ln - 1:
            at = len(lines[last])
            closer = fence.marker * fence.run
            return Fix.unsafe(f"Close the code block after line {last + 1}",
                              Edit(Range(Pos(last, at), Pos(last, at)), line_break(doc, last) + closer))
        if text.strip():
            last = ln
    return None
