"""The judge's results in the editor: kept per document version, blended into hover/CodeLens/score, shown as
Information diagnostics at located evidence quotes, and read from the cache (no call, no key) on open.

Nothing here talks to a model: a judge run is started by features/commands.py; the cache probe uses
CacheOnly over a dry-run gateway, which only ever reads cached replies.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T

from .convert import to_lsp_range, uri_to_path

if TYPE_CHECKING:
    from .engine import Result
    from .server import SkillServer

log = logging.getLogger("skillgrade.server")
SOURCE = "skillgrade judge"


@dataclass(frozen=True, slots=True)
class JudgeState:
    """One judge result for one document version."""

    version: int | None
    result: Any  # analyzers.layers.judge.JudgeResult
    ledger: dict | None  # Ledger.to_json() of the run (None: read from the cache on open)
    cached: bool  # every reply came from the cache
    source: str  # "run" | "cache"


@dataclass(frozen=True, slots=True)
class CertifyState:
    """One certify result for one document version: the report blended from every layer that ran."""

    version: int | None
    report: Any  # analyzers.report.Report (static + judge + Monte Carlo + Elo)
    ledger: dict | None


def llm_for(ls: SkillServer, skill: Path | None) -> Any:
    """The LLM configuration: the skill's file config (.skillgrade.toml / [tool.skillgrade.llm]) with the
    editor settings (judgeModel, simulateModel, baseUrl, budgetUsd) on top."""
    from skillgrade.analyzers.config import Config, config_for

    from ..judging import llm_config

    base = Config().llm
    if skill is not None:
        try:
            base = config_for(skill.parent).llm
        except Exception as exc:  # noqa: BLE001 - a broken config file is reported by the static layer
            log.warning("config for %s: %s", skill, exc)
    s = ls.settings
    return llm_config(base, judge_model=s.judge_model, simulate_model=s.simulation_model, base_url=s.base_url,
                      budget_usd=s.budget_usd)


def workspace_cards(ls: SkillServer, skill: Path | None) -> list:
    """The other skills of the workspace (name + description) for the routing simulation."""
    from skillgrade.analyzers.routing import cards_from_files

    try:
        paths = [Path(p) for p in ls.engine.skill_paths()]
    except Exception:  # noqa: BLE001 - no index yet: no distractors from the workspace
        paths = []
    return cards_from_files(paths, exclude=skill)


def state(ls: SkillServer, uri: str) -> JudgeState | None:
    return ls.judged.get(uri)


def is_current(ls: SkillServer, uri: str, version: int | None) -> bool:
    st = ls.judged.get(uri)
    return st is not None and st.version == version


def blended(ls: SkillServer, uri: str, res: Result) -> Any:
    """The report to show: the certified one, else blended with the judge, when that result is for this
    version."""
    cert = ls.certified.get(uri)
    if cert is not None and cert.version == res.version and res.target is None:
        return cert.report
    st = ls.judged.get(uri)
    if st is None or st.version != res.version or res.target is not None:
        return res.report
    from skillgrade.analyzers.report import with_judge

    return with_judge(res.report, st.result)


def diagnostics(ls: SkillServer, res: Result) -> list[T.Diagnostic]:
    """Information diagnostics at each located evidence quote of the current version's judge result."""
    st = ls.judged.get(res.uri)
    doc = ls.docs.get(res.uri)
    if st is None or res.target is not None or doc is None or st.version != res.version:
        return []
    from skillgrade.analyzers.layers.judge import TITLES

    lines = doc.lines
    out: list[T.Diagnostic] = []
    for name, dim in st.result.dimensions.items():
        if dim.score is None:
            continue
        for ev in dim.evidence:
            if ev.file != "SKILL.md":
                continue
            rationale = " ".join(dim.rationale.split())
            if len(rationale) > 600:
                rationale = rationale[:597] + "..."
            out.append(T.Diagnostic(
                range=to_lsp_range(ev.range, lines, ls.codec), severity=T.DiagnosticSeverity.Information,
                source=SOURCE, code=name,
                message=f"{TITLES[name]}: {dim.grade} ({100 * dim.score:.0f}) — {rationale}"))
    return out


def with_judge_diagnostics(ls: SkillServer, res: Result) -> tuple[list[T.Diagnostic], str]:
    """The result's diagnostics plus the judge's, and a result id that changes when the judge's do."""
    extra = diagnostics(ls, res)
    if not extra:
        return res.diagnostics, res.result_id
    st = ls.judged[res.uri]
    return [*res.diagnostics, *extra], f"{res.result_id}-j{id(st.result) & 0xFFFFFF:x}"


async def probe_cache(ls: SkillServer, uri: str, res: Result) -> None:
    """On open (first hover/score of a version): a judge result entirely in the cache is shown at once, with
    no call and no key needed. A partial result is not shown (run the judge to complete it)."""
    key = (uri, res.version)
    if key in ls.judge_probed or is_current(ls, uri, res.version) or res.target is not None \
            or res.report.document is None or uri in ls.judge_tasks:
        return
    ls.judge_probed.add(key)
    try:
        from skillgrade.analyzers.layers.judge import CacheOnly
        from skillgrade.analyzers.llm.setup import build_gateway, cache_dir_from

        from ..judging import judge_report, models_of

        p = uri_to_path(uri)
        skill = Path(p) if p else None
        llm = llm_for(ls, skill)
        if not cache_dir_from(llm, os.environ).is_dir():
            return
        gateway = build_gateway(llm, os.environ, dry_run=True)  # never sends; CacheOnly only reads the cache
        _blended, result = await judge_report(res.report, CacheOnly(gateway), models=models_of(llm),
                                              judges=ls.settings.judges, workspace_skills=workspace_cards(ls, skill))
        if result.measured and not result.unmeasured and ls.docs.get(uri) is not None \
                and ls.docs.get(uri).version == res.version and not is_current(ls, uri, res.version):
            ls.judged[uri] = JudgeState(res.version, result, None, True, "cache")
            refresh(ls, uri)
    except Exception:  # noqa: BLE001 - the probe is a courtesy; hover works without it
        log.exception("judge cache probe for %s failed", uri)


def refresh(ls: SkillServer, uri: str) -> None:
    """Re-send diagnostics and CodeLens after the judge result changed."""
    res = ls.current(uri)
    if res is not None and not ls.use_pull:
        ls.publish(res)
    ls.refresh_clients()


def judge_markdown(st: JudgeState, version: int | None) -> str:
    """Hover lines about the judge run (source, cost; or "from an earlier version")."""
    r = st.result
    if st.version != version:
        grades = ", ".join(f"{_short(n)} {d.grade}" for n, d in r.dimensions.items() if d.grade)
        return (f"**Judge (from an earlier version, v{st.version})** — re-run the judge to update: {grades}. "
                "The scores above are static only.")
    bits = [f"model {r.model}"]
    if st.source == "cache" or st.cached:
        bits.append("cached (no call made)")
    elif st.ledger:
        cost = st.ledger.get("cost_usd")
        bits.append(f"{st.ledger.get('calls', 0)} call(s), {st.ledger.get('cached_calls', 0)} cached"
                    + ("" if cost is None else f", ${cost:.4f}"))
    out = [f"**Judge (v{st.version}):** " + ", ".join(bits)]
    for name, reason in r.unmeasured.items():
        out.append(f"unmeasured {_short(name)}: {reason}")
    return "  \n".join(out)


def _short(name: str) -> str:
    from skillgrade.analyzers.layers.judge import TITLES

    return TITLES.get(name, name)
