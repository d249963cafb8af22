"""Message Batches behind the gateway: concurrent calls that miss the cache become one batch, at half price.

    runner = BatchRunner(provider, state=BatchState(cache_dir / "batches.json"))
    gateway = Gateway(provider, cache=..., batches=runner)      # or setup.build_gateway(..., batch=True)
    reply = await gateway.call(request)                         # the layer's code does not change

The layers keep calling `gateway.call()` one request at a time, concurrently. In batch mode each call that
misses the cache waits here; once no new call has arrived for `quiet_s` (or `max_wait_s` after the first
one, or at `max_items` / `max_bytes`), the waiting calls are submitted as ONE batch (custom_id = the
request's cache key), the batch is polled every `poll_s` (growing to `poll_max_s`) until it ends or
`deadline_s` passes, and its results are read back to the callers and written to the cache.

Resume: the state file maps request key -> batch id (never the API key). A call whose key belongs to a
batch of an earlier, interrupted run polls and reads THAT batch instead of submitting again; entries are
removed once their result is settled. Items that come back errored, expired or canceled are re-run live by
the gateway (ledger `via="rerun"`). A batch that would pass the budget is not submitted (LLMError BUDGET).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .types import ErrorKind, LLMError, Reply, Request

MAX_ITEMS = 10_000  # per batch (the API takes up to 100,000 requests or 256 MB)
MAX_BYTES = 200_000_000  # request bytes per batch, under the API's 256 MB
STATE_FORMAT = 1


class BatchGone(LLMError):
    """The endpoint does not know the batch (HTTP 404): its items are submitted again."""


@dataclass(frozen=True, slots=True)
class BatchStatus:
    id: str
    processing_status: str  # in_progress | canceling | ended
    processing: int = 0
    succeeded: int = 0
    errored: int = 0
    canceled: int = 0
    expired: int = 0

    @property
    def total(self) -> int:
        return self.processing + self.succeeded + self.errored + self.canceled + self.expired

    @property
    def ended(self) -> bool:
        return self.processing_status == "ended"


def _count(obj: Any, name: str) -> int:
    value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def batch_status(batch: Any) -> BatchStatus:
    """BatchStatus from the SDK's MessageBatch (or its dict form)."""
    get = (lambda n: batch.get(n)) if isinstance(batch, dict) else (lambda n: getattr(batch, n, None))
    bid, status = get("id"), get("processing_status")
    if not isinstance(bid, str) or not bid or not isinstance(status, str):
        raise LLMError(ErrorKind.MALFORMED, "The endpoint returned a batch without an id or a status.")
    counts = get("request_counts") or {}
    return BatchStatus(bid, status, *(_count(counts, n) for n in ("processing", "succeeded", "errored",
                                                                  "canceled", "expired")))


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One result line: outcome succeeded (reply, or the error a live call would have raised for that reply),
    errored (detail: the API's message), expired or canceled."""

    custom_id: str
    outcome: str
    reply: Reply | None = None
    error: LLMError | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class BatchProgress:
    """What a front end shows while a batch runs: `line()` -> 'batch msgbatch_…: 120/400 done'."""

    batch_id: str
    status: str  # submitted | in_progress | canceling | ended | resumed
    total: int
    processing: int
    succeeded: int
    errored: int
    canceled: int
    expired: int
    elapsed_s: float

    @property
    def done(self) -> int:
        return self.total - self.processing

    def line(self) -> str:
        if self.status in ("submitted", "resumed"):
            what = "submitted" if self.status == "submitted" else "resumed (submitted by an earlier run)"
            return f"batch {self.batch_id}: {what}, {self.total} request(s)"
        tail = "".join(f", {n} {w}" for n, w in ((self.errored, "errored"), (self.expired, "expired"),
                                                  (self.canceled, "canceled")) if n)
        state = "ended" if self.status == "ended" else "done"
        return f"batch {self.batch_id}: {self.done}/{self.total} {state}{tail} ({self.elapsed_s:.0f} s)"


ProgressFn = Callable[[BatchProgress], None]


def _progress(status: BatchStatus, elapsed: float, label: str | None = None, total: int | None = None) -> BatchProgress:
    return BatchProgress(status.id, label or status.processing_status, total if total is not None else status.total,
                         status.processing, status.succeeded, status.errored, status.canceled, status.expired,
                         round(elapsed, 3))


class BatchState:
    """The state file: request key -> batch id (+ the batch's submission time). Atomic writes; an unreadable
    file is an empty state. Holds cache keys (sha256 of requests) and batch ids only, never a credential."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self._data: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"BatchState({str(self.path)!r})"

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            data: Any = None
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError, UnicodeDecodeError):
                pass
            ok = (isinstance(data, dict) and data.get("format") == STATE_FORMAT
                  and isinstance(data.get("items"), dict) and isinstance(data.get("batches"), dict))
            self._data = data if ok else {"format": STATE_FORMAT, "batches": {}, "items": {}}
        return self._data

    def batch_of(self, key: str) -> str | None:
        item = self._load()["items"].get(key)
        return item.get("batch") if isinstance(item, dict) and isinstance(item.get("batch"), str) else None

    def keys_of(self, batch_id: str) -> list[str]:
        return [k for k, v in self._load()["items"].items() if isinstance(v, dict) and v.get("batch") == batch_id]

    @property
    def batches(self) -> dict[str, Any]:
        return dict(self._load()["batches"])

    def add(self, batch_id: str, items: list[tuple[str, str]]) -> None:
        """Record a submitted batch: (key, kind) of each item."""
        data = self._load()
        data["batches"][batch_id] = {"submitted": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                     "requests": len(items)}
        for key, kind in items:
            data["items"][key] = {"batch": batch_id, "kind": kind}
        self._write()

    def remove(self, keys: list[str]) -> None:
        data = self._load()
        changed = False
        for k in keys:
            changed |= data["items"].pop(k, None) is not None
        live = {v.get("batch") for v in data["items"].values() if isinstance(v, dict)}
        for bid in [b for b in data["batches"] if b not in live]:
            del data["batches"][bid]
            changed = True
        if changed:
            self._write()

    def forget_batch(self, batch_id: str) -> None:
        self.remove(self.keys_of(batch_id))

    def _write(self) -> None:
        data = self._load()
        try:
            if not data["items"] and not data["batches"]:
                self.path.unlink(missing_ok=True)
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".batches-", suffix=".json", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(data, fh, indent=1, sort_keys=True)
                os.replace(tmp, self.path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            pass  # no state file: an interrupted run cannot resume, nothing else changes


class BatchProvider(Protocol):
    """What the runner needs from a provider (AnthropicProvider implements it)."""

    async def create_batch(self, items: list[tuple[str, Request]], *, timeout_s: float) -> BatchStatus: ...

    async def retrieve_batch(self, batch_id: str, *, timeout_s: float) -> BatchStatus: ...

    async def batch_results(self, batch_id: str, requests: dict[str, Request], *,
                            timeout_s: float) -> list[BatchItem]: ...


class BatchSink(Protocol):
    """The gateway's side: budget reservation, and the ledger + cache write of each result."""

    def batch_reserve(self, requests: list[Request]) -> float: ...  # raises LLMError(BUDGET)

    def batch_release(self, amount: float) -> None: ...

    def batch_settle(self, key: str, request: Request, reply: Reply, batch_id: str) -> None: ...

    def batch_started(self, batch_id: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a waiting call gets: a reply (first: this caller's request is the one that was billed), a final
    error, or `rerun` (errored / expired / canceled: the gateway sends it live)."""

    reply: Reply | None = None
    error: LLMError | None = None
    rerun: str | None = None
    first: bool = True


CLOSE_WAIT_S = 5.0  # how long closing waits for cancelled polls and submissions to stop


class BatchRunner:
    def __init__(self, provider: Any, *, state: BatchState | None = None, quiet_s: float = 0.2,
                 max_wait_s: float = 5.0, max_items: int = MAX_ITEMS, max_bytes: int = MAX_BYTES,
                 poll_s: float = 30.0, poll_max_s: float = 120.0, deadline_s: float = 25 * 3600.0,
                 request_timeout_s: float = 120.0, max_poll_failures: int = 5,
                 progress: ProgressFn | None = None,
                 sleep: Callable[[float], Any] = asyncio.sleep) -> None:
        if not 1 <= max_items <= 100_000:
            raise ValueError("max_items must be from 1 to 100,000")
        self.provider = provider
        self.state = state
        self.quiet_s, self.max_wait_s, self.max_items, self.max_bytes = quiet_s, max_wait_s, max_items, max_bytes
        self.poll_s, self.poll_max_s, self.deadline_s = poll_s, max(poll_max_s, poll_s), deadline_s
        self.request_timeout_s, self.max_poll_failures = request_timeout_s, max_poll_failures
        self.progress = progress
        self._sleep = sleep
        self.sink: BatchSink | None = None
        self.submitted: list[str] = []  # ids of the batches this runner created
        self._waiters: dict[str, list[asyncio.Future[Outcome]]] = {}
        self._requests: dict[str, Request] = {}
        self._pending: list[str] = []
        self._inflight: dict[str, str] = {}  # key -> batch id
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._flusher: asyncio.Task[None] | None = None
        self._first_at = self._last_at = 0.0

    def __repr__(self) -> str:
        return f"BatchRunner(state={self.state!r}, quiet_s={self.quiet_s}, poll_s={self.poll_s})"

    # -- the gateway's entry --------------------------------------------------------------------------
    async def submit(self, key: str, request: Request) -> Outcome:
        """Wait for `request`'s result through a batch (a new one, or the earlier run's batch holding `key`)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Outcome] = loop.create_future()
        waiting = self._waiters.get(key)
        if waiting is not None:  # the same request is already on its way: one item, several callers
            waiting.append(fut)
            return await fut
        self._waiters[key] = [fut]
        self._requests[key] = request
        resumed = self.state.batch_of(key) if self.state is not None else None
        if resumed is not None:
            self._inflight[key] = resumed
            if resumed not in self._watchers:
                self._spawn_watch(resumed, None, 0.0)
        else:
            self._queue(key)
        return await fut

    def _queue(self, key: str) -> None:
        now = time.monotonic()
        if not self._pending:
            self._first_at = now
        self._last_at = now
        self._pending.append(key)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_loop())

    # -- collecting -----------------------------------------------------------------------------------
    async def _flush_loop(self) -> None:
        while self._pending:
            now = time.monotonic()
            due = min(self._last_at + self.quiet_s, self._first_at + self.max_wait_s)
            if now < due and len(self._pending) < self.max_items:
                await asyncio.sleep(min(due - now, 0.05))
                continue
            take: list[str] = []
            size = 0
            while self._pending and len(take) < self.max_items:
                n = len(json.dumps(self._requests[self._pending[0]].cache_payload(), default=str))
                if take and size + n > self.max_bytes:
                    break
                take.append(self._pending.pop(0))
                size += n
            if self._pending:
                self._first_at = time.monotonic()
            self._spawn(self._run_new(take))

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _spawn_watch(self, batch_id: str, status: BatchStatus | None, reserved: float) -> None:
        task = self._spawn(self._follow(batch_id, status, reserved))
        self._watchers[batch_id] = task
        task.add_done_callback(lambda _t, b=batch_id: self._watchers.pop(b, None) if self._watchers.get(b) is _t
                               else None)

    # -- one batch ------------------------------------------------------------------------------------
    async def _run_new(self, keys: list[str]) -> None:
        assert self.sink is not None, "BatchRunner used without a gateway"
        requests = [self._requests[k] for k in keys]
        try:
            reserved = self.sink.batch_reserve(requests)
        except LLMError as exc:
            self._finish(keys, Outcome(error=exc))
            return
        try:
            status = await self.provider.create_batch(list(zip(keys, requests, strict=True)),
                                                      timeout_s=self.request_timeout_s)
        except LLMError as exc:
            self.sink.batch_release(reserved)
            self._finish(keys, Outcome(error=LLMError(exc.kind, f"The batch was not submitted: {exc.reason}")))
            return
        except BaseException:
            self.sink.batch_release(reserved)
            raise
        if self.state is not None:
            self.state.add(status.id, [(k, self._requests[k].kind) for k in keys])
        self.submitted.append(status.id)
        self.sink.batch_started(status.id)
        for k in keys:
            self._inflight[k] = status.id
        self._report(_progress(status, 0.0, "submitted", len(keys)))
        self._spawn_watch(status.id, status, reserved)

    async def _follow(self, batch_id: str, status: BatchStatus | None, reserved: float) -> None:
        assert self.sink is not None, "BatchRunner used without a gateway"
        t0 = time.monotonic()
        delay = self.poll_s
        failures = 0
        first = True
        try:
            while status is None or not status.ended:
                if status is not None:
                    if time.monotonic() - t0 > self.deadline_s:
                        self._finish(self._keys_on(batch_id), Outcome(error=LLMError(ErrorKind.TIMEOUT, (
                            f"Batch {batch_id} had not ended after {self.deadline_s:g} s; it keeps running: run the "
                            "same command again to collect its results (nothing is submitted twice)."))))
                        return
                    await self._sleep(delay)
                    delay = min(delay * 1.5, self.poll_max_s)
                try:
                    status = await self.provider.retrieve_batch(batch_id, timeout_s=self.request_timeout_s)
                    failures = 0
                except BatchGone:
                    self._resubmit(batch_id)
                    return
                except LLMError as exc:
                    failures += 1
                    if failures >= self.max_poll_failures or status is None:
                        self._finish(self._keys_on(batch_id), Outcome(error=LLMError(exc.kind, (
                            f"Batch {batch_id} could not be polled: {exc.reason} Run the same command again to "
                            "collect its results (nothing is submitted twice)."))))
                        return
                    continue
                if first:
                    self.sink.batch_started(batch_id)
                    if batch_id not in self.submitted:
                        self._report(_progress(status, 0.0, "resumed"))
                    first = False
                self._report(_progress(status, time.monotonic() - t0))
            while keys := self._keys_on(batch_id):
                try:
                    items = await self.provider.batch_results(batch_id, {k: self._requests[k] for k in keys},
                                                              timeout_s=self.request_timeout_s)
                except BatchGone:  # results no longer kept: submit again
                    self._resubmit(batch_id)
                    return
                except LLMError as exc:
                    self._finish(keys, Outcome(error=LLMError(exc.kind, (
                        f"The results of batch {batch_id} could not be read: {exc.reason} Run the same command "
                        "again to collect them (nothing is submitted twice)."))))
                    return
                self._dispatch(batch_id, keys, items)
        finally:
            if reserved:
                self.sink.batch_release(reserved)

    def _keys_on(self, batch_id: str) -> list[str]:
        return [k for k, b in self._inflight.items() if b == batch_id]

    def _dispatch(self, batch_id: str, keys: list[str], items: list[BatchItem]) -> None:
        assert self.sink is not None
        by_id = {it.custom_id: it for it in items}
        settled: list[str] = []
        for key in keys:
            it = by_id.get(key)
            request = self._requests[key]
            if it is None:
                outcome = Outcome(rerun=f"missing from the results of batch {batch_id}")
            elif it.outcome == "succeeded" and it.reply is not None:
                self.sink.batch_settle(key, request, it.reply, batch_id)
                outcome = Outcome(reply=it.reply)
            elif it.outcome == "succeeded":
                outcome = Outcome(error=it.error or LLMError(ErrorKind.MALFORMED, "An unreadable batch result."))
            else:
                outcome = Outcome(rerun=it.outcome + (f" ({it.detail})" if it.detail else ""))
            settled.append(key)
            self._finish([key], outcome)
        if self.state is not None:
            self.state.remove(settled)

    def _resubmit(self, batch_id: str) -> None:
        """The endpoint no longer knows `batch_id`: forget it and queue its waiting keys for a new batch."""
        keys = self._keys_on(batch_id)
        if self.state is not None:
            self.state.forget_batch(batch_id)
        for k in keys:
            self._inflight.pop(k, None)
            self._queue(k)

    def _finish(self, keys: list[str], outcome: Outcome) -> None:
        for key in keys:
            self._inflight.pop(key, None)
            self._requests.pop(key, None)
            for i, fut in enumerate(self._waiters.pop(key, [])):
                if not fut.done():
                    fut.set_result(outcome if i == 0 else Outcome(outcome.reply, outcome.error, outcome.rerun, False))

    def _report(self, p: BatchProgress) -> None:
        if self.progress is not None:
            try:
                self.progress(p)
            except Exception:  # noqa: BLE001 - a display problem never stops the run
                pass

    async def aclose(self) -> None:
        """Stop polling (the batches keep running server-side; the state file lets a later run collect them)."""
        tasks = [t for t in (*self._tasks, self._flusher) if t is not None and not t.done()]
        for t in tasks:
            t.cancel()
        if tasks:  # bounded: a task that does not stop on cancel must not hold up Ctrl-C (its work is lost, not
            await asyncio.wait(tasks, timeout=CLOSE_WAIT_S)  # the finished results, already kept)
        for t in tasks:
            if t.done() and not t.cancelled():
                t.exception()  # (retrieved: no "exception was never retrieved" warning)
