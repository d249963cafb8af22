"""Broken markdown (issue 8): what is code, as CommonMark (markdown-it-py) reads it, and the fixes
of FENCE_IN_HTML_BLOCK and CODE_BLOCK_UNTAGGED, checked against the stock CommonMark parser."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from skillgrade.analyzers import fixes
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.findings import Applicability
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.code._helpers import author_pairing

HEAD = "---\nname: t\ndescription: Use when testing broken markdown. Tests it.\n---\n"
RULES = Path(__file__).resolve().parent / "rules"
BROKEN = ("FENCE_IN_HTML_BLOCK", "UNCLOSED_FENCE", "CODE_BLOCK_UNTAGGED")

# the Good/Bad example style of popular skills, with and without blank lines in the code
EXAMPLES = HEAD + """
# TDD

```
NO CODE WITHOUT A FAILING TEST
```

<Good>
```typescript
test('retries', async () => {
  let attempts = 0;

  expect(attempts).toBe(3);
});
```
Clear name
</Good>

<Bad>
```typescript
test('retry works', async () => {
  await retry(mock);
});
```
Vague name
</Bad>

Run it:

```bash
npm test
```

<Good>
```typescript
function f() {
  return 1;
}
```
Just enough
</Good>

## Final

```
Production code means a test failed first
```
"""


def _commonmark_fences(text: str) -> list[tuple[int, int]]:
    """(first line, end line) of every fenced block, by the stock CommonMark parser, in file lines."""
    lines = text.split("\n")
    body = next(i for i in range(1, len(lines)) if lines[i] == "---") + 1
    tokens = MarkdownIt("commonmark").parse("\n".join(lines[body:]))
    return [(t.map[0] + body, t.map[1] + body) for t in tokens if t.type == "fence" and t.map]


def _ours(text: str) -> list[tuple[int, int]]:
    return [(b.start_line, b.end_line) for b in parse(text).code_blocks if b.fenced]


def _fixture_texts() -> list[str]:
    return [p.read_text("utf-8") for code in BROKEN for p in sorted((RULES / code).glob("*/SKILL.md"))]


@pytest.mark.parametrize("text", [EXAMPLES, *_fixture_texts()])
def test_code_is_what_commonmark_says(text: str) -> None:
    assert _ours(text) == _commonmark_fences(text)


def _findings(text: str, codes: tuple[str, ...] = BROKEN):
    return analyze(text, None, config=Config(select=codes)).findings


def test_good_bad_examples_are_named_as_what_they_are() -> None:
    got = [(f.code, f.range.start.line + 1) for f in _findings(EXAMPLES)]
    # the first <Good> (blank line in its code) shifts the pairing: its closer (line 19) must not be
    # called an untagged opener; the <Bad> that the shifted fence swallows shows up once it is fixed
    assert got == [("CODE_BLOCK_UNTAGGED", 8), ("FENCE_IN_HTML_BLOCK", 13), ("FENCE_IN_HTML_BLOCK", 39),
                   ("CODE_BLOCK_UNTAGGED", 49)]
    assert _commonmark_fences(EXAMPLES) == [(7, 10), (18, 28), (33, 36), (48, 51)]  # 18: the closer


def _fix_all(text: str, unsafe: bool) -> str:
    for _ in range(20):
        fs = [f for f in _findings(text, ("FENCE_IN_HTML_BLOCK",)) if fixes.applicable(f.fix, unsafe)]
        if not fs:
            return text
        text, _ = fixes.apply_fixes(text, [f.fix for f in fs])
    raise AssertionError("fixes do not converge")


def _author(text: str) -> list[tuple[int, int]]:
    lines = text.split("\n")
    pairs = author_pairing(lines, 0).closes
    return sorted((a, (b if b is not None else len(lines)) + 1) for a, b in pairs.items())


def test_fixes_restore_the_fences_as_written() -> None:
    fixed = _fix_all(EXAMPLES, unsafe=True)
    assert _commonmark_fences(fixed) == _author(fixed) == [(7, 10), (13, 20), (25, 30), (35, 38), (41, 46), (51, 54)]
    assert not _findings(fixed, ("FENCE_IN_HTML_BLOCK", "UNCLOSED_FENCE"))
    assert [f.range.start.line + 1 for f in _findings(fixed, ("CODE_BLOCK_UNTAGGED",))] == [8, 52]


def test_safe_fixes_are_the_ones_that_provably_restore_the_pairing() -> None:
    fs = _findings(EXAMPLES, ("FENCE_IN_HTML_BLOCK",))
    assert [f.fix.applicability for f in fs] == [Applicability.UNSAFE, Applicability.SAFE]
    safe = _fix_all(EXAMPLES, unsafe=False)
    # the safe fix makes the last <Good> block code and changes nothing before or after it
    before, after = _commonmark_fences(EXAMPLES), _commonmark_fences(safe)
    assert [b for b in after if b[0] < 38] == [b for b in before if b[0] < 38]
    assert (39, 44) in after and [(a - 1, b - 1) for a, b in after if a > 45] == [b for b in before if b[0] > 45]


@pytest.mark.parametrize("case", sorted((RULES / "FENCE_IN_HTML_BLOCK").glob("fail-*")), ids=lambda p: p.name)
def test_safe_fix_gives_the_authors_pairing(case: Path) -> None:
    text = (case / "SKILL.md").read_text("utf-8")
    (f,) = _findings(text, ("FENCE_IN_HTML_BLOCK",))
    fixed, _ = fixes.apply_fixes(text, [f.fix])
    restored = _commonmark_fences(fixed) == [b for b in _author(fixed) if b[0] > 4]
    if f.fix.applicability is Applicability.SAFE:
        assert restored
    assert not [g for g in _findings(fixed, ("FENCE_IN_HTML_BLOCK",)) if g.range.start.line == f.range.start.line + 1]


LINES = ["```", "```ts", "~~~", "````", "~~~~", "<Good>", "</Good>", "", "", "text", "- item", "  ```", "   ```",
         "    ```", "> ```", "> text", "<!--", "-->", "<details>", "1. step", "   ```bash", "```python", "x = 1",
         "<pre>", "</pre>", "<example>", ">", "  - ```", "~~~text"]


@pytest.mark.parametrize("seed", range(2))
def test_generated_documents(seed: int) -> None:
    """On random fence/HTML soups: our code blocks are CommonMark's; a CODE_BLOCK_UNTAGGED fix never
    changes what is code; a safe FENCE_IN_HTML_BLOCK fix yields the author's pairing of its fence."""
    rng = random.Random(seed)
    safe_fixes = 0
    for _ in range(1500):
        body = "\n".join(rng.choice(LINES) for _ in range(rng.randint(1, 14))) + rng.choice(["", "\n"])
        text = HEAD + body
        blocks = sorted((b.start_line, b.end_line, b.closed) for b in parse(text).code_blocks)
        assert _ours(text) == _commonmark_fences(text), body
        for f in _findings(text):
            if f.code == "UNCLOSED_FENCE":
                assert not [b for b in blocks if b[0] == f.range.start.line][0][2], body
            if f.fix is None:
                continue
            fixed, _ = fixes.apply_fixes(text, [f.fix])
            if f.code == "CODE_BLOCK_UNTAGGED":
                assert sorted((b.start_line, b.end_line, b.closed) for b in parse(fixed).code_blocks) == blocks, body
            elif f.fix.applicability is Applicability.SAFE:
                safe_fixes += 1
                line = f.range.start.line + 1  # the fence, one line lower after the inserted blank line
                mine = [b for b in _commonmark_fences(fixed) if b[0] == line]
                close = author_pairing(fixed.split("\n"), line).closes.get(line)  # pairing from the fence on
                assert close is not None and mine == [(line, close + 1)], (body, fixed)
    assert safe_fixes > 8


