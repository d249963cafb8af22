"""Request/reply types and the provider interface shared by every LLM layer.

A layer builds `Request`s and sends them through a `Gateway` (analyzers/llm/gateway.py), which adds the
on-disk cache, the cost ledger, the budget, the per-call deadline and bounded concurrency around a
`Provider` (the anthropic SDK in production; the same SDK pointed at a local fake server in tests).
Every failure surfaces as `LLMError` with a `kind` and a user-readable `reason` that never contains the
API key; a layer turns it into "unmeasured: <reason>" for the dimensions it could not measure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Request:
    """One model call. Everything that changes the reply is part of the cache key (see `cache_payload`)."""

    kind: str  # call kind for the ledger and benchmarks: "judge", "prompts", "route", …
    model: str
    system: tuple[dict[str, Any], ...]  # text blocks; a block may carry "cache_control"
    messages: tuple[dict[str, Any], ...]
    max_tokens: int = 2048
    json_schema: dict[str, Any] | None = None  # structured output (native, else prompt-only + validation)
    tools: tuple[dict[str, Any], ...] = ()
    tool_choice: dict[str, Any] | None = None
    prompt_version: str = ""  # the versioned prompt file's id, part of the cache key
    cache_salt: str = ""  # e.g. "judge-2" so N independent judges are N cache entries
    # Added with the provider: output_config.effort ("low" for judges) and the `thinking` parameter
    # ({"type": "between_tools"} on Sonnet 5.5, {"type": "disabled"} on Haiku 5.5). None: not sent.
    effort: str | None = None
    thinking: dict[str, Any] | None = None

    def cache_payload(self) -> dict[str, Any]:
        payload = {
            "model": self.model, "system": list(self.system), "messages": list(self.messages),
            "max_tokens": self.max_tokens, "json_schema": self.json_schema, "tools": list(self.tools),
            "tool_choice": self.tool_choice, "prompt_version": self.prompt_version, "salt": self.cache_salt,
        }
        if self.effort is not None:  # only when set, so keys of requests without them never change
            payload["effort"] = self.effort
        if self.thinking is not None:
            payload["thinking"] = self.thinking
        return payload


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Reply:
    text: str  # concatenated text blocks
    parsed: Any | None  # the JSON value when the request had a json_schema and the text parsed
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    model: str
    stop_reason: str | None
    latency_s: float
    cached: bool = False  # served from the on-disk cache (no API call, no cost)


class ErrorKind(StrEnum):
    NO_KEY = "no_key"  # no ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN
    BUDGET = "budget"  # the call would exceed the run's budget; not sent
    TIMEOUT = "timeout"  # our per-call deadline passed (retries included)
    RATE_LIMITED = "rate_limited"  # 429 / 529 still failing after retries
    API = "api"  # other HTTP status (4xx/5xx) after retries
    CONNECTION = "connection"
    MALFORMED = "malformed"  # 200 with a body that is not a valid Message
    REFUSAL = "refusal"  # stop_reason == "refusal"
    TRUNCATED = "truncated"  # stop_reason == "max_tokens" with structured output expected
    CANCELLED = "cancelled"
    DRY_RUN = "dry_run"  # --dry-run: the call was estimated and recorded, not sent


class LLMError(Exception):
    def __init__(self, kind: ErrorKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason  # one sentence for a user; never contains the key


class Provider(Protocol):
    """One request -> one reply. Implementations raise LLMError, never SDK exceptions."""

    name: str

    async def complete(self, request: Request, *, timeout_s: float) -> Reply: ...


@dataclass(slots=True)
class LedgerEntry:
    kind: str
    model: str
    usage: Usage
    cost_usd: float
    cached: bool
    latency_s: float
    priced: bool = True  # False: no price known for the model; cost_usd is 0.0 and means "unknown"
    via: str = "live"  # "live"; "batch" (Message Batches, batch price); "rerun" (a batch item re-run live)


@dataclass(slots=True)
class Ledger:
    """What a run spent: one entry per call (cached calls recorded with cost 0)."""

    entries: list[LedgerEntry] = field(default_factory=list)
    batch_ids: list[str] = field(default_factory=list)  # Message Batches this run submitted or collected

    @property
    def calls(self) -> int:
        return sum(1 for e in self.entries if not e.cached)

    @property
    def cached_calls(self) -> int:
        return sum(1 for e in self.entries if e.cached)

    @property
    def cost_usd(self) -> float:
        return sum(e.cost_usd for e in self.entries)

    @property
    def unpriced_calls(self) -> int:
        return sum(1 for e in self.entries if not e.cached and not e.priced)

    @property
    def known_cost_usd(self) -> float | None:
        """The run's cost, or None when a call went to a model without a known price (never a guess)."""
        return None if self.unpriced_calls else self.cost_usd

    def to_json(self) -> dict[str, Any]:
        """The `ledger` object of a JSON report: calls, cached calls, token totals, dollars (null if unknown)."""
        cost = self.known_cost_usd
        by_kind: dict[str, dict[str, int]] = {}
        for e in self.entries:
            k = by_kind.setdefault(e.kind, {"calls": 0, "cached_calls": 0, "input_tokens": 0, "output_tokens": 0})
            if e.cached:
                k["cached_calls"] += 1
                continue
            k["calls"] += 1
            k["input_tokens"] += e.usage.input_tokens + e.usage.cache_creation_input_tokens + e.usage.cache_read_input_tokens
            k["output_tokens"] += e.usage.output_tokens
        out = {
            "calls": self.calls, "cached_calls": self.cached_calls, **self.totals(),
            "cost_usd": None if cost is None else round(cost, 6), "unpriced_calls": self.unpriced_calls,
            "by_kind": by_kind,
        }
        if self.batch_ids or any(e.via != "live" for e in self.entries):
            out["batch"] = self.batch_summary()
        return out

    def batch_summary(self) -> dict[str, Any]:
        """{"batches": ids, "batch_calls", "batch_cost_usd", "live_reruns", "rerun_cost_usd"} (batch mode)."""
        def of(via: str) -> tuple[int, float]:
            got = [e for e in self.entries if e.via == via and not e.cached]
            return len(got), round(sum(e.cost_usd for e in got), 6)

        calls, cost = of("batch")
        reruns, rerun_cost = of("rerun")
        return {"batches": list(self.batch_ids), "batch_calls": calls, "batch_cost_usd": cost,
                "live_reruns": reruns, "rerun_cost_usd": rerun_cost}

    def summary(self) -> str:
        """One line for stderr after a text run."""
        t = self.totals()
        cost = self.known_cost_usd
        money = f"${cost:.4f}" if cost is not None else f"cost unknown ({self.unpriced_calls} call(s) to unpriced models)"
        batch = ""
        if self.batch_ids or any(e.via != "live" for e in self.entries):
            b = self.batch_summary()
            batch = (f" ({b['batch_calls']} via {len(b['batches'])} batch(es) at the batch price, "
                     f"{b['live_reruns']} re-run live)")
        return (f"LLM: {self.calls} call(s){batch}, {self.cached_calls} cached; tokens in {t['input_tokens']:,}, "
                f"out {t['output_tokens']:,}, cache write {t['cache_creation_input_tokens']:,}, "
                f"cache read {t['cache_read_input_tokens']:,}; {money}")

    def totals(self) -> dict[str, int]:
        t = {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        for e in self.entries:
            if e.cached:
                continue
            t["input_tokens"] += e.usage.input_tokens
            t["output_tokens"] += e.usage.output_tokens
            t["cache_creation_input_tokens"] += e.usage.cache_creation_input_tokens
            t["cache_read_input_tokens"] += e.usage.cache_read_input_tokens
        return t
