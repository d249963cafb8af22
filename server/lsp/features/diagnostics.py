"""Pull diagnostics: textDocument/diagnostic and workspace/diagnostic (push lives in SkillServer.publish)."""

from __future__ import annotations

from lsprotocol import types as T

from ..convert import path_to_uri
from ..server import SkillServer, server

IDENTIFIER = "skillgrade"


@server.feature(T.TEXT_DOCUMENT_DIAGNOSTIC, T.DiagnosticOptions(
    identifier=IDENTIFIER, inter_file_dependencies=True, workspace_diagnostics=True))
async def document_diagnostic(ls: SkillServer, params: T.DocumentDiagnosticParams):
    res = await ls.result_for(params.text_document.uri, bundled=True)
    if res is None:
        side = await ls.side_result(params.text_document.uri)  # a task suite, an eval file, ...
        if side is None:
            return T.RelatedFullDocumentDiagnosticReport(items=[], result_id="none")
        if params.previous_result_id == side[1]:
            return T.RelatedUnchangedDocumentDiagnosticReport(result_id=side[1])
        return T.RelatedFullDocumentDiagnosticReport(items=side[0], result_id=side[1])
    from ..judge_view import with_judge_diagnostics

    items, result_id = with_judge_diagnostics(ls, res)
    if params.previous_result_id == result_id:
        return T.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return T.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


@server.feature(T.WORKSPACE_DIAGNOSTIC)
async def workspace_diagnostic(ls: SkillServer, params: T.WorkspaceDiagnosticParams):
    previous = {p.uri: p.value for p in params.previous_result_ids or []}
    items: list = []
    open_uris = {d.uri for d in ls.docs}
    for d in ls.docs:
        if not ls.is_ours(d.uri):
            continue
        res = await ls.result_for(d.uri, bundled=True)
        if res is not None:
            items.append(_report(res.uri, res.version, res, previous, ls))
    for path in list(ls.engine.skill_paths()):
        uri = path_to_uri(str(path))
        if uri in open_uris:
            continue
        res = await ls.analyse_path(path)
        if res is not None:
            items.append(_report(uri, None, res, previous))
    return T.WorkspaceDiagnosticReport(items=items)


def _report(uri: str, version: int | None, res, previous: dict, ls: SkillServer | None = None):
    items, result_id = res.diagnostics, res.result_id
    if ls is not None:  # an open document: the judge's evidence diagnostics too
        from ..judge_view import with_judge_diagnostics

        items, result_id = with_judge_diagnostics(ls, res)
    if previous.get(uri) == result_id:
        return T.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=result_id)
    return T.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=version, items=items, result_id=result_id)