@pytest.mark.parametrize("line", ["`" * 100_000, "<" * 100_000, "<Good>" * 20_000, "- " * 50_000 + "```",
                                  "> " * 50_000 + "```", "1. " * 30_000 + "```", "```" + "`" * 100_000])
def test_hostile_lines_stay_fast(line: str) -> None:
    for text in (HEAD + line + "\n", HEAD + "<Good>\n" + line + "\n```\n", HEAD + (line[:50] + "\n") * 2000):
        start = time.perf_counter()
        _findings(text)
        assert time.perf_counter() - start < 1.0


def test_fix_keeps_crlf_line_breaks() -> None:
    text = "---\r\nname: t\r\ndescription: Use when x. Does y.\r\n---\r\n<Good>\r\n```py\r\nx\r\n```\r\n</Good>\r\n"
    (f,) = _findings(text, ("FENCE_IN_HTML_BLOCK",))
    assert f.fix.applicability is Applicability.SAFE
    fixed, _ = fixes.apply_fixes(text, [f.fix])
    assert fixed == text.replace("<Good>\r\n", "<Good>\r\n\r\n")


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_unclosed_fence_fix_closes_before_the_next_heading(nl: str) -> None:
    body = ["```bash", "pip install pypdf", "", "", "## Next", "", "Read [the guide](guide.md)."]
    text = HEAD.replace("\n", nl) + nl.join(body) + nl
    (f,) = _findings(text, ("UNCLOSED_FENCE",))
    assert f.fix.applicability is Applicability.UNSAFE and f.fix.title == "Close the code block after line 6"
    fixed, _ = fixes.apply_fixes(text, [f.fix])
    assert fixed == text.replace("pypdf" + nl, "pypdf" + nl + "```" + nl)
    assert not _findings(fixed, ("UNCLOSED_FENCE",))
    assert _commonmark_fences(fixed.replace("\r\n", "\n")) == [(4, 7)]


