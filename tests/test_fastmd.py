"""The line scanner (analyzers.fastmd) against markdown-it: whenever it answers, it answers the same.

Three sources of documents: every section of the corpus, hand-written edge cases, and documents
generated from a grammar of line kinds chosen to hit the scanner's decisions (lists, lazy lines,
fences, tables, rules, setext underlines, nested markers, links).
"""

from __future__ import annotations

import importlib
import random

import pytest

parse = importlib.import_module("skillgrade.analyzers.parse")
fastmd = importlib.import_module("skillgrade.analyzers.fastmd")
blank_code_spans = importlib.import_module("skillgrade.analyzers.codespan").blank_code_spans


def _both(src: str):
    got = fastmd.scan(src, parse.markdown_parser, parse._collect_links)
    w = parse.markdown_facts(src)
    return got, (w.headings, w.blocks, w.tables, w.quoted, w.comments, w.links, w.html)


def test_corpus_sections_agree_and_most_take_the_fast_path(corpus) -> None:
    sections = accepted = 0
    for f in sorted(corpus.rglob("SKILL.md")):
        index = parse.LineIndex(f.read_text("utf-8", errors="replace"))
        _, body = parse._parse_frontmatter(index)
        for a, b in parse._sections(index.lines, body):
            src = "\n".join(index.lines[a:b])
            got, want = _both(src)
            sections += 1
            if got is not None:
                accepted += 1
                assert got == want, f"{f} line {a}"
    assert sections > 3000 and accepted / sections > 0.85


EDGE = {
    "- [a](references/a.md)\n  continued [b](b.md)\n- next\n": True,
    "Text\n| a | b |\n|---|---|\n": True,  # a table cannot interrupt a paragraph
    "| a | b |\n|---|---|\n| [l](x.md) | 2 |\nplain row\n\n# H [x](y.md)\n": True,
    "```python\nx = 1\n": True,  # an unclosed fence runs to the end
    "```\ncode\n````\nafter\n": True,
    "Title\n=====\n": True,  # a one-line paragraph's setext heading
    "Para\n---\n": True,
    "Para [x](y.md)  \n---  \nnext [a](b.md)\n": True,
    "  Para [x](y.md)\n  ---\n": False,  # (an indented paragraph start: markdown-it decides)
    "Two\nlines\n---\n": False,  # longer paragraphs: markdown-it decides
    "- item\n---\n": False,
    "- item\n  ---\n": False,
    "> quote\n---\n": False,  # (after a quote: markdown-it decides)
    "text\n\n---\n": True,
    "> quoted [x](y.md)\n>\n> more\n": True,
    "> a\n>\n>\n\nb\n": True,  # markdown-it's quote map runs over the blank line after trailing `>` lines
    "> a\nlazy continuation\n": False,
    "> - item\n": False,
    "1. Step\n\n   ```bash\n   run\n   ```\n": False,  # a fence inside a list item
    "<div>\n[x](y.md)\n</div>\n": True,  # an HTML block: no markdown links inside
    "<!-- a\n\n# not a heading\n-->\ntext [l](m.md)\n": True,
    "text\n<span>inline</span>\n": True,  # an inline tag line cannot interrupt a paragraph
    "    indented code\n": False,
    "[ref]: target.md\n": False,
    "```\ncode\n```": True,  # closed at the end of a text without a final newline
    "```\ncode\n    ```": True,  # indented four: content, so the fence never closes
    "~~~\ncode\n": True,
    "````md\n```\ninner\n```\n````\n": True,
    "~~~\n```\n~~~\n": True,
    "<Good>\n```ts\ncode\n\nmore\n```\n</Good>\n": True,  # the fence is HTML; the closer opens a block
    "<Good>\n\n```ts\ncode\n```\n</Good>\n": True,
    "text\n<Good>\n```\nx\n```\n": True,  # an HTML block of kind 7 cannot interrupt a paragraph
    "text\n<details>\n```\nx\n```\n": True,  # kind 6 can
    "<example>\n~~~\nx\n~~~\n\n~~~\n": True,
}


@pytest.mark.parametrize("src", list(EDGE))
def test_edge_cases(src: str) -> None:
    got, want = _both(src)
    assert (got is not None) == EDGE[src]
    if got is not None:
        assert got == want


LINES = [
    "", "", "", "text words here", "more text", "  indented text", "   three", "    four indented", "     five",
    "- item", "  - nested", "    - deep", "1. one", "2. two", "10) ten", "* star", "+ plus", "-", "1.", "-  two",
    "# H", "## H ##", "###### h", "####### x", "#nospace", "  ## indented h", "# [h](h.md)",
    "---", "***", "* * *", "___", "===", "--", "- - -", "----",
    "```", "```python", "~~~", "````", "   ```", "```x`y", "``` js", "~~~~",
    "> quote", "> **Note**: see [x](y.md)", ">", "> more", ">> nested", "> - item", "> # h",
    ">text", "   > indented quote", ">     deep", "<div>", "<!-- c -->", "<!-- open", "close -->", "<details>", "</div>",
    "<summary>x</summary>", "<br>", "<https://x.io>", "<?php", "<script>", "</script>", "<span>a</span> [l](m.md)",
    "| a | b |", "|---|---|", "| 1 | 2 |", "a | b", "--|--", "|:-:|", "| x |", "|---|", "| [t](t.md) | x |",
    "[link](references/x.md)", "see [a](b.md) and [c](d.md)", "![img](assets/i.png)", "[multi", "line](x.md)",
    "text [ref][x]", "[x]: target.md", "see [a]: b.md", "{ [k]: v }", "- [d]: e.md", "[x]", "[y][x]", "`code ](x)`", "\\# escaped", "- [x](y.md)", "  [z](w.md)", "1986. year", "1. [o](o.md)",
    "term  ", "  | in list | b |", "  |---|---|", "code = 1", "[a](b.md)[c](d.md)", "- ```", "- # h", "-     code",
    "\tcode", "-\titem", " \t text", "text\twith tab", "<Good>", "</Good>", "<example>", "```ts",
]


