"""Bare cross references in prose (`../x/SKILL.md`, `skills/some-skill`) are found in linear time."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.links._classify import prose_cross_refs, prose_cross_spans

FM = "---\nname: cross-skill\ndescription: Use when testing cross references in prose.\n---\n\n"

# the backtracking regex the scan replaced, kept here as the specification of what it matches
_SPEC = re.compile(
    r"(?<![\w/~.@:%-])("
    r"(?:\.\./)+[\w.-]+(?:/[\w.-]+)*/SKILL\.md"
    r"|(?:\.\./)+(?:[\w.-]+/)*agents/[\w.-]+\.md"
    r"|(?:\./)?skills/[a-z0-9]+(?:-[a-z0-9]+)+(?:/SKILL\.md|(?!\.[\w-]))"  # skills/x-y.md: a file
    r"|(?:\./)?skills/[a-z0-9-]+/SKILL\.md"
    r")(?![\w/-])"
)


@pytest.mark.parametrize("line", [
    "See ../pdf/SKILL.md and ../../agents/reviewer.md.",
    "Use skills/chart-builder or ./skills/x/SKILL.md, not skills/agents.",
    "../a/b/SKILL.md.bak ../agents/x.md.y/z ../agents/x.md/ ../../SKILL.md ../agents/.md",
    "~/../x/SKILL.md @../x/SKILL.md a:../x/SKILL.md 50%../x/SKILL.md (../x/SKILL.md)",
    "skills/foo-bar- skills/foo-barX skills/foo--bar skills/a-b/SKILL.mdx skills/ab/SKILL.md",
    "../x//SKILL.md ..//x/SKILL.md ../é/SKILL.md ../x/SKILL.md/SKILL.md ../agents/agents/a.md.md",
])
def test_same_matches_as_the_regex(line: str) -> None:
    assert list(prose_cross_spans(line)) == [(m.start(1), m.end(1)) for m in _SPEC.finditer(line)]


def test_same_matches_as_the_regex_on_random_lines() -> None:
    import random

    pieces = ["../", "agents/", "x.md", "SKILL.md", ".", "/", "skills/", "a-b", "-", "x", "./", "md", "..",
              "agents", "A", " ", "~", ":"]
    rng = random.Random(7)
    hits = 0
    for _ in range(20_000):
        line = rng.choice(["../", "skills/", "./skills/", " ../", ""]) + "".join(
            rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        want = [(m.start(1), m.end(1)) for m in _SPEC.finditer(line)]
        hits += bool(want)
        assert list(prose_cross_spans(line)) == want, line
    assert hits > 300  # the sample exercises real matches


def test_corpus_lines_same_matches() -> None:
    corpus = Path("/work/shared/corpus")
    if not corpus.is_dir():
        pytest.skip("no shared corpus")
    seen = 0
    for f in sorted(corpus.rglob("*.md")):
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
            if ("../" in line or "skills/" in line) and len(line) < 2_000:
                seen += 1
                assert list(prose_cross_spans(line)) == [(m.start(1), m.end(1)) for m in _SPEC.finditer(line)]
    assert seen > 50


HOSTILE = {
    "1e5 ../": "../" * 100_000,
    "1e5 ../ then SKILL.md": "../" * 100_000 + "x/SKILL.md",
    "1e6 chars of ../a": ("../a" * 250_000),
    "1e6 chars of ../agents/x.md": ("../agents/x.md" * 71_429)[:1_000_000],
    "1e6 chars of skills/a-": "skills/" + "a-" * 499_996,
    "1e6 chars of .md.": "../agents/" + ".md." * 249_997,
    "1e6 chars, no slash": "x" * 1_000_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_lines_are_linear(name: str) -> None:
    line = HOSTILE[name]
    doc = parse(FM + line + "\n", "/nonexistent/cross-skill/SKILL.md")
    t0 = time.perf_counter()
    refs = list(prose_cross_refs(doc))
    elapsed = time.perf_counter() - t0
    assert elapsed < 1.0, f"{name}: {elapsed:.2f}s"  # typically 0.1-0.3 s; the bound is the issue's
    assert len(refs) <= 1
    t0 = time.perf_counter()
    analyze(FM + line + "\n", None, config=Config(select=("DEAD_CROSS_REF",)))
    assert time.perf_counter() - t0 < 2.0  # the whole analysis (parse included), on a loaded machine too
