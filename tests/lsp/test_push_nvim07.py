"""Neovim 0.7 capabilities (push diagnostics, no workspace/configuration): sync, versions, hover, fixes."""

from __future__ import annotations

import asyncio
import random
import re

import pytest
import pytest_lsp
from lsp_helpers import (
    apply_text_edits,
    codes,
    edits_for,
    nvim07_caps,
    open_doc,
    server_config,
    uri,
    wait_published,
    write_skill,
)
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    write_skill(workspace, "pdf-forms", refs={"references/forms.md": "# Forms\n"})
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=nvim07_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        initialization_options={"debounceMs": 30, "docsBaseUrl": "https://example.test/rules"}))
    yield
    await lsp_client.shutdown_session()


def change(client, u, version, text, rng=None):
    ev = T.TextDocumentContentChangePartial(range=rng, text=text) if rng else \
        T.TextDocumentContentChangeWholeDocument(text=text)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=version), content_changes=[ev]))


def R(l1, c1, l2, c2):
    return T.Range(start=T.Position(line=l1, character=c1), end=T.Position(line=l2, character=c2))


async def test_push_on_open_with_code_source_href_data(client: LanguageClient, workspace):
    p = write_skill(workspace, "Bad-Name", text="---\nname: Bad-Name\ndescription: Does PDF things.\n---\n# T\n\n"
                    "See [missing](references/missing.md).\n")
    u = await open_doc(client, p, p.read_text())
    pub = await wait_published(client, u, 1)
    by = {d.code: d for d in pub.diagnostics}
    assert {"ORPHAN_REFERENCE", "NAME_FORMAT", "EMPTY_DESCRIPTION"} <= set(by), codes(pub.diagnostics)
    d = by["ORPHAN_REFERENCE"]
    assert d.source == "skillgrade"
    assert d.code_description.href == "https://example.test/rules/ORPHAN_REFERENCE.md"
    assert d.data["fix"]["creates"][0]["uri"].endswith("references/missing.md")
    assert d.severity == T.DiagnosticSeverity.Error
    line = p.read_text().splitlines()[d.range.start.line]
    assert line[d.range.start.character:d.range.end.character] == "references/missing.md"
    assert not client.diagnostics.get(uri(workspace / "pdf-forms" / "SKILL.md"))  # never opened: not pushed


async def test_stale_versions_are_never_published(client: LanguageClient, workspace):
    p = write_skill(workspace, "stale-skill")
    text = p.read_text()
    u = await open_doc(client, p, text)
    await wait_published(client, u, 1)
    start = len(client.publishes)
    for v in range(2, 22):  # 20 edits, faster than the debounce
        text = text + f"\nSee [r{v}](references/r{v}.md).\n"
        change(client, u, v, text)
    pub = await wait_published(client, u, 21)
    mine = [x for x in client.publishes[start:] if x.uri == u]
    assert [x.version for x in mine] == [21], [x.version for x in mine]
    targets = {m.group(1) for d in pub.diagnostics if d.code == "ORPHAN_REFERENCE"
               for m in [re.search(r"`(references/r\d+\.md)`", d.message)] if m}
    assert targets == {f"references/r{v}.md" for v in range(2, 22)}
    # more edits while analyses are running: whatever is published is the newest version
    for v in range(22, 40):
        change(client, u, v, text + "x" * v)
        await asyncio.sleep(0.004 * (v % 5))
    await wait_published(client, u, 39)
    versions = [x.version for x in client.publishes if x.uri == u]
    assert versions == sorted(versions)


async def test_garbage_edit_stream_server_survives(client: LanguageClient, workspace):
    p = write_skill(workspace, "garbage-skill", refs={"references/forms.md": "# Forms\n"})
    text = p.read_text()
    u = await open_doc(client, p, text)
    await wait_published(client, u, 1)
    rnd = random.Random(1234)
    alphabet = ["a", "😀", "中", "\r\n", "\n", "\r", "\x00", "\u2028", "---", "# ", "](", "\t", "é", "\ufeff",
                "\udc80", "`", "[x](references/", ":", " "]
    v = 1
    for _ in range(400):
        v += 1
        l1, l2 = sorted(rnd.randrange(0, 40) for _ in range(2))
        c1, c2 = rnd.randrange(0, 90), rnd.randrange(0, 90)
        if l1 == l2 and c2 < c1:
            c1, c2 = c2, c1
        new = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 8)))
        if rnd.random() < 0.03:
            new = bytes(rnd.randrange(256) for _ in range(200)).decode("latin-1")
        change(client, u, v, new, R(l1, c1, l2, c2))
        if rnd.random() < 0.05:
            await asyncio.sleep(0.01)
    await wait_published(client, u, v, timeout=30)
    # still answering, and in sync after a full replacement
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=0, character=0)))
    assert hover is not None
    v += 1
    change(client, u, v, p.read_text())
    pub = await wait_published(client, u, v)
    assert codes(pub.diagnostics) == []


