"""The real provider: the `anthropic` SDK's `AsyncAnthropic`, imported only when a call is made.

Works against api.anthropic.com and any Anthropic-compatible `/v1/messages` endpoint (Ollama, llama.cpp's
llama-server, vLLM, LM Studio) through `base_url`. Structured output uses the native
`output_config.format` json_schema; an endpoint that rejects it (HTTP 400/422 naming output_config /
format / schema) gets the same request with the schema as a prompt instruction instead, and is
remembered (per base URL, for the life of the process) so later calls go straight to prompt-only JSON.

Every failure leaves as `LLMError`; the API key is never part of a message, a repr or a log line.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
from typing import Any, ClassVar

from .types import ErrorKind, LLMError, Reply, Request, ToolCall, Usage

DEFAULT_BASE_URL = "https://api.anthropic.com"
# what a 400/422 says when an endpoint does not know output_config (checked only when we sent it)
_REJECTION_HINTS = ("output_config", "output_format", "json_schema", "structured output", "response format",
                    "extra inputs are not permitted", "unknown field", "unrecognized", "not supported")
_CAPABILITY_HINTS = ("extra inputs are not permitted", "unknown field", "unrecognized", "unexpected keyword",
                     "not supported", "unsupported parameter")


# (status, retry-after) of every HTTP attempt of the current call (status 0: still in flight), filled by the
# SDK middleware below
_ATTEMPTS: contextvars.ContextVar[list[tuple[int, str | None]] | None] = contextvars.ContextVar(
    "skillgrade_llm_attempts", default=None)


async def _record_attempt(request: Any, call_next: Any) -> Any:
    """SDK middleware (runs once per attempt, inside the retry loop): remember each attempt's status."""
    attempts = _ATTEMPTS.get()
    if attempts is not None:
        attempts.append((0, None))  # in flight
    response = await call_next(request)
    if attempts:
        attempts[-1] = (response.status_code, _retry_after(response.headers))
    return response


def _retry_after(headers: Any) -> str | None:
    """The server's requested wait in seconds as text (retry-after-ms, else retry-after), or None."""
    try:
        ms = headers.get("retry-after-ms")
        if ms:
            return f"{float(ms) / 1000:g}"
        value = headers.get("retry-after")
        return str(value)[:40] if value else None
    except (ValueError, TypeError, AttributeError):
        return None


def json_instruction(schema: dict[str, Any]) -> str:
    """The system text that asks for JSON when the endpoint has no native structured output."""
    return ("Reply with one JSON value only, with no prose before or after it and no Markdown code fence. "
            "It must conform to this JSON Schema:\n" + json.dumps(schema, sort_keys=True, ensure_ascii=False))


def parse_json_text(text: str) -> tuple[bool, Any]:
    """(True, value) for the JSON in `text` — bare, inside a ``` fence, or the outermost {...} / [...] —
    else (False, None). Linear scans only."""
    candidates = [text.strip()]
    fence = text.find("```")
    if fence >= 0:
        body_start = text.find("\n", fence + 3)
        if body_start >= 0:
            end = text.find("```", body_start)
            candidates.append(text[body_start + 1:end if end >= 0 else len(text)].strip())
    for open_ch, close_ch in (("{", "}"), ("[", "]")):
        i, j = text.find(open_ch), text.rfind(close_ch)
        if 0 <= i < j:
            candidates.append(text[i:j + 1])
    for cand in candidates:
        if not cand:
            continue
        try:
            return True, json.loads(cand)
        except (ValueError, RecursionError):
            continue
    return False, None


# A placeholder key for a local server ("x", "ollama", "none") is no secret, and searching text for it would
# redact ordinary words and keep replies out of the cache; real keys are far longer.
MIN_SECRET_LEN = 12


