"""Layer 2, the LLM judge: every dimension to which the seed's blend table gives the judge a weight, measured.

- Triggering accuracy is *measured*: the routing simulation (analyzers/routing.py) writes 10 prompts and
  routes each through a router that sees only names and descriptions; the score is the F1 we compute from
  its decisions. A rubric call then explains the misses from the description (its own score is reported as
  `rubric_score`, never used as the dimension's score).
- Every other dimension: one call per dimension with its anchored rubric (analyzers/prompts/rubrics/), the
  whole SKILL.md and its references/ within a token budget as delimited data, and a JSON schema. The reply is
  validated (required fields, enums, score in range and inside the chosen band, evidence quotes that occur in
  the skill's files); an invalid reply is re-asked once with the error; after that the dimension is
  unmeasured with the reason. There is no default score anywhere.
- `judges=N` runs N independent judges (their own cache salt), averages each dimension over the judges that
  produced a number and reports agreement (Cohen's kappa for 2 judges, Fleiss' for more).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import prompts
from ..document import SkillDocument
from ..llm.types import ErrorKind, LLMError, Reply, Request
from ..routing import (
    N_NEGATIVE,
    N_POSITIVE,
    Decision,
    Metrics,
    SkillCard,
    TestPrompt,
    metrics,
    route_all,
    seed_of,
    skill_list,
    write_prompts,
)
from ..scoring import BLENDS, DIMENSIONS, grade
from ..stats import GRADE_ORDER, Agreement, cohen_kappa, fleiss_kappa
from .ask import CallsModels, Invalid, Tally, ask, reply_json
from .material import DEFAULT_TOKEN_BUDGET, Evidence, SkillMaterial, build_material

JUDGED: tuple[str, ...] = tuple(d for d in DIMENSIONS if BLENDS[d].get("judge", 0.0) > 0)
ROUTED = "triggering_accuracy"  # the dimension whose score is the routing F1
BANDS: tuple[tuple[str, float, float], ...] = (
    ("0.00-0.19", 0.0, 0.19), ("0.20-0.39", 0.2, 0.39), ("0.40-0.59", 0.4, 0.59),
    ("0.60-0.79", 0.6, 0.79), ("0.80-1.00", 0.8, 1.0),
)
BAND_SLACK = 0.011  # a score may sit this far outside its band (0.195 in "0.00-0.19")
SCORE_STEPS = tuple(round(i * 0.05, 2) for i in range(21))  # offered as an enum; any number in [0,1] accepted
MAX_EVIDENCE = 6
MAX_RATIONALE = 4000
JUDGE_MAX_TOKENS = 2500
DEFAULT_MODELS = {"judge": "claude-sonnet-5-5", "simulate": "claude-haiku-5-5"}

TITLES = {d: d.replace("_", " ").capitalize() for d in DIMENSIONS}
TITLES["code_template_quality"] = "Code and template quality"

ProgressFn = Callable[[str, int, int], None]  # (what just finished, calls done, calls planned)


def schema(dimension: str) -> dict[str, Any]:
    """The reply schema for one dimension: reasoning before the verdict (rationale, evidence, band, score)."""
    props: dict[str, Any] = {"rationale": {"type": "string"}}
    order = ["rationale"]
    if dimension == "output_quality":
        props["tasks"] = {
            "type": "array",
            "items": {"type": "object", "properties": {"task": {"type": "string"}, "outcome": {"type": "string"}},
                      "required": ["task", "outcome"], "additionalProperties": False},
        }
        order.append("tasks")
    props["evidence"] = {
        "type": "array",
        "items": {"type": "object", "properties": {"quote": {"type": "string"}},
                  "required": ["quote"], "additionalProperties": False},
    }
    props["band"] = {"type": "string", "enum": [b[0] for b in BANDS]}
    props["score"] = {"type": "number", "enum": list(SCORE_STEPS)}
    order += ["evidence", "band", "score"]
    return {"type": "object", "properties": {k: props[k] for k in order}, "required": order,
            "additionalProperties": False}


_EXTRA = {
    "output_quality": "5. Fill `tasks` with exactly three simulated tasks (typical, harder, edge case): the task "
                      "a user brings and the outcome an agent following this skill would reach.",
}


def judge_request(material: SkillMaterial, dimension: str, *, model: str, cache_salt: str = "",
                  routing_table: str = "") -> Request:
    extra = _EXTRA.get(dimension, "")
    if routing_table:
        extra += "\n\nRouting simulation results (prompt | should use this skill | router's choice):\n" + routing_table
    user = prompts.render("judge.md", title=TITLES[dimension], rubric=prompts.rubric(dimension), extra=extra)
    return Request(
        kind="judge",
        model=model,
        system=material.system_blocks(),
        messages=({"role": "user", "content": user},),
        max_tokens=JUDGE_MAX_TOKENS,
        json_schema=schema(dimension),
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """One judge's validated answer on one dimension."""

    score: float
    band: str
    rationale: str
    evidence: tuple[Evidence, ...]
    tasks: tuple[tuple[str, str], ...] = ()


