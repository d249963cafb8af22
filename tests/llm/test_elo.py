"""The Elo layer through the real anthropic SDK against the fake Messages API: both orders per pair, position
bias when the judge favours the first slot, a skill that always wins, the reply cache, prompt caching,
failures, no index, dry-run planning."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fakeapi import FakeAPI, Scripted, json_reply, text_reply

from conftest import TEST_KEY, wait_for_requests
from skillgrade.analyzers.corpus_index import build_index
from skillgrade.analyzers.layers.ask import Invalid
from skillgrade.analyzers.layers.elo import (
    MIN_PAIRS,
    NO_INDEX,
    Verdict,
    combine,
    planned_requests,
    run_elo,
    validate_pair,
)
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.ranking import ELO_BASE

REFS = [
    ("pdf-merge", "Use when merging or splitting PDF files; not for Word documents.", 3),
    ("pdf-forms", "Use when filling PDF forms or reading form fields from PDF files.", 6),
    ("csv-report", "Use when turning CSV data into a summary report with charts.", 9),
    ("sql-helper", "Use when writing or reviewing SQL queries for a Postgres database.", 12),
    ("react-ui", "Use when building React components with accessible markup.", 15),
    ("blog-writer", "Use when drafting a blog post from notes; not for documentation.", 18),
]
SKILL = """---
name: pdf-tools
description: Extract text and tables from PDF files. Use when the user mentions PDFs or document extraction; not for Word files.
---

# PDF tools

