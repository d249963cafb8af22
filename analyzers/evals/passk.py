"""pass@k: a task passes when any of its first k attempts passes (the evaluator's rule), and the unbiased
estimator of Chen et al. (2021) when n >= k attempts were run: 1 - C(n-c, k) / C(n, k).

An attempt is True (passed), False (failed) or None (not measured: the model call or the judge failed).
Unmeasured attempts are never counted as failures: they leave the task unmeasured unless a measured attempt
already decides it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb


def pass_at_k_unbiased(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate from n attempts of which c passed (exact rational arithmetic)."""
    if not (0 <= c <= n) or k < 1 or n < k:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


def task_passed(attempts: Sequence[bool | None], k: int) -> bool | None:
    """pass@k for one task from its attempts in order: True if any of the first k passed; False if all of
    them were measured and failed; None if none passed and at least one was not measured."""
    first = list(attempts)[:k]
    if any(a is True for a in first):
        return True
    if first and all(a is False for a in first):
        return False
    return None


def task_estimate(attempts: Sequence[bool | None], k: int) -> float | None:
    """The unbiased estimator over the task's measured attempts (None when fewer than k were measured)."""
    measured = [a for a in attempts if a is not None]
    if len(measured) < k:
        return None
    return pass_at_k_unbiased(len(measured), sum(1 for a in measured if a), k)


def rate(outcomes: Sequence[bool | None]) -> Fraction | None:
    """Passed / measured tasks as an exact fraction (None when no task was measured)."""
    measured = [o for o in outcomes if o is not None]
    if not measured:
        return None
    return Fraction(sum(1 for o in measured if o), len(measured))


def mean_estimate(values: Sequence[float | None]) -> float | None:
    """Mean of the per-task estimates; None when any task has none (never a partial mean passed as whole)."""
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None) / len(values)