def validate_verdict(value: Any, dimension: str, material: SkillMaterial) -> Verdict:
    if not isinstance(value, dict):
        raise Invalid("expected one JSON object")
    missing = [k for k in schema(dimension)["required"] if k not in value]
    if missing:
        raise Invalid(f"missing required field(s): {', '.join(missing)}")
    rationale = value["rationale"]
    if not isinstance(rationale, str) or not rationale.strip():
        raise Invalid("rationale must be a non-empty string")
    if len(rationale) > MAX_RATIONALE:
        raise Invalid(f"rationale is longer than {MAX_RATIONALE} characters")
    score = value["score"]
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise Invalid(f"score must be a number, got {score!r}")
    if not 0.0 <= score <= 1.0:
        raise Invalid(f"score {score} is outside 0.0-1.0")
    band = value["band"]
    spans = {b[0]: (b[1], b[2]) for b in BANDS}
    if band not in spans:
        raise Invalid(f"band must be one of {', '.join(spans)}; got {band!r}")
    lo, hi = spans[band]
    if not lo - BAND_SLACK <= score <= hi + BAND_SLACK:
        raise Invalid(f"score {score} is outside its band {band}")
    raw_evidence = value["evidence"]
    if not isinstance(raw_evidence, list):
        raise Invalid("evidence must be a list")
    if len(raw_evidence) > MAX_EVIDENCE:
        raise Invalid(f"give at most {MAX_EVIDENCE} evidence quotes")
    found: list[Evidence] = []
    absent: list[str] = []
    for i, item in enumerate(raw_evidence):
        quote = item.get("quote") if isinstance(item, dict) else None
        if not isinstance(quote, str) or not quote.strip():
            raise Invalid(f"evidence[{i}].quote must be a non-empty string")
        ev = material.locate(quote)
        if ev is None:
            absent.append(quote if len(quote) <= 120 else quote[:117] + "...")
        else:
            found.append(ev)
    if absent:
        raise Invalid("these evidence quotes do not occur verbatim in the skill's files: "
                      + "; ".join(f'"{q}"' for q in absent))
    tasks: tuple[tuple[str, str], ...] = ()
    if dimension == "output_quality":
        raw_tasks = value["tasks"]
        if not isinstance(raw_tasks, list) or len(raw_tasks) != 3:
            raise Invalid("tasks must list exactly three simulated tasks")
        parsed = []
        for i, t in enumerate(raw_tasks):
            if not (isinstance(t, dict) and isinstance(t.get("task"), str) and isinstance(t.get("outcome"), str)
                    and t["task"].strip() and t["outcome"].strip()):
                raise Invalid(f"tasks[{i}] needs a non-empty task and outcome")
            parsed.append((t["task"].strip(), t["outcome"].strip()))
        tasks = tuple(parsed)
    return Verdict(round(float(score), 4), band, rationale.strip(), tuple(found), tasks)


