"""Comprehension evals in the editor (issue 12): eval-file diagnostics, the "Run comprehension evals" action
and command, and the last verdict per dimension in a SKILL.md's hover.

- Eval files (a JSON object with `evals`) get the validator's findings as diagnostics — push or pull —
  through server/lsp/side_docs.py, R4 far-transfer warnings included when the skill is found on disk.
- `skillgrade.comprehension` [uri, {"baseline": bool, "evals": path}?] runs the evals of the skill's eval
  file (found as the CLI finds it) through `_llm_run`: progress per case, cancel, the no-key answer, a run
  record. The result is under "comprehension" in the returned report.
- Hover on a SKILL.md: the last run's verdict per dimension (from which version), or, when an eval file
  exists and nothing ran yet, where it is and how many cases it has.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from skillgrade.analyzers.comprehension.discover import find_eval_files, validate_eval_document

from .. import side_docs
from ..convert import uri_to_path
from ..server import SkillServer, server
from . import actions, hover
from .commands import _llm_run, _report_dict, _uri_arg

log = logging.getLogger("skillgrade.server")

COMMAND = "skillgrade.comprehension"
KIND = "source.skillgrade.comprehension"
TITLE = "Run comprehension evals"


@dataclass
class Last:
    version: int | None
    result: dict[str, Any]


LAST: dict[str, Last] = {}  # uri -> the last comprehension run's result


def _skill_name(res, skill: Path | None) -> str:
    return (res.report.name if res is not None and res.report.name else None) or (skill.parent.name if skill else "")


def eval_files_for(res, uri: str) -> list[Path]:
    p = uri_to_path(uri)
    if not p:
        return []
    skill = Path(p)
    return find_eval_files(skill.parent, _skill_name(res, skill))[0]


# ---- diagnostics for eval files -------------------------------------------------------------------------------

side_docs.register("comprehension eval file", validate_eval_document)


# ---- the command ----------------------------------------------------------------------------------------------

@server.command(COMMAND)
async def comprehension(ls: SkillServer, *args) -> dict:
    uri = _uri_arg(ls, args)
    opts = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    return await _comprehension_command(ls, uri, bool(opts.get("baseline")), opts.get("evals"))


async def _comprehension_command(ls: SkillServer, uri: str, baseline: bool, evals_arg: str | None) -> dict:
    from skillgrade.analyzers.comprehension.evalfile import validate_text
    from skillgrade.analyzers.comprehension.report import headline
    from skillgrade.analyzers.comprehension.runner import run_comprehension

    def start(res, gateway, llm, skill, prog):
        name = _skill_name(res, skill)
        if evals_arg:
            path = Path(evals_arg)
        else:
            found, looked = find_eval_files(skill.parent, name) if skill else ([], [])
            if not found:
                raise JsonRpcInvalidParams(f"no eval file for skill {name!r}; looked at: {', '.join(looked)}")
            path = found[0]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise JsonRpcInvalidParams(f"{path}: cannot read the eval file ({type(exc).__name__})") from None
        model, findings = validate_text(text)
        if model is None or not model.comprehension_cases:
            why = findings[0].message if findings else "no case with a comprehension_dimension and expected_behaviors"
            raise JsonRpcInvalidParams(f"{path}: {why}")

        def progress(label: str, done: int, planned: int) -> None:
            prog.report(f"{label} ({done}/{planned} cases)", min(99, 2 + 97 * done // max(planned, 1)))

        models = {"agent": llm.simulate_model, "grader": getattr(llm, "grade_model", None) or llm.judge_model}
        return run_comprehension(res.report.document, model, gateway, models=models, baseline=baseline,
                                 eval_path=str(path), progress=progress)

    def finish(result, res, gateway, ledger: dict) -> tuple[str, dict]:
        out = result.to_dict()
        out["ledger"] = ledger
        LAST[uri] = Last(res.version, out)
        message = f"{result.skill}: {headline(out)} ({gateway.ledger.summary()})"
        d = _report_dict(ls, uri, res)
        d["comprehension"] = out
        return message, d

    return await _llm_run(ls, uri, "comprehension", "skillgrade: running comprehension evals", start, finish)


# ---- code action ----------------------------------------------------------------------------------------------

def _action(ls: SkillServer, uri: str, res, params: T.CodeActionParams) -> list[T.CodeAction]:
    if not actions.wanted(KIND, params) or not eval_files_for(res, uri):
        return []
    return [T.CodeAction(title=TITLE, kind=KIND, command=T.Command(title=TITLE, command=COMMAND, arguments=[uri]))]


actions.EXTRA_ACTIONS.append(_action)
actions.KINDS.append(KIND)


# ---- hover ----------------------------------------------------------------------------------------------------

def hover_section(ls: SkillServer, uri: str, res) -> str | None:
    from skillgrade.analyzers.comprehension.evalfile import DIMENSION_TITLES, DIMENSIONS

    last = LAST.get(uri)
    if last is None:
        files = eval_files_for(res, uri)
        if not files:
            return None
        return (f"**Comprehension**: not run yet — eval file `{files[0].name}`. "
                f"Run *{TITLE}* (code action) to grade C1–C9.")
    r = last.result
    old = "" if last.version == res.version else f" (from an earlier version, v{last.version})"
    v = r["verdict"]
    rows = ["| Dim | Dimension | Verdict | Passed |", "|---|---|---|---|"]
    for dim in DIMENSIONS:
        d = r["with_skill"]["dimensions"][dim]
        passed = f"{d['passed']}/{d['cases']}" if d["cases"] else "—"
        rows.append(f"| {dim} | {DIMENSION_TITLES[dim]} | {d['verdict']} | {passed} |")
    head = f"**Comprehension {v['verdict']}** ({v['dimensions_passed']}/9 dimensions pass){old}"
    return head + "\n\n" + "\n".join(rows)


hover.EXTRA_SECTIONS.append(hover_section)
