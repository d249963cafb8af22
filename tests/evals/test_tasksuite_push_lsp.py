"""Task suites in the real server over stdio (Neovim 0.7 capabilities: pushed diagnostics): validation errors as
diagnostics, "Run task suite" on the SKILL.md against the fake Messages API, the result in hover, and an
invalid suite refused with nothing run."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from evalkit import SKILL_MD, TEST_KEY, answering, is_candidate  # noqa: E402
from fakeapi import FakeAPI  # noqa: E402
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published  # noqa: I001
from lspkit import BAD_AT, BAD_SUITE, GOOD_SUITE
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAKE = FakeAPI().start()
TMP = tempfile.mkdtemp(prefix="sg-suite-lsp-")
ENV = {"ANTHROPIC_API_KEY": TEST_KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": TMP + "/cache",
       "XDG_STATE_HOME": TMP + "/state", "ANTHROPIC_AUTH_TOKEN": "",
       "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}


@pytest.fixture(scope="module", autouse=True)
def _fake_lifetime():
    yield
    FAKE.stop()
    shutil.rmtree(TMP, ignore_errors=True)


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    (root / "csv-helper").mkdir()
    (root / "csv-helper" / "SKILL.md").write_text(SKILL_MD)
    (root / "csv-helper" / "task_suite.yaml").write_text(GOOD_SUITE)
    return root


@pytest_lsp.fixture(scope="module", config=server_config(**ENV))
async def client(lsp_client: LanguageClient, ws):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(ws), workspace_folders=[T.WorkspaceFolder(uri=uri(ws), name="ws")],
        initialization_options={"debounceMs": 0}))
    yield
    await lsp_client.shutdown_session()


async def test_suite_errors_are_pushed_as_diagnostics(client: LanguageClient, ws: Path) -> None:
    p = ws / "csv-helper" / "evals" / "broken.yaml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(BAD_SUITE)
    u = await open_doc(client, p, BAD_SUITE, language_id="yaml")
    pub = await wait_published(client, u, 1, pred=lambda params: len(params.diagnostics) > 0)
    got = [(d.range.start.line, d.range.start.character) for d in pub.diagnostics]
    assert got == BAD_AT
    assert {d.code for d in pub.diagnostics} == {"TASK_SUITE"}
    assert all(d.severity == T.DiagnosticSeverity.Error for d in pub.diagnostics)
    assert "unknown judge type 'regex'" in pub.diagnostics[2].message
    assert "must not contain `..`" in pub.diagnostics[3].message or "must start with fixtures/" in \
        pub.diagnostics[3].message
    # fixed in the editor: the diagnostics clear
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=GOOD_SUITE)]))
    pub = await wait_published(client, u, 2)
    assert list(pub.diagnostics) == []
    # a YAML file that is not a suite gets nothing
    other = ws / "other.yaml"
    other.write_text("name: x\nsteps: [1]\n")
    ou = await open_doc(client, other, other.read_text(), language_id="yaml")
    await asyncio.sleep(0.5)
    assert not (client.published.get(ou) and client.published[ou].diagnostics)


async def test_run_task_suite_action_runs_against_the_fake_and_shows_in_hover(client: LanguageClient,
                                                                               ws: Path) -> None:
    skill = ws / "csv-helper" / "SKILL.md"
    su = await open_doc(client, skill, SKILL_MD)
    await wait_published(client, su, 1)
    acts = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=su),
        range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0)),
        context=T.CodeActionContext(diagnostics=[], only=["source.skillgrade.evaluate"])))
    titles = sorted(a.title for a in acts)
    assert titles == ["Run task suite (evals/broken.yaml)", "Run task suite (task_suite.yaml)"]
    act = next(a for a in acts if a.title.endswith("(task_suite.yaml)"))
    assert act.kind == "source.skillgrade.evaluate" and act.command.command == "skillgrade.runTaskSuite"
    FAKE.responder = answering(candidate={1, 2}, baseline={1})
    before = len(FAKE.message_requests)
    result = await client.workspace_execute_command_async(T.ExecuteCommandParams(
        command=act.command.command, arguments=act.command.arguments))
    assert result["evaluateRun"]["status"] == "ok", result["evaluateRun"]
    art = result["evaluation"]
    assert (art["verdict"], art["execution_pass_rate"], art["baseline_pass_rate"], art["delta"]) == (
        "pass", 1.0, 0.5, 0.5)
    assert Path(art["truth_anchor"]).is_file() and art["truth_anchor"].startswith(TMP + "/state/")
    new = FAKE.message_requests[before:]
    assert len(new) == 4 and sum(1 for r in new if is_candidate(r.body)) == 2
    assert "pass: candidate 100%, baseline 50%, delta +50 pts" in result["evaluateRun"]["message"]
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=su), position=T.Position(line=6, character=2)))
    assert "**Task suite** `task_suite.yaml`: pass: candidate 100%, baseline 50%, delta +50 pts" in h.contents.value


async def test_an_invalid_suite_is_refused_without_a_call(client: LanguageClient, ws: Path) -> None:
    su = uri(ws / "csv-helper" / "SKILL.md")
    before = len(FAKE.requests)
    result = await client.workspace_execute_command_async(T.ExecuteCommandParams(
        command="skillgrade.runTaskSuite", arguments=[su, str(ws / "csv-helper" / "evals" / "broken.yaml")]))
    assert result["evaluateRun"]["status"] == "invalid"
    assert [(e["line"], e["column"]) for e in result["errors"]] == [(ln + 1, c + 1) for ln, c in BAD_AT]
    assert len(FAKE.requests) == before


async def test_cancel_mid_run_keeps_the_server_answering(client: LanguageClient, ws: Path) -> None:
    from fakeapi import slow, text_reply
    from pygls.exceptions import JsonRpcRequestCancelled

    su = uri(ws / "csv-helper" / "SKILL.md")
    suite = ws / "csv-helper" / "evals" / "slow.yaml"
    suite.write_text(GOOD_SUITE.replace("question", "slow question"))
    FAKE.responder = lambda body: slow(3.0, text_reply("kw-1 kw-2"))
    n0 = len(FAKE.message_requests)
    params = T.ExecuteCommandParams(command="skillgrade.runTaskSuite", arguments=[su, str(suite)])
    task = asyncio.ensure_future(client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params,
                                                                    msg_id="suite-cancel-1"))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while len(FAKE.message_requests) == n0:
        assert loop.time() < deadline, "the run never called the fake"
        await asyncio.sleep(0.02)
    t0 = loop.time()
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=su), position=T.Position(line=6, character=2)))
    assert loop.time() - t0 < 1.5 and "Task suite" in h.contents.value
    client.cancel_request(T.CancelParams(id="suite-cancel-1"))
    t1 = loop.time()
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    assert loop.time() - t1 < 2.5  # the slow replies were not waited for
    for _ in range(100):
        report = await client.workspace_execute_command_async(T.ExecuteCommandParams(
            command="skillgrade.report", arguments=[su]))
        if report["runs"] and report["runs"][-1]["status"] == "cancelled":
            break
        await asyncio.sleep(0.05)
    assert report["runs"][-1]["command"] == "evaluate" and report["runs"][-1]["status"] == "cancelled"
