"""The `target` setting through the real server: it chooses which platform rules publish diagnostics."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsp_helpers import codes, nvim07_caps, open_doc, server_config, uri, wait_published, write_skill
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

SKILL = """---
name: claude-helper
description: Reviews designs. Use when the user asks for a design review.
model: gpt-4
allowed-tools: Read Bash
---

# Review

Read the design.
"""


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 20, "target": "claude-api"}))
    yield
    await lsp_client.shutdown_session()


async def test_claude_api_target_setting(client: LanguageClient, workspace):
    p = write_skill(workspace, "claude-helper", SKILL)
    u = await open_doc(client, p, SKILL)
    got = codes((await wait_published(client, u, 1)).diagnostics)
    assert "NAME_RESERVED_WORD" in got and "UNKNOWN_FIELD" in got  # upload rules; `model` is Claude Code's
    assert "UNKNOWN_MODEL" not in got and "UNRESTRICTED_BASH" not in got
