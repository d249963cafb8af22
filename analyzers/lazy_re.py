"""Regular expressions compiled on first use.

Compiling a pattern runs Python code (`re._parser`, `re._compiler`): the rules' ~165 patterns cost the parent
process of every run ~35 ms before it reads a file. A pattern that most skills never reach (a secret's
placeholder, a JavaScript stdin read, a YAML type sketch) is compiled when first used instead, by the worker
that needs it.
"""

from __future__ import annotations

import re


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled on the first attribute asked for (`search`, `match`, …)."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(*self._args)
        return getattr(compiled, name)


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled on first use; typed as the compiled pattern it stands for."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]
