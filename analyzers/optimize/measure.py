"""What one description scores: per-prompt pass by majority of runs, split scores with CIs, the exact paired
test between two descriptions, and the winner rule. Pure: numbers computed by us from routing decisions.

- A prompt's run is *correct* when the skill activated on a should-trigger prompt, or did not on a near miss.
  A prompt **passes** when a strict majority of its decided runs (router calls that answered) are correct:
  2 of 3, 3 of 5; with an even number a tie fails. Runs whose router call failed are left out; a prompt with
  no decided run is *unmeasured* (neither pass nor fail).
- Prompt-level confusion counts: tp = passing positives, fn = failing positives, fp = failing near misses,
  tn = passing near misses. Precision tp/(tp+fp) and recall tp/(tp+fn) carry **Wilson** 95% intervals on
  those counts; F1 = 2tp/(2tp+fp+fn) carries a **percentile bootstrap** 95% interval (prompts resampled with
  a fixed seed, 2,000 resamples); the pass rate carries a Wilson interval.
- The **score** that chooses the winner is the number of passing prompts of the held-out split (train when
  there is no holdout); ties between rewrites go to the shorter description, then to the earlier one; a
  rewrite must pass MORE prompts than the original to replace it (a tie keeps the author's text).
- The **paired test** between the original and the winner is the exact McNemar (sign) test on the prompts
  where exactly one of the two passes: two-sided p = min(1, 2 * P(X <= min(b, c))), X ~ Binomial(b+c, 1/2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..routing import TestPrompt
from ..stats import Interval, wilson

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 7
SIGNIFICANCE = 0.05


@dataclass(frozen=True, slots=True)
class PromptResult:
    """One prompt measured `runs` times against one description."""

    prompt: TestPrompt
    split: str  # "train" | "test"
    decisions: tuple[str | None, ...]  # the skill each decided run loaded (None: no skill)
    errors: tuple[str, ...] = ()  # reasons of runs whose router call failed
    skill: str = ""

    @property
    def activations(self) -> int:
        return sum(1 for d in self.decisions if d == self.skill)

    @property
    def correct(self) -> int:
        a = self.activations
        return a if self.prompt.should_trigger else len(self.decisions) - a

    @property
    def passed(self) -> bool | None:
        """Strict majority of decided runs correct; None when no run was decided."""
        if not self.decisions:
            return None
        return 2 * self.correct > len(self.decisions)

    @property
    def activated(self) -> bool | None:
        """Did the skill activate by majority (what the confusion counts use)."""
        if not self.decisions:
            return None
        return 2 * self.activations > len(self.decisions)

    def to_dict(self) -> dict:
        return {"prompt": self.prompt.prompt, "should_trigger": self.prompt.should_trigger, "split": self.split,
                "decisions": list(self.decisions), "activations": self.activations,
                "runs_decided": len(self.decisions), "errors": list(self.errors), "passed": self.passed}


@dataclass(frozen=True, slots=True)
class SplitScore:
    n: int  # prompts in the split
    measured: int  # prompts with at least one decided run
    passed: int
    tp: int
    fp: int
    fn: int
    tn: int
    pass_rate: Interval
    precision: Interval
    recall: Interval
    f1: float | None
    f1_ci: tuple[float, float] | None

    @property
    def complete(self) -> bool:
        return self.n > 0 and self.measured == self.n

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        return {"n": self.n, "measured": self.measured, "passed": self.passed, "failed": self.measured - self.passed,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn,
                "pass_rate": self.pass_rate.to_dict(), "precision": self.precision.to_dict(),
                "recall": self.recall.to_dict(), "f1": r(self.f1),
                "f1_ci": None if self.f1_ci is None else {"method": "bootstrap-percentile", "lower": r(self.f1_ci[0]),
                                                          "upper": r(self.f1_ci[1])}}


def _f1(tp: int, fp: int, fn: int) -> float | None:
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else None


def f1_bootstrap(outcomes: Sequence[tuple[bool, bool]], *, resamples: int = BOOTSTRAP_RESAMPLES,
                 seed: int = BOOTSTRAP_SEED) -> tuple[float, float] | None:
    """Percentile 95% interval of F1 over prompts resampled with replacement; outcomes: (should_trigger,
    activated). Resamples without a positive or an activation (F1 undefined) are skipped; None with fewer
    than 2 prompts."""
    if len(outcomes) < 2:
        return None
    rng = random.Random(seed)
    n = len(outcomes)
    values: list[float] = []
    for _ in range(resamples):
        tp = fp = fn = 0
        for _i in range(n):
            pos, act = outcomes[rng.randrange(n)]
            if pos and act:
                tp += 1
            elif pos:
                fn += 1
            elif act:
                fp += 1
        v = _f1(tp, fp, fn)
        if v is not None:
            values.append(v)
    if not values:
        return None
    values.sort()
    lo = values[int(0.025 * (len(values) - 1))]
    hi = values[int(round(0.975 * (len(values) - 1)))]
    return lo, hi


def split_score(results: Sequence[PromptResult]) -> SplitScore:
    tp = fp = fn = tn = 0
    outcomes: list[tuple[bool, bool]] = []
    for r in results:
        act = r.activated
        if act is None:
            continue
        outcomes.append((r.prompt.should_trigger, act))
        if r.prompt.should_trigger:
            tp, fn = (tp + 1, fn) if act else (tp, fn + 1)
        else:
            fp, tn = (fp + 1, tn) if act else (fp, tn + 1)
    measured = tp + fp + fn + tn
    passed = tp + tn
    return SplitScore(len(results), measured, passed, tp, fp, fn, tn, wilson(passed, measured), wilson(tp, tp + fp),
                      wilson(tp, tp + fn), _f1(tp, fp, fn), f1_bootstrap(outcomes))


# ---- the paired test ---------------------------------------------------------------------------------------

def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar (sign test) p-value on b and c discordant pairs, computed in exact fractions."""
    if b < 0 or c < 0:
        raise ValueError("counts must be non-negative")
    n = b + c
    if n == 0:
        return 1.0
    tail = Fraction(sum(comb(n, i) for i in range(min(b, c) + 1)), 2 ** n)
    return float(min(Fraction(1), 2 * tail))


