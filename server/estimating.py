"""What an LLM run would cost before it starts: the editor's confirmation ("Certify: up to N calls, $X")
and anything else that needs an estimate without spending.

Thin glue over each layer's `planned_requests` (requests with every reply valid, no early stop: an upper
bound) and the gateway's pure estimates; requests whose replies are already cached are free and counted
apart. Nothing here calls a model or prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WHAT = ("judge", "certify")


def planned(doc: Any, what: str, *, models: Mapping[str, str], judges: int = 1, workspace_skills: Sequence = (),
            mc_n: int | None = None, index: Any = None) -> list:
    """The requests a `what` run sends for `doc` (judge; certify = judge + Monte Carlo + Elo)."""
    from skillgrade.analyzers.layers import judge

    out = list(judge.planned_requests(doc, models=models, judges=judges, workspace_skills=workspace_skills))
    if what == "certify":
        from skillgrade.analyzers.layers import elo, montecarlo

        kw = {"max_n": mc_n} if mc_n else {}
        out += montecarlo.planned_requests(doc, models=models, workspace_skills=workspace_skills, **kw)
        if index is not None:
            out += elo.planned_requests(doc, index, model=models["judge"])
    return out


def estimate(gateway: Any, requests: Sequence) -> dict[str, Any]:
    """{"calls", "input_tokens", "output_tokens", "cost_usd", "by_kind", "cached_calls"}: the requests not in
    the cache, estimated at the gateway's prices (batch prices when it batches)."""
    from skillgrade.analyzers.llm.gateway import summarize_estimates

    todo = [r for r in requests if gateway.cached_reply(r) is None]
    plan = summarize_estimates(gateway.estimate(r) for r in todo)
    plan["cached_calls"] = len(requests) - len(todo)
    return plan


def sentence(what: str, name: str, plan: Mapping[str, Any]) -> str:
    """One line for a confirmation: "Certify pdf-tools: up to 75 model calls (~41,000 input tokens), up to $0.31"."""
    cost = plan.get("cost_usd")
    money = f"up to ${cost:.2f}" if cost is not None else "cost unknown (a model has no price)"
    cached = plan.get("cached_calls") or 0
    extra = f"; {cached} cached repl{'y' if cached == 1 else 'ies'} are free" if cached else ""
    verb = "Certify" if what == "certify" else "Judge"
    return (f"{verb} {name}: up to {plan.get('calls', 0)} model calls (~{plan.get('input_tokens', 0):,} input "
            f"tokens), {money}{extra}.")
