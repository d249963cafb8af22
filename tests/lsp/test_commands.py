"""executeCommand without an API key: score/report, and judge/certify/estimate saying why they cannot run
(certify with a key, progress and both cancel routes: tests/lsp/test_certify_lsp.py)."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published, write_skill
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config(ANTHROPIC_API_KEY="",
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


async def test_certify_without_a_key_says_so(client: LanguageClient):
    u = client.skill_uri
    before = set(client.progress_reports)
    result = await execute(client, "skillgrade.certify", u)
    msg = result["certifyRun"]["message"]
    assert result["certifyRun"]["status"] == "no_key" and msg.startswith("No API key"), msg
    assert result["composite"]["confidence"] == "Estimated" and result["composite"]["elo"] is None
    tokens = set(client.progress_reports) - before
    assert len(tokens) == 1 and isinstance(client.progress_reports[tokens.pop()][-1], T.WorkDoneProgressEnd)
    estimate = await execute(client, "skillgrade.estimate", u, "certify")
    assert estimate["status"] == "no_key" and estimate["message"] == msg
    report = await execute(client, "skillgrade.report", u)
    assert report["runs"][-1]["command"] == "certify" and report["runs"][-1]["status"] == "no_key"
    assert report["runs"][-1]["costUsd"] == 0.0
