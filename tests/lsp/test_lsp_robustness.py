"""Bad input never takes the server down: settings, handler errors, binary and huge documents, odd paths."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsp_helpers import (
    SERVER,
    codes,
    make_client,
    nvim07_caps,
    open_doc,
    server_config,
    uri,
    wait_published,
    write_skill,
)
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

CONFIG = ClientServerConfig(server_command=[*SERVER, "--stdio"], client_factory=make_client,
                            server_env=server_config().server_env)


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, workspace):
    root = workspace / "root"
    root.mkdir()
    lsp_client.root = root
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(root), workspace_folders=[T.WorkspaceFolder(uri=uri(root), name="r")],
        initialization_options={"debounceMs": "soon", "severity": {"MISSING_TRIGGER": "loud"}, "select": 7,
                                "docsBaseUrl": "https://ok.test/"}))
    yield
    await lsp_client.shutdown_session()


async def test_bad_settings_show_a_message_and_keep_defaults(client: LanguageClient):
    for _ in range(200):
        if client.messages:
            break
        await asyncio.sleep(0.01)
    text = " ".join(m.message for m in client.messages)
    assert "debounceMs" in text and "MISSING_TRIGGER" in text and "select" in text
    p = write_skill(client.root, "ok-skill", text="---\nname: ok-skill\ndescription: Does PDF things.\n---\n# X\n")
    u = await open_doc(client, p, p.read_text())
    pub = await wait_published(client, u, 1)
    assert pub.diagnostics and all(d.code_description.href.startswith("https://ok.test/") for d in pub.diagnostics)


async def test_handler_exception_is_answered_and_server_stays_up(client: LanguageClient):
    p = write_skill(client.root, "err-skill")
    u = await open_doc(client, p, p.read_text())
    await wait_published(client, u, 1)
    bad = T.Diagnostic(range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=1)),
                       message="x", code="NAME_FORMAT", source="skillgrade", data={"version": 1, "fix": "garbage"})
    with pytest.raises(JsonRpcException):
        await client.text_document_code_action_async(T.CodeActionParams(
            text_document=T.TextDocumentIdentifier(uri=u), range=bad.range, context=T.CodeActionContext(diagnostics=[bad])))
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(T.ExecuteCommandParams(command="skillgrade.nope", arguments=[]))
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=0, character=0)))
    assert h is not None
    # requests about documents that are not open answer empty, not errors
    assert await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u + ".nope"), position=T.Position(line=0, character=0))) is None


async def test_binary_and_huge_documents(client: LanguageClient):
    p = write_skill(client.root, "bin-skill", text="x")
    u = await open_doc(client, p, "---\nname: bin-skill\n---\n\x00\x01\x02\ufffd garbage \x00" * 50)
    pub = await wait_published(client, u, 1)
    assert "BINARY_CONTENT" in codes(pub.diagnostics)
    big = write_skill(client.root, "big-skill", text="x")
    text = "---\nname: big-skill\ndescription: Big. Use when testing size.\n---\n" + ("word 😀 中文 " * 20 + "\n") * 30000
    u2 = await open_doc(client, big, text)
    pub = await wait_published(client, u2, 1, timeout=60)
    assert "FILE_TOO_LARGE" in codes(pub.diagnostics) or "BODY_OVER_BUDGET" in codes(pub.diagnostics)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u2, version=2),
        content_changes=[T.TextDocumentContentChangePartial(range=T.Range(
            start=T.Position(line=20000, character=3), end=T.Position(line=20000, character=5)), text="中")]))
    await wait_published(client, u2, 2, timeout=60)


async def test_paths_outside_the_workspace_are_not_followed(client: LanguageClient, workspace):
    secret = workspace / "secret"
    write_skill(secret, "other")  # outside the workspace folder `root`
    p = write_skill(client.root, "escape-skill", text="---\nname: escape-skill\ndescription: Fills PDF forms. Use when "
                    "the user asks to fill a PDF form.\n---\n# E\n\nSee [o](../../secret/other/SKILL.md) and "
                    "[p](../../../../../../etc/passwd).\n")
    u = await open_doc(client, p, p.read_text())
    pub = await wait_published(client, u, 1)
    assert "LINK_ESCAPES_WORKSPACE" in codes(pub.diagnostics)
    links = await client.text_document_document_link_async(T.DocumentLinkParams(
        text_document=T.TextDocumentIdentifier(uri=u)))
    assert links == [] or all("secret" not in lk.target and "passwd" not in lk.target for lk in links)
    # a SKILL.md outside every workspace folder is analysed within its own directory only
    out = write_skill(workspace, "outside-skill", refs={"references/forms.md": "# Forms\n"})
    u3 = await open_doc(client, out, out.read_text())
    pub = await wait_published(client, u3, 1)
    assert codes(pub.diagnostics) == []


async def test_module_entry_point_help():
    import subprocess

    out = subprocess.run([sys.executable, "-m", "skillgrade.server", "--help"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0 and "--tcp" in out.stdout