# ---- results ----------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DimensionResult:
    name: str
    score: float | None  # mean over the judges that produced a number; None: unmeasured
    grade: str | None
    rationale: str  # the first judge's (with a number); "" when unmeasured
    evidence: tuple[Evidence, ...]
    per_judge: tuple[float | None, ...]  # each judge's score (None: that judge could not measure it)
    method: str  # "rubric" or "routing"
    reason: str | None = None  # why unmeasured (or why some judges produced no number)
    band: str | None = None
    rubric_score: float | None = None  # triggering accuracy: the rubric call's own score (not used)
    tasks: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "score": None if self.score is None else round(self.score, 4),
            "grade": self.grade,
            "method": self.method,
            "rationale": self.rationale,
            "evidence": [e.to_dict() for e in self.evidence],
            "per_judge": [None if s is None else round(s, 4) for s in self.per_judge],
        }
        if self.band is not None:
            d["band"] = self.band
        if self.rubric_score is not None:
            d["rubric_score"] = round(self.rubric_score, 4)
        if self.tasks:
            d["tasks"] = [{"task": t, "outcome": o} for t, o in self.tasks]
        if self.reason is not None:
            d["reason"] = self.reason
        return d


@dataclass(frozen=True, slots=True)
class RoutingRow:
    prompt: str
    should_trigger: bool
    decided: tuple[str | None, ...]  # per judge: the skill the router loaded (None: none)
    errors: tuple[str | None, ...]  # per judge: why there is no decision

    def to_dict(self, skill: str) -> dict:
        d: dict[str, Any] = {
            "prompt": self.prompt,
            "expected": skill if self.should_trigger else None,
            "decided": self.decided[0] if self.decided else None,
        }
        if len(self.decided) > 1:
            d["decided_by_judge"] = list(self.decided)
        if any(self.errors):
            d["errors"] = list(self.errors)
        return d


@dataclass(slots=True)
class JudgeResult:
    skill: str
    model: str  # the judge model requested
    router_model: str
    prompt_version: str
    judges: int
    dimensions: dict[str, DimensionResult]  # every judged dimension, in DIMENSIONS order
    routing: list[RoutingRow]
    routing_metrics: list[Metrics]  # per judge
    agreement: dict[str, Agreement] | None  # None with one judge
    duration_s: float
    usage: Tally
    material: SkillMaterial
    models_reported: tuple[str, ...] = ()  # Reply.model values seen
    skills_listed: tuple[str, ...] = ()  # the router's skill list, in order
    notes: list[str] = field(default_factory=list)

    @property
    def unmeasured(self) -> dict[str, str]:
        return {n: d.reason or "no judge produced a number" for n, d in self.dimensions.items() if d.score is None}

    def scores(self) -> dict[str, float]:
        """The judge layer's numbers for `scoring.composite` (measured dimensions only)."""
        return {n: d.score for n, d in self.dimensions.items() if d.score is not None}

    @property
    def measured(self) -> bool:
        return bool(self.scores())


# ---- the run ----------------------------------------------------------------------------------------------

def _models(models: Mapping[str, str] | None) -> tuple[str, str]:
    m = {**DEFAULT_MODELS, **{k: v for k, v in (models or {}).items() if v}}
    judge_model = m["judge"]
    return judge_model, m.get("simulate") or judge_model


def target_card(doc: SkillDocument) -> SkillCard:
    name = doc.field_text("name")
    if not name or not name.strip():
        name = doc.path.parent.name if doc.path is not None else "this-skill"
    return SkillCard(name.strip(), " ".join((doc.field_text("description") or "").split()))


def _cards(items: Sequence[SkillCard | tuple[str, str]]) -> list[SkillCard]:
    return [i if isinstance(i, SkillCard) else SkillCard(str(i[0]), str(i[1])) for i in items]


