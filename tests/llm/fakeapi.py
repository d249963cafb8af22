"""A fake of the Anthropic Messages API for offline tests: the real SDK talks to it through `base_url`.

    with FakeAPI() as fake:                       # http://127.0.0.1:<port>
        fake.push(json_reply({"score": 4}))       # scripted replies, consumed in order
        fake.push(status(429, {"retry-after-ms": "10"}))
        ...
        fake.requests   # every request: path, headers, body (parsed JSON) and the usage reported
        fake.reported   # usage dicts of every 200 it sent (for ledger checks)

Endpoints: POST /v1/messages (scripted; a default text reply when the queue is empty; with "stream": true
the same message as server-sent events, see `sse_events`) and
POST /v1/messages/count_tokens ({"input_tokens": N}). Contract checks: 401 without credentials; 400 for
temperature/top_p/top_k; 400 for output_config when `reject_output_config=True` (a local server without
structured output). Usage is deterministic: input = ceil(chars/4) of the request's text; system blocks up
to the last one carrying cache_control are a cache write the first time that prefix is seen and a cache
read afterwards. With `message_cache=True` a message block with cache_control (a tool_result, say) ends
a longer prefix through the messages up to it: the longest prefix seen before is read, the rest written.
`tools_in_prefix=True`: the tools head the cached prefix, as on the API (order: tools, system, messages);
`min_cache_tokens=N`: a prefix under N tokens is not cached (the API's minimum: 512 on the 5.5 models);
`every_breakpoint=True`: each system block with cache_control ends a prefix a later request can read.
A cached prefix expires `cache_ttl_s` (300, the API's default TTL) after it was last written or read.

Stdlib only; bound to 127.0.0.1, port 0; can also run standalone: `python tests/llm/fakeapi.py 8765`.
"""

from __future__ import annotations

import itertools
import json
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Scripted:
    """One scripted answer. status 200 with `content` → a Message built around it (usage computed);
    `raw` → that exact body; otherwise an error body for `status`."""

    status: int = 200
    content: list[dict[str, Any]] | None = None
    stop_reason: str = "end_turn"
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    delay: float = 0.0
    model: str | None = None
    message: str = ""  # error message for an error status
    usage: dict[str, int] | None = None  # override the computed usage


def text_reply(text: str, **kw: Any) -> Scripted:
    return Scripted(content=[{"type": "text", "text": text}], **kw)


def json_reply(value: Any, **kw: Any) -> Scripted:
    return text_reply(json.dumps(value), **kw)


def tool_use(name: str, input: dict[str, Any], text: str = "", **kw: Any) -> Scripted:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    blocks.append({"type": "tool_use", "id": "toolu_fake", "name": name, "input": input})
    return Scripted(content=blocks, stop_reason="tool_use", **kw)


def status(code: int, headers: dict[str, str] | None = None, message: str = "", **kw: Any) -> Scripted:
    return Scripted(status=code, headers=headers or {}, message=message or f"fake error {code}", **kw)


def malformed(body: bytes = b"{not json", **kw: Any) -> Scripted:
    return Scripted(raw=body, **kw)


def slow(delay: float, then: Scripted | None = None) -> Scripted:
    base = then or text_reply("slow reply")
    base.delay = delay
    return base


def reject_output_config() -> Scripted:
    return status(400, message="output_config: Extra inputs are not permitted")


_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                500: "api_error", 529: "overloaded_error"}


def error_body(code: int, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": _ERROR_TYPES.get(code, "api_error"),
                                                   "message": message}}).encode()


