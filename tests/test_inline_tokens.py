"""fastmd.inline_links (markdown-it's inline parse with a shortcut for plain links) gives the same links
as markdown-it's own inline parser, on generated link-dense text and on every inline of the corpus."""

from __future__ import annotations

import random
import time

import pytest

from skillgrade.analyzers import fastmd
from skillgrade.analyzers.parse import _collect_links, markdown_parser

PIECES = ["[a](b)", "![i](c.png)", "[x](y \"t\")", "[", "]", "(", ")", "!", "`", "``", "<", ">", "\\", "&amp;",
          " ", "\n", "a", "b", "\x01", "\x7f", "\u00a0", "[a]", "[a][b]", "<http://x>", "[a](<b c>)",
          "[a](b c)", "[a]( b)", "[a](b )", "[l [n](m)](o)", "[a](b(c))", "[*a*](b)", "[a](b", "\"", "'",
          "[a]: b\n", "&", "[^1]", "[![i](p)](q)", "![", "![a](b)", "![![a](b)a](c)"]


def links(items: list, content: str) -> list:
    out: list = []
    lines = content.split("\n")
    _collect_links(0, len(lines), items, lines, out)
    return out


def both(content: str, refs: bool) -> tuple[list, list]:
    md = markdown_parser()
    env = {"references": {"B": {"href": "x", "title": ""}}} if refs else {}
    ref: list = []
    md.inline.parse(content, md, dict(env), ref)
    return links(fastmd.link_items(ref), content), links(fastmd.inline_links(content, md, dict(env)), content)


def test_generated_text_gives_markdown_its_links() -> None:
    rng = random.Random(7)
    for _ in range(4000):
        content = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30)))
        for refs in (False, True):
            ref, fast = both(content, refs)
            assert fast == ref, repr(content)


def test_corpus_inlines_give_markdown_its_links() -> None:
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    md = markdown_parser()
    n = 0
    for f in sorted(corpus.rglob("*.md"))[:400]:
        for tok in md.parse(f.read_text("utf-8", errors="replace"), {}):
            if tok.type == "inline" and "](" in tok.content:
                ref, fast = both(tok.content, False)
                assert fast == ref, (f, tok.content[:200])
                n += 1
    assert n > 0 or not corpus.is_dir()


def _flipped_run(n: int) -> str:
    return "[a}(b)" + "[a](b)" * n + "[a](b(" + "[a](b)" * n + "[a]8b)" + "![i](j)" * n


def _image_label_of_images(n: int) -> str:
    """Fuzz seed 29's slowest document: images whose labels hold thousands of images (`![![a](b)![a](b)…](c)`).
    markdown-it parsed each inner image twice (the label's scan, then its alt-text tokens, which no link item
    reads); the label's scan now takes the plain-link shortcut and the alt text is not parsed (before: ~1.1 s
    here; the fuzz document, 13 such lines: 3.1 s)."""
    return "![" + "![a](b)" * n + "a](c)" + "![a](b)" * n + "![![a](b)" + "![a](b)" * n


@pytest.mark.parametrize(("run", "per_copy"), [(_flipped_run, 2.5), (_image_label_of_images, 2)])
def test_link_runs_stay_linear(run, per_copy: float) -> None:
    ref, fast = both(run(300), False)
    assert fast == ref and len(fast) > 300 * per_copy
    content = run(20_000)
    t = time.perf_counter()
    fast = fastmd.inline_links(content, markdown_parser(), {})
    assert time.perf_counter() - t < 2.5  # ~0.5 s idle; markdown-it's own inline parser: ~6 s on the flipped run
    assert len(fast) > 20_000 * per_copy


def test_the_rules_parser_is_a_plain_copy_made_once() -> None:
    """Session 28: a label's scan reads `state.md.options` and `state.md.inline` once a token; session 27 had handed the
    rules a wrapper whose `__getattr__` forwarded them, and 10^4 nested brackets went from 0.26 s to 1.2 s (CI's
    hostile-line test failed). The rules' parser is a copy of the parser with its attributes in place (no forwarding),
    made once per parser, whose inline parser replaces only `parse` and `skipToken`."""
    md = markdown_parser()
    copy = fastmd._parser_without_alt_text(md)
    assert copy is fastmd._parser_without_alt_text(md)  # made once
    assert type(copy) is type(md) and copy is not md
    assert vars(copy)["options"] is md.options  # an attribute of its own, read without a Python-level lookup
    assert type(copy).__getattribute__ is type(md).__getattribute__ and not hasattr(type(copy), "__getattr__")
    inline = vars(copy)["inline"]
    assert inline is not md.inline and vars(inline)["ruler"] is md.inline.ruler
    assert set(vars(inline)) - set(vars(md.inline)) == {"parse", "skipToken"}
    assert "parse" not in vars(md.inline) and "skipToken" not in vars(md.inline)  # the parser itself is untouched
