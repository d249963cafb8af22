"""Exact agreement statistics: Cohen's kappa (plain and weighted) and Fleiss' kappa.

Computed with `fractions.Fraction`, so a kappa from integer counts is the exact rational value (converted to
float once, at the end). Each function returns an `Agreement`: the value, the number of items it was
computed on, the observed agreement, and — instead of a number — a reason when the statistic is undefined
(too few items, every rating in one category, mismatched inputs). A kappa on a handful of items says
little; `MIN_ITEMS` is the floor below which we print a reason rather than a number.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

MIN_ITEMS = 5  # fewer paired ratings than this: no kappa, a reason instead
GRADE_ORDER = ("F", "D", "C", "B", "A")  # letter grades as an ordinal scale, worst first

Weights = Literal["linear", "quadratic"] | None


@dataclass(frozen=True, slots=True)
class Agreement:
    method: str  # "cohen", "cohen-quadratic", "cohen-linear", "fleiss"
    value: float | None  # None: undefined, see `reason`
    n: int  # items the statistic was computed on
    observed: float | None = None  # observed proportion of agreement (p_o / P-bar)
    reason: str | None = None

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "value": None if self.value is None else round(self.value, 6),
            "n": self.n,
            "observed": None if self.observed is None else round(self.observed, 6),
            "reason": self.reason,
        }


def _labels(values: Sequence[Hashable], labels: Sequence[Hashable] | None) -> list[Hashable] | str:
    if labels is None:
        seen: dict[Hashable, None] = {}
        for v in values:
            seen.setdefault(v, None)
        try:
            return sorted(seen)  # type: ignore[type-var]
        except TypeError:
            return list(seen)
    out = list(labels)
    if len(set(out)) != len(out):
        return "labels contain duplicates"
    known = set(out)
    for v in values:
        if v not in known:
            return f"rating {v!r} is not one of the labels"
    return out


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable], *, labels: Sequence[Hashable] | None = None,
                weights: Weights = None, min_items: int = MIN_ITEMS) -> Agreement:
    """Cohen's kappa of two raters over the same items (a[i] and b[i] rate item i).

    weights=None: plain kappa (nominal). "linear"/"quadratic": weighted kappa on the ordinal scale given by
    `labels` (required then, worst to best or best to worst; unused categories still count), with
    w_ij = |i-j|/(k-1) or its square as the disagreement weight: kappa_w = 1 - sum(w*O) / sum(w*E).
    """
    method = "cohen" if weights is None else f"cohen-{weights}"
    if len(a) != len(b):
        return Agreement(method, None, 0, None, f"the raters rated different numbers of items ({len(a)} vs {len(b)})")
    n = len(a)
    if n < max(2, min_items):
        return Agreement(method, None, n, None, f"too few items ({n}; at least {max(2, min_items)} needed)")
    if weights is not None and labels is None:
        return Agreement(method, None, n, None, "weighted kappa needs the ordered labels")
    cats = _labels([*a, *b], labels)
    if isinstance(cats, str):
        return Agreement(method, None, n, None, cats)
    k = len(cats)
    idx = {c: i for i, c in enumerate(cats)}
    obs = [[0] * k for _ in range(k)]
    for x, y in zip(a, b, strict=True):
        obs[idx[x]][idx[y]] += 1
    rows = [sum(r) for r in obs]
    cols = [sum(obs[i][j] for i in range(k)) for j in range(k)]
    p_o = Fraction(sum(obs[i][i] for i in range(k)), n)
    if weights is None:
        p_e = sum((Fraction(rows[i] * cols[i], n * n) for i in range(k)), Fraction(0))
        if p_e == 1:
            return Agreement(method, None, n, float(p_o), "every rating is in one category (chance agreement is 1)")
        return Agreement(method, float((p_o - p_e) / (1 - p_e)), n, float(p_o))
    if k < 2:
        return Agreement(method, None, n, float(p_o), "the scale has a single category")

    def w(i: int, j: int) -> Fraction:
        d = Fraction(abs(i - j), k - 1)
        return d * d if weights == "quadratic" else d

    num = sum((w(i, j) * obs[i][j] for i in range(k) for j in range(k)), Fraction(0))
    den = sum((w(i, j) * Fraction(rows[i] * cols[j], n) for i in range(k) for j in range(k)), Fraction(0))
    if den == 0:
        return Agreement(method, None, n, float(p_o), "no disagreement is possible by chance (one category used)")
    return Agreement(method, float(1 - num / den), n, float(p_o))


def fleiss_kappa(ratings: Sequence[Sequence[Hashable]], *, labels: Sequence[Hashable] | None = None,
                 min_items: int = MIN_ITEMS) -> Agreement:
    """Fleiss' kappa: ratings[i] holds the m ratings of item i (every item rated by the same number m >= 2).

    P_i = (sum_j n_ij^2 - m) / (m(m-1)), P-bar = mean P_i, p_j = sum_i n_ij / (N m), P_e = sum p_j^2,
    kappa = (P-bar - P_e) / (1 - P_e).
    """
    method = "fleiss"
    n = len(ratings)
    if n < max(2, min_items):
        return Agreement(method, None, n, None, f"too few items ({n}; at least {max(2, min_items)} needed)")
    m = len(ratings[0])
    if m < 2:
        return Agreement(method, None, n, None, "each item needs at least two ratings")
    if any(len(r) != m for r in ratings):
        return Agreement(method, None, n, None, "items have different numbers of ratings")
    cats = _labels([v for r in ratings for v in r], labels)
    if isinstance(cats, str):
        return Agreement(method, None, n, None, cats)
    idx = {c: i for i, c in enumerate(cats)}
    totals = [0] * len(cats)
    p_bar = Fraction(0)
    for r in ratings:
        counts = [0] * len(cats)
        for v in r:
            counts[idx[v]] += 1
        for j, c in enumerate(counts):
            totals[j] += c
        p_bar += Fraction(sum(c * c for c in counts) - m, m * (m - 1))
    p_bar /= n
    p_e = sum((Fraction(t, n * m) ** 2 for t in totals), Fraction(0))
    if p_e == 1:
        return Agreement(method, None, n, float(p_bar), "every rating is in one category (chance agreement is 1)")
    return Agreement(method, float((p_bar - p_e) / (1 - p_e)), n, float(p_bar))
