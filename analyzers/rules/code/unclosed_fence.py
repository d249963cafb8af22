"""UNCLOSED_FENCE: a fenced code block that is opened and never closed."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ._helpers import author_pairing


@rule("UNCLOSED_FENCE", family="code", severity=Severity.WARNING)
def unclosed_fence(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A fenced code block is opened and never closed.

    ## What it does
    Reports, at its opening line, a fence (```` ``` ```` or `~~~`) that no later line closes. In
    CommonMark such a block runs to the end of the file (or of the list item or quote holding it), so
    every heading, link and instruction after it is shown, and read, as code.

    A fence that only looks unclosed because an earlier fence was swallowed by an HTML block (the
    fences pair up in reading order, but not in CommonMark) is left to `FENCE_IN_HTML_BLOCK`, which
    names the cause.

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
    Add the closing fence (the same character, at least as many times) where the code ends. No
    automatic fix: only the author knows where that is.
    """
    unclosed = [b for b in doc.code_blocks if b.fenced and not b.closed]
    if not unclosed:
        return
    pairing = author_pairing(doc.lines, doc.body_start_line)
    for b in unclosed:
        if b.start_line in pairing.closers:
            continue  # the author's closing fence, read as an opener: the cause is further up
        opened = b.start_line + 1
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
        yield ctx.finding(b.open_range, msg)
