"""skillgrade.judge through the real server (pytest-lsp) against the fake Messages API (tests/llm/fakeapi.py)
on 127.0.0.1, driven by the real anthropic SDK in the server process: hover shows the judge's grades and
"Assessed", progress per call, a judge diagnostic at an evidence quote, "from an earlier version" after an
edit, a judge result in the cache shown on open with no call, and a cancel mid-run that keeps the server
answering."""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published
from lsprotocol import types as T
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
from fakeapi import FakeAPI, json_reply, slow, text_reply, tool_use  # noqa: E402
from judge_script import SKILL, make_skill, prompts_value, verdict  # noqa: E402

from skillgrade.analyzers.layers.judge import TITLES  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

KEY = "sk-ant-test-LSP-SECRET-0123456789"
FAKE = FakeAPI().start()
XDG = tempfile.mkdtemp(prefix="sg-judge-lsp-")
ENV = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": XDG,
       "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}


def responder():
    """Router calls pick pdf-tools for PDF prompts; the prompt writer and every rubric answer validly."""

    def answer(body):
        if body.get("tools"):
            prompt = body["messages"][0]["content"]
            return tool_use("Skill", {"skill": "pdf-tools"}) if "pdf" in prompt else text_reply("Sure.")
        user = body["messages"][0]["content"]
        user = user if isinstance(user, str) else str(user)
        dim = next((d for d, t in TITLES.items() if f"**{t}**" in user), None)
        if dim is None:
            return json_reply(prompts_value())
        if dim == "output_quality":
            return json_reply(verdict(0.7, tasks=[{"task": f"t{i}", "outcome": "ok"} for i in range(3)]))
        return json_reply(verdict(0.85))

    return answer


@pytest.fixture(scope="module", autouse=True)
def _fake_lifetime():
    yield
    FAKE.stop()
    shutil.rmtree(XDG, ignore_errors=True)


@pytest_lsp.fixture(scope="module", config=server_config(**ENV))
async def client(lsp_client: LanguageClient, workspace):
    make_skill(workspace)
    FAKE.responder = responder()
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = workspace / "pdf-tools/SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, p.read_text())
    lsp_client.skill_path = p
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


async def execute(client, command, *args, msg_id=None):
    params = T.ExecuteCommandParams(command=command, arguments=list(args))
    if msg_id is None:
        return await client.workspace_execute_command_async(params)
    return await client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def hover(client, line: int = 5) -> str:
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=client.skill_uri), position=T.Position(line=line, character=0)))
    return h.contents.value


async def test_judge_runs_and_hover_shows_the_judge(client: LanguageClient):
    u = client.skill_uri
    assert "Estimated" in await hover(client)
    before = set(client.progress_reports)
    n0 = len(FAKE.message_requests)
    result = await execute(client, "skillgrade.judge", u)
    assert len(FAKE.message_requests) - n0 == 21
    assert result["judgeRun"]["status"] == "ok"
    assert result["composite"]["confidence"] == "Assessed"
    assert result["layers"][1]["name"] == "judge" and result["ledger"]["calls"] == 21
    tokens = set(client.progress_reports) - before
    assert len(tokens) == 1
    reports = client.progress_reports[tokens.pop()]
    assert isinstance(reports[0], T.WorkDoneProgressBegin) and reports[0].cancellable
    msgs = [r.message for r in reports if isinstance(r, T.WorkDoneProgressReport)]
    assert any("routed a test prompt" in (m or "") for m in msgs)
    assert any("judged robustness" in (m or "") for m in msgs)
    assert isinstance(reports[-1], T.WorkDoneProgressEnd)
    md = await hover(client)
    assert "Assessed" in md and "| Static | Judge | Blend |" in md
    assert "| Robustness | 0.05 | — | 85 B |" in md
    assert "Last judge" in md and "ok" in md
    pub = await wait_published(client, u, 1, pred=lambda p: any(d.source == "skillgrade judge" for d in p.diagnostics))
    judged = [d for d in pub.diagnostics if d.source == "skillgrade judge"]
    assert judged and all(d.severity == T.DiagnosticSeverity.Information for d in judged)
    line = SKILL.splitlines().index("Return the extracted text as Markdown.")
    assert any(d.range.start.line == line and d.range.start.character == 0 and d.range.end.character == 38
               for d in judged)
    lens = await client.text_document_code_lens_async(T.CodeLensParams(text_document=T.TextDocumentIdentifier(uri=u)))
    assert "Assessed" in lens[0].command.title
    score = await execute(client, "skillgrade.score", u)
    assert score["composite"]["confidence"] == "Assessed" and score["judge"]["current"] is True
    assert KEY not in md and KEY not in str(result)


