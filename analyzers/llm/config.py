"""`[tool.skillgrade.llm]` (pyproject.toml), `[llm]` (.skillgrade.toml) and the LSP's `llm` settings.

    [tool.skillgrade.llm]
    judge-model = "claude-sonnet-5-5"      # the judge
    simulate-model = "claude-haiku-5-5"    # routing simulation, prompt writing, Monte Carlo
    grade-model = "claude-sonnet-5-5"      # grading of simulated outputs
    base-url = "http://127.0.0.1:11434"    # an Anthropic-compatible endpoint (ANTHROPIC_BASE_URL wins)
    budget-usd = 0.50                      # stop before a call that would exceed it
    concurrency = 4                        # calls in flight at once
    timeout-s = 120                        # per-call deadline, retries included
    cache-dir = "~/.cache/skillgrade/llm"  # default: $XDG_CACHE_HOME/skillgrade/llm
    prices-file = "prices.toml"            # merged over the packaged prices
    batch-poll-s = 30                      # --batch: first poll interval (grows to 4x), seconds
    batch-timeout-s = 90000                # --batch: stop waiting for a batch after this (it keeps running)
    data-dir = "~/.local/share/skillgrade" # the Elo corpus index (`skillgrade init`); default: $XDG_DATA_HOME/skillgrade

Keys may be kebab-case, snake_case or camelCase. The API key is never a configuration value: a key-like
entry is rejected with a clear error (it lives in ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from typing import Any

DEFAULT_JUDGE_MODEL = "claude-sonnet-5-5"
DEFAULT_SIMULATE_MODEL = "claude-haiku-5-5"
DEFAULT_GRADE_MODEL = "claude-sonnet-5-5"


class LLMConfigError(ValueError):
    """An `llm` configuration value that cannot be used (analyzers/config.py reports it as ConfigError)."""


@dataclass(frozen=True, slots=True)
class LLMConfig:
    judge_model: str = DEFAULT_JUDGE_MODEL
    simulate_model: str = DEFAULT_SIMULATE_MODEL
    grade_model: str = DEFAULT_GRADE_MODEL
    base_url: str | None = None
    budget_usd: float | None = None
    concurrency: int = 4
    timeout_s: float = 120.0
    cache_dir: str | None = None
    prices_file: str | None = None
    batch_poll_s: float = 30.0  # --batch: the first poll interval (grows by 1.5x up to 4x this)
    batch_timeout_s: float = 25 * 3600.0  # --batch: how long a run waits for one batch (the API expires at 24 h)
    data_dir: str | None = None  # where `skillgrade init` keeps the Elo corpus index (None: the XDG default)

    def merged(self, data: dict[str, Any]) -> LLMConfig:
        """A new config with the keys of `data` applied (raises LLMConfigError)."""
        return replace(self, **parse_llm_fields(data))

    def relative_to(self, directory: str) -> LLMConfig:
        """Relative `cache-dir` / `prices-file` / `data-dir` taken from the directory of the config file that set
        them."""
        def resolve(value: str | None) -> str | None:
            if not value or value.startswith("~") or os.path.isabs(value):
                return value
            return os.path.normpath(os.path.join(directory, value))

        return replace(self, cache_dir=resolve(self.cache_dir), prices_file=resolve(self.prices_file),
                       data_dir=resolve(self.data_dir))


_KEYS = {
    "judge-model": "judge_model", "judge_model": "judge_model", "judgeModel": "judge_model",
    "simulate-model": "simulate_model", "simulate_model": "simulate_model", "simulateModel": "simulate_model",
    "grade-model": "grade_model", "grade_model": "grade_model", "gradeModel": "grade_model",
    "base-url": "base_url", "base_url": "base_url", "baseUrl": "base_url",
    "budget-usd": "budget_usd", "budget_usd": "budget_usd", "budgetUsd": "budget_usd",
    "concurrency": "concurrency",
    "timeout-s": "timeout_s", "timeout_s": "timeout_s", "timeoutS": "timeout_s",
    "cache-dir": "cache_dir", "cache_dir": "cache_dir", "cacheDir": "cache_dir",
    "prices-file": "prices_file", "prices_file": "prices_file", "pricesFile": "prices_file",
    "batch-poll-s": "batch_poll_s", "batch_poll_s": "batch_poll_s", "batchPollS": "batch_poll_s",
    "batch-timeout-s": "batch_timeout_s", "batch_timeout_s": "batch_timeout_s", "batchTimeoutS": "batch_timeout_s",
    "data-dir": "data_dir", "data_dir": "data_dir", "dataDir": "data_dir",
}


def _looks_like_secret(key: str) -> bool:
    k = key.lower().replace("-", "").replace("_", "")
    return any(w in k for w in ("apikey", "key", "token", "secret", "password", "auth"))


def parse_llm_fields(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise LLMConfigError("`llm` must be a table")
    out: dict[str, Any] = {}
    for raw_key, value in data.items():
        raw_key = str(raw_key)
        key = _KEYS.get(raw_key)
        if key is None:
            if _looks_like_secret(raw_key):
                raise LLMConfigError(
                    f"`llm.{raw_key}`: an API key is never read from configuration; set ANTHROPIC_API_KEY "
                    "(or ANTHROPIC_AUTH_TOKEN) in the environment and remove it from the file")
            continue  # unknown keys are ignored like the rest of the config
        where = f"`llm.{raw_key}`"
        if key in ("judge_model", "simulate_model", "grade_model"):
            if not isinstance(value, str) or not value.strip():
                raise LLMConfigError(f"{where} must be a model id")
            out[key] = value.strip()
        elif key in ("base_url", "cache_dir", "prices_file", "data_dir"):
            if value is None or value == "":
                out[key] = None
            elif not isinstance(value, str):
                raise LLMConfigError(f"{where} must be a string")
            elif key == "base_url" and not value.startswith(("http://", "https://")):
                raise LLMConfigError(f"{where} must start with http:// or https://")
            elif key == "base_url" and "@" in value.split("//", 1)[1].split("/", 1)[0]:
                raise LLMConfigError(f"{where} must not contain credentials; use ANTHROPIC_API_KEY")
            else:
                out[key] = value.rstrip("/") if key == "base_url" else value
        elif key == "budget_usd":
            if value is None:
                out[key] = None
            elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise LLMConfigError(f"{where} must be a non-negative number of dollars")
            else:
                out[key] = float(value)
        elif key == "concurrency":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
                raise LLMConfigError(f"{where} must be an integer from 1 to 64")
            out[key] = value
        elif key in ("timeout_s", "batch_poll_s", "batch_timeout_s"):
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise LLMConfigError(f"{where} must be a positive number of seconds")
            out[key] = float(value)
    return out


def parse_llm_config(data: Any, base: LLMConfig | None = None) -> LLMConfig:
    return (base or LLMConfig()).merged(data)
