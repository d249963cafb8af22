"""Agreement statistics against values computed by hand (exact rationals)."""

from fractions import Fraction

import pytest

from skillgrade.analyzers.stats import GRADE_ORDER, cohen_kappa, fleiss_kappa


def test_cohen_plain_two_by_two():
    # yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 35/50, p_e = .5*.6 + .5*.4 = .5, kappa = .4
    a = ["y"] * 25 + ["n"] * 25
    b = ["y"] * 20 + ["n"] * 5 + ["y"] * 10 + ["n"] * 15
    k = cohen_kappa(a, b)
    assert k.value == pytest.approx(float(Fraction(2, 5)), abs=1e-15)
    assert k.n == 50 and k.observed == pytest.approx(0.7) and k.reason is None


def test_cohen_weighted_by_hand():
    a, b = [0, 1, 2, 0, 2], [0, 2, 2, 1, 2]
    # quadratic: sum w*O = 1/2, sum w*E = 2 -> 3/4; linear: 1 and 12/5 -> 7/12
    assert cohen_kappa(a, b, labels=[0, 1, 2], weights="quadratic").value == pytest.approx(0.75, abs=1e-15)
    assert cohen_kappa(a, b, labels=[0, 1, 2], weights="linear").value == pytest.approx(7 / 12, abs=1e-15)
    # plain on the same items: p_o = 3/5, p_e = (2*1 + 1*1 + 2*3)/25 = 9/25 -> (6/25)/(16/25) = 3/8
    assert cohen_kappa(a, b).value == pytest.approx(3 / 8, abs=1e-15)


def test_cohen_weighted_unused_category_counts():
    # with an unused middle category the scale is wider: same ratings, different weights
    a, b = [0, 2, 2, 0, 2], [0, 2, 0, 0, 2]
    narrow = cohen_kappa(a, b, labels=[0, 2], weights="quadratic").value
    wide = cohen_kappa(a, b, labels=[0, 1, 2], weights="quadratic").value
    assert narrow == pytest.approx(wide)  # a 2-point scale with the gap scaled away gives the same
    letters = cohen_kappa(["A", "B", "F", "C", "A"], ["A", "B", "D", "C", "B"], labels=GRADE_ORDER,
                          weights="quadratic")
    assert letters.value is not None and 0.8 < letters.value < 1.0


def test_cohen_perfect_and_opposite():
    assert cohen_kappa([1, 0, 1, 0, 1], [1, 0, 1, 0, 1]).value == pytest.approx(1.0)
    assert cohen_kappa([1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1]).value == pytest.approx(-1.0)


def test_cohen_undefined_cases_say_why():
    few = cohen_kappa([1, 0], [1, 0])
    assert few.value is None and few.n == 2 and "too few items" in few.reason
    same = cohen_kappa(["x"] * 6, ["x"] * 6)
    assert same.value is None and "one category" in same.reason and same.observed == 1.0
    assert "different numbers" in cohen_kappa([1, 2, 3], [1, 2]).reason
    assert "ordered labels" in cohen_kappa([1] * 5, [2] * 5, weights="quadratic").reason
    assert "not one of the labels" in cohen_kappa([1] * 5, [9] * 5, labels=[1, 2]).reason
    assert cohen_kappa([1, 0, 1], [1, 0, 0], min_items=3).value is not None


def test_fleiss_by_hand():
    # counts (3,0) (2,1) (0,3) (1,2) (3,0): P-bar = 11/15, P_e = 13/25, kappa = 4/9
    ratings = [["a"] * 3, ["a", "a", "b"], ["b"] * 3, ["a", "b", "b"], ["a"] * 3]
    k = fleiss_kappa(ratings)
    assert k.value == pytest.approx(4 / 9, abs=1e-15)
    assert k.observed == pytest.approx(11 / 15) and k.n == 5


