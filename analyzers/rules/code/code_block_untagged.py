"""CODE_BLOCK_UNTAGGED: a fenced code block has no language tag."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ...document import CodeBlock, SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from ._helpers import document_pairing


def guess_language(block: CodeBlock) -> str:
    """A conservative guess; `text` when unsure."""
    c = block.content.strip()
    if not c:
        return "text"
    if c[0] in "{[":
        try:
            json.loads(c)
            return "json"
        except ValueError:
            pass
    first = c.splitlines()[0]
    if first.startswith("#!") and ("bash" in first or "/sh" in first):
        return "bash"
    if re.match(r"^(\$ |(npm|pip|pip3|npx|git|cd|mkdir|python3?|curl|wget|uv|brew|apt-get|apt|docker|echo|export|"
                r"ls|cat|chmod|make|cargo|go|node|bash|sh)( |$))", first):
        return "bash"
    if re.search(r"^(def |class |import |from \S+ import |print\(|async def )", c, re.M):
        return "python"
    return "text"


def _untagged_outer_closers(doc: SkillDocument) -> set[int]:
    """Openers that are the author's closing fence of an untagged outer block: the block before them is
    untagged and holds a tagged fence line (```` ``` ```` … ```` ```bash ```` … ```` ``` ```` … ```` ``` ````: CommonMark
    ends the outer block at the inner closer, and the outer closer then opens a new block)."""
    out: set[int] = set()
    prev = None
    for b in doc.code_blocks:
        if not b.fenced:
            continue
        if prev is not None and not prev.info and not b.info and _holds_tagged_fence(prev.content):
            out.add(b.start_line)
        prev = b
    return out


def _holds_tagged_fence(content: str) -> bool:
    for line in content.splitlines():
        s = line.lstrip()
        if s.startswith(("```", "~~~")) and s.lstrip("`~").strip():
            return True
    return False


@rule("CODE_BLOCK_UNTAGGED", family="code", severity=Severity.INFO, fix=FixAvailability.ALWAYS)
def code_block_untagged(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A fenced code block has no language tag.

    ## What it does
    Flags fenced code blocks (```` ``` ```` or `~~~`) whose info string is empty. Indented code blocks
    cannot carry a tag and are not flagged.

    Not flagged either: a fence that is never closed (`UNCLOSED_FENCE` reports it: tagging it would
    lock the bug in), and a fence that CommonMark reads as an opener but that closes an earlier fence
    in reading order, as happens after a fence swallowed by an HTML block (`FENCE_IN_HTML_BLOCK`), or after
    an untagged outer block holding a tagged one (```` ``` ```` … ```` ```bash ```` … ```` ``` ```` … ```` ``` ````:
    the inner closer ends the outer block, and the outer closer opens a new one).
    A tag on such a line would stop it from ever closing anything.

    ## Why is this bad?
    The tag tells the model (and the reader's renderer) what the code is: a shell command to run, a
    Python file to write, or sample output. It also lets skillgrade check that the code parses
    (`CODE_BLOCK_INVALID`) and counts toward the code-template-quality grade.

    ## Example
    ````markdown
    ```
    pip install pypdf
    ```
    ````

    Use instead:
    ````markdown
    ```bash
    pip install pypdf
    ```
    ````

    ## Fix
    Adds a tag guessed from the content (`json`, `bash`, `python`, else `text`); safe, since a tag
    on a fence that opens a closed block, and closes nothing, does not change what is code.
    """
    untagged = [b for b in doc.code_blocks if b.fenced and not b.info and b.closed]
    if not untagged:
        return
    closers = document_pairing(doc).closers
    from .nested_fence import nested_fences

    strays = {stray for _b, _inner, stray in nested_fences(doc)}
    strays |= _untagged_outer_closers(doc)
    for b in untagged:
        if b.start_line in closers or b.start_line in strays:
            continue  # the author's closing fence, read as an opener: the cause is further up (NESTED_FENCE)
        line = doc.lines[b.start_line]
        fence_end = len(line.rstrip())
        lang = guess_language(b)
        fix = Fix.safe(f"Tag as `{lang}`", Edit(Range(Pos(b.start_line, fence_end), Pos(b.start_line, fence_end)), lang))
        yield ctx.finding(b.open_range, "Code block has no language tag", fix)
