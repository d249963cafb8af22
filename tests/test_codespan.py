"""The one code-span implementation agrees with markdown-it-py, and stays linear on hostile runs."""

from __future__ import annotations

import random
import time

import pytest
from markdown_it import MarkdownIt

from skillgrade.analyzers.codespan import blank_code_spans, code_spans

_MD = MarkdownIt("commonmark")


def _reference(text: str) -> list[str]:
    """markdown-it's code_inline contents for `text` read as inline markdown."""
    return [t.content for t in _MD.parseInline(text)[0].children or [] if t.type == "code_inline"]


def _ours(text: str) -> list[str]:
    out = []
    for a, b in code_spans(text):
        ticks = 0
        while text[a + ticks] == "`":
            ticks += 1
        content = text[a + ticks:b - ticks].replace("\n", " ")
        if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
            content = content[1:-1]
        out.append(content)
    return out


TRICKY = [
    "`code`",
    "``code with ` inside``",
    "`` ` ``",
    "```a``b```",
    "``a`",  # opener of 2 never closed: both runs literal
    "`a``",
    "`a`` b`",  # the 2-run is no closer for a 1-run, the next 1-run is
    "``a` b``",
    "x" + "`" * 30,
    "` `` ``` `` `",
    "`one` and `two` and ``three``",
    "\\`not code`",  # escaped opener
    "\\``code`",  # escaped first backtick: the span opens with the second
    "\\\\`code`",  # an escaped backslash: the backtick opens
    "`code\\`",  # a backslash inside a span is literal: the span closes
    "`a\\``",
    "`  `",
    "` a `",
    "`\nb`",
    "``foo`bar``",
    "`foo``bar``",
    "`a` `` `b` ``",
    "```",
    "a ` b ` c ` d",
    "[not a `link](/foo`)",
    "*foo`*`",
    "`` `foo ` bar` ``",
]


@pytest.mark.parametrize("text", TRICKY, ids=range(len(TRICKY)))
def test_agrees_with_markdown_it(text: str) -> None:
    assert _ours(text) == _reference(text)


def test_agrees_with_markdown_it_on_random_runs() -> None:
    rng = random.Random(8)
    pieces = ["`", "``", "```", "\\", "a", " ", "b c"]
    for _ in range(3000):
        text = "x" + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        assert _ours(text) == _reference(text), text


def test_blanking_keeps_offsets() -> None:
    assert blank_code_spans("a `b` c") == "a     c"
    assert blank_code_spans("a `b` c", "\0") == "a \0\0\0 c"
    assert blank_code_spans("a ``b` c") == "a ``b` c"


HOSTILE = {
    "letter-then-1e5-backticks": "x" + "`" * 100_000,
    "1e5-backticks-then-letter": "`" * 100_000 + "x",
    "alternating-runs": "` `` " * 20_000,
    "growing-runs": " ".join("`" * k for k in range(1, 450)),
    "escaped-backticks": "\\`" * 50_000,
    "unclosed-openers": "`a" * 50_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_linear_on_hostile_runs(name: str) -> None:
    text = HOSTILE[name]
    t0 = time.perf_counter()
    blank_code_spans(text)
    dt = time.perf_counter() - t0
    print(f"{len(text)} chars: {dt * 1000:.1f} ms")  # ~10-50 ms each
    assert dt < 2.0  # generous: a loaded CI machine; the old regex took hours on these
