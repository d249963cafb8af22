"""Build a SkillDocument from text: the only importer of YAML; markdown-it is loaded lazily (here and in fastmd)."""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from . import codespan, fastmd, rx
from .document import (
    CodeBlock,
    Field,
    Frontmatter,
    Heading,
    LineIndex,
    Link,
    ProseLine,
    SkillDocument,
    SkillFiles,
    YamlProblem,
    yaml_mark_pos,
    yaml_node_range,
)
from .findings import Pos, Range
from .lazy_re import lazy_compile
from .workspace import BUNDLE_SKIP_DIRS, is_manifest_name

try:  # the C loader is ~10x faster; fall back to pure Python where libyaml is missing
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

MAX_ANALYSED_CHARS = 2_000_000  # larger texts get frontmatter checks only (FILE_TOO_LARGE)
MAX_FILES = 5_000
MAX_FRONTMATTER_KEYS = 2_000  # more keys are reported (FILE_TOO_LARGE) and not checked

_DELIM = rx.compile(r"^(?:\ufeff)?---[ \t]*$")
_CLOSE = rx.compile(r"^(?:---|\.\.\.)[ \t]*$")
_DISABLE = lazy_compile(r"<!--\s*skillgrade-(disable-next-line|disable)(?![\w-])")  # then codes, then -->


@lru_cache(maxsize=1)
def markdown_parser():
    """The lean markdown-it configuration: CommonMark + tables, no inline rules we never read."""
    import sys

    from markdown_it import MarkdownIt

    class _Quiet:  # markdown-it logs every block rule call at DEBUG: ~5% of parse time
        def debug(self, *a: object, **k: object) -> None:
            pass

    for name, mod in list(sys.modules.items()):
        if name.startswith("markdown_it.") and hasattr(mod, "LOGGER"):
            mod.LOGGER = _Quiet()  # type: ignore[attr-defined]

    md = MarkdownIt("commonmark", {"html": True})
    md.enable("table")
    md.block.ruler.at("table", _lean_table)
    md.disable(
        ["emphasis", "entity", "text_join", "balance_pairs", "fragments_join", "smartquotes", "replacements"],
        ignoreInvalid=True,
    )
    md.core.ruler.disable(["inline"])  # run per token, only where links can be (see _parse_body)
    md.normalizeLink = lambda url: url  # keep destinations exactly as written
    md.normalizeLinkText = lambda url: url
    md.validateLink = lambda url: True
    return md


def _lean_table(state: Any, start: int, end: int, silent: bool) -> bool:
    """GFM tables as markdown-it recognises them, as one token per row.

    markdown-it's own rule makes five tokens per cell and splits every row character by character
    (a third of the whole parse on real skills); we read only a table's lines and the links in it.
    """
    if start + 2 > end:
        return False
    delim = start + 1
    if state.sCount[delim] < state.blkIndent or state.is_code_block(delim):
        return False
    src = state.src
    row = src[state.bMarks[delim] + state.tShift[delim]:state.eMarks[delim]]
    head = src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]].strip()
    if state.is_code_block(start):
        return False
    width = fastmd.table_width(head, row)
    if not width:
        return False
    if silent:
        return True
    terminators = state.md.block.ruler.getRules("blockquote")
    old_parent, state.parentType = state.parentType, "table"
    opened = state.push("table_open", "table", 1)
    tok = state.push("inline", "", 0)
    tok.map, tok.content, tok.children = [start, start + 1], head, []
    line, filled = start + 2, 0
    while line < end:
        if state.sCount[line] < state.blkIndent:
            break
        if any(rule(state, line, end, True) for rule in terminators):
            break
        text = src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]].strip()
        if not text or state.is_code_block(line):
            break
        filled += width - len(fastmd.cells(text))
        if filled > fastmd.MAX_FILLED_CELLS:
            break
        tok = state.push("inline", "", 0)
        tok.map, tok.content, tok.children = [line, line + 1], text, []
        line += 1
    state.push("table_close", "table", -1)
    opened.map = [start, line]
    state.parentType = old_parent
    state.line = line
    return True


