"""Eval-file diagnostics for a pull client (VS Code capabilities): the real server over stdio answers
textDocument/diagnostic for an open eval file (full, then unchanged), and never claims other JSON."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from comp_script import EVALS, SKILL_DIR
from lsprotocol import types as T
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_helpers import open_doc, server_config, uri, vscode_caps  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("comp-pull")
    shutil.copytree(SKILL_DIR, ws / "type-safety")
    data = json.loads(EVALS.read_text())
    data["evals"][0]["comprehension_dimension"] = "C10"
    data["evals"][2]["expected_behaviors"][1]["kind"] = "neutral"
    (ws / "type-safety" / "evals.json").write_text(json.dumps(data, indent=2))
    return ws


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    lsp_client.set_configuration({"debounceMs": 0}, section="skillgrade")
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=vscode_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"skillgrade": {"debounceMs": 0}}))
    yield
    await lsp_client.shutdown_session()


async def pull(client, u, previous=None):
    return await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=u), previous_result_id=previous))


async def test_pull_eval_file(client: LanguageClient, workspace: Path):
    p = workspace / "type-safety" / "evals.json"
    text = p.read_text()
    u = await open_doc(client, p, text, language_id="json")
    first = await pull(client, u)
    assert first.kind == "full"
    got = sorted((d.code, d.severity, text.splitlines()[d.range.start.line].strip()) for d in first.items)
    assert got == [("EVAL_UNKNOWN_VALUE", T.DiagnosticSeverity.Error, '"comprehension_dimension": "C10",'),
                   ("EVAL_UNKNOWN_VALUE", T.DiagnosticSeverity.Error, '"kind": "neutral",')]
    again = await pull(client, u, first.result_id)
    assert again.kind == "unchanged"
    assert u not in client.published  # a pull client is never pushed to


async def test_pull_other_json_is_empty(client: LanguageClient, workspace: Path):
    p = workspace / "tsconfig.json"
    p.write_text('{"compilerOptions": {"strict": true}}')
    u = await open_doc(client, p, p.read_text(), language_id="json")
    got = await pull(client, u)
    assert got.kind == "full" and list(got.items) == []
