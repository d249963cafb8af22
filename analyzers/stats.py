"""Exact statistics: Cohen's kappa (plain and weighted), Fleiss' kappa, and (Monte Carlo) Clopper-Pearson and
Wilson intervals, quartiles/IQR/outliers, coefficient of variation, the seed's efficiency_norm and mc_score.

Computed with `fractions.Fraction`, so a kappa from integer counts is the exact rational value (converted to
float once, at the end). Each function returns an `Agreement`: the value, the number of items it was
computed on, the observed agreement, and — instead of a number — a reason when the statistic is undefined
(too few items, every rating in one category, mismatched inputs). A kappa on a handful of items says
little; `MIN_ITEMS` is the floor below which we print a reason rather than a number.
"""

from __future__ import annotations

import math
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


# ---- proportions, spread and the Monte Carlo summary --------------------------------------------------------
# Pure Python, no scipy. Clopper-Pearson bounds are found by bisection on the exact binomial CDF, so they are
# exact to the bisection's tolerance (1e-12), not a normal or beta-function approximation.

Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal
ALPHA = 0.05
_BISECT_STEPS = 200


@dataclass(frozen=True, slots=True)
class Interval:
    """A proportion x/n with a two-sided 95% confidence interval."""

    method: str  # "clopper-pearson" or "wilson"
    x: int
    n: int
    rate: float | None  # x/n; None when n == 0
    lower: float | None
    upper: float | None
    reason: str | None = None

    @property
    def half_width(self) -> float | None:
        return None if self.lower is None or self.upper is None else (self.upper - self.lower) / 2

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 6)  # noqa: E731
        d = {"method": self.method, "x": self.x, "n": self.n, "rate": r(self.rate), "lower": r(self.lower),
             "upper": r(self.upper), "half_width": r(self.half_width)}
        if self.reason is not None:
            d["reason"] = self.reason
        return d


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed exactly term by term."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    q = 1.0 - p
    total = 0.0
    for i in range(k + 1):
        total += math.comb(n, i) * p**i * q ** (n - i)
    return min(1.0, total)


def _bisect(f, target: float, decreasing: bool) -> float:
    """p in [0, 1] with f(p) == target for a monotone f."""
    lo, hi = 0.0, 1.0
    for _ in range(_BISECT_STEPS):
        mid = (lo + hi) / 2
        above = f(mid) > target
        if above == decreasing:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2


def _check(x: int, n: int, method: str) -> Interval | None:
    if n < 0 or x < 0 or x > n:
        raise ValueError(f"need 0 <= x <= n, got x={x}, n={n}")
    if n == 0:
        return Interval(method, 0, 0, None, None, None, "no trials")
    return None


def clopper_pearson(x: int, n: int, alpha: float = ALPHA) -> Interval:
    """The exact (Clopper-Pearson) interval: lower solves P(X >= x | p) = alpha/2, upper P(X <= x | p) = alpha/2.
    n=50: x=0 -> [0, 0.0711]; x=1 -> [0.0005, 0.1065]."""
    empty = _check(x, n, "clopper-pearson")
    if empty is not None:
        return empty
    a = alpha / 2
    lower = 0.0 if x == 0 else _bisect(lambda p: 1.0 - binom_cdf(x - 1, n, p), a, decreasing=False)
    upper = 1.0 if x == n else _bisect(lambda p: binom_cdf(x, n, p), a, decreasing=True)
    return Interval("clopper-pearson", x, n, x / n, lower, upper)


