"""The only place where engine values become LSP values (to_lsp_*) and LSP data comes back (from_lsp_*).

Engine ranges count code points; every range leaving here is in the negotiated position encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lsprotocol import types as T
from pygls.uris import from_fs_path, to_fs_path

from skillgrade.analyzers import Applicability, Finding, Fix, Range
from skillgrade.analyzers.document import Heading

from .documents import Codec

SOURCE = "skillgrade"
LinesFor = Callable[[str], Sequence[str] | None]  # absolute path -> that file's lines (None: unknown)

_TAGS = {"unnecessary": T.DiagnosticTag.Unnecessary, "deprecated": T.DiagnosticTag.Deprecated}
_SUFFIX = {Applicability.SAFE: "", Applicability.UNSAFE: " (unsafe)", Applicability.DISPLAY_ONLY: " (suggestion)"}


def path_to_uri(path: str) -> str:
    return from_fs_path(path) or path


def uri_to_path(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def to_lsp_position(line: int, col: int, lines: Sequence[str], codec: Codec) -> T.Position:
    if line < 0:
        return T.Position(line=0, character=0)
    if line >= len(lines):  # past the end: the end of the last line
        if not lines:
            return T.Position(line=0, character=0)
        line, col = len(lines) - 1, len(lines[-1])
    return T.Position(line=line, character=codec.to_client(lines[line], col))


def to_lsp_range(rng: Range, lines: Sequence[str], codec: Codec) -> T.Range:
    return T.Range(
        start=to_lsp_position(rng.start.line, rng.start.character, lines, codec),
        end=to_lsp_position(rng.end.line, rng.end.character, lines, codec),
    )


def range_json(r: T.Range) -> dict:
    return {"start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character}}


def from_lsp_range(d: dict) -> T.Range:
    s, e = d["start"], d["end"]
    return T.Range(start=T.Position(line=int(s["line"]), character=int(s["character"])),
                   end=T.Position(line=int(e["line"]), character=int(e["character"])))


def to_lsp_fix_data(fix: Fix, uri: str, lines: Sequence[str], codec: Codec, lines_for: LinesFor) -> dict:
    """A fix as JSON with client-unit ranges and URIs: what a code action needs, without re-analysis."""
    edits = []
    for e in fix.edits:
        if e.path is None:
            edits.append({"uri": uri, "range": range_json(to_lsp_range(e.range, lines, codec)), "newText": e.new_text})
            continue
        other = lines_for(e.path)
        if other is None:
            continue  # a file we may not read: leave the edit out rather than guess its positions
        edits.append({"uri": path_to_uri(e.path), "range": range_json(to_lsp_range(e.range, other, codec)),
                      "newText": e.new_text})
    return {
        "title": fix.title,
        "applicability": fix.applicability.value,
        "edits": edits,
        "creates": [{"uri": path_to_uri(c.path), "content": c.content} for c in fix.creates],
    }


def to_lsp_diagnostic(f: Finding, uri: str, version: int, lines: Sequence[str], codec: Codec,
                      docs_base_url: str, lines_for: LinesFor) -> T.Diagnostic:
    data: dict[str, Any] = {"uri": uri, "version": version, "code": f.code}
    if f.fix is not None:
        data["fix"] = to_lsp_fix_data(f.fix, uri, lines, codec, lines_for)
    related = []
    for r in f.related:
        other = lines_for(r.path)
        related.append(T.DiagnosticRelatedInformation(
            location=T.Location(uri=path_to_uri(r.path), range=to_lsp_range(r.range, other or [], codec)),
            message=r.message))
    tags = [_TAGS[t] for t in f.tags if t in _TAGS]
    return T.Diagnostic(
        range=to_lsp_range(f.range, lines, codec),
        message=f.message,
        severity=T.DiagnosticSeverity(int(f.severity)),
        code=f.code,
        code_description=T.CodeDescription(href=f"{docs_base_url}{f.code}.md"),
        source=SOURCE,
        tags=tags or None,
        related_information=related or None,
        data=data,
    )


def fix_title(data: dict) -> str:
    return data.get("title", "Fix") + _SUFFIX.get(Applicability(data.get("applicability", "safe")), "")


def to_lsp_workspace_edit(fixes: Sequence[dict], versions: dict[str, int], document_changes: bool,
                          can_create: bool) -> T.WorkspaceEdit | None:
    """One WorkspaceEdit from serialised fixes (see to_lsp_fix_data). None when the client cannot apply it."""
    creates: list[dict] = []
    by_uri: dict[str, list[T.TextEdit]] = {}
    for fx in fixes:
        creates.extend(fx.get("creates", ()))
        for e in fx.get("edits", ()):
            by_uri.setdefault(e["uri"], []).append(T.TextEdit(range=from_lsp_range(e["range"]), new_text=e["newText"]))
    if creates and not (document_changes and can_create):
        return None
    if not document_changes:
        return T.WorkspaceEdit(changes={u: list(es) for u, es in by_uri.items()}) if by_uri else None
    changes: list[Any] = []
    for c in creates:
        changes.append(T.CreateFile(uri=c["uri"], options=T.CreateFileOptions(overwrite=False, ignore_if_exists=True)))
        if c.get("content"):
            changes.append(T.TextDocumentEdit(
                text_document=T.OptionalVersionedTextDocumentIdentifier(uri=c["uri"], version=None),
                edits=[T.TextEdit(range=T.Range(start=T.Position(line=0, character=0),
                                                end=T.Position(line=0, character=0)), new_text=c["content"])]))
    for u, es in by_uri.items():
        changes.append(T.TextDocumentEdit(
            text_document=T.OptionalVersionedTextDocumentIdentifier(uri=u, version=versions.get(u)), edits=es))
    return T.WorkspaceEdit(document_changes=changes) if changes else None


def to_lsp_symbols(headings: Sequence[Heading], lines: Sequence[str], codec: Codec) -> list[T.DocumentSymbol]:
    """The heading outline, nested by level."""
    roots: list[T.DocumentSymbol] = []
    stack: list[tuple[int, T.DocumentSymbol]] = []
    for h in headings:
        end_line = max(h.line, h.end_line - 1)
        end_col = len(lines[end_line]) if end_line < len(lines) else 0
        full = to_lsp_range(Range.of(h.line, 0, end_line, end_col), lines, codec)
        sym = T.DocumentSymbol(name=h.text or "(empty heading)", kind=T.SymbolKind.String, range=full,
                               selection_range=to_lsp_range(h.range, lines, codec), detail="#" * h.level, children=[])
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(sym)  # type: ignore[union-attr]
        stack.append((h.level, sym))
    return roots


def to_lsp_flat_symbols(symbols: Sequence[T.DocumentSymbol], uri: str, container: str | None = None
                        ) -> list[T.SymbolInformation]:
    out = []
    for s in symbols:
        out.append(T.SymbolInformation(name=s.name, kind=s.kind, location=T.Location(uri=uri, range=s.range),
                                       container_name=container))
        out.extend(to_lsp_flat_symbols(s.children or [], uri, s.name))
    return out
