"""Run a task suite with the candidate skill and with the baseline, judge every attempt, decide the verdict.

The candidate run gives the model the SKILL.md the way an agent receives an activated skill: the agent's
system prompt lists the skill (name: description), the user's prompt follows, then the agent's own `Skill`
tool call and the SKILL.md as that tool's result (as the Monte Carlo layer continues a simulation). The
baseline is the same model with no skill (the system prompt lists none, no tool) or, with a baseline skill,
the same turn with that skill's SKILL.md. Every model call goes through the gateway (cache, ledger, budget,
deadline); each attempt of a task has its own cache salt, so k attempts are k calls.

Order: the baseline first (from the baseline cache when a fresh entry exists); when its pass rate is under
0.2 the suite is broken and the candidate is not run (verdict `error`). Then the candidate. Verdict: `pass`
when delta = candidate - baseline >= 0, else `fail`; `skipped` is decided before any of this (pipeline mode).
Rates are computed over the tasks that were measured; a task whose every attempt failed to be judged (a model
error, an invalid judge reply) is listed as unmeasured with the reason, never counted as a failure.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .. import prompts
from ..llm.types import LLMError, Reply, Request
from ..routing import SKILL_TOOL
from . import judges as J
from .baseline_cache import BaselineCache, baseline_key
from .passk import mean_estimate, rate, task_estimate, task_passed
from .suite import Suite, Task

ANSWER_MAX_TOKENS = 4096
TOOL_USE_ID = "toolu_eval_skill"
ERROR_FLOOR = 0.2  # a baseline pass rate under this: the suite is broken
MOCK_NOTE = "MOCK RUN: no model was called; canned answers and fixed LLM-judge passes. Not a real evaluation."

ProgressFn = Callable[[str, int, int], None]  # (side, attempts done, attempts planned)


class SkillNotFound(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class SkillUnderTest:
    path: Path  # the SKILL.md
    name: str
    description: str
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def load_skill(path: Path) -> SkillUnderTest:
    """A skill folder or its SKILL.md (SkillNotFound when there is none or it has no name)."""
    from ..parse import parse

    p = Path(path)
    if p.is_dir():
        p = p / "SKILL.md"
    if not p.is_file():
        raise SkillNotFound(f"{path}: no SKILL.md found")
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise SkillNotFound(f"{p}: cannot read it ({exc.strerror or exc})") from None
    doc = parse(text, p)
    name = (doc.field_text("name") or "").strip() or p.parent.name
    description = " ".join((doc.field_text("description") or "").split())
    return SkillUnderTest(p.resolve(), name, description, text)


@dataclass(frozen=True, slots=True)
class Settings:
    model: str  # the model that does the tasks (candidate and baseline alike)
    judge_model: str  # the model behind llm-rubric / llm-binary
    pass_k: int = 1
    attempts: int | None = None  # attempts per task (>= pass_k; default pass_k)
    concurrency: int = 4  # attempts in flight at once (the gateway bounds model calls on its own)
    mock: bool = False
    env: Mapping[str, str] | None = None  # the caller's environment; pytest fixtures get a whitelist of it

    @property
    def n(self) -> int:
        return max(self.attempts or self.pass_k, self.pass_k)


# ---- requests ------------------------------------------------------------------------------------------

def _listing(skill: SkillUnderTest | None) -> str:
    return f"- {skill.name}: {skill.description}" if skill is not None else "(none)"


def answer_request(task: Task, skill: SkillUnderTest | None, *, model: str, attempt: int) -> Request:
    """One attempt at a task: with `skill` the agent has loaded it (Skill tool call + SKILL.md as its result);
    without, the same agent with no skill."""
    system = ({"type": "text", "text": prompts.render("eval_agent.md", skills=_listing(skill)),
               "cache_control": {"type": "ephemeral"}},)
    if skill is None:
        return Request(kind="eval-task", model=model, system=system,
                       messages=({"role": "user", "content": task.prompt},), max_tokens=ANSWER_MAX_TOKENS,
                       prompt_version=prompts.prompt_version(), cache_salt=f"eval-attempt-{attempt}")
    return Request(
        kind="eval-task",
        model=model,
        system=system,
        messages=(
            {"role": "user", "content": task.prompt},
            {"role": "assistant", "content": [{"type": "tool_use", "id": TOOL_USE_ID, "name": SKILL_TOOL["name"],
                                               "input": {"skill": skill.name}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": TOOL_USE_ID, "content": skill.text,
                                          "cache_control": {"type": "ephemeral"}}]},
        ),
        max_tokens=ANSWER_MAX_TOKENS,
        tools=(SKILL_TOOL,),
        tool_choice={"type": "none"},
        prompt_version=prompts.prompt_version(),
        cache_salt=f"eval-attempt-{attempt}",
    )


def mock_answer(task: Task) -> str:
    extra = (" " + " ".join(task.judge.expected)) if task.judge.type == "contains" else ""
    return f"MOCK ANSWER (no model was called) for task {task.id}.{extra}"


# ---- metering --------------------------------------------------------------------------------------------

class Meter:
    """The gateway as one task sees it: the same calls, with this task's tokens, cost and calls added up."""

    def __init__(self, gateway: Any) -> None:
        self.gateway = gateway
        self.calls = 0
        self.cached_calls = 0
        self.tokens = {"input": 0, "output": 0, "cache_creation_input": 0, "cache_read_input": 0}
        self.cost: float | None = 0.0

    async def call(self, request: Request) -> Reply:
        reply = await self.gateway.call(request)
        if reply.cached:
            self.cached_calls += 1
            return reply
        self.calls += 1
        u = reply.usage
        self.tokens["input"] += u.input_tokens
        self.tokens["output"] += u.output_tokens
        self.tokens["cache_creation_input"] += u.cache_creation_input_tokens
        self.tokens["cache_read_input"] += u.cache_read_input_tokens
        prices = getattr(self.gateway, "prices", None)
        cost = None
        if prices is not None:
            cost = prices.cost(reply.model, u)
            if cost is None:
                cost = prices.cost(request.model, u)
        self.cost = None if self.cost is None or cost is None else self.cost + cost
        return reply

    def forget(self, request: Request) -> None:
        forget = getattr(self.gateway, "forget", None)
        if forget is not None:
            forget(request)


