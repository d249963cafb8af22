"""Layer 3, Monte Carlo: repeated routing simulations, the activated ones carried through the task and graded.

One simulation (analyzers/routing.py's router, the same skill list as the judge's):
1. the router sees the skills by name and description and the `Skill` tool; the skill activates when the
   router calls `Skill` with its name;
2. an activated should-trigger prompt continues as an agent would: the SKILL.md arrives as the tool's
   result, the model does the task (no tool use), and
3. a grader scores the answer 0-1 against anchored bands (prompts/mc_grade.md + mc_grade_run.md, the judge's output-quality
   anchors applied to one result), validated like the judge's replies.

API errors and refusals of the router or the task call are failures; a budget stop, a dry run and a
cancellation are not (those simulations did not run). Every simulation is its own cache entry (salt
`mc-<repetition>`), so a re-run replays the finished ones from the cache and makes no call for them.

Prompts cycle positives and near-miss negatives alternately up to `max_n`, sent in waves. Each wave is the
smallest number of further simulations after which the stop COULD be reached (`next_wave`: the best case of
the Clopper-Pearson 95% CI half-widths of the activation rate on positives and the false-activation rate on
negatives, after `min_each` of each), so an adaptive run overshoots its stopping point by nothing and a
`--batch` run sends one batch per round of a wave (routes, then tasks, then grades) instead of all of max_n.
The run stops once both half-widths are under `ci_target`.

Continuations (task + grade) are the expensive part of a simulation, and the quality statistics need fewer
of them than the routing rates need decisions: after `min_graded` graded answers, activated positives go on
to the task only while the t interval of the mean quality is wider than `ci_target` (half-width). Later
activated positives are routing trials only (`continued` false): they count for the activation statistics
and the failure rate (their router call), not for quality or tokens. With ci_target 0 every activated
positive continues. Statistics (analyzers/stats.py) are computed by us from the decisions. What reaches
triggering accuracy is Youden's J = recall - false-activation rate (floored at 0), not the seed's raw
activation rate: a skill that fires on every prompt scores 0, not 1 (docs/scoring.md).

Prompt caching: the tools and the router's system prompt (the skill listing) are one cached prefix for every
router and task call; the grader's instruction and skill blocks are cached for every grading call. The
SKILL.md tool result follows the user's request, so only a repetition of the same request can read it: it is
marked for caching only when such a repetition is expected to continue too (`reuse_expected`), since a cache
write costs 1.25x an uncached read of the same tokens.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import prompts
from ..document import SkillDocument
from ..llm.types import ErrorKind, LLMError, Reply, Request, Usage
from ..mc_prompts import PromptSet, examples_from_frontmatter
from ..routing import (
    SKILL_TOOL,
    SkillCard,
    TestPrompt,
    decision_of,
    router_request,
    router_system,
    seed_of,
    skill_list,
    write_prompts,
)
from ..scoring import grade
from ..stats import (
    Interval,
    Spread,
    clopper_pearson,
    coefficient_of_variation,
    efficiency_norm,
    mc_score,
    mean_half_width,
    spread,
    trials_to_reach,
    wilson,
    youden_j,
)
from .ask import CallsModels, Invalid, Tally, ask, reply_json
from .judge import BAND_SLACK, BANDS, DEFAULT_MODELS, SCORE_STEPS, _cards, target_card
from .material import DEFAULT_TOKEN_BUDGET, SkillMaterial, build_material

DEFAULT_N = 50
DEFAULT_CI = 0.10
MIN_EACH = 10  # positives and negatives decided before an early stop is considered
MIN_GRADED = 10  # graded answers before the quality sample may stop growing
MC_POSITIVE = 10  # prompts the writer is asked for
MC_NEGATIVE = 10
TASK_MAX_TOKENS = 2048
GRADE_MAX_TOKENS = 1200
MAX_ANSWER_CHARS = 12_000
TOOL_USE_ID = "toolu_mc_skill"
NOT_RUN = frozenset({ErrorKind.BUDGET, ErrorKind.DRY_RUN, ErrorKind.CANCELLED, ErrorKind.NO_KEY})
MEASURED = ("triggering_accuracy", "output_quality", "robustness", "token_efficiency")
NOT_MEASURED_REASON = ("Monte Carlo has no measurement for this dimension (the seed gives it a share but no "
                       "method); it is blended from the other layers")
STOP_REASONS = {
    "ci_target": "the CI half-widths fell under the target",
    "max_reached": "the maximum number of simulations ran",
    "budget": "the budget would have been exceeded",
    "cancelled": "cancelled; the finished simulations are kept",
    "dry_run": "dry run: nothing was sent",
    "no_prompts": "no test prompts",
}

ProgressFn = Callable[[str, int, int], None]  # (what just finished, simulations done, planned maximum)

GRADE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rationale": {"type": "string"},
        "band": {"type": "string", "enum": [b[0] for b in BANDS]},
        "score": {"type": "number", "enum": list(SCORE_STEPS)},
    },
    "required": ["rationale", "band", "score"],
    "additionalProperties": False,
}


# ---- requests ----------------------------------------------------------------------------------------------

def skill_text(doc: SkillDocument, limit_chars: int = 4 * DEFAULT_TOKEN_BUDGET) -> str:
    """What the `Skill` tool returns: the SKILL.md as the agent would load it."""
    return doc.text[:limit_chars]


def task_request(cards: Sequence[SkillCard], me: SkillCard, prompt: str, text: str, *, model: str,
                 cache_salt: str, cache_skill: bool = True) -> Request:
    """The agent's turn after loading the skill: router system (cached prefix), the user's prompt, its own
    `Skill` call and the SKILL.md as the tool result (cache_skill: marked for caching, so a repetition of the
    same prompt reads it)."""
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": TOOL_USE_ID, "content": text}
    if cache_skill:
        result["cache_control"] = {"type": "ephemeral"}
    return Request(
        kind="task",
        model=model,
        system=({"type": "text", "text": router_system(cards), "cache_control": {"type": "ephemeral"}},),
        messages=(
            {"role": "user", "content": prompt},
            {"role": "assistant", "content": [{"type": "tool_use", "id": TOOL_USE_ID, "name": SKILL_TOOL["name"],
                                               "input": {"skill": me.name}}]},
            {"role": "user", "content": [result]},
        ),
        max_tokens=TASK_MAX_TOKENS,
        tools=(SKILL_TOOL,),
        tool_choice={"type": "none"},
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


def grade_request(material: SkillMaterial, prompt: str, answer: str, *, model: str, cache_salt: str) -> Request:
    """The grader: the judge's instructions and skill block, then the grading instructions (all cached, the
    same for every simulation of this skill); the user turn holds only this run's request and answer."""
    instructions = prompts.render("mc_grade.md", nonce=material.nonce)
    user = prompts.render("mc_grade_run.md", nonce=material.nonce, request=prompt, answer=answer[:MAX_ANSWER_CHARS])
    return Request(
        kind="grade",
        model=model,
        system=(*material.system_blocks(),
                {"type": "text", "text": instructions, "cache_control": {"type": "ephemeral"}}),
        messages=({"role": "user", "content": user},),
        max_tokens=GRADE_MAX_TOKENS,
        json_schema=GRADE_SCHEMA,
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


@dataclass(frozen=True, slots=True)
class Graded:
    score: float
    band: str
    rationale: str


def validate_grade(value: Any) -> Graded:
    if not isinstance(value, dict):
        raise Invalid("expected one JSON object")
    missing = [k for k in GRADE_SCHEMA["required"] if k not in value]
    if missing:
        raise Invalid(f"missing required field(s): {', '.join(missing)}")
    rationale, score, band = value["rationale"], value["score"], value["band"]
    if not isinstance(rationale, str) or not rationale.strip():
        raise Invalid("rationale must be a non-empty string")
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise Invalid(f"score must be a number, got {score!r}")
    if not 0.0 <= score <= 1.0:
        raise Invalid(f"score {score} is outside 0.0-1.0")
    spans = {b[0]: (b[1], b[2]) for b in BANDS}
    if band not in spans:
        raise Invalid(f"band must be one of {', '.join(spans)}; got {band!r}")
    lo, hi = spans[band]
    if not lo - BAND_SLACK <= score <= hi + BAND_SLACK:
        raise Invalid(f"score {score} is outside its band {band}")
    return Graded(round(float(score), 4), band, rationale.strip())


# ---- one simulation ----------------------------------------------------------------------------------------

@dataclass(slots=True)
class Simulation:
    index: int
    prompt: TestPrompt
    repetition: int
    status: str = "ok"  # "ok", "failed" (counts as a failure), "not_run" (budget, dry run, cancelled)
    decided: str | None = None  # the skill the router loaded
    routed: bool = False  # the router call answered
    activated: bool = False
    continued: bool = False  # an activated positive carried through the task (and graded)
    error: str | None = None
    error_kind: str | None = None
    quality: float | None = None
    quality_reason: str | None = None
    tokens: int | None = None  # route + task tokens as reported (input, output, cache write and read)
    answer_chars: int = 0
    stopped_by: ErrorKind | None = None  # a budget stop, dry run or cancel on this simulation's call

    def stopped(self, kind: ErrorKind) -> bool:
        return self.stopped_by == kind or (self.status == "not_run" and self.error_kind == kind)

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"i": self.index, "prompt": self.prompt.prompt, "should_trigger": self.prompt.should_trigger,
                             "repetition": self.repetition, "status": self.status, "decided": self.decided,
                             "activated": self.activated}
        if self.activated and self.prompt.should_trigger:
            d["continued"] = self.continued
        for k in ("error", "error_kind", "quality", "quality_reason", "tokens"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d


def _tokens(u: Usage) -> int:
    return u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens


# ---- the result ----------------------------------------------------------------------------------------------

@dataclass(slots=True)
class MonteCarloStats:
    n: int  # simulations that ran (ok or failed)
    positives: int  # positives with a routing decision
    negatives: int
    tp: int
    fp: int
    fn: int
    tn: int
    activation: Interval  # on positives (Clopper-Pearson)
    activation_wilson: Interval
    false_activation: Interval  # on negatives (Clopper-Pearson)
    precision: float | None
    recall: float | None
    f1: float | None
    triggering: float | None  # Youden's J: what reaches triggering accuracy
    quality: Spread
    quality_mean: float | None
    quality_cv: float | None
    quality_cv_reason: str | None
    failure: Interval  # failed / ran (Clopper-Pearson)
    tokens: Spread
    efficiency_norm: float | None
    mc_score: float | None  # the seed's formula (display; not what the composite uses)
    mc_score_reason: str | None
    quality_half_width: float | None = None  # 95% t interval of the mean quality (the quality stop's measure)
    continued: int = 0  # activated positives carried through the task

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        return {
            "n": self.n, "positives": self.positives, "negatives": self.negatives,
            "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn,
            "activation_rate": self.activation.to_dict(), "activation_rate_wilson": self.activation_wilson.to_dict(),
            "false_activation_rate": self.false_activation.to_dict(),
            "precision": r(self.precision), "recall": r(self.recall), "f1": r(self.f1),
            "triggering_j": r(self.triggering),
            "continued": self.continued,
            "quality": {**self.quality.to_dict(), "mean": r(self.quality_mean), "cv": r(self.quality_cv),
                        "ci_half_width": r(self.quality_half_width),
                        **({"cv_reason": self.quality_cv_reason} if self.quality_cv_reason else {})},
            "failure_rate": self.failure.to_dict(),
            "tokens": self.tokens.to_dict(),
            "efficiency_norm": r(self.efficiency_norm),
            "mc_score": r(self.mc_score),
            **({"mc_score_reason": self.mc_score_reason} if self.mc_score_reason else {}),
        }


def summarize(sims: Sequence[Simulation], skill: str) -> MonteCarloStats:
    ran = [s for s in sims if s.status != "not_run"]
    routed = [s for s in ran if s.routed]
    pos = [s for s in routed if s.prompt.should_trigger]
    neg = [s for s in routed if not s.prompt.should_trigger]
    tp = sum(s.activated for s in pos)
    fp = sum(s.activated for s in neg)
    fn, tn = len(pos) - tp, len(neg) - fp
    act, false_act = clopper_pearson(tp, len(pos)), clopper_pearson(fp, len(neg))
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / len(pos) if pos else None
    f1 = 2 * tp / (2 * tp + fp + fn) if pos else None
    trig = youden_j(act.rate, false_act.rate) if act.rate is not None and false_act.rate is not None else None
    qualities = [s.quality for s in ran if s.quality is not None]
    cv, cv_reason = coefficient_of_variation(qualities)
    failure = clopper_pearson(sum(s.status == "failed" for s in ran), len(ran))
    toks = spread([float(s.tokens) for s in ran if s.tokens is not None and s.continued and s.status == "ok"])
    eff = None if toks.median is None else efficiency_norm(toks.median)
    missing = [name for name, v in (("activation rate", act.rate), ("CV of quality", cv),
                                    ("failure rate", failure.rate), ("token median", eff)) if v is None]
    score = None if missing else mc_score(act.rate, cv, failure.rate, eff)  # type: ignore[arg-type]
    return MonteCarloStats(
        len(ran), len(pos), len(neg), tp, fp, fn, tn, act, wilson(tp, len(pos)), false_act, precision, recall, f1,
        trig, spread(qualities), sum(qualities) / len(qualities) if qualities else None, cv, cv_reason, failure,
        toks, eff, score, f"no {', '.join(missing)}" if missing else None, mean_half_width(qualities),
        sum(s.continued for s in ran))


@dataclass(slots=True)
class MonteCarloResult:
    skill: str
    models: dict[str, str]  # simulate (router and task), grade, writer
    prompt_version: str
    prompt_set: PromptSet | None
    prompt_reason: str | None  # why there are no prompts
    max_n: int
    ci_target: float
    stop_reason: str
    simulations: list[Simulation]
    stats: MonteCarloStats
    dimensions: dict[str, tuple[float | None, str | None]]  # name -> (score, reason when None)
    duration_s: float
    usage: Tally
    skills_listed: tuple[str, ...] = ()
    models_reported: tuple[str, ...] = ()

    @property
    def n_used(self) -> int:
        return self.stats.n

    def scores(self) -> dict[str, float]:
        """The Monte Carlo layer's numbers for `scoring.composite` (measured dimensions only)."""
        return {n: s for n, (s, _r) in self.dimensions.items() if s is not None}

    @property
    def unmeasured(self) -> dict[str, str]:
        return {n: r or "unmeasured" for n, (s, r) in self.dimensions.items() if s is None}


def _dimensions(st: MonteCarloStats, why_none: str | None) -> dict[str, tuple[float | None, str | None]]:
    from ..scoring import BLENDS, DIMENSIONS

    def need(value: float | None, reason: str) -> tuple[float | None, str | None]:
        return (value, None) if value is not None else (None, why_none or reason)

    out: dict[str, tuple[float | None, str | None]] = {
        "triggering_accuracy": need(st.triggering, "needs routing decisions on positives and on negatives"),
        "output_quality": need(st.quality_mean, "no activated simulation was graded"),
        "robustness": need(None if st.failure.rate is None else 1.0 - st.failure.rate, "no simulation ran"),
        "token_efficiency": need(st.efficiency_norm, "no activated simulation completed its task"),
    }
    for d in DIMENSIONS:
        if d not in out and BLENDS[d].get("monte_carlo", 0.0) > 0:
            out[d] = (None, NOT_MEASURED_REASON)
    return out


# ---- the run -------------------------------------------------------------------------------------------------

def _models(models: Mapping[str, str] | None) -> dict[str, str]:
    m = {**DEFAULT_MODELS, **{k: v for k, v in (models or {}).items() if v}}
    return {"simulate": m["simulate"], "grade": m.get("grade") or m["judge"], "writer": m["judge"]}


def schedule(prompt_set: PromptSet, max_n: int) -> list[tuple[TestPrompt, int]]:
    """(prompt, repetition) for simulation 0..max_n-1: positives and negatives alternate, each list cycled."""
    pos, neg = prompt_set.positives, prompt_set.negatives
    out: list[tuple[TestPrompt, int]] = []
    for i in range(max_n):
        side, k = (pos, i // 2) if i % 2 == 0 else (neg, i // 2)
        out.append((side[k % len(side)], k // len(side)))
    return out


def _sides(sims: Sequence[Simulation]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((activated, decided) on positives, (activated, decided) on negatives) of the routed simulations."""
    routed = [s for s in sims if s.status != "not_run" and s.routed]
    pos = [s for s in routed if s.prompt.should_trigger]
    neg = [s for s in routed if not s.prompt.should_trigger]
    return (sum(s.activated for s in pos), len(pos)), (sum(s.activated for s in neg), len(neg))


def should_stop(sims: Sequence[Simulation], *, ci_target: float, min_each: int) -> bool:
    """After min_each decided positives and negatives: both rates' CI half-widths under ci_target."""
    (tp, npos), (fp, nneg) = _sides(sims)
    if npos < min_each or nneg < min_each:
        return False
    a = clopper_pearson(tp, npos).half_width
    b = clopper_pearson(fp, nneg).half_width
    return a is not None and b is not None and a < ci_target and b < ci_target


def next_wave(sims: Sequence[Simulation], *, start: int, max_n: int, ci_target: float, min_each: int) -> int:
    """How many simulations the next wave sends: the fewest after which the stop could be reached (every new
    decision on a side going one way: the best case), so the run never goes past its stopping point by more
    than the decisions that failed; all that is left when the target cannot be reached within max_n. The
    schedule alternates positives and negatives, so k more decisions on one side take about 2k simulations."""
    left = max_n - start
    (tp, npos), (fp, nneg) = _sides(sims)
    per_side = (left + 1) // 2
    need = [trials_to_reach(x, n, ci_target, at_least=min_each, limit=per_side) for x, n in ((tp, npos), (fp, nneg))]
    if any(m is None for m in need):
        return left
    return max(1, min(left, 2 * max(need)))  # type: ignore[type-var]


def quality_quota(sims: Sequence[Simulation], *, ci_target: float, min_graded: int) -> int | None:
    """How many more activated positives continue to the task: up to min_graded graded answers; then, while
    the mean quality's 95% t half-width is not under ci_target, the number the current spread says are still
    needed (n with t * s / sqrt(n) < ci_target, at least one; None: all of them when ci_target is 0); then 0."""
    grades = [s.quality for s in sims if s.quality is not None]
    n = len(grades)
    if n < min_graded:
        return min_graded - n
    if ci_target <= 0:
        return None
    hw = mean_half_width(grades)  # type: ignore[arg-type]
    if hw is None or hw < ci_target:
        return 0
    return max(1, math.ceil(n * (hw / ci_target) ** 2) - n)  # hw shrinks like 1/sqrt(n) at this spread


def reuse_expected(rep: int, distinct_positives: int, *, ci_target: float, min_graded: int) -> bool:
    """Is a continuation of the same prompt expected after this one (so its SKILL.md tool result is worth a
    cache write)? Yes when every activated positive continues (ci_target 0), when the minimum quality sample
    needs the prompts more than once, or once a prompt is already on its second continuation."""
    return ci_target <= 0 or distinct_positives < min_graded or rep >= 1


async def choose_prompts(doc: SkillDocument, gateway: CallsModels, material: SkillMaterial, *, writer_model: str,
                         given: PromptSet | None = None, tally: Tally | None = None
                         ) -> tuple[PromptSet | None, str | None, ErrorKind | None]:
    """(prompt set, reason when none, error kind): the given set, the skill's examples, or the writer's."""
    if given is not None:
        return given, None, None
    own = examples_from_frontmatter(doc.frontmatter.data or {})
    if own is not None:
        return own, None, None
    written = await write_prompts(gateway, material.system_blocks(), model=writer_model, n_positive=MC_POSITIVE,
                                  n_negative=MC_NEGATIVE, cache_salt="montecarlo", tally=tally)
    if written.value is None:
        return None, f"test prompts: {written.reason}", written.kind
    return PromptSet(tuple(written.value), "generated", written.model or writer_model), None, None


async def run_montecarlo(doc: SkillDocument, gateway: CallsModels, *, models: Mapping[str, str] | None = None,
                         prompt_set: PromptSet | None = None,
                         workspace_skills: Sequence[SkillCard | tuple[str, str]] = (),
                         max_n: int = DEFAULT_N, ci_target: float = DEFAULT_CI, min_each: int = MIN_EACH,
                         min_graded: int = MIN_GRADED, wave: int | None = None, progress: ProgressFn | None = None,
                         keep_on_cancel: bool = False) -> MonteCarloResult:
    """Monte Carlo for one skill. models: {"judge" (prompt writer), "simulate" (router and task), "grade"}.

    prompt_set: the user's prompts (mc_prompts.load_prompts_file); None: the skill's examples, else written.
    Model failures never raise. Cancellation propagates unless keep_on_cancel, which returns the finished
    simulations with stop reason "cancelled" (the CLI's Ctrl-C). wave: at most this many simulations per wave
    (None: `next_wave` sizes each wave by the stop rule, also under --batch).
    """
    if max_n < 2:
        raise ValueError("max_n must be at least 2")
    t0 = time.perf_counter()
    m = _models(models)
    material = build_material(doc)
    me = target_card(doc)
    cards = skill_list(me, _cards(workspace_skills), seed=seed_of(f"{me.name}\n{me.description}"))
    text = skill_text(doc)
    tally = Tally()
    models_seen: set[str] = set()
    sims: list[Simulation] = []

    def finish(stop: str, chosen: PromptSet | None, reason: str | None) -> MonteCarloResult:
        st = summarize(sims, me.name)
        why_none = reason if not sims else None
        return MonteCarloResult(
            me.name, m, prompts.prompt_version(), chosen, reason, max_n, ci_target, stop, sims, st,
            _dimensions(st, why_none), round(time.perf_counter() - t0, 3), tally, tuple(c.name for c in cards),
            tuple(sorted(models_seen)))

    chosen, reason, kind = await choose_prompts(doc, gateway, material, writer_model=m["writer"],
                                                given=prompt_set, tally=tally)
    if chosen is None:
        if kind == ErrorKind.DRY_RUN:
            await _estimate(gateway, cards, me, material, text, m, routes=max_n, continuations=(max_n + 1) // 2)
            return finish("dry_run", None, reason)
        return finish("budget" if kind == ErrorKind.BUDGET else "no_prompts", None, reason)

    if not chosen.positives or not chosen.negatives:
        return finish("no_prompts", chosen, "the test prompts need both prompts that should use the skill and "
                      "near misses that should not")
    plan = schedule(chosen, max_n)
    distinct_positives = len(chosen.positives)
    batched = getattr(gateway, "batches", None) is not None
    done = 0

    async def call(request: Request) -> Reply:
        reply = await gateway.call(request)
        tally.add(request.kind, reply)
        if reply.model:
            models_seen.add(reply.model)
        return reply

    def finished(sim: Simulation) -> Simulation:
        nonlocal done
        sims.append(sim)  # only finished simulations: a cancelled one raises before this
        done += 1
        if progress is not None:
            progress("simulations", done, max_n)
        return sim

    async def route(i: int, tp: TestPrompt, rep: int) -> Simulation:
        sim = Simulation(i, tp, rep)
        try:
            reply = await call(router_request(cards, tp.prompt, model=m["simulate"], cache_salt=f"mc-{rep}"))
        except LLMError as exc:
            return _failed(sim, exc)
        sim.routed, sim.decided = True, decision_of(reply)
        sim.activated = sim.decided == me.name
        sim.tokens = _tokens(reply.usage)
        return sim

    async def carry_on(sim: Simulation) -> Simulation:
        """The activated positive's task and its grading."""
        tp, salt = sim.prompt, f"mc-{sim.repetition}"
        sim.continued = True
        cache_skill = reuse_expected(sim.repetition, distinct_positives, ci_target=ci_target, min_graded=min_graded)
        try:
            answer = await call(task_request(cards, me, tp.prompt, text, model=m["simulate"], cache_salt=salt,
                                             cache_skill=cache_skill))
        except LLMError as exc:
            return _failed(sim, exc)
        sim.tokens = (sim.tokens or 0) + _tokens(answer.usage)
        sim.answer_chars = len(answer.text or "")
        if not (answer.text or "").strip():
            sim.status, sim.error = "failed", "the agent's answer was empty"
            return sim
        asked = await ask(gateway, grade_request(material, tp.prompt, answer.text, model=m["grade"],
                                                 cache_salt=salt),
                          lambda r: validate_grade(reply_json(r)), tally=tally)
        if asked.value is not None:
            sim.quality = asked.value.score
        elif asked.kind in NOT_RUN:
            sim.quality_reason, sim.stopped_by = f"not graded: {asked.reason}", asked.kind
        else:
            sim.quality_reason = asked.reason
        return sim

    async def run_wave(batch: list[tuple[int, tuple[TestPrompt, int]]]) -> None:
        """Route the wave, then carry the activated positives the quality sample still needs through the task."""
        waiting: list[Simulation] = []

        async def routed(i: int, p: TestPrompt, r: int) -> None:
            sim = await route(i, p, r)
            if sim.routed and sim.activated and sim.prompt.should_trigger:
                waiting.append(sim)
            else:
                finished(sim)  # a routing trial is complete (kept if the run is cancelled now)

        if not sims and not batched and len(batch) > 1:  # one call first writes the shared prefix (tools and
            # skill listing) to the API's prompt cache; in a batch the round goes together instead
            i, (p, r) = batch[0]
            await routed(i, p, r)
            batch = batch[1:]
        await asyncio.gather(*(routed(i, p, r) for i, (p, r) in batch))
        waiting.sort(key=lambda s: s.index)

        async def carry_and_finish(sim: Simulation) -> None:
            finished(await carry_on(sim))

        while waiting:  # in schedule order, so a re-run picks the same ones (and finds them cached)
            quota = quality_quota(sims, ci_target=ci_target, min_graded=min_graded)
            take = len(waiting) if quota is None else min(quota, len(waiting))
            go, waiting = waiting[:take], waiting[take:]
            if not go:  # the quality sample is complete: the rest are routing trials only
                for sim in waiting:
                    finished(sim)
                break
            await asyncio.gather(*(carry_and_finish(s) for s in go))
            halted = next((k for k in (ErrorKind.BUDGET, ErrorKind.DRY_RUN) if any(s.stopped(k) for s in go)), None)
            if halted is not None:  # the rest cannot continue either: not run, like the ones that just stopped
                for sim in waiting:
                    sim.status, sim.stopped_by, sim.error_kind = "not_run", halted, str(halted)
                    sim.error = "not continued: the run stopped (budget or dry run)"
                    finished(sim)
                break

    stop = "max_reached"
    start = 0
    try:
        while start < max_n:
            size = next_wave(sims, start=start, max_n=max_n, ci_target=ci_target, min_each=min_each)
            if wave:
                size = min(size, wave)
            await run_wave(list(enumerate(plan[start:start + size], start)))
            start += size
            if any(s.stopped(ErrorKind.DRY_RUN) for s in sims):
                sent_routes = start
                await _estimate(gateway, cards, me, material, text, m, routes=max(0, max_n - sent_routes),
                                continuations=sum(p.should_trigger for p, _r in plan))
                stop = "dry_run"
                break
            if any(s.stopped(ErrorKind.BUDGET) for s in sims):
                stop = "budget"
                break
            if should_stop(sims, ci_target=ci_target, min_each=min_each):
                stop = "ci_target"
                break
    except asyncio.CancelledError:
        if not keep_on_cancel:
            raise
        stop = "cancelled"
    sims.sort(key=lambda s: s.index)
    return finish(stop, chosen, None)


def _failed(sim: Simulation, exc: LLMError) -> Simulation:
    sim.status = "not_run" if exc.kind in NOT_RUN else "failed"
    sim.stopped_by = exc.kind if exc.kind in NOT_RUN else None
    sim.error, sim.error_kind = exc.reason, str(exc.kind)
    return sim


STAND_IN = "Please help me with this task in my repository: " + "x" * 60
STAND_IN_ANSWER = "y" * 2000


async def _estimate(gateway: CallsModels, cards: Sequence[SkillCard], me: SkillCard, material: SkillMaterial,
                    text: str, m: Mapping[str, str], *, routes: int, continuations: int) -> None:
    """Dry run: send the gateway stand-ins of the calls still to come (each raises DRY_RUN and is counted in
    its plan): `routes` router calls and `continuations` task + grading pairs (an upper bound: every positive
    activates, no early stop)."""
    reqs: list[Request] = []
    for i in range(routes):
        reqs.append(router_request(cards, STAND_IN, model=m["simulate"], cache_salt=f"mc-est-{i}"))
    for i in range(continuations):
        salt = f"mc-est-{i}"
        reqs += [task_request(cards, me, STAND_IN, text, model=m["simulate"], cache_salt=salt),
                 grade_request(material, STAND_IN, STAND_IN_ANSWER, model=m["grade"], cache_salt=salt)]
    for r in reqs:
        try:
            await gateway.call(r)
        except LLMError:
            pass


def montecarlo_layer(result: MonteCarloResult) -> dict:
    """The JSON record of the Monte Carlo layer (`layers[2]` of a report)."""
    dims = {}
    for name, (score, reason) in result.dimensions.items():
        d: dict[str, Any] = {"score": None if score is None else round(score, 4), "grade": grade(score)}
        if reason is not None:
            d["reason"] = reason
        dims[name] = d
    return {
        "name": "monte_carlo",
        "layer": "monte_carlo",
        "model": result.models["simulate"],
        "models": dict(result.models),
        "models_reported": list(result.models_reported),
        "prompt_version": result.prompt_version,
        "prompts": None if result.prompt_set is None else result.prompt_set.to_dict(),
        "prompts_reason": result.prompt_reason,
        "n_max": result.max_n,
        "n_used": result.n_used,
        "ci_target": result.ci_target,
        "stop_reason": result.stop_reason,
        "stop": STOP_REASONS.get(result.stop_reason, result.stop_reason),
        "statistics": result.stats.to_dict(),
        "dimensions": dims,
        "unmeasured": result.unmeasured,
        "skills_listed": list(result.skills_listed),
        "simulations": [s.to_dict() for s in result.simulations],
        "duration_s": result.duration_s,
        "usage": result.usage.to_dict(),
    }


def planned_requests(doc: SkillDocument, *, models: Mapping[str, str] | None = None, max_n: int = DEFAULT_N,
                     workspace_skills: Sequence[SkillCard | tuple[str, str]] = (),
                     prompt_set: PromptSet | None = None) -> list[Request]:
    """Upper bound of the requests a run sends (the prompt writer unless the prompts are given or the skill has
    its own examples; every positive activates; no early stop), for estimates."""
    from ..routing import prompts_request

    m = _models(models)
    material = build_material(doc)
    me = target_card(doc)
    cards = skill_list(me, _cards(workspace_skills), seed=seed_of(f"{me.name}\n{me.description}"))
    text = skill_text(doc)
    out: list[Request] = []
    if prompt_set is None and examples_from_frontmatter(doc.frontmatter.data or {}) is None:
        out.append(prompts_request(material.system_blocks(), model=m["writer"], n_positive=MC_POSITIVE,
                                   n_negative=MC_NEGATIVE, cache_salt="montecarlo"))
    for i in range(max_n):
        salt = f"mc-est-{i}"
        out.append(router_request(cards, STAND_IN, model=m["simulate"], cache_salt=salt))
        if i % 2 == 0:
            out += [task_request(cards, me, STAND_IN, text, model=m["simulate"], cache_salt=salt),
                    grade_request(material, STAND_IN, STAND_IN_ANSWER, model=m["grade"], cache_salt=salt)]
    return out

