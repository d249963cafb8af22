"""Patterns most skills never reach are compiled on first use, not by every run's parent at import."""

from __future__ import annotations

import subprocess
import sys

from skillgrade.analyzers.lazy_re import LazyPattern, lazy_compile


def test_a_lazy_pattern_compiles_on_first_use_and_matches_as_compiled() -> None:
    p = lazy_compile(r"\bsk-[a-z]+\b", 0)
    assert isinstance(p, LazyPattern) and p._compiled is None
    assert p.search("key sk-abc here").group() == "sk-abc"
    assert p._compiled is not None and p.pattern == r"\bsk-[a-z]+\b"
    assert [m.group() for m in p.finditer("sk-a sk-b")] == ["sk-a", "sk-b"]


def test_importing_the_rules_leaves_rare_patterns_uncompiled() -> None:
    code = ("import skillgrade.analyzers.registry as r; r.ALL_RULES\n"
            "from skillgrade.analyzers.rules.content import hardcoded_secret as h\n"
            "from skillgrade.analyzers.rules.code import code_block_invalid as c\n"
            "print(h._PLACEHOLDER._compiled is None, c._TYPE_SKETCH._compiled is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
