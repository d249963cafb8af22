"""executeCommand: score/report, the honest judge/certify failure, progress, and both cancel routes."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published, write_skill
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config(SKILLGRADE_LSP_STEP_DELAY_MS="150", ANTHROPIC_API_KEY="",
                                                        ANTHROPIC_AUTH_TOKEN=""))
async def client(lsp_client: LanguageClient, workspace):
    write_skill(workspace, "cmd-skill", refs={"references/forms.md": "# Forms\n"})
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = workspace / "cmd-skill/SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, p.read_text())
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


async def execute(client, command, *args, msg_id=None):
    params = T.ExecuteCommandParams(command=command, arguments=list(args))
    if msg_id is None:
        return await client.workspace_execute_command_async(params)
    return await client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def test_score_and_report(client: LanguageClient):
    u = client.skill_uri
    score = await execute(client, "skillgrade.score", u)
    assert score["composite"]["confidence"] == "Estimated"
    assert set(score["composite"]["dimensions"]) >= {"triggering_accuracy", "ecosystem_coherence"}
    assert score["layers"][0]["name"] == "static" and score["version"] == 1
    report = await execute(client, "skillgrade.report", u)
    assert report["runs"] == [] and report["composite"]["score"] == score["composite"]["score"]
    with pytest.raises(JsonRpcException):
        await execute(client, "skillgrade.score", "file:///nowhere/SKILL.md")


async def test_judge_without_a_key_says_so_with_progress(client: LanguageClient):
    u = client.skill_uri
    before = set(client.progress_reports)
    result = await execute(client, "skillgrade.judge", u)
    msg = result["judgeRun"]["message"]
    assert result["judgeRun"]["status"] == "no_key" and msg.startswith("No API key"), msg
    assert result["composite"]["confidence"] == "Estimated"  # the static result stands
    tokens = set(client.progress_reports) - before
    assert len(tokens) == 1
    reports = client.progress_reports[tokens.pop()]
    assert isinstance(reports[0], T.WorkDoneProgressBegin) and reports[0].cancellable
    assert isinstance(reports[-1], T.WorkDoneProgressEnd)
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=5, character=0)))
    assert "Last judge" in h.contents.value and "no_key" in h.contents.value
    report = await execute(client, "skillgrade.report", u)
    assert report["runs"][-1]["command"] == "judge" and report["runs"][-1]["status"] == "no_key"
    assert report["runs"][-1]["costUsd"] == 0.0


async def test_cancel_request_stops_certify(client: LanguageClient):
    u = client.skill_uri
    before = set(client.progress_reports)
    task = asyncio.ensure_future(execute(client, "skillgrade.certify", u, msg_id="certify-1"))
    for _ in range(300):  # wait for the first report
        new = set(client.progress_reports) - before
        if new and len(client.progress_reports[next(iter(new))]) >= 2:
            break
        await asyncio.sleep(0.01)
    client.cancel_request(T.CancelParams(id="certify-1"))
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    await asyncio.sleep(0.6)  # longer than the remaining steps would take
    token = next(iter(set(client.progress_reports) - before))
    reports = client.progress_reports[token]
    assert isinstance(reports[-1], T.WorkDoneProgressEnd) and reports[-1].message == "cancelled"
    assert not any(getattr(r, "message", "") == "LLM layers" for r in reports)  # stopped before that step
    report = await execute(client, "skillgrade.report", u)
    assert report["runs"][-1]["command"] == "certify" and report["runs"][-1]["status"] == "cancelled"


async def test_progress_cancel_stops_certify(client: LanguageClient):
    u = client.skill_uri
    before = set(client.progress_reports)
    task = asyncio.ensure_future(execute(client, "skillgrade.certify", u))
    for _ in range(300):
        new = set(client.progress_reports) - before
        if new:
            break
        await asyncio.sleep(0.01)
    token = next(iter(set(client.progress_reports) - before))
    client.window_work_done_progress_cancel(T.WorkDoneProgressCancelParams(token=token))
    with pytest.raises(JsonRpcException) as err:
        await task
    assert err.value.code == -32800
    assert client.progress_reports[token][-1].message == "cancelled"


async def test_loop_stays_responsive_during_certify(client: LanguageClient):
    u = client.skill_uri
    task = asyncio.ensure_future(execute(client, "skillgrade.certify", u))
    await asyncio.sleep(0.05)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=5, character=0)))
    assert loop.time() - t0 < 0.25
    with pytest.raises(JsonRpcException):
        await task