@pytest.mark.parametrize("body", [
    "```bash\nls\n## Next\n",  # no blank line before the heading: the author may mean it as code
    "```python\n# comment\n\n# Next\n",  # a level-1 heading is a comment in too many languages
    "- item\n  ```bash\n  ls\n\n## Next\n",  # a list item's fence ends with the item
])
def test_unclosed_fence_fix_is_offered_only_on_a_plain_guess(body: str) -> None:
    fs = _findings(HEAD + body, ("UNCLOSED_FENCE",))
    assert len(fs) == 1 and fs[0].fix is None


def test_fences_shown_in_indented_code_or_comments_do_not_shift_the_pairing() -> None:
    text = HEAD + "Write a fence like this:\n\n    ```\n\n<!-- ```\n-->\n\n```\nls\n```\n"
    assert [(f.code, f.range.start.line + 1) for f in _findings(text)] == [("CODE_BLOCK_UNTAGGED", 12)]


@pytest.mark.parametrize(("opener", "why"), [
    ("```markdown", "a markdown template's own headings are not where its code ends"),
    ("```", "an untagged fence at the end may be an author's closer read as an opener"),
])
def test_unclosed_fence_offers_no_heading_fix_when_the_heading_may_be_code(opener: str, why: str) -> None:
    body = [opener, "# Incident handoff", "", "", "## Timeline", "", "- 10:02 paged"]
    (f,) = _findings(HEAD + "\n".join(body) + "\n", ("UNCLOSED_FENCE",))
    assert f.fix is None, why


def test_a_nesting_reported_once_its_knock_on_blocks_are_not_reported_again() -> None:
    """A ```python block nests ```javascript and an untagged tree; every later pair shifts and the last
    fence runs to the end: one NESTED_FENCE (the first cause), none on a knock-on block, and no
    UNCLOSED_FENCE for the author's last closer (held-out 5b: telegram-bot-builder)."""
    body = ["```python", "## Setup", "```javascript", "a()", "```", "### Tree", "```", "src/", "```", "```", "",
            "### Keyboards", "", "```python", "## Keyboards", "```javascript", "b()", "```", "```", "", "## End"]
    found = _findings(HEAD + "\n".join(body) + "\n", ("NESTED_FENCE", "UNCLOSED_FENCE"))
    assert [f.code for f in found] == ["NESTED_FENCE"], [(f.code, f.message) for f in found]


def _untagged_lines(body: list[str]) -> list[int]:
    found = _findings(HEAD + "\n".join(body) + "\n", ("CODE_BLOCK_UNTAGGED",))
    return [f.range.start.line - HEAD.count("\n") + 1 for f in found]  # 1-based lines of `body`


def test_knock_on_closers_after_a_nested_example_are_not_tagged() -> None:
    """A ```markdown example nests ```python, so its closer opens a block that swallows the next template's
    ```python opener and that template's own inner ```python pair: the author still has a block open, so the
    following bare fences are closers, not untagged blocks (held-out 10: curriculum-designer 837, 849)."""
    body = ["```markdown", "# Lesson", "```python", "x = 1", "```", "Closing words", "```", "",
            "#### Notebook", "", "```python", "cell = 1", "```python", "solution = 2", "```", "more = 3", "```", "",
            "#### Tree", "", "```", "course/", "```", "",
            "#### Canvas", "", "```", "canvas/", "```", ""]
    # author: 1-7 markdown (2 nested), 11-17 python (nested 13-15), 21-23 tree, 27-29 canvas; the stray 7 opens
    # CommonMark's block to 15, 17 opens (a closer), 21 closes it, 23 opens (a closer), 27 closes it, 29 opens
    assert _untagged_lines(body) == []


