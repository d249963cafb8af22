"""Ask a model for a validated JSON value: one call, one re-ask with the validation error, then a reason.

Every LLM layer goes through `ask`, so no layer ever turns a bad reply into a number: the caller gets either
a value that passed its validator or `Asked.reason` (why there is none). `Tally` counts what the calls of
one layer run cost in calls and tokens, by call kind.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from .. import prompts
from ..llm.types import ErrorKind, LLMError, Reply, Request

T = TypeVar("T")
MAX_ECHO = 4000  # characters of an invalid reply echoed back in the re-ask


class CallsModels(Protocol):
    """What a layer needs from the gateway (analyzers/llm/gateway.py): one request -> one reply or LLMError."""

    async def call(self, request: Request) -> Reply: ...


# A gateway may also offer `forget(request)` (drop a cached reply); `ask` uses it for replies that fail
# validation, so a re-run asks the model again instead of replaying an answer that was rejected.


class Invalid(ValueError):
    """A reply that does not satisfy the validator; the message is sent back to the model once."""


@dataclass(slots=True)
class KindTally:
    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0


@dataclass(slots=True)
class Tally:
    """Calls and tokens of one layer run by call kind (cached replies count as calls with no tokens)."""

    kinds: dict[str, KindTally] = field(default_factory=dict)
    failures: int = 0

    def add(self, kind: str, reply: Reply) -> None:
        k = self.kinds.setdefault(kind, KindTally())
        if reply.cached:
            k.cached += 1
            return
        k.calls += 1
        u = reply.usage
        k.input_tokens += u.input_tokens
        k.output_tokens += u.output_tokens
        k.cache_creation_input_tokens += u.cache_creation_input_tokens
        k.cache_read_input_tokens += u.cache_read_input_tokens

    def to_dict(self) -> dict:
        total = KindTally()
        for k in self.kinds.values():
            for name in KindTally.__slots__:
                setattr(total, name, getattr(total, name) + getattr(k, name))
        as_dict = lambda k: {n: getattr(k, n) for n in KindTally.__slots__}  # noqa: E731
        return {**as_dict(total), "failed_calls": self.failures,
                "by_kind": {name: as_dict(k) for name, k in sorted(self.kinds.items())}}


def reply_json(reply: Reply) -> Any:
    """The reply's JSON value: the gateway's parse, else the text (a ```json fence tolerated)."""
    if reply.parsed is not None:
        return reply.parsed
    text = (reply.text or "").strip()
    if text.startswith("```"):
        first = text.find("\n")
        text = text[first + 1:] if first >= 0 else ""
        if text.rstrip().endswith("```"):
            text = text.rstrip()[:-3]
    if not text:
        raise Invalid("the reply was empty")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise Invalid(f"the reply is not JSON ({exc.msg} at character {exc.pos})") from None


@dataclass(slots=True)
class Asked(Generic[T]):
    value: T | None
    reason: str | None = None  # why there is no value
    attempts: int = 0
    model: str | None = None  # the model that answered (Reply.model)
    kind: ErrorKind | None = None  # the LLMError kind when the call itself failed


async def ask(gateway: CallsModels, request: Request, validate: Callable[[Reply], T], *,
              tally: Tally | None = None) -> Asked[T]:
    """Call, validate; on Invalid re-ask once with the error; on LLMError or a second Invalid give the reason."""
    current = request
    last_error = ""
    for attempt in (1, 2):
        try:
            reply = await gateway.call(current)
        except LLMError as exc:
            if tally is not None:
                tally.failures += 1
            prefix = "" if attempt == 1 else f"invalid reply ({last_error}); the re-ask failed: "
            return Asked(None, prefix + exc.reason, attempt, kind=exc.kind)
        except Exception as exc:  # noqa: BLE001 - a gateway bug leaves the dimension unmeasured, not the run dead
            if tally is not None:
                tally.failures += 1
            return Asked(None, f"internal error in the model gateway: {type(exc).__name__}", attempt)
        if tally is not None:
            tally.add(request.kind, reply)
        try:
            return Asked(validate(reply), None, attempt, reply.model)
        except Invalid as exc:
            last_error = str(exc)
            forget = getattr(gateway, "forget", None)
            if forget is not None:
                forget(current)  # an invalid reply is not kept: a re-run asks again
            echo = (reply.text or "").strip()[:MAX_ECHO] or "(an empty reply)"
            current = replace(request, messages=(
                *request.messages,
                {"role": "assistant", "content": echo},
                {"role": "user", "content": prompts.render("reask.md", error=last_error)},
            ))
    return Asked(None, f"invalid reply after one re-ask: {last_error}", 2)
