"""FENCE_IN_HTML_BLOCK: a code fence swallowed by the HTML block on the line before it."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from ._helpers import SWALLOWING_KINDS, FenceLine, closes_fence, fence_line, line_break
from .nested_fence import nested_fences


@rule("FENCE_IN_HTML_BLOCK", family="code", severity=Severity.WARNING, fix=FixAvailability.ALWAYS)
def fence_in_html_block(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A code fence sits inside an HTML block, so it is HTML text instead of code.

    ## What it does
    In CommonMark a line holding only a tag, such as `<Good>`, `<example>` or `<details>`, opens an
    HTML block that runs to the next blank line, and everything in it is raw HTML. A fence on the
    lines that follow, with no blank line in between, is part of that block: it opens no code block.
    Reports the first such fence of each HTML block and names the line that opened the block.

    ## Why is this bad?
    The code is not code: renderers print the backticks literally, and markdown inside it is
    parsed. Worse, when the code holds a blank line the HTML block ends there, the rest of the code
    is read as markdown, and the intended *closing* fence opens a new code block, so every fence
    below pairs with the wrong partner and prose turns into code.

    ## Example
    ````markdown
    <Good>
    ```python
    result = fill_form("a.pdf")
    ```
    </Good>
    ````

    Use instead:
    ````markdown
    <Good>

    ```python
    result = fill_form("a.pdf")
    ```
    </Good>
    ````

    ## Fix
    Inserts a blank line before the fence, which ends the HTML block.

    ## Fix safety
    Safe when it provably gives the fences the pairing they were written with: the HTML block is at
    the top level, its code holds no blank line (the closing fence is inside the same HTML block),
    and the lines between that closing fence and the blank line are closing tags or plain text, so
    the rest of the file parses as before. Otherwise (code with blank lines above all, where the fix
    changes what is code further down) it is unsafe: review the result.
    """
    lines = doc.lines
    nested = None
    for a, b, kind in doc.html_blocks:
        if kind not in SWALLOWING_KINDS:
            continue
        found = next(((ln, f) for ln in range(a + 1, min(b, len(lines)))
                      if (f := fence_line(lines[ln])) is not None), None)
        if found is None:
            continue
        if nested is None:
            nested = {stray for _b, _i, stray in nested_fences(doc)}
        if found[0] in nested:
            continue  # the closer of a block that ended early on a nested fence: NESTED_FENCE names the cause
        ln, fence = found
        opener = lines[a].lstrip(" \t>").rstrip()
        shown = opener if len(opener) <= 40 else opener[:39] + "…"
        where = "after it" if ln == a + 1 else "before the fence"
        msg = (f"Fence is HTML, not code: `{shown}` on line {a + 1} opens an HTML block that runs to the"
               f" next blank line; a blank line {where} fixes it")
        quote = "".join(c for c in lines[ln][:fence.column] if c == ">")
        edit = Edit(Range(Pos(ln, 0), Pos(ln, 0)), quote + line_break(doc, ln - 1))
        title = "Insert a blank line before the fence"
        if _restores_pairing(doc, a, b, ln, fence):
            fix = Fix.safe(title, edit)
        else:
            fix = Fix.unsafe(title, edit)
        rng = Range(Pos(ln, fence.column), Pos(ln, max(fence.column, len(lines[ln].rstrip()))))
        yield ctx.finding(rng, msg, fix)


def _restores_pairing(doc: SkillDocument, a: int, b: int, ln: int, fence: FenceLine) -> bool:
    """Whether a blank line before the fence on line `ln` makes it exactly the code block its author
    paired it with, and leaves everything after the HTML block (a, b) as it is parsed now."""
    lines = doc.lines
    if not lines[a].startswith("<") or lines[ln][:fence.column].strip(" ") or fence.column > 3:
        return False  # not at the top level: list items and quotes change where blocks end
    close = next((j for j in range(ln + 1, min(b, len(lines)))
                  if closes_fence(lines[j], fence.marker, fence.run)), None)
    if close is None:
        return False  # the code holds a blank line: what follows the HTML block changes
    for j in range(ln + 1, close):  # the author's reading pairs the fence with the same line
        f = fence_line(lines[j])
        if f is not None and f.marker == fence.marker and f.run >= fence.run and not f.info:
            return False
    for j in range(close + 1, min(b, len(lines))):
        s = lines[j].lstrip(" ")
        if len(lines[j]) - len(s) > 3 or not (s.startswith("</") or s[:1].isalpha()):
            return False  # may open a block that outlives the blank line (a list, a fence, a quote)
    return True
