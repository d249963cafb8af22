"""ARGUMENT_IN_CODE stays linear on a long line of `$N`: whether each one can only be code (script context,
quoted awk/sed text) is decided in one pass over the line, not by a scan of the line per `$N`."""

from __future__ import annotations

import time

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.document import SkillFiles
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.registry import by_code
from skillgrade.analyzers.rule import RuleContext

N = 100_000
LIMIT_S = 1.0


@pytest.mark.parametrize("piece", ["$1", "'$1", "sed 's/$1", "\"$1 ", "{ print $1 "])
def test_long_line_of_positionals(piece: str) -> None:
    line = (piece * (N // len(piece) + 1))[:N]
    text = f"---\nname: x\ndescription: Use when testing.\n---\n\n```bash\n{line}\n```\n\n`{line}`\n"
    doc = parse(text, None, files=SkillFiles(None))
    rule = by_code("ARGUMENT_IN_CODE")
    start = time.perf_counter()
    list(rule.check(doc, RuleContext(rule, Config(select=("ARGUMENT_IN_CODE",)))))
    assert time.perf_counter() - start < LIMIT_S
