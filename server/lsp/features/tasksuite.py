"""Task suites in the editor: their validation errors as diagnostics (a side-document validator), a "Run task
suite" code action on the matching SKILL.md (`skillgrade.runTaskSuite`), and the last run in its hover.

Where the suites of a SKILL.md are looked for (`find_suites`), in this order:
1. `<skill>/task_suite.yaml` and `<skill>/task_suite.yml`;
2. YAML files in `<skill>/evals/` and one level below (`<skill>/evals/*/`) that are task suites (a mapping
   with `skill_id` and `tasks`);
3. `<skill's parent's parent>/evals/<skill folder name>/task_suite.yaml` (the layout of `examples/`:
   `skills/<name>/SKILL.md` next to `evals/<name>/task_suite.yaml`).
"""

from __future__ import annotations

import logging
import os
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from skillgrade.analyzers.evals.suite import looks_like_suite, suite_findings

from .. import side_docs
from ..convert import uri_to_path
from ..server import SkillServer, server
from . import actions, hover
from .commands import _llm_run, _report_dict, _uri_arg

log = logging.getLogger("skillgrade.server")

RUN_SUITE = "skillgrade.runTaskSuite"
EVAL_KIND = "source.skillgrade.evaluate"
MAX_SUITES = 8

side_docs.register("task suite", suite_findings)
if EVAL_KIND not in actions.KINDS:
    actions.KINDS.append(EVAL_KIND)

# uri of the SKILL.md -> the last run's artifact (+ "version", "finishedAt" of the document run)
LAST_RUNS: dict[str, dict[str, Any]] = {}


def _is_suite(p: Path) -> bool:
    """A task suite on disk (decided from its content; remembered per path, size and mtime)."""
    try:
        st = p.stat()
    except OSError:
        return False
    if not p.is_file() or st.st_size > 2_000_000:
        return False
    return _claims(str(p), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=256)