async def test_incremental_edits_match_client_text(client: LanguageClient, workspace):
    """Edits after emoji, CJK and CRLF land where the client put them (UTF-16 columns)."""
    p = write_skill(workspace, "sync-skill", refs={"references/forms.md": "# Forms\n"})
    text = p.read_text().replace("\n", "\r\n", 3)
    u = await open_doc(client, p, text)
    await wait_published(client, u, 1)
    lines = text.split("\n")
    body_line = next(i for i, ln in enumerate(lines) if ln.startswith("Read ["))
    # insert "😀中 " at the start of the line, then a link after them (UTF-16: 😀 is 2 units)
    edits = [T.TextEdit(range=R(body_line, 0, body_line, 0), new_text="😀中 ")]
    change(client, u, 2, "😀中 ", R(body_line, 0, body_line, 0))
    text = apply_text_edits(text, edits)
    ins = T.TextEdit(range=R(body_line, 4, body_line, 4), new_text="[m](references/m.md) ")
    change(client, u, 3, ins.new_text, ins.range)
    text = apply_text_edits(text, [ins])
    pub = await wait_published(client, u, 3)
    orphan = [d for d in pub.diagnostics if d.code == "ORPHAN_REFERENCE"]
    assert len(orphan) == 1
    assert orphan[0].range == R(body_line, 8, body_line, 8 + len("references/m.md"))
    assert text.split("\n")[body_line].startswith("😀中 [m](references/m.md) Read")


async def test_hover_grade_card_field_and_finding(client: LanguageClient, workspace):
    p = write_skill(workspace, "hover-skill", text="---\nname: hover-skill\ndescription: Does PDF things.\n---\n"
                    "# Hover\n\nSee [missing](references/missing.md).\n")
    u = await open_doc(client, p, p.read_text())
    await wait_published(client, u, 1)

    async def hover(line, ch):
        h = await client.text_document_hover_async(T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri=u), position=T.Position(line=line, character=ch)))
        return h.contents.value

    card = await hover(4, 2)
    assert re.search(r"skillgrade [\d.]+ · \w+( badge)? · Estimated", card), card
    rows = [ln for ln in card.splitlines() if ln.startswith("| ") and "Dimension" not in ln]
    assert len(rows) == 10
    assert "unmeasured" in card and "Triggering accuracy" in card and "static" in card
    assert "no run yet" in card
    key = await hover(2, 3)
    assert "`description`" in key and "1024" in key
    finding = await hover(6, 20)
    assert "ORPHAN_REFERENCE" in finding and "Quick fix" in finding and "Create" in finding
    # the grade card shows anywhere in the file, after the rule or field help
    assert "Triggering accuracy" in key and "Triggering accuracy" in finding
    assert finding.index("ORPHAN_REFERENCE") < finding.index("Triggering accuracy")


async def test_quick_fix_round_trip(client: LanguageClient, workspace):
    p = write_skill(workspace, "fix-skill", text="---\nname: Fix_Skill\ndescription: Fills PDF forms. Use when the "
                    "user asks to fill a PDF form.\n---\n# Fix\n\n```\nprint('x')\n```\n")
    text = p.read_text()
    u = await open_doc(client, p, text)
    pub = await wait_published(client, u, 1)
    assert "NAME_FORMAT" in codes(pub.diagnostics)
    v = 1
    for code in ("NAME_FORMAT", "CODE_BLOCK_UNTAGGED"):
        diag = next((d for d in client.published[u].diagnostics if d.code == code), None)
        if diag is None:
            continue
        actions = await client.text_document_code_action_async(T.CodeActionParams(
            text_document=T.TextDocumentIdentifier(uri=u), range=diag.range,
            context=T.CodeActionContext(diagnostics=[diag], only=[T.CodeActionKind.QuickFix])))
        assert actions, code
        act = actions[0]
        assert act.kind == T.CodeActionKind.QuickFix
        if code == "NAME_FORMAT":
            assert act.title.endswith("(unsafe)") and not act.is_preferred
        text = apply_text_edits(text, edits_for(act.edit, u))
        v += 1
        change(client, u, v, text)
        pub = await wait_published(client, u, v)
        assert code not in codes(pub.diagnostics), (code, text)
    assert "name: fix-skill" in text


