"""skillgrade.certify through the real server (pytest-lsp) against the fake Messages API: judge, Monte Carlo
and Elo (a reference index built with analyzers.corpus_index in the server's XDG_DATA_HOME) run in the
background with progress per phase; afterwards hover shows the Monte Carlo column, the Elo line and
"Certified"; a cancel mid-run keeps the server answering and a re-run resumes from the cache."""

from __future__ import annotations

import asyncio
import json
import re
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
from fakeapi import FakeAPI, json_reply, slow  # noqa: E402
from judge_script import verdict  # noqa: E402
from mc_script import SKILL, MCResponder  # noqa: E402

from skillgrade.analyzers.corpus_index import build_index, index_path, save_index  # noqa: E402
from skillgrade.analyzers.layers.judge import TITLES  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

KEY = "sk-ant-test-CERTIFY-LSP-0123456789"
FAKE = FakeAPI().start()
XDG = tempfile.mkdtemp(prefix="sg-certify-lsp-")
ENV = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": FAKE.url, "XDG_CACHE_HOME": f"{XDG}/cache",
       "XDG_DATA_HOME": f"{XDG}/data", "ANTHROPIC_AUTH_TOKEN": "",
       "ANTHROPIC_CONFIG_DIR": "/nonexistent-anthropic-config"}


def _text(body: dict) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else json.dumps(content)


class Responder:
    """The judge's rubric calls (0.85), every Monte Carlo call (mc_script), and Elo pairs the skill wins."""

    def __init__(self, delay: float = 0.0) -> None:
        self.mc = MCResponder()
        self.delay = delay

    def __call__(self, body: dict):
        reply = self._answer(body)
        return slow(self.delay, reply) if self.delay else reply

    def _answer(self, body: dict):
        user = _text(body)
        if "**Skill A** is the skill in the system block" in user or "**Skill B** is the skill in the system" \
                in user:
            slot = "A" if "**Skill A** is the skill in the system block" in user else "B"
            return json_reply({"reason": "Clearer steps.", "winner": slot})
        dim = next((d for d, t in TITLES.items() if f"**{t}**" in user), None) if not body.get("tools") else None
        if dim is not None and len(body["messages"]) == 1:
            if dim == "output_quality":
                return json_reply(verdict(0.8, tasks=[{"task": f"t{i}", "outcome": "ok"} for i in range(3)]))
            return json_reply(verdict(0.85))
        return self.mc(body)


@pytest.fixture(scope="module", autouse=True)
def _fake_lifetime():
    yield
    FAKE.stop()
    shutil.rmtree(XDG, ignore_errors=True)


@pytest_lsp.fixture(scope="module", config=server_config(**ENV))
async def client(lsp_client: LanguageClient, workspace, corpus):
    from skillgrade.analyzers.corpus_index import default_data_dir

    index, _stats = build_index(corpus / "anthropics-skills")  # the reference skills Elo compares against
    save_index(index, index_path(default_data_dir({"XDG_DATA_HOME": ENV["XDG_DATA_HOME"]})))
    d = workspace / "pdf-tools"
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(SKILL)
    FAKE.responder = Responder()
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0}))
    p = d / "SKILL.md"
    lsp_client.skill_uri = await open_doc(lsp_client, p, p.read_text())
    await wait_published(lsp_client, lsp_client.skill_uri, 1)
    yield
    await lsp_client.shutdown_session()


async def execute(client, command, *args, msg_id=None):
    params = T.ExecuteCommandParams(command=command, arguments=list(args))
    if msg_id is None:
        return await client.workspace_execute_command_async(params)
    return await client.protocol.send_request_async(T.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def hover(client) -> str:
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=client.skill_uri), position=T.Position(line=5, character=0)))
    return h.contents.value