def _claims(path: str, size: int, mtime_ns: int) -> bool:
    try:
        return looks_like_suite(Path(path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return False


def find_suites(skill_md: Path) -> list[Path]:
    """The task suites of a skill (see the module docstring for where and in which order)."""
    folder = skill_md.parent
    found: list[Path] = []

    def add(p: Path) -> None:
        if p not in found and len(found) < MAX_SUITES and _is_suite(p):
            found.append(p)

    for name in ("task_suite.yaml", "task_suite.yml"):
        add(folder / name)
    evals = folder / "evals"
    if evals.is_dir():
        for pattern in ("*.yaml", "*.yml", "*/*.yaml", "*/*.yml"):
            for p in sorted(evals.glob(pattern)):
                add(p)
    add(folder.parent.parent / "evals" / folder.name / "task_suite.yaml")
    return found


def _label(skill_md: Path, suite: Path) -> str:
    try:
        return os.path.relpath(suite, skill_md.parent)
    except ValueError:
        return str(suite)


def suite_actions(ls: SkillServer, uri: str, res: Any, params: T.CodeActionParams) -> list[T.CodeAction]:
    if not actions.wanted(EVAL_KIND, params):
        return []
    p = uri_to_path(uri)
    if p is None:
        return []
    skill = Path(p)
    suites = find_suites(skill)
    out = []
    for s in suites:
        title = "Run task suite" if len(suites) == 1 else f"Run task suite ({_label(skill, s)})"
        out.append(T.CodeAction(title=title, kind=EVAL_KIND,
                                command=T.Command(title=title, command=RUN_SUITE, arguments=[uri, str(s)])))
    return out


actions.EXTRA_ACTIONS.append(suite_actions)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def run_line(art: dict[str, Any]) -> str:
    """One line for a run: 'pass: candidate 80%, baseline 60%, delta +20 pts'."""
    delta = art.get("delta")
    d = "—" if delta is None else f"{100 * delta:+.0f} pts"
    return (f"{art.get('verdict')}: candidate {_pct(art.get('execution_pass_rate'))}, baseline "
            f"{_pct(art.get('baseline_pass_rate'))}, delta {d}")


def hover_section(ls: SkillServer, uri: str, res: Any) -> str | None:
    art = LAST_RUNS.get(uri)
    if art is None:
        return None
    ago = max(0, round((time.time() - art.get("_finished", time.time())) / 60))
    stale = "" if art.get("_version") == res.version else f" (run on version {art.get('_version')}; re-run)"
    lines = [f"**Task suite** `{Path(art['task_suite']).name}`: {run_line(art)}{stale}",
             f"pass@{art['pass_k']}, model `{art['model']}`, {ago} min ago — {art.get('reason')}"]
    unmeasured = {**(art.get("candidate") or {}).get("unmeasured", {}),
                  **(art.get("baseline_summary") or {}).get("unmeasured", {})}
    if unmeasured:
        lines.append("unmeasured: " + ", ".join(f"`{t}`" for t in unmeasured))
    return "\n\n".join(lines)


hover.EXTRA_SECTIONS.append(hover_section)


@server.command(RUN_SUITE)
async def run_task_suite(ls: SkillServer, *args) -> dict:
    """Run a task suite on the SKILL.md: arguments [uri, suite path (optional: the first found)]. Returns the
    report dict with `evaluateRun` ({status, message}) and, when it ran, `evaluation` (the artifact); an
    invalid suite answers {"evaluateRun": {"status": "invalid"}, "errors": [...]} and runs nothing."""
    from skillgrade.analyzers.evals.runner import Settings, build_artifact, evaluate, load_skill
    from skillgrade.analyzers.evals.suite import SuiteInvalid, load_suite

    from ...cli_evaluate import default_state_root, new_run_id, now_iso, write_artifact

    uri = _uri_arg(ls, args)
    p = uri_to_path(uri)
    if p is None:
        raise JsonRpcInvalidParams(f"not a file: {uri}")
    skill_md = Path(p)
    if len(args) > 1 and isinstance(args[1], str) and args[1]:
        suite_path = Path(args[1])
    else:
        found = find_suites(skill_md)
        if not found:
            return {"uri": uri, "evaluateRun": {"status": "no_suite", "message": "no task suite found next to "
                                                "this SKILL.md (task_suite.yaml, evals/*.yaml)"}}
        suite_path = found[0]
    try:
        suite = load_suite(suite_path)
    except SuiteInvalid as exc:
        return {"uri": uri, "evaluateRun": {"status": "invalid", "message": f"the task suite has "
                                            f"{len(exc.errors)} error(s); nothing was run"},
                "errors": [e.to_dict() for e in exc.errors]}
    started = time.time()

    def start(res, gateway, llm, skill, prog):  # noqa: ANN001, ANN202
        settings = Settings(model=llm.simulate_model, judge_model=getattr(llm, "grade_model", llm.judge_model),
                            env=dict(os.environ))
        state = {"settings": settings}

        def progress(side: str, done: int, total: int) -> None:
            lo, hi = (2, 50) if side == "baseline" else (50, 99)
            prog.report(f"{side} ({done}/{total} attempts)", min(99, lo + (hi - lo) * done // max(total, 1)))

        async def go():  # noqa: ANN202
            candidate = load_skill(skill_md)
            ev = await evaluate(suite, candidate, None, gateway, settings, progress=progress)
            return ev, candidate, state

        return go()

    def finish(outcome, res, gateway, ledger: dict) -> tuple[str, dict]:  # noqa: ANN001
        ev, candidate, state = outcome
        run_id = new_run_id(False)
        out = default_state_root(os.environ) / "evaluations" / f"{run_id}.json"
        finished = time.time()
        art = build_artifact(ev, run_id=run_id, mode="standalone", suite=suite, candidate=candidate, baseline=None,
                             settings=state["settings"], truth_anchor=out, started_at=now_iso(started),
                             finished_at=now_iso(finished), duration_ms=round(1000 * (finished - started)),
                             ledger=ledger)
        try:
            write_artifact(art, out)
        except OSError as exc:
            log.warning("could not write the evaluation artifact %s: %s", out, exc)
        LAST_RUNS[uri] = {**art, "_version": res.version, "_finished": finished}
        d = _report_dict(ls, uri, res)
        d["evaluation"] = art
        return f"{run_line(art)} ({gateway.ledger.summary()})", d

    return await _llm_run(ls, uri, "evaluate", "skillgrade: running the task suite", start, finish)