def redact(text: str, secret: str | None) -> str:
    """`text` without the secret (when it is long enough to be one) and without any bearer token."""
    if secret and len(secret) >= MIN_SECRET_LEN:
        text = text.replace(secret, "[redacted]")
    out, pos = [], 0
    lower = text.lower()
    while True:
        i = lower.find("bearer ", pos)
        if i < 0:
            out.append(text[pos:])
            break
        j = i + 7
        while j < len(text) and not text[j].isspace() and text[j] not in "\"',;}":
            j += 1
        out.append(text[pos:i + 7] + "[redacted]")
        pos = j
    return "".join(out)


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


class AnthropicProvider:
    """`Provider` on `anthropic.AsyncAnthropic`. One SDK client per event loop (clients bind to a loop)."""

    name = "anthropic"
    # base URLs whose endpoint rejected output_config.format (prompt-only JSON from then on)
    _prompt_only_endpoints: ClassVar[set[str]] = set()

    def __init__(self, api_key: str, base_url: str | None = None, max_retries: int = 2) -> None:
        if not api_key:
            raise LLMError(ErrorKind.NO_KEY, "No API key was given to the provider.")
        self._api_key = api_key
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.max_retries = max_retries
        self._client: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def __repr__(self) -> str:
        return f"AnthropicProvider(base_url={self.base_url!r}, max_retries={self.max_retries})"

    @property
    def endpoint(self) -> str:
        """The endpoint's identity for cache keys (the base URL; never the key)."""
        return self.base_url

    @property
    def prompt_only_json(self) -> bool:
        return self.base_url in self._prompt_only_endpoints

    def redact(self, text: str) -> str:
        return redact(text, self._api_key)

    def contains_secret(self, text: str) -> bool:
        return len(self._api_key) >= MIN_SECRET_LEN and self._api_key in text

    def _sdk_client(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            from anthropic import AsyncAnthropic  # lazy: static work never imports the SDK

            self._client = AsyncAnthropic(api_key=self._api_key, base_url=self.base_url,
                                          max_retries=self.max_retries, timeout=60.0,
                                          middleware=[_record_attempt])
            self._loop = loop
        return self._client

    def prepare(self) -> None:
        """Import the SDK and build the client for the running loop (done before any deadline starts)."""
        self._sdk_client()

    async def aclose(self) -> None:
        client, self._client, self._loop = self._client, None, None
        if client is not None:
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass

    async def complete(self, request: Request, *, timeout_s: float) -> Reply:
        """One request, at most `timeout_s` seconds in all (the SDK's retries and `retry-after` included)."""
        self._sdk_client()  # the first `import anthropic` (seconds on a busy machine) is not part of the deadline
        start = time.monotonic()
        attempts: list[tuple[int, str | None]] = []
        token = _ATTEMPTS.set(attempts)
        try:
            async with asyncio.timeout(timeout_s):
                native, msg = await self._send_with_fallback(request, timeout_s)
        except TimeoutError:
            raise self._deadline_error(attempts, timeout_s) from None
        finally:
            _ATTEMPTS.reset(token)
        return self._reply(request, msg, native, time.monotonic() - start)

    def _deadline_error(self, attempts: list[tuple[int, str | None]], timeout_s: float) -> LLMError:
        """The deadline passed: say why when the last attempt was refused and the SDK was waiting to retry."""
        last = attempts[-1] if attempts else None
        if last is None or not (last[0] in (408, 409, 429) or last[0] >= 500):  # not waiting to retry
            return LLMError(ErrorKind.TIMEOUT, f"No reply within the {timeout_s:g} s deadline (retries included).")
        status, retry_after = last
        wait = f"; it asked to retry after {retry_after} s" if retry_after else ""
        kind = ErrorKind.RATE_LIMITED if status in (429, 529) else ErrorKind.API
        what = {429: "Rate limited by", 529: "Overloaded:"}.get(status, "Error from")
        return LLMError(kind, f"{what} {self.base_url} (HTTP {status}, {len(attempts)} attempt(s)){wait}, "
                              f"and the {timeout_s:g} s deadline passed before a retry could succeed.")

    async def _send_with_fallback(self, request: Request, timeout_s: float) -> tuple[bool, Any]:
        """(native structured output used?, SDK message)."""
        with_config = (request.json_schema is not None or request.effort is not None) and not self.prompt_only_json
        try:
            return with_config and request.json_schema is not None, await self._send(request, with_config, timeout_s)
        except (asyncio.CancelledError, TimeoutError, LLMError):
            raise
        except Exception as exc:  # noqa: BLE001 - every SDK/HTTP failure is mapped below
            if not (with_config and _rejects_structured_output(exc)):
                raise self._map_error(exc) from None
            remember = _lacks_structured_output(exc)
        try:
            msg = await self._send(request, False, timeout_s)
        except (asyncio.CancelledError, TimeoutError, LLMError):
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._map_error(exc) from None
        if remember:  # remembered only once the fallback worked, and only for a missing capability
            self._prompt_only_endpoints.add(self.base_url)
        return False, msg

    async def _send(self, request: Request, with_config: bool, timeout_s: float) -> Any:
        """Send `request`; with_config: output_config (native json_schema, effort) is sent, else the schema
        (if any) becomes a prompt instruction and effort is dropped."""
        return await self._sdk_client().messages.create(**self._params(request, with_config), timeout=timeout_s)

    def _params(self, request: Request, with_config: bool) -> dict[str, Any]:
        """The Messages API parameters of `request` (what `_send` sends and a batch item carries)."""
        kwargs: dict[str, Any] = {"model": request.model, "max_tokens": request.max_tokens,
                                  "messages": list(request.messages)}
        system = list(request.system)
        if request.json_schema is not None and not with_config:
            system.append({"type": "text", "text": json_instruction(request.json_schema)})
        if system:
            kwargs["system"] = system
        if with_config:
            output_config: dict[str, Any] = {}
            if request.json_schema is not None:
                output_config["format"] = {"type": "json_schema", "schema": request.json_schema}
            if request.effort is not None:
                output_config["effort"] = request.effort
            kwargs["output_config"] = output_config
        if request.tools:
            kwargs["tools"] = list(request.tools)
        if request.tool_choice is not None:
            kwargs["tool_choice"] = request.tool_choice
        if request.thinking is not None:
            kwargs["thinking"] = request.thinking
        return kwargs

    async def count_tokens(self, request: Request, *, timeout_s: float) -> int:
        """Input tokens of `request` by the endpoint's own count (POST /v1/messages/count_tokens; free of
        charge on the Anthropic API, absent on most local servers: LLMError then)."""
        self._sdk_client()
        kwargs: dict[str, Any] = {"model": request.model, "messages": list(request.messages), "timeout": timeout_s}
        system = list(request.system)
        if request.json_schema is not None and self.prompt_only_json:
            system.append({"type": "text", "text": json_instruction(request.json_schema)})
        if system:
            kwargs["system"] = system
        if request.tools:
            kwargs["tools"] = list(request.tools)
        try:
            async with asyncio.timeout(timeout_s):
                result = await self._sdk_client().messages.count_tokens(**kwargs)
        except TimeoutError:
            raise LLMError(ErrorKind.TIMEOUT, f"No token count within {timeout_s:g} s.") from None
        except (asyncio.CancelledError, LLMError):
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._map_error(exc) from None
        tokens = _get(result, "input_tokens")
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
            raise LLMError(ErrorKind.MALFORMED, f"{self.base_url} returned a token count without input_tokens.")
        return tokens

    def _map_error(self, exc: BaseException) -> LLMError:
        import anthropic

        where = self.base_url
        if isinstance(exc, anthropic.APITimeoutError):
            return LLMError(ErrorKind.TIMEOUT, f"{where} did not answer in time (after retries).")
        if isinstance(exc, anthropic.APIConnectionError):
            return LLMError(ErrorKind.CONNECTION, f"Cannot connect to {where}.")
        if isinstance(exc, anthropic.APIResponseValidationError):
            return LLMError(ErrorKind.MALFORMED, f"{where} returned a reply that is not a valid Messages API body.")
        if isinstance(exc, anthropic.APIStatusError):
            status = exc.status_code
            detail = self._detail(exc)
            if status == 429:
                return LLMError(ErrorKind.RATE_LIMITED,
                                f"Rate limited by {where} (HTTP 429) after {self.max_retries} retries{detail}.")
            if status == 529:
                return LLMError(ErrorKind.RATE_LIMITED,
                                f"{where} is overloaded (HTTP 529) after {self.max_retries} retries{detail}.")
            if status in (401, 403):
                return LLMError(ErrorKind.API, f"{where} rejected the credentials (HTTP {status}){detail}.")
            return LLMError(ErrorKind.API, f"{where} answered HTTP {status}{detail}.")
        if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):  # a 200 whose body is not JSON
            return LLMError(ErrorKind.MALFORMED, f"{where} returned a body that is not JSON.")
        if isinstance(exc, ValueError | TypeError | KeyError | AttributeError):  # a body the SDK cannot read
            return LLMError(ErrorKind.MALFORMED,
                            f"{where} returned a reply that could not be read ({type(exc).__name__}).")
        return LLMError(ErrorKind.API, f"Call to {where} failed: {self.redact(type(exc).__name__)}.")

    def _detail(self, exc: Any) -> str:
        message = _get(exc, "api_message") or ""
        if not isinstance(message, str) or not message:
            return ""
        message = " ".join(self.redact(message).split())
        return ": " + (message[:200] + "…" if len(message) > 200 else message)

    def _reply(self, request: Request, msg: Any, native: bool, latency: float) -> Reply:
        where = self.base_url
        content, usage = _get(msg, "content"), _get(msg, "usage")
        if not isinstance(content, list) or usage is None:
            raise LLMError(ErrorKind.MALFORMED, f"{where} returned a reply without content or usage.")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in content:
            kind = _get(block, "type")
            if kind == "text":
                text = _get(block, "text")
                if not isinstance(text, str):
                    raise LLMError(ErrorKind.MALFORMED, f"{where} returned a text block without text.")
                texts.append(text)
            elif kind == "tool_use":
                name, inp = _get(block, "name"), _get(block, "input")
                if not isinstance(name, str) or not isinstance(inp, dict):
                    raise LLMError(ErrorKind.MALFORMED, f"{where} returned a malformed tool call.")
                calls.append(ToolCall(name, inp))
        stop = _get(msg, "stop_reason")
        if stop == "refusal":
            raise LLMError(ErrorKind.REFUSAL, "The model refused to answer this request.")
        text = "".join(texts)
        parsed: Any = None
        if request.json_schema is not None:
            if stop in ("max_tokens", "model_context_window_exceeded"):
                raise LLMError(ErrorKind.TRUNCATED,
                               f"The reply was cut off at max_tokens={request.max_tokens} before its JSON ended.")
            ok, value = parse_json_text(text)
            parsed = value if ok else None
        model = _get(msg, "model")
        return Reply(
            text=text, parsed=parsed, tool_calls=tuple(calls),
            usage=Usage(_int(_get(usage, "input_tokens")), _int(_get(usage, "output_tokens")),
                        _int(_get(usage, "cache_creation_input_tokens")), _int(_get(usage, "cache_read_input_tokens"))),
            model=model if isinstance(model, str) and model else request.model,
            stop_reason=stop if isinstance(stop, str) else None, latency_s=latency,
        )

    # -- Message Batches (used by analyzers/llm/batches.py) ---------------------------------------------
    def batch_params(self, request: Request) -> dict[str, Any]:
        """A batch item's `params`: what a live call would send first (native structured output unless this
        endpoint is known to lack it; an item the endpoint rejects is re-run live, which falls back)."""
        with_config = (request.json_schema is not None or request.effort is not None) and not self.prompt_only_json
        return self._params(request, with_config)

    async def _batch_call(self, what: str, make: Any, timeout_s: float) -> Any:
        from .batches import BatchGone

        self._sdk_client()
        try:
            async with asyncio.timeout(timeout_s):
                return await make()
        except TimeoutError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                # cancelled (Ctrl-C) as the deadline passed: Python 3.11's timeout reports the cancellation as a
                # TimeoutError, which the poll loop would retry, so the run never stopped
                raise asyncio.CancelledError from None
            raise LLMError(ErrorKind.TIMEOUT, f"{self.base_url} did not answer the batch {what} within "
                                              f"{timeout_s:g} s.") from None
        except (asyncio.CancelledError, LLMError):
            raise
        except Exception as exc:  # noqa: BLE001 - every SDK/HTTP failure is mapped below
            mapped = self._map_error(exc)
            if getattr(exc, "status_code", None) == 404:
                raise BatchGone(mapped.kind, mapped.reason) from None
            raise mapped from None

    async def create_batch(self, items: list[tuple[str, Request]], *, timeout_s: float) -> Any:
        """Submit one Message Batch (custom_id, request) ... -> BatchStatus."""
        from .batches import batch_status

        reqs = [{"custom_id": cid, "params": self.batch_params(r)} for cid, r in items]
        client = self._sdk_client()
        b = await self._batch_call("create", lambda: client.messages.batches.create(requests=reqs, timeout=timeout_s),
                                   timeout_s)
        return batch_status(b)

    async def retrieve_batch(self, batch_id: str, *, timeout_s: float) -> Any:
        from .batches import batch_status

        client = self._sdk_client()
        return batch_status(await self._batch_call(
            "poll", lambda: client.messages.batches.retrieve(batch_id, timeout=timeout_s), timeout_s))

    async def cancel_batch(self, batch_id: str, *, timeout_s: float) -> Any:
        from .batches import batch_status

        client = self._sdk_client()
        return batch_status(await self._batch_call(
            "cancel", lambda: client.messages.batches.cancel(batch_id, timeout=timeout_s), timeout_s))

    async def batch_results(self, batch_id: str, requests: dict[str, Request], *, timeout_s: float) -> list[Any]:
        """The ended batch's items (BatchItem) whose custom_id is in `requests`, read into Replies as a live
        call's would be (a refusal or a cut-off JSON reply is that item's LLMError)."""
        from .batches import BatchItem

        client = self._sdk_client()

        async def read() -> list[Any]:
            out: list[Any] = []
            decoder = await client.messages.batches.results(batch_id, timeout=timeout_s)
            async for line in decoder:
                request = requests.get(line.custom_id)
                if request is None:
                    continue
                result = line.result
                kind = getattr(result, "type", None)
                if kind == "succeeded":
                    try:
                        out.append(BatchItem(line.custom_id, "succeeded",
                                             self._reply(request, result.message, False, 0.0)))
                    except LLMError as exc:
                        out.append(BatchItem(line.custom_id, "succeeded", error=exc))
                elif kind == "errored":
                    err = _get(_get(result, "error"), "error")
                    detail = " ".join(self.redact(str(_get(err, "message") or _get(err, "type") or "")).split())[:200]
                    out.append(BatchItem(line.custom_id, "errored", detail=detail))
                else:
                    out.append(BatchItem(line.custom_id, str(kind or "errored")))
            return out

        return await self._batch_call("results", read, timeout_s)


def _error_text(exc: BaseException) -> str:
    return " ".join(str(x) for x in (getattr(exc, "api_message", None), getattr(exc, "message", None), exc)).lower()


def _rejects_structured_output(exc: BaseException) -> bool:
    """A 400/422 that names output_config / structured output (or an unknown field) — worth one retry
    with prompt-only JSON."""
    if getattr(exc, "status_code", None) not in (400, 422):
        return False
    text = _error_text(exc)
    return any(h in text for h in _REJECTION_HINTS)


def _lacks_structured_output(exc: BaseException) -> bool:
    """The endpoint does not know output_config at all (remember it), as opposed to disliking one schema
    (an 'output_config.format.schema: …' complaint: fall back for that call only)."""
    text = _error_text(exc)
    return any(h in text for h in _CAPABILITY_HINTS) or ("schema" not in text.replace("json_schema", ""))