async def test_after_an_edit_the_judge_is_from_an_earlier_version(client: LanguageClient):
    u = client.skill_uri
    text = SKILL.replace("# PDF tools", "# PDF tools, edited")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
    await wait_published(client, u, 2)
    md = await hover(client)
    assert "from an earlier version, v1" in md and "Estimated" in md
    pub = client.published[u]
    assert not any(d.source == "skillgrade judge" for d in pub.diagnostics)
    lens = await client.text_document_code_lens_async(T.CodeLensParams(text_document=T.TextDocumentIdentifier(uri=u)))
    assert "judge from v1" in lens[0].command.title


async def test_cancel_mid_run_keeps_the_server_answering(client: LanguageClient):
    u = client.skill_uri  # version 2: new content, so every call goes to the fake
    base = responder()
    FAKE.responder = lambda body: slow(3.0, base(body))
    n0 = len(FAKE.message_requests)
    task = asyncio.ensure_future(execute(client, "skillgrade.judge", u, msg_id="judge-cancel-1"))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while len(FAKE.message_requests) == n0:
        assert loop.time() < deadline, "the judge never called the fake"
        await asyncio.sleep(0.02)
    t0 = loop.time()
    md = await hover(client)  # the server answers while the judge waits for the model
    assert loop.time() - t0 < 1.0 and "skillgrade" in md
    client.cancel_request(T.CancelParams(id="judge-cancel-1"))
    t1 = loop.time()
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    assert loop.time() - t1 < 2.5  # the slow reply (3 s) was not waited for
    for _ in range(100):  # the server records the run as it unwinds
        report = await execute(client, "skillgrade.report", u)
        if report["runs"][-1]["status"] == "cancelled":
            break
        await asyncio.sleep(0.05)
    assert report["runs"][-1]["command"] == "judge" and report["runs"][-1]["status"] == "cancelled"
    assert report["runs"][-1]["version"] == 2
    FAKE.responder = responder()


async def test_a_cached_judge_result_is_shown_on_open_without_a_call(client: LanguageClient, workspace: Path):
    # a second copy of the judged (version 1) text under another folder name would change the cache key
    # (the skill's path is not part of it, but its name and bundled files are): reopen the same file instead
    u = client.skill_uri
    client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=u)))
    await asyncio.sleep(0.1)
    n0 = len(FAKE.requests)
    await open_doc(client, u, SKILL, version=7)
    await wait_published(client, u, 7)
    md = await hover(client)
    assert len(FAKE.requests) == n0
    assert "Assessed" in md and "cached (no call made)" in md


async def test_estimate_before_a_run_makes_no_call(client: LanguageClient):
    """skillgrade.estimate: the editor's confirmation line; the judge run above made its rubric replies free."""
    n0 = len(FAKE.requests)
    judge = await execute(client, "skillgrade.estimate", client.skill_uri, "judge")
    certify = await execute(client, "skillgrade.estimate", client.skill_uri, "certify")
    assert len(FAKE.requests) == n0  # an estimate never calls
    assert judge["status"] == "ok" and certify["status"] == "ok"
    assert judge["message"].startswith("Judge pdf-tools: up to ")
    assert certify["message"].startswith("Certify pdf-tools: up to ")
    assert judge["plan"]["cached_calls"] >= 10  # the rubric calls of the run above are cached
    assert certify["plan"]["calls"] > judge["plan"]["calls"]  # + Monte Carlo simulations
    assert certify["plan"]["cost_usd"] > 0 and "$" in certify["message"]
    assert KEY not in str(certify)
