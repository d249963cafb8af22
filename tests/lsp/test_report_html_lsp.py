"""skillgrade.reportHtml through the real server (pytest-lsp): the HTML report of one SKILL.md (its open buffer as
typed; after a judge run against the fake Messages API, with the judge's markers and the run's ledger) and of
the workspace's skills (open buffers and files on disk)."""

from __future__ import annotations

import html
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import nvim07_caps, open_doc, server_config, uri, wait_published, write_skill
from lsprotocol import types as T
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
from fakeapi import FakeAPI, json_reply, text_reply, tool_use  # noqa: E402
from judge_script import make_skill, prompts_value, verdict  # noqa: E402

from skillgrade.analyzers.layers.judge import TITLES  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

KEY = "sk-ant-test-HTML-LSP-0123456789"
FAKE = FakeAPI().start()
XDG = tempfile.mkdtemp(prefix="sg-html-lsp-")
ENV = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": XDG,
       "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}
HOSTILE = "<script>alert(1)</script>"


def responder():
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
    write_skill(workspace, "other-skill")
    FAKE.responder = responder()
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = workspace / "pdf-tools/SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, p.read_text())
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


async def execute(client, command, *args):
    return await client.workspace_execute_command_async(T.ExecuteCommandParams(command=command, arguments=list(args)))


def names(page: str) -> list[str]:
    return [html.unescape(n) for n in re.findall(r'<a href="#skill-\d+"[^>]*>([^<]*)</a>', page)]


async def test_report_html_of_one_skill_then_after_the_judge(client: LanguageClient):
    u = client.skill_uri
    got = await execute(client, "skillgrade.reportHtml", u)
    assert got["skills"] == 1 and got["errors"] == []
    page = got["html"]
    assert page.startswith("<!DOCTYPE html>") and names(page) == ["pdf-tools"]
    assert "Estimated" in page and "Ledger" not in page and 'class="m-judge"' not in page
    assert "<title>skillgrade report: pdf-tools</title>" in page
    result = await execute(client, "skillgrade.judge", u)
    assert result["judgeRun"]["status"] == "ok"
    page = (await execute(client, "skillgrade.reportHtml", {"uri": u}))["html"]
    assert "Assessed" in page and 'class="m-judge"' in page and "Ledger (LLM layers)" in page
    assert f">{result['ledger']['calls']}<" in page and KEY not in page


async def test_report_html_of_the_workspace_uses_open_buffers(client: LanguageClient, workspace):
    u = client.skill_uri
    text = (workspace / "pdf-tools/SKILL.md").read_text().replace("name: pdf-tools", f"name: '{HOSTILE}'")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
    await wait_published(client, u, 2)
    got = await execute(client, "skillgrade.reportHtml", "workspace")
    assert got["skills"] == 2 and got["errors"] == []
    assert sorted(names(got["html"])) == sorted([HOSTILE, "other-skill"])  # the buffer as typed, escaped
    assert HOSTILE not in got["html"] and "skillgrade report: workspace" in got["html"]
    assert (await execute(client, "skillgrade.reportHtml"))["skills"] == 2  # no argument: the workspace