def routing_table(decisions: Sequence[Decision]) -> str:
    lines = []
    for d in decisions:
        choice = f"error: {d.error}" if d.error else (d.decided or "(no skill)")
        lines.append(f"- {' '.join(d.prompt.prompt.split())} | {'yes' if d.prompt.should_trigger else 'no'} | {choice}")
    return "\n".join(lines)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _agreement(dimensions: dict[str, DimensionResult], rows: list[RoutingRow], skill: str,
               judges: int) -> dict[str, Agreement]:
    graded = [[grade(s) for s in d.per_judge] for d in dimensions.values() if all(s is not None for s in d.per_judge)]
    decided = [[dec == skill for dec in r.decided] for r in rows if not any(r.errors)]
    if judges == 2:
        return {
            "grades": cohen_kappa([g[0] for g in graded], [g[1] for g in graded], labels=GRADE_ORDER,
                                  weights="quadratic"),
            "routing": cohen_kappa([d[0] for d in decided], [d[1] for d in decided], labels=[False, True]),
        }
    return {"grades": fleiss_kappa(graded, labels=GRADE_ORDER),
            "routing": fleiss_kappa(decided, labels=[False, True])}


async def run_judge(doc: SkillDocument, gateway: CallsModels, *, models: Mapping[str, str] | None = None,
                    judges: int = 1, workspace_skills: Sequence[SkillCard | tuple[str, str]] = (),
                    progress: ProgressFn | None = None, token_budget: int = DEFAULT_TOKEN_BUDGET) -> JudgeResult:
    """Judge one skill. `gateway`: anything with `async call(Request) -> Reply` raising LLMError (the Gateway).

    models: {"judge": id for the rubric calls and the prompt writer, "simulate": id for the router calls};
    missing roles take DEFAULT_MODELS. workspace_skills: the other skills an agent would see (SkillCard or
    (name, description)); this skill itself is skipped by name. progress(label, done, planned) is called
    after every model call. Model failures never raise: they leave dimensions unmeasured with the reason.
    Cancellation (asyncio.CancelledError) propagates.
    """
    if judges < 1:
        raise ValueError("judges must be at least 1")
    t0 = time.perf_counter()
    judge_model, router_model = _models(models)
    material = build_material(doc, token_budget=token_budget)
    me = target_card(doc)
    cards = skill_list(me, _cards(workspace_skills), seed=seed_of(f"{me.name}\n{me.description}"))
    tally = Tally()
    rubric_dims = [d for d in JUDGED if d != ROUTED]
    planned = 1 + judges * (N_POSITIVE + N_NEGATIVE + len(JUDGED))
    done = 0
    models_seen: set[str] = set()

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(label, done, max(planned, done))

    async def verdict(dimension: str, salt: str, table: str = "") -> tuple[Verdict | None, str | None]:
        request = judge_request(material, dimension, model=judge_model, cache_salt=salt, routing_table=table)
        asked = await ask(gateway, request, lambda r: validate_verdict(reply_json(r), dimension, material),
                          tally=tally)
        if asked.model:
            models_seen.add(asked.model)
        tick(f"judged {TITLES[dimension].lower()}")
        return asked.value, asked.reason

    written = await write_prompts(gateway, material.system_blocks(), model=judge_model, tally=tally)
    if written.model:
        models_seen.add(written.model)
    test_prompts: list[TestPrompt] = written.value or []
    if not test_prompts:  # no routing and no triggering critique
        planned -= judges * (N_POSITIVE + N_NEGATIVE + 1)
    tick("wrote test prompts")

    # Prompt caching: every rubric call starts with the same (large) skill block. Calls sent together
    # before the first reply would each write that prefix; so one call goes first and the rest follow
    # once it has answered (one call's latency for up to ~30% of the cost on a large skill:
    # docs/benchmarks.md, "LLM judge").
    warm = asyncio.Event()

    async def after_warm(make: Callable[[], Awaitable[tuple[Verdict | None, str | None]]]):
        await warm.wait()
        return await make()

    async def one_judge(j: int) -> tuple[dict[str, tuple[Verdict | None, str | None]], list[Decision], Metrics | None]:
        salt = f"judge-{j + 1}"
        rubric_tasks: dict[str, asyncio.Task[tuple[Verdict | None, str | None]]] = {}
        for i, d in enumerate(rubric_dims):
            if j == 0 and i == 0:
                first = asyncio.create_task(verdict(d, salt))
                first.add_done_callback(lambda _t: warm.set())
                rubric_tasks[d] = first
            else:
                rubric_tasks[d] = asyncio.create_task(after_warm(lambda d=d: verdict(d, salt)))
        decisions: list[Decision] = []
        m: Metrics | None = None
        out: dict[str, tuple[Verdict | None, str | None]] = {}
        try:
            if test_prompts:
                decisions = await route_all(gateway, cards, test_prompts, model=router_model, cache_salt=salt,
                                            tally=tally, on_done=lambda: tick("routed a test prompt"))
                m = metrics(decisions, me.name)
                if m.f1 is not None:
                    out[ROUTED] = await verdict(ROUTED, salt, routing_table(decisions))
            for d, task in rubric_tasks.items():
                out[d] = await task
        finally:
            for task in rubric_tasks.values():
                task.cancel()
        return out, decisions, m

    per_judge = await asyncio.gather(*(one_judge(j) for j in range(judges)))
    if written.kind == ErrorKind.DRY_RUN:  # let the gateway estimate the routing calls a real run would make
        await _estimate_routing(gateway, material, cards, me, judges, judge_model, router_model)

    dimensions: dict[str, DimensionResult] = {}
    for dim in JUDGED:
        scores: list[float | None] = []
        reasons: list[str] = []
        first: Verdict | None = None
        for verdicts, _decisions, m in per_judge:
            if dim == ROUTED:
                if m is None or m.f1 is None:
                    scores.append(None)
                    reasons.append(f"test prompts: {written.reason}" if written.value is None
                                   else (m.reason if m is not None else "no routing decisions"))
                    continue
                scores.append(m.f1)
                v, _ = verdicts.get(dim, (None, None))
                if first is None and v is not None:
                    first = v
                continue
            v, reason = verdicts.get(dim, (None, "not judged"))
            scores.append(None if v is None else v.score)
            if v is None:
                reasons.append(reason or "no reply")
            elif first is None:
                first = v
        got = [s for s in scores if s is not None]
        score = _mean(got) if got else None
        reason = "; ".join(dict.fromkeys(reasons)) or None
        if dim == ROUTED:
            ms = [m for _v, _d, m in per_judge if m is not None and m.f1 is not None]
            rationale = "; ".join(f"Routing simulation: F1 {m.f1:.2f} (precision {_fmt(m.precision)}, recall "
                                  f"{_fmt(m.recall)}, n={m.n})" for m in ms)
            if first is not None:
                rationale = f"{rationale}. {first.rationale}" if rationale else first.rationale
            dimensions[dim] = DimensionResult(
                dim, score, grade(score), rationale, first.evidence if first else (), tuple(scores), "routing",
                reason, None, first.score if first else None)
        else:
            dimensions[dim] = DimensionResult(
                dim, score, grade(score), first.rationale if first else "", first.evidence if first else (),
                tuple(scores), "rubric", reason, first.band if first else None, None,
                first.tasks if first else ())

    rows: list[RoutingRow] = []
    for i, p in enumerate(test_prompts):
        decided: list[str | None] = []
        errors: list[str | None] = []
        for _verdicts, decisions, _m in per_judge:
            d = decisions[i] if i < len(decisions) else None
            decided.append(d.decided if d else None)
            errors.append(d.error if d else "not routed")
        rows.append(RoutingRow(p.prompt, p.should_trigger, tuple(decided), tuple(errors)))

    notes = []
    if material.omitted:
        notes.append("left out: " + "; ".join(f"{o.file} ({o.reason})" for o in material.omitted))
    return JudgeResult(
        skill=me.name, model=judge_model, router_model=router_model, prompt_version=prompts.prompt_version(),
        judges=judges, dimensions=dimensions, routing=rows,
        routing_metrics=[m for _v, _d, m in per_judge if m is not None],
        agreement=_agreement(dimensions, rows, me.name, judges) if judges > 1 else None,
        duration_s=round(time.perf_counter() - t0, 3), usage=tally, material=material,
        models_reported=tuple(sorted(models_seen)), skills_listed=tuple(c.name for c in cards), notes=notes,
    )


