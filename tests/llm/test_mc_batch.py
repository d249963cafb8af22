"""Monte Carlo under --batch (Message Batches on the fake, the real anthropic SDK): the adaptive stop still
happens (waves sized by the stop rule, one batch per round of a wave: routes, tasks, grades), the results
equal a live run's, and an interrupted run resumes its batch instead of paying twice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fakeapi import FakeAPI
from mc_script import SKILL, MCResponder
from test_batches import batch_gateway, custom_ids, live_gateway

from skillgrade.analyzers.layers.montecarlo import run_montecarlo
from skillgrade.analyzers.parse import parse

# writer; the first wave's 34 routes (17 per side: the smallest sample whose CP half-width can be < 0.10);
# the 10 tasks of the quality sample; their 10 grades (then the quality CI is under 0.10: no more tasks)
ROUNDS = [1, 34, 10, 10]


def make_doc(tmp_path: Path):
    d = tmp_path / "pdf-tools"
    d.mkdir(exist_ok=True)
    (d / "SKILL.md").write_text(SKILL)
    return parse(SKILL, d / "SKILL.md")


async def test_adaptive_stop_happens_under_batch_with_the_live_results(tmp_path: Path) -> None:
    doc = make_doc(tmp_path)
    with FakeAPI() as live_api:
        live_api.responder = MCResponder()
        live = live_gateway(live_api, tmp_path / "live")
        expected = await run_montecarlo(doc, live, max_n=50, ci_target=0.10)
        await live.aclose()
    with FakeAPI() as fake:
        fake.responder = MCResponder()
        fake.batch_polls = 2
        gw = batch_gateway(fake, tmp_path / "cache")
        res = await run_montecarlo(doc, gw, max_n=50, ci_target=0.10)
        await gw.aclose()
        assert fake.message_requests == []  # nothing went live
        assert [len(c.body["requests"]) for c in fake.batch_creates] == ROUNDS
        assert res.stop_reason == "ci_target" and res.n_used == 34 < 50
        assert res.stats.to_dict() == expected.stats.to_dict()
        assert gw.ledger.calls == sum(ROUNDS) and all(e.via == "batch" for e in gw.ledger.entries)
        assert len(gw.ledger.batch_ids) == len(ROUNDS)


async def test_an_interrupted_batch_run_resumes_without_paying_twice(tmp_path: Path) -> None:
    doc = make_doc(tmp_path)
    cache = tmp_path / "cache"
    with FakeAPI() as fake:
        fake.responder = MCResponder()
        fake.batch_polls = 10**6  # nothing ends until the test says so
        gw = batch_gateway(fake, cache)
        run = asyncio.create_task(run_montecarlo(doc, gw, max_n=50, ci_target=0.10))
        for want in (1, 2):  # let the writer's batch end; interrupt while the routes' batch is running
            while len(fake.batch_creates) < want:
                await asyncio.sleep(0.01)
            if want == 1:
                next(iter(fake.batches.values())).polls = 0
        await asyncio.sleep(0.05)
        run.cancel()
        try:
            await run
        except asyncio.CancelledError:
            pass
        await gw.aclose()
        state = json.loads((cache / "batches.json").read_text())
        assert set(state["batches"]) == {"msgbatch_fake_0002"} and len(state["items"]) == 34
        fake.batches["msgbatch_fake_0002"].polls = 0  # it ends while nobody watches
        fake.batch_polls = 1
        gw2 = batch_gateway(fake, cache)
        res = await run_montecarlo(doc, gw2, max_n=50, ci_target=0.10)
        await gw2.aclose()
        ids = custom_ids(fake)
        assert len(ids) == len(set(ids)) == sum(ROUNDS)  # no item submitted twice
        assert [len(c.body["requests"]) for c in fake.batch_creates] == ROUNDS
        assert res.stop_reason == "ci_target" and res.n_used == 34
        # the resumed run: the writer from the cache, the routes collected from batch 2, tasks and grades new
        assert gw2.ledger.cached_calls == 1 and gw2.ledger.calls == sum(ROUNDS) - 1
        assert gw2.ledger.batch_ids == ["msgbatch_fake_0002", "msgbatch_fake_0003", "msgbatch_fake_0004"]
        assert fake.message_requests == [] and not (cache / "batches.json").exists()