@dataclass(frozen=True, slots=True)
class Paired:
    """The winner against the original on the same prompts."""

    split: str  # the prompts compared ("test", or "train" without a holdout)
    prompts: int  # prompts measured under both
    gained: int  # c: the original failed, the winner passes
    lost: int  # b: the original passed, the winner fails
    p_value: float
    significant: bool  # p < SIGNIFICANCE and gained > lost
    reason: str | None = None

    def to_dict(self) -> dict:
        return {"test": "exact McNemar (sign test on discordant prompts)", "split": self.split,
                "prompts": self.prompts, "gained": self.gained, "lost": self.lost,
                "p_value": round(self.p_value, 6), "alpha": SIGNIFICANCE, "significant": self.significant,
                "reason": self.reason}


def paired_test(original: Sequence[PromptResult], winner: Sequence[PromptResult], split: str) -> Paired:
    """Match prompts by text; prompts unmeasured under either description are left out."""
    mine = {r.prompt.prompt: r.passed for r in original}
    gained = lost = both = 0
    for r in winner:
        a, b = mine.get(r.prompt.prompt), r.passed
        if a is None or b is None:
            continue
        both += 1
        if a and not b:
            lost += 1
        elif b and not a:
            gained += 1
    p = mcnemar_exact(lost, gained)
    sig = p < SIGNIFICANCE and gained > lost
    reason = None
    if gained + lost == 0:
        reason = "no prompt changed between the original and the winner"
    elif not sig:
        reason = (f"{gained} prompt(s) gained and {lost} lost: p = {p:.3g}, not below {SIGNIFICANCE}; the "
                  "difference is within the noise")
    return Paired(split, both, gained, lost, p, sig, reason)


# ---- the winner --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Contender:
    index: int  # 0 = the original
    description: str
    score: SplitScore  # on the split that chooses (test when there is a holdout)


def choose_winner(contenders: Sequence[Contender]) -> int | None:
    """Index of the winner: the most passing prompts on the choosing split among fully measured contenders.
    Ties between rewrites go to the shorter description, then the earlier one; a rewrite replaces the
    original (contenders[0]) only with MORE passing prompts: a rewrite that ties the original on held-out
    prompts gained only on train, and the author's text is kept. None when the original is not fully measured
    (no fair comparison)."""
    full = [c for c in contenders if c.score.complete]
    if not full or full[0].index != contenders[0].index:
        return None
    original = full[0]
    rewrites = [c for c in full[1:] if c.score.passed > original.score.passed]
    if not rewrites:
        return original.index
    return min(rewrites, key=lambda c: (-c.score.passed, len(c.description), c.index)).index
