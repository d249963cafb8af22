"""The comprehension run (seed 004 §5, R3, R5, R9): agent answers, the overlap check, the grader, compliance.

For every gradable case of an eval file (a C1–C9 dimension and expected behaviors):

1. the agent model answers the case's prompt with the SKILL.md loaded — its own `Skill` call and the SKILL.md
   as the tool result, as in Monte Carlo — and, with `baseline=True`, once more without it (R5);
2. our code runs the verbatim-overlap check (A.3) on the answer against the skill body + concept field;
3. the grader gets the Appendix A prompt (forcing-functions block included) with the precomputed overlap
   result, and returns one verdict per expected behavior with an evidence quote;
4. the verdict is checked mechanically (compliance.py); a violation re-asks the grader with the violations
   listed, at most MAX_RERUNS times; then the case FAILs with the violations as its reason;
5. a C1 case whose answer shares a 6-gram with the skill FAILs whatever the grader said.

Every call goes through the gateway (cache, ledger, budget, deadline). A case whose calls fail is
"unmeasured" with the reason — never a made-up verdict. Cancellation propagates.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import prompts
from ..document import SkillDocument
from ..layers.ask import CallsModels, Tally
from ..llm.types import ErrorKind, LLMError, Reply, Request
from ..routing import SKILL_TOOL
from . import aggregate
from .compliance import BehaviorVerdict, Unparsable, check, parse_verdict
from .evalfile import CONCEPT_FIELD_OF, EvalCase, EvalFile
from .overlap import VERBATIM_N, Overlap, far_transfer_overlap, verbatim_overlap

MAX_RERUNS = 2  # grader re-asks after a compliance violation (3 attempts in all)
AGENT_MAX_TOKENS = 2048
GRADER_MAX_TOKENS = 4096
MAX_SKILL_CHARS = 64_000
TOOL_USE_ID = "toolu_comprehension_skill"
NOT_RUN = frozenset({ErrorKind.BUDGET, ErrorKind.DRY_RUN, ErrorKind.CANCELLED, ErrorKind.NO_KEY})
# C8 and C9 are measured against body sections, not concept fields (§5.1)
SECTION_OF = {"C8": "Verification", "C9": "Do NOT Use When"}
FIELD_ALIASES = {"boundary": ("boundary", "concept_boundary")}
STAND_IN_ANSWER = "y" * 4000  # dry run: the grader call is estimated with an answer of this size

ProgressFn = Callable[[str, int, int], None]  # (what finished, done, planned)


@dataclass(slots=True)
class CaseResult:
    case_id: int | str
    dimension: str
    transfer: str | None
    status: str  # PASS | FAIL | unmeasured
    reason: str | None = None  # why FAIL (beyond failed behaviors) or why unmeasured
    answer: str | None = None
    overlap: Overlap | None = None
    behaviors: list[BehaviorVerdict] = field(default_factory=list)
    grader_attempts: int = 0
    violations: list[list[str]] = field(default_factory=list)  # per rejected grader attempt
    overruled: bool = False  # the grader passed a C1 answer the overlap check failed
    error_kind: str | None = None
    notes: list[str] = field(default_factory=list)  # grader departures that did not make its verdict unusable

    def to_dict(self) -> dict:
        return {"case_id": self.case_id, "dimension": self.dimension, "transfer": self.transfer,
                "status": self.status, "reason": self.reason, "answer": self.answer,
                "overlap": self.overlap.to_dict() if self.overlap else None,
                "behaviors": [b.to_dict() for b in self.behaviors], "grader_attempts": self.grader_attempts,
                "violations": [list(v) for v in self.violations], "overruled_grader": self.overruled,
                "error_kind": self.error_kind, "notes": list(self.notes)}


@dataclass(slots=True)
class Side:
    """One run over the cases: with the skill loaded, or the baseline without it."""

    loaded: bool
    cases: list[CaseResult] = field(default_factory=list)

    @property
    def dimensions(self) -> dict[str, aggregate.DimensionVerdict]:
        return aggregate.dimension_verdicts(self.cases)

    @property
    def verdict(self) -> aggregate.SkillVerdict:
        return aggregate.skill_verdict(self.dimensions)

    def to_dict(self) -> dict:
        dims = self.dimensions
        return {"skill_loaded": self.loaded, "verdict": aggregate.skill_verdict(dims).to_dict(),
                "dimensions": {k: d.to_dict() for k, d in dims.items()},
                "cases": [c.to_dict() for c in self.cases]}


@dataclass(slots=True)
class ComprehensionResult:
    skill: str
    eval_file: str | None
    models: dict[str, str]
    prompt_version: str
    with_skill: Side
    baseline: Side | None
    skipped: list[str]  # cases the runner could not grade, with why
    warnings: list[str]
    tally: Tally
    models_seen: tuple[str, ...] = ()

    @property
    def delta(self) -> dict[str, aggregate.Delta] | None:
        if self.baseline is None:
            return None
        return aggregate.baseline_delta(self.with_skill.cases, self.baseline.cases)

    def to_dict(self) -> dict:
        delta = self.delta
        return {"skill": self.skill, "eval_file": self.eval_file, "models": dict(self.models),
                "models_seen": list(self.models_seen), "prompt_version": self.prompt_version,
                "verdict": self.with_skill.verdict.to_dict(),
                "with_skill": self.with_skill.to_dict(),
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "baseline_delta": {k: d.to_dict() for k, d in delta.items()} if delta is not None else None,
                "skipped": list(self.skipped), "warnings": list(self.warnings), "usage": self.tally.to_dict()}


# ---- skill material -------------------------------------------------------------------------------------------

def section_text(body: str, title: str) -> str | None:
    """The body section under a heading that starts with `title` (any level), up to the next heading of the
    same or a higher level; None when there is none."""
    lines = body.splitlines()
    start = level = None
    for i, line in enumerate(lines):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        if start is None and m.group(2).lower().startswith(title.lower()):
            start, level = i, len(m.group(1))
        elif start is not None and level is not None and len(m.group(1)) <= level:
            return "\n".join(lines[start:i]).strip()
    return "\n".join(lines[start:]).strip() if start is not None else None


def concept_field(doc: SkillDocument, name: str) -> str | None:
    """The concept field from the frontmatter: `concept.<name>` (the nested block) or the flat top-level field
    (`concept_boundary` for boundary); non-string values as JSON. None when the skill does not declare it."""
    data = doc.frontmatter.data if isinstance(doc.frontmatter.data, dict) else {}
    concept = data.get("concept") if isinstance(data.get("concept"), dict) else {}
    for key in FIELD_ALIASES.get(name, (name,)):
        for source in (concept, data):
            v = source.get(key)
            if v not in (None, ""):
                return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)
    return None


def reference_for(doc: SkillDocument, case: EvalCase) -> tuple[str, str]:
    """(name, text) of what the case's dimension is measured against: the concept field, or for C8/C9 the body
    section (§5.1). The text says so when the skill has none."""
    dim = case.comprehension_dimension or ""
    if dim in SECTION_OF:
        title = SECTION_OF[dim]
        got = section_text(doc.body_text, title)
        return f"## {title}", got if got else f"(the skill has no `## {title}` section)"
    name = case.concept_field or CONCEPT_FIELD_OF.get(dim) or ""
    got = concept_field(doc, name) if name else None
    return name, got if got is not None else f"(the skill declares no `{name}` field)"


# ---- requests -------------------------------------------------------------------------------------------------

def agent_request(doc: SkillDocument, skill_name: str, case: EvalCase, *, model: str, loaded: bool) -> Request:
    """The agent's turn. Loaded: the user's prompt, its own `Skill` call and the SKILL.md as the tool result
    (cached); baseline: the prompt alone. Same system and tool list either way, so only the skill differs."""
    messages: tuple[dict[str, Any], ...] = ({"role": "user", "content": case.prompt},)
    if loaded:
        messages += (
            {"role": "assistant", "content": [{"type": "tool_use", "id": TOOL_USE_ID, "name": SKILL_TOOL["name"],
                                               "input": {"skill": skill_name}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": TOOL_USE_ID,
                                          "content": doc.text[:MAX_SKILL_CHARS],
                                          "cache_control": {"type": "ephemeral"}}]},
        )
    return Request(
        kind="comprehension_agent", model=model,
        system=({"type": "text", "text": prompts.text("comprehension_agent.md").strip()},),
        messages=messages, max_tokens=AGENT_MAX_TOKENS, tools=(SKILL_TOOL,), tool_choice={"type": "none"},
        prompt_version=prompts.prompt_version(), cache_salt="comprehension-skill" if loaded else "comprehension-base")


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def grader_request(doc: SkillDocument, case: EvalCase, answer: str, overlap: Overlap, *, model: str,
                   loaded: bool) -> Request:
    """Appendix A: the instructions and forcing functions as the (cached) system block, the INPUT and OUTPUT
    sections as the user turn, with the precomputed overlap result (A.3)."""
    ref_name, ref_text = reference_for(doc, case)
    behaviors = "\n".join(f'<behavior id="{_xml(b.id)}" kind="{b.kind}">{b.description}</behavior>'
                          for b in case.expected_behaviors)
    reasoning = (f"<expected-reasoning>{case.expected_reasoning}</expected-reasoning>\n"
                 if case.expected_reasoning else "")
    user = prompts.render(
        "comprehension_grader_input.md", case_id=case.id, dimension=case.comprehension_dimension,
        concept_field_name=_xml(ref_name), concept_field=ref_text, skill_body=doc.body_text[:MAX_SKILL_CHARS],
        prompt=case.prompt, answer=answer, expected_reasoning=reasoning, behaviors=behaviors,
        overlap_passed="true" if overlap.passed else "false", overlap_n=overlap.n,
        overlap_ngrams="\n".join(overlap.overlap_ngrams) or "(none)")
    return Request(
        kind="comprehension_grade", model=model,
        system=({"type": "text", "text": prompts.text("comprehension_grader.md").strip(),
                 "cache_control": {"type": "ephemeral"}},),
        messages=({"role": "user", "content": user},), max_tokens=GRADER_MAX_TOKENS,
        prompt_version=prompts.prompt_version(),
        cache_salt="comprehension-grade-skill" if loaded else "comprehension-grade-base")


def reask_request(request: Request, reply_text: str, violations: list[str]) -> Request:
    listed = "\n".join(f"- {v}" for v in violations)
    return replace(request, messages=(
        *request.messages,
        {"role": "assistant", "content": (reply_text or "").strip()[:8000] or "(an empty reply)"},
        {"role": "user", "content": prompts.render("comprehension_reask.md", violations=listed)},
    ))


# ---- the run --------------------------------------------------------------------------------------------------

def _models(models: Mapping[str, str] | None) -> dict[str, str]:
    from ..llm.config import DEFAULT_GRADE_MODEL, DEFAULT_SIMULATE_MODEL

    m = dict(models or {})
    return {"agent": m.get("agent") or DEFAULT_SIMULATE_MODEL, "grader": m.get("grader") or DEFAULT_GRADE_MODEL}


async def run_comprehension(doc: SkillDocument, evals: EvalFile, gateway: CallsModels, *,
                            models: Mapping[str, str] | None = None, baseline: bool = False,
                            eval_path: str | None = None, max_reruns: int = MAX_RERUNS,
                            n: int = VERBATIM_N, progress: ProgressFn | None = None) -> ComprehensionResult:
    """Run the comprehension evals of `evals` on the skill `doc`. models: {"agent", "grader"}."""
    m = _models(models)
    name = doc.frontmatter.data.get("name") if isinstance(doc.frontmatter.data, dict) else None
    skill_name = name if isinstance(name, str) and name else (doc.path.parent.name if doc.path else "skill")
    tally = Tally()
    seen: set[str] = set()
    warnings: list[str] = []
    if aggregate.same_family(m["agent"], m["grader"]):
        warnings.append(f"the agent ({m['agent']}) and the grader ({m['grader']}) are the same model family "
                        f"({aggregate.model_family(m['agent'])}): self-preference bias is not controlled "
                        "(seed §5.2: use a grader of a different family)")
    if evals.skill_name and evals.skill_name != skill_name:
        warnings.append(f"the eval file is for skill {evals.skill_name!r}, the skill is named {skill_name!r}")
    cases = evals.comprehension_cases
    skipped = [f"case {c.id}: " + ("no `comprehension_dimension`" if c.comprehension_dimension is None
                                   else "no usable `expected_behaviors`")
               for c in evals.cases if not c.gradable]
    body = doc.body_text
    for c in cases:
        if c.transfer == "far":
            ov = far_transfer_overlap(c.prompt, body)
            if not ov.passed:
                warnings.append(f"case {c.id} is tagged `transfer: far` but its prompt shares 4-gram(s) with the "
                                f"skill body ({', '.join(ov.overlap_ngrams[:3])}): near transfer (R4)")
    sides = [Side(True)] + ([Side(False)] if baseline else [])
    planned = len(cases) * len(sides)
    done = 0

    async def call(request: Request) -> Reply:
        reply = await gateway.call(request)
        tally.add(request.kind, reply)
        if reply.model:
            seen.add(reply.model)
        return reply

    async def one(side: Side, case: EvalCase) -> CaseResult:
        nonlocal done
        res = await _case(doc, skill_name, case, side.loaded, m, call, gateway, tally, max_reruns, n)
        done += 1
        if progress is not None:
            progress(f"case {case.id}{'' if side.loaded else ' (baseline)'}", done, planned)
        return res

    for side in sides:
        side.cases = list(await asyncio.gather(*(one(side, c) for c in cases)))
    return ComprehensionResult(skill_name, eval_path, m, prompts.prompt_version(), sides[0],
                               sides[1] if baseline else None, skipped, warnings, tally, tuple(sorted(seen)))


async def _case(doc: SkillDocument, skill_name: str, case: EvalCase, loaded: bool, m: dict[str, str],
                call: Callable[[Request], Any], gateway: CallsModels, tally: Tally, max_reruns: int,
                n: int) -> CaseResult:
    dim = case.comprehension_dimension or ""
    res = CaseResult(case.id, dim, case.transfer, aggregate.UNMEASURED)
    try:
        reply = await call(agent_request(doc, skill_name, case, model=m["agent"], loaded=loaded))
    except LLMError as exc:
        if exc.kind == ErrorKind.DRY_RUN:  # estimate the grader's call too
            stand_in = verbatim_overlap("", "", "", n)
            try:
                await gateway.call(grader_request(doc, case, STAND_IN_ANSWER, stand_in, model=m["grader"],
                                                  loaded=loaded))
            except LLMError:
                pass
        tally.failures += exc.kind not in NOT_RUN
        return _unmeasured(res, f"the agent's call failed: {exc.reason}", exc.kind)
    answer = reply.text or ""
    res.answer = answer
    ref_name, ref_text = reference_for(doc, case)
    res.overlap = verbatim_overlap(answer, doc.body_text, ref_text if not ref_name.startswith("#") else "", n)
    copied = dim == "C1" and not res.overlap.passed
    copied_reason = (f"verbatim overlap with the skill ({n}-gram: “{res.overlap.overlap_ngrams[0]}”"
                     + (f" and {len(res.overlap.overlap_ngrams) - 1} more" if len(res.overlap.overlap_ngrams) > 1
                        else "") + "): a copied definition fails C1 whatever the grader says") if copied else ""
    if not answer.strip():
        res.status, res.reason = aggregate.FAIL, "the agent's answer was empty"
        return res

    request = grader_request(doc, case, answer, res.overlap, model=m["grader"], loaded=loaded)
    current = request
    for attempt in range(max_reruns + 1):
        res.grader_attempts = attempt + 1
        try:
            g = await call(current)
        except LLMError as exc:
            tally.failures += exc.kind not in NOT_RUN
            if copied:  # the mechanical check alone decides a C1 copy
                res.status, res.reason, res.error_kind = aggregate.FAIL, copied_reason, str(exc.kind)
                return res
            return _unmeasured(res, f"the grader's call failed: {exc.reason}", exc.kind)
        try:
            parsed = parse_verdict(g.text)
            problems, verdicts, notes = check(parsed, case.expected_behaviors, answer)
        except Unparsable as exc:
            parsed, problems, verdicts, notes = {}, [str(exc)], [], []
        if not problems:
            res.behaviors = verdicts
            res.notes = notes + _overlap_note(parsed, res.overlap)
            all_pass = all(v.verdict == "PASS" for v in verdicts)
            if copied:
                res.status, res.reason, res.overruled = aggregate.FAIL, copied_reason, all_pass
            elif all_pass:
                res.status = aggregate.PASS
            else:
                failed = [v.id for v in verdicts if v.verdict == "FAIL"]
                res.status, res.reason = aggregate.FAIL, f"behavior(s) failed: {', '.join(failed)}"
            return res
        res.violations.append(problems)
        forget = getattr(gateway, "forget", None)
        if forget is not None:
            forget(current)  # a rejected verdict is not kept: the next run asks again
        current = reask_request(request, g.text, problems)
    reasons = "; ".join(res.violations[-1])
    res.status = aggregate.FAIL
    res.reason = (f"the grader violated the compliance rules on all {max_reruns + 1} attempts "
                  f"(last: {reasons})") + (f"; also {copied_reason}" if copied else "")
    return res


def _overlap_note(parsed: dict, overlap: Overlap | None) -> list[str]:
    """A note when the grader's verbatim_overlap_check contradicts ours (ours stands)."""
    theirs = parsed.get("verbatim_overlap_check") if isinstance(parsed, dict) else None
    if overlap is None or not isinstance(theirs, dict) or not isinstance(theirs.get("passed"), bool):
        return []
    if theirs["passed"] == overlap.passed:
        return []
    return [f"the grader's verbatim_overlap_check says passed={str(theirs['passed']).lower()}; the precomputed "
            f"check (passed={str(overlap.passed).lower()}) stands"]


def _unmeasured(res: CaseResult, reason: str, kind: ErrorKind) -> CaseResult:
    res.status, res.reason, res.error_kind = aggregate.UNMEASURED, reason, str(kind)
    return res
