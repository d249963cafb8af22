"""--batch: the judge's calls go through the Message Batches API (tests/llm/fakeapi.py speaks it) on the real
anthropic SDK: one batch per round, the same results as a live run, the ledger at the batch price, resume after
an interruption without a second create for the same items, errored/expired items re-run live, a budget stop
before submitting, a re-run from the cache with no call, and the API key in no state or cache file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fakeapi import FakeAPI
from judge_script import make_skill
from test_judge_sdk import MODELS, _dimension, responder

from conftest import TEST_KEY
from skillgrade.analyzers.layers.judge import run_judge
from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
from skillgrade.analyzers.llm.batches import BatchProgress, BatchRunner, BatchState, batch_status
from skillgrade.analyzers.llm.cache import Cache
from skillgrade.analyzers.llm.gateway import Gateway
from skillgrade.analyzers.llm.prices import load_prices
from skillgrade.analyzers.llm.types import ErrorKind, LLMError, Request, Usage

ROUNDS = [1, 2, 17, 1]  # prompt writer; first rubric + first route; the rest; the triggering verdict


def batch_gateway(fake: FakeAPI, cache_dir: Path, *, progress: Any = None, **kw: Any) -> Gateway:
    provider = AnthropicProvider(TEST_KEY, fake.url, max_retries=0)
    runner_kw = {"quiet_s": 0.05, "poll_s": 0.01, "poll_max_s": 0.02}
    runner_kw.update({k: kw.pop(k) for k in list(kw) if k in ("quiet_s", "poll_s", "deadline_s", "max_items")})
    runner = BatchRunner(provider, state=BatchState(cache_dir / "batches.json"), progress=progress, **runner_kw)
    return Gateway(provider, cache=Cache(cache_dir), timeout_s=10.0, batches=runner, **kw)


def live_gateway(fake: FakeAPI, cache_dir: Path) -> Gateway:
    return Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=0), cache=Cache(cache_dir), timeout_s=10.0)


def batch_cost(usages: list[dict[str, int]], model_of: list[str], *, batch: bool = True) -> float:
    prices = load_prices()
    return sum(prices.cost(m, Usage(**{k: u[k] for k in ("input_tokens", "output_tokens",
                                                          "cache_creation_input_tokens", "cache_read_input_tokens")}),
                           batch=batch) or 0.0 for u, m in zip(usages, model_of, strict=True))


def custom_ids(fake: FakeAPI) -> list[str]:
    return [r["custom_id"] for c in fake.batch_creates for r in c.body["requests"]]


async def test_a_batch_run_is_one_batch_per_round_equal_to_live_at_the_batch_price(tmp_path: Path) -> None:
    doc = make_skill(tmp_path)
    with FakeAPI() as live_api:
        live_api.responder = responder()
        live = live_gateway(live_api, tmp_path / "live")
        expected = await run_judge(doc, live, models=MODELS)
        await live.aclose()
    seen: list[BatchProgress] = []
    with FakeAPI() as fake:
        fake.responder = responder()
        fake.batch_polls = 3
        gw = batch_gateway(fake, tmp_path / "cache", progress=seen.append)
        res = await run_judge(doc, gw, models=MODELS)
        await gw.aclose()
        assert fake.message_requests == []  # nothing went live
        assert [len(c.body["requests"]) for c in fake.batch_creates] == ROUNDS
        ids = custom_ids(fake)
        assert len(ids) == len(set(ids)) == 21 and all(len(i) == 64 for i in ids)
        # the items are the requests a live run sends (params = /v1/messages body)
        assert sorted(json.dumps(p, sort_keys=True) for p in fake.batch_items) == sorted(
            json.dumps({k: v for k, v in r.body.items()}, sort_keys=True) for r in live_api.message_requests)
        assert res.scores() == expected.scores() and res.unmeasured == expected.unmeasured == {}
        # the ledger: every call via a batch, at half the price of the same usage
        led = gw.ledger
        assert led.calls == 21 and all(e.via == "batch" for e in led.entries)
        models = [p["model"] for p in fake.batch_items]
        assert led.cost_usd == pytest.approx(batch_cost(fake.reported, models), rel=1e-12)
        assert led.cost_usd == pytest.approx(0.5 * batch_cost(fake.reported, models, batch=False), rel=1e-12)
        summary = led.to_json()["batch"]
        assert summary == {"batches": [f"msgbatch_fake_{i:04d}" for i in range(1, 5)], "batch_calls": 21,
                           "batch_cost_usd": round(led.cost_usd, 6), "live_reruns": 0, "rerun_cost_usd": 0}
        assert "21 via 4 batch(es) at the batch price" in led.summary()
        # progress: submitted, then polls (in_progress twice), then ended, per batch
        first = [p for p in seen if p.batch_id == "msgbatch_fake_0001"]
        assert [p.status for p in first] == ["submitted", "in_progress", "in_progress", "ended"]
        assert first[-1].line().startswith("batch msgbatch_fake_0001: 1/1 ended")
        third = [p for p in seen if p.batch_id == "msgbatch_fake_0003"]
        assert third[1].line().startswith("batch msgbatch_fake_0003: 0/17 done")
        # the state file is gone once every result is cached; a re-run makes no request at all
        assert not (tmp_path / "cache" / "batches.json").exists()
        n = len(fake.requests)
        again_gw = batch_gateway(fake, tmp_path / "cache")
        again = await run_judge(doc, again_gw, models=MODELS)
        await again_gw.aclose()
        assert len(fake.requests) == n and again_gw.ledger.calls == 0 and again_gw.ledger.cached_calls == 21
        assert again.scores() == res.scores()


async def test_interrupted_run_resumes_its_batches_instead_of_paying_twice(tmp_path: Path) -> None:
    doc = make_skill(tmp_path)
    cache = tmp_path / "cache"
    with FakeAPI() as fake:
        fake.responder = responder()
        fake.batch_polls = 10**6  # nothing ends until the test says so
        gw = batch_gateway(fake, cache)
        run = asyncio.create_task(run_judge(doc, gw, models=MODELS))
        for want in (1, 2):  # let round 1 end; interrupt while round 2's batch is running
            while len(fake.batch_creates) < want:
                await asyncio.sleep(0.01)
            if want == 1:
                next(iter(fake.batches.values())).polls = 0
        await asyncio.sleep(0.05)  # a few polls of batch 2
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        await gw.aclose()
        state = json.loads((cache / "batches.json").read_text())
        second = fake.batch_creates[1].body["requests"]
        assert set(state["items"]) == {r["custom_id"] for r in second}
        assert set(state["batches"]) == {"msgbatch_fake_0002"}
        assert TEST_KEY not in (cache / "batches.json").read_text()
        # the batch ends while nobody is watching; the resumed run collects it and submits only what is new
        fake.batches["msgbatch_fake_0002"].polls = 0
        fake.batch_polls = 1
        seen: list[BatchProgress] = []
        gw2 = batch_gateway(fake, cache, progress=seen.append)
        res = await run_judge(doc, gw2, models=MODELS)
        await gw2.aclose()
        ids = custom_ids(fake)
        assert len(ids) == len(set(ids)) == 21  # no item was submitted twice
        assert [len(c.body["requests"]) for c in fake.batch_creates] == ROUNDS
        assert fake.message_requests == []
        assert res.unmeasured == {} and res.dimensions["triggering_accuracy"].score == 1.0
        assert any(p.status == "resumed" and p.batch_id == "msgbatch_fake_0002" for p in seen)
        # the resumed run's ledger: round 1 from the cache, round 2 collected, rounds 3-4 submitted
        assert gw2.ledger.cached_calls == 1 and gw2.ledger.calls == 20
        assert gw2.ledger.batch_ids == ["msgbatch_fake_0002", "msgbatch_fake_0003", "msgbatch_fake_0004"]
        assert not (cache / "batches.json").exists()
        for f in cache.rglob("*"):
            if f.is_file():
                assert TEST_KEY.encode() not in f.read_bytes()


async def test_errored_expired_and_canceled_items_are_rerun_live(fake_api: FakeAPI, tmp_path: Path) -> None:
    outcomes = {"robustness": "errored", "scope_calibration": "expired", "token_efficiency": "canceled"}
    fake_api.responder = responder()
    fake_api.batch_outcome = lambda params: outcomes.get(_dimension(params) or "")
    doc = make_skill(tmp_path)
    gw = batch_gateway(fake_api, tmp_path / "cache")
    res = await run_judge(doc, gw, models=MODELS)
    await gw.aclose()
    assert res.unmeasured == {} and res.dimensions["robustness"].score == 0.85
    live = fake_api.message_requests
    assert sorted(_dimension(r.body) or "" for r in live) == sorted(outcomes)
    summary = gw.ledger.to_json()["batch"]
    assert summary["batch_calls"] == 18 and summary["live_reruns"] == 3
    reruns = [e for e in gw.ledger.entries if e.via == "rerun"]
    assert summary["rerun_cost_usd"] == pytest.approx(round(sum(e.cost_usd for e in reruns), 6))
    # a re-run is charged the live price: the same usage at batch_factor 1
    assert [e.cost_usd for e in reruns] == pytest.approx(
        [load_prices().cost(e.model, e.usage) for e in reruns], rel=1e-12)


async def test_budget_stops_a_batch_before_it_is_submitted(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.responder = responder()
    doc = make_skill(tmp_path)
    gw = batch_gateway(fake_api, tmp_path / "cache", budget_usd=0.0001)
    res = await run_judge(doc, gw, models=MODELS)
    await gw.aclose()
    assert fake_api.requests == []  # no create, no call
    assert set(res.unmeasured) == set(res.dimensions)
    assert all("budget" in r.lower() and "batch" in r.lower() and "not submitted" in r for r in res.unmeasured.values())
    assert gw.ledger.calls == 0 and not (tmp_path / "cache" / "batches.json").exists()


async def test_a_batch_within_budget_goes_and_the_estimate_uses_the_batch_price(fake_api: FakeAPI,
                                                                                tmp_path: Path) -> None:
    fake_api.responder = responder()
    doc = make_skill(tmp_path)
    gw = batch_gateway(fake_api, tmp_path / "cache", budget_usd=5.0)
    req = Request("judge", "claude-sonnet-5-5", ({"type": "text", "text": "x" * 700},), ({"role": "user", "content": "y"},),
                  max_tokens=1000)
    assert gw.estimate(req).cost_usd == pytest.approx(0.5 * live_gateway(fake_api, tmp_path).estimate(req).cost_usd)
    res = await run_judge(doc, gw, models=MODELS)
    await gw.aclose()
    assert res.unmeasured == {} and len(fake_api.batch_creates) == 4
    assert gw._reserved == pytest.approx(0.0, abs=1e-12)  # every reservation released


async def test_a_deadline_leaves_the_batch_running_and_a_later_run_collects_it(fake_api: FakeAPI,
                                                                              tmp_path: Path) -> None:
    fake_api.batch_polls = 10**6
    req = Request("judge", "claude-sonnet-5-5", (), ({"role": "user", "content": "hello"},), max_tokens=50)
    gw = batch_gateway(fake_api, tmp_path / "cache", deadline_s=0.1)
    with pytest.raises(LLMError) as err:
        await gw.call(req)
    await gw.aclose()
    assert err.value.kind == ErrorKind.TIMEOUT and "msgbatch_fake_0001" in err.value.reason
    assert "nothing is submitted twice" in err.value.reason
    assert BatchState(tmp_path / "cache" / "batches.json").batch_of(gw.key_for(req)) == "msgbatch_fake_0001"
    fake_api.batches["msgbatch_fake_0001"].polls = 0
    gw2 = batch_gateway(fake_api, tmp_path / "cache")
    reply = await gw2.call(req)
    await gw2.aclose()
    assert reply.text == "fake reply" and len(fake_api.batch_creates) == 1
    assert gw2.ledger.batch_ids == ["msgbatch_fake_0001"] and gw2.ledger.entries[0].via == "batch"


async def test_an_unknown_batch_in_the_state_is_submitted_again(fake_api: FakeAPI, tmp_path: Path) -> None:
    req = Request("judge", "claude-sonnet-5-5", (), ({"role": "user", "content": "hello"},), max_tokens=50)
    gw = batch_gateway(fake_api, tmp_path / "cache")
    BatchState(tmp_path / "cache" / "batches.json").add("msgbatch_gone", [(gw.key_for(req), "judge")])
    reply = await gw.call(req)
    await gw.aclose()
    assert reply.text == "fake reply" and len(fake_api.batch_creates) == 1
    assert any(r.path == "/v1/messages/batches/msgbatch_gone" and r.status == 404 for r in fake_api.requests)
    assert not (tmp_path / "cache" / "batches.json").exists()


async def test_identical_concurrent_calls_are_one_item_and_max_items_splits(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = batch_gateway(fake_api, tmp_path / "cache", max_items=3)
    reqs = [Request("route", "claude-haiku-5-5", (), ({"role": "user", "content": f"p{i % 4}"},), max_tokens=20)
            for i in range(8)]
    replies = await asyncio.gather(*(gw.call(r) for r in reqs))
    await gw.aclose()
    assert sorted(len(c.body["requests"]) for c in fake_api.batch_creates) == [1, 3]  # 4 distinct requests
    assert [r.cached for r in replies].count(False) == 4 and gw.ledger.calls == 4 and gw.ledger.cached_calls == 4


async def test_a_rejected_create_leaves_the_calls_unmeasured_with_the_reason(fake_api: FakeAPI, tmp_path: Path) -> None:
    req = Request("judge", "claude-sonnet-5-5", (), ({"role": "user", "content": "hello"},), max_tokens=50,
                  )
    gw = batch_gateway(fake_api, tmp_path / "cache")
    gw.batches.provider.create_batch = _failing_create  # type: ignore[union-attr]
    with pytest.raises(LLMError) as err:
        await gw.call(req)
    await gw.aclose()
    assert err.value.reason.startswith("The batch was not submitted: ") and gw._reserved == 0


async def _failing_create(items: Any, *, timeout_s: float) -> Any:
    raise LLMError(ErrorKind.API, "http://127.0.0.1 answered HTTP 413: request_too_large.")


def test_batch_status_and_progress_line() -> None:
    s = batch_status({"id": "msgbatch_x", "processing_status": "in_progress",
                      "request_counts": {"processing": 280, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}})
    assert s.total == 280 and not s.ended
    p = BatchProgress("msgbatch_x", "in_progress", 400, 280, 110, 6, 0, 4, 75.4)
    assert p.done == 120 and p.line() == "batch msgbatch_x: 120/400 done, 6 errored, 4 expired (75 s)"
    with pytest.raises(LLMError):
        batch_status({"processing_status": "ended"})


def test_batch_prices_are_half_of_every_token_class() -> None:
    prices = load_prices()
    u = Usage(1_000_000, 1_000_000, 1_000_000, 1_000_000)
    assert prices.cost("claude-sonnet-5-5", u) == pytest.approx(2.0 + 10.0 + 2.5 + 0.2)
    assert prices.cost("claude-sonnet-5-5", u, batch=True) == pytest.approx((2.0 + 10.0 + 2.5 + 0.2) / 2)
    assert prices.cost("no-such-model", u, batch=True) is None


# -- the CLI: `skillgrade judge --batch` on a tree of skills ---------------------------------------------

def _tree(tmp: Path) -> Path:
    from judge_script import SKILL

    tree = tmp / "skills"
    for name in ("pdf-a", "pdf-b", "pdf-c"):
        make_skill(tree / name, SKILL.replace("name: pdf-tools", f"name: {name}"))
    (tmp / ".skillgrade.toml").write_text("[llm]\nbatch-poll-s = 0.01\n")
    return tree


def _cli_env(fake: FakeAPI, xdg: Path) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env.update(XDG_CACHE_HOME=str(xdg), ANTHROPIC_CONFIG_DIR="/nonexistent-anthropic-config",
               ANTHROPIC_BASE_URL=fake.url, ANTHROPIC_API_KEY=TEST_KEY)
    return env


def _cli(fake: FakeAPI, tmp: Path, xdg: Path, *args: str) -> Any:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], env=_cli_env(fake, xdg), cwd=tmp,
                          capture_output=True, text=True, timeout=120)


def test_cli_batch_on_a_tree_is_one_batch_per_round_with_the_live_results(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    with FakeAPI() as live_api:
        live_api.responder = responder()
        live = _cli(live_api, tmp_path, tmp_path / "xdg-live", "judge", str(tree), "--format", "json")
    assert live.returncode == 0, live.stderr
    with FakeAPI() as fake:
        fake.responder = responder()
        p = _cli(fake, tmp_path, tmp_path / "xdg", "judge", str(tree), "--batch", "--format", "json")
        assert p.returncode == 0, p.stderr
        assert fake.message_requests == []
        assert [len(c.body["requests"]) for c in fake.batch_creates] == [3 * n for n in ROUNDS]
        out, want = json.loads(p.stdout), json.loads(live.stdout)
        assert [r["composite"]["score"] for r in out["skills"]] == [r["composite"]["score"] for r in want["skills"]]
        led = out["ledger"]
        assert led["calls"] == 63 and led["batch"]["batch_calls"] == 63 and led["batch"]["live_reruns"] == 0
        assert led["cost_usd"] == pytest.approx(0.5 * want["ledger"]["cost_usd"], rel=0.02)
        assert led["batch"]["batches"] == [f"msgbatch_fake_{i:04d}" for i in range(1, 5)]
        assert "batch msgbatch_fake_0001: submitted, 3 request(s)" in p.stderr
        assert "batch msgbatch_fake_0003: 51/51 ended" in p.stderr
        text = _cli(fake, tmp_path, tmp_path / "xdg", "judge", str(tree), "--batch")
        assert text.returncode == 0 and len(fake.batch_creates) == 4  # the re-run: every reply cached
        assert text.stderr.strip().splitlines()[-1].startswith("LLM: 0 call(s), 63 cached")
        dry = _cli(fake, tmp_path, tmp_path / "xdg-dry", "judge", str(tree), "--batch", "--dry-run")
        assert dry.returncode == 0 and dry.stdout.startswith("Dry run: 63 call(s) would be made")
        assert dry.stdout.rstrip().endswith(", at the Message Batches price.") and len(fake.batch_creates) == 4
        for t in (p.stdout, p.stderr, text.stdout, text.stderr):
            assert TEST_KEY not in t


def test_cli_interrupted_after_submit_resumes_without_a_second_create(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    tree = _tree(tmp_path)
    xdg = tmp_path / "xdg"
    with FakeAPI() as fake:
        fake.responder = responder()
        fake.batch_polls = 10**6
        proc = subprocess.Popen([sys.executable, "-m", "skillgrade.server.cli", "judge", str(tree), "--batch",
                                 "--format", "json"], env=_cli_env(fake, xdg), cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while len(fake.batch_creates) < 2:
                assert time.monotonic() < deadline and proc.poll() is None, "the CLI never submitted"
                if len(fake.batch_creates) == 1:
                    next(iter(fake.batches.values())).polls = 0
                time.sleep(0.01)
            time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGINT)  # Ctrl-C
            _out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130
        assert "interrupted; 1 batch(es) keep running on the server (msgbatch_fake_0002)" in err
        state = json.loads((xdg / "skillgrade" / "llm" / "batches.json").read_text())
        assert set(state["batches"]) == {"msgbatch_fake_0002"} and len(state["items"]) == 6
        for b in fake.batches.values():
            b.polls = 0
        fake.batch_polls = 1
        p = _cli(fake, tmp_path, xdg, "judge", str(tree), "--batch", "--format", "json")
        assert p.returncode == 0, p.stderr
        ids = custom_ids(fake)
        assert len(ids) == len(set(ids)) == 63  # nothing paid twice
        assert "batch msgbatch_fake_0002: resumed" in p.stderr
        assert json.loads(p.stdout)["ledger"]["batch"]["batches"][0] == "msgbatch_fake_0002"
        assert not (xdg / "skillgrade" / "llm" / "batches.json").exists()


def test_batch_config_keys() -> None:
    from skillgrade.analyzers.llm.config import LLMConfig, LLMConfigError, parse_llm_config

    assert (LLMConfig().batch_poll_s, LLMConfig().batch_timeout_s) == (30.0, 90000.0)
    cfg = parse_llm_config({"batch-poll-s": 5, "batchTimeoutS": 600})
    assert (cfg.batch_poll_s, cfg.batch_timeout_s) == (5.0, 600.0)
    for bad in (0, -1, "soon", True):
        with pytest.raises(LLMConfigError):
            parse_llm_config({"batch-poll-s": bad})


def test_build_gateway_batch_mode_keeps_its_state_beside_the_cache(tmp_path: Path) -> None:
    from skillgrade.analyzers.llm.config import LLMConfig
    from skillgrade.analyzers.llm.setup import build_gateway

    llm = LLMConfig(cache_dir=str(tmp_path / "c"), batch_poll_s=2.0, batch_timeout_s=60.0)
    gw = build_gateway(llm, {"ANTHROPIC_API_KEY": TEST_KEY}, batch=True, no_cache=True)
    assert isinstance(gw, Gateway) and gw.batches is not None and gw.cache is None
    assert gw.batches.state is not None and gw.batches.state.path == tmp_path / "c" / "batches.json"
    assert (gw.batches.poll_s, gw.batches.poll_max_s, gw.batches.deadline_s) == (2.0, 8.0, 60.0)
    assert TEST_KEY not in repr(gw)
    plain = build_gateway(llm, {"ANTHROPIC_API_KEY": TEST_KEY})
    assert isinstance(plain, Gateway) and plain.batches is None


def test_batch_state_file_is_atomic_json_and_an_unreadable_one_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "batches.json"
    path.write_text("{not json")
    st = BatchState(path)
    assert st.batch_of("k1") is None and st.batches == {}
    st.add("msgbatch_1", [("k1", "judge"), ("k2", "route")])
    again = BatchState(path)
    assert again.batch_of("k2") == "msgbatch_1" and again.keys_of("msgbatch_1") == ["k1", "k2"]
    again.remove(["k1"])
    assert set(BatchState(path).batches) == {"msgbatch_1"}
    again.remove(["k2"])
    assert not path.exists()  # nothing left to resume: no file
    assert [p.name for p in tmp_path.iterdir()] == []  # no temporary file left behind


async def test_cancel_on_the_sdk_gives_canceled_items(fake_api: FakeAPI) -> None:
    fake_api.batch_polls = 10**6
    provider = AnthropicProvider(TEST_KEY, fake_api.url, max_retries=0)
    reqs = {f"k{i}": Request("route", "claude-haiku-5-5", (), ({"role": "user", "content": f"p{i}"},), max_tokens=20)
            for i in range(3)}
    created = await provider.create_batch(list(reqs.items()), timeout_s=5)
    assert (created.processing_status, created.processing, created.total) == ("in_progress", 3, 3)
    canceling = await provider.cancel_batch(created.id, timeout_s=5)
    assert canceling.processing_status == "canceling"
    ended = await provider.retrieve_batch(created.id, timeout_s=5)
    assert ended.ended and ended.canceled == 3
    items = await provider.batch_results(created.id, reqs, timeout_s=5)
    assert sorted((i.custom_id, i.outcome) for i in items) == [("k0", "canceled"), ("k1", "canceled"), ("k2", "canceled")]
    await provider.aclose()


async def test_a_cancelled_poll_stays_cancelled_when_its_deadline_passes_too() -> None:
    """Ctrl-C as a batch call's deadline passes: Python 3.11's timeout reports a TimeoutError, which the poll
    loop would retry as a failed poll (the CLI then never stopped). A pending cancellation wins; a deadline
    alone is still a TIMEOUT error."""
    from skillgrade.analyzers.llm.types import LLMError

    with FakeAPI() as fake:
        provider = AnthropicProvider(TEST_KEY, fake.url, max_retries=0)

        async def cancelled_then_late() -> None:
            asyncio.current_task().cancel()  # the Ctrl-C, not yet delivered
            raise TimeoutError

        async def late() -> None:
            raise TimeoutError

        poll = asyncio.ensure_future(provider._batch_call("poll", cancelled_then_late, 1.0))  # its own task
        with pytest.raises(asyncio.CancelledError):
            await poll
        assert poll.cancelled()
        with pytest.raises(LLMError, match="did not answer the batch poll"):
            await provider._batch_call("poll", late, 1.0)
        await provider.aclose()
