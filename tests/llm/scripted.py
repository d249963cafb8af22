"""An in-process Provider for unit tests of layers that do not need HTTP: replies come from a function."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from skillgrade.analyzers.llm.types import LLMError, Reply, Request, ToolCall, Usage


def reply(text: str = "", parsed: Any = None, tool_calls: tuple[ToolCall, ...] = (), *,
          usage: Usage | None = None, model: str = "claude-sonnet-5-5", stop_reason: str = "end_turn") -> Reply:
    return Reply(text=text, parsed=parsed, tool_calls=tool_calls, usage=usage or Usage(100, 20),
                 model=model, stop_reason=stop_reason, latency_s=0.0)


class ScriptedProvider:
    """`fn(request)` returns a Reply (or raises LLMError); every request is recorded in `requests`."""

    name = "scripted"
    endpoint = "scripted://"

    def __init__(self, fn: Callable[[Request], Reply | Awaitable[Reply]]) -> None:
        self.fn = fn
        self.requests: list[Request] = []

    async def complete(self, request: Request, *, timeout_s: float) -> Reply:
        self.requests.append(request)
        async with asyncio.timeout(timeout_s):
            out = self.fn(request)
            if asyncio.iscoroutine(out) or isinstance(out, asyncio.Future):
                out = await out
        if isinstance(out, LLMError):
            raise out
        assert isinstance(out, Reply)
        return out
