"""Regular expressions compiled on first use.

A pattern that most skills never reach (a secret's placeholder, a JavaScript stdin read, a YAML type sketch) is
compiled when first used, by the worker that needs it, through `rx.compile` (from the shipped table of engine code when
it holds the pattern: then the saving is small; on another interpreter, where `rx.compile` is `re.compile`, it is the
Python-level parse and code generation, ~19,000 instructions a character).
"""

from __future__ import annotations

import re

from . import rx


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled on the first attribute asked for (`search`, `match`, …)."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, int(flags))
        if rx.recording is not None:
            rx.recording.append(self._args)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = rx.compile(*self._args)
        return getattr(compiled, name)


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled on first use; typed as the compiled pattern it stands for."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]
