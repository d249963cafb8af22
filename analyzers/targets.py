"""Targets: where a skill runs, which decides the platform rules that apply and the frontmatter keys known."""

from __future__ import annotations

from .fields import FIELDS

CLAUDE_CODE = "claude-code"
CLAUDE_API = "claude-api"
AGENTSKILLS = "agentskills"
TARGETS: tuple[str, ...] = (CLAUDE_CODE, CLAUDE_API, AGENTSKILLS)
ALL_TARGETS = frozenset(TARGETS)
DEFAULT_TARGET = CLAUDE_CODE

# which field sources (fields.FieldSpec.source) each target defines
_SOURCES = {
    CLAUDE_CODE: frozenset({"spec", "claude-code"}),
    CLAUDE_API: frozenset({"spec"}),
    AGENTSKILLS: frozenset({"spec"}),
}
_KNOWN = {t: frozenset(k for k, f in FIELDS.items() if f.source in s) for t, s in _SOURCES.items()}


def known_fields(target: str) -> frozenset[str]:
    """The frontmatter keys the target defines (the spec's, plus Claude Code's for claude-code)."""
    return _KNOWN.get(target, _KNOWN[DEFAULT_TARGET])


def parse_target(value: object) -> str:
    """The target named by `value`, or ValueError naming the choices."""
    if isinstance(value, str) and value.strip().lower() in ALL_TARGETS:
        return value.strip().lower()
    raise ValueError(f"`target` must be one of {', '.join(TARGETS)}, not {value!r}")
