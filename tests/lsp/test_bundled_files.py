"""Bundled markdown files (references/*.md) open in the editor: their own diagnostics, on their own URI.

Neovim 0.7 capabilities (push) through the real server; one pull (VS Code) check at the end.
"""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsp_helpers import (
    codes,
    nvim07_caps,
    open_doc,
    server_config,
    uri,
    vscode_caps,
    wait_published,
    write_skill,
)
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

GUIDE = "# Guide\n\nSee [the fields](fields.md) and [the API](api.md).\n"


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 20}))
    yield
    await lsp_client.shutdown_session()


def change(client, u, version, text):
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))


def skill(workspace, name):
    return write_skill(workspace, name, refs={"references/forms.md": "# Forms\n", "references/guide.md": GUIDE,
                                              "references/fields.md": "# Fields\n"})


async def test_reference_file_gets_its_own_findings(client: LanguageClient, workspace):
    p = skill(workspace, "bundled-open")
    guide = p.parent / "references" / "guide.md"
    gu = await open_doc(client, guide, GUIDE)
    pub = await wait_published(client, gu, 1)
    assert codes(pub.diagnostics) == ["DEAD_LINK"]
    d = pub.diagnostics[0]
    assert GUIDE.splitlines()[d.range.start.line][d.range.start.character:d.range.end.character] == "api.md"
    assert d.data["uri"] == gu
    # SKILL.md, opened too, never shows the reference file's finding
    su = await open_doc(client, p, p.read_text())
    spub = await wait_published(client, su, 1)
    assert "DEAD_LINK" not in codes(spub.diagnostics), spub.diagnostics


async def test_unsaved_edits_are_used_and_fixing_clears(client: LanguageClient, workspace):
    p = skill(workspace, "bundled-edit")
    guide = p.parent / "references" / "guide.md"
    gu = await open_doc(client, guide, GUIDE)
    await wait_published(client, gu, 1, pred=lambda x: len(x.diagnostics) == 1)
    broken = "# Guide\n\nFirst line.\n\n[one](nope.md) and [two](missing.md)\n"
    change(client, gu, 2, broken)
    pub = await wait_published(client, gu, 2)
    assert [(d.range.start.line, d.range.start.character) for d in pub.diagnostics] == [(4, 6), (4, 25)]
    change(client, gu, 3, GUIDE.replace("api.md", "fields.md"))
    pub = await wait_published(client, gu, 3)
    assert not pub.diagnostics  # fixed: cleared
    assert guide.read_text() == GUIDE  # nothing written to disk


async def test_skill_and_reference_open_together(client: LanguageClient, workspace):
    p = write_skill(workspace, "bundled-dep", text=(
        "---\nname: bundled-dep\ndescription: Fills PDF forms. Use when the user asks to fill a PDF form.\n---\n"
        "# Dep\n\nRead [the guide](references/guide.md) and [the notes](references/notes.md).\n"))
    (p.parent / "references").mkdir()
    guide = p.parent / "references" / "guide.md"
    guide.write_text("# Guide\n", encoding="utf-8")
    su = await open_doc(client, p, p.read_text())
    spub = await wait_published(client, su, 1)
    assert codes(spub.diagnostics) == ["ORPHAN_REFERENCE"]
    gu = await open_doc(client, guide, "# Guide\n")
    await wait_published(client, gu, 1)
    change(client, gu, 2, "# Guide\n\n[gone](gone.md)\n")
    pub = await wait_published(client, gu, 2, pred=lambda x: codes(x.diagnostics) == ["DEAD_LINK"])
    assert pub.diagnostics[0].range.start.line == 2
    # the skill's own diagnostics stay its own while the reference changes
    change(client, su, 2, p.read_text() + "\nMore.\n")
    spub = await wait_published(client, su, 2)
    assert codes(spub.diagnostics) == ["ORPHAN_REFERENCE"]
    assert spub.diagnostics[0].range.start.line == 6
    assert codes(client.published[gu].diagnostics) == ["DEAD_LINK"]
    # closing the reference clears its diagnostics
    client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=gu)))
    await wait_published(client, gu, None, pred=lambda x: not x.diagnostics)


async def test_markdown_outside_a_skill_gets_nothing(client: LanguageClient, workspace):
    notes = workspace / "docs" / "notes.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_text("# Notes\n\n[gone](gone.md)\n", encoding="utf-8")
    nu = await open_doc(client, notes, notes.read_text())
    vendored = skill(workspace, "bundled-vendored").parent / "node_modules" / "pkg" / "README.md"
    vendored.parent.mkdir(parents=True)
    vendored.write_text("[gone](gone.md)\n", encoding="utf-8")
    vu = await open_doc(client, vendored, vendored.read_text())
    await asyncio.sleep(0.5)
    assert nu not in client.published and vu not in client.published
    # no hover, symbols or lenses claim these files either
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=nu), position=T.Position(line=0, character=0)))
    assert hover is None


