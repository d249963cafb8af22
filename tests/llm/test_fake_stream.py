"""The fake answers a "stream": true request with the Messages API's server-sent events (used by
benchmarks/pe_traffic.py, whose Claude Code CLI only streams), and its prompt cache expires as the API's does."""

from __future__ import annotations

import math

import anthropic
from fakeapi import FakeAPI, text_reply, tool_use

from conftest import TEST_KEY

SYSTEM = [{"type": "text", "text": "s" * 4000, "cache_control": {"type": "ephemeral"}}]
MESSAGES = [{"role": "user", "content": "hello there"}]
EXPECTED_INPUT = math.ceil((4000 + len("hello there")) / 4)


def client(fake: FakeAPI) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key=TEST_KEY, base_url=fake.url, max_retries=0)


def test_messages_stream_gives_the_scripted_text_and_the_fakes_usage() -> None:
    with FakeAPI() as fake:
        fake.push(text_reply("streamed answer, twice"), text_reply("again"))
        with client(fake).messages.stream(model="m", max_tokens=50, system=SYSTEM, messages=MESSAGES) as stream:
            deltas = list(stream.text_stream)
            final = stream.get_final_message()
        assert "".join(deltas) == "streamed answer, twice"
        assert final.content[0].text == "streamed answer, twice" and final.stop_reason == "end_turn"
        assert final.usage.input_tokens == EXPECTED_INPUT - 1000
        assert (final.usage.cache_creation_input_tokens, final.usage.cache_read_input_tokens) == (1000, 0)
        assert final.usage.output_tokens == math.ceil(len("streamed answer, twice") / 4)
        assert fake.requests[-1].body["stream"] is True and fake.requests[-1].usage == final.usage.model_dump(
            include={"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"})
        second = client(fake).messages.create(model="m", max_tokens=50, system=SYSTEM, messages=MESSAGES,
                                              stream=True)
        events = list(second)
        assert [e.type for e in events] == ["message_start", "content_block_start", "content_block_delta",
                                            "content_block_stop", "message_delta", "message_stop"]
        start, delta = events[0], events[4]
        assert start.message.usage.cache_read_input_tokens == 1000 and start.message.content == []
        assert delta.delta.stop_reason == "end_turn" and delta.usage.output_tokens == 2
        assert events[2].delta.text == "again"


def test_a_streamed_tool_use_arrives_whole() -> None:
    with FakeAPI() as fake:
        fake.push(tool_use("Skill", {"skill": "pdf-tools"}, text="loading"))
        with client(fake).messages.stream(model="m", max_tokens=50, messages=MESSAGES) as stream:
            final = stream.get_final_message()
        assert final.stop_reason == "tool_use"
        assert final.content[0].text == "loading"
        assert (final.content[1].name, final.content[1].input) == ("Skill", {"skill": "pdf-tools"})


def test_an_error_status_is_a_plain_json_error_even_when_streaming() -> None:
    from fakeapi import status

    with FakeAPI() as fake:
        fake.push(status(529))
        try:
            client(fake).messages.create(model="m", max_tokens=5, messages=MESSAGES, stream=True)
        except anthropic.APIStatusError as e:
            assert e.status_code == 529
        else:
            raise AssertionError("a 529 was not raised")


def test_a_cached_prefix_expires_after_the_ttl_unless_read_again() -> None:
    import time

    def cache(fake: FakeAPI) -> tuple[int, int]:
        u = client(fake).messages.create(model="m", max_tokens=5, system=SYSTEM, messages=MESSAGES).usage
        return u.cache_creation_input_tokens or 0, u.cache_read_input_tokens or 0

    with FakeAPI(cache_ttl_s=0.6) as fake:
        assert cache(fake) == (1000, 0)
        time.sleep(0.35)
        assert cache(fake) == (0, 1000)  # read within the TTL: refreshed
        time.sleep(0.35)
        assert cache(fake) == (0, 1000)  # 0.7 s after the write, 0.35 s after the read: still cached
        time.sleep(0.8)
        assert cache(fake) == (1000, 0)  # unused for longer than the TTL: written again
