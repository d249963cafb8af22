"""The comprehension runner end to end on the seed's worked example (type-safety, §6.2: 10 cases, 45 behaviors):
the real anthropic SDK against the fake Messages API, a scripted agent and grader (comp_script.py)."""

from __future__ import annotations

import json

import pytest
from comp_script import COPIED, EVALS, SKILL_DIR, CompResponder, honest, load_prompts, verdict
from llm_test_fixtures import TEST_KEY

from skillgrade.analyzers.comprehension.compliance import check, hedges, parse_verdict
from skillgrade.analyzers.comprehension.evalfile import Behavior, validate_text
from skillgrade.analyzers.comprehension.runner import run_comprehension
from skillgrade.analyzers.parse import parse

MODELS = {"agent": "claude-haiku-5-5", "grader": "gpt-grader-1"}


def gateway(fake, tmp_path, **kw):
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    return Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=0), cache=Cache(tmp_path / "llm-cache"),
                   timeout_s=10.0, concurrency=4, **kw)


def inputs():
    doc = parse((SKILL_DIR / "SKILL.md").read_text(), SKILL_DIR / "SKILL.md")
    model, findings = validate_text(EVALS.read_text())
    assert model is not None and not findings
    return doc, model


def scripted_grader(case_id, attempt, answer, behaviors):
    """Case 1: PASS on everything (the answer is a copied definition). Case 2: omits a behavior, then complies.
    Case 3: a fabricated quote, then complies. Case 4: a hedged FAIL, then a clean FAIL. Case 5: keeps
    violating (wrong count every time). Case 7: a clean FAIL of one behavior. The rest: honest PASS."""
    if case_id == 2 and attempt == 1:
        return verdict(case_id, answer, behaviors, drop=1)
    if case_id == 3 and attempt == 1:
        return verdict(case_id, answer, behaviors, quote="types are about performance")
    if case_id == 4:
        if attempt == 1:
            return verdict(case_id, answer, behaviors, fail={"names_api_design_as_owner"},
                           rationale="The owner might be named more clearly; perhaps worth reviewing.")
        return verdict(case_id, answer, behaviors, fail={"names_api_design_as_owner"},
                       rationale="The answer never names api-design.")
    if case_id == 5:
        return verdict(case_id, answer, behaviors, drop=2)
    if case_id == 7:
        return verdict(case_id, answer, behaviors, fail={"rejects_dropping_zod"},
                       rationale="The answer does not say to keep Zod.")
    return honest(case_id, attempt, answer, behaviors)


