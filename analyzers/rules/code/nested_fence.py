"""NESTED_FENCE: a code block written inside a code block with a fence of the same length."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from ...document import CodeBlock, SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...rule import RuleContext, rule
from .._helpers import fence_step
from ._helpers import SWALLOWING_KINDS, FenceLine, fence_line

EXAMPLE_LANGS = frozenset({"markdown", "md"})  # a whole document shown as an example: it may hold several blocks
MAX_CHAIN = 40  # inner blocks followed through one markdown example


def nested_fences(doc: SkillDocument) -> list[tuple[CodeBlock, int, int]]:
    """Memoised per document (five rules ask): see _nested_fences."""
    memo = doc._resolved  # the document's memo (tuple keys never meet resolve()'s string keys)
    key = ("nested_fences",)
    if key not in memo:
        memo[key] = _nested_fences(doc)
    return memo[key]


def _nested_fences(doc: SkillDocument) -> list[tuple[CodeBlock, int, int]]:
    """(outer block, line of the inner opener, line of the author's outer closer) for each tagged block
    that holds a fence line opening a nested block (same character, at least as long, an info string):
    CommonMark closed the outer block at the inner block's closer and reads the author's outer closer as
    the opener of a new, untagged block.

    The author's closer is the next untagged block's opener when it comes right after the outer block. In
    a `markdown` / `md` example (a whole SKILL.md template) whose next block is tagged, the example's own
    blocks follow, and the author's closer is the first untagged block that shows it is one: CommonMark's
    block there swallows a tagged opener (the author's next example) or never closes. A genuine tagged
    block after a closed example holds no such evidence and stays silent."""
    blocks = [b for b in doc.code_blocks if b.fenced]
    out: list[tuple[CodeBlock, int, int]] = []
    lines = doc.lines
    for k, b in enumerate(blocks):
        if not b.info or not b.closed or k + 1 >= len(blocks):
            continue
        opener = fence_line(lines[b.start_line]) if b.start_line < len(lines) else None
        inner = _inner_opener(b, lines, opener)
        if opener is None or inner is None:
            continue
        nb = blocks[k + 1]
        swallowed = _closer_in_html(doc, b, nb, opener)
        if swallowed is not None:
            out.append((b, inner, swallowed))
            continue
        if nb.info:
            if b.language.lower() not in EXAMPLE_LANGS:
                continue
            nb = _example_closer(blocks, k + 1, lines, opener.marker)
            if nb is None:
                continue  # no block that can only be the example's closer: say nothing
        stray = fence_line(lines[nb.start_line]) if nb.start_line < len(lines) else None
        if stray is None or stray.marker != opener.marker or stray.run < opener.run:
            continue
        out.append((b, inner, nb.start_line))
    if not any(not b.closed for b in blocks):
        return out
    # A block runs to the end of the file, and reading the fences as nested (the author's reading) balances:
    # that block's opener is the author's closer of an earlier block that holds a nested tagged opener
    # (untagged blocks and non-markdown outers included, which the cases above leave alone).
    reported = {b.start_line for b, _i, _s in out}
    unclosed = next(b for b in blocks if not b.closed)
    if unclosed.start_line in {s for _b, _i, s in out} or nested_reading(doc) is None:
        return out
    for k, b in enumerate(blocks):
        if b.start_line >= unclosed.start_line:
            break
        if b.start_line in reported:
            break  # already named: the blocks after it are its knock-on effect, not a second cause
        if not b.closed:
            continue
        inner = _inner_opener(b, lines, fence_line(lines[b.start_line]) if b.start_line < len(lines) else None)
        if inner is not None:
            outer = _wrapper(blocks, k, lines)
            if outer is not None:  # an untagged inner pair inside the tagged block before: that block is the outer one
                out.append((outer, outer.end_line - 1, unclosed.start_line))
            else:
                out.append((b, inner, unclosed.start_line))
            break  # the first nesting shifts every pair after it: one finding names the cause
    return out


def _wraps_whole_file(doc: SkillDocument, first: int, last: int) -> bool:
    """The outer block opens at the file's first non-blank line, with no frontmatter, and the author's closer is its
    last non-blank line: a generated SKILL.md pasted whole inside a ```` ```markdown ```` block."""
    if doc.frontmatter.present or first >= len(doc.lines) or last >= len(doc.lines):
        return False
    lines = doc.lines
    return all(not ln.strip() for ln in lines[:first]) and all(not ln.strip() for ln in lines[last + 1:])


def _closer_in_html(doc: SkillDocument, b: CodeBlock, nb: CodeBlock, opener: FenceLine) -> int | None:
    """The author's closer of `b` when an HTML block swallowed it: the first HTML block after `b` (and before
    the next block `nb`) that runs to a blank line holds a bare fence line of `b`'s fence (```` </details> ````
    then ```` ``` ````): CommonMark closed `b` at the inner block's closer, and the author's closer is HTML
    text. None otherwise."""
    lines = doc.lines
    html = doc.html_blocks  # (in document order)
    at = bisect.bisect_left(html, (b.end_line, -1, -1))
    if at == len(html):
        return None
    a, e, kind = html[at]  # the first HTML block after `b`
    if a >= nb.start_line or kind not in SWALLOWING_KINDS:
        return None
    for ln in range(a + 1, min(e, len(lines))):
        f = fence_line(lines[ln])
        if f is not None:
            ok = not f.info and f.marker == opener.marker and f.run >= opener.run
            return ln if ok else None
    return None


MAX_INNER_PAIR = 20  # lines between a tagged block's closer and the untagged block read as its inner pair


def _wrapper(blocks: list[CodeBlock], k: int, lines: list[str]) -> CodeBlock | None:
    """The tagged block right before the untagged block `b = blocks[k]` when the two read as one block holding an
    untagged inner pair: `b` opens within MAX_INNER_PAIR lines of that block's closing fence, with no blank
    line between (```` ```python ```` … ```` ``` ```` Input ```` ``` ```` … ```` ```javascript ````): the
    tagged block's "closer" is the inner pair's opener."""
    b = blocks[k]
    if b.info or k == 0:
        return None
    p = blocks[k - 1]
    closer = p.end_line - 1
    if not p.info or not p.closed or not 0 < b.start_line - closer <= MAX_INNER_PAIR:
        return None
    if any(not lines[ln].strip() for ln in range(closer + 1, b.start_line)):
        return None
    return p


def _inner_opener(b: CodeBlock, lines: list[str], opener: FenceLine | None) -> int | None:
    """The first content line of `b` (opened by the fence `opener`) that opens a nested block: same fence
    character, at least as long, with an info string (CommonMark reads it as content), after the last bare
    fence line of the content. A bare fence inside the content is one CommonMark did not take for a closer
    (indented four spaces or more): the inner block before it closed there, not at `b`'s closer."""
    if opener is None:
        return None
    found = None
    for ln in range(b.content_start_line, min(b.end_line - 1, len(lines))):
        f = fence_line(lines[ln])
        if f is None or f.marker != opener.marker or f.run < opener.run:
            continue
        if f.info:
            found = ln if found is None else found
        else:
            found = None  # a bare fence CommonMark kept as content (indented): the inner block before it closed there
    return found


def _example_closer(blocks: list[CodeBlock], j: int, lines: list[str], marker: str) -> CodeBlock | None:
    """From the tagged block at `j` on (the example's own blocks, each closed), the first untagged block
    that swallows what follows it: the author's closer of the example. None when a block ends the chain
    first (one that never closes, a tagged one that swallows) or none comes within MAX_CHAIN blocks."""
    for nb in blocks[j : j + MAX_CHAIN]:
        if not nb.info and _swallows(nb, lines, marker):
            return nb
        if not nb.closed or _swallows(nb, lines, marker):
            return None
    return None


def _swallows(block: CodeBlock, lines: list[str], marker: str) -> bool:
    """The block never closes, or holds a tagged opener of the same fence: what the author wrote after it
    is not code."""
    if not block.closed:
        return True
    for ln in range(block.content_start_line, min(block.end_line - 1, len(lines))):
        f = fence_line(lines[ln])
        if f is not None and f.marker == marker and f.info:
            return True
    return False


def example_lines(doc: SkillDocument) -> frozenset[int]:
    """Lines the author meant as code that CommonMark reads as markdown, when `NESTED_FENCE` fires: link
    rules say nothing about them (the links there are an example's placeholders, and NESTED_FENCE reports
    the cause). The author's reading nests fences: a fence with an info string inside a block opens an
    inner block, a bare fence closes the innermost one. Empty when that reading does not balance by the
    end of the file (then it is not what the author meant either)."""
    if not nested_fences(doc):
        return frozenset()
    code = nested_reading(doc)
    return frozenset(code - doc.code_lines) if code is not None else frozenset()


def may_nest(text: str) -> bool:
    """A fence with an info string appears while a block is open (```` ```bash ```` inside ```` ```markdown ````):
    the only way an example can be cut open. A line scan (`fence_step`), no parse."""
    if "```" not in text and "~~~" not in text:
        return False
    fence = ""
    for line in text.splitlines():
        after, is_fence = fence_step(fence, line)
        if is_fence and fence and after == fence and line.lstrip(" ").lstrip(fence[0]).strip():
            return True
        fence = after
    return False


def bundled_example_lines(bf) -> frozenset[int]:
    """A bundled markdown file's lines that its author meant as code (see `example_lines`): empty for most
    files, where no fence opens inside a block."""
    md = bf.markdown if may_nest(bf.text) else None
    return example_lines(md) if md is not None else frozenset()


def nested_reading(doc: SkillDocument) -> set[int] | None:
    """The lines that are code when fences nest (a fence with an info string inside a block opens an inner
    block, a bare fence closes the innermost one), or None when that reading does not balance by the end of
    the file. One pass, linear."""
    lines = doc.lines
    stack: list[tuple[str, int]] = []  # (marker, run) of the open blocks, outermost first
    code: set[int] = set()
    for ln in range(doc.body_start_line, len(lines)):
        f = fence_line(lines[ln]) if ("`" in lines[ln] or "~" in lines[ln]) else None
        if stack:
            code.add(ln)
            marker, run = stack[-1]
            if f is not None and f.marker == marker and f.run >= run:
                if f.info:
                    stack.append((f.marker, f.run))  # a block inside the block
                else:
                    stack.pop()
        elif f is not None:
            code.add(ln)
            stack.append((f.marker, f.run))
    return None if stack else code


@rule("NESTED_FENCE", family="code", severity=Severity.WARNING)
def nested_fence(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A code block is written inside another with a fence of the same length, so the outer one ends early.

    ## What it does
    Reports a fenced block with a language tag (```` ```markdown ````) whose content holds a fence
    line that opens a nested block (```` ```jsx ````: the same character, at least as long, with an
    info string) when the next block is untagged. In a `markdown` / `md` example (a whole SKILL.md
    template with several code blocks) the author's closing fence may come after more tagged blocks of
    the example; it is found by pairing each later tagged opener with the next bare fence, and
    reported only when the block CommonMark opens at it swallows a tagged opener or never closes (a
    plain block after a properly closed example stays silent). When a block runs to the end of the file
    and reading the fences as nested (a tagged fence inside a block opens an inner one, a bare fence
    closes the innermost) balances, that block's opener is the author's closer shifted by the first
    block of any kind that holds a nested tagged opener (or, when that block is untagged and opens
    right after a tagged block's closer with no blank line between, the tagged block: its "closer" was an
    untagged inner pair's opener): that one is reported (and not the unclosed
    block, for `UNCLOSED_FENCE`). Links inside such a broken example are
    not reported as `DEAD_LINK` or `DEAD_CROSS_REF`: they are the example's placeholders. CommonMark does not nest fences: the inner block's
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

    A file wrapped whole in such a block (its first line opens it, with no frontmatter, and its last line is the
    author's closer: a generated SKILL.md pasted inside ```` ```markdown ````) is named as that: the fix is to remove the
    two wrapper fences, not to lengthen them.

    ## Fix
    A fence can only be closed by one at least as long, so make the outer fence longer than every fence inside it (four backticks, or `~~~`) at both its
    opening and its closing line. No automatic fix: only the author knows which fence was meant to
    close what.
    """
    openers = {cb.start_line for cb in doc.code_blocks}
    for b, inner, stray in nested_fences(doc):
        line = doc.lines[inner]
        start = len(line) - len(line.lstrip())
        then = "opens a new block" if stray in openers else "is left as text in the HTML block above it"
        if _wraps_whole_file(doc, b.start_line, stray):
            yield ctx.finding(
                Range(Pos(b.start_line, 0), Pos(b.start_line, len(doc.lines[b.start_line].rstrip()))),
                f"The whole file is wrapped in the `{b.info.split()[0] if b.info else 'untagged'}` block opened at "
                f"line {b.start_line + 1} and closed at line {stray + 1} (the fence at line {inner + 1} ends it "
                "early): agents read a skill's text as markdown, so remove the two wrapper fences rather than "
                "lengthening them")
            continue
        yield ctx.finding(
            Range(Pos(inner, start), Pos(inner, len(line.rstrip()))),
            f"Fence inside the {f'`{b.info.split()[0]}`' if b.info else 'untagged'} block opened at line "
            f"{b.start_line + 1} does not nest: "
            f"its closer ends the outer block, and the fence at line {stray + 1} {then}; use a longer "
            "outer fence (````)",
        )