def test_fleiss_wikipedia_table():
    # the classic 10 items x 14 raters x 5 categories table: kappa = 0.20993...
    table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
             [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    ratings = [[c for c, k in enumerate(row) for _ in range(k)] for row in table]
    # exact: P-bar = 0.378021978..., P_e = 0.213, kappa = (P-bar - P_e)/(1 - P_e)
    p_bar = sum(Fraction(sum(x * x for x in row) - 14, 14 * 13) for row in table) / 10
    p_e = sum(Fraction(sum(row[j] for row in table), 140) ** 2 for j in range(5))
    assert fleiss_kappa(ratings).value == pytest.approx(float((p_bar - p_e) / (1 - p_e)), abs=1e-15)
    assert fleiss_kappa(ratings).value == pytest.approx(0.20993, abs=1e-5)


def test_fleiss_undefined_cases():
    assert "too few" in fleiss_kappa([["a", "b"]] * 3).reason
    assert "one category" in fleiss_kappa([["a", "a", "a"]] * 6).reason
    assert "different numbers" in fleiss_kappa([["a", "b"], ["a", "b", "a"]] * 3).reason
    assert "at least two" in fleiss_kappa([["a"]] * 6).reason


# ---- Monte Carlo statistics: exact values --------------------------------------------------------------------

from skillgrade.analyzers.stats import (  # noqa: E402
    binom_cdf,
    clopper_pearson,
    coefficient_of_variation,
    efficiency_norm,
    mc_score,
    quantile,
    spread,
    wilson,
    youden_j,
)


def test_clopper_pearson_exact_values():
    # closed forms: x=0 -> upper = 1 - (alpha/2)^(1/n); x=1 -> lower = 1 - (1 - alpha/2)^(1/n)
    cp = clopper_pearson(0, 50)
    assert cp.lower == 0.0 and cp.upper == pytest.approx(1 - 0.025 ** (1 / 50), abs=1e-10)
    assert round(cp.upper, 4) == 0.0711  # PluginEval reported 0.0766
    cp = clopper_pearson(1, 50)
    assert cp.lower == pytest.approx(1 - 0.975 ** (1 / 50), abs=1e-10)
    assert round(cp.lower, 4) == 0.0005  # PluginEval clamped to 0.0010
    assert round(clopper_pearson(0, 100).upper, 4) == 0.0362
    mid = clopper_pearson(25, 50)  # R: binom.test(25, 50)$conf.int = 0.3552730 0.6447270
    assert mid.lower == pytest.approx(0.3552730, abs=1e-6) and mid.upper == pytest.approx(0.6447270, abs=1e-6)
    full = clopper_pearson(50, 50)
    assert full.upper == 1.0 and full.lower == pytest.approx(0.025 ** (1 / 50), abs=1e-10)
    assert clopper_pearson(0, 0).rate is None and clopper_pearson(0, 0).reason == "no trials"
    with pytest.raises(ValueError):
        clopper_pearson(3, 2)


def test_clopper_pearson_bounds_solve_the_binomial_tail():
    for x, n in ((3, 17), (9, 40), (1, 5)):
        cp = clopper_pearson(x, n)
        assert 1 - binom_cdf(x - 1, n, cp.lower) == pytest.approx(0.025, abs=1e-9)
        assert binom_cdf(x, n, cp.upper) == pytest.approx(0.025, abs=1e-9)


def test_wilson_exact_values():
    w = wilson(1, 50)
    z = 1.959963984540054
    centre = (0.02 + z * z / 100) / (1 + z * z / 50)
    spread_ = z * ((0.02 * 0.98 / 50 + z * z / 10000) ** 0.5) / (1 + z * z / 50)
    assert w.lower == pytest.approx(centre - spread_, abs=1e-12) and w.upper == pytest.approx(centre + spread_)
    assert round(w.lower, 4) == 0.0035 and round(w.upper, 4) == 0.1050
    assert wilson(0, 50).lower == 0.0 and round(wilson(0, 50).upper, 4) == 0.0713


def test_quartiles_iqr_outliers():
    assert quantile([1, 2, 3, 4], 0.25) == 1.75 and quantile([1, 2, 3, 4], 0.5) == 2.5
    s = spread([4, 1, 100, 2, 3])
    assert (s.median, s.q1, s.q3, s.iqr, s.outliers) == (3, 2, 4, 2, (100,))
    s = spread([10, 10, 10])
    assert s.iqr == 0 and s.outliers == ()
    assert spread([]).median is None and spread([]).reason == "no values"


def test_cv_efficiency_and_mc_score():
    cv, reason = coefficient_of_variation([0.5, 1.0])  # mean 0.75, population sd 0.25
    assert cv == pytest.approx(1 / 3) and reason is None
    assert coefficient_of_variation([0.8]) == (None, "fewer than two values (1)")
    assert coefficient_of_variation([0.0, 0.0])[0] is None
    assert efficiency_norm(2000) == 0.75 and efficiency_norm(9000) == 0.0
    assert mc_score(1.0, 0.0, 0.0, 1.0) == pytest.approx(1.0)
    assert mc_score(0.5, 2.0, 0.1, 0.75) == pytest.approx(0.2 + 0.0 + 0.18 + 0.075)
    assert youden_j(1.0, 1.0) == 0.0 and youden_j(0.0, 0.0) == 0.0 and youden_j(0.9, 0.1) == pytest.approx(0.8)
    assert youden_j(0.2, 0.6) == 0.0
