"""CODE_BLOCK_UNTAGGED: a fenced code block has no language tag."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ... import rx
from ...document import CodeBlock, SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from ._helpers import FenceLine, author_pairing, document_pairing, fence_line
from .nested_fence import EXAMPLE_LANGS

# a first line that is a shell command: a prompt, or a common command and a space (or nothing) after it
_SHELL_START = rx.compile(
    r"(?:\$ |\./[\w./-]+\.sh\b|[A-Z][A-Z0-9_]*=\S*\s+[a-z]|(?:npm|pip|pip3|pipx|npx|pnpm|yarn|bun|deno|git|gh|cd|mkdir|python3?|pytest|ruff|poetry|conda|curl|wget|"
    r"uv|uvx|brew|apt-get|apt|sudo|docker|kubectl|helm|terraform|aws|gcloud|echo|printf|export|source|ls|cat|cp|mv|"
    r"rm|touch|grep|find|sed|jq|tar|ssh|rsync|chmod|make|cargo|go|node|bash|sh|tmux|composer|php|perl|awk|flutter|dart|"
    r"gradle|mvn|dotnet|bundle|rake|(?:\./)?vendor/bin/[\w.-]+|(?:\./)?node_modules/\.bin/[\w.-]+)(?: |$))")


# `export const x = …` is TypeScript / JavaScript, not the shell's `export`
_JS_EXPORT = lazy_compile(r"export\s+(?:const|let|var|function|class|interface|type|default|async|enum|abstract|declare|\{|\*)")
# PowerShell: a backtick continuing the line, `$env:`, a drive path, a venv's `Scripts\`, a cmdlet
_POWERSHELL = lazy_compile(r" `$|^\s*\$env:|\b[A-Za-z]:\\|\.venv\\|\\Scripts\\|\b(?:Get|Set|New|Remove|Write|Invoke)-[A-Z]", re.M)
# a line only Python writes: `def f(x):`, `class A(B):`, `from x import y`, `import os, sys`, `print(`
_PY_LINE = lazy_compile(r"^(?:(?:async )?def \w{1,80}\([^\n]{0,300}\)\s{0,20}(?:->[^\n]{0,120})?:\s{0,20}(?:#[^\n]*)?$"
                      r"|class \w+(?:\([^)\n]*\))?:|from \.*[\w.]* import |import [\w.]+(?: as \w+)?(?:, [\w.]+(?: as \w+)?)*\s*$"
                      r"|print\()", re.M)
# … unless the block also reads as another language: TypeScript / JavaScript imports and declarations, arrows,
# statements ending in `;`, braces opening blocks, Java / C# / Go / Rust / C keywords
_OTHER_CODE = lazy_compile(r"^\s*(?:import\s[^\n]{0,200}\sfrom\s|import\s*[{'\"*]|export\s|const\s|let\s|var\s|function\s"
                         r"|interface\s|type\s+\w+\s*=|public\s|private\s|package\s|using\s|fn\s|func\s|#include)"
                         r"|=>|;\s*$|\bfunction\s*\(|\{\s*$", re.M)
# … or as a shell script running Python: a heredoc, `$(…)`, a command line (`python3 -c "…"`, `pip install`)
_SHELLISH = lazy_compile(r"<<|\$\(|^\s*(?:python3?|uv|pip3?|cat|curl|eval|export|cd|echo)\s", re.M)


_FLOW_ARROWS = ("→", "↓", "⇒", "➜", "⟶", "⬇")  # a diagram's arrows: no shell script holds them


def _flow(lines: list[str]) -> bool:
    """A diagram's arrow on a line outside a `#` comment: `git diff HEAD~1` then `→ find the source file`."""
    if not any(a in ln for ln in lines for a in _FLOW_ARROWS):
        return False
    return any(a in ln.split(" #", 1)[0] for ln in lines if not ln.lstrip().startswith("#") for a in _FLOW_ARROWS)


# a line no shell runs: a label and its value ("반환: reviewStrategy, meta", "Returns: the status", "ROOT: {ROOT}")
_LABEL_LINE = lazy_compile(r"[^\s:#=$\-'\"`(][^\s:=$'\"`(]{0,39}: \S")


