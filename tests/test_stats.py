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
