"""Regular expressions without paying to compile them on every run.

`re.compile` parses a pattern and generates its matcher code in Python (`re._parser`, `re._compiler`): ~19,000
instructions a character, so the rules' ~180 patterns (~24,000 characters; the explicit-trigger pattern alone is 8,000)
cost every run ~390 M instructions, ~130 ms, before it reads a file. The code generated for a pattern depends only on
the pattern, its flags and the interpreter's regex engine, so it is generated once, ahead of time, the way a parser
generator ships its tables: `scripts/gen_regex_code.py` writes every static pattern's code to `data/regex_code.bin`,
and `compile` hands that code straight to the engine (`_sre.compile`, what `re.compile` ends with).

The table is keyed by interpreter, version, the engine's `MAGIC` and the machine's word layout; on any other
interpreter, for a pattern not in the table (a pattern built at run time, or one changed since the table was made), or
if the file cannot be read, `compile` is `re.compile`. Either way the pattern object is the one `re.compile` returns
(tests/test_rx.py compares them). A stale table costs speed, never correctness; `scripts/gen_regex_code.py --check`
(run by the tests) says when it is stale.
"""

from __future__ import annotations

import marshal
import re
import sys
from array import array
from pathlib import Path

try:
    import _sre
except ImportError:  # (another interpreter: no table)
    _sre = None

TABLE_PATH = Path(__file__).parent / "data" / "regex_code.bin"
# what the code in the table is valid for: the engine's code format changes between versions (its MAGIC), and the
# code is stored as the machine's unsigned ints
KEY = (sys.implementation.name, tuple(sys.version_info[:2]), getattr(_sre, "MAGIC", None), sys.byteorder,
       array("I").itemsize)

_table: dict[tuple[str, int], tuple] | None = None
# (pattern, flags) of every compile and lazy pattern asked for while a list is set here: how
# scripts/gen_regex_code.py learns the static patterns (None otherwise, so patterns built at run time are not kept)
recording: list[tuple[str, int]] | None = None


def load_table(path: Path = TABLE_PATH) -> dict[tuple[str, int], tuple]:
    """The table at `path` when it was made for this interpreter, else an empty one."""
    if _sre is None or not hasattr(_sre, "compile"):
        return {}
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("key") != KEY or not isinstance(data.get("table"), dict):
        return {}
    return data["table"]


def generate(pattern: str, flags: int) -> tuple:
    """The table entry for a pattern: what `re._compiler.compile` passes to `_sre.compile` after the pattern."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    state = parsed.state
    indexgroup = [None] * state.groups
    for name, i in state.groupdict.items():
        indexgroup[i] = name
    return (flags | state.flags, array("I", code).tobytes(), state.groups - 1, dict(state.groupdict),
            tuple(indexgroup))


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 (re.compile's name, on purpose)
    """`re.compile(pattern, flags)`, from the table's code when the table holds the pattern."""
    global _table
    flags = int(flags)
    if recording is not None:
        recording.append((pattern, flags))
    if _table is None:
        _table = load_table()
    entry = _table.get((pattern, flags))
    if entry is not None:
        final_flags, code, groups, groupindex, indexgroup = entry
        try:
            return _sre.compile(pattern, final_flags, array("I", code).tolist(), groups, dict(groupindex),
                                indexgroup)
        except (RuntimeError, TypeError, ValueError):  # (code the engine rejects: compile it the usual way)
            pass
    return re.compile(pattern, flags)
