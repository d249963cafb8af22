"""Versioned prompt files for the LLM layers (data shipped with the package, not literals in code).

`VERSION` is bumped by hand when a prompt's meaning changes; `prompt_version()` appends a hash of every
prompt file, so any edit — even one nobody remembered to version — changes the id that goes into each
request's cache key and into the report. Templates use `string.Template` placeholders (`$name`), so JSON
and braces in a prompt need no escaping.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from string import Template
from typing import Any

RUBRIC_DIR = "rubrics"


def _root():
    return resources.files(__name__)


@cache
def text(name: str) -> str:
    """The text of one prompt file, e.g. "system.md" or "rubrics/robustness.md"."""
    node = _root()
    for part in name.split("/"):
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


def render(name: str, **values: Any) -> str:
    """A prompt file with its `$placeholders` filled; a missing value is a KeyError, never a silent gap."""
    return Template(text(name)).substitute({k: str(v) for k, v in values.items()}).strip()


@cache
def rubric(dimension: str) -> str:
    return text(f"{RUBRIC_DIR}/{dimension}.md").strip()


@cache
def rubric_dimensions() -> tuple[str, ...]:
    return tuple(sorted(p.name[:-3] for p in _root().joinpath(RUBRIC_DIR).iterdir() if p.name.endswith(".md")))


@cache
def distractors() -> tuple[tuple[str, str], ...]:
    """The built-in generic skills (name, description) that top up the routing simulation's skill list."""
    data = json.loads(text("distractors.json"))
    return tuple((s["name"], s["description"]) for s in data["skills"])


def _files() -> list[str]:
    names = [p.name for p in _root().iterdir() if p.is_file() and not p.name.endswith((".py", ".pyc"))]
    names += [f"{RUBRIC_DIR}/{d}.md" for d in rubric_dimensions()]
    return sorted(names)


@cache
def prompt_version() -> str:
    """E.g. "1+3f9c2a7b10": the hand-kept VERSION plus a hash of every prompt file's bytes."""
    h = hashlib.sha256()
    for name in _files():
        h.update(name.encode() + b"\0" + text(name).encode("utf-8") + b"\0")
    return f"{text('VERSION').strip()}+{h.hexdigest()[:10]}"
