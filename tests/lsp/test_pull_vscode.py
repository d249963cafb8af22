"""VS Code capabilities (pull diagnostics, workspace/configuration, watchers, resource operations)."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsp_helpers import (
    GOOD,
    apply_text_edits,
    codes,
    edits_for,
    open_doc,
    server_config,
    uri,
    vscode_caps,
    write_skill,
)
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, workspace):
    pdf = GOOD.format(name="pdf", title="PDF")
    write_skill(workspace, "skills/pdf", text=pdf, refs={"references/forms.md": "# Forms\n"})
    write_skill(workspace, "skills/pdf-old", text=pdf, refs={"references/forms.md": "# Forms\n"})  # name: pdf too
    lsp_client.set_configuration({"debounceMs": 0}, section="skillgrade")
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=vscode_caps(), root_uri=uri(workspace),
        workspace_folders=[T.WorkspaceFolder(uri=uri(workspace), name="ws")],
        client_info=T.ClientInfo(name="Visual Studio Code", version="1.139.1"),
        initialization_options={"skillgrade": {"debounceMs": 0}}))
    for _ in range(500):  # the workspace index is built after `initialized`
        if any("indexed" in m.message for m in lsp_client.log_messages):
            break
        await asyncio.sleep(0.01)
    yield
    await lsp_client.shutdown_session()


async def pull(client, u, previous=None):
    return await client.text_document_diagnostic_async(T.DocumentDiagnosticParams(
        text_document=T.TextDocumentIdentifier(uri=u), previous_result_id=previous))


def change(client, u, version, text):
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=u, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_pull_full_then_unchanged_and_never_pushed(client: LanguageClient, workspace):
    p = write_skill(workspace, "pull-skill", text="---\nname: pull-skill\ndescription: Does PDF things.\n---\n# P\n")
    u = await open_doc(client, p, p.read_text(), language_id="skill")
    first = await pull(client, u)
    assert first.kind == "full" and "EMPTY_DESCRIPTION" in codes(first.items)
    assert all(d.source == "skillgrade" and d.code_description.href.endswith(f"{d.code}.md") for d in first.items)
    again = await pull(client, u, first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id
    change(client, u, 2, p.read_text().replace("Does PDF things.", "Fills PDF forms. Use when the user asks to "
                                                                    "fill a PDF form."))
    third = await pull(client, u, first.result_id)
    assert third.kind == "full" and "EMPTY_DESCRIPTION" not in codes(third.items)
    await asyncio.sleep(0.2)
    assert client.publishes == []  # a pull client never gets pushed diagnostics


async def test_watchers_and_configuration_registered(client: LanguageClient):
    methods = {r.method for r in client.registrations}
    assert T.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods
    watch = next(r for r in client.registrations if r.method == T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    globs = [w["globPattern"] for w in watch.register_options["watchers"]]
    assert "**/references/**" in globs and "**/SKILL.md" in globs


async def test_workspace_diagnostics_duplicate_skill_name(client: LanguageClient, workspace):
    report = await client.workspace_diagnostic_async(T.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {i.uri: i for i in report.items}
    a, b = uri(workspace / "skills/pdf/SKILL.md"), uri(workspace / "skills/pdf-old/SKILL.md")
    assert a in by_uri and b in by_uri
    dup_a = [d for d in by_uri[a].items if d.code == "DUPLICATE_SKILL_NAME"]
    dup_b = [d for d in by_uri[b].items if d.code == "DUPLICATE_SKILL_NAME"]
    assert dup_a and dup_b
    assert dup_a[0].related_information[0].location.uri == b
    assert dup_b[0].related_information[0].location.uri == a
    assert by_uri[a].version is None  # not open: read from disk
    # unchanged the second time round
    again = await client.workspace_diagnostic_async(T.WorkspaceDiagnosticParams(
        previous_result_ids=[T.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items]))
    assert {i.kind for i in again.items} == {"unchanged"}


async def test_rename_in_open_buffer_rechecks_the_other_skill(client: LanguageClient, workspace):
    p = workspace / "skills/pdf-old/SKILL.md"
    u = await open_doc(client, p, p.read_text())
    before = client.diagnostic_refresh_count
    first = await pull(client, u)
    assert "DUPLICATE_SKILL_NAME" in codes(first.items)
    change(client, u, 2, p.read_text().replace("name: pdf\n", "name: pdf-old\n"))
    second = await pull(client, u)
    assert "DUPLICATE_SKILL_NAME" not in codes(second.items)
    report = await client.workspace_diagnostic_async(T.WorkspaceDiagnosticParams(previous_result_ids=[]))
    other = next(i for i in report.items if i.uri == uri(workspace / "skills/pdf/SKILL.md"))
    assert "DUPLICATE_SKILL_NAME" not in codes(other.items)
    assert client.diagnostic_refresh_count > before


async def test_watched_file_created_clears_orphan_reference(client: LanguageClient, workspace):
    p = write_skill(workspace, "watch-skill")  # links references/forms.md, which does not exist yet
    u = await open_doc(client, p, p.read_text())
    first = await pull(client, u)
    assert "ORPHAN_REFERENCE" in codes(first.items)
    ref = workspace / "watch-skill/references/forms.md"
    ref.parent.mkdir(parents=True)
    ref.write_text("# Forms\n")
    before = client.diagnostic_refresh_count
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(
        changes=[T.FileEvent(uri=uri(ref), type=T.FileChangeType.Created)]))
    for _ in range(200):
        if client.diagnostic_refresh_count > before:
            break
        await asyncio.sleep(0.01)
    assert client.diagnostic_refresh_count > before
    second = await pull(client, u, first.result_id)
    assert second.kind == "full" and "ORPHAN_REFERENCE" not in codes(second.items)


async def test_configuration_change_applies_and_refreshes(client: LanguageClient, workspace):
    p = write_skill(workspace, "config-skill", text="---\nname: config-skill\ndescription: Does PDF things.\n---\n# C\n")
    u = await open_doc(client, p, p.read_text())
    assert "EMPTY_DESCRIPTION" in codes((await pull(client, u)).items)
    before = client.diagnostic_refresh_count
    client.set_configuration({"debounceMs": 0, "ignore": ["EMPTY_DESCRIPTION"],
                              "docsBaseUrl": "https://docs.test/r/"}, section="skillgrade")
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=None))
    for _ in range(200):
        if client.diagnostic_refresh_count > before:
            break
        await asyncio.sleep(0.01)
    items = (await pull(client, u)).items
    assert "EMPTY_DESCRIPTION" not in codes(items)
    assert all(d.code_description.href.startswith("https://docs.test/r/") for d in items)
    # VS Code's push form: {settings: {skillgrade: {...}}}
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
        settings={"skillgrade": {"debounceMs": 0}}))
    for _ in range(200):
        if "EMPTY_DESCRIPTION" in codes((await pull(client, u)).items):
            break
        await asyncio.sleep(0.01)
    assert "EMPTY_DESCRIPTION" in codes((await pull(client, u)).items)
    # a file configuration still applies under the settings
    (workspace / "config-skill/.skillgrade.toml").write_text('ignore = ["EMPTY_DESCRIPTION"]\n')
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(changes=[T.FileEvent(
        uri=uri(workspace / "config-skill/.skillgrade.toml"), type=T.FileChangeType.Created)]))
    for _ in range(200):
        if "EMPTY_DESCRIPTION" not in codes((await pull(client, u)).items):
            break
        await asyncio.sleep(0.01)
    assert "EMPTY_DESCRIPTION" not in codes((await pull(client, u)).items)
    (workspace / "config-skill/.skillgrade.toml").unlink()


async def test_extract_section_refactor(client: LanguageClient, workspace):
    p = write_skill(workspace, "extract-skill", refs={"references/forms.md": "# Forms\n"})
    text = p.read_text()
    u = await open_doc(client, p, text)
    line = text.splitlines().index("Some detail text.")
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u),
        range=T.Range(start=T.Position(line=line, character=2), end=T.Position(line=line, character=2)),
        context=T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.RefactorExtract])))
    assert [a.title for a in actions] == ["Move section to references/details.md"]
    edit = actions[0].edit
    new_uri = uri(workspace / "extract-skill/references/details.md")
    creates = [c for c in edit.document_changes if isinstance(c, T.CreateFile)]
    assert [c.uri for c in creates] == [new_uri]
    content = apply_text_edits("", edits_for(edit, new_uri))
    assert content == "# Details\n\nSome detail text.\n\n## More\n\nEven more detail.\n"
    new_text = apply_text_edits(text, edits_for(edit, u))
    assert "Some detail text." not in new_text and "Even more detail." not in new_text
    assert "## Details\n\nSee [Details](references/details.md) for details.\n" in new_text
    assert new_text.startswith(text.split("## Details")[0])
    versioned = [c for c in edit.document_changes if isinstance(c, T.TextDocumentEdit) and c.text_document.uri == u]
    assert versioned[0].text_document.version == 1
    # apply it for real and re-analyse: the link resolves, nothing new is reported
    (workspace / "extract-skill/references/details.md").write_text(content)
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(changes=[T.FileEvent(
        uri=new_uri, type=T.FileChangeType.Created)]))
    change(client, u, 2, new_text)
    await asyncio.sleep(0.05)
    assert codes((await pull(client, u)).items) == []


async def test_fix_all_applies_safe_fixes_only(client: LanguageClient, workspace):
    p = write_skill(workspace, "fixall-skill", text="---\nname: Fixall_Skill\ndescription: Fills PDF forms. Use when "
                    "asked to fill a PDF form.\n---\n# F\n\n```\nprint(1)\n```\n\n```\necho hi\n```\n")
    text = p.read_text()
    u = await open_doc(client, p, text)
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u),
        range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0)),
        context=T.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    assert [a.kind for a in actions] == ["source.fixAll.skillgrade"]
    fixed = apply_text_edits(text, edits_for(actions[0].edit, u))
    assert "name: Fixall_Skill" in fixed  # the rename is unsafe: not part of fix-all
    change(client, u, 2, fixed)
    after = codes((await pull(client, u)).items)
    assert "CODE_BLOCK_UNTAGGED" not in after and "NAME_FORMAT" in after


async def test_yaml_colon_value_quick_fix(client: LanguageClient, workspace):
    """Set 37: `description: … Keywords: …` unquoted; the quick fix quotes the value and the skill reads again."""
    p = write_skill(workspace, "colon-skill", text="---\nname: colon-skill\ndescription: Configures Ghostty. Use when "
                    "setting up Ghostty. Keywords: ghostty, terminal\n---\n# G\n\nEdit the config.\n")
    text = p.read_text()
    u = await open_doc(client, p, text)
    first = (await pull(client, u)).items
    (diag,) = [d for d in first if d.code == "YAML_SYNTAX"]
    assert "the value of `description` holds `: `" in diag.message
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=u), range=diag.range,
        context=T.CodeActionContext(diagnostics=[diag])))
    (quote,) = [a for a in actions if a.title == "Quote the value of `description`"]
    fixed = apply_text_edits(text, edits_for(quote.edit, u))
    assert 'description: "Configures Ghostty. Use when setting up Ghostty. Keywords: ghostty, terminal"\n' in fixed
    change(client, u, 2, fixed)
    after = codes((await pull(client, u)).items)
    assert "YAML_SYNTAX" not in after and "NAME_MISSING" not in after
