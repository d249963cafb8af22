"""The server bounds analysis time per document version (`analysisTimeoutMs`): a version whose analysis runs
past the limit gets one ANALYSIS_STOPPED diagnostic, the server keeps answering, and the next version is
analysed normally."""

from __future__ import annotations

import time

import pytest
import pytest_lsp
from lsp_helpers import (
    SERVER,
    codes,
    make_client,
    nvim07_caps,
    open_doc,
    server_config,
    uri,
    wait_published,
    write_skill,
)
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

CONFIG = ClientServerConfig(server_command=[*SERVER, "--stdio"], client_factory=make_client,
                            server_env=server_config().server_env)
LIMIT_MS = 1500  # far below the seconds SLOW takes, far above a cold first analysis of FAST on a loaded machine
# 10^5 links to a missing file: linear, but seconds of Python work (10^5 DEAD_LINK findings), far past
# the limit; the analysis is interruptible because it runs Python code
SLOW = "---\nname: slow-skill\ndescription: Use when testing the analysis time limit.\n---\n\n# Slow\n\n" + \
    "[a](missing.md)" * 100_000 + "\n"
FAST = "---\nname: slow-skill\ndescription: Use when testing the analysis time limit.\n---\n\n# Fast\n\n" \
    "See [the guide](missing.md).\n"


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, workspace):
    root = workspace / "root"
    root.mkdir()
    lsp_client.root = root
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(root), workspace_folders=[T.WorkspaceFolder(uri=uri(root), name="r")],
        initialization_options={"debounceMs": 0, "analysisTimeoutMs": LIMIT_MS}))
    yield
    await lsp_client.shutdown_session()


def _change(client: LanguageClient, u: str, version: int, text: str) -> None:
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_a_slow_version_is_stopped_and_the_next_is_analysed(client: LanguageClient):
    p = write_skill(client.root, "slow-skill", text=FAST)
    t0 = time.perf_counter()
    u = await open_doc(client, p, SLOW)
    pub = await wait_published(client, u, 1, timeout=30)
    took = time.perf_counter() - t0
    print(f"stopped diagnostic after {took:.2f}s (limit {LIMIT_MS} ms)")
    assert codes(pub.diagnostics) == ["ANALYSIS_STOPPED"]
    assert "stopped analysing this version after 1.5 s" in pub.diagnostics[0].message
    assert took < 10  # the limit, not the whole analysis (tens of seconds on a loaded machine)
    # the server still answers requests
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=1, character=2)))
    assert hover is None or hover.contents is not None
    # the next version is analysed normally
    _change(client, u, 2, FAST)
    pub = await wait_published(client, u, 2, timeout=30)
    assert "ANALYSIS_STOPPED" not in codes(pub.diagnostics)
    assert "DEAD_LINK" in codes(pub.diagnostics)


async def test_another_document_is_analysed_while_one_is_slow(client: LanguageClient):
    slow = write_skill(client.root, "slow-two", text=FAST.replace("slow-skill", "slow-two"))
    fast = write_skill(client.root, "fast-one", text=FAST.replace("slow-skill", "fast-one"))
    us = await open_doc(client, slow, SLOW.replace("slow-skill", "slow-two"))
    uf = await open_doc(client, fast, FAST.replace("slow-skill", "fast-one"))
    pub = await wait_published(client, uf, 1, timeout=30)
    assert "DEAD_LINK" in codes(pub.diagnostics)
    pub = await wait_published(client, us, 1, timeout=30)
    assert codes(pub.diagnostics) == ["ANALYSIS_STOPPED"]
    # leave the document analysable: with a slow version still open, the server took ~60-140 s to exit in
    # this test (not yet understood: an analysis the time limit does not reach during shutdown?)
    _change(client, us, 2, FAST.replace("slow-skill", "slow-two"))
    pub = await wait_published(client, us, 2, timeout=30)
    assert "ANALYSIS_STOPPED" not in codes(pub.diagnostics)
