"""A line scanner for the plain markdown most skills are written in: the facts markdown-it would give.

markdown-it-py's block parser costs about as much as every rule together. Most sections of real
skills hold only ATX headings, paragraphs, simple lists, column-0 fenced code, top-level tables,
HTML blocks (comments above all) and block quotes of plain paragraphs; for those one pass over the
lines finds the same headings, code blocks, tables, quotes, comments and links (`simple_links` reads
plain `[text](dest)` links; markdown-it's inline parser reads the rest). Any construct whose meaning
depends on container context (indented or nested fences, setext headings, indented code, lazy quote
lines, blocks nested in list items, tabs, reference definitions, ...) makes `scan` return None, and
the caller parses that section with markdown-it. Tests compare both on every corpus section and on
generated documents: whenever `scan` answers, its answer equals markdown-it's.

Returns plain tuples in the layout of parse._Facts (lines relative to the section)."""

from __future__ import annotations

import re
from functools import lru_cache

from . import rx
from .codespan import blank_code_spans

_ATX = rx.compile(r"#{1,6}(?:[ \t]|$)")
_BULLET = rx.compile(r"[-+*](?: |$)")
_ORDERED = rx.compile(r"(\d{1,9})[.)](?: |$)")
_HR = rx.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT = rx.compile(r"(?:=+|-+)[ \t]*$")
_DELIM_CELL = rx.compile(r"^:?-+:?$")
_UNESCAPED_PIPE = rx.compile(r"(?<!\\)\|")
MAX_FILLED_CELLS = 0x10000

# what a continuation or item line may not start with: these open blocks whose extent needs context
# the first characters of every line that can start or end a block other than a paragraph or a table
_BLOCK_CHARS = frozenset("`~><#=-*_+0123456789")
_RISKY_START = ("#", ">", "<", "```", "~~~", "|")  # (tabs never reach here: scan declines them)


_DEF_START = rx.compile(r"[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+|>[ \t]?)*\[")


def may_define(lines: list[str]) -> bool:
    """Whether a line can hold a link reference definition (`[label]: dest`), which changes how
    links parse everywhere in the document: a `]:` on a line that starts with `[` (after indentation,
    list and quote markers), or one with no `[` before it (a label opened on an earlier line).
    `see [a]: b`, `{ [key: string]: T }` or `` `[x]: y` `` mid-line cannot."""
    for line in lines:
        k = line.find("]:")
        if k >= 0 and (_DEF_START.match(line) or "[" not in line[:k]):
            return True
    return False


@lru_cache(maxsize=1)
def _html_sequences() -> list:
    """markdown-it's HTML block kinds (opening pattern, closing pattern, can interrupt a paragraph);
    imported on first use, so documents without a `<` line never load markdown-it."""
    from markdown_it.rules_block.html_block import HTML_SEQUENCES

    return HTML_SEQUENCES


def html_kind(line: str) -> int:
    """The CommonMark kind (1-7) of the HTML block this line (indentation removed) would open, or 0."""
    if not line.startswith("<"):
        return 0
    return next((k for k, q in enumerate(_html_sequences(), 1) if q[0].search(line)), 0)


def cells(line: str) -> list[str]:
    """A table row's cells, as markdown-it splits them (unescaped pipes; outer empty cells dropped)."""
    line = line.strip()
    cells = _UNESCAPED_PIPE.split(line) if "\\" in line else line.split("|")  # no backslash: every pipe splits
    if cells and not cells[0].strip():
        cells.pop(0)
    if cells and not cells[-1].strip():
        cells.pop()
    return cells


def table_width(head: str, delim: str) -> int:
    """Columns of a table opened by these two lines (markdown-it's rules), or 0 when they open none."""
    row = delim.lstrip(" ")
    if len(delim) - len(row) > 3 or len(row) < 2 or row[0] not in "|-:":
        return 0
    if row[1] not in "|-: \t" or (row[0] == "-" and row[1] in " \t") or row.strip(" \t|-:"):
        return 0
    parts = row.split("|")
    width = 0
    for i, part in enumerate(parts):
        part = part.strip(" \t")
        if not part:
            if i in (0, len(parts) - 1):
                continue
            return 0
        if not _DELIM_CELL.match(part):
            return 0
        width += 1
    h = head.strip()
    if "|" not in h or width == 0 or len(cells(h)) != width:
        return 0
    return width


def _ends_table(s: str, indent: int) -> bool:
    """A line that ends a table body: what interrupts a block quote (a quote, rule, list item or
    heading here; fences and HTML lines make the caller decline, since not every one interrupts)."""
    if indent >= 4:
        return True
    return bool(s.startswith(">") or _ATX.match(s) or _HR.match(s)
                or _BULLET.match(s) or _ORDERED.match(s))


