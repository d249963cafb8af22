"""The fake's prompt-cache accounting as the API bills it (used by benchmarks/mc_bench.py): tools head the
cached prefix, and a prefix under the model's minimum is neither written nor read."""

from __future__ import annotations

import math

from fakeapi import FakeAPI

from conftest import TEST_KEY

TOOLS = [{"name": "Skill", "description": "Load a skill.", "input_schema": {"type": "object"}}]


def send(fake: FakeAPI, system_chars: int) -> dict[str, int]:
    import anthropic

    client = anthropic.Anthropic(api_key=TEST_KEY, base_url=fake.url, max_retries=0)
    msg = client.messages.create(model="claude-haiku-5-5", max_tokens=10, tools=TOOLS,
                                 system=[{"type": "text", "text": "s" * system_chars,
                                          "cache_control": {"type": "ephemeral"}}],
                                 messages=[{"role": "user", "content": "hello"}])
    return msg.usage.model_dump()


def test_tools_head_the_cached_prefix_and_short_prefixes_are_not_cached() -> None:
    import json

    tools_tokens = math.ceil(len(json.dumps(TOOLS[0])) / 4)
    with FakeAPI(tools_in_prefix=True, min_cache_tokens=512) as fake:
        first, second = send(fake, 4000), send(fake, 4000)
        assert first["cache_creation_input_tokens"] == math.ceil((4000 + len(json.dumps(TOOLS[0]))) / 4)
        assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"] > 1000 + tools_tokens - 1
        assert second["input_tokens"] <= 2  # "hello": only the user turn is new (ceil of the total, less the prefix)
        small = [send(fake, 400), send(fake, 400)]  # ~110 tokens with the tools: under the minimum
        assert all(u["cache_creation_input_tokens"] == u["cache_read_input_tokens"] == 0 for u in small)
    with FakeAPI() as fake:  # the default fake: the system blocks alone, any length
        send(fake, 4000)
        assert send(fake, 4000)["cache_read_input_tokens"] == 1000


def test_every_breakpoint_lets_a_longer_system_read_a_shorter_ones_prefix() -> None:
    import anthropic

    a, b, c = ({"type": "text", "text": ch * 4000, "cache_control": {"type": "ephemeral"}} for ch in "abc")
    with FakeAPI(every_breakpoint=True) as fake:
        client = anthropic.Anthropic(api_key=TEST_KEY, base_url=fake.url, max_retries=0)
        msgs = [{"role": "user", "content": "hi"}]
        first = client.messages.create(model="m", max_tokens=5, system=[a, b], messages=msgs).usage
        longer = client.messages.create(model="m", max_tokens=5, system=[a, b, c], messages=msgs).usage
        assert (first.cache_creation_input_tokens, first.cache_read_input_tokens) == (2000, 0)
        assert (longer.cache_creation_input_tokens, longer.cache_read_input_tokens) == (1000, 2000)
    with FakeAPI() as fake:  # the default: only the last breakpoint is a prefix
        client = anthropic.Anthropic(api_key=TEST_KEY, base_url=fake.url, max_retries=0)
        client.messages.create(model="m", max_tokens=5, system=[a, b], messages=msgs)
        longer = client.messages.create(model="m", max_tokens=5, system=[a, b, c], messages=msgs).usage
        assert (longer.cache_creation_input_tokens, longer.cache_read_input_tokens) == (3000, 0)
