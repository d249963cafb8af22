"""Depth `deep` and `certify`: a skill's report blended from static + judge + Monte Carlo (+ Elo at certify).

- `with_layers(report, judge, mc, elo)`: the composite from every layer that produced numbers (the seed's blend
  table, renormalised over the layers that measured each dimension), `layers[1]` = judge, `layers[2]` =
  monte_carlo, `layers[3]` = elo (certify only). The confidence label follows the layers that produced
  numbers (scoring.confidence): "Certified" needs Monte Carlo numbers.
- `run_deep(...)`: judge, then Monte Carlo on the same gateway (one cache, budget and ledger), then the Elo
  step at certify. The Elo step is a hook (`EloStep`; the CLI's and the server's is server/certifying.py's
  `elo_step`, which runs layers/elo.py against the corpus index); without an index (`no_elo_index`) Elo is
  unmeasured with the reason, and the badge uses the composite alone, as the seed says when Elo is not
  computed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .report import Report
from .scoring import composite

NO_INDEX = "no reference corpus index: run `skillgrade init CORPUS_DIR`"


@dataclass(frozen=True, slots=True)
class EloOutcome:
    """What an Elo step gives back: the rating (None: unmeasured) and its JSON layer record."""

    rating: float | None
    layer: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None


# (report blended so far, gateway, progress) -> EloOutcome. The Elo helper plugs its implementation in here.
EloStep = Callable[[Report, Any, Callable[[str, int, int], None] | None], Awaitable[EloOutcome]]


async def no_elo_index(report: Report, gateway: Any, progress: Callable[[str, int, int], None] | None = None
                       ) -> EloOutcome:
    """The Elo step while no corpus index exists: unmeasured, with how to build one."""
    return EloOutcome(None, {"name": "elo", "layer": "elo", "rating": None, "unmeasured": NO_INDEX,
                             "reason": NO_INDEX}, NO_INDEX)


def with_layers(report: Report, judge: Any | None, mc: Any | None, elo: EloOutcome | None = None) -> Report:
    """judge: layers.judge.JudgeResult; mc: layers.montecarlo.MonteCarloResult (either may be None)."""
    from .layers.judge import judge_layer
    from .layers.montecarlo import montecarlo_layer

    scores: dict[str, dict[str, float]] = {"static": report.static.dimension_scores()}
    if judge is not None and judge.scores():
        scores["judge"] = judge.scores()
    if mc is not None and mc.scores():
        scores["monte_carlo"] = mc.scores()
    comp = composite(scores, sum(1 for f in report.findings if f.anti_pattern),
                     elo=None if elo is None else elo.rating)
    keep = [la for la in report.extra_layers if la.get("name") not in ("judge", "monte_carlo", "elo")]
    layers = []
    if judge is not None:
        layers.append(judge_layer(judge))
    if mc is not None:
        layers.append(montecarlo_layer(mc))
    if elo is not None:
        layers.append(elo.layer)
    return replace(report, composite=comp, extra_layers=[*layers, *keep])


ProgressFn = Callable[[str, int, int], None]  # (phase, done, planned): phase "judge", "simulations", "elo"


@dataclass(slots=True)
class DeepRun:
    report: Report
    judge: Any | None
    mc: Any | None
    elo: EloOutcome | None
    cancelled: bool = False


async def run_deep(report: Report, gateway: Any, *, models: Mapping[str, str], judges: int = 1,
                   workspace_skills: Sequence = (), mc_n: int = 50, mc_ci: float = 0.10,
                   prompt_set: Any | None = None, elo: EloStep | None = None, progress: ProgressFn | None = None,
                   keep_on_cancel: bool = False, mc_wave: int | None = None) -> DeepRun:
    """Judge, Monte Carlo, then (certify: `elo` given) the Elo step, on one gateway. With keep_on_cancel a
    cancellation during Monte Carlo keeps its finished simulations (and the judge) and skips Elo. mc_wave:
    at most this many simulations between stop checks (default: each wave sized by the stop rule)."""
    from .layers.judge import run_judge
    from .layers.montecarlo import run_montecarlo

    doc = report.document
    judge = await run_judge(doc, gateway, models=models, judges=judges, workspace_skills=workspace_skills,
                            progress=None if progress is None else (lambda _l, d, n: progress("judge", d, n)))
    mc = await run_montecarlo(doc, gateway, models=models, prompt_set=prompt_set, workspace_skills=workspace_skills,
                              max_n=mc_n, ci_target=mc_ci, keep_on_cancel=keep_on_cancel,
                              **({"wave": mc_wave} if mc_wave else {}),
                              progress=None if progress is None else (lambda _l, d, n: progress("simulations", d, n)))
    cancelled = mc.stop_reason == "cancelled"
    outcome = None
    if elo is not None:
        if cancelled:
            outcome = EloOutcome(None, {"name": "elo", "layer": "elo", "rating": None,
                                        "reason": "cancelled before the Elo step"}, "cancelled")
        else:
            outcome = await elo(with_layers(report, judge, mc), gateway, progress)
    return DeepRun(with_layers(report, judge, mc, outcome), judge, mc, outcome, cancelled)
