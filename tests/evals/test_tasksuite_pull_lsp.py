"""Task-suite diagnostics for a pull client (VS Code capabilities): textDocument/diagnostic on an open suite."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsp_helpers import open_doc, server_config, uri, vscode_caps  # noqa: I001
from lspkit import BAD_AT, BAD_SUITE
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    ws = tmp_path_factory.mktemp("ws")
    lsp_client.ws = ws
    lsp_client.set_configuration({"debounceMs": 0}, section="skillgrade")
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=vscode_caps(), root_uri=uri(ws), workspace_folders=[T.WorkspaceFolder(uri=uri(ws), name="ws")],
        client_info=T.ClientInfo(name="Visual Studio Code", version="1.139.1"),
        initialization_options={"skillgrade": {"debounceMs": 0}}))
    yield
    await lsp_client.shutdown_session()


async def test_pull_diagnostics_of_a_task_suite(client: LanguageClient) -> None:
    p = client.ws / "task_suite.yaml"
    p.write_text(BAD_SUITE)
    u = await open_doc(client, p, BAD_SUITE, language_id="yaml")
    report = await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=u)))
    assert report.kind == "full"
    assert [(d.range.start.line, d.range.start.character) for d in report.items] == BAD_AT
    assert {d.code for d in report.items} == {"TASK_SUITE"}
    assert client.publishes == []  # a pull client is never pushed to