def _heading_text(s: str, level: int) -> str:
    rest = s[level:].rstrip(" \t")
    bare = rest.rstrip("#")
    if len(bare) < len(rest) and bare and bare[-1] in " \t":
        rest = bare
    return rest.strip()


def atx_heading_text(line: str) -> str | None:
    """The text of an ATX heading line as the scan reads one (up to three blanks, one to six `#`, a blank or the
    line's end; closing hashes after a blank dropped), or None for any other line."""
    s = line.lstrip(" ")
    if len(line) - len(s) > 3 or not s.startswith("#") or not _ATX.match(s):
        return None
    return _heading_text(s, len(s) - len(s.lstrip("#")))


def _quote(lines: list[str], i: int, n: int, inlines: list) -> tuple[int, int] | None:
    """A block quote of plain paragraphs from line i to a blank line: (its end, its map's end), or None.

    Every line must carry its `>` (a lazy line's meaning depends on context) and hold plain text.
    """
    j = i
    para: list[str] = []
    start = i
    found: list[tuple[int, int, str]] = []
    while j < n:
        t = lines[j]
        ts = t.lstrip(" ")
        if not ts:
            break
        if len(t) - len(ts) > 3 or ts[0] != ">":
            return None
        inner = ts[1:]
        if inner.startswith(" "):
            inner = inner[1:]
        if not inner.strip():
            if para:
                found.append((start, j, "\n".join(para).strip()))
                para = []
            j += 1
            continue
        if inner[0] == " " or "|" in inner or inner.startswith(_RISKY_START) or _HR.match(inner) \
                or _SETEXT.match(inner) or _BULLET.match(inner) or _ORDERED.match(inner):
            return None
        if not para:
            start = j
        para.append(inner)
        j += 1
    if para:
        found.append((start, j, "\n".join(para).strip()))
    inlines.extend(f for f in found if "](" in f[2] or "][" in f[2])
    return j, _quote_map_end(lines, i, j, n, found)


def _quote_map_end(lines: list[str], i: int, j: int, n: int, paras: list) -> int:
    """Where markdown-it ends a quote's map: its inner parse skips empty lines up to the document's
    end, so trailing empty `>` lines carry the map over the blank lines that follow the quote."""
    ends = {a: b for a, b, _ in paras}

    def empty(k: int) -> bool:
        t = lines[k]
        if k >= j:
            return not t.strip()
        inner = t.lstrip(" ")[1:]
        return not inner.strip()

    line = state = i
    while line < j:
        while line < n and empty(line):
            line += 1
        state = line
        if line >= j:
            break
        line = state = ends[line]
        if line < j and empty(line):
            line += 1
            state = line
    return state


_SIMPLE_LINK = rx.compile(r'(!?)\[([^\[\]\n\0]*)\]\(([^\s()<>\\\0]+)(?: +"[^"\\\n\0]*")?\)')


def simple_links(content: str) -> list | None:
    """The links of inline text whose only brackets are plain `[text](dest)` links and images (code
    spans allowed outside them; no escapes, HTML, autolinks, nested or reference brackets), as
    `link_items` gives them; None otherwise. One tuple a link: a link-dense text costs no tokens."""
    if "\0" in content:
        return None
    if "`" in content:
        content = blank_code_spans(content, "\0")
    if "\\" in content or "<" in content:
        return None
    out: list = []
    last = 0
    for m in _SIMPLE_LINK.finditer(content):
        start = m.start()
        if start > last:
            gap = content[last:start]
            if "[" in gap or "]" in gap:
                return None
        bang, label, dest = m.groups()
        out.append((dest, label, bool(bang)))
        last = m.end()
    tail = content[last:]
    if "[" in tail or "]" in tail:
        return None
    return out


def link_items(children: list) -> list:
    """(destination, label, is_image) of each link and image among markdown-it inline tokens (and the
    items among them), in order; autolinks (`<https://…>`, linkify) and empty destinations left out."""
    out: list = []
    n = len(children)
    for j, child in enumerate(children):
        if child.__class__ is tuple:
            out.append(child)  # an item already (`inline_links`' plain links)
            continue
        ct = child.type
        if ct != "link_open" and ct != "image":
            continue
        target = child.attrGet("src" if ct == "image" else "href")
        if not isinstance(target, str) or not target:
            continue
        if child.markup == "autolink" or child.info == "auto":
            continue  # <https://...> autolinks are always URLs
        if ct == "image":
            label = child.content
        else:
            k = j + 1
            parts = []
            while k < n and children[k].type != "link_close":
                parts.append(children[k].content)
                k += 1
            label = "".join(parts)
        out.append((target, label, ct == "image"))
    return out


