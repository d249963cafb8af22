"""Comprehension in the editor, Neovim 0.7 capabilities (push diagnostics): the real server over stdio
(pytest-lsp), the real anthropic SDK in the server process pointed at the fake Messages API. An eval file's
findings are pushed (R4 included), a SKILL.md with an eval file offers "Run comprehension evals", the command
runs with progress per case and the hover shows the verdict per dimension; a cancel mid-run is clean."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from comp_script import COPIED, EVALS, SKILL_DIR, CompResponder, load_prompts, verdict
from fakeapi import FakeAPI, slow
from lsprotocol import types as T
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

KEY = "sk-ant-test-COMP-LSP-SECRET-0123456789"
FAKE = FakeAPI().start()
XDG = tempfile.mkdtemp(prefix="sg-comp-lsp-")
ENV = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": XDG,
       "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}
FAR_PROMPT = "Where do you parse every I/O boundary with a schema validator, and why?"


def responder() -> CompResponder:
    r = CompResponder(lambda cid, a, ans, bs: verdict(cid, ans, bs), answers={1: COPIED})
    load_prompts(r)
    r.prompts[FAR_PROMPT] = 2
    return r


@pytest.fixture(scope="module", autouse=True)
def _fake_lifetime():
    yield
    FAKE.stop()
    shutil.rmtree(XDG, ignore_errors=True)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("comp-ws")
    shutil.copytree(SKILL_DIR, ws / "skills" / "type-safety")
    (ws / "_evals").mkdir()
    data = json.loads(EVALS.read_text())
    data["evals"][1]["prompt"] = FAR_PROMPT  # case 2 is tagged far: R4 must warn
    (ws / "_evals" / "type-safety.json").write_text(json.dumps(data, indent=2))
    return ws


@pytest_lsp.fixture(scope="module", config=server_config(**ENV))
async def client(lsp_client: LanguageClient, workspace):
    FAKE.responder = responder()
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = workspace / "skills/type-safety/SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, p.read_text())
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


async def hover(client) -> str:
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=client.skill_uri), position=T.Position(line=0, character=0)))
    return h.contents.value


async def execute(client, *args, msg_id=None):
    params = T.ExecuteCommandParams(command="skillgrade.comprehension", arguments=list(args))
    if msg_id is None:
        return await client.workspace_execute_command_async(params)
    return await client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def test_eval_file_diagnostics_are_pushed(client: LanguageClient, workspace: Path):
    p = workspace / "_evals" / "type-safety.json"
    text = p.read_text()
    u = await open_doc(client, p, text, language_id="json")
    pub = await wait_published(client, u, 1)
    assert [d.code for d in pub.diagnostics] == ["EVAL_FAR_TRANSFER_OVERLAP"]
    d = pub.diagnostics[0]
    lines = text.splitlines()
    assert lines[d.range.start.line].strip() == '"transfer": "far",' and d.severity == T.DiagnosticSeverity.Warning
    assert "“parse every boundary schema”" in d.message
    # an edit that breaks the JSON: the syntax error at its position
    broken = text.replace('"id": 3,', '"id": 3,,', 1)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=broken)]))
    pub = await wait_published(client, u, 2)
    line = next(i for i, x in enumerate(broken.splitlines()) if '"id": 3,,' in x)
    assert [(x.code, x.range.start.line) for x in pub.diagnostics] == [("EVAL_JSON", line)]


async def test_other_json_is_not_claimed(client: LanguageClient, workspace: Path):
    p = workspace / "package.json"
    p.write_text('{"name": "x", "version": "1.0.0", "evals_note": "not an eval file"}')
    u = await open_doc(client, p, p.read_text(), language_id="json")
    await asyncio.sleep(0.5)
    assert not (client.published.get(u) and client.published[u].diagnostics)


async def test_action_run_and_hover(client: LanguageClient):
    u = client.skill_uri
    md = await hover(client)
    assert "**Comprehension**: not run yet — eval file `type-safety.json`" in md
    acts = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u), range=T.Range(start=T.Position(line=0, character=0),
                                                                     end=T.Position(line=0, character=0)),
        context=T.CodeActionContext(diagnostics=[], only=["source.skillgrade.comprehension"])))
    assert [(a.title, a.command.command, list(a.command.arguments)) for a in acts] == [
        ("Run comprehension evals", "skillgrade.comprehension", [u])]
    before = set(client.progress_reports)
    result = await execute(client, u)
    assert result["comprehensionRun"]["status"] == "ok"
    comp = result["comprehension"]
    assert comp["verdict"] == {"verdict": "PARTIAL", "dimensions_passed": 8, "dimensions": 9,
                               "exceptions": {"C1": "FAIL"}}
    assert comp["ledger"]["calls"] == 20 and len(FAKE.message_requests) == 20
    tokens = set(client.progress_reports) - before
    assert len(tokens) == 1
    msgs = [r.message for r in client.progress_reports[tokens.pop()] if isinstance(r, T.WorkDoneProgressReport)]
    assert any("(10/10 cases)" in (m or "") for m in msgs)
    md = await hover(client)
    assert "**Comprehension PARTIAL** (8/9 dimensions pass)" in md
    assert "| C1 | Definitional precision | FAIL | 0/1 |" in md and "| C7 | Misconception inoculation | PASS | 2/2 |" in md
    assert KEY not in md and KEY not in json.dumps(result)


async def test_cancel_mid_run(client: LanguageClient):
    u = client.skill_uri
    base = responder()
    FAKE.responder = lambda body: slow(3.0, base(body))
    n0 = len(FAKE.message_requests)
    task = asyncio.ensure_future(execute(client, u, {"baseline": True}, msg_id="comp-cancel-1"))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while len(FAKE.message_requests) == n0:  # the baseline agent calls are not cached: they reach the fake
        assert loop.time() < deadline, "the run never called the fake"
        await asyncio.sleep(0.02)
    client.cancel_request(T.CancelParams(id="comp-cancel-1"))
    t1 = loop.time()
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    assert loop.time() - t1 < 2.5
    for _ in range(100):
        report = await client.workspace_execute_command_async(T.ExecuteCommandParams(
            command="skillgrade.report", arguments=[u]))
        if report["runs"][-1]["status"] == "cancelled":
            break
        await asyncio.sleep(0.05)
    assert report["runs"][-1]["command"] == "comprehension" and report["runs"][-1]["status"] == "cancelled"
    md = await hover(client)
    assert "**Comprehension PARTIAL**" in md  # the last finished run is still shown
    FAKE.responder = responder()
