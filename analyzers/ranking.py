"""Ratings from pairwise results: a Bradley-Terry fit on the Elo scale, anchored corpus ratings, a seeded
bootstrap CI and corpus percentiles. Pure Python, deterministic, no I/O.

Bradley-Terry: P(i beats j) = 1 / (1 + exp(-(t_i - t_j))); a draw counts as half a win for each side. The
fit maximises the (penalised) log-likelihood by Newton's method on the aggregated results, so the order of
the matches cannot change the answer (unlike sequential K=32 Elo updates). On the Elo scale a rating is
1500 + ELO_SCALE * t, ELO_SCALE = 400 / ln 10 (a 400-point gap = 10:1 odds).

The Elo layer (analyzers/layers/elo.py) has only skill-vs-reference matches, so references cannot be rated
from the matches themselves. They are anchored (see docs/scoring.md, "Elo"):

- `corpus_ratings`: each indexed corpus skill gets the rating whose win probability against the corpus median
  equals its mid-rank percentile q of static composite: 1500 + ELO_SCALE * ln(q / (1 - q)). The corpus median
  is 1500 by construction.
- `rate_against`: the skill's rating is the MAP estimate with the references' ratings held fixed and a weak
  Gaussian prior on the skill (mean 1500, sd PRIOR_SD_ELO), which keeps an all-wins record finite.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength
ELO_BASE = 1500.0
PRIOR_SD_ELO = 400.0  # the skill's prior: N(1500, 400^2) on the Elo scale (one sd = 10:1 odds)
BOOTSTRAP_SAMPLES = 500
BOOTSTRAP_SEED = 20_260_401
MAX_NEWTON = 100

P = TypeVar("P", bound=Hashable)
U = TypeVar("U")


class NotIdentifiable(ValueError):
    """The maximum-likelihood ratings do not exist (e.g. a player won every game and there is no prior)."""


@dataclass(frozen=True, slots=True)
class Match:
    """One game: `a` scored `score` against `b` (1 win, 0.5 draw, 0 loss); `weight` counts repeats."""

    a: Hashable
    b: Hashable
    score: float
    weight: float = 1.0


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _aggregate(matches: Sequence[Match]) -> list[tuple[Hashable, Hashable, float, float]]:
    """(i, j, score of i, games) per unordered pair, i before j by repr, sorted: the fit sees the same
    numbers whatever the order of the matches."""
    agg: dict[tuple[str, str], list] = {}
    for m in matches:
        if not 0.0 <= m.score <= 1.0 or m.weight < 0:
            raise ValueError(f"score must be in [0, 1] and weight >= 0, got {m.score}, {m.weight}")
        if m.a == m.b:
            raise ValueError("a player cannot play itself")
        ka, kb = repr(m.a), repr(m.b)
        if ka <= kb:
            key, s = (ka, kb), m.score
            i, j = m.a, m.b
        else:
            key, s = (kb, ka), 1.0 - m.score
            i, j = m.b, m.a
        slot = agg.setdefault(key, [i, j, 0.0, 0.0])
        slot[2] += s * m.weight
        slot[3] += m.weight
    return [tuple(agg[k]) for k in sorted(agg)]  # type: ignore[misc]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is small and symmetric negative definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise NotIdentifiable("singular Hessian")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _check_identifiable(free: Sequence[Hashable], fixed: Mapping[Hashable, float],
                        pairs: Sequence[tuple[Hashable, Hashable, float, float]]) -> None:
    """Without a prior the MLE exists iff the 'scored something against' graph is strongly connected (the
    fixed players merged into one node)."""
    node = {p: i for i, p in enumerate(free)}
    fixed_node = len(free) if fixed else None
    n = len(free) + (1 if fixed else 0)

    def at(p: Hashable) -> int | None:
        return node.get(p, fixed_node if p in fixed else None)

    out: list[set[int]] = [set() for _ in range(n)]
    back: list[set[int]] = [set() for _ in range(n)]
    for i, j, s, g in pairs:
        u, v = at(i), at(j)
        if u is None or v is None or u == v or g <= 0:
            continue
        if s > 0:
            out[u].add(v)
            back[v].add(u)
        if s < g:
            out[v].add(u)
            back[u].add(v)

    def reach(adj: list[set[int]]) -> int:
        seen, stack = {0}, [0]
        while stack:
            for w in adj[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return len(seen)

    if n > 1 and (reach(out) < n or reach(back) < n):
        raise NotIdentifiable("a player (or group) won or lost every game: the ratings are unbounded "
                              "without a prior")


def bradley_terry(matches: Sequence[Match], *, fixed: Mapping[Hashable, float] | None = None,
                  prior: Mapping[Hashable, tuple[float, float]] | None = None,
                  tol: float = 1e-12) -> dict[Hashable, float]:
    """Bradley-Terry strengths (natural-log units) of every player in `matches`.

    fixed: players whose strength is given (not fitted). prior: player -> (mean, sd) of a Gaussian prior on
    a free player (MAP instead of MLE). With neither, the strengths are centred (mean 0). Raises
    NotIdentifiable when the MLE does not exist (a free player without a prior is unbounded).
    """
    fixed = dict(fixed or {})
    prior = dict(prior or {})
    pairs = _aggregate(matches)
    players: dict[str, Hashable] = {}
    for i, j, _s, _g in pairs:
        players.setdefault(repr(i), i)
        players.setdefault(repr(j), j)
    free = [players[k] for k in sorted(players) if players[k] not in fixed]
    if not free:
        return {p: fixed[p] for p in players.values()}
    pin: Hashable | None = None
    if not fixed and not any(p in prior for p in free):
        pin = free[0]  # the likelihood only sees differences: pin one player, centre afterwards
    unpriored = [p for p in free if p not in prior]
    if unpriored:
        # a free player with a prior is bounded like a fixed one: merged into the anchor node
        _check_identifiable(unpriored, {**fixed, **{p: 0.0 for p in free if p in prior}}, pairs)
    fit = [p for p in free if p != pin]
    idx = {p: k for k, p in enumerate(fit)}
    theta: dict[Hashable, float] = {p: 0.0 for p in free}
    theta.update(fixed)
    for p, (mu, _sd) in prior.items():
        if p in idx:
            theta[p] = mu

    def objective(t: Mapping[Hashable, float]) -> float:
        v = 0.0
        for i, j, s, g in pairs:
            d = t[i] - t[j]
            v += s * _log_sigmoid(d) + (g - s) * _log_sigmoid(-d)
        for p, (mu, sd) in prior.items():
            if p in idx:
                v -= (t[p] - mu) ** 2 / (2 * sd * sd)
        return v

    n = len(fit)
    current = objective(theta)
    for _ in range(MAX_NEWTON):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for i, j, s, g in pairs:
            p = _sigmoid(theta[i] - theta[j])
            r = s - g * p
            w = g * p * (1 - p)
            a, b = idx.get(i), idx.get(j)
            if a is not None:
                grad[a] += r
                hess[a][a] -= w
            if b is not None:
                grad[b] -= r
                hess[b][b] -= w
            if a is not None and b is not None:
                hess[a][b] += w
                hess[b][a] += w
        for q, (mu, sd) in prior.items():
            k = idx.get(q)
            if k is not None:
                grad[k] -= (theta[q] - mu) / (sd * sd)
                hess[k][k] -= 1.0 / (sd * sd)
        step = _solve(hess, [-x for x in grad])
        scale = 1.0
        while True:
            trial = dict(theta)
            for q, k in idx.items():
                trial[q] = theta[q] + scale * step[k]
            value = objective(trial)
            if value >= current - 1e-15 or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if max((abs(x) * scale for x in step), default=0.0) < tol:
            break
    if pin is not None:
        mean = sum(theta[p] for p in free) / len(free)
        theta = {p: v - mean for p, v in theta.items()}
    return {p: theta[p] for p in players.values()}


def to_elo(strength: float) -> float:
    return ELO_BASE + ELO_SCALE * strength


def from_elo(rating: float) -> float:
    return (rating - ELO_BASE) / ELO_SCALE


def expected_score(r_a: float, r_b: float) -> float:
    """P(a beats b) for Elo ratings r_a, r_b (the standard 1 / (1 + 10^((r_b - r_a) / 400)))."""
    return _sigmoid((r_a - r_b) / ELO_SCALE)


def mid_rank(values: Sequence[float], x: float) -> float:
    """Fraction of `values` below x, ties counted half (0..1)."""
    if not values:
        raise ValueError("no values")
    below = sum(1 for v in values if v < x)
    ties = sum(1 for v in values if v == x)
    return (below + 0.5 * ties) / len(values)


def corpus_ratings(composites: Mapping[P, float]) -> dict[P, float]:
    """Anchor ratings for corpus skills from their static composites: a skill at mid-rank percentile q (its
    own tie counted half, so 0 < q < 1) is expected to beat the corpus median with probability q, i.e.
    rating = 1500 + ELO_SCALE * ln(q / (1 - q)). The median skill is at 1500."""
    values = list(composites.values())
    out: dict[P, float] = {}
    for key, c in composites.items():
        q = mid_rank(values, c)
        out[key] = to_elo(math.log(q / (1.0 - q)))
    return out


def rate_against(results: Sequence[tuple[float, float]], *, prior_mean: float = ELO_BASE,
                 prior_sd: float = PRIOR_SD_ELO) -> float:
    """The Elo rating of one player from (opponent's fixed Elo rating, score 0/0.5/1) results: the MAP
    Bradley-Terry estimate with a Gaussian prior N(prior_mean, prior_sd^2) on the Elo scale."""
    if not results:
        raise ValueError("no results")
    me = ("me",)
    matches = [Match(me, ("opp", k), s) for k, (_r, s) in enumerate(results)]
    fixed = {("opp", k): from_elo(r) for k, (r, _s) in enumerate(results)}
    prior = {me: (from_elo(prior_mean), prior_sd / ELO_SCALE)}
    return to_elo(bradley_terry(matches, fixed=fixed, prior=prior)[me])


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (Hyndman-Fan type 7, numpy's default) of already sorted values."""
    if not sorted_values:
        raise ValueError("no values")
    h = (len(sorted_values) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def bootstrap_ci(units: Sequence[U], statistic: Callable[[Sequence[U]], float], *,
                 samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap CI: resample `units` with replacement `samples` times (random.Random(seed)),
    apply `statistic`, return the (1-level)/2 and (1+level)/2 quantiles. Deterministic for a given seed."""
    if not units:
        raise ValueError("no units to resample")
    rng = random.Random(seed)
    n = len(units)
    stats = sorted(statistic([units[rng.randrange(n)] for _ in range(n)]) for _ in range(samples))
    return quantile(stats, (1 - level) / 2), quantile(stats, (1 + level) / 2)
