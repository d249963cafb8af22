"""Claude Code's documented values (analyzers/data/claude_code.json), loaded once, and parsers for them."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from . import rx

_DATA = Path(__file__).resolve().parent / "data" / "claude_code.json"


@dataclass(frozen=True, slots=True)
class ClaudeCodeData:
    model_aliases: tuple[str, ...]
    model_patterns: tuple[re.Pattern[str], ...]
    enums: dict[str, tuple[str, ...]]  # field -> documented values (context, effort, shell)
    tools: frozenset[str]  # current and legacy tool names
    current_tools: tuple[str, ...]


@functools.cache
def data() -> ClaudeCodeData:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    return ClaudeCodeData(
        model_aliases=tuple(raw["model"]["aliases"]),
        model_patterns=tuple(rx.compile(p) for p in raw["model"]["id_patterns"]),
        enums={k: tuple(raw[k]["values"]) for k in ("context", "effort", "shell")},
        tools=frozenset(raw["tools"]["names"]) | frozenset(raw["tools"]["legacy"])
        | frozenset(raw["tools"].get("also_accepted", ())),
        current_tools=tuple(raw["tools"]["names"]),
    )


def known_model(value: str) -> bool:
    d = data()
    return value in d.model_aliases or any(p.match(value) for p in d.model_patterns)


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One entry of `allowed-tools`: `Read`, `Bash(git diff:*)`, `mcp__server__tool`."""

    text: str  # as written
    start: int  # offset in the field's text
    name: str  # before `(`
    spec: str | None  # inside the parentheses (None: no parentheses)
    closed: bool  # the parenthesis was closed


def split_tools(text: str) -> list[ToolEntry]:
    """Entries of a space- and/or comma-separated `allowed-tools` string; parentheses group spaces."""
    out: list[ToolEntry] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and (text[i].isspace() or text[i] == ","):
            i += 1
        if i >= n:
            break
        start = i
        depth = 0
        while i < n:
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth = max(0, depth - 1)
            elif depth == 0 and (c.isspace() or c == ","):
                break
            i += 1
        raw = text[start:i]
        p = raw.find("(")
        if p < 0:
            out.append(ToolEntry(raw, start, raw, None, True))
        else:
            closed = raw.endswith(")")
            spec = raw[p + 1 : -1] if closed else raw[p + 1 :]
            out.append(ToolEntry(raw, start, raw[:p], spec, closed))
    return out