async def test_worked_example_every_violation_caught(fake_api, tmp_path):
    doc, evals = inputs()
    responder = CompResponder(scripted_grader, answers={1: COPIED})
    load_prompts(responder)
    fake_api.responder = responder
    gw = gateway(fake_api, tmp_path)
    seen = []
    res = await run_comprehension(doc, evals, gw, models=MODELS, progress=lambda *a: seen.append(a))
    await gw.aclose()
    cases = {c.case_id: c for c in res.with_skill.cases}
    assert len(cases) == 10 and seen[-1][1:] == (10, 10)

    # copied definition: the grader said PASS on every behavior; the overlap check fails C1 anyway
    c1 = cases[1]
    assert c1.status == "FAIL" and c1.overruled and all(b.verdict == "PASS" for b in c1.behaviors)
    assert c1.overlap is not None and not c1.overlap.passed
    assert c1.overlap.overlap_ngrams[0] == "type safety property program type errors"
    assert "a copied definition fails C1 whatever the grader says" in c1.reason
    assert c1.notes == ["the grader's verbatim_overlap_check says passed=true; the precomputed check "
                        "(passed=false) stands"]
    # the grader was told the overlap result
    c1_grade = next(r.body for r in fake_api.message_requests
                    if "<case-id>1</case-id>" in str(r.body["messages"][0]["content"]))
    assert '<precomputed-overlap-check passed="false" n="6">' in c1_grade["messages"][0]["content"]
    assert "# METHODICAL FORCING FUNCTIONS" in c1_grade["system"][0]["text"]

    # omitted behavior -> re-run -> PASS
    assert cases[2].status == "PASS" and cases[2].grader_attempts == 2
    assert any(v.startswith("RULE-1: 4 behavior verdict(s) for 5") for v in cases[2].violations[0])
    assert any(v.startswith("RULE-9: no verdict for scenario_not_in_body") for v in cases[2].violations[0])
    # fabricated quote -> re-run -> PASS
    assert cases[3].status == "PASS" and cases[3].grader_attempts == 2
    assert len(cases[3].violations[0]) == 4  # one per behavior, each a RULE-2 substring violation
    assert all("RULE-2" in v and "not an exact substring" in v for v in cases[3].violations[0])
    # hedged FAIL -> re-run -> a clean FAIL
    assert cases[4].status == "FAIL" and cases[4].grader_attempts == 2
    assert cases[4].violations == [["RULE-6: names_api_design_as_owner: hedge word(s) on a FAIL: might be, "
                                    "perhaps, worth reviewing"]]
    assert cases[4].reason == "behavior(s) failed: names_api_design_as_owner"
    # keeps violating -> 3 attempts (2 re-runs) -> FAIL with the reason
    c5 = cases[5]
    assert c5.status == "FAIL" and c5.grader_attempts == 3 and len(c5.violations) == 3
    assert c5.reason.startswith("the grader violated the compliance rules on all 3 attempts (last: RULE-1: "
                                "2 behavior verdict(s) for 4")
    assert c5.behaviors == []
    # each re-ask carried the violations back to the grader
    reasks = [r.body for r in fake_api.message_requests
              if "<case-id>5</case-id>" in str(r.body["messages"][0]["content"]) and len(r.body["messages"]) > 1]
    assert [len(b["messages"]) for b in reasks] == [3, 3]
    assert "RULE-9: no verdict for" in reasks[0]["messages"][2]["content"]

    assert responder.calls[("grade", 5)] == 3 and responder.calls[("grade", 6)] == 1
    assert sum(v for (k, _), v in responder.calls.items() if k == "agent") == 10
    assert sum(v for (k, _), v in responder.calls.items() if k == "grade") == 15  # 10 + 1 + 1 + 1 + 2

    # the agent loaded the skill: its Skill call and the SKILL.md as the tool result
    agent = next(r.body for r in fake_api.message_requests if len(r.body["messages"]) == 3
                 and r.body["messages"][1]["content"][0].get("type") == "tool_use")
    assert agent["messages"][2]["content"][0]["content"] == doc.text

    # the per-dimension report
    dims = {k: d.verdict for k, d in res.with_skill.dimensions.items()}
    assert dims == {"C1": "FAIL", "C2": "PASS", "C3": "PASS", "C4": "FAIL", "C5": "FAIL", "C6": "PASS",
                    "C7": "FAIL", "C8": "PASS", "C9": "PASS"}
    c7 = res.with_skill.dimensions["C7"]
    assert (c7.cases, c7.passed, c7.failed) == (2, 1, 1)
    v = res.with_skill.verdict
    assert v.verdict == "PARTIAL" and v.passed == 5
    assert v.exceptions == {"C1": "FAIL", "C4": "FAIL", "C5": "FAIL", "C7": "FAIL"}
    assert res.warnings == []  # claude vs gpt: different families; no far-transfer overlap in these prompts
    out = res.to_dict()
    json.dumps(out)
    assert out["verdict"]["verdict"] == "PARTIAL" and out["baseline"] is None
    assert out["usage"]["by_kind"]["comprehension_grade"]["calls"] == 15


async def test_baseline_delta_and_same_family_warning(fake_api, tmp_path):
    doc, evals = inputs()
    responder = CompResponder(lambda cid, a, ans, bs: verdict(cid, ans, bs, fail=set() if "Answer" in ans
                                                              else {bs[0][0]}))
    load_prompts(responder)
    fake_api.responder = responder
    gw = gateway(fake_api, tmp_path)
    res = await run_comprehension(doc, evals, gw, models={"agent": "claude-haiku-5-5",
                                                          "grader": "claude-sonnet-5-5"}, baseline=True)
    await gw.aclose()
    assert res.with_skill.verdict.verdict == "PASS" and res.baseline is not None
    assert res.baseline.verdict.verdict == "FAIL"
    base_agent = [r.body for r in fake_api.message_requests
                  if "capable software assistant" in r.body["system"][0]["text"] and len(r.body["messages"]) == 1]
    assert len(base_agent) == 10  # the baseline agent never saw the skill
    delta = res.delta
    assert delta is not None and delta["C7"].to_dict() == {"dimension": "C7", "n": 2, "with_skill_passed": 2,
                                                           "baseline_passed": 0, "delta": 2}
    assert all(d.delta == 1 for k, d in delta.items() if k != "C7")
    assert res.warnings and "same model family (claude)" in res.warnings[0]


