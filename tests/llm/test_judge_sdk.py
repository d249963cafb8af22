"""The judge end to end on the real anthropic SDK, through the Gateway, against the fake Messages API
(tests/llm/fakeapi.py) on 127.0.0.1: scripted routing decisions give the F1 we compute, faults leave
dimensions unmeasured with reasons, a re-run makes no calls, the ledger matches what the server reported,
and the key appears in no output or cache file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fakeapi import FakeAPI, json_reply, malformed, status, text_reply, tool_use
from judge_script import NEGATIVE, POSITIVE, make_skill, prompts_value, verdict

from conftest import TEST_KEY
from skillgrade.analyzers.layers.judge import JUDGED, TITLES, judge_layer, run_judge
from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
from skillgrade.analyzers.llm.cache import Cache
from skillgrade.analyzers.llm.gateway import Gateway
from skillgrade.analyzers.report import analyze, with_judge

MODELS = {"judge": "claude-sonnet-5-5", "simulate": "claude-haiku-5-5"}


def _dimension(body: dict[str, Any]) -> str | None:
    first = body["messages"][0]["content"]
    text = first if isinstance(first, str) else json.dumps(first)
    for dim, title in TITLES.items():
        if f"**{title}**" in text:
            return dim
    return None


def responder(route=None, judge=None):
    """Answers by what the request is: a router call (tools), the prompt writer, or a rubric call."""
    route = route or (lambda p: "pdf-tools" if "pdf" in p else None)

    def answer(body: dict[str, Any]):
        if body.get("tools"):
            choice = route(body["messages"][0]["content"])
            return tool_use("Skill", {"skill": choice}) if choice else text_reply("Here is how to do that.")
        dim = _dimension(body)
        if dim is None:
            return json_reply(prompts_value())
        custom = judge(dim, body) if judge else None
        if custom is not None:
            return custom
        if dim == "output_quality":
            return json_reply(verdict(0.7, tasks=[{"task": f"t{i}", "outcome": "ok"} for i in range(3)]))
        return json_reply(verdict(0.85))

    return answer


def gateway(fake: FakeAPI, cache_dir: Path, **kw: Any) -> Gateway:
    opts: dict[str, Any] = {"cache": Cache(cache_dir), "timeout_s": 10.0, "concurrency": 4}
    opts.update(kw)
    return Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=2), **opts)


async def test_judge_run_on_the_sdk(fake_api: FakeAPI, tmp_path: Path) -> None:
    def route(p: str) -> str | None:  # one positive missed, one near miss activates: F1 = 0.8
        if p == POSITIVE[0]:
            return None
        return "pdf-tools" if "pdf" in p or p == NEGATIVE[1] else None

    fake_api.responder = responder(route)
    doc = make_skill(tmp_path)
    gw = gateway(fake_api, tmp_path / "cache")
    res = await run_judge(doc, gw, models=MODELS)
    assert res.unmeasured == {}
    assert res.dimensions["triggering_accuracy"].score == pytest.approx(0.8)
    assert res.dimensions["robustness"].score == 0.85 and res.dimensions["output_quality"].score == 0.7
    msgs = fake_api.message_requests
    assert len(msgs) == 21
    routers = [r.body for r in msgs if r.body.get("tools")]
    assert len(routers) == 10 and {b["model"] for b in routers} == {"claude-haiku-5-5"}
    assert all("should_trigger" not in json.dumps(b) and "qpdf" not in json.dumps(b) for b in routers)
    judged = [r.body for r in msgs if not r.body.get("tools")]
    assert all(b["system"][1]["cache_control"] == {"type": "ephemeral"} for b in judged)
    assert sum(r.usage["cache_read_input_tokens"] > 0 for r in msgs if r.usage) >= 10  # the prefix is reused
    # the ledger equals what the server reported
    tot = gw.ledger.totals()
    for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
        assert tot[k] == sum(u[k] for u in fake_api.reported)
    assert res.usage.to_dict()["input_tokens"] == tot["input_tokens"]
    # a second run on an unchanged skill: zero HTTP calls, same numbers
    gw2 = gateway(fake_api, tmp_path / "cache")
    again = await run_judge(doc, gw2, models=MODELS)
    assert len(fake_api.message_requests) == 21 and gw2.ledger.calls == 0 and gw2.ledger.cached_calls == 21
    assert again.scores() == res.scores()
    # standard depth and the key nowhere
    rep = with_judge(analyze(doc.text, doc.path), res)
    out = json.dumps(rep.to_dict())
    assert rep.composite.confidence == "Assessed" and json.loads(out)["layers"][1]["name"] == "judge"
    for f in (tmp_path / "cache").rglob("*"):
        if f.is_file():
            assert TEST_KEY not in f.read_text(errors="replace")
    assert TEST_KEY not in out
    await gw.aclose()
    await gw2.aclose()


async def test_faults_leave_dimensions_unmeasured_with_reasons(fake_api: FakeAPI, tmp_path: Path) -> None:
    def judge(dim: str, body: dict[str, Any]):
        if dim == "robustness":
            return status(500, message="internal")
        if dim == "scope_calibration":
            return json_reply(verdict(1.7, band="0.80-1.00"))  # twice: the re-ask gets the same
        if dim == "token_efficiency":
            return malformed()
        if dim == "structural_completeness":
            return json_reply(verdict(0.9, quotes=("This sentence is not in the skill.",)))
        if dim == "code_template_quality":
            bad = verdict(0.8)
            del bad["evidence"]
            return json_reply(bad)
        return None

    fake_api.push(status(429, {"retry-after-ms": "5"}))  # the first call is rate limited once, then retried
    fake_api.responder = responder(judge=judge)
    doc = make_skill(tmp_path)
    gw = gateway(fake_api, tmp_path / "cache")
    res = await run_judge(doc, gw, models=MODELS)
    un = res.unmeasured
    assert set(un) == {"robustness", "scope_calibration", "token_efficiency", "structural_completeness",
                       "code_template_quality"}
    assert "1.7" in un["scope_calibration"] and "after one re-ask" in un["scope_calibration"]
    assert "do not occur verbatim" in un["structural_completeness"]
    assert "evidence" in un["code_template_quality"]
    assert "500" in un["robustness"] or "server" in un["robustness"].lower()
    assert un["token_efficiency"]
    assert res.dimensions["triggering_accuracy"].score == 1.0  # the 429 was retried
    assert fake_api.requests[0].status == 429
    rep = with_judge(analyze(doc.text, doc.path), res)
    assert "robustness" in rep.composite.unmeasured and rep.composite.score is not None
    layer = judge_layer(res)
    assert layer["unmeasured"] == un and all(TEST_KEY not in v for v in un.values())
    # rejected replies were not cached: a re-run asks those again (and nothing else)
    before = len(fake_api.message_requests)
    gw2 = gateway(fake_api, tmp_path / "cache")
    await run_judge(doc, gw2, models=MODELS)
    asked_again = [_dimension(r.body) for r in fake_api.message_requests[before:]]
    assert set(asked_again) <= set(un) and "scope_calibration" in asked_again
    await gw.aclose()
    await gw2.aclose()


async def test_two_judges_on_the_sdk(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.responder = responder()
    gw = gateway(fake_api, tmp_path / "cache")
    res = await run_judge(make_skill(tmp_path), gw, models=MODELS, judges=2)
    assert len(fake_api.message_requests) == 1 + 2 * 20
    assert res.agreement["routing"].value == pytest.approx(1.0) and res.agreement["routing"].n == 10
    assert res.agreement["grades"].n == len(JUDGED)
    await gw.aclose()


async def test_a_reply_slower_than_the_deadline(fake_api: FakeAPI, tmp_path: Path) -> None:
    from fakeapi import slow

    def judge(dim: str, body: dict[str, Any]):
        return slow(6.0, json_reply(verdict(0.85))) if dim == "robustness" else None

    fake_api.responder = responder(judge=judge)
    gw = gateway(fake_api, tmp_path / "cache", timeout_s=2.0)
    res = await run_judge(make_skill(tmp_path), gw, models=MODELS)
    assert "robustness" in res.unmeasured and res.unmeasured["robustness"]  # the deadline, not a number
    assert res.dimensions["robustness"].score is None
    assert res.scores()  # the fast calls finished (a loaded machine may time out others too: never a number)
    await gw.aclose()


async def test_dry_run_estimates_every_call_and_sends_none(fake_api: FakeAPI, tmp_path: Path) -> None:
    gw = gateway(fake_api, tmp_path / "cache", dry_run=True)
    res = await run_judge(make_skill(tmp_path), gw, models=MODELS, judges=2)
    assert fake_api.message_requests == [] and res.scores() == {}
    assert all("Dry run" in why for why in res.unmeasured.values())
    plan = gw.plan()
    assert plan["calls"] == 1 + 2 * (10 + len(JUDGED))
    assert plan["by_kind"]["route"]["calls"] == 20 and plan["by_kind"]["judge"]["calls"] == 20
    assert plan["cost_usd"] is not None and plan["cost_usd"] > 0
    await gw.aclose()