def _labelled(lines: list[str], c: str) -> bool:
    """A line after the first is a label and its value (a prompt or a note around the command, not a script), outside
    any quotes still open from the lines above (a commit message's `Co-Authored-By: …`, `python -c "…` then
    `except: …`), in a block with no heredoc whose text such lines could be."""
    if "<<" in c:
        return False
    quotes = lines[0].count('"') + lines[0].count("'")
    for ln in lines[1:]:
        if quotes % 2 == 0 and _LABEL_LINE.match(ln):
            return True
        quotes += ln.count('"') + ln.count("'")
    return False


def guess_language(block: CodeBlock) -> str:
    """A conservative guess; `text` when unsure. Measured on the tagged blocks of the corpus and the held-out
    sets 46-69 (`benchmarks/tag_guess.py`): where it guesses, the author's own tag agrees for json 100% (315 distinct
    blocks), python 98.8% (252) and bash 96.0% (1,820; the rest mostly tagged `powershell`, `text` or a REPL's language
    by their authors)."""
    c = block.content.strip()
    if not c:
        return "text"
    if c[0] in "{[":
        try:
            json.loads(c)
            return "json"
        except (ValueError, RecursionError):  # (a run of 10^4 `[`: too deep for the decoder, and no JSON anyone wrote)
            pass
    lines = c.splitlines()
    first = lines[0]
    if first.startswith("#!") and ("bash" in first or "/sh" in first):
        return "bash"
    if not first.startswith("#!"):  # a command after comment lines: "# Install\npip install pypdf"
        first = next((ln for ln in lines[:20] if ln.strip() and not (ln.startswith("#") and ln[1:2] != "#")),
                     first)  # (a `## heading` is markdown, not a comment)
    if _SHELL_START.match(first) and not first.rstrip().endswith("{") and not _JS_EXPORT.match(first) \
            and not _POWERSHELL.search(c) and not _flow(lines) and not _labelled(lines, c):  # (`terraform {`: HCL)
        return "bash"  # (not a flow drawn with arrows that starts with a command: `git push …` then `↓`)
    if _PY_LINE.search(c) and not _OTHER_CODE.search(c) and not _SHELLISH.search(c):
        return "python"
    return "text"


def _shifted_closers(doc: SkillDocument, strays: set[int]) -> set[int]:
    """Openers that are the author's closing fences once CommonMark's pairing has slipped behind the
    author's, from a stray closer another rule names (`strays`) or from the block right after an untagged
    block that holds a tagged fence of its own kind (```` ``` ```` … ```` ```bash ```` … ```` ``` ```` … ````
    ``` ````: the inner closer ends the outer block, and the outer closer opens a new one).

    From there the author's reading nests (a tagged fence opens a block inside the open one, a bare fence
    closes the innermost): while the author has blocks open between CommonMark's blocks, each untagged
    block CommonMark opens starts at an author's closer. Such a holder may itself be a stray closer of an
    earlier slip, so a walk that starts after one counts only when the two readings agree again (a block
    swallows the author's next tagged opener and ends at its closer) before a block ends with its
    container or the file; otherwise only the block right after the holder is taken. Linear: each block's
    lines are read once."""
    lines = doc.lines
    out: set[int] = set()
    pending: list[int] = []  # closers found by a walk on trial, kept once it comes back in step
    trial = False  # the walk started after a holder (which may itself be a stray closer)
    depth = 0  # blocks the author has open where CommonMark has none (0: the two readings agree)
    after_holder = False
    shorter = False  # the holder's open inner fence is shorter than its own: only a walk back in step counts
    last_text = _last_text_line(lines)
    for b in doc.code_blocks:
        if not b.fenced:
            continue
        if not b.closed:  # it runs to the end of its container (a list item, a quote) or of the file
            out.update(pending[:0 if shorter else 1])
            depth, after_holder, trial, pending, shorter = 0, False, False, [], False
            continue
        if b.start_line in strays:  # named by another rule: the walk is certain from here
            out.update(pending)
            trial, pending = False, []
        elif depth == 0:
            if b.info or not after_holder:
                after_holder = not b.info and _tagged_inside(b, lines) > 0  # (a tagged block: no need to look)
                shorter = False
                if not after_holder and _shorter_left_open(b, lines):
                    after_holder = shorter = True  # ```` (tagged or not) holding ```javascript never closed, then ````
                continue
            trial = True  # the holder's author closer: the walk starts here, on trial
        inside = _tagged_inside(b, lines)
        after_holder = False
        if b.info:
            depth += inside  # a tagged opener opens a block for both readings; its inner ones stay open
            continue
        (pending.append if trial else out.add)(b.start_line)
        depth = max(depth, 1) - 1 + inside  # the opener closes the author's innermost block
        depth = depth - 1 if depth else 1  # CommonMark's closer closes the next one, or opens one
        if depth == 0 or trial and b.end_line - 1 == last_text and _holds_heading(b, lines):
            # back in step, or the walk's last block ends at the file's last line holding the document's own
            # sections (`## Quick Reference`): a stray fence there; the walk on trial was the author's reading
            out.update(pending)
            trial, pending, shorter = False, [], False
    out.update(pending[:0 if shorter else 1])
    return out


