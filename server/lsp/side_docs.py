"""Diagnostics for files that are not skills but belong to skillgrade's workflows: task suites
(`task_suite.yaml`), comprehension eval files (`_evals/*.json`), ...

Each kind registers a pure validator from `analyzers/` (path, text) -> findings, or None when the file is
not of its kind (it decides from the content: a YAML file with `skill_id` and `tasks`, say). The first
validator that claims a file wins. The server runs validators on its analysis worker, converts their
findings like any other and publishes them (push) or answers the pull for that document.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from skillgrade.analyzers.findings import Finding

# (path or None for an untitled buffer, the text) -> findings, or None: "not mine"
Validator = Callable[[Path | None, str], list[Finding] | None]

SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
MAX_CHARS = 4_000_000  # larger files are not validated in the editor (the CLI still reads them)


@dataclass(frozen=True)
class SideValidator:
    name: str  # what the file is, e.g. "task suite"
    validate: Validator


VALIDATORS: list[SideValidator] = []


def register(name: str, validate: Validator) -> None:
    """Called once at import by the module that owns the kind (idempotent by name)."""
    if not any(v.name == name for v in VALIDATORS):
        VALIDATORS.append(SideValidator(name, validate))


def candidate(path: Path | None) -> bool:
    """Cheap test on the name before any validator reads the text."""
    return path is not None and path.suffix.lower() in SUFFIXES and bool(VALIDATORS)


def validate(path: Path | None, text: str) -> tuple[str, list[Finding]] | None:
    """(kind, findings) from the first validator that claims the file; None when none does."""
    if len(text) > MAX_CHARS:
        return None
    for v in VALIDATORS:
        got = v.validate(path, text)
        if got is not None:
            return v.name, got
    return None
