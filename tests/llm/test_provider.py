"""AnthropicProvider driven through the REAL anthropic SDK against the fake Messages API."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from fakeapi import (
    FakeAPI,
    Scripted,
    json_reply,
    malformed,
    reject_output_config,
    slow,
    status,
    text_reply,
    tool_use,
)

from conftest import TEST_KEY, wait_for_requests
from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider, parse_json_text, redact
from skillgrade.analyzers.llm.types import ErrorKind, LLMError, Request

SCHEMA = {"type": "object", "properties": {"score": {"type": "integer", "enum": [1, 2, 3, 4, 5]}},
          "required": ["score"]}


def req(**kw: object) -> Request:
    base: dict[str, object] = {
        "kind": "judge", "model": "claude-sonnet-5-5",
        "system": ({"type": "text", "text": "You grade skills.", "cache_control": {"type": "ephemeral"}},),
        "messages": ({"role": "user", "content": "Grade this."},), "max_tokens": 256,
    }
    base.update(kw)
    return Request(**base)  # type: ignore[arg-type]


def provider(fake: FakeAPI, max_retries: int = 2) -> AnthropicProvider:
    return AnthropicProvider(TEST_KEY, fake.url, max_retries=max_retries)


async def test_normal_structured_call(fake_api: FakeAPI) -> None:
    fake_api.push(json_reply({"score": 4}))
    p = provider(fake_api)
    reply = await p.complete(req(json_schema=SCHEMA, effort="low"), timeout_s=10)
    assert reply.parsed == {"score": 4}
    assert reply.stop_reason == "end_turn" and reply.model == "claude-sonnet-5-5" and not reply.cached
    sent = fake_api.message_requests[0]
    assert sent.body["output_config"] == {"format": {"type": "json_schema", "schema": SCHEMA}, "effort": "low"}
    assert sent.headers["authorization"] == f"Bearer {TEST_KEY}"
    assert not {"temperature", "top_p", "top_k"} & set(sent.body)
    u = fake_api.reported[0]
    assert (reply.usage.input_tokens, reply.usage.output_tokens, reply.usage.cache_creation_input_tokens,
            reply.usage.cache_read_input_tokens) == (u["input_tokens"], u["output_tokens"],
                                                     u["cache_creation_input_tokens"], u["cache_read_input_tokens"])
    assert u["cache_creation_input_tokens"] > 0  # the system block carried cache_control
    await p.aclose()


async def test_prompt_cache_write_then_read(fake_api: FakeAPI) -> None:
    p = provider(fake_api)
    first = await p.complete(req(), timeout_s=10)
    second = await p.complete(req(), timeout_s=10)
    assert first.usage.cache_creation_input_tokens > 0 and first.usage.cache_read_input_tokens == 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    assert second.usage.cache_creation_input_tokens == 0
    await p.aclose()


async def test_tool_use_reply_parses_into_tool_calls(fake_api: FakeAPI) -> None:
    fake_api.push(tool_use("Skill", {"skill": "pdf-tools"}, text="Using the skill."))
    tools = ({"name": "Skill", "description": "Use a skill",
              "input_schema": {"type": "object", "properties": {"skill": {"type": "string"}}}},)
    p = provider(fake_api)
    reply = await p.complete(req(kind="route", tools=tools), timeout_s=10)
    assert [(t.name, t.input) for t in reply.tool_calls] == [("Skill", {"skill": "pdf-tools"})]
    assert reply.text == "Using the skill." and reply.stop_reason == "tool_use" and reply.parsed is None
    assert fake_api.message_requests[0].body["tools"][0]["name"] == "Skill"
    await p.aclose()


async def test_429_with_retry_after_then_success(fake_api: FakeAPI) -> None:
    fake_api.push(status(429, {"retry-after": "1"}), json_reply({"score": 3}))
    p = provider(fake_api)
    p.prepare()  # the first `import anthropic` is not what we time
    t0 = time.monotonic()
    reply = await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert reply.parsed == {"score": 3}
    assert time.monotonic() - t0 >= 0.9  # the SDK honoured retry-after
    assert [r.headers.get("x-stainless-retry-count") for r in fake_api.message_requests] == ["0", "1"]
    await p.aclose()


async def test_529_storm_is_rate_limited(fake_api: FakeAPI) -> None:
    fake_api.push(*(status(529, {"retry-after-ms": "5"}) for _ in range(5)))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.RATE_LIMITED and "529" in err.value.reason
    assert len(fake_api.message_requests) == 3  # 1 + max_retries
    await p.aclose()


async def test_429_exhausted_is_rate_limited(fake_api: FakeAPI) -> None:
    fake_api.push(*(status(429, {"retry-after-ms": "5"}) for _ in range(3)))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.RATE_LIMITED and "429" in err.value.reason
    await p.aclose()


async def test_500_is_api_error(fake_api: FakeAPI) -> None:
    fake_api.push(*(status(500, {"retry-after-ms": "5"}, message="boom") for _ in range(3)))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.API and "HTTP 500" in err.value.reason and "boom" in err.value.reason
    await p.aclose()


async def test_500_then_success_is_retried(fake_api: FakeAPI) -> None:
    fake_api.push(status(500, {"retry-after-ms": "5"}), text_reply("ok"))
    p = provider(fake_api)
    assert (await p.complete(req(), timeout_s=10)).text == "ok"
    await p.aclose()


@pytest.mark.parametrize("body", [b"{not json", b"", b"[1, 2", b"<html>502 Bad Gateway</html>"])
async def test_malformed_200_is_malformed(fake_api: FakeAPI, body: bytes) -> None:
    fake_api.push(malformed(body))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert err.value.kind is ErrorKind.MALFORMED
    await p.aclose()


@pytest.mark.parametrize("body", [
    {"type": "message"},  # no content, no usage
    {"type": "message", "content": [{"type": "text"}], "usage": {"input_tokens": 1, "output_tokens": 1}},
    {"type": "message", "content": "just a string", "usage": {}},
    {"type": "message", "content": [{"type": "tool_use", "name": "Skill", "input": "x"}], "usage": {}},
])
async def test_200_missing_fields_is_malformed(fake_api: FakeAPI, body: dict) -> None:
    fake_api.push(malformed(json.dumps(body).encode()))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.MALFORMED
    await p.aclose()


async def test_schema_rejecting_endpoint_falls_back_to_prompt_only(fake_api: FakeAPI) -> None:
    fake_api.reject_output_config = True
    fake_api.push(text_reply('Sure! Here it is:\n```json\n{"score": 5}\n```\nHope that helps.'),
                  text_reply('{"score": 2}'))
    p = provider(fake_api)
    reply = await p.complete(req(json_schema=SCHEMA, effort="low"), timeout_s=10)
    assert reply.parsed == {"score": 5}
    first, second = fake_api.message_requests
    assert "output_config" in first.body and first.status == 400
    assert "output_config" not in second.body
    assert '"score"' in second.body["system"][-1]["text"] and "JSON" in second.body["system"][-1]["text"]
    assert second.body["system"][0]["cache_control"] == {"type": "ephemeral"}  # the cached prefix is kept
    assert p.prompt_only_json
    # remembered for this base URL: the next call goes straight to prompt-only JSON
    reply2 = await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert reply2.parsed == {"score": 2}
    assert len(fake_api.message_requests) == 3 and "output_config" not in fake_api.message_requests[2].body
    await p.aclose()


async def test_scripted_rejection_then_fallback(fake_api: FakeAPI) -> None:
    fake_api.push(reject_output_config(), json_reply({"score": 1}))
    p = provider(fake_api)
    assert (await p.complete(req(json_schema=SCHEMA), timeout_s=10)).parsed == {"score": 1}
    await p.aclose()


async def test_unrelated_400_is_not_a_fallback(fake_api: FakeAPI) -> None:
    fake_api.push(status(400, message="messages: roles must alternate"))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert err.value.kind is ErrorKind.API and "HTTP 400" in err.value.reason
    assert len(fake_api.message_requests) == 1 and not p.prompt_only_json
    await p.aclose()


async def test_slower_than_deadline_is_timeout_within_deadline(fake_api: FakeAPI) -> None:
    fake_api.push(slow(3.0))
    p = provider(fake_api)
    p.prepare()  # the first `import anthropic` is not what we time
    t0 = time.monotonic()
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=0.5)
    elapsed = time.monotonic() - t0
    assert err.value.kind is ErrorKind.TIMEOUT
    assert elapsed < 1.5
    await p.aclose()


async def test_long_retry_after_cannot_hang_us(fake_api: FakeAPI) -> None:
    fake_api.push(status(429, {"retry-after": "600"}), text_reply("never reached"))
    p = provider(fake_api)
    p.prepare()  # the first `import anthropic` is not what we time
    t0 = time.monotonic()
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=0.5)
    assert time.monotonic() - t0 < 1.5
    assert err.value.kind is ErrorKind.RATE_LIMITED, err.value.reason
    assert "retry after 600 s" in err.value.reason and "HTTP 429" in err.value.reason
    await p.aclose()


async def test_overloaded_past_deadline_says_why(fake_api: FakeAPI) -> None:
    fake_api.push(status(529, {"retry-after-ms": "5000"}))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=0.5)
    assert err.value.kind is ErrorKind.RATE_LIMITED and "retry after 5 s" in err.value.reason
    await p.aclose()


async def test_refusal(fake_api: FakeAPI) -> None:
    fake_api.push(Scripted(content=[{"type": "text", "text": ""}], stop_reason="refusal"))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert err.value.kind is ErrorKind.REFUSAL
    await p.aclose()


async def test_max_tokens_truncation(fake_api: FakeAPI) -> None:
    fake_api.push(Scripted(content=[{"type": "text", "text": '{"score": '}], stop_reason="max_tokens"))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert err.value.kind is ErrorKind.TRUNCATED
    await p.aclose()


async def test_unparseable_json_text_gives_parsed_none(fake_api: FakeAPI) -> None:
    fake_api.push(text_reply("I think it deserves a four."))
    p = provider(fake_api)
    reply = await p.complete(req(json_schema=SCHEMA), timeout_s=10)
    assert reply.parsed is None and reply.text == "I think it deserves a four."
    await p.aclose()


async def test_connection_refused(unused_tcp_port: int) -> None:
    p = AnthropicProvider(TEST_KEY, f"http://127.0.0.1:{unused_tcp_port}", max_retries=0)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.CONNECTION
    await p.aclose()


async def test_401_and_key_never_in_reason(fake_api: FakeAPI) -> None:
    fake_api.push(status(401, message=f"invalid x-api-key {TEST_KEY} (Bearer {TEST_KEY})"))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=10)
    assert err.value.kind is ErrorKind.API and "401" in err.value.reason
    assert TEST_KEY not in err.value.reason and TEST_KEY not in str(err.value) and TEST_KEY not in repr(p)
    await p.aclose()


async def test_cancel_mid_call(fake_api: FakeAPI) -> None:
    fake_api.push(slow(2.0))
    p = provider(fake_api)
    task = asyncio.create_task(p.complete(req(), timeout_s=10))
    await wait_for_requests(fake_api, 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await p.aclose()


def test_parse_json_text() -> None:
    assert parse_json_text('{"a": 1}') == (True, {"a": 1})
    assert parse_json_text('```json\n{"a": 1}\n```') == (True, {"a": 1})
    assert parse_json_text('Here:\n```\n[1, 2]\n```') == (True, [1, 2])
    assert parse_json_text('The answer is {"a": {"b": 2}} as requested.') == (True, {"a": {"b": 2}})
    assert parse_json_text("no json here") == (False, None)
    assert parse_json_text("") == (False, None)
    hostile = "{" * 100_000 + "```" + "[" * 100_000
    t0 = time.monotonic()
    assert parse_json_text(hostile)[0] is False
    assert time.monotonic() - t0 < 1.0


def test_redact() -> None:
    assert redact(f"key={TEST_KEY}!", TEST_KEY) == "key=[redacted]!"
    assert redact("Authorization: Bearer abc.def", None) == "Authorization: Bearer [redacted]"
    t0 = time.monotonic()
    redact("bearer " * 20_000, TEST_KEY)
    assert time.monotonic() - t0 < 1.0


async def test_count_tokens_and_thinking_passthrough(fake_api: FakeAPI) -> None:
    p = provider(fake_api)
    n = await p.count_tokens(req(), timeout_s=10)
    assert n == fake_api._input_tokens(fake_api.requests[0].body) and n > 0
    assert fake_api.requests[0].path == "/v1/messages/count_tokens"
    await p.complete(req(thinking={"type": "between_tools"}), timeout_s=10)
    assert fake_api.message_requests[0].body["thinking"] == {"type": "between_tools"}
    assert "output_config" not in fake_api.message_requests[0].body  # nothing asked for it
    await p.aclose()


async def test_provider_across_event_loops(fake_api: FakeAPI) -> None:
    """AsyncAnthropic binds to a loop: the provider makes a new client when the loop changes."""
    p = provider(fake_api)
    await p.complete(req(), timeout_s=10)
    loop_client = p._client

    def other_loop() -> str:
        return asyncio.run(p.complete(req(), timeout_s=10)).text

    text = await asyncio.to_thread(other_loop)
    assert text == "fake reply" and p._client is not loop_client
    await p.aclose()


async def test_slow_retry_after_a_429_is_a_timeout(fake_api: FakeAPI) -> None:
    """The retry itself is slow: the deadline passes while a reply is coming, so it is a timeout."""
    fake_api.push(status(429, {"retry-after-ms": "5"}), slow(3.0))
    p = provider(fake_api)
    with pytest.raises(LLMError) as err:
        await p.complete(req(), timeout_s=1.0)
    assert err.value.kind is ErrorKind.TIMEOUT, err.value.reason
    await p.aclose()


async def test_schema_specific_rejection_falls_back_once_without_remembering(fake_api: FakeAPI) -> None:
    fake_api.push(status(400, message="output_config.format.schema: 'patternProperties' is not allowed here"),
                  json_reply({"score": 2}), json_reply({"score": 3}))
    p = provider(fake_api)
    assert (await p.complete(req(json_schema=SCHEMA), timeout_s=10)).parsed == {"score": 2}
    assert not p.prompt_only_json  # one schema's problem, not the endpoint's
    assert (await p.complete(req(json_schema=SCHEMA), timeout_s=10)).parsed == {"score": 3}
    assert "output_config" in fake_api.message_requests[2].body
    await p.aclose()
