"""NESTED_FENCE: a code block written inside a code block with a fence of the same length."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import CodeBlock, SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...rule import RuleContext, rule
from ._helpers import fence_line


def nested_fences(doc: SkillDocument) -> list[tuple[CodeBlock, int, int]]:
    """(outer block, line of the inner opener, line of the author's outer closer) for each tagged block
    that holds a fence line opening a nested block (same character, at least as long, an info string)
    and is followed by an untagged block: CommonMark closed the outer block at the inner block's closer
    and reads the author's outer closer as the opener of a new block."""
    blocks = [b for b in doc.code_blocks if b.fenced]
    out: list[tuple[CodeBlock, int, int]] = []
    lines = doc.lines
    for b, nb in zip(blocks, blocks[1:], strict=False):
        if not b.info or not b.closed or nb.info:
            continue
        opener = fence_line(lines[b.start_line]) if b.start_line < len(lines) else None
        if opener is None:
            continue
        inner = None
        for ln in range(b.content_start_line, b.end_line - 1):  # the content lines
            f = fence_line(lines[ln])
            if f is not None and f.marker == opener.marker and f.run >= opener.run and f.info:
                inner = ln
                break
        stray = fence_line(lines[nb.start_line]) if nb.start_line < len(lines) else None
        if inner is not None and stray is not None and stray.marker == opener.marker and stray.run >= opener.run:
            out.append((b, inner, nb.start_line))
    return out


@rule("NESTED_FENCE", family="code", severity=Severity.WARNING)
def nested_fence(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A code block is written inside another with a fence of the same length, so the outer one ends early.

    ## What it does
    Reports a fenced block with a language tag (```` ```markdown ````) whose content holds a fence
    line that opens a nested block (```` ```jsx ````: the same character, at least as long, with an
    info string) when the next block is untagged. CommonMark does not nest fences: the inner block's
    closing fence closes the *outer* block, the text the author meant as code after it becomes
    markdown, and the author's outer closing fence opens a new, untagged block that swallows what
    follows. The finding is on the inner opener and names both lines.

    `CODE_BLOCK_UNTAGGED` is not reported on that stray closer: tagging it would lock the bug in.

    ## Why is this bad?
    Skills often show a file that itself contains code (a `SKILL.md` template, a README with an
    example). Nested this way, part of the example is rendered and read as instructions and the rest
    of the skill after it as code.

    ## Example
    `````markdown
    ```markdown
    # Component

    ```jsx
    <Button />
    ```
    ```
    `````

    Use instead:
    `````markdown
    ````markdown
    # Component

    ```jsx
    <Button />
    ```
    ````
    `````

    ## Fix
    A fence can only be closed by one at least as long, so make the outer fence longer than every fence inside it (four backticks, or `~~~`) at both its
    opening and its closing line. No automatic fix: only the author knows which fence was meant to
    close what.
    """
    for b, inner, stray in nested_fences(doc):
        line = doc.lines[inner]
        start = len(line) - len(line.lstrip())
        yield ctx.finding(
            Range(Pos(inner, start), Pos(inner, len(line.rstrip()))),
            f"Fence inside the `{b.info.split()[0]}` block opened at line {b.start_line + 1} does not nest: "
            f"its closer ends the outer block, and the fence at line {stray + 1} opens a new block; use a longer "
            "outer fence (````)",
        )
