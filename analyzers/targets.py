"""Targets: where a skill runs, which decides the platform rules that apply and the frontmatter keys known."""

from __future__ import annotations

from .fields import DEVIN, DEVIN_FIELDS, DIALECT_FIELDS, FIELDS, SQUAD, SQUAD_FIELDS

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


_DIALECT_KNOWN = {d: frozenset(f) for d, f in DIALECT_FIELDS.items()} | {DEVIN: frozenset(DEVIN_FIELDS),
                                                                      SQUAD: frozenset(SQUAD_FIELDS)}


def known_fields(target: str, dialect: str | None = None) -> frozenset[str]:
    """The frontmatter keys the target defines (the spec's, plus Claude Code's for claude-code), plus those
    of the agent dialect the skill is written in (fields.dialect_of: OpenClaw's `homepage`, ...)."""
    known = _KNOWN.get(target, _KNOWN[DEFAULT_TARGET])
    return known | _DIALECT_KNOWN[dialect] if dialect in _DIALECT_KNOWN else known


def parse_target(value: object) -> str:
    """The target named by `value`, or ValueError naming the choices."""
    if isinstance(value, str) and value.strip().lower() in ALL_TARGETS:
        return value.strip().lower()
    raise ValueError(f"`target` must be one of {', '.join(TARGETS)}, not {value!r}")
