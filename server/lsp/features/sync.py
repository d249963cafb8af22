"""Text synchronisation: didOpen / didChange / didSave / didClose into the server's document store."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types as T

from ..convert import uri_to_path
from ..engine import SKILL_FILE
from ..server import SkillServer, server

log = logging.getLogger("skillgrade.server")


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SkillServer, params: T.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    ls.docs.open(td.uri, td.version, td.text, td.language_id)
    ls.schedule(td.uri, 0)
    ls.touch_skill(td.uri)  # a bundled buffer now overrides the disk for its skill


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SkillServer, params: T.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.docs.get(uri)
    if doc is None:
        log.warning("didChange for a document that is not open: %s", uri)
        return
    try:
        for ch in params.content_changes:
            if isinstance(ch, T.TextDocumentContentChangePartial):
                r = ch.range
                doc.apply_change((r.start.line, r.start.character, r.end.line, r.end.character), ch.text, ls.codec)
            else:
                doc.apply_change(None, ch.text, ls.codec)
    finally:
        doc.version = params.text_document.version
    ls.results.pop(uri, None)
    ls.schedule(uri)
    ls.touch_skill(uri)  # editing references/x.md re-analyses its skill (and the other way round)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
def did_save(ls: SkillServer, params: T.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    _file_changed(ls, uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SkillServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.docs.close(uri)
    ls.clear(uri)
    ls.runs.pop(uri, None)
    ls.touch_skill(uri)
    _file_changed(ls, uri)


def _file_changed(ls: SkillServer, uri: str) -> None:
    """Saved or closed: what is on disk may differ from before (also for clients that watch nothing)."""
    p = uri_to_path(uri)
    if p is None or not ls.engine.inside_workspace(Path(p)):
        if ls.docs.get(uri) is not None:
            ls.results.pop(uri, None)
            ls.schedule(uri, 0)
        return
    path = Path(p)
    is_open = ls.docs.get(uri) is not None

    def apply() -> bool:
        ls.engine.invalidate(path)
        if path.name == SKILL_FILE and not is_open:
            return ls.engine.update_index(path, None)
        return False

    async def run() -> None:
        changed = await asyncio.get_running_loop().run_in_executor(ls.pool, apply)
        if changed or path.name != SKILL_FILE:
            ls.invalidate_all()
        elif is_open:
            ls.generation += 1
            ls.recheck_others(None)

    asyncio.get_running_loop().create_task(run())
