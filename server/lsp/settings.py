"""Server settings (section `skillgrade`): typed, camelCase in, validated key by key.

Engine keys (select, ignore, severity, threshold, docsBaseUrl, perPathIgnores, bodyLineBudget,
bodyTokenBudget, knownFields, target) are checked with the engine's own Config.merged and applied on top of the
file configuration (.skillgrade.toml / [tool.skillgrade]) of each skill.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from skillgrade.analyzers import Config, ConfigError

ENGINE_KEYS = (
    "select", "ignore", "severity", "threshold", "docsBaseUrl", "perPathIgnores",
    "bodyLineBudget", "bodyTokenBudget", "knownFields", "target",
)
_SNAKE = {
    "debounce_ms": "debounceMs", "docs_base_url": "docsBaseUrl", "per_path_ignores": "perPathIgnores",
    "body_line_budget": "bodyLineBudget", "body_token_budget": "bodyTokenBudget", "judge_model": "judgeModel",
    "simulation_model": "simulationModel", "simulateModel": "simulationModel", "simulate_model": "simulationModel",
    "base_url": "baseUrl", "budget_usd": "budgetUsd", "log_level": "logLevel",
    "analysis_timeout_ms": "analysisTimeoutMs", "analysis-timeout-ms": "analysisTimeoutMs",
    "docs-base-url": "docsBaseUrl", "per-path-ignores": "perPathIgnores", "body-line-budget": "bodyLineBudget",
    "body-token-budget": "bodyTokenBudget", "known_fields": "knownFields", "known-fields": "knownFields",
    "mc_n": "mcN", "mc-n": "mcN", "mc_ci": "mcCi", "mc-ci": "mcCi",
    "hide_baselined": "hideBaselined", "hide-baselined": "hideBaselined",
}
# the LLM run settings (camelCase) the VS Code manifest must contribute (tests/lsp/test_settings_unit.py)
LLM_KEYS = ("judgeModel", "simulationModel", "budgetUsd", "baseUrl", "judges", "mcN", "mcCi")
MC_N_RANGE = (2, 1000)  # the CLI's --mc-n bounds
MC_CI_MAX = 0.5  # --mc-ci: 0 <= W < 0.5
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


@dataclass(frozen=True, slots=True)
class Settings:
    debounce_ms: int = 150
    judge_model: str | None = None  # None: the file config's judge-model (default claude-sonnet-5-5)
    simulation_model: str | None = None  # simulateModel / simulationModel (default claude-haiku-5-5)
    budget_usd: float | None = None  # None: the file config's budget-usd (default: none)
    base_url: str | None = None  # an Anthropic-compatible endpoint; ANTHROPIC_BASE_URL wins
    judges: int = 1
    mc_n: int = 50  # Monte Carlo: maximum simulations per certify (the CLI's --mc-n)
    mc_ci: float = 0.10  # Monte Carlo: stop once the CI half-widths are under this (the CLI's --mc-ci)
    log_level: str = "WARNING"
    analysis_timeout_ms: int = 2000  # per document version; 0: no limit
    hide_baselined: bool = False  # hide findings recorded in the baseline (`skillgrade baseline write`)
    baseline: str | None = None  # that file; relative: to the workspace folder. None: config `baseline`
    engine: tuple[tuple[str, Any], ...] = field(default=())  # validated engine keys, sorted (hashable, ==)

    def engine_dict(self) -> dict[str, Any]:
        return dict(self.engine)

    def config(self, base: Config | None = None) -> Config:
        """The effective engine config: the file config (if any) with these settings on top."""
        base = base or Config()
        if not self.engine:
            return base
        return base.merged(self.engine_dict())


def unwrap(raw: Any) -> Any:
    """Accept the settings object itself, {skillgrade: {...}} or {settings: {skillgrade: {...}}}."""
    if isinstance(raw, dict):
        if isinstance(raw.get("settings"), dict) and "skillgrade" in raw["settings"]:
            raw = raw["settings"]
        if "skillgrade" in raw:
            return raw["skillgrade"]
    return raw


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(key: str, value: Any) -> Any:
    if key in ("severity", "perPathIgnores") and isinstance(value, tuple):
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in value}
    if isinstance(value, tuple):
        return list(value)
    return value


def parse_settings(raw: Any) -> tuple[Settings, list[str]]:
    """(settings, errors). Bad values are reported and replaced by their defaults; unknown keys ignored."""
    errors: list[str] = []
    raw = unwrap(raw)
    if raw is None or raw == [] or raw == ():
        return Settings(), errors  # an empty Lua table arrives as [] from Neovim
    if not isinstance(raw, dict):
        return Settings(), [f"settings must be an object, got {type(raw).__name__}"]
    values: dict[str, Any] = {}
    engine: dict[str, Any] = {}
    for k, v in raw.items():
        key = _SNAKE.get(k, k)
        if key == "debounceMs":
            if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 60_000:
                values["debounce_ms"] = int(v)
            else:
                errors.append("`debounceMs` must be a number of milliseconds between 0 and 60000")
        elif key == "analysisTimeoutMs":
            if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 600_000:
                values["analysis_timeout_ms"] = int(v)
            else:
                errors.append("`analysisTimeoutMs` must be a number of milliseconds between 0 (no limit) and 600000")
        elif key in ("judgeModel", "simulationModel"):
            if isinstance(v, str) and v.strip():
                values["judge_model" if key == "judgeModel" else "simulation_model"] = v.strip()
            else:
                errors.append(f"`{key}` must be a model name")
        elif key == "baseUrl":
            if v is None or v == "":
                continue
            if isinstance(v, str) and v.strip().startswith(("http://", "https://")) and "@" not in v:
                values["base_url"] = v.strip()
            else:
                errors.append("`baseUrl` must be an http(s) URL without credentials")
        elif key == "hideBaselined":
            if isinstance(v, bool):
                values["hide_baselined"] = v
            else:
                errors.append("`hideBaselined` must be true or false")
        elif key == "baseline":
            if v is None or v == "":
                continue
            if isinstance(v, str):
                values["baseline"] = v.strip()
            else:
                errors.append("`baseline` must be the path of a baseline file")
        elif key == "judges":
            if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10:
                values["judges"] = v
            else:
                errors.append("`judges` must be a whole number from 1 to 10")
        elif key == "mcN":
            lo, hi = MC_N_RANGE
            if isinstance(v, int | float) and not isinstance(v, bool) and v == int(v) and lo <= v <= hi:
                values["mc_n"] = int(v)
            else:
                errors.append(f"`mcN` must be a whole number from {lo} to {hi}")
        elif key == "mcCi":
            if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < MC_CI_MAX:
                values["mc_ci"] = float(v)
            else:
                errors.append(f"`mcCi` must be a number at least 0 and below {MC_CI_MAX}")
        elif key == "budgetUsd":
            if isinstance(v, int | float) and not isinstance(v, bool) and v >= 0:
                values["budget_usd"] = float(v)
            else:
                errors.append("`budgetUsd` must be a number >= 0")
        elif key == "logLevel":
            if isinstance(v, str) and v.strip().upper() in _LOG_LEVELS:
                values["log_level"] = v.strip().upper()
            else:
                errors.append(f"`logLevel` must be one of {', '.join(_LOG_LEVELS)}")
        elif key in ENGINE_KEYS:
            if v is None and key != "threshold":
                continue
            try:
                Config().merged({key: v})
            except ConfigError as exc:
                errors.append(str(exc))
                continue
            except Exception as exc:  # noqa: BLE001 - any bad value is a settings error, not a crash
                errors.append(f"`{key}`: {exc}")
                continue
            engine[key] = v
    frozen = tuple(sorted((k, _freeze(v)) for k, v in engine.items()))
    settings = Settings(**values, engine=tuple((k, _thaw(k, v)) for k, v in frozen))
    # the thawed form must still be a valid engine config
    try:
        settings.config()
    except ConfigError as exc:  # pragma: no cover - per-key checks above should catch everything
        errors.append(str(exc))
        settings = Settings(**values)
    logging.getLogger("skillgrade.server").debug("settings parsed: %s", settings)
    return settings, errors