async def test_grader_down_is_unmeasured_but_a_copy_still_fails(fake_api, tmp_path):
    doc, evals = inputs()
    responder = CompResponder(honest, answers={1: COPIED}, grader_error={1, 2})
    load_prompts(responder)
    fake_api.responder = responder
    gw = gateway(fake_api, tmp_path)
    res = await run_comprehension(doc, evals, gw, models=MODELS)
    await gw.aclose()
    cases = {c.case_id: c for c in res.with_skill.cases}
    assert cases[1].status == "FAIL" and "copied definition" in cases[1].reason
    assert cases[2].status == "unmeasured" and cases[2].reason.startswith("the grader's call failed")
    assert res.with_skill.dimensions["C2"].verdict == "unmeasured"
    assert res.with_skill.verdict.exceptions == {"C1": "FAIL", "C2": "unmeasured"}


async def test_dry_run_estimates_without_verdicts(fake_api, tmp_path):
    doc, evals = inputs()
    gw = gateway(fake_api, tmp_path, dry_run=True)
    res = await run_comprehension(doc, evals, gw, models=MODELS)
    await gw.aclose()
    assert fake_api.message_requests == []
    assert all(c.status == "unmeasured" and c.error_kind == "dry_run" for c in res.with_skill.cases)
    assert res.with_skill.verdict.verdict == "unmeasured"
    assert gw.plan()["calls"] == 20


# ---- compliance, pure -----------------------------------------------------------------------------------------

BEHAVIORS = (Behavior("a", "positive", "x"), Behavior("b", "negative", "y"))
ANSWER = "The runtime boundary is where parsing happens."


def row(i, verdict="PASS", quote="runtime boundary", why="Shown."):
    return {"id": i, "kind": {"a": "positive", "b": "negative"}.get(i, "positive"), "verdict": verdict,
            "evidence_quote": quote, "rationale": why}


def test_compliance_clean_and_each_rule():
    ok = {"behavior_verdicts": [row("a"), row("b", "FAIL", why="It never says so.")], "dimension_verdict": "FAIL"}
    assert check(ok, BEHAVIORS, ANSWER)[0] == []
    bad_dim = {**ok, "dimension_verdict": "PASS"}  # not a violation: a note, and our aggregate is used
    assert check(bad_dim, BEHAVIORS, ANSWER)[0] == [] and check(bad_dim, BEHAVIORS, ANSWER)[2] == [
        "the grader's dimension_verdict 'PASS' is not the aggregate of its behavior verdicts (FAIL); the "
        "aggregate is used"]
    wrong_kind = {"behavior_verdicts": [{**row("a"), "kind": "negative"}, row("b")], "dimension_verdict": "PASS"}
    assert check(wrong_kind, BEHAVIORS, ANSWER)[0] == [] and len(check(wrong_kind, BEHAVIORS, ANSWER)[2]) == 1
    extra_text = {"behavior_verdicts": [row("a"), {**row("b", "FAIL", why="Missing."), "note": "Arguably fine."}]}
    assert check(extra_text, BEHAVIORS, ANSWER)[0] == ["RULE-6: b: hedge word(s) on a FAIL: arguably"]
    assert check({"behavior_verdicts": [row("a", "pass"), row("b")]}, BEHAVIORS, ANSWER)[0] == [
        "a: verdict must be PASS or FAIL, got 'pass'"]
    assert check({"behavior_verdicts": [row("a"), row("c")], "dimension_verdict": "PASS"}, BEHAVIORS, ANSWER)[0] \
        == ["RULE-9: no verdict for b", "RULE-9: verdicts for ids that are not expected behaviors: c"]
    assert check({"behavior_verdicts": [row("a", quote=""), row("b")], "dimension_verdict": "PASS"},
                 BEHAVIORS, ANSWER)[0] == ["RULE-2: a: empty evidence_quote"]
    assert check({"behavior_verdicts": [row("a"), row("a"), row("b")]}, BEHAVIORS, ANSWER)[0][:2] == [
        "RULE-1: 3 behavior verdict(s) for 2 expected behavior(s)", "RULE-1: a has more than one verdict"]
    hedged = {"behavior_verdicts": [row("a"), row("b", "FAIL", why="This Could Be Improved.")]}
    assert check(hedged, BEHAVIORS, ANSWER)[0] == ["RULE-6: b: hedge word(s) on a FAIL: could be improved"]
    # a hedge word on a PASS is not a violation; "perhapsy" is not the word "perhaps"
    assert hedges("perhapsy mightbe") == [] and hedges("It might be; PERHAPS.") == ["might be", "perhaps"]


def test_parse_verdict_forms():
    assert parse_verdict('noise <verdict>\n{"a": 1}\n</verdict> tail') == {"a": 1}
    assert parse_verdict('```json\n{"a": 2}\n```') == {"a": 2}
    assert parse_verdict('Here: {"a": 3} done') == {"a": 3}
    with pytest.raises(ValueError):
        parse_verdict("no json at all")