async def test_cancel_mid_run_keeps_the_server_answering(client: LanguageClient):
    FAKE.responder = Responder(delay=0.3)
    before = set(client.progress_reports)
    task = asyncio.ensure_future(execute(client, "skillgrade.certify", client.skill_uri, msg_id="cert-1"))
    for _ in range(400):  # until a few calls went out
        if len(FAKE.message_requests) >= 3:
            break
        await asyncio.sleep(0.02)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    assert "Estimated" in await hover(client)  # the loop answers while certify runs
    assert loop.time() - t0 < 0.5
    client.cancel_request(T.CancelParams(id="cert-1"))
    with pytest.raises(JsonRpcRequestCancelled):
        await task
    token = next(iter(set(client.progress_reports) - before))
    for _ in range(250):  # the client gives up at once; the server's progress end follows
        if isinstance(client.progress_reports[token][-1], T.WorkDoneProgressEnd):
            break
        await asyncio.sleep(0.02)
    assert client.progress_reports[token][-1].message == "cancelled"
    report = await execute(client, "skillgrade.report", client.skill_uri)
    assert report["runs"][-1]["command"] == "certify" and report["runs"][-1]["status"] == "cancelled"


async def test_certify_runs_every_layer_and_hover_shows_them(client: LanguageClient):
    FAKE.responder = Responder()
    n0 = len(FAKE.message_requests)
    before = set(client.progress_reports)
    result = await execute(client, "skillgrade.certify", client.skill_uri)
    assert result["certifyRun"]["status"] == "ok", result["certifyRun"]
    c = result["composite"]
    assert c["confidence"] == "Certified"
    names = [la["name"] for la in result["layers"]]
    assert names[:4] == ["static", "judge", "monte_carlo", "elo"], names
    elo = result["layers"][3]
    assert elo["rating"] is not None and elo["n_pairs"] >= 3 and c["elo"] == elo["rating"]
    assert elo["ci_low"] <= elo["rating"] <= elo["ci_high"]
    mc = result["layers"][2]
    assert mc["n_used"] >= 2 and mc["statistics"]["activation_rate"]["n"] >= 1
    # the cancelled run's finished replies were cached: this run did not pay for them again
    assert result["ledger"]["cached_calls"] >= 1, result["ledger"]
    assert len(FAKE.message_requests) - n0 == result["ledger"]["calls"]
    reports = client.progress_reports[next(iter(set(client.progress_reports) - before))]
    msgs = [r.message or "" for r in reports if isinstance(r, T.WorkDoneProgressReport)]
    assert any(m.startswith("LLM judge (") for m in msgs) and any(m.startswith("Monte Carlo simulations (")
                                                                  for m in msgs)
    assert any(m.startswith("Elo comparisons (") for m in msgs)
    md = await hover(client)
    assert "Certified" in md and "| Static | Judge | Monte Carlo | Blend | Grade |" in md
    m = re.search(r"\*\*Judge \(v1\):\*\* model claude-sonnet-5-5, (\d+) call\(s\), (\d+) cached", md)
    assert m and int(m[1]) + int(m[2]) == 21, md  # the judge's share of the run, not the whole ledger
    assert "**Monte Carlo:**" in md and "**Elo:** " in md and "unmeasured" not in md.split("**Elo:**")[1][:20]
    lens = await client.text_document_code_lens_async(T.CodeLensParams(
        text_document=T.TextDocumentIdentifier(uri=client.skill_uri)))
    assert "Certified" in lens[0].command.title
    assert KEY not in json.dumps(result)


async def test_estimate_and_the_cli_dry_run_are_one_function(client: LanguageClient):
    """skillgrade.estimate and `certify --dry-run` answer with server/estimating.plan: the same calls,
    tokens and dollars for the same skill, index, cache and --mc-n (the editor's mcN setting)."""
    import os
    import subprocess

    from skillgrade.server.lsp.convert import uri_to_path

    path = Path(uri_to_path(client.skill_uri)).parent
    n0 = len(FAKE.requests)
    for mc_n in (50, 12):
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
            settings={"skillgrade": {"debounceMs": 0, "mcN": mc_n}}))
        await asyncio.sleep(0.2)
        est = await execute(client, "skillgrade.estimate", client.skill_uri, "certify")
        out = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "certify", str(path), "--dry-run",
                              "--format", "json", "--mc-n", str(mc_n)], env={**os.environ, **ENV},
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["dry_run"] == est["plan"], mc_n
        # stand-in prompts: never cached; the Elo pairs of the certify run above are (free, counted apart)
        assert est["plan"]["by_kind"]["route"]["calls"] == 10 + mc_n and est["plan"]["cached_calls"] > 0
    assert len(FAKE.requests) == n0  # neither calls a model
