"""Where Monte Carlo's test prompts come from, in order of preference:

1. a file the user gives (`--prompts FILE`): YAML, JSON or JSONL rows `{prompt, should_trigger}`;
2. the skill's own routing examples (skill-graph): `activation.examples` / `activation.anti_examples`,
   top-level `examples` / `anti_examples`, or the same keys under `metadata` (a list, or a JSON-encoded list
   as skill-graph's exports write them);
3. otherwise written by the routing simulation's prompt writer (`routing.write_prompts`), once per skill
   version: the request holds the skill's text, so the gateway's content cache answers every later run.

Every source must give positives AND near-miss negatives; a source with only one kind is skipped (a file
with only one kind is an error).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .routing import MAX_PROMPT_CHARS, TestPrompt

MAX_FILE_BYTES = 2_000_000
MAX_ROWS = 1000


class PromptsFileError(ValueError):
    """A `--prompts` file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class PromptSet:
    prompts: tuple[TestPrompt, ...]
    source: str  # "file", "skill-graph" or "generated"
    detail: str = ""  # the file's path, the frontmatter keys, or the writer's model

    @property
    def positives(self) -> list[TestPrompt]:
        return [p for p in self.prompts if p.should_trigger]

    @property
    def negatives(self) -> list[TestPrompt]:
        return [p for p in self.prompts if not p.should_trigger]

    def to_dict(self) -> dict:
        return {"source": self.source, "detail": self.detail, "positives": len(self.positives),
                "negatives": len(self.negatives)}


def _rows_of(text: str, suffix: str) -> Any:
    if suffix == ".jsonl":
        rows = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError as exc:
                    raise PromptsFileError(f"line {i} is not JSON ({exc.msg})") from None
        return rows
    if suffix == ".json":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise PromptsFileError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise PromptsFileError(f"not YAML{where}") from None


def parse_prompt_rows(value: Any) -> list[TestPrompt]:
    """Rows `{prompt, should_trigger}` (a list, or `{"prompts": [...]}`) -> TestPrompts; PromptsFileError."""
    if isinstance(value, Mapping) and "prompts" in value:
        value = value["prompts"]
    if not isinstance(value, list):
        raise PromptsFileError("expected a list of {prompt, should_trigger} rows (or {prompts: [...]})")
    if len(value) > MAX_ROWS:
        raise PromptsFileError(f"{len(value)} rows; at most {MAX_ROWS}")
    out: list[TestPrompt] = []
    seen: set[str] = set()
    for i, row in enumerate(value, 1):
        if not isinstance(row, Mapping):
            raise PromptsFileError(f"row {i} is not an object with prompt and should_trigger")
        text, label = row.get("prompt"), row.get("should_trigger")
        if not isinstance(text, str) or not text.strip():
            raise PromptsFileError(f"row {i}: prompt must be a non-empty string")
        if len(text) > MAX_PROMPT_CHARS:
            raise PromptsFileError(f"row {i}: prompt is longer than {MAX_PROMPT_CHARS} characters")
        if not isinstance(label, bool):
            raise PromptsFileError(f"row {i}: should_trigger must be true or false")
        key = " ".join(text.lower().split())
        if key in seen:
            continue  # a repeated row adds no information
        seen.add(key)
        out.append(TestPrompt(text.strip(), label, str(row.get("why") or "")))
    pos = sum(p.should_trigger for p in out)
    if pos == 0 or pos == len(out):
        raise PromptsFileError(f"needs prompts that should trigger the skill AND near misses that should not; "
                               f"got {pos} and {len(out) - pos}")
    return out


def load_prompts_file(path: Path) -> PromptSet:
    """A `--prompts` file (.yaml/.yml, .json or .jsonl); PromptsFileError with a one-line reason."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise PromptsFileError(f"{path}: larger than {MAX_FILE_BYTES:,} bytes")
        text = path.read_text(encoding="utf-8")
    except PromptsFileError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise PromptsFileError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        rows = parse_prompt_rows(_rows_of(text, path.suffix.lower()))
    except PromptsFileError as exc:
        raise PromptsFileError(f"{path}: {exc}") from None
    return PromptSet(tuple(rows), "file", str(path))


def _string_list(value: Any) -> list[str]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    if not isinstance(value, list):
        return []
    return [" ".join(v.split()) for v in value if isinstance(v, str) and v.strip()
            and len(v) <= MAX_PROMPT_CHARS]


def examples_from_frontmatter(data: Mapping[str, Any]) -> PromptSet | None:
    """skill-graph's routing examples, where the frontmatter has both positives and near misses."""
    places: list[tuple[str, Any]] = [("activation", data.get("activation")), ("", data),
                                     ("metadata", data.get("metadata"))]
    for where, table in places:
        if not isinstance(table, Mapping):
            continue
        pos, neg = _string_list(table.get("examples")), _string_list(table.get("anti_examples"))
        if pos and neg:
            rows: list[TestPrompt] = []
            seen: set[str] = set()
            for text, label in [*((p, True) for p in pos), *((n, False) for n in neg)]:
                if text.lower() not in seen:
                    seen.add(text.lower())
                    rows.append(TestPrompt(text, label, "skill-graph example"))
            prefix = f"{where}." if where else ""
            return PromptSet(tuple(rows), "skill-graph", f"{prefix}examples + {prefix}anti_examples")
    return None