1. Run `pdftotext input.pdf out.txt`.
2. Return the text as Markdown.
"""


def write_skill(folder: Path, name: str, description: str, steps: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    body = "\n".join(f"{i + 1}. Step {i + 1} of {name}." for i in range(steps))
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n")


@pytest.fixture()
def index(tmp_path: Path):
    for name, desc, steps in REFS:
        write_skill(tmp_path / "refs" / name, name, desc, steps)
    idx, _ = build_index(tmp_path / "refs")
    return idx


@pytest.fixture()
def doc(tmp_path: Path):
    d = tmp_path / "me" / "pdf-tools"
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(SKILL)
    return parse(SKILL, d / "SKILL.md")


def user_text(body: dict) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else "\n".join(b["text"] for b in content)


def skill_slot(body: dict) -> str:
    return "A" if "**Skill A** is the skill in the system block" in user_text(body) else "B"


def first_slot_judge(body: dict) -> Scripted:
    return json_reply({"reason": "Skill A is shown first.", "winner": "A"})


def skill_always_wins(body: dict) -> Scripted:
    return json_reply({"reason": "Clearer steps and output.", "winner": skill_slot(body)})


async def test_judge_favouring_the_first_slot_is_flagged_as_position_bias(fake_api: FakeAPI, fake_gateway, doc, index):
    fake_api.responder = first_slot_judge
    res = await run_elo(doc, fake_gateway, index, model="claude-sonnet-5-5", k=4)
    assert len(fake_api.message_requests) == 8  # 4 pairs x 2 orders
    assert res.n_pairs == 4 and res.position_bias_pairs == 4
    for m in res.matches:
        assert m.position_bias and m.winner == "tie" and m.score == 0.5
        assert [o.slot for o in m.orders] == ["A", "A"]
        assert [o.winner for o in m.orders] == ["skill", "reference"]
    d = res.to_dict()
    assert d["position_bias_pairs"] == 4 and all(m["position_bias"] for m in d["matches"])
    assert d["matches"][0]["orders"][0] == {"order": "skill_first", "slot": "A", "winner": "skill",
                                            "reason": "Skill A is shown first."}
    json.dumps(d)
    # both orders really were sent: the skill is Skill A in one and Skill B in the other of every pair
    slots = [skill_slot(r.body) for r in fake_api.message_requests]
    assert sorted(slots) == ["A"] * 4 + ["B"] * 4


async def test_a_skill_that_always_wins_ranks_above_the_median_with_a_ci(fake_api: FakeAPI, fake_gateway, doc, index):
    fake_api.responder = skill_always_wins
    seen = []
    res = await run_elo(doc, fake_gateway, index, model="claude-sonnet-5-5",
                        progress=lambda label, done, total: seen.append((done, total)))
    assert res.measured and res.reason is None
    assert res.n_pairs == len(REFS) and res.position_bias_pairs == 0  # k=8 > 6 references: all of them
    assert all(m.winner == "skill" and m.score == 1.0 for m in res.matches)
    assert res.rating > ELO_BASE and res.ci_low <= res.rating <= res.ci_high
    assert res.ci_low < res.ci_high  # the references' ratings differ, so resamples differ
    assert res.percentile > 50 and res.elo == round(res.rating, 1)
    assert res.closest is not None and res.closest["name"] in {n for n, _d, _s in REFS}
    assert seen[-1] == (12, 12)
    # the two PDF skills (same category, most description overlap) come first
    assert {m.reference.name for m in res.matches[:2]} == {"pdf-forms", "pdf-merge"}
    # re-run: every reply from the cache, no call
    before = len(fake_api.requests)
    again = await run_elo(doc, fake_gateway, index, model="claude-sonnet-5-5")
    assert len(fake_api.requests) == before
    assert again.rating == res.rating and (again.ci_low, again.ci_high) == (res.ci_low, res.ci_high)
    assert again.usage.to_dict()["cached"] == 12 and again.usage.to_dict()["calls"] == 0


async def test_a_skill_that_always_loses_ranks_below_the_median(fake_api: FakeAPI, fake_gateway, doc, index):
    fake_api.responder = lambda body: json_reply({"reason": "r", "winner": "B" if skill_slot(body) == "A" else "A"})
    res = await run_elo(doc, fake_gateway, index, model="m")
    assert res.rating < ELO_BASE and res.percentile < 50 and res.ci_high < ELO_BASE


async def test_the_skill_text_is_a_cached_prefix_shared_by_every_pair(fake_api: FakeAPI, fake_gateway, doc, index):
    fake_api.responder = skill_always_wins
    await run_elo(doc, fake_gateway, index, model="claude-sonnet-5-5", k=3)
    reqs = fake_api.message_requests
    systems = [json.dumps(r.body["system"]) for r in reqs]
    assert len(set(systems)) == 1  # identical system blocks in all 6 calls
    blocks = reqs[0].body["system"]
    assert len(blocks) == 2 and all(b.get("cache_control") == {"type": "ephemeral"} for b in blocks)
    assert "pdftotext input.pdf" in blocks[1]["text"]
    assert all("pdftotext" not in user_text(r.body) for r in reqs)  # the skill is not re-sent in the user turn
    # the user turn: the reference's data (cached, the same in both orders of a pair), then the task block
    by_ref: dict[str, list[dict]] = {}
    for r in reqs:
        content = r.body["messages"][0]["content"]
        assert content[0]["cache_control"] == {"type": "ephemeral"} and "cache_control" not in content[1]
        by_ref.setdefault(content[0]["text"], []).append(content[1])
    assert len(by_ref) == 3 and all(len(tasks) == 2 and tasks[0] != tasks[1] for tasks in by_ref.values())
    assert "temperature" not in reqs[0].body
    writes = [u["cache_creation_input_tokens"] for u in fake_api.reported]
    reads = [u["cache_read_input_tokens"] for u in fake_api.reported]
    assert writes[0] > 0 and sum(1 for w in writes if w) == 1 and all(r > 0 for r in reads[1:])


async def test_invalid_replies_leave_pairs_out_and_elo_unmeasured(fake_api: FakeAPI, fake_gateway, doc, index):
    fake_api.responder = lambda body: text_reply("I prefer the first one.")
    res = await run_elo(doc, fake_gateway, index, model="m", k=3)
    assert res.rating is None and res.elo is None and res.n_pairs == 0
    assert res.reason.startswith(f"only 0 of 3 comparison pair(s) completed (at least {MIN_PAIRS} needed)")
    assert "invalid reply after one re-ask" in res.reason
    assert all(m.error and m.score is None for m in res.matches)
    assert len(fake_api.message_requests) == 12  # 3 pairs x 2 orders x (ask + one re-ask)
    assert res.to_dict()["unmeasured"] == res.reason and res.to_dict()["rating"] is None


async def test_one_failed_order_leaves_only_that_pair_out(fake_api: FakeAPI, fake_gateway, doc, index):
    def judge(body: dict) -> Scripted:
        if "pdf-forms" in user_text(body) and skill_slot(body) == "B":
            return Scripted(status=400, message="bad request")
        return skill_always_wins(body)

    fake_api.responder = judge
    res = await run_elo(doc, fake_gateway, index, model="m", k=4)
    assert res.n_pairs == 3 and res.measured
    bad = next(m for m in res.matches if m.reference.name == "pdf-forms")
    assert bad.score is None and bad.error.startswith("reference first:") and "HTTP 400" in bad.error
    assert bad.orders[0].winner == "skill" and bad.orders[1].slot is None


async def test_without_an_index_elo_is_unmeasured_and_no_call_is_made(fake_api: FakeAPI, fake_gateway, doc):
    res = await run_elo(doc, fake_gateway, None, model="m")
    assert res.rating is None and res.reason == NO_INDEX
    assert NO_INDEX == "no reference corpus index: run `skillgrade init CORPUS_DIR`"
    assert fake_api.requests == [] and planned_requests(doc, None, model="m") == []


async def test_a_reference_changed_since_init_is_left_out_without_a_call(fake_api: FakeAPI, fake_gateway, doc,
                                                                         index, tmp_path: Path):
    fake_api.responder = skill_always_wins
    f = tmp_path / "refs" / "pdf-forms" / "SKILL.md"
    f.write_text(f.read_text() + "\nedited\n")
    res = await run_elo(doc, fake_gateway, index, model="m", k=4)
    bad = next(m for m in res.matches if m.reference.name == "pdf-forms")
    assert bad.orders == () and "changed since `skillgrade init`" in bad.error
    assert len(fake_api.message_requests) == 6 and res.n_pairs == 3


async def test_the_skill_itself_in_the_corpus_is_never_its_own_reference(fake_api: FakeAPI, fake_gateway, tmp_path):
    for name, desc, steps in REFS[:4]:
        write_skill(tmp_path / "c" / name, name, desc, steps)
    me = tmp_path / "c" / "pdf-tools"
    me.mkdir()
    (me / "SKILL.md").write_text(SKILL)
    idx, _ = build_index(tmp_path / "c")
    fake_api.responder = skill_always_wins
    res = await run_elo(parse(SKILL, me / "SKILL.md"), fake_gateway, idx, model="m")
    assert "pdf-tools" not in [m.reference.name for m in res.matches] and res.n_pairs == 4
    assert res.closest is not None and res.closest["name"] != "pdf-tools"
    assert len(idx.entries) == 5 and res.corpus_size == 4  # the percentile is over the other skills
    assert res.percentile == 100.0  # it beat every reference, and its rating is above all four anchors


async def test_planned_requests_and_dry_run(fake_api: FakeAPI, doc, index, tmp_path: Path):
    from skillgrade.analyzers.llm.config import LLMConfig
    from skillgrade.analyzers.llm.setup import build_gateway

    reqs = planned_requests(doc, index, model="claude-sonnet-5-5", k=5)
    assert len(reqs) == 10 and {r.kind for r in reqs} == {"elo"} and {r.max_tokens for r in reqs} == {400}
    gw = build_gateway(LLMConfig(cache_dir=str(tmp_path / "c")), {}, dry_run=True)
    res = await run_elo(doc, gw, index, model="claude-sonnet-5-5", k=5)
    assert res.rating is None and "Dry run" in res.reason
    plan = gw.plan()
    assert plan["calls"] == 10 and plan["by_kind"]["elo"]["calls"] == 10 and plan["cost_usd"] > 0
    assert fake_api.requests == []


@pytest.mark.parametrize("first, second, expected", [
    ("A", "B", ("skill", 1.0, False)),  # skill first: A = skill; reference first: B = skill
    ("B", "A", ("reference", 0.0, False)),
    ("A", "A", ("tie", 0.5, True)),  # the first slot both times: position bias, a draw
    ("B", "B", ("tie", 0.5, True)),
    ("tie", "tie", ("tie", 0.5, False)),
    ("A", "tie", ("skill", 0.75, False)),
    ("tie", "A", ("reference", 0.25, False)),
])
def test_combining_the_two_orders(first, second, expected):
    assert combine(Verdict(first, "x"), Verdict(second, "y")) == expected


@pytest.mark.parametrize("value, why", [
    ({"reason": "x", "winner": "C"}, "winner must be"),
    ({"winner": "A"}, "missing required field(s): reason"),
    ({"reason": "  ", "winner": "A"}, "non-empty"),
    ([1], "one JSON object"),
])
def test_invalid_pair_replies(value, why):
    with pytest.raises(Invalid, match=re.escape(why)):
        validate_pair(value)
    assert validate_pair({"reason": " two\nlines ", "winner": "tie"}) == Verdict("tie", "two lines")


async def test_cancellation_propagates_and_keeps_finished_replies(fake_api: FakeAPI, fake_gateway, doc, index):
    import asyncio

    from fakeapi import slow


    def judge(body: dict) -> Scripted:
        if "pdf-merge" in user_text(body):
            return slow(1.5, skill_always_wins(body))
        return skill_always_wins(body)

    fake_api.responder = judge
    task = asyncio.create_task(run_elo(doc, fake_gateway, index, model="m", k=4))
    await wait_for_requests(fake_api, 4)
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    finished = len(fake_api.message_requests)
    # a re-run serves the finished replies from the cache and only asks for the rest
    fake_api.responder = skill_always_wins
    res = await run_elo(doc, fake_gateway, index, model="m", k=4)
    assert res.n_pairs == 4
    assert res.usage.to_dict()["cached"] >= 1 and len(fake_api.message_requests) - finished < 8


async def test_budget_stop_leaves_elo_unmeasured(fake_api: FakeAPI, doc, index, tmp_path: Path):
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.gateway import Gateway

    fake_api.responder = skill_always_wins
    gw = Gateway(AnthropicProvider(TEST_KEY, fake_api.url), budget_usd=0.0, timeout_s=10.0)
    try:
        res = await run_elo(doc, gw, index, model="claude-sonnet-5-5", k=4)
    finally:
        await gw.aclose()
    assert res.rating is None and "Budget reached" in res.reason and fake_api.requests == []