def _shorter_left_open(b: CodeBlock, lines: list[str]) -> bool:
    """`b` holds a tagged fence of its kind shorter than its own that is still open at its closer (```` ```` ````
    … ```` ```javascript ```` … ```` ```` ````: the author's inner block ends where CommonMark's outer one does)."""
    opener = fence_line(lines[b.start_line]) if b.start_line < len(lines) else None
    if opener is None or opener.run <= 3:
        return False
    mark = opener.marker * 3
    n = 0
    for ln in range(b.content_start_line, min(b.end_line - 1, len(lines))):
        f = fence_line(lines[ln]) if mark in lines[ln] else None
        if f is not None and f.marker == opener.marker and f.run < opener.run:
            n = n + 1 if f.info else max(n - 1, 0)
    return n > 0


def _holds_heading(b: CodeBlock, lines: list[str]) -> bool:
    """A content line of `b` is a markdown heading of level 1-3 (`## Summary`)."""
    for ln in range(b.content_start_line, min(b.end_line - 1, len(lines))):
        line = lines[ln]
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            if level <= 3 and line[level:level + 1] == " " and line[level + 1:].strip():
                return True
    return False


def _holds_bold_label(b: CodeBlock, lines: list[str]) -> bool:
    """A content line of `b` is a bold label alone on its line (`**Usage tips:**`, `**Found 5 matches:**`)."""
    for ln in range(b.content_start_line, min(b.end_line - 1, len(lines))):
        label = lines[ln].rstrip()
        if label.startswith("**") and 6 <= len(label) <= 80 and label.count("**") == 2 and \
                (label.endswith(":**") or label.endswith("**:")):
            return True
    return False


def _wrapped_closers(doc: SkillDocument, nested: list[tuple[CodeBlock, int, int]]) -> set[int]:
    """The author's closers inside a tagged block that does not nest (NESTED_FENCE's outer block, from its inner
    fence to the author's outer closer: a whole SKILL.md wrapped in ```` ```markdown ````): there the author
    pairs fences afresh, so a bare fence that closes the author's open example is one CommonMark may read as
    an opener. Lines looked at are bounded by the file's length (regions are not paired twice)."""
    out: set[int] = set()
    done = -1
    for _b, inner, stray in nested:
        if inner > done:
            out |= author_pairing(doc.lines, inner, end=stray).closers
            done = max(done, stray)
    return out


