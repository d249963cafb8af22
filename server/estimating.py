"""What an LLM run would cost before it starts: the editor's confirmation ("Certify: up to N calls, $X")
and anything else that needs an estimate without spending.

Thin glue over each layer's `planned_requests` (requests with every reply valid, no early stop: an upper
bound) and the gateway's pure estimates; requests whose replies are already cached are free and counted
apart. Nothing here calls a model or prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WHAT = ("judge", "certify")  # what the editor estimates; "deep" (= certify without Elo) is the CLI's too


def models_for(llm: Any) -> dict[str, str]:
    """The models of a judge / certify run from an LLM config: judge (and prompt writer), simulate, grade."""
    from skillgrade.server.judging import models_of

    return {**models_of(llm), "grade": getattr(llm, "grade_model", None) or llm.judge_model}


def planned(doc: Any, what: str, *, models: Mapping[str, str], judges: int = 1, workspace_skills: Sequence = (),
            mc_n: int | None = None, index: Any = None, prompt_set: Any = None) -> list:
    """The requests a `what` run sends for `doc` (judge; deep = judge + Monte Carlo; certify = deep + Elo)."""
    from skillgrade.analyzers.layers import judge

    out = list(judge.planned_requests(doc, models=models, judges=judges, workspace_skills=workspace_skills))
    if what in ("deep", "certify"):
        from skillgrade.analyzers.layers import elo, montecarlo

        kw = {"max_n": mc_n} if mc_n else {}
        out += montecarlo.planned_requests(doc, models=models, workspace_skills=workspace_skills,
                                           prompt_set=prompt_set, **kw)
        if index is not None and what == "certify":
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


def plan(gateway: Any, doc: Any, what: str, *, models: Mapping[str, str], judges: int = 1,
         workspace_skills: Sequence = (), mc_n: int | None = None, index: Any = None,
         prompt_set: Any = None) -> dict[str, Any]:
    """The one cost estimate of a judge / certify run of `doc` (the CLI's --dry-run and the editor's
    skillgrade.estimate both answer with it): `estimate(gateway, planned(...))`."""
    return estimate(gateway, planned(doc, what, models=models, judges=judges, workspace_skills=workspace_skills,
                                     mc_n=mc_n, index=index, prompt_set=prompt_set))


def combine(plans: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several skills' plans as one (calls, tokens, cached calls and by_kind summed; cost None if any is None)."""
    out: dict[str, Any] = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "by_kind": {},
                           "cached_calls": 0}
    for p in plans:
        for k in ("calls", "input_tokens", "output_tokens", "cached_calls"):
            out[k] += p.get(k) or 0
        cost = p.get("cost_usd")
        out["cost_usd"] = None if cost is None or out["cost_usd"] is None else out["cost_usd"] + cost
        for kind, v in (p.get("by_kind") or {}).items():
            acc = out["by_kind"].setdefault(kind, {"calls": 0, "input_tokens": 0, "output_tokens": 0})
            for k in acc:
                acc[k] += v.get(k, 0)
    if out["cost_usd"] is not None:
        out["cost_usd"] = round(out["cost_usd"], 6)
    return out


def sentence(what: str, name: str, plan: Mapping[str, Any]) -> str:
    """One line for a confirmation: "Certify pdf-tools: up to 75 model calls (~41,000 input tokens), up to $0.31"."""
    cost = plan.get("cost_usd")
    money = f"up to ${cost:.2f}" if cost is not None else "cost unknown (a model has no price)"
    cached = plan.get("cached_calls") or 0
    extra = f"; {cached} cached repl{'y' if cached == 1 else 'ies'} are free" if cached else ""
    verb = "Certify" if what == "certify" else "Judge"
    return (f"{verb} {name}: up to {plan.get('calls', 0)} model calls (~{plan.get('input_tokens', 0):,} input "
            f"tokens), {money}{extra}.")
