"""The content, script and bundled-reference rules stay linear on hostile input, in SKILL.md and in bundled files.

Each rule runs alone on one long line (or many short ones) of a repeated piece that its own scanner
looks for, both as the SKILL.md body and as bundled files; the bound is generous (the rules take
well under 0.2 s a megabyte on an idle machine), the point is catching quadratic scans, which take
minutes at this size.
"""

from __future__ import annotations

import time

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.document import SkillFiles
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.registry import by_code
from skillgrade.analyzers.rule import RuleContext

N = 200_000
LIMIT_S = 1.0

PIECES = {
    "HARDCODED_SECRET": ["sk-", "sk-ant-api01-", "AKIA", "ghp_", "xoxb-1", "T3BlbkFJ", "_live_", "\n"],
    "INVISIBLE_UNICODE": ["\u200b", "a\u202e", "\U0001F600\u200d", "\U000e0041", "\u05e9\u200f", "\n"],
    "INTERACTIVE_SCRIPT": ["input(", "'", "`", '"""', "read ", "while read ", "IFS= " * 4 + "read", "<<EOF\n",
                           "# ", "\\", "x$'", "\n"],
    "ABSOLUTE_USER_PATH": ["/Users/", "/Users/a", "/home/a/", "C:\\Users\\", "C:\\\\Users\\\\a", "file:///Users/"],
    "HIDDEN_INSTRUCTION": ["<!--", "<!-- ignore previous instructions ", "<!-- do not not tell ", "```\n",
                           "`<!--", "<!-- x\n", "<!-- always run | sh "],
    "NESTED_REFERENCE": ["[a](b.md) ", "[", "]("],
    "REFERENCE_NO_TOC": ["\n", "- [a](#a)\n", "# \n"],
}
CASES = [(code, piece) for code, pieces in PIECES.items() for piece in pieces]
BUNDLED = ("references/a.md", "references/b.md", "scripts/s.py", "scripts/s.sh", "scripts/s.js", "notes.txt")


def _run(code: str, doc) -> float:
    rule = by_code(code)
    assert rule is not None
    start = time.perf_counter()
    list(rule.check(doc, RuleContext(rule, Config(select=(code,)))))
    return time.perf_counter() - start


@pytest.mark.parametrize(("code", "piece"), CASES, ids=[f"{c}-{p[:12]!r}" for c, p in CASES])
def test_hostile_line(code: str, piece: str) -> None:
    text = (piece * (N // len(piece) + 1))[:N]
    head = "---\nname: x\ndescription: Use when testing.\n---\n"
    in_skill = parse(head + text + "\n", None, files=SkillFiles(None))
    assert _run(code, in_skill) < LIMIT_S
    bundled = parse(head + "See [a](references/a.md).\n", None, files=SkillFiles(None))
    bundled.bundle_overrides = {rel: text for rel in BUNDLED}
    assert _run(code, bundled) < LIMIT_S * len(BUNDLED) / 2
