""""Optimise description" through the real server (pytest-lsp over stdio) against the fake Messages API:
the code action on the description line, progress, the winner offered by workspace/applyEdit (accepted,
declined, or discarded at the confirmation question), and a cancel mid-run that offers nothing."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
from fakeapi import FakeAPI, slow  # noqa: E402
from lsp_helpers import apply_text_edits, nvim07_caps, open_doc, server_config, uri, wait_published  # noqa: E402
from opt_script import GOOD, ORIGINAL, SKILL, OptResponder, rows  # noqa: E402

from skillgrade.analyzers.optimize.rewrite import rewrite_description  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

KEY = "sk-ant-test-OPT-SECRET-0123456789"
FAKE = FakeAPI().start()
XDG = tempfile.mkdtemp(prefix="sg-opt-lsp-")
WS = Path(tempfile.mkdtemp(prefix="sg-opt-ws-"))
ENV = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": XDG,
       "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}
CLIENT = {"apply": True, "answer": "Apply", "edits": [], "questions": []}


@pytest.fixture(scope="module", autouse=True)
def _lifetime():
    yield
    FAKE.stop()
    shutil.rmtree(XDG, ignore_errors=True)
    shutil.rmtree(WS, ignore_errors=True)


@pytest_lsp.fixture(scope="module", config=server_config(**ENV))
async def client(lsp_client: LanguageClient):
    d = WS / "pdf-tools"
    d.mkdir()
    (d / "SKILL.md").write_text(SKILL)
    (d / "prompts.json").write_text(json.dumps(rows()))
    FAKE.responder = OptResponder()

    @lsp_client.feature(T.WORKSPACE_APPLY_EDIT)
    def on_apply(ls: LanguageClient, params: T.ApplyWorkspaceEditParams):
        CLIENT["edits"].append(params)
        if not CLIENT["apply"]:
            return T.ApplyWorkspaceEditResult(applied=False, failure_reason="rejected by the user")
        change = params.edit.document_changes[0]
        text = ls.texts[change.text_document.uri]
        new = apply_text_edits(text, change.edits)
        ls.texts[change.text_document.uri] = new
        ls.version += 1
        ls.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=change.text_document.uri, version=ls.version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=new)]))
        return T.ApplyWorkspaceEditResult(applied=True)

    @lsp_client.feature(T.WINDOW_SHOW_MESSAGE_REQUEST)
    def on_question(ls: LanguageClient, params: T.ShowMessageRequestParams):
        CLIENT["questions"].append(params)
        return next((a for a in params.actions or [] if a.title == CLIENT["answer"]), None)

    caps = nvim07_caps()
    caps.workspace.workspace_edit = T.WorkspaceEditClientCapabilities(
        document_changes=True, change_annotation_support=T.ChangeAnnotationsSupportOptions(groups_on_label=True))
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=caps, root_uri=uri(WS), workspace_folders=[T.WorkspaceFolder(uri=uri(WS), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = d / "SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, SKILL)
    lsp_client.texts = {lsp_client.skill_uri: SKILL}
    lsp_client.version = 1
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


def reset(text: str | None = None, *, apply: bool = True, answer: str = "Apply") -> None:
    CLIENT.update(apply=apply, answer=answer, edits=[], questions=[])


async def execute(client, *args, msg_id=None):
    params = T.ExecuteCommandParams(command="skillgrade.optimize", arguments=list(args))
    if msg_id is None:
        return await client.workspace_execute_command_async(params)
    return await client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def actions_at(client, line: int) -> list:
    got = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=client.skill_uri),
        range=T.Range(start=T.Position(line=line, character=3), end=T.Position(line=line, character=3)),
        context=T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.Refactor])))
    return [a for a in got or [] if a.title == "Optimise description"]


async def test_code_action_only_on_the_description_line(client: LanguageClient):
    lines = client.texts[client.skill_uri].splitlines()
    on = await actions_at(client, lines.index(f"description: {ORIGINAL}"))
    assert len(on) == 1 and on[0].kind == "refactor.rewrite.skillgrade.optimize"
    assert on[0].command.command == "skillgrade.optimize" and list(on[0].command.arguments) == [client.skill_uri]
    assert await actions_at(client, lines.index("# PDF tools")) == []


async def test_declined_edit_changes_nothing(client: LanguageClient):
    reset(apply=False)
    u = client.skill_uri
    before = set(client.progress_reports)
    result = await execute(client, u, {"prompts": "prompts.json", "runs": 1})
    assert result["optimizeRun"]["status"] == "ok", result
    assert result["optimize"]["improved"] and result["optimize"]["winner_description"] == GOOD
    assert result["edit"]["offered"] and not result["edit"]["applied"]
    assert result["edit"]["reason"] == "rejected by the user"
    assert len(CLIENT["edits"]) == 1 and client.texts[u] == SKILL and client.version == 1
    sent = CLIENT["edits"][0].edit
    assert sent.change_annotations["skillgrade.optimize"].needs_confirmation is True
    assert apply_text_edits(SKILL, sent.document_changes[0].edits) == rewrite_description(SKILL, GOOD)
    tokens = set(client.progress_reports) - before
    reports = client.progress_reports[tokens.pop()]
    assert any("routing" in (getattr(r, "message", "") or "") for r in reports)
    assert KEY not in json.dumps(result)


async def test_discarded_at_the_question_sends_no_edit(client: LanguageClient):
    reset(answer="Discard")
    result = await execute(client, client.skill_uri, {"prompts": "prompts.json", "runs": 1, "confirm": True})
    assert len(CLIENT["questions"]) == 1 and "Apply it?" in CLIENT["questions"][0].message
    assert CLIENT["edits"] == [] and not result["edit"]["applied"]
    assert result["edit"]["reason"] == "discarded in the client"
    assert client.texts[client.skill_uri] == SKILL


async def test_cancel_mid_run_offers_nothing(client: LanguageClient):
    reset()
    base = OptResponder()
    FAKE.responder = lambda body: slow(3.0, base(body))
    n0 = len(FAKE.message_requests)
    task = asyncio.ensure_future(execute(client, client.skill_uri, {"prompts": "prompts.json", "runs": 2,
                                                                    "seed": 5}, msg_id="opt-cancel-1"))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while len(FAKE.message_requests) == n0:
        assert loop.time() < deadline, "the optimiser never called the fake"
        await asyncio.sleep(0.02)
    client.cancel_request(T.CancelParams(id="opt-cancel-1"))
    t1 = loop.time()
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    assert loop.time() - t1 < 2.5
    await asyncio.sleep(0.2)
    assert CLIENT["edits"] == [] and client.texts[client.skill_uri] == SKILL
    FAKE.responder = OptResponder()


async def test_accepted_edit_is_applied(client: LanguageClient):
    reset()
    u = client.skill_uri
    result = await execute(client, u, {"prompts": "prompts.json", "runs": 1})
    assert result["edit"]["applied"] is True and len(CLIENT["edits"]) == 1
    assert client.texts[u] == rewrite_description(SKILL, GOOD)
    await wait_published(client, u, client.version)
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=8, character=0)))
    assert "Last description optimisation" in h.contents.value and "applied" in h.contents.value