def _double_closers(doc: SkillDocument) -> set[int]:
    """The author's closers in a tagged wrapper whose inner fences are all bare (```` ```yaml ```` holding sample
    ```` ``` ```` blocks): CommonMark ends the wrapper at the first inner fence and pairs the rest one step behind
    the author, until the author's last inner closer and the wrapper's closer stand on two lines in a row, which
    CommonMark reads as an empty block. From such an empty untagged block back to the tagged block before it,
    every untagged opener is an author's closer. Each block is walked back over once."""
    out: set[int] = set()
    blocks = [b for b in doc.code_blocks if b.fenced]
    floor = -1
    for k, b in enumerate(blocks):
        if b.info or not b.closed or b.end_line != b.start_line + 2:
            continue  # (an empty block: its opener and closer on consecutive lines)
        run = [b.start_line]
        j = k - 1
        while j > floor and not blocks[j].info:
            run.append(blocks[j].start_line)
            j -= 1
        floor = k
        if j >= 0 and blocks[j].info and len(run) >= 2:
            out.update(run)
    return out


INNER_PAIR_LINES = 20  # lines of a sample between the two fences of an inner pair, at most


def _example_pairs(doc: SkillDocument) -> set[int]:
    """The author's closers of bare samples inside a ```` ```markdown ```` example (````markdown```` … `## Beads` ````` ````
    `○ bd-1` ```` ``` ```` `## Files` … ```` ``` ````): CommonMark ends the example at the sample's opener, reads
    the sample as text and the sample's closer as an opener whose block runs to the next bare fence. Each such
    block opens within INNER_PAIR_LINES lines of the block before it with no blank line between (the sample's
    lines, which sit against both its fences); the chain from the example is taken when one of its blocks holds
    the example's own headings (`## Files Changed`) or a bold label alone on its line (`**Usage tips:**`): what the
    example was showing, not code. The example may
    also open inside a block whose pairing has already slipped (_ends_in_example). Each block is looked at once."""
    out: set[int] = set()
    blocks = [b for b in doc.code_blocks if b.fenced]
    text = doc.text
    if not any(b.language.lower() in EXAMPLE_LANGS for b in blocks) and "markdown" not in text and \
            "Markdown" not in text and "`md" not in text and "~md" not in text:
        return out  # most documents: no markdown example at all (substring tests: no regex over the whole text)
    lines = doc.lines
    k = 0
    while k < len(blocks):
        b = blocks[k]
        k += 1
        if not b.closed or b.language.lower() not in EXAMPLE_LANGS and (b.info or not _ends_in_example(b, lines)):
            continue
        chain: list[CodeBlock] = []
        prev = b
        while k < len(blocks):
            nb = blocks[k]
            closer = prev.end_line - 1
            if nb.info or not nb.closed or not 0 < nb.start_line - closer <= INNER_PAIR_LINES + 1 or \
                    any(not lines[ln].strip() for ln in range(closer + 1, nb.start_line)):
                break
            chain.append(nb)
            prev = nb
            k += 1
        if any(_holds_heading(c, lines) or _holds_bold_label(c, lines) for c in chain):
            out.update(c.start_line for c in chain)
    return out


def _ends_in_example(b: CodeBlock, lines: list[str]) -> bool:
    """`b` (a stray closer's block, its pairing already slipped) holds a ```` ```markdown ```` opener still open at
    its end: CommonMark's closer of `b` is that example's first inner fence."""
    n, last = 0, ""
    for opener, f in _inner_fences(b, lines):
        if f.run >= opener.run:
            if f.info:
                n, last = n + 1, f.info.split()[0].lower()
            else:
                n = max(n - 1, 0)
    return n > 0 and last in EXAMPLE_LANGS


def _inner_fences(b: CodeBlock, lines: list[str]) -> Iterator[tuple[FenceLine, FenceLine]]:
    """(the block's opener, a fence line of its character among its content lines), for each such line."""
    opener = fence_line(lines[b.start_line]) if b.start_line < len(lines) else None
    if opener is None:
        return
    mark = opener.marker * 3
    for ln in range(b.content_start_line, min(b.end_line - 1, len(lines))):
        f = fence_line(lines[ln]) if mark in lines[ln] else None
        if f is not None and f.marker == opener.marker:
            yield opener, f


