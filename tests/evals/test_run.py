"""Runs against the fake Messages API through the real SDK: the skill helps, hurts, a broken suite, the LLM
judges, pass@3, the baseline cache (hit and expiry on a faked clock) and a task's timeout."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from evalkit import (
    TEST_KEY,
    Counter,
    answering,
    contains_suite,
    is_candidate,
    is_judge,
    make_skill,
    prompt_of,
    write_suite,
)
from fakeapi import FakeAPI, Scripted, json_reply, slow, text_reply

from skillgrade.analyzers.evals.baseline_cache import TTL_S, BaselineCache
from skillgrade.analyzers.evals.runner import Settings, build_artifact, evaluate, load_skill
from skillgrade.analyzers.evals.suite import load_suite

SETTINGS = Settings(model="claude-haiku-5-5", judge_model="claude-sonnet-5-5")


@pytest.fixture
async def gateway(fake_api: FakeAPI) -> AsyncIterator[Any]:
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.gateway import Gateway

    gw = Gateway(AnthropicProvider(TEST_KEY, fake_api.url, max_retries=0), cache=None, timeout_s=10.0)
    yield gw
    await gw.aclose()


def artifact(ev, suite, candidate, tmp_path: Path, settings: Settings = SETTINGS) -> dict:  # noqa: ANN001
    return build_artifact(ev, run_id="r1", mode="standalone", suite=suite, candidate=candidate, baseline=None,
                          settings=settings, truth_anchor=tmp_path / "out.json", started_at="s", finished_at="f",
                          duration_ms=1, ledger=None)


async def test_the_skill_helps(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", contains_suite(5)))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = answering(candidate={1, 2, 3, 4}, baseline={1, 2})
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    art = artifact(ev, suite, skill, tmp_path)
    assert (art["execution_pass_rate"], art["baseline_pass_rate"], art["delta"], art["verdict"]) == (0.8, 0.4, 0.4,
                                                                                                      "pass")
    assert [r["passed"] for r in art["candidate_results"]] == [True, True, True, True, False]
    assert [r["passed"] for r in art["baseline_results"]] == [True, True, False, False, False]
    first = art["candidate_results"][0]
    assert set(first) >= {"task_id", "passed", "score", "duration_ms", "tokens", "cost_usd"}
    assert first["task_id"] == "task-1" and first["score"] == 1.0 and first["tokens"]["output"] > 0
    assert first["cost_usd"] > 0 and first["calls"] == 1
    assert art["truth_anchor"] == str(tmp_path / "out.json") and art["mock"] is False
    reqs = [r.body for r in fake_api.message_requests]
    assert len(reqs) == 10
    cand = [b for b in reqs if is_candidate(b)]
    base = [b for b in reqs if not is_candidate(b)]
    assert len(cand) == len(base) == 5
    c = cand[0]
    # the activated skill: the agent's own Skill call, then the SKILL.md as the tool's result
    assert c["messages"][1]["content"][0] == {"type": "tool_use", "id": "toolu_eval_skill", "name": "Skill",
                                              "input": {"skill": "csv-helper"}}
    assert c["messages"][2]["content"][0]["content"] == skill.text
    assert "csv-helper: Cleans CSV files" in json.dumps(c["system"])
    b = base[0]
    assert len(b["messages"]) == 1 and "tools" not in b and "csv-helper" not in json.dumps(b)
    assert all(body["model"] == "claude-haiku-5-5" for body in reqs)


async def test_the_skill_hurts(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", contains_suite(5)))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = answering(candidate={1}, baseline={1, 2, 3})
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    art = artifact(ev, suite, skill, tmp_path)
    assert (art["execution_pass_rate"], art["baseline_pass_rate"], art["delta"], art["verdict"]) == (0.2, 0.6, -0.4,
                                                                                                      "fail")


async def test_a_broken_suite_is_an_error_and_the_candidate_is_not_run(fake_api: FakeAPI, gateway: Any,
                                                                         tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", contains_suite(6)))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = answering(candidate={1, 2, 3, 4, 5, 6}, baseline={1})  # 1/6 < 0.2
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    art = artifact(ev, suite, skill, tmp_path)
    assert art["verdict"] == "error" and art["reason"] == "baseline pass rate 0.17 < 0.2: fix the suite first"
    assert art["baseline_pass_rate"] == 1 / 6 and art["execution_pass_rate"] is None and art["delta"] is None
    assert art["candidate_results"] == [] and len(fake_api.message_requests) == 6
    assert not any(is_candidate(r.body) for r in fake_api.message_requests)


LLM_SUITE = """
skill_id: csv-helper
version: "1.0"
tasks:
  - id: rub
    prompt: "rubric question"
    judge: {type: llm-rubric, rubric: "Must name the delimiter", pass_threshold: 0.7}
  - id: bin
    prompt: "binary question"
    judge:
      type: llm-binary
      criterion: "Does it name the encoding?"
      examples:
        - {output: "utf-8, comma", result: PASS, critique: "names utf-8"}
        - {output: "a table", result: FAIL, critique: "no encoding"}
  - id: broken-judge
    prompt: "broken question"
    judge: {type: llm-rubric, rubric: "anything"}