def markdown_tokens(source: str) -> list:
    """Block tokens for the whole source, and the links of each inline where a link or image can be
    (`tok.meta["links"]`, as `fastmd.link_items` gives them).

    Inline parsing is the costlier half of markdown-it and we read inline tokens only for links.
    """
    md = markdown_parser()
    env: dict = {}
    tokens = md.parse(source, env)
    refs = bool(env.get("references"))
    for tok in tokens:
        if tok.type == "inline" and tok.map and ("](" in tok.content or "][" in tok.content
                                                 or (refs and "]" in tok.content)):
            tok.meta["links"] = fastmd.inline_links(tok.content, md, env)  # (`fastmd.link_items`)
    return tokens


def decode(data: bytes) -> tuple[str, bool]:
    """Decode file bytes; returns (text, looks_binary)."""
    binary = b"\x00" in data[:65536]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        binary = True
    return text, binary


# ---------------------------------------------------------------- frontmatter


def _count_key_lines(yaml_lines: list[str]) -> tuple[int, int]:
    """(top-level key lines, where to cut): the cut is the line of key MAX_FRONTMATTER_KEYS + 2, so
    composing stops there (PyYAML composes 10^5 keys in seconds) while the key count stays exact
    enough to report. A top-level key line starts in column 0 and is no comment, list item or marker."""
    count = 0
    cut = len(yaml_lines)
    for i, line in enumerate(yaml_lines):
        if line and line[0] not in " \t#-." and ":" in line:
            count += 1
            if count == MAX_FRONTMATTER_KEYS + 2 and cut == len(yaml_lines):
                cut = i
    return count, cut


def _body_heading(lines: list[str], start: int, error: int) -> int | None:
    """The markdown heading after a blank line, with no `key:` line between it and the frontmatter's YAML error
    (`# Orchestrator Mode`, which YAML reads as a comment, then prose): where the body begins when the closing
    `---` was left out, and the frontmatter ran on to a `---` further down. A comment heading a group of keys
    (`# === CORE IDENTITY ===` then `name: …`) is not one."""
    found = None
    for j in range(start + 1, min(error, len(lines))):
        t = lines[j]
        if t.startswith("#"):
            k = len(t) - len(t.lstrip("#"))
            if found is None and k <= 6 and t[k:k + 1] == " " and t[k + 1:k + 2].strip() and not lines[j - 1].strip():
                found = j
        elif _KEY_LINE.match(t) is not None:
            found = None  # YAML goes on below it: a comment among the keys
    return found


# `name: x`, `  - id:`, `tags:` (the blanks after the dash only with the dash: `[ \t]*-?[ \t]*` split a run of
# blanks two ways, 1.6 s on a line of 10^4 blanks before a word)
_KEY_LINE = lazy_compile(r"[ \t]*(?:-[ \t]*)?[\w.-]{1,80}:(?:[ \t]|$)")