def _tagged_inside(b: CodeBlock, lines: list[str]) -> int:
    """How many blocks an author has open inside `b` at its end: content lines that are fences of its kind
    with an info string open one, bare ones CommonMark kept as content (indented) close one."""
    n = 0
    for opener, f in _inner_fences(b, lines):
        if f.run >= opener.run:
            n = n + 1 if f.info else max(n - 1, 0)
    return n


# "### Phase 5: Apply Updates": a heading that numbers a part of the document
# (also dotted: "### 9.5 当前产品覆盖" continues "### 9.4 …")
_NUMBERED_HEADING = lazy_compile(r"(#{1,6})[ \t]+(?:(step|phase|part|stage|section|chapter)[ \t]+)?(\d{1,3}(?:\.\d{1,3}){0,3})\b",
                               re.I)
SWALLOW_LOOKBACK = 400  # lines above a block searched for the heading it continues (bounded)


def _last_text_line(lines: list[str]) -> int:
    """The index of the last line that is not blank (-1: none)."""
    last = len(lines) - 1
    while last >= 0 and not lines[last].strip():
        last -= 1
    return last


def _ends_tagged_block(doc: SkillDocument, b: CodeBlock) -> bool:
    """The bare block holds a tagged opener of its own fence character (```` ```bash ````), so its closer is that
    block's: a stray bare fence above made everything down to it code (nothing closes the stray one)."""
    return any(f.info for _opener, f in _inner_fences(b, doc.lines))


def _swallowed_heading(doc: SkillDocument, b: CodeBlock, last: int) -> tuple[str, str] | None:
    """A bare block whose closing fence is the file's last line of text (`last`), or the closer of a tagged block it
    swallowed, and whose first heading numbers the next part of the document's own outline (`### Phase 5: Apply
    Updates` inside, `### Phase 4: …` above it; `### 9.5` after `### 9.4`): stray fences made that part of the
    document code. (heading inside, heading it continues) or None."""
    if b.end_line - 1 != last and not _ends_tagged_block(doc, b):
        return None
    lines = doc.lines
    for ln in range(b.content_start_line, b.end_line - 1):
        m = _NUMBERED_HEADING.match(lines[ln])
        if m is not None:
            break
        if lines[ln].startswith("#"):
            return None  # the block's first heading numbers nothing
    else:
        return None
    level, label = m.group(1), (m.group(2) or "").lower()
    number = [int(x) for x in m.group(3).split(".")]
    before = number[:-1] + [number[-1] - 1]
    for k in range(b.start_line - 1, max(-1, b.start_line - 1 - SWALLOW_LOOKBACK), -1):
        o = _NUMBERED_HEADING.match(lines[k])
        if o is not None and o.group(1) == level and (o.group(2) or "").lower() == label \
                and [int(x) for x in o.group(3).split(".")] == before:
            return lines[ln].strip(), lines[k].strip()
    return None


