"""Hover: the grade card anywhere; rule help over a finding; field help over a frontmatter key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol import types as T

from skillgrade.analyzers import Pos

from .. import judge_view
from ..convert import fix_title
from ..render import field_help, grade_card, rule_help
from ..server import SkillServer, server


def cursor(ls: SkillServer, uri: str, pos: T.Position) -> Pos | None:
    doc = ls.docs.get(uri)
    if doc is None:
        return None
    lines = doc.lines
    line = min(max(pos.line, 0), max(len(lines) - 1, 0))
    col = ls.codec.from_client(lines[line], pos.character) if lines else 0
    return Pos(line, col)


# More sections for a SKILL.md's hover, from other feature modules (each appends one at import):
# section(ls, uri, res) -> markdown or None; shown under the grade card (e.g. the last task-suite run).
EXTRA_SECTIONS: list[Callable[[SkillServer, str, Any], str | None]] = []


@server.feature(T.TEXT_DOCUMENT_HOVER)
async def hover(ls: SkillServer, params: T.HoverParams) -> T.Hover | None:
    uri = params.text_document.uri
    res = await ls.result_for(uri)
    if res is None:
        return None
    at = cursor(ls, uri, params.position)
    report, doc = res.report, res.report.document
    parts: list[str] = []
    if at is not None and doc is not None:
        for fld in doc.frontmatter.fields.values():
            if fld.key_range.start.line == at.line and fld.key_range.contains(at) and \
                    (text := field_help(fld.key)) is not None:
                parts.append(text)
        for f, d in zip([f for f in report.findings if f.file is None], res.diagnostics, strict=False):
            if f.range.contains(at) or (f.range.start.line == at.line and f.range.start == f.range.end):
                fx = d.data.get("fix") if isinstance(d.data, dict) else None
                parts.append(rule_help(f.code, f.message, fix_title(fx) if fx else None))
    # the grade card shows anywhere in the file; rule or field help comes first where it applies
    await judge_view.probe_cache(ls, uri, res)  # a judge result entirely in the LLM cache: shown, no call
    st = judge_view.state(ls, uri)
    note = judge_view.judge_markdown(st, res.version) if st is not None else None
    card = grade_card(judge_view.blended(ls, uri, res), ls.runs.get(uri, []), note)
    extra = [text for section in EXTRA_SECTIONS if (text := section(ls, uri, res))]
    md = "\n\n---\n\n".join([*parts, card, *extra])
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=md))