"""


def llm_responder(scores: dict[str, Any]):  # noqa: ANN201
    """Answers say which side wrote them; judges read that and answer from `scores[(task, side)]`."""
    def respond(body: dict[str, Any]) -> Scripted | None:
        if not is_judge(body):
            side = "cand" if is_candidate(body) else "base"
            return text_reply(f"{side} answer to {prompt_of(body)}")
        user = body["messages"][0]["content"]
        side = "cand" if "cand answer" in user else "base"
        task = user.split(" answer to ")[1].split(" question")[0]
        value = scores[(task, side)]
        return json_reply(value) if isinstance(value, dict) else text_reply(value)
    return respond


async def test_rubric_and_binary_judges(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", LLM_SUITE))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = llm_responder({
        ("rubric", "base"): {"critique": "vague", "score": 0.5},
        ("rubric", "cand"): {"critique": "names the comma", "score": 0.8},
        ("binary", "base"): {"critique": "no encoding named", "result": "FAIL"},
        ("binary", "cand"): {"critique": "says utf-8", "result": "PASS"},
        ("broken", "base"): {"critique": "ok", "score": 0.9},
        ("broken", "cand"): "not json at all",
    })
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    art = artifact(ev, suite, skill, tmp_path)
    cand = {r["task_id"]: r for r in art["candidate_results"]}
    base = {r["task_id"]: r for r in art["baseline_results"]}
    assert (base["rub"]["passed"], base["rub"]["score"]) == (False, 0.5)
    assert (cand["rub"]["passed"], cand["rub"]["score"]) == (True, 0.8)
    assert cand["rub"]["attempts"][0]["detail"] == "names the comma"
    assert (base["bin"]["passed"], cand["bin"]["passed"]) == (False, True)
    assert cand["bin"]["attempts"][0]["detail"] == "says utf-8"
    # a judge that never gives a valid reply leaves the task unmeasured: not a failure, not in the rate
    assert cand["broken-judge"]["passed"] is None and "invalid reply after one re-ask" in cand["broken-judge"]["reason"]
    assert art["baseline_pass_rate"] == 1 / 3 and art["execution_pass_rate"] == 1.0
    assert art["candidate"]["unmeasured"] == {"broken-judge": cand["broken-judge"]["reason"]}
    judge_bodies = [r.body for r in fake_api.message_requests if is_judge(r.body)]
    assert all(b["model"] == "claude-sonnet-5-5" for b in judge_bodies)
    binary = next(b for b in judge_bodies if "<criterion>" in json.dumps(b["system"]))
    system = binary["system"][0]["text"]
    assert "Does it name the encoding?" in system and "RESULT: PASS" in system and "RESULT: FAIL" in system
    assert "critique" in binary["output_config"]["format"]["schema"]["required"]


async def test_pass_at_3_and_the_unbiased_estimate(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", contains_suite(2)))
    skill = load_skill(make_skill(tmp_path))
    calls = Counter()

    def respond(body: dict[str, Any]) -> Scripted:
        side = "cand" if is_candidate(body) else "base"
        i = int(prompt_of(body).rsplit(" ", 1)[-1])
        n = calls.next(f"{side}-{i}")
        # task 1: only the 3rd attempt of each side passes; task 2: the baseline's 1st and the candidate's 2nd
        good = {("base", 1): {3}, ("cand", 1): {3}, ("base", 2): {1}, ("cand", 2): {2}}[(side, i)]
        return text_reply(f"kw-{i}" if n in good else "no")

    fake_api.responder = respond
    settings = Settings(model="m", judge_model="j", pass_k=3, attempts=5, concurrency=1)
    ev = await evaluate(suite, skill, None, gateway, settings)
    art = artifact(ev, suite, skill, tmp_path, settings)
    assert art["execution_pass_rate"] == 1.0 and art["baseline_pass_rate"] == 1.0 and art["verdict"] == "pass"
    assert [len(r["attempts"]) for r in art["candidate_results"]] == [5, 5]
    assert [a["passed"] for a in art["candidate_results"][0]["attempts"]] == [False, False, True, False, False]
    # 1 pass in 5 attempts: 1 - C(4,3)/C(5,3) = 0.6, for each task and side
    assert [r["pass_at_k_unbiased"] for r in art["candidate_results"]] == [0.6, 0.6]
    assert art["candidate"]["pass_at_k_unbiased"] == 0.6 and art["attempts"] == 5 and art["pass_k"] == 3
    # pass@1 on the same script: only the baseline's task 2 passes on its first attempt
    calls.counts.clear()
    ev1 = await evaluate(suite, skill, None, gateway, Settings(model="m", judge_model="j", concurrency=1))
    assert (float(ev1.baseline_rate), ev1.verdict) == (0.5, "fail") and float(ev1.candidate_rate) == 0.0


async def test_baseline_cache_hit_and_expiry(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", contains_suite(3)))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = answering(candidate={1, 2, 3}, baseline={1, 2})
    cache = BaselineCache(tmp_path / "bc")
    t0 = 1_800_000_000.0

    def baseline_calls() -> int:
        return sum(1 for r in fake_api.message_requests if not is_candidate(r.body))

    first = await evaluate(suite, skill, None, gateway, SETTINGS, baseline_cache=cache, now=t0)
    assert first.baseline_cache == {"hit": False, "key": first.baseline_cache["key"], "created_at": t0}
    assert baseline_calls() == 3
    hit = await evaluate(suite, skill, None, gateway, SETTINGS, baseline_cache=cache, now=t0 + TTL_S - 1)
    assert hit.baseline_cache["hit"] is True and hit.baseline_cache["created_at"] == t0
    assert baseline_calls() == 3  # nothing asked for the baseline
    assert float(hit.baseline_rate) == 2 / 3 and hit.verdict == "pass"
    assert [r.passed for r in hit.baseline_results] == [r.passed for r in first.baseline_results]
    expired = await evaluate(suite, skill, None, gateway, SETTINGS, baseline_cache=cache, now=t0 + TTL_S)
    assert expired.baseline_cache["hit"] is False and baseline_calls() == 6
    # another baseline skill or another model is another key
    other = await evaluate(suite, skill, skill, gateway, SETTINGS, baseline_cache=cache, now=t0 + TTL_S)
    assert other.baseline_cache["hit"] is False
    again = await evaluate(suite, skill, None, gateway, Settings(model="other", judge_model="j"),
                           baseline_cache=cache, now=t0 + TTL_S)
    assert again.baseline_cache["hit"] is False


async def test_a_task_timeout_bounds_the_model_call(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path / "s", """
        skill_id: s
        version: "1.0"
        tasks:
          - {id: slow, prompt: "question 1", judge: {type: contains, expected: [kw-1]}, timeout_seconds: 0.5}
        """))
    skill = load_skill(make_skill(tmp_path))
    fake_api.responder = lambda body: slow(3.0, text_reply("kw-1"))
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    [r] = ev.baseline_results
    assert r.passed is False and "no answer within the task's 0.5 s timeout" in r.attempts[0].detail
    assert ev.verdict == "error"  # 0/1 baseline


async def test_a_failed_model_call_is_unmeasured_not_failed(fake_api: FakeAPI, gateway: Any, tmp_path: Path) -> None:
    from fakeapi import status

    suite = load_suite(write_suite(tmp_path / "s", contains_suite(2)))
    skill = load_skill(make_skill(tmp_path))
    answer = answering(candidate={1, 2}, baseline={1, 2})
    fake_api.responder = lambda b: status(500) if "question 2" in prompt_of(b) and is_candidate(b) else answer(b)
    ev = await evaluate(suite, skill, None, gateway, SETTINGS)
    assert [r.passed for r in ev.candidate_results] == [True, None]
    assert "the model call failed" in (ev.candidate_results[1].reason or "")
    assert float(ev.candidate_rate) == 1.0 and ev.verdict == "pass"