def sse_events(message: dict[str, Any]) -> bytes:
    """The Messages API's server-sent events for `message` (a request with "stream": true): message_start
    (input and cache usage, no content), per block a start, one delta (text_delta / input_json_delta) and a
    stop, then message_delta (stop reason and the final usage) and message_stop."""
    def event(kind: str, data: dict[str, Any]) -> str:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None,
             "usage": {**usage, "output_tokens": 1}}
    out = [event("message_start", {"message": start}), event("ping", {})]
    for i, block in enumerate(message["content"] or []):
        if block.get("type") == "tool_use":
            out.append(event("content_block_start", {"index": i, "content_block": {**block, "input": {}}}))
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block.get("input") or {})}
        else:
            out.append(event("content_block_start", {"index": i, "content_block": {**block, "text": ""}}))
            delta = {"type": "text_delta", "text": block.get("text", "")}
        out.append(event("content_block_delta", {"index": i, "delta": delta}))
        out.append(event("content_block_stop", {"index": i}))
    out.append(event("message_delta", {"delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                                       "usage": usage}))
    out.append(event("message_stop", {}))
    return "".join(out).encode()


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any
    status: int = 0
    usage: dict[str, int] | None = None


def _text_len(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return sum(_text_len(v) for v in value)
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            return len(value["text"])
        if "content" in value:
            return _text_len(value["content"])
        return len(json.dumps(value))
    return 0


class FakeAPI:
    def __init__(self, *, reject_output_config: bool = False, model: str | None = None,
                 message_cache: bool = False, tools_in_prefix: bool = False, min_cache_tokens: int = 0,
                 every_breakpoint: bool = False, cache_ttl_s: float = 300.0) -> None:
        self.queue: list[Scripted] = []
        self.requests: list[Recorded] = []
        self.reported: list[dict[str, int]] = []
        self.reject_output_config = reject_output_config
        self.responder: Callable[[dict[str, Any]], Scripted | None] | None = None  # when the queue is empty
        self.model = model
        # prefix key -> when it was last written or read: an entry unused for `cache_ttl_s` (the API's 5-minute
        # default TTL; each hit refreshes it) has expired and is written again
        self._seen_prefixes: dict[str, float] = {}
        self.cache_ttl_s = cache_ttl_s
        self.message_cache = message_cache  # also model cache_control on message blocks (see the docstring)
        # as the API does: the cached prefix starts with the tools (tools, system, messages), and a prefix
        # shorter than the model's minimum (512 tokens on the 5.5 models) is neither written nor read
        self.tools_in_prefix = tools_in_prefix
        self.min_cache_tokens = min_cache_tokens
        # every system block with cache_control is a breakpoint a later request can read up to (the API looks
        # for hits at earlier breakpoints too), not only the last one
        self.every_breakpoint = every_breakpoint
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting -------------------------------------------------------------------------------------
    def push(self, *items: Scripted) -> FakeAPI:
        with self._lock:
            self.queue.extend(items)
        return self

    @property
    def message_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == "/v1/messages"]

    # -- lifecycle -------------------------------------------------------------------------------------
    def start(self, port: int = 0) -> FakeAPI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                fake._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                fake._handle_get(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------------------
    def _send(self, h: BaseHTTPRequestHandler, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            h.send_response(code)
            if "content-type" not in (headers or {}):
                h.send_header("content-type", "application/json")
            h.send_header("content-length", str(len(body)))
            h.send_header("request-id", f"req_fake_{next(self._ids)}")
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (deadline, cancellation)

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("content-length") or 0)
        raw = h.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        path = h.path.split("?", 1)[0]
        rec = Recorded(path, {k.lower(): v for k, v in h.headers.items()}, body)
        with self._lock:
            self.requests.append(rec)
        auth = rec.headers.get("authorization", "") or rec.headers.get("x-api-key", "")
        if not auth:
            rec.status = 401
            return self._send(h, 401, error_body(401, "missing credentials"))
        if not isinstance(body, dict):
            rec.status = 400
            return self._send(h, 400, error_body(400, "body is not JSON"))
        for bad in ("temperature", "top_p", "top_k"):
            if bad in body:
                rec.status = 400
                return self._send(h, 400, error_body(400, f"{bad}: Extra inputs are not permitted"))
        if path == "/v1/messages/count_tokens":
            rec.status = 200
            return self._send(h, 200, json.dumps({"input_tokens": self._input_tokens(body)}).encode())
        if path.startswith("/v1/messages/batches"):
            return self._handle_batch_post(h, rec, path, body)
        if path != "/v1/messages":
            rec.status = 404
            return self._send(h, 404, error_body(404, f"no route {path}"))
        if self.reject_output_config and "output_config" in body:
            rec.status = 400
            return self._send(h, 400, error_body(400, "output_config: Extra inputs are not permitted"))
        with self._lock:
            item = self.queue.pop(0) if self.queue else None
        if item is None and self.responder is not None:
            item = self.responder(body)
        if item is None:
            item = text_reply("fake reply")
        if item.delay:
            time.sleep(item.delay)
        rec.status = item.status
        if item.raw is not None:
            return self._send(h, item.status, item.raw, item.headers)
        if item.status != 200:
            return self._send(h, item.status, error_body(item.status, item.message), item.headers)
        usage = item.usage or self._usage(body, item.content or [])
        rec.usage = usage
        with self._lock:
            self.reported.append(usage)
        message = {"id": f"msg_fake_{next(self._ids)}", "type": "message", "role": "assistant",
                   "model": item.model or self.model or body.get("model", "fake-model"),
                   "content": item.content, "stop_reason": item.stop_reason, "stop_sequence": None,
                   "usage": usage}
        if body.get("stream") is True:
            return self._send(h, 200, sse_events(message), {"content-type": "text/event-stream", **item.headers})
        self._send(h, 200, json.dumps(message).encode(), item.headers)

    def _input_tokens(self, body: dict[str, Any]) -> int:
        chars = _text_len(body.get("system") or []) + _text_len(body.get("messages") or [])
        chars += _text_len(body.get("tools") or [])
        return math.ceil(chars / 4)

    def _usage(self, body: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, int]:
        system = body.get("system") or []
        if isinstance(system, str):
            system = [{"type": "text", "text": system}]
        last_marked = max((i for i, b in enumerate(system) if isinstance(b, dict) and b.get("cache_control")),
                          default=-1)
        head: list[Any] = list(body.get("tools") or []) if self.tools_in_prefix else []
        prefixes: list[list[Any]] = [head + system[:last_marked + 1]] if last_marked >= 0 else []
        if self.every_breakpoint:
            prefixes = [head + system[:i + 1] for i, b in enumerate(system)
                        if isinstance(b, dict) and b.get("cache_control")]
        if self.message_cache:  # a message block with cache_control (e.g. a tool_result) ends a longer prefix
            for mi, message in reversed(list(enumerate(body.get("messages") or []))):
                blocks = message.get("content") if isinstance(message, dict) else None
                marked = [bi for bi, b in enumerate(blocks) if isinstance(b, dict) and b.get("cache_control")] \
                    if isinstance(blocks, list) else []
                if marked:
                    prefixes.append([*head, *system, *(body["messages"][:mi]),
                                     {"role": message.get("role"), "content": blocks[:marked[-1] + 1]}])
                    break
        total = self._input_tokens(body)
        write = read = 0
        prefixes = [p for p in prefixes if math.ceil(_text_len(p) / 4) >= self.min_cache_tokens]
        if prefixes:  # read the longest prefix seen before, write the rest up to the last breakpoint
            sizes = [math.ceil(_text_len(p) / 4) for p in prefixes]
            keys = [json.dumps([body.get("model"), p], sort_keys=True) for p in prefixes]
            with self._lock:
                now = time.monotonic()
                for size, key in reversed(list(zip(sizes, keys, strict=True))):
                    if now - self._seen_prefixes.get(key, -math.inf) < self.cache_ttl_s:
                        read = size
                        break
                write = sizes[-1] - read
                self._seen_prefixes.update(dict.fromkeys(keys, now))
        out_chars = sum(len(b.get("text", "")) if b.get("type") == "text" else len(json.dumps(b.get("input")))
                        for b in content)
        return {"input_tokens": max(total - write - read, 0), "output_tokens": max(math.ceil(out_chars / 4), 1),
                "cache_creation_input_tokens": write, "cache_read_input_tokens": read}


# -- Message Batches (POST /v1/messages/batches, GET .../{id}, GET .../{id}/results, POST .../{id}/cancel) ----

@dataclass
class FakeBatch:
    """A batch the fake holds: its items' answers are decided at creation (same queue/responder as
    /v1/messages); it reports `in_progress` for `polls` retrieves, then `ended`."""

    id: str
    requests: list[dict[str, Any]]
    results: list[dict[str, Any]]  # one JSONL line each (custom_id + result), in request order
    polls: int
    created_at: str
    retrieves: int = 0
    canceled: bool = False
    ended: bool = False


def _batch_setup(fake: FakeAPI) -> None:
    defaults: dict[str, Callable[[], Any]] = {"batches": dict, "batch_polls": lambda: 1,
                                              "batch_outcome": lambda: None, "batch_ids": lambda: itertools.count(1)}
    for name, make in defaults.items():
        if not hasattr(fake, name):
            setattr(fake, name, make())


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class _BatchMixin:
    """Batch endpoints of FakeAPI (methods attached below, so FakeAPI's own code stays as it was).

    Scripting: `fake.batch_polls = N` (retrieves answering in_progress before `ended`, default 1);
    `fake.batch_outcome = fn(params) -> "errored" | "expired" | "canceled" | None` (None: answer it as
    /v1/messages would). `fake.batches` maps id -> FakeBatch; `fake.batch_creates` lists the create calls;
    `fake.batch_items` every item's params."""

    @property
    def batch_creates(self: Any) -> list[Recorded]:
        return [r for r in self.requests if r.path == "/v1/messages/batches"]

    @property
    def batch_items(self: Any) -> list[dict[str, Any]]:
        _batch_setup(self)
        return [r["params"] for b in self.batches.values() for r in b.requests]

    def _batch_answer(self: Any, params: dict[str, Any]) -> dict[str, Any]:
        outcome = self.batch_outcome(params) if self.batch_outcome is not None else None
        if outcome in ("expired", "canceled"):
            return {"type": outcome}
        if outcome == "errored":
            return {"type": "errored", "error": {"type": "error", "error": {
                "type": "api_error", "message": "fake batch item error"}}}
        if self.reject_output_config and "output_config" in params:
            return {"type": "errored", "error": {"type": "error", "error": {
                "type": "invalid_request_error", "message": "output_config: Extra inputs are not permitted"}}}
        with self._lock:
            item = self.queue.pop(0) if self.queue else None
        if item is None and self.responder is not None:
            item = self.responder(params)
        if item is None:
            item = text_reply("fake reply")
        if item.raw is not None or item.status != 200:
            return {"type": "errored", "error": {"type": "error", "error": {
                "type": _ERROR_TYPES.get(item.status, "api_error"), "message": item.message or "fake error"}}}
        usage = item.usage or self._usage(params, item.content or [])
        with self._lock:
            self.reported.append(usage)
        message = {"id": f"msg_fake_{next(self._ids)}", "type": "message", "role": "assistant",
                   "model": item.model or self.model or params.get("model", "fake-model"),
                   "content": item.content, "stop_reason": item.stop_reason, "stop_sequence": None,
                   "usage": {**usage, "service_tier": "batch"}}
        return {"type": "succeeded", "message": message}

    def _batch_json(self: Any, b: FakeBatch) -> dict[str, Any]:
        n = len(b.requests)
        counts = {"processing": n, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if b.ended:
            counts["processing"] = 0
            for line in b.results:
                counts[line["result"]["type"]] += 1
        status = "ended" if b.ended else ("canceling" if b.canceled else "in_progress")
        return {"id": b.id, "type": "message_batch", "processing_status": status, "request_counts": counts,
                "created_at": b.created_at, "expires_at": b.created_at, "ended_at": b.created_at if b.ended else None,
                "cancel_initiated_at": b.created_at if b.canceled else None, "archived_at": None,
                "results_url": f"{self.url}/v1/messages/batches/{b.id}/results" if b.ended else None}

    def _handle_batch_post(self: Any, h: BaseHTTPRequestHandler, rec: Recorded, path: str, body: dict[str, Any]) -> None:
        _batch_setup(self)
        parts = path.strip("/").split("/")  # v1 messages batches [id [cancel]]
        if len(parts) == 3:
            reqs = body.get("requests")
            if not isinstance(reqs, list) or not reqs:
                rec.status = 400
                return self._send(h, 400, error_body(400, "requests: must be a non-empty list"))
            ids = [r.get("custom_id") for r in reqs if isinstance(r, dict)]
            if len(ids) != len(reqs) or len(set(ids)) != len(ids) or not all(
                    isinstance(i, str) and 1 <= len(i) <= 64 and all(c.isalnum() or c in "_-" for c in i) for i in ids):
                rec.status = 400
                return self._send(h, 400, error_body(400, "custom_id: must be unique, 1-64 of [a-zA-Z0-9_-]"))
            for r in reqs:
                params = r.get("params") or {}
                for bad in ("temperature", "top_p", "top_k"):
                    if bad in params:
                        rec.status = 400
                        return self._send(h, 400, error_body(400, f"{bad}: Extra inputs are not permitted"))
            results = [{"custom_id": r["custom_id"], "result": self._batch_answer(r.get("params") or {})} for r in reqs]
            b = FakeBatch(f"msgbatch_fake_{next(self.batch_ids):04d}", reqs, results, self.batch_polls, _iso(time.time()))
            b.ended = b.polls <= 0
            with self._lock:
                self.batches[b.id] = b
            rec.status = 200
            return self._send(h, 200, json.dumps(self._batch_json(b)).encode())
        b = self.batches.get(parts[3]) if len(parts) == 5 and parts[4] == "cancel" else None
        if b is None:
            rec.status = 404
            return self._send(h, 404, error_body(404, f"no route {path}"))
        if not b.ended:
            b.canceled = True
        rec.status = 200
        return self._send(h, 200, json.dumps(self._batch_json(b)).encode())

    def _handle_get(self: Any, h: BaseHTTPRequestHandler) -> None:
        _batch_setup(self)
        path = h.path.split("?", 1)[0]
        rec = Recorded(path, {k.lower(): v for k, v in h.headers.items()}, None)
        with self._lock:
            self.requests.append(rec)
        if not (rec.headers.get("authorization") or rec.headers.get("x-api-key")):
            rec.status = 401
            return self._send(h, 401, error_body(401, "missing credentials"))
        parts = path.strip("/").split("/")
        b = self.batches.get(parts[3]) if len(parts) >= 4 and parts[:3] == ["v1", "messages", "batches"] else None
        if b is None or len(parts) > 5 or (len(parts) == 5 and parts[4] != "results"):
            rec.status = 404
            return self._send(h, 404, error_body(404, f"no route {path}"))
        if len(parts) == 4:
            with self._lock:
                b.retrieves += 1
                if not b.ended and (b.canceled or b.retrieves >= b.polls):
                    b.ended = True
                    if b.canceled:  # canceled before processing ended: nothing was processed
                        for line in b.results:
                            line["result"] = {"type": "canceled"}
            rec.status = 200
            return self._send(h, 200, json.dumps(self._batch_json(b)).encode())
        if not b.ended:
            rec.status = 404
            return self._send(h, 404, error_body(404, "results are not ready"))
        body = "".join(json.dumps(line) + "\n" for line in b.results).encode()
        rec.status = 200
        return self._send(h, 200, body)


for _name in ("batch_creates", "batch_items", "_batch_answer", "_batch_json", "_handle_batch_post", "_handle_get"):
    setattr(FakeAPI, _name, _BatchMixin.__dict__[_name])


if __name__ == "__main__":  # manual runs: ANTHROPIC_BASE_URL=http://127.0.0.1:8765 ANTHROPIC_API_KEY=x ...
    with FakeAPI() as fake_server:
        fake_server.stop()
        fake_server.start(int(sys.argv[1]) if len(sys.argv) > 1 else 8765)
        print(fake_server.url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
