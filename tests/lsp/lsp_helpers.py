"""Helpers for the pytest-lsp tests: the real server over stdio, with Neovim 0.7 (push) and VS Code (pull) capabilities."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from typing import Union

from lsprotocol import types as T
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-m", "skillgrade.server"]


def make_client() -> LanguageClient:
    """pytest-lsp's client with three additions: every publishDiagnostics is recorded in order
    (`client.publishes`, latest per uri in `client.published`), client/registerCapability requests are
    recorded, and lsprotocol 2025.0.0's CodeAction | Command hook is fixed (a CodeAction bound to a
    command would otherwise come back as a bare Command without its kind)."""
    client = LanguageClient(converter_factory=default_converter)
    client.publishes = []
    client.published = {}
    client.registrations = []

    def on_publish(ls: LanguageClient, params: T.PublishDiagnosticsParams):
        ls.publishes.append(params)
        ls.published[params.uri] = params
        ls.diagnostics[params.uri] = params.diagnostics

    def on_register(ls: LanguageClient, params: T.RegistrationParams):
        ls.registrations.extend(params.registrations)

    def on_unregister(ls: LanguageClient, params: T.UnregistrationParams):
        return None

    features = {**DEFAULT_CLIENT_FEATURES, T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: on_publish,
                T.CLIENT_REGISTER_CAPABILITY: on_register, T.CLIENT_UNREGISTER_CAPABILITY: on_unregister,
                T.WORKSPACE_CODE_LENS_REFRESH: lambda ls, params: None}
    register_lsp_features(client, features)
    conv = client.protocol._converter

    def hook(obj, _):
        if isinstance(obj, dict) and isinstance(obj.get("command"), str):
            return conv.structure(obj, T.Command)
        return conv.structure(obj, T.CodeAction)

    conv.register_structure_hook(Union[T.Command, T.CodeAction], hook)  # noqa: UP007 - the exact key lsprotocol uses
    return client


def server_config(**env: str) -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER, client_factory=make_client,
                              server_env={"SKILLGRADE_LOG": "WARNING", **os.environ, **env})


def nvim07_caps() -> T.ClientCapabilities:
    """Neovim 0.7.0 as captured by pytest-lsp: push diagnostics, no workspace/configuration."""
    return client_capabilities("neovim@v0.7.0")


def vscode_caps(encodings: list[str] | None = None) -> T.ClientCapabilities:
    """VS Code 1.65 as captured by pytest-lsp, plus what current VS Code adds: pull diagnostics with
    refresh, CodeLens refresh, position encodings."""
    caps = client_capabilities("visual_studio_code@v1.65.2")
    caps.text_document.diagnostic = T.DiagnosticClientCapabilities(dynamic_registration=True,
                                                                   related_document_support=False)
    caps.workspace.diagnostics = T.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    if encodings:
        caps.general.position_encodings = encodings
    return caps


GOOD = textwrap.dedent("""\
    ---
    name: {name}
    description: Fills PDF forms and extracts their fields. Use when the user asks to fill or read a PDF form.
    ---
    # {title}

    Read [the form guide](references/forms.md) before filling a form.

    ## Steps

    1. Open the PDF.
    2. Fill the fields.

    ## Details

    Some detail text.

    ### More

    Even more detail.
    """)


def write_skill(root: Path, name: str, text: str | None = None, refs: dict[str, str] | None = None) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    p = d / "SKILL.md"
    p.write_text(text if text is not None else GOOD.format(name=name, title=name.replace("-", " ").title()),
                 encoding="utf-8")
    for rel, content in (refs or {}).items():
        f = d / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
    return p


def uri(p: Path) -> str:
    return p.resolve().as_uri()


def apply_text_edits(text: str, edits, encoding: str = "utf-16") -> str:
    """Apply LSP TextEdits (client units) to text, last first."""
    import re

    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def off(pos: T.Position) -> int:
        if pos.line >= len(starts):
            return len(text)
        s = starts[pos.line]
        e = starts[pos.line + 1] if pos.line + 1 < len(starts) else len(text)
        line = text[s:e].rstrip("\r\n")
        units = 0
        for i, ch in enumerate(line):
            if units >= pos.character:
                return s + i
            units += (2 if ord(ch) > 0xFFFF else 1) if encoding == "utf-16" else \
                len(ch.encode("utf-8")) if encoding == "utf-8" else 1
        return s + len(line)

    spans = sorted(((off(e.range.start), off(e.range.end), e.new_text) for e in edits), reverse=True)
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


def edits_for(edit: T.WorkspaceEdit, target_uri: str) -> list[T.TextEdit]:
    out = []
    for ch in edit.document_changes or []:
        if isinstance(ch, T.TextDocumentEdit) and ch.text_document.uri == target_uri:
            out.extend(ch.edits)
    for u, es in (edit.changes or {}).items():
        if u == target_uri:
            out.extend(es)
    return out


async def open_doc(client: LanguageClient, path_or_uri, text: str, version: int = 1,
                   language_id: str = "markdown") -> str:
    u = path_or_uri if isinstance(path_or_uri, str) else uri(path_or_uri)
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=u, language_id=language_id, version=version, text=text)))
    return u


async def wait_published(client: LanguageClient, u: str, version: int | None = None, timeout: float = 10.0,
                         pred=None):
    """Wait until diagnostics for `u` (and `version`, when given; `pred(params)` when given) were pushed."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        pub = client.published.get(u)
        if pub is not None and (version is None or pub.version == version) and (pred is None or pred(pub)):
            return pub
        await asyncio.sleep(0.005)
    raise AssertionError(f"no matching diagnostics published for {u} v{version}; latest: {client.published.get(u)}")


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags)
