"""The optimisation loop: measure a description on every prompt `runs` times, ask for a better one from the
train failures, repeat; choose the winner on the held-out split.

    result = await run_optimize(doc, gateway, models=..., prompt_set=..., workspace_skills=cards,
                                iterations=5, holdout=0.4, runs=3)

Iteration 1 measures the original description; each later iteration measures the improver's candidate
written from the previous one's TRAIN failures (and the earlier attempts' train results). `iterations`
counts measured descriptions (skill-creator's `max_iterations`), so at most iterations - 1 improver calls.
The loop stops early when every train prompt passes. The router's skill list (the workspace's other skills
plus built-in distractors, in a fixed shuffled order) is built once from the original and only this skill's
description changes between attempts. Every routing run is its own cache entry (salt `optimize-<run>`), so a
re-run with the same inputs replays from the cache and costs nothing.

Model failures never raise: a router call that fails leaves that run undecided; a budget stop, a dry run
(the rest is estimated) or an improver that gives no valid candidate stops the loop with the reason. A
description is a contender for the winner only when every prompt of the choosing split was measured.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import prompts
from ..document import SkillDocument
from ..layers.ask import CallsModels, Tally, ask
from ..layers.judge import DEFAULT_MODELS, _cards, target_card
from ..layers.material import build_material
from ..layers.montecarlo import choose_prompts
from ..llm.types import ErrorKind, LLMError, Request
from ..mc_prompts import PromptSet
from ..routing import SkillCard, TestPrompt, decision_of, router_request, seed_of, skill_list
from .improver import Redactor, Tried, improve_request, validator
from .measure import Contender, Paired, PromptResult, SplitScore, choose_winner, paired_test, split_score
from .split import DEFAULT_SEED, Split, SplitError, stratified_split

DEFAULT_ITERATIONS = 5
DEFAULT_HOLDOUT = 0.4
DEFAULT_RUNS = 3
STOPS = {
    "train_perfect": "every train prompt passes",
    "max_iterations": "the iteration limit was reached",
    "budget": "the budget would have been exceeded",
    "cancelled": "cancelled; the finished attempts are kept",
    "dry_run": "dry run: nothing was sent",
    "no_prompts": "no usable test prompts",
    "improver_failed": "the improver gave no valid description",
}
STOPPING = frozenset({ErrorKind.BUDGET, ErrorKind.DRY_RUN, ErrorKind.CANCELLED, ErrorKind.NO_KEY})

ProgressFn = Callable[[str, int, int], None]  # (what, done, planned)


@dataclass(slots=True)
class Attempt:
    index: int  # 0: the original
    description: str
    results: list[PromptResult]
    train: SplitScore
    test: SplitScore | None
    why: str = ""  # the improver's one-line reason

    def to_dict(self) -> dict:
        return {"iteration": self.index + 1, "original": self.index == 0, "description": self.description,
                "chars": len(self.description), "why": self.why, "train": self.train.to_dict(),
                "test": None if self.test is None else self.test.to_dict(),
                "prompts": [r.to_dict() for r in self.results]}


@dataclass(slots=True)
class OptimizeResult:
    skill: str
    models: dict[str, str]
    prompt_version: str
    prompt_set: PromptSet | None
    split: Split | None
    runs: int
    iterations: int
    holdout: float
    seed: int
    attempts: list[Attempt]
    winner: int | None  # index into attempts; None: no fair comparison (see reason)
    winner_reason: str
    paired: Paired | None
    stop_reason: str
    stop_detail: str | None
    rejected: list[str]  # improver replies refused by the checks (the reasons)
    skills_listed: tuple[str, ...]
    duration_s: float
    usage: Tally = field(default_factory=Tally)

    @property
    def original(self) -> str:
        return self.attempts[0].description if self.attempts else ""

    @property
    def improved(self) -> str | None:
        """The winning description when it is not the original."""
        if self.winner is None or self.winner == 0:
            return None
        return self.attempts[self.winner].description

    @property
    def choosing_split(self) -> str:
        return "test" if self.split is not None and self.split.test else "train"

    def to_dict(self) -> dict:
        return {
            "skill": self.skill, "models": dict(self.models), "prompt_version": self.prompt_version,
            "prompts": None if self.prompt_set is None else self.prompt_set.to_dict(),
            "split": None if self.split is None else {
                "seed": self.seed, "holdout": self.holdout,
                "train": [p.prompt for p in self.split.train], "test": [p.prompt for p in self.split.test]},
            "runs": self.runs, "iterations_max": self.iterations, "iterations_run": len(self.attempts),
            "chosen_by": self.choosing_split,
            "stop_reason": self.stop_reason, "stop": STOPS.get(self.stop_reason, self.stop_reason),
            "stop_detail": self.stop_detail,
            "original": self.original, "winner": None if self.winner is None else self.winner + 1,
            "winner_description": None if self.winner is None else self.attempts[self.winner].description,
            "improved": self.improved is not None, "winner_reason": self.winner_reason,
            "paired_test": None if self.paired is None else self.paired.to_dict(),
            "rejected_candidates": list(self.rejected),
            "attempts": [a.to_dict() for a in self.attempts],
            "skills_listed": list(self.skills_listed), "duration_s": self.duration_s, "usage": self.usage.to_dict(),
        }


def _models(models: Mapping[str, str] | None) -> dict[str, str]:
    m = {**DEFAULT_MODELS, **{k: v for k, v in (models or {}).items() if v}}
    return {"simulate": m["simulate"], "improve": m.get("improve") or m["judge"], "writer": m["judge"]}


def with_description(cards: Sequence[SkillCard], name: str, description: str) -> list[SkillCard]:
    return [SkillCard(c.name, description) if c.name == name else c for c in cards]


class _Stop(Exception):
    def __init__(self, kind: ErrorKind, reason: str) -> None:
        self.kind, self.reason = kind, reason


async def run_optimize(doc: SkillDocument, gateway: CallsModels, *, models: Mapping[str, str] | None = None,
                       prompt_set: PromptSet | None = None,
                       workspace_skills: Sequence[SkillCard | tuple[str, str]] = (),
                       iterations: int = DEFAULT_ITERATIONS, holdout: float = DEFAULT_HOLDOUT,
                       runs: int = DEFAULT_RUNS, seed: int = DEFAULT_SEED, progress: ProgressFn | None = None,
                       keep_on_cancel: bool = False) -> OptimizeResult:
    """Optimise `doc`'s description. models: {"judge" (prompt writer, improver), "simulate" (router),
    "improve" (optional)}. prompt_set: the user's (mc_prompts.load_prompts_file); None: the skill's routing
    examples, else written by the model (as Monte Carlo does, same cache entry). Raises SplitError for a
    holdout the prompts cannot satisfy, ValueError for bad numbers; model failures never raise.
    Cancellation propagates unless keep_on_cancel (then the finished attempts come back, stop 'cancelled')."""
    if iterations < 1 or runs < 1:
        raise ValueError("iterations and runs must be at least 1")
    t0 = time.perf_counter()
    m = _models(models)
    me = target_card(doc)
    base = skill_list(me, _cards(workspace_skills), seed=seed_of(me.name))
    others = [c for c in base if c.name != me.name]
    tally = Tally()
    attempts: list[Attempt] = []
    rejected: list[str] = []
    state: dict[str, Any] = {"split": None, "set": None}
    batch = getattr(gateway, "batches", None) is not None

    def finish(stop: str, detail: str | None = None) -> OptimizeResult:
        split: Split | None = state["split"]
        choosing = "test" if split is not None and split.test else "train"
        winner, why, paired = None, "", None
        if not attempts:
            why = detail or "nothing was measured"
        else:
            cons = [Contender(a.index, a.description, a.test if choosing == "test" and a.test else a.train)
                    for a in attempts]
            winner = choose_winner(cons)
            if winner is None:
                why = "the original description was not measured on every prompt, so nothing can be compared"
            else:
                best = cons[winner].score
                why = (f"{'held-out' if choosing == 'test' else 'train (no holdout)'} score {best.passed}/{best.n}"
                       + (", the original kept" if winner == 0 else
                          f" against the original's {cons[0].score.passed}/{cons[0].score.n}"))
                if winner != 0:
                    pick = [r for r in attempts[winner].results if r.split == choosing]
                    base_r = [r for r in attempts[0].results if r.split == choosing]
                    paired = paired_test(base_r, pick, choosing)
        return OptimizeResult(me.name, m, prompts.prompt_version(), state["set"], split, runs, iterations, holdout,
                              seed, attempts, winner, why, paired, stop, detail, rejected,
                              tuple(c.name for c in base), round(time.perf_counter() - t0, 3), tally)

    # -- prompts and split --------------------------------------------------------------------------------
    material = build_material(doc)
    chosen, reason, kind = await choose_prompts(doc, gateway, material, writer_model=m["writer"],
                                                given=prompt_set, tally=tally)
    if chosen is None:
        if kind == ErrorKind.DRY_RUN:
            await _estimate(gateway, base, me, doc, m, rounds=iterations, prompts_n=20, runs=runs, others=others,
                                improver_calls=iterations - 1)
            return finish("dry_run", reason)
        return finish("budget" if kind == ErrorKind.BUDGET else "no_prompts", reason)
    state["set"] = chosen
    try:
        split = stratified_split(chosen.prompts, holdout, seed=seed)
    except SplitError as exc:
        return finish("no_prompts", str(exc))
    state["split"] = split
    labelled = [(p, "train") for p in split.train] + [(p, "test") for p in split.test]
    redact = Redactor(split.test)
    planned = iterations * len(labelled) * runs + (iterations - 1)
    done = 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(what, done, planned)

    async def measure(description: str) -> tuple[list[PromptResult], _Stop | None]:
        cards = with_description(base, me.name, description)
        stop: list[_Stop] = []

        async def one(p: TestPrompt, run: int) -> tuple[str | None, str | None]:
            try:
                reply = await gateway.call(router_request(cards, p.prompt, model=m["simulate"],
                                                          cache_salt=f"optimize-{run}"))
            except LLMError as exc:
                if exc.kind in STOPPING:
                    stop.append(_Stop(exc.kind, exc.reason))
                else:
                    tally.failures += 1
                tick("routing")
                return None, exc.reason
            tally.add("route", reply)
            tick("routing")
            return decision_of(reply), None

        jobs = [(p, s, run) for p, s in labelled for run in range(runs)]
        outs: list[tuple[str | None, str | None]] = []
        if jobs and not batch:  # the first call writes the skills list into the API's prompt cache
            outs.append(await one(jobs[0][0], jobs[0][2]))
            jobs_rest = jobs[1:]
        else:
            jobs_rest = jobs
        outs += await asyncio.gather(*(one(p, run) for p, _s, run in jobs_rest))
        results = []
        for i, (p, s) in enumerate(labelled):
            mine = outs[i * runs:(i + 1) * runs]
            decided = tuple(d for d, err in mine if err is None)
            errors = tuple(err for _d, err in mine if err is not None)
            results.append(PromptResult(p, s, decided, errors, me.name))
        return results, (stop[0] if stop else None)

    def attempt(index: int, description: str, results: list[PromptResult], why: str = "") -> Attempt:
        train = split_score([r for r in results if r.split == "train"])
        test = split_score([r for r in results if r.split == "test"]) if split.test else None
        a = Attempt(index, description, results, train, test, why)
        attempts.append(a)
        return a

    current, why = me.description, ""
    try:
        for it in range(iterations):
            results, stopped = await measure(current)
            a = attempt(it, current, results, why)
            if stopped is not None:
                if stopped.kind == ErrorKind.DRY_RUN:
                    await _estimate(gateway, base, me, doc, m, rounds=iterations - it - 1, prompts_n=len(labelled),
                                    runs=runs, others=others, improver_calls=iterations - it - 1)
                    return finish("dry_run")
                return finish("budget" if stopped.kind == ErrorKind.BUDGET else "cancelled", stopped.reason)
            train_results = [r for r in a.results if r.split == "train"]
            if all(r.passed for r in train_results):
                return finish("train_perfect")
            if it == iterations - 1:
                break
            tried = [Tried(x.description, x.train.passed, x.train.n) for x in attempts]
            request = improve_request(doc, name=me.name, current=current, train=train_results, tried=tried,
                                      others=others, runs=runs, redact=redact, model=m["improve"])
            if redact.leaks(request):  # a guarantee, not a hope: nothing held out is ever sent
                return finish("improver_failed", "the improver's request would have shown a held-out prompt")
            asked = await ask(gateway, request, validator(doc.text, [x.description for x in attempts]), tally=tally)
            tick("improver")
            if asked.value is None:
                if asked.kind == ErrorKind.DRY_RUN:
                    await _estimate(gateway, base, me, doc, m, rounds=iterations - it - 1, prompts_n=len(labelled),
                                    runs=runs, others=others, improver_calls=max(0, iterations - it - 2))
                    return finish("dry_run")
                if asked.kind == ErrorKind.BUDGET:
                    return finish("budget", asked.reason)
                rejected.append(asked.reason or "no reason")
                return finish("improver_failed", asked.reason)
            current, why = asked.value.description, asked.value.why
    except asyncio.CancelledError:
        if not keep_on_cancel:
            raise
        return finish("cancelled")
    return finish("max_iterations")


STAND_IN = "x" * 1024  # an upper bound of a candidate description


async def _estimate(gateway: CallsModels, base: Sequence[SkillCard], me: SkillCard, doc: SkillDocument,
                    m: Mapping[str, str], *, rounds: int, prompts_n: int, runs: int, others: Sequence[SkillCard],
                    improver_calls: int) -> None:
    """Dry run: stand-ins of the calls still to come (each raises DRY_RUN and is counted in the gateway's
    plan): `rounds` measurements of `prompts_n` prompts x `runs` with a 1024-character description and
    `improver_calls` improver calls (an upper bound: no early stop)."""
    cards = with_description(base, me.name, STAND_IN)
    reqs: list[Request] = []
    for i in range(max(0, rounds)):
        for k in range(prompts_n):
            for run in range(runs):
                reqs.append(router_request(cards, f"Stand-in user request {k} for the estimate " + "y" * 60,
                                           model=m["simulate"], cache_salt=f"optimize-est-{i}-{run}"))
    fake = [PromptResult(TestPrompt("y" * 80, True), "train", (None,) * runs, (), me.name)] * min(prompts_n, 12)
    for i in range(max(0, improver_calls)):
        reqs.append(improve_request(doc, name=me.name, current=STAND_IN, train=fake,
                                    tried=[Tried(STAND_IN, 0, prompts_n)] * (i + 1), others=others, runs=runs,
                                    redact=Redactor(()), model=m["improve"], cache_salt=f"optimize-est-{i}"))
    for r in reqs:
        try:
            await gateway.call(r)
        except LLMError:
            pass
