"""The loop on the fake Messages API (real SDK, real gateway): the scripted router decides by word overlap."""

from __future__ import annotations

import json

import pytest
from opt_script import GOOD, ME, ORIGINAL, SKILL, OptResponder, Overfit, routes, rows

from skillgrade.analyzers.mc_prompts import PromptSet, parse_prompt_rows
from skillgrade.analyzers.optimize.loop import run_optimize
from skillgrade.analyzers.optimize.split import stratified_split
from skillgrade.analyzers.parse import parse

PROMPTS = PromptSet(tuple(parse_prompt_rows(rows())), "file", "test")
N = len(PROMPTS.prompts)


def doc():
    return parse(SKILL)


def test_script_preconditions():
    split = stratified_split(PROMPTS.prompts, 0.4, seed=42)
    test_pos = [p.prompt for p in split.test if p.should_trigger]
    orig = sum(routes(p, ORIGINAL) for p in test_pos)
    good = sum(routes(p, GOOD) for p in test_pos)
    assert good > orig >= 1  # the rewrite helps on test, the original passes some of them
    assert not any(routes(p.prompt, GOOD) or routes(p.prompt, ORIGINAL) for p in PROMPTS.negatives)
    assert [p.prompt for p in split.test if not p.should_trigger and p.prompt.startswith(("merge", "make slides"))]


def _improver_texts(responder: OptResponder) -> list[str]:
    return [json.dumps(b, ensure_ascii=False) for b in responder.improver_requests]


def _no_test_prompt_leaked(responder: OptResponder, result) -> None:
    blobs = _improver_texts(responder)
    assert blobs
    for p in result.split.test:
        for blob in blobs:
            assert p.prompt.lower() not in blob.lower()


async def test_helpful_rewrite_is_chosen_by_the_test_split(fake_api, fake_gateway):
    responder = OptResponder()
    fake_api.responder = responder
    progress = []
    result = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, iterations=5, holdout=0.4, runs=3,
                                progress=lambda w, d, p: progress.append((w, d, p)))
    assert result.stop_reason == "train_perfect" and len(result.attempts) == 2
    assert result.winner == 1 and result.improved == GOOD and result.choosing_split == "test"
    a0, a1 = result.attempts
    assert a1.test.passed > a0.test.passed and a1.test.passed == a1.test.n
    assert result.paired is not None and result.paired.split == "test" and result.paired.lost == 0
    assert result.paired.gained == a1.test.passed - a0.test.passed
    assert len(responder.improver_requests) == 1
    _no_test_prompt_leaked(responder, result)
    # the improver saw the train misses, and only train prompts
    text = _improver_texts(responder)[0]
    for p in result.split.train:
        if p.should_trigger and not routes(p.prompt, ORIGINAL):
            assert p.prompt in text
    assert responder.route_requests == 2 * N * 3
    assert progress[-1][1] == 2 * N * 3 + 1
    d = result.to_dict()
    assert d["winner"] == 2 and d["attempts"][1]["prompts"][0]["decisions"] and d["chosen_by"] == "test"
    # a re-run with the same inputs is served from the cache: no call
    before = len(fake_api.requests)
    again = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS)
    assert len(fake_api.requests) == before and again.improved == GOOD
    assert fake_gateway.ledger.cached_calls >= 121


async def test_overfit_rewrite_loses_to_the_original(fake_api, fake_gateway):
    responder = OptResponder(Overfit())
    fake_api.responder = responder
    result = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, iterations=5)
    assert len(result.attempts) >= 2
    first, *rewrites = result.attempts
    # the rewrites fit train better than the original, and the test split says otherwise
    assert max(a.train.passed for a in rewrites) > first.train.passed
    assert all(a.test.passed < first.test.passed for a in rewrites)
    assert result.winner == 0 and result.improved is None and result.paired is None
    assert "the original kept" in result.winner_reason
    _no_test_prompt_leaked(responder, result)


async def test_without_holdout_the_train_split_chooses(fake_api, fake_gateway):
    fake_api.responder = OptResponder()
    result = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, holdout=0.0, runs=1)
    assert result.choosing_split == "train" and result.improved == GOOD and result.attempts[0].test is None


async def test_invalid_candidates_are_re_asked_then_refused(fake_api, fake_gateway):
    bad = iter(["Reads <b>PDF</b> files. Use when the user has a PDF.", "Reads PDF files and tables."] * 3)
    responder = OptResponder(lambda _t: next(bad))
    fake_api.responder = responder
    result = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, iterations=3, runs=1)
    assert result.stop_reason == "improver_failed" and len(result.attempts) == 1
    assert len(responder.improver_requests) == 2  # one call, one re-ask with the reason
    reask = json.dumps(responder.improver_requests[1])
    assert "DESCRIPTION_XML_TAG" in reask
    assert "MISSING_TRIGGER" in result.rejected[0] and result.winner == 0


async def test_budget_stop_keeps_what_was_measured(fake_api, tmp_path):
    from conftest_llm import TEST_KEY

    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    fake_api.responder = OptResponder()
    gw = Gateway(AnthropicProvider(TEST_KEY, fake_api.url, max_retries=0), cache=Cache(tmp_path / "c"),
                 budget_usd=0.004, timeout_s=10.0, concurrency=4)
    try:
        result = await run_optimize(doc(), gw, prompt_set=PROMPTS, models={"simulate": "claude-haiku-5-5"})
    finally:
        await gw.aclose()
    assert result.stop_reason == "budget" and "Budget reached" in (result.stop_detail or "")
    assert gw.ledger.cost_usd <= 0.004 and N * 3 <= gw.ledger.calls < 2 * N * 3 + 1
    # the original was measured in full; the improver's call (or the rewrite's measurement) was stopped
    assert result.attempts[0].test.complete and all(not a.test.complete for a in result.attempts[1:])
    assert result.winner == 0 and result.improved is None


async def test_dry_run_estimates_without_calls(fake_api, tmp_path):
    from conftest_llm import TEST_KEY

    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.gateway import Gateway

    gw = Gateway(AnthropicProvider(TEST_KEY, fake_api.url), dry_run=True)
    try:
        result = await run_optimize(doc(), gw, prompt_set=PROMPTS, iterations=5, runs=3)
    finally:
        await gw.aclose()
    assert result.stop_reason == "dry_run" and not fake_api.requests
    plan = gw.plan()
    assert plan["by_kind"]["route"]["calls"] == 5 * N * 3 and plan["by_kind"]["improve"]["calls"] == 4


@pytest.mark.parametrize("n", [1])
async def test_cancel_keeps_finished_attempts(fake_api, fake_gateway, n):
    import asyncio

    from fakeapi import slow, text_reply

    responder = OptResponder()
    fake_api.responder = lambda body: slow(5.0, text_reply("late")) if len(fake_api.requests) > 3 else responder(body)
    task = asyncio.ensure_future(run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, keep_on_cancel=True))
    while len(fake_api.requests) < 5:
        await asyncio.sleep(0.01)
    task.cancel()
    result = await task
    assert result.stop_reason == "cancelled" and result.improved is None
    assert ME


async def test_a_shorter_rewrite_that_only_ties_on_test_keeps_the_original(fake_api, fake_gateway):
    shorter = "PDF tables and documents. Use when a PDF."
    assert len(shorter) < len(ORIGINAL)
    fake_api.responder = OptResponder(lambda _t: shorter)
    result = await run_optimize(doc(), fake_gateway, prompt_set=PROMPTS, iterations=2, runs=1)
    a0, a1 = result.attempts
    assert a1.description == shorter and a1.test.passed == a0.test.passed
    assert result.winner == 0 and result.improved is None