# ---- results ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class AttemptResult:
    attempt: int
    passed: bool | None
    score: float | None
    detail: str
    error: str | None
    duration_ms: int
    answer_chars: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"attempt": self.attempt, "passed": self.passed, "score": self.score, "detail": self.detail,
                "error": self.error, "duration_ms": self.duration_ms, "answer_chars": self.answer_chars}


@dataclass(slots=True)
class TaskResult:
    task_id: str
    judge: str
    passed: bool | None  # pass@k; None: not measured
    score: float | None  # the best score among the first k measured attempts
    duration_ms: int
    tokens: dict[str, int]
    cost_usd: float | None
    calls: int
    cached_calls: int
    attempts: list[AttemptResult] = field(default_factory=list)
    pass_at_k_unbiased: float | None = None
    reason: str | None = None  # why the task is unmeasured

    def to_dict(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "passed": self.passed, "score": self.score, "duration_ms": self.duration_ms,
                "judge": self.judge, "tokens": dict(self.tokens),
                "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6), "calls": self.calls,
                "cached_calls": self.cached_calls, "pass_at_k_unbiased": self.pass_at_k_unbiased,
                "reason": self.reason, "attempts": [a.to_dict() for a in self.attempts]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TaskResult:
        return cls(d["task_id"], d["judge"], d["passed"], d["score"], int(d["duration_ms"]), dict(d["tokens"]),
                   d["cost_usd"], int(d["calls"]), int(d["cached_calls"]),
                   [AttemptResult(**a) for a in d.get("attempts", [])], d.get("pass_at_k_unbiased"),
                   d.get("reason"))


def _summarise(task: Task, attempts: list[AttemptResult], meter: Meter, k: int) -> TaskResult:
    attempts.sort(key=lambda a: a.attempt)
    outcomes = [a.passed for a in attempts]
    passed = task_passed(outcomes, k)
    scores = [a.score for a in attempts[:k] if a.score is not None]
    reason = None
    if passed is None:
        reason = next((a.error for a in attempts[:k] if a.error), "not measured")
    estimate = task_estimate(outcomes, k) if len(attempts) > k else None
    return TaskResult(task.id, task.judge.type, passed, max(scores) if scores else None,
                      sum(a.duration_ms for a in attempts), dict(meter.tokens), meter.cost, meter.calls,
                      meter.cached_calls, attempts, estimate, reason)


async def run_attempt(task: Task, skill: SkillUnderTest | None, gateway: Any, settings: Settings, suite: Suite,
                      attempt: int, meter: Meter) -> AttemptResult:
    start = time.monotonic()

    def done(v: J.Verdict, chars: int | None) -> AttemptResult:
        return AttemptResult(attempt, v.passed, v.score, v.detail, v.error,
                             round(1000 * (time.monotonic() - start)), chars)

    if settings.mock:
        answer = mock_answer(task)
    else:
        try:
            async with asyncio.timeout(task.timeout_seconds):
                reply = await meter.call(answer_request(task, skill, model=settings.model, attempt=attempt))
        except TimeoutError:
            return done(J.Verdict(False, 0.0, f"no answer within the task's {task.timeout_seconds:g} s timeout"),
                        None)
        except LLMError as exc:
            return done(J.unjudged(f"the model call failed: {exc.reason}"), None)
        answer = reply.text or ""
    verdict = await J.judge(task.judge, suite_root=suite.root, request=task.prompt, answer=answer,
                            timeout_s=task.timeout_seconds, gateway=meter, model=settings.judge_model,
                            cache_salt=f"eval-judge-{attempt}", mock=settings.mock, env=settings.env)
    return done(verdict, len(answer))


async def run_side(suite: Suite, skill: SkillUnderTest | None, gateway: Any, settings: Settings, *,
                   side: str, progress: ProgressFn | None = None) -> list[TaskResult]:
    """Every task of the suite, `settings.n` attempts each, at most `settings.concurrency` attempts at once."""
    sem = asyncio.Semaphore(max(1, settings.concurrency))
    total = len(suite.tasks) * settings.n
    finished = 0

    async def one(task: Task, attempt: int, meter: Meter) -> AttemptResult:
        nonlocal finished
        async with sem:
            got = await run_attempt(task, skill, gateway, settings, suite, attempt, meter)
        finished += 1
        if progress is not None:
            progress(side, finished, total)
        return got

    async def task_run(task: Task) -> TaskResult:
        meter = Meter(gateway)
        attempts = await asyncio.gather(*(one(task, i, meter) for i in range(1, settings.n + 1)))
        return _summarise(task, list(attempts), meter, settings.pass_k)

    return list(await asyncio.gather(*(task_run(t) for t in suite.tasks)))


# ---- verdict ---------------------------------------------------------------------------------------------

def decide(baseline_rate: Fraction | None, candidate_rate: Fraction | None) -> tuple[str, str]:
    """(verdict, reason): `error` for a broken suite (baseline under 0.2) or nothing measured, else `pass` when
    delta >= 0 and `fail` otherwise."""
    if baseline_rate is None:
        return "error", "no baseline task could be measured"
    if baseline_rate < Fraction(1, 5):
        return "error", f"baseline pass rate {float(baseline_rate):.2f} < {ERROR_FLOOR}: fix the suite first"
    if candidate_rate is None:
        return "error", "no candidate task could be measured"
    delta = candidate_rate - baseline_rate
    if delta >= 0:
        return "pass", f"the candidate is at least as good as the baseline (delta {float(delta):+.2f})"
    return "fail", f"the candidate is worse than the baseline (delta {float(delta):+.2f})"


@dataclass(slots=True)
class Evaluation:
    verdict: str
    reason: str
    candidate_results: list[TaskResult]
    baseline_results: list[TaskResult]
    candidate_rate: Fraction | None
    baseline_rate: Fraction | None
    baseline_cache: dict[str, Any] | None = None  # {"hit": bool, "key", "created_at"} when a cache was used

    @property
    def delta(self) -> Fraction | None:
        if self.candidate_rate is None or self.baseline_rate is None:
            return None
        return self.candidate_rate - self.baseline_rate


async def evaluate(suite: Suite, candidate: SkillUnderTest, baseline: SkillUnderTest | None, gateway: Any,
                   settings: Settings, *, baseline_cache: BaselineCache | None = None, now: float | None = None,
                   progress: ProgressFn | None = None) -> Evaluation:
    """Baseline (cached 7 days when a cache is given; never in mock runs), then, unless the suite is broken,
    the candidate; then the verdict."""
    clock = time.time() if now is None else now
    cache_info: dict[str, Any] | None = None
    base_results: list[TaskResult] | None = None
    key = ""
    if baseline_cache is not None and not settings.mock:
        key = baseline_key(suite_digest=suite.digest, baseline_digest=baseline.digest if baseline else None,
                           model=settings.model, judge_model=settings.judge_model, attempts=settings.n,
                           pass_k=settings.pass_k, prompt_version=prompts.prompt_version())
        hit = baseline_cache.get(key, now=clock)
        cache_info = {"hit": hit is not None, "key": key, "created_at": hit["created_at"] if hit else None}
        if hit is not None:
            base_results = [TaskResult.from_dict(d) for d in hit["results"]]
    if base_results is None:
        base_results = await run_side(suite, baseline, gateway, settings, side="baseline", progress=progress)
        if baseline_cache is not None and not settings.mock and all(r.passed is not None for r in base_results):
            baseline_cache.put(key, [r.to_dict() for r in base_results], now=clock,
                               meta={"suite": str(suite.path), "baseline_skill": str(baseline.path) if baseline
                                     else None, "model": settings.model})
            assert cache_info is not None
            cache_info["created_at"] = clock
    base_rate = rate([r.passed for r in base_results])
    verdict, reason = decide(base_rate, Fraction(1))  # is the suite broken? (the candidate is not run then)
    if verdict == "error":
        return Evaluation(verdict, reason, [], base_results, None, base_rate, cache_info)
    cand_results = await run_side(suite, candidate, gateway, settings, side="candidate", progress=progress)
    cand_rate = rate([r.passed for r in cand_results])
    verdict, reason = decide(base_rate, cand_rate)
    return Evaluation(verdict, reason, cand_results, base_results, cand_rate, base_rate, cache_info)


# ---- artifact ------------------------------------------------------------------------------------------

def _f(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


def _side_totals(results: Sequence[TaskResult]) -> dict[str, Any]:
    tokens = {"input": 0, "output": 0, "cache_creation_input": 0, "cache_read_input": 0}
    cost: float | None = 0.0
    for r in results:
        for k in tokens:
            tokens[k] += r.tokens.get(k, 0)
        cost = None if cost is None or r.cost_usd is None else cost + r.cost_usd
    measured = [r for r in results if r.passed is not None]
    return {"tasks": len(results), "measured": len(measured), "passed": sum(1 for r in measured if r.passed),
            "unmeasured": {r.task_id: r.reason for r in results if r.passed is None},
            "tokens": tokens, "cost_usd": None if cost is None else round(cost, 6),
            "duration_ms": sum(r.duration_ms for r in results),
            "pass_at_k_unbiased": mean_estimate([r.pass_at_k_unbiased for r in results]) if results else None}


def build_artifact(ev: Evaluation, *, run_id: str, mode: str, suite: Suite, candidate: SkillUnderTest | None,
                   baseline: SkillUnderTest | None, settings: Settings, truth_anchor: Path,
                   started_at: str, finished_at: str, duration_ms: int, ledger: dict[str, Any] | None,
                   candidate_id: str | None = None, discriminator_score: float | None = None) -> dict[str, Any]:
    """The artifact: the seed's fields first (execution_pass_rate, baseline_pass_rate, delta, verdict,
    candidate_results, baseline_results, truth_anchor), then what a reader needs to audit them."""
    art: dict[str, Any] = {
        "execution_pass_rate": _f(ev.candidate_rate),
        "baseline_pass_rate": _f(ev.baseline_rate),
        "delta": _f(ev.delta),
        "verdict": ev.verdict,
        "candidate_results": [r.to_dict() for r in ev.candidate_results],
        "baseline_results": [r.to_dict() for r in ev.baseline_results],
        "truth_anchor": str(truth_anchor),
        "reason": ev.reason,
        "mock": settings.mock,
        "run_id": run_id,
        "mode": mode,
        "skill_id": suite.skill_id,
        "task_suite": str(suite.path),
        "candidate_id": candidate_id,
        "discriminator_score": discriminator_score,
        "candidate_skill": str(candidate.path) if candidate else None,
        "baseline": {"kind": "skill", "skill": str(baseline.path)} if baseline else {"kind": "no-skill"},
        "model": settings.model,
        "judge_model": settings.judge_model,
        "pass_k": settings.pass_k,
        "attempts": settings.n,
        "candidate": _side_totals(ev.candidate_results),
        "baseline_summary": _side_totals(ev.baseline_results),
        "baseline_cache": ev.baseline_cache,
        "started_at": started_at,
        "finished_at": finished_at,
        "duration_ms": duration_ms,
        "ledger": ledger,
    }
    if settings.mock:
        art["verdict"] = "mock"  # a mock run never reads as pass / fail
        art["mock_verdict"] = ev.verdict
        art["note"] = MOCK_NOTE
    return art


def skipped_artifact(*, run_id: str, suite: Suite, reason: str, truth_anchor: Path, candidate_id: str | None,
                     discriminator_score: float | None, settings: Settings, started_at: str) -> dict[str, Any]:
    art = build_artifact(Evaluation("skipped", reason, [], [], None, None), run_id=run_id, mode="pipeline",
                         suite=suite, candidate=None, baseline=None, settings=settings, truth_anchor=truth_anchor,
                         started_at=started_at, finished_at=started_at, duration_ms=0, ledger=None,
                         candidate_id=candidate_id, discriminator_score=discriminator_score)
    art["baseline"] = None
    return art


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def summary_text(art: Mapping[str, Any]) -> str:
    """The readable summary of an artifact (what `skillgrade evaluate` prints)."""
    out: list[str] = []
    if art.get("mock"):
        out.append(MOCK_NOTE)
    head = f"{art['skill_id']}: verdict {str(art['verdict']).upper()}"
    if art.get("mock"):
        head += f" (a mock run would have been: {art.get('mock_verdict')})"
    out.append(head + f" — {art.get('reason')}")
    if art["verdict"] == "skipped":
        out.append(f"artifact: {art['truth_anchor']}")
        return "\n".join(out) + "\n"
    delta = art.get("delta")
    out.append(f"  pass rate: candidate {_pct(art.get('execution_pass_rate'))}, baseline "
               f"{_pct(art.get('baseline_pass_rate'))}, delta {'—' if delta is None else f'{100 * delta:+.0f} pts'}"
               f" (pass@{art['pass_k']}, {art['attempts']} attempt(s) per task, model {art['model']})")
    if (art.get("baseline_cache") or {}).get("hit"):
        out.append("  baseline: from the baseline cache (no call made)")
    base = {r["task_id"]: r for r in art.get("baseline_results", [])}
    cand = {r["task_id"]: r for r in art.get("candidate_results", [])}
    mark = {True: "pass", False: "FAIL", None: "n/a"}
    out.append(f"  {'task':<28} {'judge':<11} {'baseline':>8} {'candidate':>9} {'ms':>7}")
    for tid in list(base) + [t for t in cand if t not in base]:
        b, c = base.get(tid), cand.get(tid)
        ms = (c or b or {}).get("duration_ms", 0)
        out.append(f"  {tid[:28]:<28} {(c or b or {}).get('judge', ''):<11} "
                   f"{mark[b['passed']] if b else '—':>8} {mark[c['passed']] if c else '—':>9} {ms:>7}")
    for side, results in (("baseline", base), ("candidate", cand)):
        for tid, r in results.items():
            if r["passed"] is None:
                out.append(f"  unmeasured ({side}) {tid}: {r.get('reason')}")
    est_c = (art.get("candidate") or {}).get("pass_at_k_unbiased")
    est_b = (art.get("baseline_summary") or {}).get("pass_at_k_unbiased")
    if est_c is not None or est_b is not None:
        show = lambda v: "—" if v is None else f"{v:.3f}"  # noqa: E731
        out.append(f"  unbiased pass@{art['pass_k']} from {art['attempts']} attempts: candidate {show(est_c)}, "
                   f"baseline {show(est_b)}")
    out.append(f"artifact: {art['truth_anchor']}")
    return "\n".join(out) + "\n"
