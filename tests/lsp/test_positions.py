"""Positions in the negotiated encoding: emoji (astral plane) and CJK before a finding, UTF-16/UTF-8/UTF-32."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsp_helpers import open_doc, server_config, uri, vscode_caps, write_skill
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

LINE = "😀 中文 [m](references/missing.md) and 👩‍💻 [n](references/none.md)"
TEXT = ("---\nname: pos-skill\ndescription: Fills PDF forms. Use when the user asks to fill a PDF form.\n---\n"
        "# Pos 😀\n\n" + LINE + "\n")


def units(s: str, enc: str) -> int:
    if enc == "utf-16":
        return len(s.encode("utf-16-le")) // 2
    if enc == "utf-8":
        return len(s.encode("utf-8"))
    return len(s)


@pytest_lsp.fixture(scope="module", config=server_config(), params=["utf-16", "utf-8", "utf-32"])
async def client(lsp_client: LanguageClient, request, workspace):
    enc = request.param
    root = workspace / enc
    write_skill(root, "pos-skill", text=TEXT)
    caps = vscode_caps(encodings=None if enc == "utf-16" else [enc, "utf-16"])
    result = await lsp_client.initialize_session(T.InitializeParams(
        capabilities=caps, root_uri=uri(root), workspace_folders=[T.WorkspaceFolder(uri=uri(root), name="ws")]))
    assert (result.capabilities.position_encoding or "utf-16") == enc
    lsp_client.encoding = enc
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


async def test_diagnostic_columns_and_incremental_edit(client: LanguageClient):
    enc = client.encoding
    p = client.root / "pos-skill/SKILL.md"
    u = await open_doc(client, p, TEXT)
    res = await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=u)))
    orphans = sorted((d for d in res.items if d.code == "ORPHAN_REFERENCE"), key=lambda d: d.range.start.character)
    assert len(orphans) == 2
    for d, target in zip(orphans, ("references/missing.md", "references/none.md"), strict=True):
        start = LINE.index(target)
        assert d.range.start == T.Position(line=6, character=units(LINE[:start], enc))
        assert d.range.end == T.Position(line=6, character=units(LINE[:start + len(target)], enc))
    # an incremental edit in client units right after the ZWJ emoji sequence: delete "[n](references/none.md)"
    s = LINE.index("[n]")
    e = s + len("[n](references/none.md)")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangePartial(range=T.Range(
            start=T.Position(line=6, character=units(LINE[:s], enc)),
            end=T.Position(line=6, character=units(LINE[:e], enc))), text="ok")]))
    res = await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=u)))
    assert [d.range.start.character for d in res.items if d.code == "ORPHAN_REFERENCE"] == [
        units(LINE[:LINE.index("references/missing.md")], enc)]
    # hover over the CJK text finds the card; over the remaining link finds the rule
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u),
        position=T.Position(line=6, character=units(LINE[:LINE.index("missing")], enc))))
    assert "ORPHAN_REFERENCE" in h.contents.value
