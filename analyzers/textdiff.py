"""Unified diffs of file texts (pure), as `git diff` / `ruff --diff` print them, for `score --fix --diff`."""

from __future__ import annotations

import difflib

NO_NEWLINE = "\\ No newline at end of file\n"


def _lines(text: str) -> list[str]:
    parts = text.split("\n")  # only \n: a \r stays on its line, other separators are text
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1] + "\n" + NO_NEWLINE)  # shown the way diff/patch expect it
    return lines


def unified_diff(old: str | None, new: str, path: str, context: int = 3) -> str:
    """The diff turning `old` into `new` for the file at `path` (posix, relative); old=None: a new file.

    Empty when the texts are equal."""
    if old == new:
        return ""
    a = "/dev/null" if old is None else f"a/{path}"
    out = difflib.unified_diff(_lines(old or ""), _lines(new), a, f"b/{path}", n=context)
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)
