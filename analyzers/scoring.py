"""Blend layers into the ten dimensions, the composite, grades, badge and confidence (the seed's formulas)."""

from __future__ import annotations

from dataclasses import dataclass, field

WEIGHTS: dict[str, float] = {
    "triggering_accuracy": 0.25,
    "orchestration_fitness": 0.20,
    "output_quality": 0.15,
    "scope_calibration": 0.12,
    "progressive_disclosure": 0.10,
    "token_efficiency": 0.06,
    "robustness": 0.05,
    "structural_completeness": 0.03,
    "code_template_quality": 0.02,
    "ecosystem_coherence": 0.02,
}
DIMENSIONS = tuple(WEIGHTS)
LAYERS = ("static", "judge", "monte_carlo")
BLENDS: dict[str, dict[str, float]] = {
    "triggering_accuracy": {"static": 0.15, "judge": 0.25, "monte_carlo": 0.60},
    "orchestration_fitness": {"static": 0.10, "judge": 0.70, "monte_carlo": 0.20},
    "output_quality": {"static": 0.00, "judge": 0.40, "monte_carlo": 0.60},
    "scope_calibration": {"static": 0.30, "judge": 0.55, "monte_carlo": 0.15},
    "progressive_disclosure": {"static": 0.80, "judge": 0.20, "monte_carlo": 0.00},
    "token_efficiency": {"static": 0.40, "judge": 0.10, "monte_carlo": 0.50},
    "robustness": {"static": 0.00, "judge": 0.20, "monte_carlo": 0.80},
    "structural_completeness": {"static": 0.90, "judge": 0.10, "monte_carlo": 0.00},
    "code_template_quality": {"static": 0.30, "judge": 0.70, "monte_carlo": 0.00},
    "ecosystem_coherence": {"static": 0.85, "judge": 0.15, "monte_carlo": 0.00},
}
GRADE_BANDS = ((0.90, "A"), (0.80, "B"), (0.70, "C"), (0.60, "D"))
BADGES = (  # (name, min composite, min Elo)
    ("Platinum", 90.0, 1600.0),
    ("Gold", 80.0, 1500.0),
    ("Silver", 70.0, 1400.0),
    ("Bronze", 60.0, 1300.0),
)


def grade(score: float | None) -> str | None:
    if score is None:
        return None
    for lo, g in GRADE_BANDS:
        if score >= lo - 1e-9:
            return g
    return "F"


def badge(composite: float | None, elo: float | None = None) -> str | None:
    """The highest badge whose composite bar (and Elo bar, when Elo was computed) is met."""
    if composite is None:
        return None
    for name, min_score, min_elo in BADGES:
        if composite >= min_score and (elo is None or elo >= min_elo):
            return name
    return None


def penalty(anti_pattern_count: int) -> float:
    return max(0.5, 1.0 - 0.05 * anti_pattern_count)


def confidence(layers_run: list[str]) -> str:
    """The label follows the layers that actually produced numbers, not the depth requested."""
    if "monte_carlo" in layers_run:
        return "Certified"
    if "judge" in layers_run:
        return "Assessed"
    return "Estimated"


@dataclass(frozen=True, slots=True)
class Dimension:
    name: str
    weight: float
    score: float | None  # None: unmeasured
    grade: str | None
    layers: dict[str, float]  # the layer scores that were blended

    def to_dict(self) -> dict:
        return {
            "score": None if self.score is None else round(self.score, 4),
            "grade": self.grade,
            "weight": self.weight,
            "measured_by": sorted(self.layers),
            "layers": {k: round(v, 4) for k, v in sorted(self.layers.items())},
        }


@dataclass(frozen=True, slots=True)
class Composite:
    score: float | None
    badge: str | None
    confidence: str
    penalty: float
    anti_pattern_count: int
    dimensions: dict[str, Dimension]
    layers_run: tuple[str, ...]
    elo: float | None = None
    unmeasured: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {
            "score": self.score,
            "badge": self.badge,
            "elo": self.elo,
            "confidence": self.confidence,
            "anti_pattern_penalty": self.penalty,
            "anti_pattern_count": self.anti_pattern_count,
            "layers_run": list(self.layers_run),
            "unmeasured": list(self.unmeasured),
            "dimensions": {name: d.to_dict() for name, d in self.dimensions.items()},
        }


def layer_shares(dim: str, layers) -> dict[str, float]:
    """Each layer's share of `dim` when exactly `layers` measured it: the seed's blend weights renormalised
    over those layers (standard depth: static + judge, no Monte Carlo). If only layers with weight 0 measured
    it, they share equally (the reference's rule)."""
    layers = list(layers)
    weights = {layer: BLENDS[dim].get(layer, 0.0) for layer in layers}
    total = sum(weights.values())
    if total > 0:
        return {layer: w / total for layer, w in weights.items()}
    return {layer: 1.0 / len(layers) for layer in layers} if layers else {}


def blend(layer_scores: dict[str, dict[str, float]]) -> dict[str, Dimension]:
    """layer_scores: layer -> {dimension: score in 0..1}. Renormalise over the layers that supplied a value."""
    out = {}
    for dim in DIMENSIONS:
        supplied = {layer: s[dim] for layer, s in layer_scores.items() if dim in s and s[dim] is not None}
        if not supplied:
            out[dim] = Dimension(dim, WEIGHTS[dim], None, None, {})
            continue
        shares = layer_shares(dim, supplied)
        value = sum(shares[la] * supplied[la] for la in supplied)
        value = max(0.0, min(1.0, value))
        out[dim] = Dimension(dim, WEIGHTS[dim], value, grade(value), dict(supplied))
    return out


def composite(layer_scores: dict[str, dict[str, float]], anti_pattern_count: int,
              elo: float | None = None) -> Composite:
    dims = blend(layer_scores)
    measured = [d for d in dims.values() if d.score is not None]
    pen = penalty(anti_pattern_count)
    if measured:
        wsum = sum(d.weight for d in measured)
        raw = sum(d.weight / wsum * (d.score or 0.0) for d in measured)
        score: float | None = round(max(0.0, min(100.0, 100 * pen * raw)), 2)
    else:
        score = None
    layers_run = tuple(la for la in LAYERS if la in layer_scores and layer_scores[la])
    return Composite(
        score=score,
        badge=badge(score, elo),
        confidence=confidence(list(layers_run)),
        penalty=round(pen, 4),
        anti_pattern_count=anti_pattern_count,
        dimensions=dims,
        layers_run=layers_run,
        elo=elo,
        unmeasured=tuple(d.name for d in dims.values() if d.score is None),
    )
