"""Routing simulation, pure parts: metrics from decisions, the skill list, the router request, prompt validation."""

from __future__ import annotations

import json

import pytest

from skillgrade.analyzers import prompts
from skillgrade.analyzers.layers.ask import Invalid
from skillgrade.analyzers.llm.types import Reply, ToolCall, Usage
from skillgrade.analyzers.routing import (
    SKILL_TOOL,
    Decision,
    SkillCard,
    TestPrompt,
    decision_of,
    metrics,
    router_request,
    skill_list,
    validate_prompts,
)

ME = "pdf-tools"


def _d(should: bool, decided: str | None, error: str | None = None) -> Decision:
    return Decision(TestPrompt("p", should), decided, error)


def test_metrics_exact():
    ds = [_d(True, ME)] * 4 + [_d(True, "docx")] + [_d(False, ME)] + [_d(False, None)] * 4
    m = metrics(ds, ME)
    assert (m.n, m.tp, m.fn, m.fp, m.tn) == (10, 4, 1, 1, 4)
    assert m.precision == 4 / 5 and m.recall == 4 / 5 and m.f1 == 8 / 10


def test_metrics_asymmetric_and_failed_calls():
    ds = [_d(True, ME)] * 3 + [_d(True, None)] * 2 + [_d(False, ME)] * 3 + [_d(False, "x")] * 1
    ds += [_d(False, None, error="timeout")]
    m = metrics(ds, ME)
    assert (m.tp, m.fn, m.fp, m.tn, m.failed, m.n) == (3, 2, 3, 1, 1, 9)
    assert m.precision == 3 / 6 and m.recall == 3 / 5 and m.f1 == 6 / 11


def test_metrics_never_activated_and_nothing_measured():
    m = metrics([_d(True, None)] * 5 + [_d(False, None)] * 5, ME)
    assert m.f1 == 0.0 and m.precision is None and m.recall == 0.0
    m = metrics([_d(True, None, "429")] * 5 + [_d(False, None)] * 5, ME)
    assert m.f1 is None and "too few routing decisions: 0 on prompts that should use" in m.reason and m.failed == 5


def test_metrics_need_three_decisions_on_each_side():
    """A budget stop after one routed prompt must not become 'F1 1.00 (n=1)'."""
    m = metrics([_d(True, ME)], ME)
    assert m.f1 is None and m.tp == 1 and "1 on prompts that should use the skill and 0" in m.reason
    m = metrics([_d(True, ME)] * 5, ME)  # no negatives: a skill that fires on everything would look perfect
    assert m.f1 is None and "at least 3 of each" in m.reason
    m = metrics([_d(True, ME)] * 3 + [_d(False, None)] * 3, ME)
    assert m.f1 == 1.0 and m.reason is None


def test_decision_of_reads_skill_tool_only():
    def reply(*calls):
        return Reply("", None, tuple(calls), Usage(), "m", "tool_use", 0.0)

    assert decision_of(reply(ToolCall("Skill", {"skill": " pdf-tools "}))) == "pdf-tools"
    assert decision_of(reply(ToolCall("Bash", {"skill": ME}))) is None
    assert decision_of(reply()) is None
    assert decision_of(reply(ToolCall("Skill", {"skill": 3}))) is None


def test_skill_list_tops_up_and_never_duplicates():
    me = SkillCard(ME, "Extract text and tables from PDF files. Use when the user mentions PDFs.")
    ws = [SkillCard("docx", "Word documents."), SkillCard(ME, "a copy in another folder"), SkillCard("docx", "dup")]
    cards = skill_list(me, ws, seed="s")
    names = [c.name for c in cards]
    assert names.count(ME) == 1 and names.count("docx") == 1
    assert len(cards) == 1 + 12
    assert cards == skill_list(me, ws, seed="s")  # deterministic for caching
    assert next(c for c in cards if c.name == ME).description == me.description


def test_skill_list_drops_a_distractor_doing_the_same_job():
    me = SkillCard("pytest-helper", "Write and fix pytest test suites: fixtures, parametrisation, mocking "
                   "and coverage. Use when adding tests to Python code.")
    assert "python-testing" not in [c.name for c in skill_list(me, seed="s")]


def test_router_request_has_no_labels_or_body():
    cards = skill_list(SkillCard(ME, "Extract PDF text."), seed="x")
    r = router_request(cards, "merge these two pdfs", model="m")
    dumped = json.dumps(r.cache_payload())
    assert "should_trigger" not in dumped and "why" not in json.dumps(r.messages)
    assert r.tools == (SKILL_TOOL,) and r.tool_choice == {"type": "auto"}
    assert r.messages == ({"role": "user", "content": "merge these two pdfs"},)
    assert "- pdf-tools: Extract PDF text." in r.system[0]["text"]
    assert r.system[0]["cache_control"] == {"type": "ephemeral"}


def _prompts(pos=5, neg=5):
    return {"prompts": [{"prompt": f"p{i}", "should_trigger": i < pos, "why": ""} for i in range(pos + neg)]}


def test_validate_prompts():
    assert len(validate_prompts(_prompts())) == 10
    with pytest.raises(Invalid, match="exactly 5"):
        validate_prompts(_prompts(6, 4))
    bad = _prompts()
    bad["prompts"][1]["prompt"] = "P0 "
    with pytest.raises(Invalid, match="repeats"):
        validate_prompts(bad)
    bad = _prompts()
    bad["prompts"][2]["should_trigger"] = "yes"
    with pytest.raises(Invalid, match="true or false"):
        validate_prompts(bad)
    with pytest.raises(Invalid):
        validate_prompts([1, 2])


def test_prompt_files_load_and_version():
    assert set(prompts.rubric_dimensions()) >= {"triggering_accuracy", "orchestration_fitness"}
    v = prompts.prompt_version()
    assert v.startswith(prompts.text("VERSION").strip() + "+") and len(v.split("+")[1]) == 10
    assert len(prompts.distractors()) >= 12
    with pytest.raises(KeyError):
        prompts.render("judge.md", title="x")  # a missing placeholder is an error, not a gap
