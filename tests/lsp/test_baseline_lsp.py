"""`hideBaselined` (+ `baseline`): the server leaves out the findings recorded by `skillgrade baseline write`,
keeps them hidden while lines move, and shows a finding added after the baseline."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import codes, nvim07_caps, open_doc, server_config, uri, wait_published
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from skillgrade.server.lsp.settings import parse_settings

MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "skills"


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    shutil.copytree(EXAMPLES, workspace / "skills")
    (workspace / ".git").mkdir()
    w = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "baseline", "write", "skills", "--no-cache",
                        "--output", "ci/baseline.json"], cwd=workspace, capture_output=True, text=True, timeout=120)
    assert w.returncode == 0, w.stderr
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 0, "hideBaselined": True, "baseline": "ci/baseline.json"}))
    yield
    await lsp_client.shutdown_session()


def test_settings_parse() -> None:
    s, errors = parse_settings({"hideBaselined": True, "baseline": " ci/b.json "})
    assert (s.hide_baselined, s.baseline, errors) == (True, "ci/b.json", [])
    s, errors = parse_settings({"hideBaselined": "yes", "baseline": 3})
    assert (s.hide_baselined, s.baseline) == (False, None)
    assert errors == ["`hideBaselined` must be true or false", "`baseline` must be the path of a baseline file"]


@MODULE_LOOP
async def test_baselined_hidden_then_only_the_new_finding_shows(client: LanguageClient, workspace: Path):
    p = workspace / "skills" / "pdf-tools" / "SKILL.md"
    text = p.read_text()
    u = await open_doc(client, p, text)
    pub = await wait_published(client, u, 1)
    assert list(pub.diagnostics) == []  # all 9 of pdf-tools' findings are in the baseline
    moved = text.replace("# PDF tools\n", "# PDF tools\n\nIntro.\n\nMore.\n") + \
        "\nSee [the missing page](references/missing.md).\n"
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=moved)]))
    pub = await wait_published(client, u, 2)
    assert codes(pub.diagnostics) == ["ORPHAN_REFERENCE"]
    assert pub.diagnostics[0].range.start.line == moved.splitlines().index(
        "See [the missing page](references/missing.md).")


@MODULE_LOOP
async def test_other_skill_and_a_skill_newer_than_the_baseline(client: LanguageClient, workspace: Path):
    # release-notes' one finding is baselined too; a skill written after the baseline shows its findings
    p = workspace / "skills" / "release-notes" / "SKILL.md"
    u = await open_doc(client, p, p.read_text())
    assert list((await wait_published(client, u, 1)).diagnostics) == []
    new = workspace / "skills" / "new-one" / "SKILL.md"
    new.parent.mkdir()
    new.write_text("---\nname: new-one\ndescription: Does things.\n---\n# New\n")
    u = await open_doc(client, new, new.read_text())
    assert "EMPTY_DESCRIPTION" in codes((await wait_published(client, u, 1)).diagnostics)