def _parse_frontmatter(index: LineIndex) -> tuple[Frontmatter, int]:
    lines = index.lines
    fm = Frontmatter()
    first = 0
    # a leading blank line before `---` still counts as "no frontmatter" for Claude Code
    if not lines or not _DELIM.match(lines[0]):
        return fm, 0
    fm.present = True
    fm.open_line = first
    close = None
    for i in range(first + 1, len(lines)):
        if _CLOSE.match(lines[i]):
            close = i
            break
    if close is None:
        fm.terminated = False
        return fm, len(lines)
    fm.terminated = True
    fm.close_line = close
    body_start = close + 1
    yaml_lines = lines[first + 1 : close]
    offset = first + 1
    keys_seen, cut = _count_key_lines(yaml_lines)
    source = "\n".join(yaml_lines[:cut])  # past MAX_FRONTMATTER_KEYS keys: not composed at all
    if not source.strip():
        fm.root_kind = "empty"
        return fm, body_start
    try:
        root = yaml.compose(source, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = yaml_mark_pos(mark, offset, index) if mark else Pos(offset, 0)  # (in the file's lines, not YAML's)
        line, col = at.line, at.character
        last = close - 1 if close - 1 >= offset else offset
        if line > last:  # the C loader reports "end of stream" one line past the YAML: point at its end
            line, col = last, len(lines[last]) if last < len(lines) else 0
        text = lines[line] if line < len(lines) else ""
        col = min(col, len(text))
        problem = (exc.problem or "invalid YAML").strip()
        kind = "syntax"
        tab = "\t" in problem or "\\t" in problem or "\t" in text[: col + 1]
        if tab:
            problem = "a tab character cannot indent YAML; use spaces"
            if "\t" in text:
                col = text.index("\t")
        msg = f"YAML syntax error: {problem}"
        if exc.context and exc.context not in problem and not tab:
            msg += f" ({exc.context.strip()})"
        heading = _body_heading(lines, offset, line)
        if heading is not None:
            shown = lines[heading].strip()
            shown = shown if len(shown) <= 40 else shown[:39] + "…"
            msg += f"; is the closing `---` missing before line {heading + 1} (`{shown}`)?"
        end = col + 1 if col < len(text) else col
        fm.problems.append(YamlProblem(kind, msg, Range(Pos(line, col), Pos(line, end))))
        return fm, body_start
    except yaml.YAMLError as exc:  # reader errors (e.g. control characters)
        msg = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        fm.problems.append(YamlProblem("syntax", f"YAML error: {msg}", index.line_range(offset)))
        return fm, body_start
    except RecursionError:
        fm.problems.append(
            YamlProblem("syntax", "YAML is nested too deeply to read", index.line_range(offset))
        )
        return fm, body_start
    if root is None:
        fm.root_kind = "empty"
        return fm, body_start
    kind = type(root).__name__
    fm.root_range = yaml_node_range(root, offset, index)
    if kind != "MappingNode":
        fm.root_kind = "sequence" if kind == "SequenceNode" else "scalar"
        return fm, body_start
    loader = _Loader("")
    seen: dict[str, Range] = {}
    pairs = root.value
    if len(pairs) > MAX_FRONTMATTER_KEYS or cut < len(yaml_lines):
        fm.problems.append(YamlProblem(
            "too-large", f"Frontmatter has {max(len(pairs), keys_seen):,} top-level keys; only the first "
            f"{MAX_FRONTMATTER_KEYS:,} were checked", index.trimmed_line_range(fm.open_line)))
        pairs = pairs[:MAX_FRONTMATTER_KEYS]
    for key_node, value_node in pairs:
        key_range = yaml_node_range(key_node, offset, index)
        try:
            key = loader.construct_object(key_node, deep=True)
        except Exception:  # noqa: BLE001 - unhashable or odd keys are data, not crashes
            key = key_node.value if isinstance(key_node.value, str) else repr(key_node.value)
        if not isinstance(key, str):
            key = str(key)
        if key in seen:
            fm.problems.append(
                YamlProblem(
                    "duplicate",
                    f"Duplicate key `{key}`: YAML readers disagree on which value wins",
                    key_range,
                    key=key,
                    first_range=seen[key],
                )
            )
        seen[key] = key_range
        try:
            value = loader.construct_object(value_node, deep=True)
        except RecursionError:
            value = None
            fm.problems.append(YamlProblem("syntax", f"Value of `{key}` is nested too deeply", key_range))
        except Exception as exc:  # noqa: BLE001
            value = None
            fm.problems.append(
                YamlProblem("syntax", f"Cannot read value of `{key}`: {str(exc).splitlines()[0]}", key_range)
            )
        style = (getattr(value_node, "style", None) or None) if type(value_node).__name__ == "ScalarNode" else None
        fld = Field(key, key_range, value, yaml_node_range(value_node, offset, index), value_node, style)
        fm.fields[key] = fld  # last wins, as PyYAML does
        fm.data[key] = value
    return fm, body_start


# ---------------------------------------------------------------- markdown body


def _blank_code_spans(text: str) -> str:
    """A prose line with its closed HTML comments, then its code spans, blanked (spaces; offsets kept)."""
    start = text.find("<!--")
    if start >= 0:
        pieces: list[str] = []
        last = 0
        while start >= 0:
            end = text.find("-->", start + 4)
            if end < 0:
                break  # no later comment can close either
            pieces += [text[last:start], " " * (end + 3 - start)]
            last = end + 3
            start = text.find("<!--", last)
        text = "".join(pieces) + text[last:]
    return codespan.blank_code_spans(text) if "`" in text else text


_SURROGATE = lazy_compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    """Whether the text holds a surrogate code point (U+D800-U+DFFF), as `_SURROGATE.search` would say: an ASCII text
    cannot, and the UTF-16 encoder refuses exactly those code points, at ~7 instructions a character where the
    character-class search costs ~45 (250 M instructions over the shared corpus's texts, nearly all of them
    non-ASCII: one dash makes a text UCS-2)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-16-le")
    except UnicodeEncodeError:
        return True
    return False


_ATX = rx.compile(r"^#{1,6}(?:[ \t]|$)")
_FENCE_OPEN = rx.compile(r"^ {0,3}(`{3,}|~{3,})")
_HTML_RAW = rx.compile(r"^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)", re.I)


def _sections(lines: list[str], start: int) -> list[tuple[int, int]]:
    """Split the body at ATX headings in column 0 that no fence, comment or raw HTML block holds.

    Such a heading always starts a new top-level block in CommonMark, so each section parses
    independently, and an edit only re-parses the section it touches (see _section_facts).
    """
    cuts = [start]
    fence: str | None = None
    html_end: str | None = None
    for ln in range(start, len(lines)):
        line = lines[ln]
        if fence is None and html_end is None and (not line or line[0] not in "#`~ <"):
            continue  # the common case: a line that can open nothing we track
        if fence is not None:
            stripped = line.lstrip(" ")
            if len(line) - len(stripped) <= 3 and stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                fence = None
            continue
        if html_end is not None:
            if html_end in line.lower():
                html_end = None
            continue
        m = _FENCE_OPEN.match(line)
        if m:
            marker = m.group(1)
            if not (marker[0] == "`" and "`" in line[m.end():]):
                fence = marker
            continue
        lstripped = line.lstrip(" ")
        if lstripped.startswith("<!--") and len(line) - len(lstripped) <= 3:
            if "-->" not in lstripped[4:]:
                html_end = "-->"
            continue
        if _HTML_RAW.match(line):
            tag = line.strip()[1:].split(">")[0].split()[0].lower()
            if f"</{tag}>" not in line.lower():
                html_end = f"</{tag}>"
            continue
        if ln > start and _ATX.match(line) and "|" not in line:
            cuts.append(ln)
    cuts.append(len(lines))
    return [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1) if cuts[i] < cuts[i + 1]]


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the rules need from one markdown section, with lines relative to the section."""

    headings: tuple  # (level, text, line)
    blocks: tuple  # (lang, info, content, fenced, a, b, closed)
    tables: tuple  # (a, b)
    quoted: tuple  # (a, b)
    comments: tuple  # (a, b)
    links: tuple  # (target, label, l1, c1, l2, c2, fl1, fc1, fl2, fc2, is_image)
    html: tuple = ()  # (a, b, kind): HTML blocks, kind 1-7 as CommonMark numbers them


@lru_cache(maxsize=4096)
def _section_facts(source: str) -> _Facts:
    fast = fastmd.scan(source, markdown_parser, _collect_links)  # plain markdown: one pass over the lines
    return _Facts(*fast) if fast is not None else markdown_facts(source)


def markdown_facts(source: str) -> _Facts:
    """The facts from markdown-it's tokens (the reference fastmd.scan must agree with)."""
    tokens = markdown_tokens(source)
    lines = source.split("\n")
    headings, blocks, tables, quoted, comments, links, html = [], [], [], [], [], [], []
    n = len(tokens)
    for i, tok in enumerate(tokens):
        t = tok.type
        if t == "heading_open" and tok.map:
            inline = tokens[i + 1] if i + 1 < n else None
            headings.append((int(tok.tag[1]), (inline.content if inline is not None else "").strip(), tok.map[0]))
        elif t in ("fence", "code_block") and tok.map:
            fenced = t == "fence"
            info = tok.info.strip() if fenced else ""
            lang = info.split()[0].strip("{}.").lower() if info else ""
            closed = _fence_closed(tok) if fenced else True
            blocks.append((lang, info, tok.content, fenced, tok.map[0], tok.map[1], closed))
        elif t == "table_open" and tok.map:
            tables.append((tok.map[0], tok.map[1]))
        elif t == "blockquote_open" and tok.map:
            quoted.append((tok.map[0], tok.map[1]))
        elif t == "html_block" and tok.map:
            if tok.content.lstrip().startswith("<!--"):
                comments.append((tok.map[0], tok.map[1]))
            html.append((tok.map[0], tok.map[1], fastmd.html_kind(tok.content.split("\n", 1)[0].lstrip(" \t"))))
        elif t == "inline" and tok.map and tok.meta.get("links"):
            _collect_links(tok.map[0], tok.map[1], tok.meta["links"], lines, links)
    return _Facts(tuple(headings), tuple(blocks), tuple(tables), tuple(quoted), tuple(comments), tuple(links),
                  tuple(html))


def _fence_closed(tok: Any) -> bool:
    """Whether markdown-it found this fence's closing line (its token does not say).

    A closed fence's map ends just after its closer, and every content line keeps its line feed. An
    unclosed one runs to the end of its container: its map holds one more content line, and that line
    lacks its line feed only at the end of a text without a final newline.
    """
    a, b = tok.map
    content = tok.content
    return b - a >= 2 and content.count("\n") == b - a - 2 and (not content or content[-1] == "\n")


def _parse_body(doc_lines: list[str], index: LineIndex, body_start: int, doc: dict,
                incremental: bool = False, links_only: bool = False) -> None:
    headings: list[Heading] = doc["headings"]
    blocks: list[CodeBlock] = doc["code_blocks"]
    links: list[Link] = doc["links"]
    tables: list[tuple[int, int]] = doc["tables"]
    code_lines: set[int] = doc["code_lines"]
    comment_lines: set[int] = doc["comment_lines"]
    html_blocks: list[tuple[int, int, int]] = doc["html_blocks"]
    quoted: set[int] = set()
    body_at = index.starts[body_start] if body_start < len(index.starts) else len(index.text)
    has_defs = index.text.find("]:", body_at) >= 0 and fastmd.may_define(doc_lines[body_start:])
    # reference definitions are document-wide: then parse the body as one section
    parts = [(body_start, len(doc_lines))] if has_defs else _sections(doc_lines, body_start)
    facts = _section_facts if incremental else _section_facts.__wrapped__  # one-off texts: no cache entry
    for a0, b0 in parts:
        source = "\n".join(doc_lines[a0:b0])
        if links_only and not has_defs and "](" not in source and "][" not in source:
            continue  # a section with no link syntax: no link (sections parse independently)
        f = facts(source)
        for level, text, line in f.headings:
            line += a0
            src = doc_lines[line]
            rng = Range(Pos(line, len(src) - len(src.lstrip())), Pos(line, len(src.rstrip())))
            headings.append(Heading(level, text, line, rng))
        for lang, info, content, fenced, a, b, closed in f.blocks:
            a += a0
            b += a0
            code_lines.update(range(a, b))
            src = doc_lines[a] if a < len(doc_lines) else ""
            rng = Range(Pos(a, len(src) - len(src.lstrip())), Pos(a, len(src.rstrip())))
            blocks.append(CodeBlock(lang, info, content, fenced, a, b, rng, a + 1 if fenced else a, closed))
        html_blocks.extend((a + a0, b + a0, kind) for a, b, kind in f.html)
        tables.extend((a + a0, b + a0) for a, b in f.tables)
        for a, b in f.quoted:
            quoted.update(range(a + a0, b + a0))
        for a, b in f.comments:
            comment_lines.update(range(a + a0, b + a0))
        for target, label, l1, c1, l2, c2, fl1, fc1, fl2, fc2, img in f.links:
            links.append(Link(target, label, Range(Pos(l1 + a0, c1), Pos(l2 + a0, c2)),
                              (fl1 + a0, fc1, fl2 + a0, fc2), img, "image" if img else "link"))
    doc["quoted"] = quoted
    # definitions ([x]: target) produce no inline tokens; find them in the text
    if has_defs:
        for ln in range(body_start, len(doc_lines)):
            if ln in code_lines:
                continue
            m = re.match(r"^ {0,3}\[[^\]^][^\]]*\]:\s*<?([^\s>]+)", doc_lines[ln])  # [^1]: a footnote
            if m and _definition_end(doc_lines[ln], m.end()):
                rng = Range(Pos(ln, m.start(1)), Pos(ln, m.end(1)))
                links.append(Link(m.group(1), "", rng, (ln, 0, ln, len(doc_lines[ln])), kind="definition"))


def _definition_end(line: str, at: int) -> bool:
    """What follows a definition's destination ends it as CommonMark reads it: nothing, or a title (`"…"`,
    `'…'`, `(…)`) after a space. `[PROJECT]: [Name] — one line on it` is a template's prose, not a definition."""
    rest = line[at + 1:] if line[at:at + 1] == ">" else line[at:]
    tail = rest.lstrip(" \t")
    return not tail or (len(tail) < len(rest) and tail[0] in "\"'(")


def _collect_links(a: int, b: int, items: list, lines: list[str], links: list) -> None:
    """Link facts of the inline text on lines a..b from its `fastmd.link_items`: each destination
    found in the source lines after the previous one, with its range and the whole construct's."""
    region = lines[a:b]
    text = "\n".join(region)
    one_line = len(region) == 1
    starts = [0]
    if not one_line:
        for ln in region[:-1]:
            starts.append(starts[-1] + len(ln) + 1)

    def to_pos(off: int) -> tuple[int, int]:
        i = max(0, bisect_right(starts, off) - 1)
        return a + i, off - starts[i]

    cursor = 0
    find, rfind = text.find, text.rfind
    for target, label, img in items:
        found = find("(" + target, cursor)
        if found >= 0:
            found += 1
        else:
            for probe in ("(<" + target, "( " + target):
                found = find(probe, cursor)
                if found >= 0:
                    found += len(probe) - len(target)
                    break
        if found < 0:
            if label.startswith("^"):
                continue  # a footnote reference ([^1]) that markdown-it reads as a reference link
            found = find(target, cursor)
        if found < 0:
            # a reference-style link ([t][ref]): its destination is on the definition line, which is
            # collected (and checked) as a "definition" link; the usage adds nothing to check
            continue
        open_at = rfind("[", 0, found)
        if open_at > 0 and text[open_at - 1] == "!":
            open_at -= 1
        end = found + len(target)
        close_at = find(")", end)
        first = open_at if open_at >= 0 else found
        last = close_at + 1 if close_at >= 0 else end
        if one_line:  # most links: no line arithmetic
            links.append((target, label, a, found, a, end, a, first, a, last, img))
        else:
            i = bisect_right(starts, found) - 1
            s0 = starts[i]
            if s0 <= first and (i + 1 == len(starts) or last < starts[i + 1]):  # the whole link on one line
                ln = a + i
                links.append((target, label, ln, found - s0, ln, end - s0, ln, first - s0, ln, last - s0, img))
                cursor = end
                continue
            l1, c1 = to_pos(found)
            l2, c2 = to_pos(end)
            fl1, fc1 = to_pos(first)
            fl2, fc2 = to_pos(last)
            links.append((target, label, l1, c1, l2, c2, fl1, fc1, fl2, fc2, img))
        cursor = end


def _prose(doc_lines: list[str], body_start: int, skip: set[int], quoted: set[int]) -> list[ProseLine]:
    out = []
    in_comment = False
    for ln in range(body_start, len(doc_lines)):
        if ln in skip:
            continue
        line = doc_lines[ln]
        if not in_comment and "`" not in line and "<" not in line:
            out.append(ProseLine(ln, line, ln in quoted))  # most lines: nothing to blank
            continue
        if in_comment:
            end = line.find("-->")
            if end < 0:
                continue
            line = " " * (end + 3) + line[end + 3 :]
            in_comment = False
        start = line.find("<!--")
        if start >= 0 and line.find("-->", start) < 0:
            line = line[:start]
            in_comment = True
        if "`" in line or "<!--" in line:
            line = _blank_code_spans(line)
        out.append(ProseLine(ln, line, ln in quoted))
    return out


def _disabled(doc_lines: list[str], code_lines: set[int]) -> dict[str, set[int] | None]:
    out: dict[str, set[int] | None] = {}
    for ln, line in enumerate(doc_lines):
        if "skillgrade-" not in line or ln in code_lines:
            continue
        for kind, listed in _directives(line):
            codes = [c for c in re.split(r"[\s,]+", listed.strip()) if c] or ["ALL"]
            nxt = ln + 1  # the next non-blank line after the comment
            if kind != "disable":
                while nxt < len(doc_lines) and not doc_lines[nxt].strip():
                    nxt += 1
            for code in codes:
                code = code.upper()
                if kind == "disable":
                    out[code] = None
                else:
                    cur = out.setdefault(code, set())
                    if cur is not None:
                        cur.add(nxt)
    return out


def _directives(line: str):
    """(kind, listed codes) of each `<!-- skillgrade-disable[-next-line] CODES -->` on a line: what
    `<!--\\s*skillgrade-(disable-next-line|disable)(?![\\w-])([^>]*?)-->` finds, in linear time (that
    regex re-scanned the rest of the line from every opener when no `>` closed it)."""
    pos = 0
    gt = -1  # the first `>` at or after the current directive
    while True:
        m = _DISABLE.search(line, pos)
        if m is None:
            return
        if gt < m.end():
            gt = line.find(">", m.end())
            if gt < 0:
                return  # nothing closes this directive or any later one
        if gt - 2 >= m.end() and line[gt - 2:gt] == "--":
            yield m.group(1), line[m.end():gt - 2]
            pos = gt + 1
        else:
            pos = m.start() + 1


# ---------------------------------------------------------------- files


def scan_skill_files(skill_dir: Path | None, root: Path | None = None) -> SkillFiles:
    """Every file under the skill directory (relative posix paths), bounded and loop-safe."""
    if skill_dir is None or not skill_dir.is_dir():
        return SkillFiles(None)
    root_real = os.path.realpath(root) if root else None
    found: list[str] = []
    empty: set[str] = set()
    seen_dirs: set[str] = set()
    truncated = False
    stack = [(str(skill_dir), "")]
    while stack:
        real_dir, rel = stack.pop()
        try:
            rp = os.path.realpath(real_dir)
        except OSError:
            continue
        if rp in seen_dirs:
            continue
        if root_real and not (rp == root_real or rp.startswith(root_real + os.sep)):
            continue  # never follow a symlink out of the workspace
        seen_dirs.add(rp)
        try:
            entries = sorted(os.scandir(real_dir), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            name = e.name
            rel_name = f"{rel}{name}"
            try:
                if e.is_dir():
                    if name in BUNDLE_SKIP_DIRS:
                        continue
                    stack.append((e.path, rel_name + "/"))
                elif e.is_file():
                    if not rel and is_manifest_name(name):
                        continue  # the skill's own file (SKILL.md, or a `skill.md` that SKILL_FILE_NAME reports)
                    found.append(rel_name)
                    if rel_name.startswith(("references/", "assets/")) and e.stat().st_size == 0:
                        empty.add(rel_name)
                    if len(found) >= MAX_FILES:
                        truncated = True
                        stack.clear()
                        break
            except OSError:
                continue
    found.sort()
    return SkillFiles(skill_dir, tuple(found), truncated, frozenset(empty))


# ---------------------------------------------------------------- entry point


def parse(
    text: str,
    path: str | os.PathLike | None = None,
    *,
    files: SkillFiles | None = None,
    workspace_root: str | os.PathLike | None = None,
    binary: bool = False,
    incremental: bool = False,
    links_only: bool = False,
) -> SkillDocument:
    """Parse a SKILL.md text once. Never raises on bad input.

    incremental=True (the language server) parses the body section by section through a cache, so
    an edit re-parses only the section it touched; batch runs parse each body in one go.
    links_only=True (a bundled file read for its links) skips the sections without link syntax: the
    document's links are exact, its headings, code blocks and tables cover only the linked sections.
    """
    p = Path(path) if path is not None else None
    root = Path(workspace_root) if workspace_root is not None else None
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]  # editors hide the BOM too, so columns match theirs (UTF8_BOM reports it)
    if "\x00" in text:
        binary = True
        text = text.replace("\x00", "\ufffd")
    if _has_surrogate(text):  # lone surrogates (possible in editor buffers) cannot be encoded
        text = _SURROGATE.sub("\ufffd", text)
    index = LineIndex(text)
    lines = index.lines
    fm, body_start = _parse_frontmatter(index)
    parts: dict[str, Any] = {
        "headings": [],
        "code_blocks": [],
        "links": [],
        "tables": [],
        "code_lines": set(),
        "comment_lines": set(),
        "quoted": set(),
        "html_blocks": [],
    }
    too_large = len(text) > MAX_ANALYSED_CHARS
    if not binary and not too_large and body_start < len(lines):
        try:
            _parse_body(lines, index, body_start, parts, incremental, links_only)
        except RecursionError:  # pathological nesting: keep what we have
            pass
    headings: list[Heading] = parts["headings"]
    open_: list[Heading] = []  # a section ends at the next heading of the same or a higher level
    for h in headings:
        while open_ and open_[-1].level >= h.level:
            open_.pop().end_line = h.line
        open_.append(h)
    for h in open_:
        h.end_line = len(lines)
    skip = parts["code_lines"] | parts["comment_lines"]
    quoted = parts["quoted"]
    make_prose = None if (binary or too_large) else (lambda: _prose(lines, body_start, skip, quoted))
    table_lines: set[int] = set()
    for a, b in parts["tables"]:
        table_lines.update(range(a, b))
    if files is None:
        files = scan_skill_files(p.parent if p is not None else None, root)
    doc = SkillDocument(
        text=text,
        path=p,
        index=index,
        frontmatter=fm,
        body_start_line=body_start,
        headings=headings,
        code_blocks=parts["code_blocks"],
        links=parts["links"],
        _make_prose=make_prose,
        tables=parts["tables"],
        disabled=_disabled(lines, parts["code_lines"]) if not binary else {},
        files=files,
        workspace_root=root,
        binary=binary,
        code_lines=parts["code_lines"],
        table_lines=table_lines,
        html_comment_lines=parts["comment_lines"],
        html_blocks=parts["html_blocks"],
        too_large=too_large,
        bom=bom,
    )
    return doc
