"""Gateway (cache, ledger, budget, dry run, deadline, concurrency, cancellation) on the real SDK + fake API."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest
from fakeapi import FakeAPI, json_reply, slow, status, text_reply
from test_provider import SCHEMA, req

from conftest import TEST_KEY, wait_for_requests
from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
from skillgrade.analyzers.llm.cache import Cache
from skillgrade.analyzers.llm.config import LLMConfig
from skillgrade.analyzers.llm.gateway import Gateway, estimate_request, summarize_estimates
from skillgrade.analyzers.llm.prices import load_prices
from skillgrade.analyzers.llm.setup import NO_KEY_MESSAGE, build_gateway
from skillgrade.analyzers.llm.types import ErrorKind, LLMError, Usage


def gateway(fake: FakeAPI, tmp_path: Path, **kw: object) -> Gateway:
    opts: dict[str, object] = {"cache": Cache(tmp_path / "cache"), "timeout_s": 10.0, "concurrency": 4}
    opts.update(kw)
    return Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=2), **opts)  # type: ignore[arg-type]


async def test_second_identical_call_is_cached(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(json_reply({"score": 4}))
    gw = gateway(fake_api, tmp_path)
    first = await gw.call(req(json_schema=SCHEMA))
    second = await gw.call(req(json_schema=SCHEMA))
    assert len(fake_api.message_requests) == 1
    assert not first.cached and second.cached and second.parsed == {"score": 4}
    assert gw.ledger.calls == 1 and gw.ledger.cached_calls == 1
    assert gw.ledger.entries[1].cost_usd == 0.0 and gw.ledger.entries[1].cached
    # a new gateway on the same cache dir (a re-run) makes zero HTTP requests
    gw2 = gateway(fake_api, tmp_path)
    third = await gw2.call(req(json_schema=SCHEMA))
    assert third.cached and third.parsed == {"score": 4} and len(fake_api.message_requests) == 1
    assert gw2.ledger.calls == 0 and gw2.ledger.cost_usd == 0.0
    # anything that changes the request is a different entry
    await gw2.call(req(json_schema=SCHEMA, cache_salt="judge-2"))
    assert len(fake_api.message_requests) == 2
    await gw.aclose()
    await gw2.aclose()


async def test_cache_key_depends_on_endpoint_not_key(fake_api: FakeAPI, tmp_path: Path) -> None:
    a = Gateway(AnthropicProvider("key-one", fake_api.url), cache=Cache(tmp_path))
    b = Gateway(AnthropicProvider("key-two", fake_api.url), cache=Cache(tmp_path))
    c = Gateway(AnthropicProvider("key-one", fake_api.url + "/other"), cache=Cache(tmp_path))
    r = req()
    assert a.key_for(r) == b.key_for(r) != c.key_for(r)


async def test_ledger_totals_equal_reported_usage(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path)
    fake_api.push(json_reply({"score": 1}), text_reply("hello there"), json_reply({"score": 5}))
    await gw.call(req(json_schema=SCHEMA))
    await gw.call(req(messages=({"role": "user", "content": "another"},)))
    await gw.call(req(json_schema=SCHEMA, cache_salt="2"))
    await gw.call(req(json_schema=SCHEMA))  # cached: not in the totals
    totals = gw.ledger.totals()
    for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
        assert totals[k] == sum(u[k] for u in fake_api.reported), k
    assert totals["cache_read_input_tokens"] > 0  # the marked system prefix was read back
    price = load_prices().get("claude-sonnet-5-5")
    assert price is not None
    expected = sum(price.cost(Usage(**u)) for u in fake_api.reported)
    assert gw.ledger.cost_usd == pytest.approx(expected)
    js = gw.ledger.to_json()
    assert js["calls"] == 3 and js["cached_calls"] == 1 and js["cost_usd"] == pytest.approx(expected, abs=1e-6)
    assert js["by_kind"]["judge"]["calls"] == 3
    await gw.aclose()


async def test_unknown_model_cost_is_unknown(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path)
    await gw.call(req(model="llama3.2:3b"))
    assert gw.ledger.unpriced_calls == 1 and gw.ledger.known_cost_usd is None
    assert gw.ledger.to_json()["cost_usd"] is None
    assert estimate_request(req(model="llama3.2:3b"), gw.prices).cost_usd is None
    await gw.aclose()


async def test_budget_stop_keeps_finished_results(fake_api: FakeAPI, tmp_path: Path) -> None:
    one = estimate_request(req(), load_prices()).cost_usd
    assert one is not None
    gw = gateway(fake_api, tmp_path, budget_usd=one * 1.5)
    first = await gw.call(req())  # actual cost is far below the estimate (max_tokens output not used)
    assert first.text == "fake reply"
    spent = gw.ledger.cost_usd
    assert 0 < spent < one
    # the next estimate would take us past the budget: not sent
    with pytest.raises(LLMError) as err:
        await gw.call(req(max_tokens=4096, cache_salt="x"))
    assert err.value.kind is ErrorKind.BUDGET and "budget" in err.value.reason.lower()
    assert len(fake_api.message_requests) == 1 and gw.ledger.calls == 1
    # a cached call is free and still allowed
    assert (await gw.call(req())).cached
    await gw.aclose()


async def test_budget_counts_calls_in_flight(fake_api: FakeAPI, tmp_path: Path) -> None:
    one = estimate_request(req(), load_prices()).cost_usd
    assert one is not None
    fake_api.push(*(slow(0.3) for _ in range(4)))
    gw = gateway(fake_api, tmp_path, budget_usd=one * 2.5, concurrency=4)
    results = await asyncio.gather(*(gw.call(req(cache_salt=str(i))) for i in range(4)), return_exceptions=True)
    sent = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, LLMError) and r.kind is ErrorKind.BUDGET]
    assert len(sent) == 2 and len(refused) == 2 and len(fake_api.message_requests) == 2
    await gw.aclose()


async def test_budget_with_unpriced_model_refuses(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path, budget_usd=1.0)
    with pytest.raises(LLMError) as err:
        await gw.call(req(model="mystery-model"))
    assert err.value.kind is ErrorKind.BUDGET and "No price" in err.value.reason
    assert not fake_api.requests
    await gw.aclose()


async def test_dry_run_estimates_without_calling(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(text_reply("warm"))
    warm = gateway(fake_api, tmp_path)
    await warm.call(req(cache_salt="cached-one"))
    gw = gateway(fake_api, tmp_path, dry_run=True)
    assert (await gw.call(req(cache_salt="cached-one"))).cached  # cached replies are still served
    for i in range(3):
        with pytest.raises(LLMError) as err:
            await gw.call(req(cache_salt=str(i), max_tokens=500))
        assert err.value.kind is ErrorKind.DRY_RUN
    assert len(fake_api.message_requests) == 1  # only the warm-up
    plan = gw.plan()
    assert plan["calls"] == 3 and plan["output_tokens"] == 1500
    assert plan["cost_usd"] == pytest.approx(3 * estimate_request(req(max_tokens=500), gw.prices).cost_usd)
    assert plan == summarize_estimates(estimate_request(req(cache_salt=str(i), max_tokens=500), gw.prices)
                                       for i in range(3))
    await warm.aclose()


def test_estimate_is_pure_and_sensible() -> None:
    prices = load_prices()
    text = "x" * 7000
    e = estimate_request(req(messages=({"role": "user", "content": text},), max_tokens=1000), prices)
    assert 2000 <= e.input_tokens <= 2020 and e.output_tokens == 1000
    assert e.cost_usd == pytest.approx((e.input_tokens * 2 + 1000 * 10) / 1e6)
    assert estimate_request(req(), prices) == estimate_request(req(), prices)


async def test_deadline_through_gateway(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(slow(3.0))
    gw = gateway(fake_api, tmp_path, timeout_s=0.5)
    gw.provider.prepare()  # type: ignore[attr-defined]
    t0 = time.monotonic()
    with pytest.raises(LLMError) as err:
        await gw.call(req())
    assert err.value.kind is ErrorKind.TIMEOUT and time.monotonic() - t0 < 1.5
    assert gw.failures == [("judge", ErrorKind.TIMEOUT)] and not gw.ledger.entries
    await gw.aclose()


async def test_cancel_mid_call_does_not_poison_cache(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(slow(2.0, json_reply({"score": 2})), json_reply({"score": 3}))
    gw = gateway(fake_api, tmp_path)
    task = asyncio.create_task(gw.call(req(json_schema=SCHEMA)))
    await wait_for_requests(fake_api, 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not list((tmp_path / "cache").rglob("*.json")) and not gw.ledger.entries
    assert gw._reserved == 0.0
    again = await gw.call(req(json_schema=SCHEMA))
    assert not again.cached and again.parsed == {"score": 3}
    await gw.aclose()


async def test_concurrency_is_bounded(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(*(slow(0.3) for _ in range(6)))
    gw = gateway(fake_api, tmp_path, concurrency=2)
    gw.provider.prepare()  # type: ignore[attr-defined]
    t0 = time.monotonic()
    await asyncio.gather(*(gw.call(req(cache_salt=str(i))) for i in range(6)))
    assert time.monotonic() - t0 >= 0.85  # 3 waves of 0.3 s
    await gw.aclose()


async def test_corrupt_cache_entry_is_a_miss(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path)
    await gw.call(req())
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.write_text("{truncated")
    again = await gw.call(req())
    assert not again.cached and len(fake_api.message_requests) == 2
    entry.write_text(json.dumps({"format": 1, "reply": {"text": 3}}))
    assert gw.cached_reply(req()) is None
    await gw.aclose()


async def test_forget_drops_entry(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path)
    await gw.call(req())
    assert gw.cached_reply(req()) is not None
    gw.forget(req())
    assert gw.cached_reply(req()) is None
    await gw.aclose()


async def test_key_never_in_errors_cache_or_logs(fake_api: FakeAPI, tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake_api.push(json_reply({"score": 4}), status(429, {"retry-after-ms": "5"}), text_reply("ok"),
                  *(status(500, {"retry-after-ms": "5"}, message=f"echo {TEST_KEY}") for _ in range(3)),
                  status(401, message=f"bad key {TEST_KEY}"))
    gw = gateway(fake_api, tmp_path)
    await gw.call(req(json_schema=SCHEMA))
    await gw.call(req(cache_salt="b"))
    texts = [repr(gw), repr(gw.provider), repr(gw.cache)]
    for salt in ("c", "d"):
        with pytest.raises(LLMError) as err:
            await gw.call(req(cache_salt=salt))
        texts += [str(err.value), err.value.reason, repr(err.value)]
    await gw.aclose()
    files = list((tmp_path / "cache").rglob("*"))
    assert any(f.suffix == ".json" for f in files)
    for f in files:
        if f.is_file():
            assert TEST_KEY not in f.read_text(), f
    assert caplog.records  # the SDK did log at DEBUG
    logged = "\n".join(r.getMessage() + (str(r.exc_info) if r.exc_info else "") for r in caplog.records)
    assert TEST_KEY not in logged
    for t in texts:
        assert TEST_KEY not in t


async def test_reply_containing_key_is_not_cached(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.push(text_reply(f"your key is {TEST_KEY}"))
    gw = gateway(fake_api, tmp_path)
    await gw.call(req())
    assert not list((tmp_path / "cache").rglob("*.json"))
    await gw.aclose()


def test_build_gateway_without_key_is_no_key() -> None:
    result = build_gateway(LLMConfig(), {})
    assert isinstance(result, LLMError) and result.kind is ErrorKind.NO_KEY
    assert result.reason == NO_KEY_MESSAGE and result.reason.count(".") == 1


def test_build_gateway_from_env(tmp_path: Path) -> None:
    env = {"ANTHROPIC_AUTH_TOKEN": TEST_KEY, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/", "XDG_CACHE_HOME": str(tmp_path)}
    gw = build_gateway(LLMConfig(base_url="http://elsewhere:1", budget_usd=2.0, concurrency=3, timeout_s=7), env)
    assert isinstance(gw, Gateway)
    assert gw.endpoint == "http://127.0.0.1:9" and gw.budget_usd == 2.0
    assert gw.concurrency == 3 and gw.timeout_s == 7 and not gw.dry_run
    assert gw.cache is not None and gw.cache.directory == tmp_path / "skillgrade" / "llm"
    assert TEST_KEY not in repr(gw)
    gw2 = build_gateway(LLMConfig(base_url="http://elsewhere:1", cache_dir=str(tmp_path / "c")),
                        {"ANTHROPIC_API_KEY": "k"}, no_cache=True, budget=0.25)
    assert isinstance(gw2, Gateway) and gw2.cache is None and gw2.budget_usd == 0.25
    assert gw2.endpoint == "http://elsewhere:1"
    gw3 = build_gateway(LLMConfig(cache_dir=str(tmp_path / "c")), {"ANTHROPIC_API_KEY": "k"})
    assert isinstance(gw3, Gateway) and gw3.cache is not None and gw3.cache.directory == tmp_path / "c"


async def test_dry_run_needs_no_key() -> None:
    gw = build_gateway(LLMConfig(), {}, dry_run=True, no_cache=True)
    assert isinstance(gw, Gateway)
    with pytest.raises(LLMError) as err:
        await gw.call(req())
    assert err.value.kind is ErrorKind.DRY_RUN and gw.plan()["calls"] == 1


async def test_fake_gateway_fixture_and_scripted_provider(fake_gateway: Gateway, fake_api: FakeAPI) -> None:
    from scripted import ScriptedProvider, reply

    fake_api.push(json_reply({"score": 5}))
    assert (await fake_gateway.call(req(json_schema=SCHEMA))).parsed == {"score": 5}
    sp = ScriptedProvider(lambda r: reply(text=r.kind, parsed={"ok": True}))
    gw = Gateway(sp, cache=None)
    got = await gw.call(req(kind="route"))
    assert got.text == "route" and len(sp.requests) == 1 and gw.ledger.calls == 1
    assert gw.ledger.cost_usd == pytest.approx((100 * 2 + 20 * 10) / 1e6)


def test_summary_lines() -> None:
    from skillgrade.analyzers.llm.gateway import format_plan
    from skillgrade.analyzers.llm.types import Ledger, LedgerEntry

    led = Ledger([LedgerEntry("judge", "m", Usage(1000, 200, 300, 4000), 0.0123, False, 1.0),
                  LedgerEntry("judge", "m", Usage(1000, 200), 0.0, True, 0.0)])
    assert led.summary() == ("LLM: 1 call(s), 1 cached; tokens in 1,000, out 200, cache write 300, "
                             "cache read 4,000; $0.0123")
    led.entries.append(LedgerEntry("route", "local", Usage(5, 5), 0.0, False, 0.1, priced=False))
    assert "cost unknown (1 call(s)" in led.summary() and led.to_json()["cost_usd"] is None
    assert format_plan({"calls": 3, "input_tokens": 12000, "output_tokens": 3000, "cost_usd": 0.5}) == (
        "Dry run: 3 call(s) would be made, about 12,000 input and at most 3,000 output tokens, up to $0.5000.")


async def test_placeholder_key_for_local_server_does_not_block_the_cache(fake_api: FakeAPI, tmp_path: Path) -> None:
    """ANTHROPIC_API_KEY=x for Ollama: replies containing the letter x are still cached."""
    fake_api.push(text_reply("x marks the spot"))
    gw = Gateway(AnthropicProvider("x", fake_api.url), cache=Cache(tmp_path))
    await gw.call(req())
    assert (await gw.call(req())).cached and len(fake_api.message_requests) == 1
    await gw.aclose()
