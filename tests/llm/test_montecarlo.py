"""Monte Carlo (layer 3) end to end: the real anthropic SDK against the fake Messages API, a scripted responder
playing the prompt writer, router, agent and grader (tests/llm/mc_script.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from mc_script import ME, NEGATIVE, POSITIVE, SKILL, MCResponder

from conftest import TEST_KEY, wait_for_requests
from skillgrade.analyzers.layers.montecarlo import montecarlo_layer, run_montecarlo, schedule
from skillgrade.analyzers.mc_prompts import (
    PromptSet,
    PromptsFileError,
    examples_from_frontmatter,
    load_prompts_file,
)
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.routing import TestPrompt
from skillgrade.analyzers.scoring import composite


def make_doc(tmp_path, text: str = SKILL):
    d = tmp_path / "pdf-tools"
    d.mkdir(exist_ok=True)
    (d / "SKILL.md").write_text(text)
    return parse(text, d / "SKILL.md")


def gateway(fake, tmp_path, **kw):
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    return Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=0), cache=Cache(tmp_path / "llm-cache"),
                   timeout_s=10.0, concurrency=8, **kw)


async def test_full_run_with_refusals_and_exact_statistics(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    fake_api.responder = MCResponder(refuse={POSITIVE[3], NEGATIVE[5]})
    gw = gateway(fake_api, tmp_path)
    seen = []
    res = await run_montecarlo(doc, gw, max_n=40, ci_target=0.01, progress=lambda *a: seen.append(a))
    await gw.aclose()
    st = res.stats
    assert res.stop_reason == "max_reached" and res.n_used == 40 and seen[-1] == ("simulations", 40, 40)
    assert res.prompt_set is not None and res.prompt_set.source == "generated"
    # 20 positives and 20 negatives scheduled; POSITIVE[3] and NEGATIVE[5] are refused twice each
    assert (st.positives, st.negatives, st.tp, st.fp) == (18, 18, 18, 0)
    assert st.failure.x == 4 and st.failure.n == 40
    assert st.failure.upper == pytest.approx(0.236632, abs=1e-5)  # exact CP upper for 4/40
    assert st.activation.lower == pytest.approx(0.025 ** (1 / 18), abs=1e-9)
    assert st.quality_mean == pytest.approx(0.85) and st.quality_cv == pytest.approx(0.05 / 0.85)
    assert res.dimensions["triggering_accuracy"][0] == 1.0
    assert res.dimensions["robustness"][0] == pytest.approx(0.9)
    assert res.dimensions["orchestration_fitness"][0] is None
    kinds = [r.body.get("tools") is not None and len(r.body["messages"]) for r in fake_api.message_requests]
    assert kinds.count(1) == 40 and kinds.count(3) == 18  # 40 router calls, 18 tasks (activated positives)
    tasks = [r.body for r in fake_api.message_requests if len(r.body["messages"]) == 3]
    task = tasks[0]
    assert task["messages"][1]["content"][0]["input"] == {"skill": ME}
    assert task["messages"][2]["content"][0]["content"] == SKILL  # the SKILL.md as tool result
    assert task["system"][0]["cache_control"] == {"type": "ephemeral"}
    # the tool result is worth a cache write only when the same request continues again: not on the first
    # pass over the positives (9: POSITIVE[3] is refused), yes on the second (ci_target 0.01 keeps every
    # activated positive going: the quality half-width stays above it)
    marked = ["cache_control" in t["messages"][2]["content"][0] for t in tasks]  # in arrival order (concurrent)
    # round 1: the first 10 activated positives in schedule order (9 first passes + POSITIVE[0]'s second);
    # round 2, once they are graded: the other 8 second passes
    assert marked[:10].count(True) == 1 and marked[10:] == [True] * 8
    layer = montecarlo_layer(res)
    assert layer["name"] == "monte_carlo" and layer["n_used"] == 40 and layer["stop_reason"] == "max_reached"
    assert layer["statistics"]["failure_rate"]["x"] == 4 and layer["prompts"]["source"] == "generated"
    refused = [s for s in layer["simulations"] if s["status"] == "failed"]
    assert len(refused) == 4 and all(s["error_kind"] == "refusal" for s in refused)
    json.dumps(layer)


async def test_skill_that_fires_on_every_prompt_does_not_score_high(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    fake_api.responder = MCResponder(route=lambda p: ME)
    gw = gateway(fake_api, tmp_path)
    res = await run_montecarlo(doc, gw, max_n=20)
    await gw.aclose()
    assert res.stats.activation.rate == 1.0 and res.stats.false_activation.rate == 1.0
    assert res.stats.mc_score is not None and res.stats.mc_score > 0.8  # the seed's formula would reward it
    assert res.dimensions["triggering_accuracy"][0] == 0.0
    blended = composite({"static": {"triggering_accuracy": 0.9}, "monte_carlo": res.scores()}, 0)
    assert blended.dimensions["triggering_accuracy"].score == pytest.approx(0.15 / 0.75 * 0.9)
    assert blended.dimensions["triggering_accuracy"].grade == "F"


async def test_skill_that_never_wins_scores_low(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    fake_api.responder = MCResponder(route=lambda p: "some-other-skill" if ".pdf" in p else None)
    gw = gateway(fake_api, tmp_path)
    res = await run_montecarlo(doc, gw, max_n=20)
    await gw.aclose()
    assert res.stats.activation.rate == 0.0 and res.dimensions["triggering_accuracy"][0] == 0.0
    assert res.dimensions["output_quality"] == (None, "no activated simulation was graded")
    assert res.stats.mc_score is None


async def test_adaptive_stop_then_rerun_makes_no_call(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    fake_api.responder = MCResponder()
    gw = gateway(fake_api, tmp_path)
    res = await run_montecarlo(doc, gw, max_n=50, ci_target=0.10)
    await gw.aclose()
    # a perfect router: CP half-width (1 - 0.025^(1/n))/2 < 0.10 needs n >= 17 per side: one wave of 34, the
    # smallest that could stop, and it does
    assert res.stop_reason == "ci_target" and res.n_used == 34 < 50
    assert res.stats.activation.half_width < 0.10 and res.stats.activation.n == 17
    # the quality sample: 10 graded answers (0.8, 0.9, ...: t(0.975, 9) * s / sqrt(10) = 0.0377 < 0.10), so 7
    # of the 17 activated positives are routing trials only
    assert res.stats.continued == 10 and res.stats.quality.n == 10
    assert res.stats.quality_half_width == pytest.approx(2.2621571628 * 0.05 * (10 / 9) ** 0.5 / 10 ** 0.5, rel=1e-9)
    assert res.stats.tokens.n == 10  # token statistics only from simulations that ran the task
    calls = len(fake_api.requests)
    gw2 = gateway(fake_api, tmp_path)
    again = await run_montecarlo(doc, gw2, max_n=50, ci_target=0.10)
    await gw2.aclose()
    assert len(fake_api.requests) == calls  # every reply from the cache
    assert again.stats.to_dict() == res.stats.to_dict() and again.usage.to_dict()["calls"] == 0


async def test_budget_stop_keeps_finished_simulations(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    fake_api.responder = MCResponder()
    gw = gateway(fake_api, tmp_path, budget_usd=0.06)  # a grading call's estimate is ~$0.015
    given = PromptSet(tuple([TestPrompt(p, True) for p in POSITIVE] + [TestPrompt(n, False) for n in NEGATIVE]),
                      "file", "test")
    res = await run_montecarlo(doc, gw, max_n=50, ci_target=0.0, prompt_set=given)
    await gw.aclose()
    assert res.stop_reason == "budget"
    assert 0 < res.n_used < 50
    assert res.dimensions["triggering_accuracy"][0] is not None  # computed from the finished simulations
    stopped = [s for s in res.simulations if s.stopped_by == "budget"]
    assert stopped and all(s.status == "not_run" or (s.quality_reason or "").startswith("not graded:") for s in stopped)
    assert res.stats.quality.n >= 1  # the grades that finished are kept


async def test_cancel_keeps_finished_simulations(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    responder = MCResponder()

    def slow(body):
        item = responder(body)
        item.delay = 0.05
        return item

    fake_api.responder = slow
    gw = gateway(fake_api, tmp_path)
    task = asyncio.create_task(run_montecarlo(doc, gw, max_n=50, ci_target=0.0, keep_on_cancel=True))
    await wait_for_requests(fake_api, 25)
    task.cancel()
    res = await task
    await gw.aclose()
    assert res.stop_reason == "cancelled" and 0 < res.n_used < 50


def test_schedule_alternates_and_cycles():
    ps = examples_from_frontmatter({"examples": ["a", "b"], "anti_examples": ["x"]})
    assert ps is not None
    plan = schedule(ps, 6)
    assert [(p.prompt, r) for p, r in plan] == [("a", 0), ("x", 0), ("b", 0), ("x", 1), ("a", 1), ("x", 2)]


def test_skill_graph_examples():
    meta = {"metadata": {"examples": json.dumps(["is this worth a premium request?"]),
                         "anti_examples": "[\"which free model fits?\"]"}}
    ps = examples_from_frontmatter(meta)
    assert ps is not None and ps.source == "skill-graph" and ps.detail.startswith("metadata.")
    assert [(p.prompt, p.should_trigger) for p in ps.prompts] == [("is this worth a premium request?", True),
                                                                  ("which free model fits?", False)]
    act = examples_from_frontmatter({"activation": {"examples": ["p"], "anti_examples": ["n"]}})
    assert act is not None and act.detail == "activation.examples + activation.anti_examples"
    assert examples_from_frontmatter({"examples": ["only positives"]}) is None


async def test_skill_graph_examples_are_used_before_the_writer(fake_api, tmp_path):
    text = SKILL.replace("---\n\n#", "examples:\n  - merge these two pdf files\nanti_examples:\n"
                         "  - edit my docx\n---\n\n#", 1)
    doc = make_doc(tmp_path, text)
    fake_api.responder = MCResponder(route=lambda p: ME if "pdf" in p else None)
    gw = gateway(fake_api, tmp_path)
    res = await run_montecarlo(doc, gw, max_n=4)
    await gw.aclose()
    assert res.prompt_set is not None and res.prompt_set.source == "skill-graph"
    assert fake_api.responder.counts.get("prompts") is None  # no writer call
    assert res.stats.tp == 2 and res.stats.fp == 0


@pytest.mark.parametrize("name,body", [
    ("p.yaml", "- {prompt: merge a.pdf, should_trigger: true}\n- {prompt: edit b.docx, should_trigger: false}\n"),
    ("p.json", json.dumps({"prompts": [{"prompt": "merge a.pdf", "should_trigger": True},
                                       {"prompt": "edit b.docx", "should_trigger": False}]})),
    ("p.jsonl", '{"prompt": "merge a.pdf", "should_trigger": true}\n\n{"prompt": "edit b.docx", "should_trigger": false}\n'),
])
def test_prompts_file_formats(tmp_path, name, body):
    (tmp_path / name).write_text(body)
    ps = load_prompts_file(tmp_path / name)
    assert ps.source == "file" and ps.prompts == (TestPrompt("merge a.pdf", True), TestPrompt("edit b.docx", False))


@pytest.mark.parametrize("name,body,message", [
    ("p.json", "{nope", "not JSON"),
    ("p.jsonl", '{"prompt": "a", "should_trigger": true}\nnope\n', "line 2 is not JSON"),
    ("p.yaml", "- {prompt: a, should_trigger: yes please}\n", "row 1: should_trigger must be true or false"),
    ("p.yaml", "- {prompt: a, should_trigger: true}\n", "needs prompts that should trigger"),
    ("p.yaml", "just a string\n", "expected a list"),
    ("missing.yaml", None, "No such file"),
])
def test_bad_prompts_file_is_one_line(tmp_path, name, body, message):
    if body is not None:
        (tmp_path / name).write_text(body)
    with pytest.raises(PromptsFileError) as info:
        load_prompts_file(tmp_path / name)
    assert message in str(info.value) and "\n" not in str(info.value)


async def test_dry_run_estimates_without_calls(fake_api, tmp_path):
    doc = make_doc(tmp_path)
    gw = gateway(fake_api, tmp_path, dry_run=True)
    res = await run_montecarlo(doc, gw, max_n=50)
    plan = gw.plan()
    await gw.aclose()
    assert res.stop_reason == "dry_run" and fake_api.requests == []
    assert plan["calls"] == 1 + 50 + 2 * 25  # writer, 50 routes, 25 tasks + 25 grades (upper bound)


def test_planned_requests_match_a_dry_run(tmp_path):
    from skillgrade.analyzers.layers.montecarlo import planned_requests

    doc = make_doc(tmp_path)
    reqs = planned_requests(doc, max_n=50)
    assert [r.kind for r in reqs].count("prompts") == 1 and len(reqs) == 1 + 50 + 2 * 25
    given = PromptSet((TestPrompt("a.pdf", True), TestPrompt("b.docx", False)), "file")
    assert [r.kind for r in planned_requests(doc, max_n=4, prompt_set=given)] == [
        "route", "task", "grade", "route", "route", "task", "grade", "route"]


async def test_prompts_without_negatives_are_refused_without_a_call(tmp_path):
    class NoCalls:
        async def call(self, request):
            raise AssertionError("no call expected")

    only = PromptSet((TestPrompt("a.pdf", True),), "file")
    res = await run_montecarlo(make_doc(tmp_path), NoCalls(), prompt_set=only)
    assert res.stop_reason == "no_prompts" and res.n_used == 0 and res.scores() == {}
    assert "near misses" in res.unmeasured["triggering_accuracy"]


async def test_a_repeated_prompt_reads_the_skill_tool_result_from_the_prompt_cache(tmp_path):
    from fakeapi import FakeAPI

    doc = make_doc(tmp_path)
    given = PromptSet((TestPrompt(POSITIVE[0], True), TestPrompt(NEGATIVE[0], False)), "file")
    with FakeAPI(message_cache=True) as fake:
        fake.responder = MCResponder()
        gw = gateway(fake, tmp_path)
        await run_montecarlo(doc, gw, max_n=4, prompt_set=given, wave=1)
        await gw.aclose()
    tasks = [r for r in fake.message_requests if MCResponder().kind(r.body) == "task"]
    assert len(tasks) == 2  # the same positive prompt, repetitions 0 and 1
    skill_tokens = len(SKILL) // 4
    assert tasks[0].usage["cache_creation_input_tokens"] > skill_tokens  # writes system + prompt + SKILL.md
    assert tasks[1].usage["cache_read_input_tokens"] > skill_tokens and tasks[1].usage["cache_creation_input_tokens"] == 0