QUOTES = ["", "", "text words", "see [a](b.md)", "> quote", "> **Note**: see [x](y.md)", ">", "> more", ">text",
          "   > indented quote", "- item", "1. one", "# H", "---", "```", "<!-- c -->", "| a | b |", "|---|---|",
          "  cont", "    four"]


@pytest.mark.parametrize("seed", range(2))
def test_generated_quotes_agree(seed: int) -> None:
    rng = random.Random(100 + seed)
    quoted = 0
    for _ in range(3000):
        src = "\n".join(rng.choice(QUOTES) for _ in range(rng.randint(1, 15))) + rng.choice(["", "\n"])
        got, want = _both(src)
        if got is not None:
            quoted += bool(got[3])
            assert got == want, src
    assert quoted > 150


@pytest.mark.parametrize("seed", range(4))
def test_generated_documents_agree(seed: int) -> None:
    rng = random.Random(seed)
    accepted = 0
    for _ in range(2500):
        src = "\n".join(rng.choice(LINES) for _ in range(rng.randint(1, 25))) + rng.choice(["", "\n"])
        got, want = _both(src)
        if got is not None:
            accepted += 1
            assert got == want, src
    assert accepted > 250


# ------------------------------------------------------------------ links without markdown-it's inline parser

INLINE = ["word", "more words", "[a](b.md)", "![i](p.png)", "[x]", "]", "(", ")", "`code`", "`[c](d)`", "\\[", "<x>",
          '[a](b.md "t")', "[a](<b c>)", "[a]( b )", "[a\nb](c.md)", "[](e.md)", "[a]()", "[a](b(c).md)", "**",
          "&amp;", "[l](u.md)(v)", "[a][b]", "[a] (b)", "[a](references/x.md#anchor)", "[a](https://x.io/a?b=c)",
          "\n", "  ", "[x](y.md)[z](w.md)", "![alt [n](m)](p.png)", "[out [in](i.md)](o.md)", '[t](u "a\nb")',
          "[a](b\nc)", "!", "``a`b``", "`x", "``", "`[a](b.md)` [c](d.md)", "[*e*](f.md)", "[a_b](c_d.md)", "*",
          "_", "[a](b.md 'x')", "[a](b.md (x))", "[[a](b.md)]", "[`k`](k.md)", "[a\\](b.md)", "[c](d\\.md)",
          "\\", "[e](f.md)\\"]


def _link_facts(items: list, content: str) -> list:
    lines = content.split("\n")
    out: list = []
    parse._collect_links(0, len(lines), items, lines, out)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_simple_links_agree_with_markdown_it(seed: int) -> None:
    rng = random.Random(200 + seed)
    md = parse.markdown_parser()
    accepted = 0
    for _ in range(6000):
        content = "".join(rng.choice(INLINE) + rng.choice(["", " ", " ", "\n"])
                          for _ in range(rng.randint(1, 10))).strip()
        fast = fastmd.simple_links(content)
        if fast is None:
            continue
        accepted += 1
        children: list = []
        md.inline.parse(content, md, {}, children)
        assert _link_facts(fast, content) == _link_facts(fastmd.link_items(children), content), content
    assert accepted > 300


@pytest.mark.parametrize(("text", "blanked"), [
    ("a `x` b", "a \0\0\0 b"),
    ("``a`b`` c", "\0" * 7 + " c"),
    ("`open", "`open"),
    ("a ``x` y", "a ``x` y"),
    ("`a``b`", "\0" * 6),
    ("[`a](b)`", "[" + "\0" * 7),
])
def test_code_spans_are_blanked_as_markdown_it_reads_them(text: str, blanked: str) -> None:
    assert blank_code_spans(text, "\0") == blanked


@pytest.mark.parametrize(("src", "closed"), [
    ("```\nx\n```\n", [True]),
    ("```\nx\n```", [True]),
    ("```\n```", [True]),
    ("```\nx\n", [False]),
    ("```\nx", [False]),
    ("```", [False]),
    ("```\nx\n    ```", [False]),
    ("````\n```\nx\n```\n", [False]),
    ("1. Step\n\n   ```bash\n   run\n   ```\n", [True]),
    ("1. Step\n\n   ```bash\n   run\n- next\n", [False]),
    ("- a\n  ```\n      ```\n", [False]),
    ("- a\n  ```\n      ```", [False]),
    ("> ```\n> x\n", [False]),
    ("> ```\n> x\n> ```\n", [True]),
    ("> ~~~\n> x\n> ~~~~", [True]),
])
def test_markdown_it_fences_know_whether_they_close(src: str, closed: list[bool]) -> None:
    assert [b[6] for b in parse.markdown_facts(src).blocks] == closed
    got = fastmd.scan(src, parse.markdown_parser, parse._collect_links)
    if got is not None:
        assert [b[6] for b in got[1]] == closed


@pytest.mark.parametrize(("line", "kind"), [
    ("<Good>", 7), ("</Good>", 7), ("<details>", 6), ("<div class='x'>", 6), ("<!-- c -->", 2), ("<pre>", 1),
    ("<span>a</span>", 0), ("text", 0), ("<?php", 3), ("<!DOCTYPE html>", 4),
])
def test_html_kind(line: str, kind: int) -> None:
    assert fastmd.html_kind(line) == kind
