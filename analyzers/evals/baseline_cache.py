"""Baseline results kept for 7 days, keyed by the suite (its file and fixtures), the baseline skill (its
SKILL.md's bytes, or "no skill"), the models, the attempts and the prompt version.

One JSON file per key in the cache folder. The clock is a parameter (`now`, seconds since the epoch), so
tests check a hit and an expiry without sleeping. A corrupt or unreadable entry is a miss. Mock runs and
baselines with an unmeasured task are never stored (they are not results worth reusing).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

TTL_S = 7 * 24 * 3600.0
FORMAT = 1


def baseline_key(*, suite_digest: str, baseline_digest: str | None, model: str, judge_model: str, attempts: int,
                 pass_k: int, prompt_version: str) -> str:
    payload = {"format": FORMAT, "suite": suite_digest, "baseline_skill": baseline_digest or "none",
               "model": model, "judge_model": judge_model, "attempts": attempts, "pass_k": pass_k,
               "prompt_version": prompt_version}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


class BaselineCache:
    def __init__(self, folder: Path, ttl_s: float = TTL_S) -> None:
        self.folder = Path(folder)
        self.ttl_s = ttl_s

    def path(self, key: str) -> Path:
        return self.folder / f"baseline-{key}.json"

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """The stored entry ({"created_at", "results", ...}) when younger than the TTL; else None."""
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
            return None
        created = data.get("created_at")
        if not isinstance(created, int | float) or not isinstance(data.get("results"), list):
            return None
        age = now - float(created)
        if age < 0 or age >= self.ttl_s:
            return None
        return data

    def put(self, key: str, results: list[dict[str, Any]], *, now: float, meta: dict[str, Any] | None = None) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "key": key, "created_at": now, "results": results, **(meta or {})}
        fd, tmp = tempfile.mkstemp(prefix=".baseline-", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=1)
            os.replace(tmp, self.path(key))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

