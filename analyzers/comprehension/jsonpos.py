"""A JSON reader that keeps positions: the parsed value plus where every value and object key sits.

`json.loads` forgets positions, and eval-file errors must say file:line:column. This reader parses the same
language as `json.loads` (strings through the stdlib's C `scanstring`, numbers by the stdlib's regex), in
linear time, and records for every path (a tuple of keys and indices from the root) the offsets of the
value and, for object members, of the key. Duplicate keys are kept last-wins (as `json.loads`) and listed.
Nesting deeper than MAX_DEPTH is an error rather than a RecursionError.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

from .. import rx

MAX_DEPTH = 256
Path = tuple[str | int, ...]

_WS = rx.compile(r"[ \t\n\r]*")
_NUMBER = rx.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JSONPosError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(slots=True)
class Located:
    """The parsed value and its positions (character offsets into the text)."""

    value: Any
    spans: dict[Path, tuple[int, int]] = field(default_factory=dict)  # path -> (start, end) of the value
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)  # path of a member -> its key's span
    duplicates: list[tuple[Path, tuple[int, int]]] = field(default_factory=list)  # repeated keys (path, span)

    def span(self, path: Path) -> tuple[int, int]:
        """The value's span, else the nearest enclosing value's (a missing member points at its object)."""
        p = tuple(path)
        while p not in self.spans and p:
            p = p[:-1]
        return self.spans.get(p, (0, 0))

    def key_span(self, path: Path) -> tuple[int, int]:
        """The member's key span when `path` ends in a key, else the value span."""
        return self.keys.get(tuple(path)) or self.span(path)


class LineIndex:
    """Offsets -> (0-based line, 0-based column in code points)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def pos(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]


class _Reader:
    def __init__(self, text: str) -> None:
        self.s = text
        self.out = Located(None)

    def ws(self, i: int) -> int:
        return _WS.match(self.s, i).end()  # type: ignore[union-attr]

    def value(self, i: int, path: Path, depth: int) -> int:
        s = self.s
        if depth > MAX_DEPTH:
            raise JSONPosError(f"nesting deeper than {MAX_DEPTH} levels", i)
        if i >= len(s):
            raise JSONPosError("expected a value, found the end of the file", i)
        c = s[i]
        start = i
        if c == "{":
            i = self.obj(i, path, depth)
        elif c == "[":
            i = self.arr(i, path, depth)
        elif c == '"':
            v, i = self.string(i)
            self._set(path, v)
        else:
            m = _NUMBER.match(s, i)
            if m and m.end() > i:
                text = m.group()
                self._set(path, float(text) if (m.group(1) or m.group(2)) else int(text))
                i = m.end()
            else:
                for word, v in _LITERALS.items():
                    if s.startswith(word, i):
                        self._set(path, v)
                        i += len(word)
                        break
                else:
                    raise JSONPosError(f"expected a value, found {s[i]!r}", i)
        self.out.spans[path] = (start, i)
        return i

    def _set(self, path: Path, v: Any) -> None:
        self._last = v

    def string(self, i: int) -> tuple[str, int]:
        try:
            return scanstring(self.s, i + 1, True)
        except json.JSONDecodeError as exc:
            raise JSONPosError(exc.msg.lower(), exc.pos) from None

    def obj(self, i: int, path: Path, depth: int) -> int:
        s = self.s
        result: dict[str, Any] = {}
        i = self.ws(i + 1)
        if i < len(s) and s[i] == "}":
            self._last = result
            return i + 1
        while True:
            if i >= len(s) or s[i] != '"':
                raise JSONPosError("expected a double-quoted property name", i)
            kstart = i
            key, i = self.string(i)
            member = (*path, key)
            if key in result:
                self.out.duplicates.append((member, (kstart, i)))
            self.out.keys[member] = (kstart, i)
            i = self.ws(i)
            if i >= len(s) or s[i] != ":":
                raise JSONPosError("expected ':' after a property name", i)
            i = self.ws(i + 1)
            i = self.value(i, member, depth + 1)
            result[key] = self._last
            i = self.ws(i)
            if i < len(s) and s[i] == ",":
                i = self.ws(i + 1)
                continue
            if i < len(s) and s[i] == "}":
                self._last = result
                return i + 1
            raise JSONPosError("expected ',' or '}' in an object", i)

    def arr(self, i: int, path: Path, depth: int) -> int:
        s = self.s
        result: list[Any] = []
        i = self.ws(i + 1)
        if i < len(s) and s[i] == "]":
            self._last = result
            return i + 1
        while True:
            i = self.value(i, (*path, len(result)), depth + 1)
            result.append(self._last)
            i = self.ws(i)
            if i < len(s) and s[i] == ",":
                i = self.ws(i + 1)
                continue
            if i < len(s) and s[i] == "]":
                self._last = result
                return i + 1
            raise JSONPosError("expected ',' or ']' in an array", i)


def load(text: str) -> Located:
    """Parse `text` (a leading BOM tolerated); JSONPosError with the offset of the first problem."""
    r = _Reader(text)
    i = r.ws(1 if text.startswith("\ufeff") else 0)
    i = r.value(i, (), 0)
    i = r.ws(i)
    if i != len(text):
        raise JSONPosError("extra data after the JSON value", i)
    r.out.value = r._last
    return r.out
