"""Document links, go-to-definition, completion (frontmatter keys, references/ paths), document symbols."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as T

from skillgrade.analyzers import SkillDocument, rx
from skillgrade.analyzers.fields import FIELDS
from skillgrade.analyzers.measures import link_path, resolve
from skillgrade.analyzers.rules.links._classify import prose_cross_refs, resolve_cross

from ..convert import path_to_uri, to_lsp_flat_symbols, to_lsp_range, to_lsp_symbols
from ..server import SkillServer, server
from .hover import cursor

_KEY_PREFIX = rx.compile(r"^[A-Za-z_-]*$")
_KEY_LINE = rx.compile(r"^([A-Za-z_][\w-]*)\s*:")
_LINK_DEST = rx.compile(r"\]\(\s*<?([^)\s>]*)$")


def _targets(doc: SkillDocument):
    """(range, absolute target path) for every relative link or cross reference that exists."""
    if doc.path is None:
        return
    for link in doc.links:
        p = link_path(link)
        if p is None:
            continue
        res = resolve(doc, p)
        if not res.exists and not res.inside_skill:
            res = resolve_cross(doc, p)
        if res.exists and res.absolute is not None:
            yield link.range, res.absolute
    for t in prose_cross_refs(doc):
        res = resolve_cross(doc, t.path)
        if res.exists and res.absolute is not None:
            yield t.range, res.absolute


def _file_target(p: Path) -> Path:
    return p / "SKILL.md" if p.is_dir() and (p / "SKILL.md").is_file() else p


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_LINK, T.DocumentLinkOptions(resolve_provider=False))
async def document_links(ls: SkillServer, params: T.DocumentLinkParams) -> list[T.DocumentLink] | None:
    res = await ls.result_for(params.text_document.uri)
    if res is None or res.report.document is None:
        return None
    doc = res.report.document
    out = []
    for rng, target in _targets(doc):
        target = _file_target(target)
        if target.is_dir():
            continue
        out.append(T.DocumentLink(range=to_lsp_range(rng, res.lines, ls.codec), target=path_to_uri(str(target))))
    return out


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: SkillServer, params: T.DefinitionParams) -> list[T.Location] | None:
    uri = params.text_document.uri
    res = await ls.result_for(uri)
    at = cursor(ls, uri, params.position)
    if res is None or res.report.document is None or at is None:
        return None
    zero = T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0))
    for rng, target in _targets(res.report.document):
        if rng.contains(at):
            return [T.Location(uri=path_to_uri(str(_file_target(target))), range=zero)]
    return None


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["(", "/"]))
async def completion(ls: SkillServer, params: T.CompletionParams) -> T.CompletionList | None:
    uri = params.text_document.uri
    odoc = ls.docs.get(uri)
    at = cursor(ls, uri, params.position)
    if odoc is None or at is None or not ls.is_skill(uri):
        return None
    line = odoc.lines[at.line] if at.line < len(odoc.lines) else ""
    before = line[: at.character]
    res = await ls.result_for(uri)
    doc = res.report.document if res is not None else None
    if doc is None:
        return None
    fm = doc.frontmatter
    in_frontmatter = fm.present and at.line > fm.open_line and (fm.close_line is None or at.line < fm.close_line)
    items: list[T.CompletionItem] = []
    if in_frontmatter and _KEY_PREFIX.match(before):
        start = to_lsp_range_pos(ls, odoc.lines, at.line, 0)
        end = to_lsp_range_pos(ls, odoc.lines, at.line, at.character)
        present = set(fm.fields)  # while typing, the YAML is often invalid: read the keys line by line
        last = fm.close_line if fm.close_line is not None else len(odoc.lines)
        for ln in range(fm.open_line + 1, min(last, len(odoc.lines))):
            if ln != at.line and (km := _KEY_LINE.match(odoc.lines[ln])):
                present.add(km.group(1))
        for key, spec in FIELDS.items():
            if key in present:
                continue
            items.append(T.CompletionItem(
                label=key, kind=T.CompletionItemKind.Property, detail=spec.kind + (" (required)" if spec.required else ""),
                documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=spec.summary),
                text_edit=T.TextEdit(range=T.Range(start=start, end=end), new_text=f"{key}: "),
                sort_text=("0" if spec.required else "1") + key))
        return T.CompletionList(is_incomplete=False, items=items)
    m = _LINK_DEST.search(before)
    if m and not in_frontmatter and doc.files.root is not None:
        typed = m.group(1)
        start = to_lsp_range_pos(ls, odoc.lines, at.line, at.character - len(typed))
        end = to_lsp_range_pos(ls, odoc.lines, at.line, at.character)
        for rel in doc.files.under("references"):
            items.append(T.CompletionItem(label=rel, kind=T.CompletionItemKind.File,
                                          text_edit=T.TextEdit(range=T.Range(start=start, end=end), new_text=rel),
                                          filter_text=rel))
        return T.CompletionList(is_incomplete=False, items=items)
    return None


def to_lsp_range_pos(ls: SkillServer, lines, line: int, col: int) -> T.Position:
    return T.Position(line=line, character=ls.codec.to_client(lines[line], col) if line < len(lines) else 0)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbols(ls: SkillServer, params: T.DocumentSymbolParams):
    res = await ls.result_for(params.text_document.uri)
    if res is None or res.report.document is None:
        return None
    syms = to_lsp_symbols(res.report.document.headings, res.lines, ls.codec)
    return syms if ls.hierarchical_symbols else to_lsp_flat_symbols(syms, params.text_document.uri)


