"""pass@k and the unbiased estimator against exact values; verdicts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skillgrade.analyzers.evals.passk import (
    mean_estimate,
    pass_at_k_unbiased,
    rate,
    task_estimate,
    task_passed,
)
from skillgrade.analyzers.evals.runner import decide


@pytest.mark.parametrize(("n", "c", "k", "exact"), [
    (5, 1, 3, Fraction(3, 5)),      # 1 - C(4,3)/C(5,3) = 1 - 4/10
    (10, 3, 1, Fraction(3, 10)),    # pass@1 is the plain rate
    (3, 1, 2, Fraction(2, 3)),      # 1 - C(2,2)/C(3,2)
    (10, 2, 5, Fraction(7, 9)),     # 1 - C(8,5)/C(10,5) = 1 - 56/252
    (4, 0, 2, Fraction(0)),
    (4, 3, 2, Fraction(1)),         # n - c < k: every draw of k has a pass
    (20, 5, 10, 1 - Fraction(3003, 184756)),
])
def test_unbiased_estimator_exact(n: int, c: int, k: int, exact: Fraction) -> None:
    assert pass_at_k_unbiased(n, c, k) == float(exact)


def test_unbiased_estimator_rejects_impossible_counts() -> None:
    for n, c, k in ((3, 4, 1), (2, 1, 3), (3, 1, 0)):
        with pytest.raises(ValueError):
            pass_at_k_unbiased(n, c, k)


def test_task_passed_uses_the_first_k_attempts() -> None:
    assert task_passed([False, False, True], 3) is True
    assert task_passed([False, False, True], 2) is False
    assert task_passed([False, None, False], 2) is None  # a failed judge is not a failure
    assert task_passed([None, True], 2) is True
    assert task_estimate([False, False, True, False, False], 3) == 0.6
    assert task_estimate([True, None], 2) is None
    assert mean_estimate([0.5, 1.0]) == 0.75 and mean_estimate([0.5, None]) is None


def test_rate_and_verdicts() -> None:
    assert rate([True, False, None, True]) == Fraction(2, 3) and rate([None]) is None
    assert decide(Fraction(7, 10), Fraction(4, 5))[0] == "pass"
    assert decide(Fraction(1, 2), Fraction(1, 2))[0] == "pass"  # delta 0 is a pass (>= 0)
    assert decide(Fraction(3, 5), Fraction(2, 5))[0] == "fail"
    v, reason = decide(Fraction(1, 10), Fraction(1))
    assert v == "error" and reason == "baseline pass rate 0.10 < 0.2: fix the suite first"
    assert decide(Fraction(1, 5), Fraction(1, 5))[0] == "pass"  # exactly 20% is not broken
    assert decide(None, Fraction(1))[0] == "error" and decide(Fraction(1), None)[0] == "error"