# a link or image markdown-it's rules would read exactly so: a label of characters no inline rule
# starts at (no brackets, backticks, `<`, escapes, line feeds), a destination of characters that
# markdown-it keeps verbatim (no spaces or controls, parentheses, `<>`, escapes or entities), at most
# a plain double-quoted title, and the closing parenthesis right after
_EXACT_LINK = rx.compile(r'\[([^\[\]`<\\\n\0]*)\]\(([^\x00-\x20\x7f()<>\\&]+)(?: +"[^"\\\n\0]*")?\)')


def _plain_link_at(src: str, pos: int) -> re.Match[str] | None:
    """The plain link (`[…](…)`) or image (`![…](…)`) starting at `pos` that markdown-it's link or image rule would
    read exactly so (_EXACT_LINK), or None."""
    ch = src[pos]
    if ch == "!":
        return _EXACT_LINK.match(src, pos + 1) if src.startswith("[", pos + 1) else None
    return _EXACT_LINK.match(src, pos) if ch == "[" else None


def _skip_alt_text(src: str, md, env: dict, tokens: list) -> None:
    """The inline parser's `parse` as the image rule sees it: it calls `parse` only to turn an image's label into
    alt-text tokens (`token.children`), which `link_items` never reads (it takes an image's label from its
    `content`); an image whose label holds 10^4 images (`![![a](b)![a](b)…](c)`) cost ~100 µs an inner image to
    parse for nothing. The tokens are left empty."""
    return None


_WITHOUT_ALT_TEXT: dict[int, tuple] = {}


def _parser_without_alt_text(md):
    """The MarkdownIt parser as inline_links' rules see it (`state.md`): a copy of `md` whose inline parser's
    `parse` is _skip_alt_text and whose `skipToken` (a label's scan steps over one token) takes the plain-link
    shortcut: a plain link or image (`_EXACT_LINK`) is stepped over by one match, as the link or image rule would
    in validation mode (every rule before them fails at `[` and `![`); a label holding 10^4 images took ~30 µs an
    image. Copies, not wrappers: a label's scan reads `state.md.options` and `state.md.inline` once a token, and
    a forwarding `__getattr__` there made 10^4 nested brackets 4x slower. One copy per parser, made once."""
    made = _WITHOUT_ALT_TEXT.get(id(md))
    if made is not None and made[0] is md:
        return made[1]
    inline = md.inline
    skip_token = inline.skipToken

    def skip_token_plain_links(state) -> None:
        pos = state.pos
        cache = state.cache
        if pos in cache:  # (skipToken's own first step, without its rule lookup)
            state.pos = cache[pos]
            return
        if state.level < state.md.options["maxNesting"]:
            m = _plain_link_at(state.src, pos)
            if m is not None and m.end() <= state.posMax:
                state.pos = cache[pos] = m.end()
                return
        skip_token(state)

    inline_copy = object.__new__(type(inline))
    inline_copy.__dict__.update(vars(inline))
    inline_copy.parse = _skip_alt_text
    inline_copy.skipToken = skip_token_plain_links
    md_copy = object.__new__(type(md))
    md_copy.__dict__.update(vars(md))
    md_copy.inline = inline_copy
    _WITHOUT_ALT_TEXT[id(md)] = (md, md_copy)
    return md_copy


def inline_links(content: str, parser, env: dict) -> list:
    """The links of `content` (`link_items`) as markdown-it's inline parser (parser.inline.parse) reads
    them, with each plain link or image at a position the tokenizer reaches read by one regex match
    instead of markdown-it's rules, and kept as its item, not as tokens.

    Only the top-level loop takes the shortcut, and only where markdown-it's link (or image) rule
    would be the first rule to succeed and would read exactly the matched text: every rule before it
    fails at `[` (and at `!` followed by `[`), and `_EXACT_LINK` admits no character that would make
    the label or destination parsers stop elsewhere. Runs of 10^4 links then cost microseconds each
    instead of markdown-it's ~100 µs (docs/benchmarks.md, fuzzing). (The parser runs no post-processing
    rules (`ruler2`), the only readers of earlier tokens.) An image's label is not parsed into alt-text tokens
    (_parser_without_alt_text): no link item comes from them."""
    from markdown_it.rules_inline import StateInline

    tokens: list = []
    state = StateInline(content, _parser_without_alt_text(parser), env, tokens)
    inline = parser.inline
    rules = inline.ruler.getRules("")
    end = state.posMax
    max_nesting = parser.options["maxNesting"]
    while state.pos < end:
        pos = state.pos
        ch = content[pos]
        if state.level < max_nesting and (ch == "[" or ch == "!"):
            m = _plain_link_at(content, pos)
            if m is not None:
                if state.pending:
                    state.pushPending()
                label, dest = m.groups()
                tokens.append((dest, label, ch == "!"))  # its link item, among markdown-it's tokens
                state.tokens_meta.append(None)
                state.pos = m.end()
                continue
        ok = False
        if state.level < max_nesting:
            for rule in rules:
                ok = rule(state, False)
                if ok:
                    break
        if ok:
            if state.pos >= end:
                break
            continue
        state.append_pending(content[state.pos])
        state.pos += 1
    if state.pending:
        state.pushPending()
    for rule in inline.ruler2.getRules(""):
        rule(state)
    return link_items(tokens)


