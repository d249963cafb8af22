"""workspace/executeCommand (score, report, judge, certify) and the CodeLens bound to them."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from pathlib import Path

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcRequestCancelled

from .. import judge_view
from ..convert import uri_to_path
from ..render import RunRecord, score_line
from ..server import SkillServer, server

log = logging.getLogger("skillgrade.server")

SCORE, REPORT, JUDGE, CERTIFY = "skillgrade.score", "skillgrade.report", "skillgrade.judge", "skillgrade.certify"
ESTIMATE = "skillgrade.estimate"
def _uri_arg(ls: SkillServer, args: tuple) -> str:
    if args:
        a = args[0]
        if isinstance(a, dict):
            a = a.get("uri") or a.get("textDocument", {}).get("uri")
        if isinstance(a, str) and a:
            return a
    skills = [d.uri for d in ls.docs if ls.is_skill(d.uri)]
    if len(skills) == 1:
        return skills[0]
    raise JsonRpcInvalidParams("expected the document URI as the first argument")


async def _result(ls: SkillServer, uri: str):
    res = await ls.result_for(uri)
    if res is None and (p := uri_to_path(uri)) is not None:
        res = await ls.analyse_path(Path(p))
    if res is None:
        raise JsonRpcInvalidParams(f"not a SKILL.md in the workspace: {uri}")
    return res


def _report_dict(ls: SkillServer, uri: str, res, report=None) -> dict:
    """The report of the current version, blended with the judge when its result is for this version."""
    d = (report or judge_view.blended(ls, uri, res)).to_dict()
    d["uri"] = uri
    d["version"] = res.version
    st = judge_view.state(ls, uri)
    if st is not None:
        d["judge"] = {"version": st.version, "current": st.version == res.version, "cached": st.cached,
                      "source": st.source}
        if st.ledger is not None and st.version == res.version:
            d["ledger"] = st.ledger
    return d


@server.command(SCORE)
async def score(ls: SkillServer, *args) -> dict:
    uri = _uri_arg(ls, args)
    res = await _result(ls, uri)
    await judge_view.probe_cache(ls, uri, res)
    return _report_dict(ls, uri, res)


@server.command(REPORT)
async def report(ls: SkillServer, *args) -> dict:
    uri = _uri_arg(ls, args)
    res = await _result(ls, uri)
    d = _report_dict(ls, uri, res)
    d["runs"] = [r.to_dict() for r in ls.runs.get(uri, [])]
    d["elapsedMs"] = round(res.elapsed_ms, 2)
    return d


@server.command(JUDGE)
async def judge(ls: SkillServer, *args) -> dict:
    return await _judge_command(ls, _uri_arg(ls, args))


@server.command(ESTIMATE)
async def estimate(ls: SkillServer, *args) -> dict:
    """What a judge or certify run of the document would cost, before it starts (no model call):
    arguments [uri, "judge" | "certify"]. {"status": "ok", "message": one sentence, "plan": {...}}, or
    {"status": "no_key", "message": ...} when the run could not start anyway."""
    import os

    from skillgrade.analyzers.llm.config import LLMConfigError
    from skillgrade.analyzers.llm.setup import api_key_from, build_gateway

    from ... import certifying, estimating

    uri = _uri_arg(ls, args)
    what = args[1] if len(args) > 1 and args[1] in estimating.WHAT else "certify"
    res = await _result(ls, uri)
    p = uri_to_path(uri)
    skill = Path(p) if p else None
    llm = judge_view.llm_for(ls, skill)
    if api_key_from(os.environ) is None:
        from skillgrade.analyzers.llm.setup import NO_KEY_MESSAGE

        return {"status": "no_key", "message": NO_KEY_MESSAGE}
    try:
        gateway = build_gateway(llm, os.environ, dry_run=True)
    except LLMConfigError as exc:
        return {"status": "failed", "message": str(exc)}
    try:
        index = certifying.load_corpus_index(os.environ, getattr(llm, "data_dir", None))[0] \
            if what == "certify" else None
        doc = res.report.document
        plan = await asyncio.to_thread(
            estimating.plan, gateway, doc, what, models=estimating.models_for(llm), judges=ls.settings.judges,
            workspace_skills=judge_view.workspace_cards(ls, skill), mc_n=ls.settings.mc_n, index=index)
    finally:
        await _close(gateway)
    name = res.report.name or (skill.parent.name if skill else "this skill")
    return {"status": "ok", "what": what, "message": estimating.sentence(what, name, plan), "plan": plan}


@server.command(CERTIFY)
async def certify(ls: SkillServer, *args) -> dict:
    return await _certify_command(ls, _uri_arg(ls, args))


class _Progress:
    """Work-done progress when the client supports it; a cancel event tripped by either route."""

    def __init__(self, ls: SkillServer, title: str) -> None:
        self.ls, self.title = ls, title
        self.token = f"skillgrade-{uuid.uuid4()}"
        self.cancel = threading.Event()
        self.active = False
        self.msg_id = ls.protocol.msg_id
        if self.msg_id is not None:
            ls.cancel_events[self.msg_id] = self.cancel

    async def begin(self) -> None:
        if not self.ls.supports_progress:
            return
        try:
            await self.ls.work_done_progress.create_async(self.token)
        except Exception as exc:  # noqa: BLE001 - progress is a courtesy
            log.warning("window/workDoneProgress/create failed: %s", exc)
            return
        self.active = True
        self.ls.work_done_progress.begin(self.token, T.WorkDoneProgressBegin(
            title=self.title, cancellable=True, percentage=0))
        fut = self.ls.work_done_progress.tokens.get(self.token)
        if fut is not None:
            fut.add_done_callback(lambda _f: self.cancel.set())

    def report(self, message: str, pct: int) -> None:
        if self.active:
            self.ls.work_done_progress.report(self.token, T.WorkDoneProgressReport(message=message, percentage=pct))

    def check(self) -> None:
        if self.cancel.is_set():
            raise JsonRpcRequestCancelled(f"{self.title} cancelled")

    def end(self, message: str) -> None:
        if self.active:
            self.ls.work_done_progress.end(self.token, T.WorkDoneProgressEnd(message=message))
            self.active = False
        self.ls.work_done_progress.tokens.pop(self.token, None)
        if self.msg_id is not None:
            self.ls.cancel_events.pop(self.msg_id, None)


async def _judge_command(ls: SkillServer, uri: str) -> dict:
    """Run the LLM judge on the document's current version (see _llm_run), with progress per model call."""
    from ...judging import from_cache, judge_report, models_of

    def start(res, gateway, llm, skill, prog: _Progress):
        def progress(label: str, done: int, planned: int) -> None:
            prog.report(f"{label} ({done}/{planned} calls)", min(99, 2 + 97 * done // max(planned, 1)))

        return judge_report(res.report, gateway, models=models_of(llm), judges=ls.settings.judges,
                            workspace_skills=judge_view.workspace_cards(ls, skill), progress=progress)

    def finish(outcome, res, gateway, ledger: dict) -> tuple[str, dict]:
        blended, result = outcome
        ls.judged[uri] = judge_view.JudgeState(res.version, result, ledger, from_cache(result), "run")
        src = "cached, no call made" if from_cache(result) else gateway.ledger.summary()
        unmeasured = f"; unmeasured: {', '.join(result.unmeasured)}" if result.unmeasured else ""
        return f"{score_line(blended)} ({src}{unmeasured})", _report_dict(ls, uri, res, blended)

    return await _llm_run(ls, uri, "judge", "skillgrade: running the LLM judge", start, finish)


# phase -> (first, last) percentage of the certify progress
_CERTIFY_PHASES = {"judge": (2, 40, "LLM judge"), "simulations": (40, 88, "Monte Carlo simulations"),
                   "elo": (88, 99, "Elo comparisons")}


async def _certify_command(ls: SkillServer, uri: str) -> dict:
    """Certify the document's current version (static + judge + Monte Carlo + Elo on one gateway; see
    _llm_run), with progress per phase and call count."""
    import os

    from skillgrade.analyzers.certify import run_deep

    from ... import certifying, estimating
    from ...judging import from_cache

    def start(res, gateway, llm, skill, prog: _Progress):
        index, why = certifying.load_corpus_index(os.environ, getattr(llm, "data_dir", None))
        step = certifying.elo_step(index, model=llm.judge_model, reason=why)
        models = estimating.models_for(llm)

        def progress(phase: str, done: int, planned: int) -> None:
            lo, hi, label = _CERTIFY_PHASES.get(phase, (1, 99, phase))
            prog.report(f"{label} ({done}/{planned})", min(99, lo + (hi - lo) * done // max(planned, 1)))

        return run_deep(res.report, gateway, models=models, judges=ls.settings.judges,
                        workspace_skills=judge_view.workspace_cards(ls, skill), mc_n=ls.settings.mc_n,
                        mc_ci=ls.settings.mc_ci, elo=step, progress=progress)

    def finish(run, res, gateway, ledger: dict) -> tuple[str, dict]:
        if run.judge is not None:  # the judge part of the run: its own calls, not the whole certify ledger
            u = run.judge.usage.to_dict()
            jl = {"calls": u.get("calls", 0), "cached_calls": u.get("cached", 0), "cost_usd": None}
            ls.judged[uri] = judge_view.JudgeState(res.version, run.judge, jl, from_cache(run.judge), "run")
        ls.certified[uri] = judge_view.CertifyState(res.version, run.report, ledger)
        unmeasured = run.report.composite.to_dict().get("unmeasured") or []
        elo_note = "" if run.elo is None or run.elo.rating is not None else f"; Elo unmeasured: {run.elo.reason}"
        message = (f"{score_line(run.report)} ({gateway.ledger.summary()}"
                   f"{'; unmeasured: ' + ', '.join(unmeasured) if unmeasured else ''}{elo_note})")
        d = _report_dict(ls, uri, res, run.report)
        d["ledger"] = ledger
        return message, d

    return await _llm_run(ls, uri, "certify", "skillgrade: certifying", start, finish)


async def _llm_run(ls: SkillServer, uri: str, what: str, title: str, start, finish) -> dict:
    """One LLM command on the document's current version, as a task on the server's loop (hover and
    diagnostics keep answering): work-done progress, the static result, the gateway (no key: one warning,
    the static report and `{what}Run: {status: "no_key"}`), a working cancel (in-flight requests are
    cancelled; replies that already arrived stay in the LLM cache, so a re-run resumes) and a run record.

    start(res, gateway, llm, skill, prog) -> the layer's coroutine; finish(outcome, res, gateway, ledger)
    -> (message, report dict) once it succeeded (it keeps the result for hover and diagnostics)."""
    import os

    from skillgrade.analyzers.llm.config import LLMConfigError
    from skillgrade.analyzers.llm.setup import build_gateway
    from skillgrade.analyzers.llm.types import LLMError

    prog = _Progress(ls, title)
    started, t0 = time.time(), time.perf_counter()
    version = ls.docs.get(uri).version if ls.docs.get(uri) else None
    status, message, cost = "failed", "", 0.0
    gateway = None
    task: asyncio.Task | None = None
    try:
        await prog.begin()
        prog.report("Static layer", 1)
        res = await _result(ls, uri)
        version = res.version
        prog.check()
        p = uri_to_path(uri)
        skill = Path(p) if p else None
        llm = judge_view.llm_for(ls, skill)
        try:
            built = build_gateway(llm, os.environ)
        except LLMConfigError as exc:  # e.g. an unusable prices-file
            built = None
            status, message = "failed", str(exc)
        if isinstance(built, LLMError):  # no key: say so; the static result stands
            status, message = "no_key", built.reason
        if built is None or isinstance(built, LLMError):
            ls.show_message(f"skillgrade: {message}", T.MessageType.Warning)
            d = _report_dict(ls, uri, res)
            d[f"{what}Run"] = {"status": status, "message": message}
            return d
        gateway = built
        if (old := ls.judge_tasks.pop(uri, None)) is not None:
            old.cancel()
        task = asyncio.ensure_future(start(res, gateway, llm, skill, prog))
        ls.judge_tasks[uri] = task
        while not task.done():
            await asyncio.wait({task}, timeout=0.05)
            if prog.cancel.is_set() and not task.done():
                task.cancel()
        if task.cancelled():
            raise JsonRpcRequestCancelled(f"{title} cancelled")
        ledger = gateway.ledger.to_json()
        cost = float(ledger.get("cost_usd") or 0.0)
        message, d = finish(task.result(), res, gateway, ledger)
        status = "ok"
        log.info("%s of %s done in %.2f s: %s", what, uri, time.perf_counter() - t0, message)
        judge_view.refresh(ls, uri)
        d[f"{what}Run"] = {"status": status, "message": message}
        return d
    except JsonRpcRequestCancelled:
        status, message = "cancelled", "cancelled by the client"
        log.info("%s of %s cancelled", what, uri)
        raise
    except asyncio.CancelledError:
        status, message = "cancelled", "cancelled"
        if task is not None:
            task.cancel()
        raise
    finally:
        if task is not None and ls.judge_tasks.get(uri) is task:
            ls.judge_tasks.pop(uri, None)
        if gateway is not None and cost == 0.0:
            cost = float(gateway.ledger.known_cost_usd or 0.0)
        prog.end(status)
        if version is not None:
            rec = RunRecord(what, version, status, started, time.perf_counter() - t0, cost, message)
            ls.runs.setdefault(uri, []).append(rec)
            ls.runs[uri] = ls.runs[uri][-10:]
            if ls.supports_lens_refresh:
                ls.workspace_code_lens_refresh(None)
        if gateway is not None:
            asyncio.ensure_future(_close(gateway))  # after the cancelled task has unwound


async def _close(gateway) -> None:
    await asyncio.sleep(0)
    try:
        await gateway.aclose()
    except Exception:  # noqa: BLE001 - closing the HTTP client must not hide the result
        log.warning("closing the LLM client failed", exc_info=True)


@server.feature(T.TEXT_DOCUMENT_CODE_LENS)
async def code_lens(ls: SkillServer, params: T.CodeLensParams) -> list[T.CodeLens] | None:
    uri = params.text_document.uri
    res = await ls.result_for(uri)
    if res is None:
        return None
    top = T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0))
    title = score_line(judge_view.blended(ls, uri, res))
    st = judge_view.state(ls, uri)
    if st is not None and st.version != res.version:
        title += f" · judge from v{st.version} (re-run)"
    return [
        T.CodeLens(range=top, command=T.Command(title=title, command=REPORT, arguments=[uri])),
        T.CodeLens(range=top, command=T.Command(title="Run judge", command=JUDGE, arguments=[uri])),
        T.CodeLens(range=top, command=T.Command(title="Certify", command=CERTIFY, arguments=[uri])),
    ]