async def test_reference_file_has_no_skill_features(client: LanguageClient, workspace):
    p = skill(workspace, "bundled-features")
    gu = await open_doc(client, p.parent / "references" / "guide.md", GUIDE)
    await wait_published(client, gu, 1)
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=gu), position=T.Position(line=0, character=0)))
    assert hover is None  # no grade card of the skill inside a reference file
    syms = await client.text_document_document_symbol_async(T.DocumentSymbolParams(
        text_document=T.TextDocumentIdentifier(uri=gu)))
    assert not syms
    acts = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=gu), range=T.Range(start=T.Position(line=0, character=0),
                                                                      end=T.Position(line=0, character=0)),
        context=T.CodeActionContext(diagnostics=[])))
    assert not [a for a in acts or [] if "judge" in (a.kind or "") or "certify" in (a.kind or "")]


@pytest_lsp.fixture(scope="module", config=server_config())
async def pull_client(lsp_client: LanguageClient, workspace):
    lsp_client.set_configuration({"debounceMs": 0}, section="skillgrade")
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=vscode_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")]))
    yield
    await lsp_client.shutdown_session()


async def test_pull_diagnostics_for_a_reference_file(pull_client: LanguageClient, workspace):
    p = skill(workspace, "bundled-pull")
    gu = await open_doc(pull_client, p.parent / "references" / "guide.md", GUIDE)
    rep = await pull_client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=gu)))
    assert codes(rep.items) == ["DEAD_LINK"]
    su = await open_doc(pull_client, p, p.read_text())
    rep = await pull_client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=su)))
    assert "DEAD_LINK" not in codes(rep.items)
    notes = workspace / "pull-notes.md"
    notes.write_text("[gone](gone.md)\n", encoding="utf-8")
    nu = await open_doc(pull_client, notes, notes.read_text())
    rep = await pull_client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=nu)))
    assert not rep.items


async def test_snapshots_and_dependencies_unit(tmp_path):
    """The state behind the above: overrides, targets, and the skill's edit stamp in every result key."""
    from skillgrade.server.lsp.server import SkillServer

    p = write_skill(tmp_path, "unit-skill", refs={"references/guide.md": GUIDE})
    ls = SkillServer()
    ls.use_pull = True  # no event loop here: nothing is scheduled
    gu, su = uri(p.parent / "references" / "guide.md"), uri(p)
    g = ls.docs.open(gu, 1, "# Edited\n")
    snap = ls.snapshot(g)
    assert (snap.target, snap.text, snap.path, snap.overrides) == ("references/guide.md", None, p.resolve(),
                                                                   {"references/guide.md": "# Edited\n"})
    s = ls.docs.open(su, 1, "---\nname: unit-skill\n---\n")
    assert ls.snapshot(g).text == s.text  # the open SKILL.md buffer, not the disk
    assert ls.snapshot(s).overrides == {"references/guide.md": "# Edited\n"} and ls.snapshot(s).target is None
    before = ls.key_of(s)
    ls.touch_skill(gu)  # an edit of the reference: the SKILL.md's current result is stale
    assert ls.key_of(s) != before and ls.key_of(s)[:2] == before[:2]
    other = ls.docs.open(uri(write_skill(tmp_path, "other-skill")), 1, "x")
    k = ls.key_of(other)
    ls.touch_skill(gu)
    assert ls.key_of(other) == k  # other skills are not affected
    assert ls.bundle_owner(uri(tmp_path / "loose.md")) is None


async def test_a_lowercase_skill_md_is_a_skill_with_its_finding(client: LanguageClient, workspace):
    """`skill.md` (no SKILL.md beside it) is analysed as the skill and says why Claude Code skips it;
    beside a real SKILL.md it is only bundled markdown and gets no skill findings."""
    d = workspace / "lower-case"
    d.mkdir()
    text = "---\nname: lower-case\ndescription: Formats foo. Use when the user asks to format foo.\n---\n# T\n"
    p = d / "skill.md"
    p.write_text(text)
    names = {q.name for q in d.iterdir()}
    pub = await wait_published(client, await open_doc(client, p, text), 1)
    assert "SKILL_FILE_NAME" in codes(pub.diagnostics)
    assert pub.diagnostics[0].range.start == T.Position(line=0, character=0)
    if names == {"skill.md"} and not (d / "SKILL.md").exists():  # case-sensitive disk: add a real SKILL.md
        other = write_skill(workspace, "both-names")
        notes = other.parent / "skill.md"
        notes.write_text("# Notes\n")
        pub = await wait_published(client, await open_doc(client, notes, "# Notes\n"), 1)
        assert "SKILL_FILE_NAME" not in codes(pub.diagnostics)