NOT_CACHED = "not in the cache (run the judge to measure it)"


class CacheOnly:
    """Wraps a Gateway so a judge run makes no call: cached replies only (e.g. hover when the editor opens a
    skill judged before). A request not in the cache fails with NOT_CACHED, so its dimension is unmeasured."""

    def __init__(self, gateway: Any) -> None:
        self.gateway = gateway

    async def call(self, request: Request) -> Reply:
        reply = self.gateway.cached_reply(request)
        if reply is None:
            raise LLMError(ErrorKind.API, NOT_CACHED)
        return reply


STAND_IN_PROMPT = "Please help me with this task in my repository: " + "x" * 60  # typical length


async def _estimate_routing(gateway: CallsModels, material: SkillMaterial, cards: Sequence[SkillCard],
                            me: SkillCard, judges: int, judge_model: str, router_model: str) -> None:
    """Dry run: the prompt writer was estimated, not sent, so there are no prompts to route; send the
    gateway stand-ins of the router and critique calls so its plan counts them (each raises DRY_RUN)."""
    from ..routing import router_request

    for j in range(judges):
        salt = f"judge-{j + 1}"
        requests = [router_request(cards, STAND_IN_PROMPT, model=router_model, cache_salt=salt)
                    for _ in range(N_POSITIVE + N_NEGATIVE)]
        requests.append(judge_request(material, ROUTED, model=judge_model, cache_salt=salt,
                                      routing_table=f"- {STAND_IN_PROMPT} | yes | {me.name}"))
        for r in requests:
            try:
                await gateway.call(r)
            except LLMError:
                pass


