"""Monte Carlo's stopping rules, pure: Student's t quantile and the mean's half-width against exact values,
the smallest wave that could reach the CI target, the quality sample's quota and the tool-result cache rule."""

from __future__ import annotations

import math

import pytest

from skillgrade.analyzers.layers.montecarlo import (
    Simulation,
    next_wave,
    quality_quota,
    reuse_expected,
    should_stop,
)
from skillgrade.analyzers.routing import TestPrompt
from skillgrade.analyzers.stats import (
    betainc,
    clopper_pearson,
    mean_half_width,
    t_cdf,
    t_quantile,
    trials_to_reach,
)


def test_t_quantile_exact_values() -> None:
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-11)  # Cauchy: closed form
    assert t_quantile(0.975, 2) == pytest.approx(0.95 * math.sqrt(2 / (4 * 0.975 * 0.025)), rel=1e-11)
    assert t_quantile(0.975, 9) == pytest.approx(2.2621571627982053, rel=1e-10)  # scipy.stats.t.ppf
    assert t_quantile(0.975, 29) == pytest.approx(2.045229642132703, rel=1e-10)
    assert t_quantile(0.025, 9) == pytest.approx(-2.2621571627982053, rel=1e-10)
    assert t_cdf(0.0, 5) == pytest.approx(0.5) and betainc(2, 3, 0.5) == pytest.approx(11 / 16, rel=1e-12)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_mean_half_width() -> None:
    values = [0.8, 0.9] * 5  # mean 0.85, sample sd 0.05 * sqrt(10/9)
    assert mean_half_width(values) == pytest.approx(2.2621571627982053 * 0.05 * math.sqrt(10 / 9) / math.sqrt(10),
                                                    rel=1e-10)
    assert mean_half_width([0.7] * 4) == 0.0 and mean_half_width([0.5]) is None


def test_trials_to_reach_is_the_best_case_minimum() -> None:
    # x = n: the CP half-width is (1 - 0.025^(1/n)) / 2, under 0.10 from n = 17 (16 gives 0.1030)
    assert clopper_pearson(16, 16).half_width > 0.10 > clopper_pearson(17, 17).half_width
    assert trials_to_reach(0, 0, 0.10, limit=25) == 17
    assert trials_to_reach(5, 5, 0.10, limit=25) == 12 and trials_to_reach(17, 17, 0.10, limit=25) == 0
    assert trials_to_reach(0, 0, 0.10, at_least=20, limit=25) == 20
    assert trials_to_reach(9, 17, 0.10, limit=8) is None  # a rate near 1/2 cannot get there within 8
    assert trials_to_reach(0, 0, 0.0, limit=25) is None  # a zero target is never reached


def sims_of(decisions: list[tuple[bool, bool]], quality: list[float] | None = None) -> list[Simulation]:
    out = []
    for i, (should, activated) in enumerate(decisions):
        s = Simulation(i, TestPrompt(f"p{i}", should), 0, routed=True, activated=activated)
        out.append(s)
    for s, q in zip([s for s in out if s.activated and s.prompt.should_trigger], quality or [], strict=False):
        s.quality, s.continued = q, True
    return out


def test_next_wave_and_the_stop() -> None:
    assert next_wave([], start=0, max_n=50, ci_target=0.10, min_each=10) == 34
    assert next_wave([], start=0, max_n=20, ci_target=0.10, min_each=10) == 20  # unreachable within 20: all
    assert next_wave([], start=0, max_n=50, ci_target=0.0, min_each=10) == 50
    perfect = sims_of([(i % 2 == 0, i % 2 == 0) for i in range(34)])
    assert should_stop(perfect, ci_target=0.10, min_each=10)
    # 15 of 17 positives: 17 more on each side could (all activating) bring it under 0.10 -> at most what is left
    mixed = sims_of([(i % 2 == 0, i % 2 == 0 and i not in (0, 2)) for i in range(34)])
    assert not should_stop(mixed, ci_target=0.10, min_each=10)
    assert next_wave(mixed, start=34, max_n=50, ci_target=0.10, min_each=10) == 16


def test_quality_quota() -> None:
    routed = [(True, True)] * 12
    assert quality_quota(sims_of(routed, [0.8] * 4), ci_target=0.10, min_graded=10) == 6
    assert quality_quota(sims_of(routed, [0.8, 0.9] * 5), ci_target=0.10, min_graded=10) == 0  # 0.0377 < 0.10
    wide = [0.2, 0.9] * 5  # half-width 0.264: about (0.264/0.10)^2 * 10 = 70 answers are needed
    hw = mean_half_width(wide)
    assert quality_quota(sims_of(routed, wide), ci_target=0.10, min_graded=10) == math.ceil(10 * (hw / 0.1) ** 2) - 10
    assert quality_quota(sims_of(routed, [0.8, 0.9] * 5), ci_target=0.0, min_graded=10) is None  # all continue


def test_the_tool_result_is_cached_only_when_a_repeat_is_expected() -> None:
    assert not reuse_expected(0, 10, ci_target=0.10, min_graded=10)
    assert reuse_expected(1, 10, ci_target=0.10, min_graded=10)
    assert reuse_expected(0, 3, ci_target=0.10, min_graded=10)  # 3 prompts: the minimum sample repeats them
    assert reuse_expected(0, 10, ci_target=0.0, min_graded=10)  # everything continues
