"""Typed configuration shared by the CLI and the server ([tool.skillgrade], .skillgrade.toml, LSP settings)."""

from __future__ import annotations

import fnmatch
import functools
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .findings import Severity
from .llm.config import LLMConfig, LLMConfigError
from .targets import DEFAULT_TARGET, parse_target

DEFAULT_DOCS_BASE = "https://github.com/skillgrade/skillgrade/blob/main/docs/rules/"


class ConfigError(ValueError):
    """A configuration value that cannot be used (reported as a usage error)."""


@dataclass(frozen=True, slots=True)
class Config:
    select: tuple[str, ...] = ()  # empty: every rule
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    threshold: float | None = None
    per_path_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)  # glob -> codes
    docs_base_url: str = DEFAULT_DOCS_BASE
    body_line_budget: int = 500
    body_token_budget: int = 5000
    known_fields: tuple[str, ...] = ()  # extra top-level frontmatter keys a project uses (UNKNOWN_FIELD)
    target: str = DEFAULT_TARGET  # claude-code | claude-api | agentskills (analyzers/targets.py)
    target_explicit: bool = False  # chosen (config, --target, setting), not the default: see analyzers/hosts.py
    source: str | None = None  # the file the config came from
    baseline: str | None = None  # a baseline file (score --baseline); relative: to the config file's folder
    llm: LLMConfig = field(default_factory=LLMConfig)  # [tool.skillgrade.llm] (analyzers/llm/config.py)

    def enabled(self, code: str, path: str | None = None) -> bool:
        if self.select and not _matches(code, self.select):
            return False
        if _matches(code, self.ignore):
            return False
        if path and self.per_path_ignores:
            for pattern, codes in self.per_path_ignores.items():
                if _path_match(path, pattern) and _matches(code, codes):
                    return False
        return True

    def merged(self, data: dict[str, Any]) -> Config:
        """A new config with the (camelCase or snake_case) keys of `data` applied."""
        return replace(self, **_fields_from(data, self.llm))


def _matches(code: str, codes: tuple[str, ...]) -> bool:
    return any(c == "ALL" or c == code or (c.endswith("*") and code.startswith(c[:-1])) for c in codes)


def _path_match(path: str, pattern: str) -> bool:
    p = path.replace("\\", "/")
    return fnmatch.fnmatch(p, pattern) or fnmatch.fnmatch(p, "*/" + pattern.lstrip("/"))


def _codes(value: Any, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"`{key}` must be a list of rule codes")
    return tuple(v.strip().upper() for v in value)


_KEYS = {
    "select": "select",
    "ignore": "ignore",
    "severity": "severity",
    "severities": "severity",
    "threshold": "threshold",
    "per-path-ignores": "per_path_ignores",
    "per_path_ignores": "per_path_ignores",
    "perPathIgnores": "per_path_ignores",
    "docs-base-url": "docs_base_url",
    "docs_base_url": "docs_base_url",
    "docsBaseUrl": "docs_base_url",
    "body-line-budget": "body_line_budget",
    "bodyLineBudget": "body_line_budget",
    "body-token-budget": "body_token_budget",
    "bodyTokenBudget": "body_token_budget",
    "known-fields": "known_fields",
    "known_fields": "known_fields",
    "knownFields": "known_fields",
    "llm": "llm",
    "target": "target",
    "baseline": "baseline",
}


def _fields_from(data: dict[str, Any], llm: LLMConfig | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = _KEYS.get(raw_key)
        if key is None:
            continue  # unknown keys (e.g. editor-only settings) are ignored
        if key == "llm":
            try:
                out[key] = (llm or LLMConfig()).merged(value)
            except LLMConfigError as exc:
                raise ConfigError(str(exc)) from None
            continue
        if key in ("select", "ignore"):
            out[key] = _codes(value, raw_key)
        elif key == "severity":
            if not isinstance(value, dict):
                raise ConfigError("`severity` must map rule codes to error/warning/info/hint")
            sev = {}
            for code, level in value.items():
                try:
                    sev[str(code).upper()] = Severity.parse(str(level))
                except KeyError:
                    raise ConfigError(f"unknown severity {level!r} for {code}") from None
            out[key] = sev
        elif key == "threshold":
            if value is None:
                out[key] = None
            elif isinstance(value, int | float) and not isinstance(value, bool):
                out[key] = float(value)
            else:
                raise ConfigError("`threshold` must be a number")
        elif key == "per_path_ignores":
            if not isinstance(value, dict):
                raise ConfigError("`per-path-ignores` must map globs to lists of codes")
            out[key] = {str(k): _codes(v, f"per-path-ignores.{k}") for k, v in value.items()}
        elif key == "docs_base_url":
            if value is None or value == "":
                continue  # unset: keep the default
            if not isinstance(value, str):
                raise ConfigError("`docs-base-url` must be a string")
            out[key] = value if value.endswith("/") else value + "/"
        elif key == "known_fields":
            if isinstance(value, str):
                value = [v for v in value.replace(",", " ").split() if v]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"`{raw_key}` must be a list of frontmatter keys")
            out[key] = tuple(v.strip() for v in value)
        elif key == "target":
            try:
                out[key] = parse_target(value)
                out["target_explicit"] = True
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        elif key == "baseline":
            if value is None or value == "":
                out[key] = None
            elif isinstance(value, str):
                out[key] = value
            else:
                raise ConfigError("`baseline` must be the path of a baseline file")
        elif key in ("body_line_budget", "body_token_budget"):
            if not isinstance(value, int) or value <= 0:
                raise ConfigError(f"`{raw_key}` must be a positive integer")
            out[key] = value
    return out


def find_config_file(start: Path | str) -> Path | None:
    """The nearest .skillgrade.toml, or pyproject.toml with [tool.skillgrade], at or above `start`."""
    cur = os.path.abspath(start)
    found = _find_in(cur if os.path.isdir(cur) else os.path.dirname(cur))
    return Path(found) if found else None


@functools.lru_cache(maxsize=4096)
def _find_in(directory: str) -> str | None:
    cand = os.path.join(directory, ".skillgrade.toml")
    if os.path.isfile(cand):
        return cand
    py = os.path.join(directory, "pyproject.toml")
    if os.path.isfile(py):
        import tomllib  # only where a pyproject.toml is found: ~6 ms of every start otherwise

        try:
            with open(py, "rb") as fh:
                if "skillgrade" in tomllib.load(fh).get("tool", {}):
                    return py
        except (OSError, tomllib.TOMLDecodeError):
            pass
    parent = os.path.dirname(directory)
    return None if parent == directory else _find_in(parent)


def clear_config_cache() -> None:
    """Forget config lookups (the server calls this when a config file changes)."""
    _find_in.cache_clear()


def load_config(path: Path) -> Config:
    import tomllib

    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("skillgrade", {})
    elif "tool" in data and "skillgrade" in data["tool"]:
        data = data["tool"]["skillgrade"]
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: [tool.skillgrade] must be a table")
    try:
        fields = _fields_from(data)
        if "llm" in fields:  # relative cache-dir / prices-file: from the config file's folder
            fields["llm"] = fields["llm"].relative_to(str(path.parent))
        if fields.get("baseline"):  # relative to the config file's folder, as cache-dir is
            fields["baseline"] = os.path.join(str(path.parent), os.path.expanduser(fields["baseline"]))
        return replace(Config(), source=str(path), **fields)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def config_for(start: Path) -> Config:
    found = find_config_file(start)
    return load_config(found) if found else Config()