def planned_requests(doc: SkillDocument, *, models: Mapping[str, str] | None = None, judges: int = 1,
                     workspace_skills: Sequence[SkillCard | tuple[str, str]] = (),
                     token_budget: int = DEFAULT_TOKEN_BUDGET) -> list[Request]:
    """The requests a judge run will send when every reply is valid (for `--dry-run` estimates): the real
    skill material, rubric and skills list; the router prompts are stand-ins of typical length (the real ones
    are written by the first call). Re-asks are not included."""
    from ..routing import prompts_request, router_request

    judge_model, router_model = _models(models)
    material = build_material(doc, token_budget=token_budget)
    me = target_card(doc)
    cards = skill_list(me, _cards(workspace_skills), seed=seed_of(f"{me.name}\n{me.description}"))
    out = [prompts_request(material.system_blocks(), model=judge_model)]
    stand_in = STAND_IN_PROMPT
    for j in range(judges):
        salt = f"judge-{j + 1}"
        out += [router_request(cards, stand_in, model=router_model, cache_salt=salt)
                for _ in range(N_POSITIVE + N_NEGATIVE)]
        out += [judge_request(material, d, model=judge_model, cache_salt=salt,
                              routing_table="- " + stand_in + " | yes | " + me.name if d == ROUTED else "")
                for d in JUDGED]
    return out


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def judge_layer(result: JudgeResult) -> dict:
    """The JSON record of the judge layer (`layers[1]` of a report)."""
    return {
        "name": "judge",
        "layer": "judge",
        "model": result.model,
        "router_model": result.router_model,
        "models_reported": list(result.models_reported),
        "prompt_version": result.prompt_version,
        "judges": result.judges,
        "dimensions": {n: d.to_dict() for n, d in result.dimensions.items()},
        "unmeasured": result.unmeasured,
        "routing": [r.to_dict(result.skill) for r in result.routing],
        "routing_metrics": [m.to_dict() for m in result.routing_metrics],
        "skills_listed": list(result.skills_listed),
        "kappa": None if result.agreement is None else {k: a.to_dict() for k, a in result.agreement.items()},
        "duration_s": result.duration_s,
        "usage": result.usage.to_dict(),
        "material": result.material.to_dict(),
        "notes": list(result.notes),
    }