def test_an_untagged_block_after_a_longer_outer_fence_is_still_reported() -> None:
    """A ```` outer fence holds a ```typescript pair legitimately (a longer fence nests): the untagged block
    after it is a real one (held-out 7: malamute learning)."""
    body = ["````", "Template:", "```typescript", "let a = 1", "```", "````", "", "Then:", "", "```", "plain", "```"]
    assert _untagged_lines(body) == [1, 10]


def test_a_fence_ended_by_its_list_item_does_not_stop_the_walk() -> None:
    """A fence that ends with its list item (no closing fence) does not end the walk: the untagged block after
    it (not reported: in reading order it closes the list's fence) holds ```markdown, so the next block opens
    at its author's closer and swallows ```bash up to that block's closer; the plain block after is reported."""
    body = ["1. Step", "   ```", "   open in a list", "", "Text", "", "```", "With header:", "```markdown",
            "---", "```", "The agent writes it.", "```", "", "## Output", "", "```bash", "make", "```", "",
            "```", "[report]", "```"]
    assert _untagged_lines(body) == [21]


def test_an_indented_inner_pair_does_not_end_the_outer_block() -> None:
    """Fences indented four spaces inside a block are content to CommonMark: the outer block does not close
    at the inner closer, so no NESTED_FENCE (held-out 7: bitranox)."""
    body = ["```text", "ALGORITHM:", "  1. Check:", "     ```bash", "     make test", "     ```", "  2. Done", "```",
            "", "```", "after", "```"]
    found = _findings(HEAD + "\n".join(body) + "\n", ("NESTED_FENCE",))
    assert found == [], [(f.code, f.message) for f in found]


def test_a_fence_glued_to_a_template_marker_is_the_authors_closer() -> None:
    """`<!--/cap:x-->```: a template's section marker (stripped by its installer) before the closing fence."""
    glued = HEAD + "```bash\n<!--cap:x-->echo a\n<!--/cap:x-->```\n\nText after.\n"
    assert not _findings(glued, ("UNCLOSED_FENCE",))
    two = HEAD + "```bash\necho a\n<!-- a --> <!-- b -->```\n\nText after.\n"
    assert not _findings(two, ("UNCLOSED_FENCE",))
    # near misses: a shorter fence, text after the fence, an unterminated comment, no comment at all
    for line in ("<!--/cap:x-->``", "<!--/cap:x-->``` tail", "<!--/cap:x ```", "text ```"):
        text = HEAD + f"````bash\necho a\n{line}\n\nText after.\n" if line.endswith("``") else \
            HEAD + f"```bash\necho a\n{line}\n\nText after.\n"
        assert [f.code for f in _findings(text, ("UNCLOSED_FENCE",))] == ["UNCLOSED_FENCE"], line


@pytest.mark.parametrize(("first", "lang"), [
    ("printf '\\nexport PATH=x\\n' >> ~/.profile", "bash"), ("uvx ruff check .", "bash"), ("$ ls -la", "bash"),
    ("sudo apt-get install -y jq", "bash"), ("gh pr view 12", "bash"), ("pytest -q tests", "bash"),
    ("import os", "python"), ('{"a": 1}', "json"),
    # near misses: a tool of the skill's own, prose, a call, a word that starts like a command
    ("routemark judge --run <id>", "text"), ("Session starts", "text"), ("remember(", "text"),
    ("echoes of the past", "text"), ("uvicorn app:main", "text"),
])
def test_untagged_fix_guesses_the_language(first: str, lang: str) -> None:
    (f,) = _findings(HEAD + f"```\n{first}\n```\n", ("CODE_BLOCK_UNTAGGED",))
    assert f.fix.title == f"Tag as `{lang}`"


def test_stray_fences_that_swallow_the_rest_get_no_tag() -> None:
    """Set 37's second sample: `### Phase 5` inside a bare block that runs to the file's last line, after `### Phase 4`
    outside it; a tag would make the document's own sections code for good. A template at the end whose heading
    numbers nothing of the document's keeps its tag fix."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    head = "---\nname: x\ndescription: Use when x.\n---\n\n# X\n\n### Phase 4: Updates\n\nPropose.\n\n"
    stray = head + "````\n\n### Phase 5: Apply\n\nApply.\n\n## Issues\n\n- one\n````\n"
    template = head + "## Template\n\n```\n### Phase 7: Cut-over\n\n- Date:\n```\n"
    (f,) = analyze(stray, None, config=Config(select=("CODE_BLOCK_UNTAGGED",))).findings
    assert f.fix is None and "is this fence stray?" in f.message
    (g,) = analyze(template, None, config=Config(select=("CODE_BLOCK_UNTAGGED",))).findings
    assert g.fix is not None and g.message == "Code block has no language tag"
