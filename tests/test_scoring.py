"""The methodology's formulas: weights, blends, renormalisation, penalty, grades, badges, confidence."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.scoring import BLENDS, WEIGHTS, badge, blend, composite, confidence, grade, penalty


def test_weights_sum_to_one() -> None:
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    assert set(BLENDS) == set(WEIGHTS)
    for dim, b in BLENDS.items():
        assert sum(b.values()) == pytest.approx(1.0), dim


@pytest.mark.parametrize(
    ("score", "expected"),
    [(1.0, "A"), (0.9, "A"), (0.8999, "B"), (0.8, "B"), (0.75, "C"), (0.6, "D"), (0.5999, "F"), (0.0, "F"),
     (None, None)],
)
def test_grade_bands(score, expected) -> None:
    assert grade(score) == expected


def test_penalty_floor() -> None:
    assert penalty(0) == 1.0
    assert penalty(1) == pytest.approx(0.95)
    assert penalty(10) == pytest.approx(0.5)
    assert penalty(25) == 0.5


def test_badges_without_and_with_elo() -> None:
    assert badge(90.0) == "Platinum"
    assert badge(89.99) == "Gold"
    assert badge(70.0) == "Silver"
    assert badge(60.0) == "Bronze"
    assert badge(59.9) is None
    assert badge(95.0, elo=1550) == "Gold"  # Elo bar applies when Elo exists
    assert badge(95.0, elo=1200) is None


def test_static_only_renormalises_over_measured_dimensions() -> None:
    static = {"triggering_accuracy": 0.65, "orchestration_fitness": 0.85, "progressive_disclosure": 1.0,
              "token_efficiency": 1.0, "structural_completeness": 1.0, "ecosystem_coherence": 1.0}
    comp = composite({"static": static}, anti_pattern_count=1)
    measured_w = sum(WEIGHTS[d] for d in static)
    raw = sum(WEIGHTS[d] / measured_w * s for d, s in static.items())
    assert comp.score == pytest.approx(round(100 * 0.95 * raw, 2))
    assert comp.dimensions["output_quality"].score is None
    assert comp.dimensions["output_quality"].grade is None
    assert set(comp.unmeasured) == {"output_quality", "scope_calibration", "robustness", "code_template_quality"}
    assert comp.confidence == "Estimated"


def test_blend_renormalises_over_layers_that_ran() -> None:
    dims = blend({"static": {"triggering_accuracy": 0.5}, "judge": {"triggering_accuracy": 1.0}})
    # static 0.15, judge 0.25 -> (0.15*0.5 + 0.25*1.0) / 0.40
    assert dims["triggering_accuracy"].score == pytest.approx((0.075 + 0.25) / 0.40)
    assert sorted(dims["triggering_accuracy"].layers) == ["judge", "static"]


def test_blend_plain_mean_when_only_zero_weight_layers() -> None:
    dims = blend({"static": {"output_quality": 0.4}})  # static's blend weight for output_quality is 0
    assert dims["output_quality"].score == pytest.approx(0.4)


def test_confidence_follows_layers_run() -> None:
    assert confidence(["static"]) == "Estimated"
    assert confidence(["static", "judge"]) == "Assessed"
    assert confidence(["static", "judge", "monte_carlo"]) == "Certified"
    comp = composite({"static": {"triggering_accuracy": 1.0}, "judge": {}}, 0)
    assert comp.confidence == "Estimated"  # a judge layer with no numbers is not "Assessed"


def test_nothing_measured_is_unmeasured_not_zero() -> None:
    comp = composite({"static": {}}, 0)
    assert comp.score is None and comp.badge is None
