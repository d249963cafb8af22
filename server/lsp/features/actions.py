"""Code actions: quick fixes from diagnostic data, fix-all, extract section, judge/certify source actions."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as T

from skillgrade.analyzers import Applicability, Pos, Range

from ..convert import fix_title, path_to_uri, range_json, to_lsp_range, to_lsp_workspace_edit
from ..refactor import plan_extraction, section_at
from ..server import SkillServer, server
from .hover import cursor

log = logging.getLogger("skillgrade.server")

FIX_ALL = "source.fixAll.skillgrade"
JUDGE_KIND = "source.skillgrade.judge"
CERTIFY_KIND = "source.skillgrade.certify"
# the kinds the server announces; feature modules that add actions append theirs at import
KINDS = [T.CodeActionKind.QuickFix, T.CodeActionKind.RefactorExtract, FIX_ALL, JUDGE_KIND, CERTIFY_KIND]


def _wanted(kind: str, only) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(str(o) + ".") for o in only)


def _overlaps(a: T.Range, b: T.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


# More code actions on a SKILL.md, from other feature modules (each appends one provider at import):
# provider(ls, uri, res, params) -> list[T.CodeAction]; it checks `params.context.only` itself (`wanted`).
EXTRA_ACTIONS: list[Callable[[SkillServer, str, Any, T.CodeActionParams], list[T.CodeAction]]] = []


def wanted(kind: str, params: T.CodeActionParams) -> bool:
    return _wanted(kind, params.context.only)


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=False))
async def code_actions(ls: SkillServer, params: T.CodeActionParams) -> list[T.CodeAction] | None:
    uri = params.text_document.uri
    doc = ls.docs.get(uri)
    res = await ls.result_for(uri, bundled=True)
    if doc is None or res is None:
        return None
    skill = res.target is None  # a bundled file (references/x.md): quick fixes only
    only = params.context.only
    versions = {uri: doc.version}
    actions: list[T.CodeAction] = []
    if _wanted(T.CodeActionKind.QuickFix, only):
        current = {(d.code, d.range.start.line, d.range.start.character): d for d in res.diagnostics}
        seen = set()
        asked = list(params.context.diagnostics)
        if not asked:  # no diagnostics sent (some clients): offer fixes for findings under the cursor
            asked = [d for d in res.diagnostics if _overlaps(d.range, params.range)]
        for diag in asked:
            if diag.source not in (None, "skillgrade"):
                continue
            data = diag.data if isinstance(diag.data, dict) else None
            if data is None or data.get("version") != doc.version:
                # no data, or data from an older version: use the current analysis instead
                diag = current.get((diag.code, diag.range.start.line, diag.range.start.character))
                data = diag.data if diag is not None else None
            fix = data.get("fix") if isinstance(data, dict) else None
            if not fix:
                continue
            key = (diag.code, diag.range.start.line, diag.range.start.character, fix.get("title"))
            if key in seen:
                continue
            seen.add(key)
            edit = to_lsp_workspace_edit([fix], versions, ls.document_changes, ls.can_create)
            if edit is None:
                continue
            safe = fix.get("applicability") == Applicability.SAFE.value
            actions.append(T.CodeAction(title=fix_title(fix), kind=T.CodeActionKind.QuickFix, diagnostics=[diag],
                                        is_preferred=safe or None, edit=edit))
    if _wanted(FIX_ALL, only):
        safe = _non_overlapping([d.data["fix"] for d in res.diagnostics
                                 if isinstance(d.data, dict) and d.data.get("fix")
                                 and d.data["fix"].get("applicability") == Applicability.SAFE.value])
        if safe and (edit := to_lsp_workspace_edit(safe, versions, ls.document_changes, ls.can_create)):
            actions.append(T.CodeAction(title=f"skillgrade: apply {len(safe)} safe fix(es)", kind=FIX_ALL, edit=edit))
    if not skill:
        return actions
    if _wanted(T.CodeActionKind.RefactorExtract, only) and \
            (act := _extract_action(ls, uri, params.range.start, res)) is not None:
        actions.append(act)
    for extra in EXTRA_ACTIONS:
        actions.extend(extra(ls, uri, res, params))
    for kind, title, command in ((JUDGE_KIND, "Run LLM judge", "skillgrade.judge"),
                                 (CERTIFY_KIND, "Certify skill", "skillgrade.certify")):
        if _wanted(kind, only):
            actions.append(T.CodeAction(title=title, kind=kind,
                                        command=T.Command(title=title, command=command, arguments=[uri])))
    return actions


def _non_overlapping(fixes: list[dict]) -> list[dict]:
    """Fixes whose edits in the same file do not overlap (first wins, in document order)."""
    out, taken = [], []
    for fx in fixes:
        spans = [(e["uri"], (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                  (e["range"]["end"]["line"], e["range"]["end"]["character"])) for e in fx.get("edits", ())]
        if any(u == u2 and a <= b2 and a2 <= b for u, a, b in spans for u2, a2, b2 in taken):
            continue
        taken.extend(spans)
        out.append(fx)
    return out


def _extract_action(ls: SkillServer, uri: str, start: T.Position, res) -> T.CodeAction | None:
    doc = res.report.document
    if doc is None or doc.path is None or not (ls.document_changes and ls.can_create):
        return None
    at = cursor(ls, uri, start)
    if at is None:
        return None
    heading = section_at(doc, at.line)
    if heading is None:
        return None
    skill_dir: Path = doc.path.parent

    def exists(rel: str) -> bool:
        return doc.files.exists(rel) or (skill_dir / rel).exists()

    plan = plan_extraction(doc, heading, exists)
    lines = doc.lines
    end = Pos(plan.end_line, 0) if plan.end_line < len(lines) else Pos(len(lines) - 1, len(lines[-1]))
    rng = to_lsp_range(Range(Pos(plan.start_line, 0), end), lines, ls.codec)
    fix = {
        "title": f"Move section to {plan.rel_path}",
        "applicability": "safe",
        "creates": [{"uri": path_to_uri(str(skill_dir / plan.rel_path)), "content": plan.content}],
        "edits": [{"uri": uri, "range": range_json(rng), "newText": plan.replacement}],
    }
    edit = to_lsp_workspace_edit([fix], {uri: ls.docs.get(uri).version}, True, True)
    return T.CodeAction(title=fix["title"], kind=T.CodeActionKind.RefactorExtract, edit=edit)