@rule("CODE_BLOCK_UNTAGGED", family="code", severity=Severity.INFO, fix=FixAvailability.SOMETIMES)
def code_block_untagged(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A fenced code block has no language tag.

    ## What it does
    Flags fenced code blocks (```` ``` ```` or `~~~`) whose info string is empty. Indented code blocks
    cannot carry a tag and are not flagged.

    Not flagged either: a fence that is never closed (`UNCLOSED_FENCE` reports it: tagging it would
    lock the bug in), and a fence that CommonMark reads as an opener but that closes an earlier fence
    in reading order, as happens after a fence swallowed by an HTML block (`FENCE_IN_HTML_BLOCK`), or after
    an untagged outer block holding a tagged one (```` ``` ```` … ```` ```bash ```` … ```` ``` ```` … ```` ``` ````:
    the inner closer ends the outer block, and the outer closer opens a new one). Once the pairing has
    slipped like that after a stray closer `NESTED_FENCE` names, each later block CommonMark opens starts
    at one of the author's closers until the two readings agree again: none of those is flagged. The
    author's reading there nests: a tagged fence opens a block inside the open one (a block that swallows
    two tagged openers leaves one of them open), a bare fence closes the innermost. Nor is the author's closer
    of an example inside a tagged block that does not nest (a whole SKILL.md wrapped in ```` ```markdown ````,
    whose first bare example fence ends the wrapper for CommonMark: `NESTED_FENCE` names it), where the author
    pairs the fences afresh up to the wrapper's own closer; nor, when all of a tagged wrapper's inner fences are
    bare (```` ```yaml ```` holding sample ```` ``` ```` blocks, which `NESTED_FENCE` cannot tell apart), the
    untagged openers from the wrapper up to the empty block that its last inner closer and its own closer make on
    two lines in a row; nor the author's closer of a bare sample inside a ```` ```markdown ```` example (CommonMark
    ends the example at the sample's opener, and the sample's closer opens a block that runs to the next bare
    fence): the blocks after the example that each open within 20 lines of the one before, with no blank line
    between (the sample's lines sit against both its fences), when one of them holds the example's own headings
    (`## Files Changed`) or a bold label alone on its line (`**Usage tips:**`). So too after a longer fence holding a shorter tagged one it never closes (```` ```` ````
    … ```` ```javascript ```` … ```` ```` ````, then a bare ```` ``` ````: the author's closer), when the walk comes
    back in step or its last block ends at the file's last line holding the document's own sections (`## Summary`):
    a stray fence there.
    A tag on such a line would stop it from ever closing anything.
    A bare block that runs to the file's last line, or that holds a tagged opener (```` ```bash ````) whose closer ends
    it, and whose first heading numbers the next part of the document's own outline (`### Phase 5: Apply Updates`
    inside, `### Phase 4: …` above the block; `### 9.5 …` after `### 9.4 …`) is part of the document made code by
    stray fences: the message says so, and no tag is offered.

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
    on a fence that opens a closed block, and closes nothing, does not change what is code. The guess is
    conservative: `python` only for lines no other language writes (`def f(x):`, `from x import y`) in a
    block with no TypeScript / JavaScript, C-family or shell lines (`export const …`, `… {`, `;`, a heredoc,
    `python3 -c`); `bash` for a command first line (after `#` comments; also `./x.sh`, `VAR=value cmd`), but not
    `export const …`, `terraform {`, a flow drawn with arrows outside `#` comments (`git push origin v1.0.4` then `↓`, `→`), a block with a
    later line that is a label and its value outside quotes (`반환: reviewStrategy, meta`, `Returns: the status`: a
    prompt around the command), nor PowerShell (a backtick continuation, `C:\\`). Measured against the tags authors gave the same content in the corpus and
    held-out sets (`python benchmarks/tag_guess.py ROOTS`): json 99.9%, python 99.4%, bash 98.5% agree.
    """
    untagged = [b for b in doc.code_blocks if b.fenced and not b.info and b.closed]
    if not untagged:
        return
    closers = document_pairing(doc).closers
    from .nested_fence import nested_fences

    nested = nested_fences(doc)
    strays = {stray for _b, _inner, stray in nested}
    strays |= _shifted_closers(doc, strays) | _wrapped_closers(doc, nested) | _double_closers(doc) | _example_pairs(doc)
    last = _last_text_line(doc.lines)  # (once: trailing blank lines are not walked again for every block)
    for b in untagged:
        if b.start_line in closers or b.start_line in strays:
            continue  # the author's closing fence, read as an opener: the cause is further up (NESTED_FENCE)
        swallowed = _swallowed_heading(doc, b, last)
        if swallowed is not None:  # stray fences: a tag would make the document's own sections code for good
            inside, outside = swallowed
            where = "to the file's last line" if b.end_line - 1 == last else "to a tagged block's closer"
            yield ctx.finding(b.open_range, f"Code block has no language tag, and it runs {where} "
                              f"holding `{inside}`, the next of the document's own `{outside}`: is this fence stray?")
            continue
        line = doc.lines[b.start_line]
        fence_end = len(line.rstrip())
        lang = guess_language(b)
        fix = Fix.safe(f"Tag as `{lang}`", Edit(Range(Pos(b.start_line, fence_end), Pos(b.start_line, fence_end)), lang))
        yield ctx.finding(b.open_range, "Code block has no language tag", fix)
