"""The gateway every LLM layer calls: cache, budget, ledger, per-call deadline and bounded concurrency
around a `Provider`.

    gateway = build_gateway(...)            # analyzers/llm/setup.py
    reply = await gateway.call(request)     # Reply, or raises LLMError
    gateway.ledger.to_json()                # what the run spent

Order of a call: cache lookup (a hit is free, recorded as cached, returned at once) → dry run (estimate
recorded in `planned`, LLMError(DRY_RUN) raised, nothing sent) → wait for a concurrency slot → budget check
against spent + in-flight estimates (LLMError(BUDGET), nothing sent) → provider call under the deadline →
actual cost from the reply's usage into the ledger → cache write. A cancelled call (asyncio.CancelledError
propagates unchanged) or a failed one writes nothing to the cache and nothing to the ledger.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .batches import BatchRunner
from .cache import Cache, cache_key, reply_to_json
from .prices import Prices, load_prices
from .types import ErrorKind, Ledger, LedgerEntry, LLMError, Provider, Reply, Request, Usage

CHARS_PER_TOKEN = 3.5  # planning ratio for estimates (5.x tokenizers: ~3.3-4 chars per token of English)


@dataclass(frozen=True, slots=True)
class Estimate:
    """An upper-bound guess for one call: input from characters, output = max_tokens, no cache discount."""

    kind: str
    model: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None  # None: no price known for the model


def _chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict) and value.get("type") == "text" and isinstance(value.get("text"), str):
        return len(value["text"])
    if isinstance(value, list | tuple):
        return sum(_chars(v) for v in value)
    if isinstance(value, dict) and "content" in value and "role" in value:
        return _chars(value["content"])
    return len(json.dumps(value, ensure_ascii=False, default=str)) if value is not None else 0


def estimate_request(request: Request, prices: Prices, *, batch: bool = False) -> Estimate:
    """Pure estimate of one call (what --dry-run and the budget use); batch: at the Message Batches price."""
    chars = _chars(list(request.system)) + _chars(list(request.messages)) + _chars(list(request.tools))
    if request.json_schema is not None:
        chars += _chars(request.json_schema)
    input_tokens = math.ceil(chars / CHARS_PER_TOKEN)
    cost = prices.cost(request.model, Usage(input_tokens=input_tokens, output_tokens=request.max_tokens), batch=batch)
    return Estimate(request.kind, request.model, input_tokens, request.max_tokens, cost)


def summarize_estimates(estimates: Iterable[Estimate]) -> dict[str, Any]:
    """{"calls", "input_tokens", "output_tokens", "cost_usd" (None if any model has no price), "by_kind"}."""
    calls = inp = out = 0
    cost: float | None = 0.0
    by_kind: dict[str, dict[str, int]] = {}
    for e in estimates:
        calls += 1
        inp += e.input_tokens
        out += e.output_tokens
        cost = None if cost is None or e.cost_usd is None else cost + e.cost_usd
        k = by_kind.setdefault(e.kind, {"calls": 0, "input_tokens": 0, "output_tokens": 0})
        k["calls"] += 1
        k["input_tokens"] += e.input_tokens
        k["output_tokens"] += e.output_tokens
    return {"calls": calls, "input_tokens": inp, "output_tokens": out,
            "cost_usd": None if cost is None else round(cost, 6), "by_kind": by_kind}


def format_plan(plan: dict[str, Any]) -> str:
    """One line for --dry-run from `summarize_estimates(...)` / `Gateway.plan()`."""
    cost = plan.get("cost_usd")
    money = f"up to ${cost:.4f}" if cost is not None else "cost unknown (a model has no price)"
    return (f"Dry run: {plan.get('calls', 0)} call(s) would be made, about {plan.get('input_tokens', 0):,} input "
            f"and at most {plan.get('output_tokens', 0):,} output tokens, {money}.")


class Gateway:
    def __init__(self, provider: Provider, *, cache: Cache | None = None, budget_usd: float | None = None,
                 concurrency: int = 4, timeout_s: float = 120.0, prices: Prices | None = None,
                 dry_run: bool = False, batches: BatchRunner | None = None) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.provider = provider
        self.cache = cache
        self.budget_usd = budget_usd
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.prices = prices if prices is not None else load_prices()
        self.dry_run = dry_run
        self.ledger = Ledger()
        self.planned: list[Estimate] = []  # dry run: the calls that would have been sent
        self.failures: list[tuple[str, ErrorKind]] = []  # (request kind, error kind) of calls that failed
        self._reserved = 0.0  # estimated cost of calls in flight (the budget counts them as spent)
        self._sem: asyncio.Semaphore | None = None
        self._sem_loop: asyncio.AbstractEventLoop | None = None
        # batch mode (analyzers/llm/batches.py): calls that miss the cache go out as Message Batches
        self.batches = batches
        if batches is not None:
            batches.sink = self

    def __repr__(self) -> str:
        return (f"Gateway({self.provider!r}, cache={self.cache!r}, budget_usd={self.budget_usd}, "
                f"concurrency={self.concurrency}, timeout_s={self.timeout_s}, dry_run={self.dry_run})")

    @property
    def endpoint(self) -> str:
        return str(getattr(self.provider, "endpoint", getattr(self.provider, "name", "provider")))

    @property
    def spent_usd(self) -> float:
        return self.ledger.cost_usd

    def key_for(self, request: Request) -> str:
        return cache_key(request.cache_payload(), self.endpoint)

    def estimate(self, request: Request) -> Estimate:
        return estimate_request(request, self.prices, batch=self.batches is not None)

    def plan(self) -> dict[str, Any]:
        """Summary of the dry run's estimated calls (see `summarize_estimates`)."""
        return summarize_estimates(self.planned)

    def cached_reply(self, request: Request) -> Reply | None:
        """The cached reply for `request` without calling or recording anything (e.g. for a hover)."""
        return self.cache.get(self.key_for(request)) if self.cache is not None else None

    def forget(self, request: Request) -> None:
        """Drop `request`'s cache entry (a layer that rejects a reply so a re-run asks again)."""
        if self.cache is not None:
            self.cache.delete(self.key_for(request))

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._sem is None or self._sem_loop is not loop:
            self._sem, self._sem_loop = asyncio.Semaphore(self.concurrency), loop
        return self._sem

    async def call(self, request: Request) -> Reply:
        key = self.key_for(request) if self.cache is not None or self.batches is not None else ""
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.ledger.entries.append(LedgerEntry(request.kind, hit.model, hit.usage, 0.0, True, 0.0))
                return hit
        estimate = self.estimate(request)
        if self.dry_run:
            self.planned.append(estimate)
            raise LLMError(ErrorKind.DRY_RUN, "Dry run: this call was estimated, not sent.")
        if self.batches is not None:
            return await self._call_batched(request, key)
        return await self._live(request, key, estimate)

    async def _live(self, request: Request, key: str, estimate: Estimate, via: str = "live") -> Reply:
        async with self._semaphore():
            reserved = self._reserve(request, estimate)
            try:
                reply = await self._complete(request)
            except LLMError as exc:
                self.failures.append((request.kind, exc.kind))
                raise
            finally:
                self._reserved -= reserved
        cost = self.prices.cost(reply.model, reply.usage)
        if cost is None:
            cost = self.prices.cost(request.model, reply.usage)
        self.ledger.entries.append(LedgerEntry(request.kind, reply.model, reply.usage, cost or 0.0, False,
                                               reply.latency_s, priced=cost is not None, via=via))
        if self.cache is not None and self._storable(reply):
            self.cache.put(key, reply, kind=request.kind)
        return reply

    # -- batch mode -----------------------------------------------------------------------------------
    async def _call_batched(self, request: Request, key: str) -> Reply:
        assert self.batches is not None
        prepare = getattr(self.provider, "prepare", None)
        if prepare is not None:
            prepare()
        outcome = await self.batches.submit(key, request)
        if outcome.reply is not None:
            if outcome.first:  # billed and recorded once, by batch_settle
                return outcome.reply
            self.ledger.entries.append(LedgerEntry(request.kind, outcome.reply.model, outcome.reply.usage, 0.0,
                                                   True, 0.0))
            return replace(outcome.reply, cached=True)
        if outcome.error is not None:
            self.failures.append((request.kind, outcome.error.kind))
            raise outcome.error
        # errored / expired / canceled in the batch: the same request, live, at the live price
        return await self._live(request, key, estimate_request(request, self.prices), via="rerun")

    def batch_reserve(self, requests: list[Request]) -> float:
        """Reserve a whole batch's estimate at the batch price, or LLMError(BUDGET): nothing is submitted."""
        if self.budget_usd is None:
            return 0.0
        estimates = [self.estimate(r) for r in requests]
        unpriced = sorted({e.model for e in estimates if e.cost_usd is None})
        if unpriced:
            raise LLMError(ErrorKind.BUDGET, f"No price is known for model {', '.join(unpriced)}, so the "
                           f"${self.budget_usd:g} budget cannot be enforced; the batch was not submitted.")
        total = sum(e.cost_usd or 0.0 for e in estimates)
        committed = self.ledger.cost_usd + self._reserved
        if committed + total > self.budget_usd:
            raise LLMError(ErrorKind.BUDGET, f"Budget reached: a batch of {len(requests)} call(s) (up to "
                           f"${total:.4f} at the batch price) would take the run past ${self.budget_usd:g} "
                           f"(${committed:.4f} spent or in flight); it was not submitted.")
        self._reserved += total
        return total

    def batch_release(self, amount: float) -> None:
        self._reserved -= amount

    def batch_started(self, batch_id: str) -> None:
        if batch_id not in self.ledger.batch_ids:
            self.ledger.batch_ids.append(batch_id)

    def batch_settle(self, key: str, request: Request, reply: Reply, batch_id: str) -> None:
        """A batch result: into the ledger at the batch price, then into the cache."""
        cost = self.prices.cost(reply.model, reply.usage, batch=True)
        if cost is None:
            cost = self.prices.cost(request.model, reply.usage, batch=True)
        self.ledger.entries.append(LedgerEntry(request.kind, reply.model, reply.usage, cost or 0.0, False,
                                               reply.latency_s, priced=cost is not None, via="batch"))
        if self.cache is not None and self._storable(reply):
            self.cache.put(key, reply, kind=request.kind)

    def _reserve(self, request: Request, estimate: Estimate) -> float:
        if self.budget_usd is None:
            return 0.0
        if estimate.cost_usd is None:
            raise LLMError(ErrorKind.BUDGET, f"No price is known for model {request.model}, so the "
                           f"${self.budget_usd:g} budget cannot be enforced; the call was not sent.")
        committed = self.ledger.cost_usd + self._reserved
        if committed + estimate.cost_usd > self.budget_usd:
            raise LLMError(ErrorKind.BUDGET, f"Budget reached: this {request.kind} call (up to "
                           f"${estimate.cost_usd:.4f}) would take the run past ${self.budget_usd:g} "
                           f"(${committed:.4f} spent or in flight); it was not sent.")
        self._reserved += estimate.cost_usd
        return estimate.cost_usd

    async def _complete(self, request: Request) -> Reply:
        # the provider enforces timeout_s itself; this outer guard only catches a provider that does not.
        # prepare() (e.g. the first `import anthropic`, seconds on a busy machine) runs outside the deadline.
        prepare = getattr(self.provider, "prepare", None)
        if prepare is not None:
            prepare()
        try:
            async with asyncio.timeout(self.timeout_s + 5.0):
                return await self.provider.complete(request, timeout_s=self.timeout_s)
        except TimeoutError:
            raise LLMError(ErrorKind.TIMEOUT, f"No reply within the {self.timeout_s:g} s deadline.") from None

    def _storable(self, reply: Reply) -> bool:
        contains_secret = getattr(self.provider, "contains_secret", None)
        if contains_secret is None:
            return True
        blob = json.dumps(reply_to_json(reply), ensure_ascii=False, default=str)
        return not contains_secret(blob)  # never write a reply that contains the key

    async def aclose(self) -> None:
        if self.batches is not None:
            await self.batches.aclose()
        close = getattr(self.provider, "aclose", None)
        if close is not None:
            await close()