async def test_quick_fix_without_data_uses_current_analysis(client: LanguageClient, workspace):
    p = write_skill(workspace, "nodata-skill", text="---\nname: NoData\ndescription: Fills PDF forms. Use when "
                    "the user asks to fill a PDF form.\n---\n# X\n")
    u = await open_doc(client, p, p.read_text())
    pub = await wait_published(client, u, 1)
    diag = next(d for d in pub.diagnostics if d.code == "NAME_FORMAT")
    stripped = T.Diagnostic(range=diag.range, message=diag.message, code=diag.code, source="skillgrade")
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u), range=diag.range,
        context=T.CodeActionContext(diagnostics=[stripped])))
    titles = [a.title for a in actions]
    assert any(t.startswith("Rename to") for t in titles), titles
    assert "Run LLM judge" in titles and "Certify skill" in titles


async def test_source_actions_are_bound_to_commands(client: LanguageClient, workspace):
    p = workspace / "pdf-forms" / "SKILL.md"
    u = await open_doc(client, p, p.read_text())
    await wait_published(client, u, 1)
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u), range=T.Range(start=T.Position(line=0, character=0),
                                                                     end=T.Position(line=0, character=0)),
        context=T.CodeActionContext(diagnostics=[], only=["source.skillgrade.certify"])))
    assert [(a.kind, a.command.command, list(a.command.arguments)) for a in actions] == [
        ("source.skillgrade.certify", "skillgrade.certify", [u])]


async def test_code_lens_symbols_links_definition_completion(client: LanguageClient, workspace):
    p = workspace / "pdf-forms" / "SKILL.md"
    u = uri(p)
    if u not in client.published:
        await open_doc(client, p, p.read_text())
        await wait_published(client, u, 1)
    td = T.TextDocumentIdentifier(uri=u)
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(text_document=td))
    titles = [x.command.title for x in lenses]
    assert re.fullmatch(r"skillgrade \d+\.\d · (Platinum|Gold|Silver|Bronze|No badge) · Estimated", titles[0]), titles
    assert titles[1:] == ["Run judge", "Certify"]
    assert [x.command.command for x in lenses[1:]] == ["skillgrade.judge", "skillgrade.certify"]
    assert all(x.range.start.line == 0 for x in lenses)

    syms = await client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=td))
    assert [s.name for s in syms] == ["Pdf Forms"]
    assert [c.name for c in syms[0].children] == ["Steps", "Details"]
    assert [c.name for c in syms[0].children[1].children] == ["More"]

    links = await client.text_document_document_link_async(T.DocumentLinkParams(text_document=td))
    assert [lk.target for lk in links] == [uri(workspace / "pdf-forms" / "references" / "forms.md")]
    locs = await client.text_document_definition_async(T.DefinitionParams(
        text_document=td, position=T.Position(line=links[0].range.start.line,
                                              character=links[0].range.start.character + 3)))
    assert [loc.uri for loc in locs] == [links[0].target]

    # completion: frontmatter keys at line start, references/ paths inside ](
    text = p.read_text()
    change(client, u, 2, text.replace("---\n# ", "lic\n---\n# ", 1).replace("Fill the fields.", "Fill the ]("))
    await wait_published(client, u, 2)
    comp = await client.text_document_completion_async(T.CompletionParams(
        text_document=td, position=T.Position(line=3, character=3)))
    labels = [i.label for i in comp.items]
    assert "license" in labels and "name" not in labels
    line = next(i for i, ln in enumerate(client_text(text)) if "Fill the fields." in ln)
    comp = await client.text_document_completion_async(T.CompletionParams(
        text_document=td, position=T.Position(line=line + 1, character=len("2. Fill the ]("))))
    assert [i.label for i in comp.items] == ["references/forms.md"]
    change(client, u, 3, text)
    await wait_published(client, u, 3)


def client_text(text):
    return text.split("\n")


async def test_close_clears_and_untitled_is_analysed_without_disk(client: LanguageClient, workspace):
    p = write_skill(workspace, "close-skill", text="---\nname: close-skill\n---\n# C\n")
    u = await open_doc(client, p, p.read_text())
    pub = await wait_published(client, u, 1)
    assert pub.diagnostics
    client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=u)))
    await wait_published(client, u, None, pred=lambda x: len(x.diagnostics) == 0)

    un = "untitled:Untitled-1"
    await open_doc(client, un, "---\nname: scratch\ndescription: Does PDF things. Use when asked about PDFs.\n"
                   "---\n# S\n\nSee [r](references/r.md) and [o](../other/SKILL.md).\n")
    pub = await wait_published(client, un, 1)
    assert not {"ORPHAN_REFERENCE", "DEAD_CROSS_REF", "NAME_DIR_MISMATCH"} & set(codes(pub.diagnostics))
