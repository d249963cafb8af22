"""Aggregation (seed 004 §5.11, R5): cases -> dimensions -> the skill's verdict, and the baseline delta. Pure.

- A case PASSes iff every behavior PASSes (and, for C1, the verbatim-overlap check passed); a case the run
  could not measure is "unmeasured" with its reason, never a pass or a fail.
- A dimension FAILs when any of its cases FAILs; else it is unmeasured when any case is; else it PASSes.
  A dimension with no case in the eval file is "not covered".
- The skill verdict is strict with named exceptions: PASS only when all nine dimensions PASS; otherwise
  PARTIAL when at least one dimension PASSes, FAIL when none does (UNMEASURED when nothing was measured),
  and every dimension that is not PASS is named with why (failed, unmeasured, not covered).
- Baseline delta: per dimension, the pass counts with and without the skill over the cases measured in
  both runs, and their difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .evalfile import DIMENSION_TITLES, DIMENSIONS

PASS, FAIL, UNMEASURED, NOT_COVERED, PARTIAL = "PASS", "FAIL", "unmeasured", "not covered", "PARTIAL"


class CaseLike(Protocol):
    case_id: int | str
    dimension: str
    status: str  # PASS | FAIL | unmeasured
    reason: str | None


@dataclass(slots=True)
class DimensionVerdict:
    dimension: str
    verdict: str  # PASS | FAIL | unmeasured | not covered
    cases: int = 0
    passed: int = 0
    failed: int = 0
    unmeasured: int = 0
    reasons: list[str] = field(default_factory=list)  # why it is not PASS, one per failing/unmeasured case

    def to_dict(self) -> dict:
        return {"dimension": self.dimension, "title": DIMENSION_TITLES[self.dimension], "verdict": self.verdict,
                "cases": self.cases, "passed": self.passed, "failed": self.failed, "unmeasured": self.unmeasured,
                "reasons": list(self.reasons)}


def dimension_verdicts(cases: Sequence[CaseLike]) -> dict[str, DimensionVerdict]:
    out = {d: DimensionVerdict(d, NOT_COVERED) for d in DIMENSIONS}
    for c in cases:
        d = out[c.dimension]
        d.cases += 1
        if c.status == PASS:
            d.passed += 1
        elif c.status == FAIL:
            d.failed += 1
            d.reasons.append(f"case {c.case_id}: {c.reason or 'failed'}")
        else:
            d.unmeasured += 1
            d.reasons.append(f"case {c.case_id} unmeasured: {c.reason or 'no reason given'}")
    for d in out.values():
        if d.cases:
            d.verdict = FAIL if d.failed else UNMEASURED if d.unmeasured else PASS
    return out


@dataclass(slots=True)
class SkillVerdict:
    verdict: str  # PASS | PARTIAL | FAIL | unmeasured
    passed: int
    exceptions: dict[str, str]  # dimension -> "FAIL" / "unmeasured" / "not covered"

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "dimensions_passed": self.passed, "dimensions": len(DIMENSIONS),
                "exceptions": dict(self.exceptions)}


def skill_verdict(dims: dict[str, DimensionVerdict]) -> SkillVerdict:
    passed = sum(1 for d in dims.values() if d.verdict == PASS)
    measured = sum(1 for d in dims.values() if d.verdict in (PASS, FAIL))
    exceptions = {k: d.verdict for k, d in dims.items() if d.verdict != PASS}
    if passed == len(DIMENSIONS):
        verdict = PASS
    elif measured == 0:
        verdict = UNMEASURED
    else:
        verdict = PARTIAL if passed else FAIL
    return SkillVerdict(verdict, passed, exceptions)


@dataclass(frozen=True, slots=True)
class Delta:
    dimension: str
    n: int  # cases measured in both runs
    with_skill: int  # of those, passed with the skill loaded
    baseline: int  # passed without it
    delta: int

    def to_dict(self) -> dict:
        return {"dimension": self.dimension, "n": self.n, "with_skill_passed": self.with_skill,
                "baseline_passed": self.baseline, "delta": self.delta}


def baseline_delta(with_skill: Sequence[CaseLike], baseline: Sequence[CaseLike]) -> dict[str, Delta]:
    """Per covered dimension: pass counts over the cases measured (PASS or FAIL) in both runs."""
    base = {(c.dimension, c.case_id): c for c in baseline}
    out: dict[str, Delta] = {}
    for d in DIMENSIONS:
        n = w = b = 0
        covered = False
        for c in with_skill:
            if c.dimension != d:
                continue
            covered = True
            other = base.get((d, c.case_id))
            if other is None or c.status not in (PASS, FAIL) or other.status not in (PASS, FAIL):
                continue
            n += 1
            w += c.status == PASS
            b += other.status == PASS
        if covered:
            out[d] = Delta(d, n, w, b, w - b)
    return out


def model_family(model: str) -> str:
    """'claude-sonnet-5-5' -> 'claude'; 'anthropic/claude-…' -> 'claude'; 'qwen3:8b' -> 'qwen'."""
    name = model.lower().rsplit("/", 1)[-1]
    head = name.replace(":", "-").replace("_", "-").split("-", 1)[0]
    return head.rstrip("0123456789.") or head


def same_family(agent_model: str, grader_model: str) -> bool:
    return model_family(agent_model) == model_family(grader_model)