def wilson(x: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    empty = _check(x, n, "wilson")
    if empty is not None:
        return empty
    p = x / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    lower = 0.0 if x == 0 else max(0.0, centre - spread)  # exact 0 / 1 at the ends, not rounding noise
    upper = 1.0 if x == n else min(1.0, centre + spread)
    return Interval("wilson", x, n, p, lower, upper)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default, Hyndman-Fan type 7) on sorted values."""
    if not sorted_values:
        raise ValueError("no values")
    h = (len(sorted_values) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


@dataclass(frozen=True, slots=True)
class Spread:
    """Median, quartiles (type 7), IQR and the values outside Q1 - 1.5 IQR .. Q3 + 1.5 IQR."""

    n: int
    median: float | None
    q1: float | None
    q3: float | None
    iqr: float | None
    outliers: tuple[float, ...] = ()
    reason: str | None = None

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        d = {"n": self.n, "median": r(self.median), "q1": r(self.q1), "q3": r(self.q3), "iqr": r(self.iqr),
             "outliers": [r(v) for v in self.outliers], "outlier_count": len(self.outliers)}
        if self.reason is not None:
            d["reason"] = self.reason
        return d


def spread(values: Sequence[float]) -> Spread:
    if not values:
        return Spread(0, None, None, None, None, (), "no values")
    s = sorted(values)
    q1, med, q3 = quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75)
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    return Spread(len(s), med, q1, q3, iqr, tuple(v for v in values if v < lo or v > hi))


def coefficient_of_variation(values: Sequence[float]) -> tuple[float | None, str | None]:
    """Population standard deviation / |mean| (as the seed's reference computes it); (None, reason) when
    there are fewer than two values or the mean is 0."""
    if len(values) < 2:
        return None, f"fewer than two values ({len(values)})"
    mean = sum(values) / len(values)
    if mean == 0:
        return None, "the mean is 0"
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return math.sqrt(var) / abs(mean), None


def efficiency_norm(median_tokens: float, ceiling: float = 8000.0) -> float:
    """The seed's token efficiency: max(0, 1 - median_tokens / 8000)."""
    return max(0.0, 1.0 - median_tokens / ceiling)


def mc_score(activation_rate: float, cv: float, failure_rate: float, eff_norm: float) -> float:
    """The seed's Layer 3 score: 0.40 activation + 0.30 (1 - min(1, CV)) + 0.20 (1 - failure) + 0.10 efficiency."""
    return 0.40 * activation_rate + 0.30 * (1 - min(1.0, cv)) + 0.20 * (1 - failure_rate) + 0.10 * eff_norm


def youden_j(tpr: float, fpr: float) -> float:
    """max(0, TPR - FPR): 1 for a skill that fires on every positive and no negative, 0 for one that fires on
    everything, on nothing, or at random."""
    return max(0.0, tpr - fpr)


# ---- Monte Carlo stopping: the mean's t interval and the smallest sample that could meet a CI target ----------

def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The p quantile of Student's t (bisection on t_cdf): df=1, p=0.975 -> tan(0.475 pi) = 12.7062;
    df=2 -> 4.3027; df=9 -> 2.2622."""
    if not 0.0 < p < 1.0 or df < 1:
        raise ValueError(f"need 0 < p < 1 and df >= 1, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(_BISECT_STEPS):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def mean_half_width(values: Sequence[float], alpha: float = ALPHA) -> float | None:
    """Half-width of the two-sided (1 - alpha) t interval of the mean: t(1 - alpha/2, n-1) * s / sqrt(n), s the
    sample standard deviation; None with fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return t_quantile(1.0 - alpha / 2, n - 1) * s / math.sqrt(n)


def cp_best_half_width(x: int, n: int, more: int) -> float:
    """The narrowest Clopper-Pearson half-width x/n can reach after `more` further trials (all of them going one
    way: the extremes give the narrowest intervals)."""
    widths = [clopper_pearson(x + more, n + more).half_width, clopper_pearson(x, n + more).half_width]
    return min(w for w in widths if w is not None)


def trials_to_reach(x: int, n: int, target: float, *, at_least: int = 0, limit: int) -> int | None:
    """The fewest further trials (0..limit) after which the CI half-width of x/n COULD be under `target` (the best
    case; the smallest next step that can end an adaptive run); None when `limit` more cannot reach it."""
    def ok(m: int) -> bool:
        return n + m >= at_least and n + m > 0 and cp_best_half_width(x, n, m) < target

    if target <= 0 or not ok(limit):
        return None
    lo, hi = 0, limit  # ok(hi); the best-case width only narrows as trials are added
    if ok(lo):
        return 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi
