"""analyzers/rx.py: patterns compiled from the shipped table are the patterns re.compile makes."""

from __future__ import annotations

import marshal
import re
import subprocess
import sys
from pathlib import Path

from skillgrade.analyzers import rx

ROOT = Path(__file__).resolve().parents[1]


def _file_key() -> tuple:
    return marshal.loads(rx.TABLE_PATH.read_bytes())["key"]


def test_table_entries_equal_re_compile() -> None:
    table = rx.load_table()
    if _file_key() != rx.KEY:  # another interpreter: the table is not used at all
        assert table == {}
        return
    assert len(table) > 100
    for pattern, flags in table:
        ours, theirs = rx.compile(pattern, flags), re.compile(pattern, flags)
        assert ours is not theirs  # (built from the table, not taken from re's cache)
        # Pattern equality compares the engine code, flags and pattern text
        assert ours == theirs, pattern[:80]
        assert (ours.groups, ours.groupindex, ours.flags) == (theirs.groups, theirs.groupindex, theirs.flags)


def test_table_is_current() -> None:
    """Every static pattern of the package is in the table as this interpreter compiles it."""
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_regex_code.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    if _file_key() != rx.KEY:
        assert proc.returncode == 1 and "stale" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr


def test_the_big_trigger_pattern_comes_from_the_table() -> None:
    from skillgrade.analyzers.rules import _helpers

    p = _helpers._EXPLICIT
    if _file_key() == rx.KEY:
        assert (p.pattern, int(re.I)) in rx.load_table()
    assert p.search("Use when the user asks for a chart.") is not None


def test_pattern_built_at_run_time_is_compiled() -> None:
    p = rx.compile(r"(?<![\w.])" + re.escape("my-skill") + r"\b", re.I)
    assert p == re.compile(r"(?<![\w.])" + re.escape("my-skill") + r"\b", re.I)
    assert p.search("see MY-SKILL here").start() == 4


def test_unreadable_or_foreign_table_is_ignored(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\xffnot marshal")
    assert rx.load_table(garbage) == {}
    assert rx.load_table(tmp_path / "missing.bin") == {}
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(marshal.dumps({"key": ("pypy", (3, 10), 1, "little", 4),
                                       "table": {("a", 0): rx.generate("a", 0)}}))
    assert rx.load_table(foreign) == {}
    ours = tmp_path / "ours.bin"
    ours.write_bytes(marshal.dumps({"key": rx.KEY, "table": {("a+b", 0): rx.generate("a+b", 0)}}))
    assert list(rx.load_table(ours)) == [("a+b", 0)]


def test_code_the_engine_rejects_falls_back(monkeypatch) -> None:
    flags, code, groups, groupindex, indexgroup = rx.generate("x(y)z", 0)
    broken = (flags, code[:8], groups, groupindex, indexgroup)  # (cut short: not a valid program)
    monkeypatch.setattr(rx, "_table", {("x(y)z", 0): broken})
    p = rx.compile("x(y)z")
    assert p == re.compile("x(y)z") and p.search("axyzb").group(1) == "y"


def test_recording_lists_static_patterns_only_when_asked() -> None:
    assert rx.recording is None
    rx.compile("abc")  # (nothing kept: a server building patterns per skill would grow a list forever)
    assert rx.recording is None
