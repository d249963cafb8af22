"""workspace/executeCommand `skillgrade.reportHtml`: the HTML report (analyzers/html_report.py) of one SKILL.md or
of the workspace's skills, for the editors to show (VS Code: a webview; Neovim: a temp file in the browser).

Arguments: `[uri]` (a SKILL.md, or its {"uri": ...}) for that skill, with the judge / certify result of its
current version when one ran (and that run's ledger); `[]`, `[null]` or `["workspace"]` for every SKILL.md of
the workspace folders (open buffers as typed, the others from disk). Answers `{"html": str, "skills": int,
"errors": [str]}`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from skillgrade.analyzers.html_report import to_html

from ..convert import path_to_uri, uri_to_path
from ..server import SkillServer, server
from . import commands

REPORT_HTML = "skillgrade.reportHtml"
WORKSPACE = "workspace"
MAX_SKILLS = 2000  # a workspace report lists at most this many skills (the rest are named in `errors`)


def _wants_workspace(args: tuple) -> bool:
    if not args or args[0] is None or args[0] == WORKSPACE:
        return True
    a = args[0]
    return isinstance(a, dict) and a.get("workspace") is True


def _docs_base(ls: SkillServer, path: str | None) -> str | None:
    if path is None:
        return None
    return ls.engine.config_for(Path(path).parent).docs_base_url


async def _one(ls: SkillServer, uri: str) -> tuple[dict, dict | None]:
    res = await commands._result(ls, uri)
    d = commands._report_dict(ls, uri, res)
    cert = ls.certified.get(uri)
    ledger = d.pop("ledger", None)
    if cert is not None and cert.version == res.version and cert.ledger is not None:
        ledger = cert.ledger  # the whole certify run's ledger, not only its judge part
    return d, ledger


async def _workspace(ls: SkillServer) -> tuple[list[dict], list[str]]:
    from skillgrade.analyzers.workspace import find_skill_files

    roots = list(ls.engine.roots)
    paths = await asyncio.get_running_loop().run_in_executor(None, lambda: list(find_skill_files(roots)))
    errors: list[str] = []
    if len(paths) > MAX_SKILLS:
        errors.append(f"{len(paths) - MAX_SKILLS} more skills not shown (at most {MAX_SKILLS})")
        paths = paths[:MAX_SKILLS]
    reports: list[dict] = []
    for p in paths:
        uri = path_to_uri(str(p))
        res = await ls.result_for(uri) if ls.docs.get(uri) is not None else await ls.analyse_path(p)
        if res is None:
            errors.append(f"{p}: could not be analysed")
            continue
        reports.append(commands._report_dict(ls, uri, res))
    return reports, errors


@server.command(REPORT_HTML)
async def report_html(ls: SkillServer, *args) -> dict:
    whole = _wants_workspace(args)
    if whole and ls.engine.roots:
        reports, errors = await _workspace(ls)
        ledger = None
        title = "skillgrade report: workspace"
    else:  # one skill (no workspace folder: the one open SKILL.md)
        d, ledger = await _one(ls, commands._uri_arg(ls, () if whole else args))
        reports, errors = [d], []
        title = f"skillgrade report: {d['skill'].get('name') or Path(uri_to_path(d['uri']) or '').parent.name}"
    base = _docs_base(ls, reports[0]["skill"]["path"]) if reports else None
    page = await asyncio.get_running_loop().run_in_executor(
        None, lambda: to_html(reports, errors, ledger=ledger, docs_base=base, title=title))
    return {"html": page, "skills": len(reports), "errors": errors}
