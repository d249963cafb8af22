""""Optimise description": a code action on the `description` line runs the description optimiser
(analyzers/optimize) in the background with progress and cancel (commands._llm_run), then offers the winner
as a workspace edit through `workspace/applyEdit`. The client accepts or rejects it; nothing is written
otherwise. Clients that support change annotations get the edit marked `needsConfirmation` (VS Code shows
its refactor preview); with the option `confirm: true` the server first asks with window/showMessageRequest
(Apply / Discard) and sends the edit only after "Apply".

Command `skillgrade.optimize` [uri, options?]: options {iterations, runs, holdout, seed, prompts (a file,
relative to the skill's folder or absolute), confirm}. The reply: the run's JSON (`optimize`), `ledger`,
`optimizeRun` {status, message} and `edit` {offered, applied, reason, diff, workspaceEdit}.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from skillgrade.analyzers import Pos, Range

from ..convert import to_lsp_range, uri_to_path
from ..server import SkillServer, server
from . import actions, hover
from .commands import _llm_run, _uri_arg

log = logging.getLogger("skillgrade.server")

OPTIMIZE = "skillgrade.optimize"
OPTIMIZE_KIND = "refactor.rewrite.skillgrade.optimize"
TITLE = "Optimise description"
ANNOTATION = "skillgrade.optimize"
actions.KINDS.append(OPTIMIZE_KIND)


def description_lines(doc) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """(first, last) line of the `description` key and value, when it is text."""
    if doc is None:
        return None
    fld = doc.frontmatter.get("description")
    if fld is None or not isinstance(fld.value, str):
        return None
    return fld.key_range.start.line, max(fld.value_range.end.line, fld.key_range.end.line)


def _action(ls: SkillServer, uri: str, res: Any, params: T.CodeActionParams) -> list[T.CodeAction]:
    if not actions.wanted(OPTIMIZE_KIND, params):
        return []
    span = description_lines(res.report.document)
    if span is None or params.range.end.line < span[0] or params.range.start.line > span[1]:
        return []
    return [T.CodeAction(title=TITLE, kind=OPTIMIZE_KIND,
                         command=T.Command(title=TITLE, command=OPTIMIZE, arguments=[uri]))]


actions.EXTRA_ACTIONS.append(_action)

# uri -> (version the run measured, one markdown line about it): the last optimisation, shown in the hover
LAST: dict[str, tuple[int | None, str]] = {}


def _hover_section(ls: SkillServer, uri: str, res: Any) -> str | None:
    last = LAST.get(uri)
    if last is None:
        return None
    version, line = last
    when = "" if version == res.version else f" (on version {version})"
    return f"**Last description optimisation**{when}: {line}"


hover.EXTRA_SECTIONS.append(_hover_section)


def _options(args: tuple) -> dict:
    opts = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    out: dict[str, Any] = {}
    for key, lo, hi in (("iterations", 1, 20), ("runs", 1, 10)):
        if key in opts:
            v = opts[key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise JsonRpcInvalidParams(f"{key} must be a whole number from {lo} to {hi}")
            out[key] = v
    if "holdout" in opts:
        h = opts["holdout"]
        if not isinstance(h, int | float) or isinstance(h, bool) or not 0 <= h < 1:
            raise JsonRpcInvalidParams("holdout must be at least 0 and below 1")
        out["holdout"] = float(h)
    if "seed" in opts:
        if not isinstance(opts["seed"], int):
            raise JsonRpcInvalidParams("seed must be a whole number")
        out["seed"] = opts["seed"]
    if "confirm" in opts:
        out["confirm"] = bool(opts["confirm"])
    out["prompts"] = opts.get("prompts") if isinstance(opts.get("prompts"), str) else None
    return out


def _prompt_set(path_text: str | None, skill: Path | None):  # type: ignore[no-untyped-def]
    if not path_text:
        return None
    from skillgrade.analyzers.mc_prompts import PromptsFileError, load_prompts_file

    p = Path(path_text).expanduser()
    if not p.is_absolute() and skill is not None:
        p = skill.parent / p
    try:
        return load_prompts_file(p)
    except PromptsFileError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None


def workspace_edit(ls: SkillServer, uri: str, version: int | None, old: str, new: str, label: str) -> T.WorkspaceEdit:
    """One edit over the changed span (common prefix and suffix kept), versioned when the client takes
    documentChanges, annotated `needsConfirmation` when it supports change annotations."""
    from skillgrade.analyzers.document import LineIndex

    a = 0
    limit = min(len(old), len(new))
    while a < limit and old[a] == new[a]:
        a += 1
    b = 0
    while b < limit - a and old[len(old) - 1 - b] == new[len(new) - 1 - b]:
        b += 1
    index = LineIndex(old)
    start, end = index.pos(a), index.pos(len(old) - b)
    rng = to_lsp_range(Range(Pos(start.line, start.character), Pos(end.line, end.character)), index.lines, ls.codec)
    text = new[a:len(new) - b]
    if not ls.document_changes:
        return T.WorkspaceEdit(changes={uri: [T.TextEdit(range=rng, new_text=text)]})
    if _annotations(ls):
        edit: T.TextEdit = T.AnnotatedTextEdit(range=rng, new_text=text, annotation_id=ANNOTATION)
        return T.WorkspaceEdit(
            document_changes=[T.TextDocumentEdit(
                text_document=T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=[edit])],
            change_annotations={ANNOTATION: T.ChangeAnnotation(label=TITLE, needs_confirmation=True,
                                                               description=label)})
    return T.WorkspaceEdit(document_changes=[T.TextDocumentEdit(
        text_document=T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=[T.TextEdit(range=rng, new_text=text)])])


def _annotations(ls: SkillServer) -> bool:
    caps = getattr(ls, "client_capabilities", None)
    ws = caps.workspace if caps is not None else None
    we = ws.workspace_edit if ws is not None else None
    return bool(we and we.change_annotation_support)


def _can_ask(ls: SkillServer) -> bool:
    caps = getattr(ls, "client_capabilities", None)
    win = caps.window if caps is not None else None
    return bool(win and win.show_message)


@server.command(OPTIMIZE)
async def optimize(ls: SkillServer, *args) -> dict:
    from skillgrade.analyzers.optimize.loop import run_optimize

    from ...judging import models_of
    from .. import judge_view

    uri = _uri_arg(ls, args)
    opts = _options(args)
    path = uri_to_path(uri)
    skill_path = Path(path) if path else None
    given = _prompt_set(opts["prompts"], skill_path)  # an unusable file: an error before anything runs
    state: dict[str, Any] = {}

    def start(res, gateway, llm, skill, prog):  # type: ignore[no-untyped-def]
        def progress(what: str, done: int, planned: int) -> None:
            prog.report(f"{what} ({done}/{planned} calls)", min(99, 2 + 97 * done // max(planned, 1)))

        kw = {k: opts[k] for k in ("iterations", "runs", "holdout", "seed") if k in opts}
        return run_optimize(res.report.document, gateway, models=models_of(llm), prompt_set=given,
                            workspace_skills=judge_view.workspace_cards(ls, skill), progress=progress, **kw)

    def finish(result, res, gateway, ledger: dict) -> tuple[str, dict]:  # type: ignore[no-untyped-def]
        state["result"], state["version"] = result, res.version
        d = result.to_dict()
        if result.improved is not None:
            head = f"{TITLE}: iteration {result.winner + 1} wins, {result.winner_reason}"
            if result.paired is not None:
                head += (f"; paired test p = {result.paired.p_value:.3g} "
                         f"({'larger than the noise' if result.paired.significant else 'within the noise'})")
        elif result.winner == 0:
            head = f"{TITLE}: the original is kept ({result.winner_reason})"
        else:
            head = f"{TITLE}: no winner ({result.winner_reason})"
        return f"{head}; stopped: {d['stop']} ({gateway.ledger.summary()})", {
            "uri": uri, "version": res.version, "optimize": d, "ledger": ledger}

    d = await _llm_run(ls, uri, "optimize", "skillgrade: optimising the description", start, finish)
    result = state.get("result")
    if result is None:
        return d
    # never applied silently: a client that cannot show a confirmable edit (change annotations with
    # needsConfirmation: VS Code's refactor preview) is asked Apply / Discard first (Neovim)
    confirm = opts.get("confirm", not _annotations(ls))
    d["edit"] = await _offer(ls, uri, state["version"], result, confirm)
    LAST[uri] = (state["version"], _summary(result, d["edit"]))
    return d


def _summary(result: Any, edit: dict) -> str:
    if result.improved is None:
        return f"the original description is kept ({result.winner_reason})." if result.winner == 0 else \
            f"no winner ({result.winner_reason})."
    out = f"iteration {result.winner + 1} wins, {result.winner_reason}"
    if result.paired is not None:
        out += f"; paired test p = {result.paired.p_value:.3g}"
    return out + (" — applied." if edit.get("applied") else f" — not applied ({edit.get('reason') or 'not offered'}).")


async def _offer(ls: SkillServer, uri: str, version: int | None, result: Any, confirm: bool) -> dict:
    from skillgrade.analyzers.optimize.rewrite import RewriteError, rewrite_description, unified_diff

    if result.improved is None:
        return {"offered": False, "applied": False, "reason": "no better description than the original"}
    doc = ls.docs.get(uri)
    if doc is None or doc.version != version:
        reason = "the document changed during the run; run the optimiser again"
        ls.show_message(f"skillgrade: {TITLE}: {reason}", T.MessageType.Warning)
        return {"offered": False, "applied": False, "reason": reason}
    try:
        new_text = rewrite_description(doc.text, result.improved)
    except RewriteError as exc:
        return {"offered": False, "applied": False, "reason": str(exc)}
    label = f"{result.winner_reason}: {result.improved}"
    edit = workspace_edit(ls, uri, version, doc.text, new_text, label)
    out: dict[str, Any] = {"offered": True, "applied": False, "description": result.improved,
                           "diff": unified_diff(doc.text, new_text, Path(uri_to_path(uri) or "SKILL.md").name),
                           "workspaceEdit": ls.protocol._converter.unstructure(edit)}
    if confirm and not _can_ask(ls):
        out["reason"] = "not applied: the client can neither preview nor ask; the edit and its diff are in this reply"
        return out
    if confirm:
        try:
            choice = await ls.window_show_message_request_async(T.ShowMessageRequestParams(
                type=T.MessageType.Info, message=f"{TITLE}: {label.rstrip('.')}. Apply it?",
                actions=[T.MessageActionItem(title="Apply"), T.MessageActionItem(title="Discard")]))
        except Exception as exc:  # noqa: BLE001 - no answer is a no
            log.warning("showMessageRequest failed: %s", exc)
            choice = None
        if choice is None or choice.title != "Apply":
            out["reason"] = "discarded in the client"
            return out
    try:
        resp = await ls.workspace_apply_edit_async(T.ApplyWorkspaceEditParams(edit=edit, label=TITLE))
    except Exception as exc:  # noqa: BLE001 - a client that cannot apply edits: the edit stays in the reply
        log.warning("workspace/applyEdit failed: %s", exc)
        out["reason"] = f"the client could not apply the edit: {exc}"
        return out
    out["applied"] = bool(resp is not None and resp.applied)
    if not out["applied"]:
        out["reason"] = (getattr(resp, "failure_reason", None) or "declined in the client")
    return out