def scan(source: str, md, collect_links) -> tuple | None:
    """(headings, blocks, tables, quoted, comments, links, html), or None where markdown-it must decide.

    `md` returns the markdown-it parser (called only when an inline needs it, so plain documents never
    import markdown-it); `collect_links` turns `link_items` into link facts (parse._collect_links).
    """
    if "\t" in source or ("]:" in source and may_define(source.split("\n"))):
        return None
    lines = source.split("\n")
    n = len(lines) - 1 if source.endswith("\n") else len(lines)  # markdown-it's line count
    headings: list = []
    blocks: list = []
    tables: list = []
    comments: list = []
    html: list = []
    quoted: list = []
    links: list = []
    inlines: list[tuple[int, int, str]] = []  # (first line, end line, inline content)
    para: list[str] = []  # the open paragraph's lines (stripped)
    para_start = 0
    para_in_list = False  # the open paragraph belongs to a list item
    list_open = False  # a list item may still continue (its content or lazy lines)
    prev = "start"  # kind of the previous line: start blank para heading fence hr table
    i = 0

    def close_para(end: int) -> None:
        nonlocal para
        if para:
            inlines.append((para_start, end, "\n".join(para).strip()))
            para = []

    while i < n:
        line = lines[i]
        s = line.lstrip(" ")
        indent = len(line) - len(s)
        if not s:
            close_para(i)
            prev = "blank"
            i += 1
            continue
        if indent >= 4:
            if prev != "para":
                return None  # indented code, or list content after a blank line
            if s.startswith(_RISKY_START) or _HR.match(s) or _SETEXT.match(s):
                return None
            if _BULLET.match(s) or _ORDERED.match(s):
                return None  # a nested list item: its extent depends on the parent's indent
            para.append(s)
            i += 1
            continue
        c0 = s[0]
        if c0 in _BLOCK_CHARS:  # else (a letter, most lines): only a paragraph or a table can start here
            if s.startswith(("```", "~~~")):
                if indent:
                    return None  # a fence inside a list item: content de-indentation needs the container
                marker = s[0]
                run = len(s) - len(s.lstrip(marker))
                info = s[run:]
                if marker == "`" and "`" in info:
                    return None  # not a fence: inline code at a line start
                close_para(i)
                j = i + 1
                close = None
                while j < n:
                    t = lines[j]
                    ts = t.lstrip(" ")
                    if (len(t) - len(ts) <= 3 and ts.startswith(marker * run)
                            and not ts.rstrip(" \t").lstrip(marker)):
                        close = j
                        break
                    j += 1
                end = close if close is not None else n
                body = lines[i + 1:end]
                content = "".join(ln + "\n" for ln in body)
                if close is None and body and not source.endswith("\n") and end == len(lines):
                    content = content[:-1]  # the last line of the text has no line feed to keep
                info = info.strip()
                lang = info.split()[0].strip("{}.").lower() if info else ""
                b = close + 1 if close is not None else n
                blocks.append((lang, info, content, True, i, b, close is not None))
                prev = "fence"
                list_open = False
                i = b
                continue
            if s[0] == ">":
                if indent and list_open:
                    return None  # a quote in a list item ends where the item does
                close_para(i)  # before the quote's own paragraphs, to keep document order
                q = _quote(lines, i, n, inlines)
                if q is None:
                    return None
                j, map_end = q
                quoted.append((i, map_end))
                prev = "quote"
                list_open = False
                i = j
                continue
            if s[0] == "<":
                kind = html_kind(s)
                seq = _html_sequences()[kind - 1] if kind else None
                if seq is not None and not (prev == "para" and not seq[2]):  # else: paragraph text
                    if indent and list_open:
                        return None  # an HTML block in a list item ends where the item does
                    close_para(i)
                    j = i + 1
                    if not seq[1].search(s):
                        while j < n:
                            t = lines[j].lstrip(" ")
                            if seq[1].search(t):
                                if t:
                                    j += 1
                                break
                            j += 1
                    if s.startswith("<!--"):
                        comments.append((i, j))
                    html.append((i, j, kind))
                    prev = "html"
                    list_open = False
                    i = j
                    continue
            c0 = s[0]
            if c0 == "#" and _ATX.match(s):
                level = len(s) - len(s.lstrip("#"))
                close_para(i)
                text = _heading_text(s, level)
                headings.append((level, text, i))
                if "](" in text or "][" in text:
                    inlines.append((i, i + 1, text))
                if not indent:
                    list_open = False
                prev = "heading"
                i += 1
                continue
            if c0 in "=-" and _SETEXT.match(s) and prev == "para" and not para_in_list and len(para) == 1:
                # a one-line paragraph and its setext underline: a heading (`=`: level 1, `-`: 2) over both lines,
                # its text the paragraph's (markdown-it's `lheading`); longer ones and list items: markdown-it decides
                text = para[0].strip()
                headings.append((1 if c0 == "=" else 2, text, para_start))
                if "](" in text or "][" in text:
                    inlines.append((para_start, i + 1, text))
                para = []
                prev = "heading"
                list_open = False
                i += 1
                continue
            if c0 in "=-" and _SETEXT.match(s) and (prev == "para" or c0 == "=" or len(s.rstrip(" \t")) < 3):
                return None  # a setext underline, or a lone "=" / "--" line
            if c0 in "-*_" and _HR.match(s):
                if prev == "para" and s[0] == "-":
                    return None
                close_para(i)
                prev = "hr"
                list_open = False
                i += 1
                continue
            bullet = _BULLET.match(s) if c0 in "-+*" else None
            ordered = _ORDERED.match(s) if c0 in "0123456789" else None
            if bullet or ordered:
                mk = bullet or ordered
                assert mk is not None
                content = s[mk.end():]
                lead = len(content) - len(content.lstrip(" "))
                content = content.lstrip(" ")
                if not content or lead >= 4:
                    return None  # an empty item, or indented code inside the item
                if content.startswith(_RISKY_START) or _BULLET.match(content) or _ORDERED.match(content):
                    return None  # a block nested on the marker's line
                if _HR.match(content) or _SETEXT.match(content):
                    return None
                if ordered and prev == "para" and not para_in_list and ordered.group(1) != "1":
                    return None  # "1986. A year" continues a paragraph; "2. x" after a list does not
                if indent and not list_open:
                    return None
                close_para(i)
                para, para_start, para_in_list, list_open = [content], i, True, True
                prev = "para"
                i += 1
                continue
        if prev == "blank" and indent == 0:
            list_open = False
        if "|" in s and i + 1 < n and prev != "para":  # in markdown-it a table never interrupts a paragraph
            width = table_width(line, lines[i + 1])
            if width:
                if indent or list_open:
                    return None  # a table in a list item (or its lazy lines): context decides
                close_para(i)
                row = lines[i].strip()
                if "](" in row or "][" in row:
                    inlines.append((i, i + 1, row))
                j, filled = i + 2, 0
                while j < n:
                    t = lines[j]
                    ts = t.lstrip(" ")
                    if ts.startswith(("<", "```", "~~~")):
                        return None  # may or may not end the table (HTML block kinds, fence validity)
                    if not ts or _ends_table(ts, len(t) - len(ts)):
                        break
                    text = t.strip()
                    filled += width - len(cells(text))
                    if filled > MAX_FILLED_CELLS:
                        break
                    if "](" in text or "][" in text:
                        inlines.append((j, j + 1, text))
                    j += 1
                tables.append((i, j))
                prev = "table"
                i = j
                continue
        if prev == "para":
            para.append(s)  # continuation, lazy or not: the same paragraph either way
        else:
            if indent and not list_open:
                return None
            para, para_start, para_in_list = [s], i, list_open
            prev = "para"
        i += 1
    close_para(n)
    env: dict = {}
    for a, b, content in inlines:
        if "](" in content or "][" in content:
            items = simple_links(content)
            if items is None:  # anything but plain `[text](dest)` links: markdown-it's inline parser
                items = inline_links(content, md(), env)
            collect_links(a, b, items, lines, links)
    return (tuple(headings), tuple(blocks), tuple(tables), tuple(quoted), tuple(comments), tuple(links),
            tuple(html))
