"""REFERENCE_NO_TOC: a long bundled reference file with no table of contents near its top."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from ... import rx
from ...bundle import bundled_markdown_files, bundled_text_files
from ...document import SkillDocument, lines_holding
from ...findings import Finding, Severity
from ...lazy_re import lazy_compile
from ...reach import reach
from ...rule import RuleContext, rule
from .._helpers import HTML_ELEMENTS, fence_step, fill_in_template
from ..code.nested_fence import bundled_example_lines

MIN_LINES = 100  # longer files need a table of contents (Anthropic's skill authoring guide)
TOP_LINES = 30  # where the table of contents must start
# A `Contents`-like heading or bold label, alone on its line. Each is a prefix pattern (the label, found where
# the line's first word starts) and a check of what follows it, both linear: the single patterns they
# replace (`^\s{0,3}#{1,6}\s+(?:\W*\s*)?(?:…)\s*:?\s*#*\s*$`, `^\s*(?:\*\*|__)?(?:…)\s*:?\s*(?:\*\*|__)?:?\s*$`)
# re-split every run of blanks between their `\s*` and took 12-23 s on a label followed by 2,000 blanks.
_TOC_HEADING_START = rx.compile(
    r"\s{0,3}#{1,6}\s\W*(?:table\s+of\s+contents|contents|toc|index|on\s+this\s+page|"
    r"in\s+this\s+(?:file|document|guide|reference|page)|sections|overview\s+of\s+sections|quick\s+navigation|"
    r"navigation|目录|索引|目次|导航)",
    re.I,
)
_TOC_HEADING_END = lazy_compile(r":?\s*#*")  # after the label, blanks aside: a colon, closing hashes
_SUBTITLE_SEPARATORS = ("·", "：", "—", "|")  # "## 索引 · 25 个叙事类型各读哪几段": the label, then what it indexes
_TOC_LABEL_START = rx.compile(r"\s*(?:\*\*|__)?(?:table\s+of\s+contents|contents|toc|on\s+this\s+page)", re.I)
_TOC_LABEL_END = lazy_compile(r":?\s*(?:\*\*|__)?:?")  # a colon, the closing bold, a colon


def _toc_heading(line: str, after: list[str]) -> bool:
    """A `Contents`-like heading; a Chinese one (`## 索引`, also a database's "Indexes" section) only when a
    list or a table follows it (`after`: the lines below it)."""
    m = _TOC_HEADING_START.match(line)
    if m is None:
        return False
    rest = line[m.end():].strip()
    if _TOC_HEADING_END.fullmatch(rest) is None and not rest.startswith(_SUBTITLE_SEPARATORS):
        return False
    if m.group(0)[-1].isascii():
        return True
    nxt = next((a.strip() for a in after[:3] if a.strip()), "")
    return nxt.startswith(("|", "-", "*", "+")) or nxt[:1].isdigit()


def _toc_label(line: str) -> bool:
    m = _TOC_LABEL_START.match(line)
    return m is not None and _TOC_LABEL_END.fullmatch(line[m.end():].strip()) is not None


_TOC_MARKER = rx.compile(r"\[\[_?toc_?\]\]|\[toc\]|<!--\s*toc\b|\{:toc\}|\[\[toc\]\]", re.I)
# a list item linking to a heading: the bullet and a blank by a pattern, the `](#` after them by a substring
# search (`^\s*(?:[-*+]|\d{1,3}[.)])\s+.*\]\(#` re-split the blanks after the bullet: 6 s on 10^5 of them)
_ITEM_START = rx.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s")


def _anchor_item(line: str) -> bool:
    """A list item or a table row linking to one of the file's own headings (`- [Setup](#setup)`,
    `| Design | [Part 1](#part-1) | … |`: a cell that is the link alone, not a link inside a cell's prose,
    `| id | The Id of the [Started](#started) event |`, a field table's cross-reference)."""
    if line.lstrip(" ").startswith("|"):
        return "](#" in line and any(_link_cell(c.strip()) for c in line.split("|"))
    m = _ITEM_START.match(line)
    return m is not None and "](#" in line[m.end():]


def _link_cell(cell: str) -> bool:
    """The table cell is one link to an anchor of this file, and nothing else (`[Part 1](#part-1)`)."""
    return cell.startswith("[") and cell.endswith(")") and cell.count("](") == 1 and "](#" in cell


def _fragments(text: str) -> Iterator[str]:
    """The `#fragment` of each link target in `text` that has one (`[JWT](https://x.io/api.html#jwt-tokens)`)."""
    i = text.find("](")
    while i >= 0:
        j = text.find(")", i)
        if j < 0:
            return
        target = text[i + 2:j].split(" ", 1)[0]
        if "#" in target:
            yield target.split("#", 1)[1]
        i = text.find("](", j + 1)  # (a `](` inside this target is no link of its own: linear)


def _own_anchors(lines: list[str]) -> set[str]:
    """The anchors of the file's headings: each heading's slug, and the fragment of a permalink written in it
    (`## JWT Tokens[](https://x.io/api.html#jwt-tokens "Link to this heading")`, a crawled docs page)."""
    out: set[str] = set()
    for line in lines:
        if not line.startswith("#") or (m := _HEADING_START.match(line) or _TITLE_START.match(line)) is None:
            continue
        text = line[m.end():m.end() + HEADING_CHARS]
        out.update(_fragments(text))
        out.add(_SLUG_DROP.sub("", text.split("[", 1)[0].strip().lower()).replace(" ", "-"))
    return out


_TITLE_START = lazy_compile(r"#\s+")
_SLUG_DROP = lazy_compile(r"[^\w\- ]")


def _url_anchor_item(line: str, own: set[str]) -> bool:
    """A list item linking to one of the file's own headings by its full address (a crawled docs page's sidebar:
    `* [JWT Tokens](https://wger.readthedocs.io/en/latest/api/api.html#jwt-tokens)`)."""
    m = _ITEM_START.match(line)
    return m is not None and any(f in own for f in _fragments(line[m.end():]))
_NOT_REFERENCES = ("readme", "changelog", "license", "licence", "contributing", "code_of_conduct", "security")
_RELEASE_DIRS = frozenset({"release", "releases", "release-notes", "release_notes", "changelog", "changelogs"})


# "This file covers setup, multi-surface patterns, and streaming." : a scope sentence listing what the file
# covers (three or more items: two commas on its line) is the table of contents in prose
_SCOPE = rx.compile(
    r"\b(?:(?:this|the)\s+(?:file|document|doc|guide|reference|page|topic|article|section|chapter|example|"
    r"walkthrough|tutorial)\s+(?:covers|contains|describes|documents|explains|includes|shows|demonstrates|"
    r"lists|outlines|walks\s+through|provides|specifies|details|summari[sz]es|explores|discusses|introduces|presents|"
    r"defines|has|holds|gives)"
    r"|it\s+(?:covers|demonstrates|outlines|walks\s+through)"
    # "These instructions cover the mechanical assembly …: conversion, discovery, invocation, and delivery"
    r"|these\s+(?:instructions|notes|guidelines|pages|docs|sections)\s+(?:cover|contain|describe|document|explain|"
    r"include|list|outline|walk\s+through|specify|detail|summari[sz]e)"
    # "Use this reference for Docker, SearXNG, Crawl4AI, cache, CLI, and HTTP API questions": what it is consulted for
    r"|(?:use|consult|see|read)\s+this\s+(?:file|document|doc|guide|reference|page)\s+(?:for|when)"
    r")\b"
    # Chinese, simplified and traditional: 本文件规范 / 本文件規範 (specifies), 介绍 / 介紹, 说明 / 說明, …
    # (also after "will, to you all": 本文将为大家介绍 …)
    r"|本(?:文件|文档|文檔|参考|參考|指南|文|页|頁)(?:将会|將會|将|將|会|會|主要)?(?:为|為|向)?(?:大家|您|你|读者|讀者)?"
    r"(?:介绍|介紹|包含|涵盖|涵蓋|说明|說明|描述|适用于|適用於|维护|維護"
    r"|定义|定義|记录|記錄|列出|汇总|彙總|收录|收錄|规范|規範)"
    # a sentence with no subject opening the line ("Defines the formulas for …"), or after 。 ("…配置文件。维护…")
    # (capital: not a wrapped line); also after another sentence ("A guide to indexes. Covers when to index, …")
    r"|(?:^[\s>*_]*|[.!?]\s{1,3})(?-i:Covers|Contains|Defines|Describes|Documents|Explains|Handles|Lists|Outlines)\b"
    # a verbless lede naming what the file is for: "Reference material for payroll posting, tax reporting, period
    # close, …" (the file's kind, then its topics; as "This file covers …")
    r"|^[\s>*_]*(?-i:Reference|Background|Supporting)\s+(?:material|materials|notes|information|details)\s+"
    r"(?:for|on|about|covering)\b"
    # (an adverb may come first: "完整记录 Dashboard 所有统计数据的采集、计算、展示算法", records in full …)
    r"|(?:^[\s>*_]*|。)(?:完整|详细|詳細|全面|系统|系統|集中|统一|統一)?(?:介绍|包含|涵盖|说明|描述|维护|定义|记录|列出|汇总|收录)",
    re.I | re.M)
# "本节以简短的例子展示如何…完成快速部署、建立数据库、…", "本小节将从构造函数、订阅和取消订阅…进行介绍": this section / chapter,
# a short phrase, then the verb (shows, introduces, describes)
_SCOPE_ZH_GAP = lazy_compile(r"本(?:小节|小節|节|節|章|文档|文檔|文件|文)[^。！？\n]{0,40}?(?:介绍|介紹|展示|演示|说明|說明|描述)")
SCOPE_LINES = 10
SCOPE_SENTENCES = 4  # scope sentences of one line looked at
# the word joining a list's last item ("A, B and C", "A、B和C"): one more item than its commas
_LAST_ITEM = rx.compile(r"\s(?:and|or|&)\s|[和及与或]")


def _lists_scope(line: str) -> bool:
    """The scope sentence itself lists three or more things (two commas, `、` or `，` before its end), or two
    after a colon ("This topic describes two methods: exact search and approximate search"): "This file
    covers the basics. For examples, see `python/`, `typescript/`." lists folders, not what the file covers."""
    if "本" in line and (m := _SCOPE_ZH_GAP.search(line)) is not None:  # "本小节将从构造函数、订阅和取消订阅进行介绍":
        stop = line.find("。", m.end())  # the list comes before the verb: the whole sentence is counted, by its
        said = line[m.start():stop if stop >= 0 else len(line)]  # `、` (a `，` joins clauses: "…，帮助用户…，提升…")
        tail = said[said.rfind("、") + 1:] if "、" in said else ""
        if said.count("、") + 1 + (1 if tail and any(c in tail for c in "和及与") else 0) >= 3:
            return True
    end = -1
    # each scope sentence of the line ("This document provides …. It covers A, B, C."), the first few only: bounded
    for m in itertools.islice(_SCOPE.finditer(line), SCOPE_SENTENCES):
        if m.end() > end:  # (the sentence's end, found once for the matches inside it)
            end = min((i for i in (line.find(". ", m.end()), line.find("。", m.end())) if i >= 0), default=len(line))
        said = line[m.end():end]
        colon = said.find(":")
        if _items(said) >= 3 or (colon >= 0 and " and " in said[colon:]):
            return True
    return False


def _items(said: str) -> int:
    """The things a scope sentence lists: its commas plus one, plus one more when a conjunction joins the last
    item after the last comma ("A, B and C", "A、B和C": three; "A, B, and C": three)."""
    commas = _commas(said)
    if not commas:
        return 1
    last = max(said.rfind(","), said.rfind("、"), said.rfind("，"))
    tail = said[last + 1:]
    oxford = tail.lstrip().startswith(("and ", "or "))  # "B, and C": the comma already counted C
    return commas + 1 + (1 if not oxford and _LAST_ITEM.search(tail) else 0)


def _scope_text(lines: list[str], i: int) -> str:
    """Line `i` and, when its sentence runs on, the next line (quote markers and indentation removed); after a colon,
    a next line of prose (not a list item or heading: "…of the affidavit package:" / "DOCX-to-PDF conversion, …")."""
    line = lines[i]
    if i + 1 >= len(lines) or not lines[i + 1].strip():
        return line
    end = line.rstrip()
    if end.endswith(":"):
        nxt = lines[i + 1].lstrip(" >")
        return line if nxt[:1] in ("-", "*", "+", "#", "|", "`") or nxt[:1].isdigit() else line + " " + nxt
    if not end.endswith((".", "。")):
        return line + " " + lines[i + 1].lstrip(" >")
    return line


# "**Contents:** [Setup](#setup) · [API](#api)": the label and its links on one line
_ITEM_TEXT = rx.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s+(.{1,120})$")
_HEADING_START = rx.compile(r"\s{0,3}#{2,6}\s+")
HEADING_CHARS = 120  # a heading's text, at most
HEADING_ITEMS = 3  # plain list items naming the file's own headings that make a table of contents


def _toc_label_links(line: str) -> bool:
    """A `Contents`-like label opening the line, with a link to a heading (`](#`) after it."""
    m = _TOC_LABEL_START.match(line)
    return m is not None and "](#" in line[m.end():]


def _heading_text(line: str) -> str | None:
    r"""The text of a `##`–`######` heading line without its trailing blanks and closing hashes (at most
    HEADING_CHARS characters, else None), in linear time: what `\s{0,3}#{2,6}\s+(.{1,120}?)\s*#*\s*$`
    captured, whose `\s*#*\s*` re-split every run of trailing blanks (8 s on a 4,000-blank heading)."""
    m = _HEADING_START.match(line)
    if m is None:
        return None
    rest = line[m.end():]
    text = rest.rstrip().rstrip("#").rstrip()
    if not text:  # nothing but closing hashes or blanks: the pattern took one character as the text
        if rest:
            text = rest[0]
        elif len(m.group(0)) - len(m.group(0).rstrip()) >= 2:
            text = line[-1]
        else:
            return None
    return text if len(text) <= HEADING_CHARS else None


def _plain(text: str) -> str:
    """A heading's or list item's words: no emphasis, code marks, numbering or trailing colon."""
    t = re.sub(r"[*_`]", "", text).strip().rstrip(":").strip()
    return re.sub(r"^(?:\d{1,3}[.)]\s*)", "", t).lower()


def _lists_headings(lines: list[str]) -> bool:
    """HEADING_ITEMS list items in the first TOP_LINES lines name the file's own later headings (a table of
    contents without links: "- Setup / - Authentication / - Errors")."""
    heads = {_plain(t) for ln in lines if ln.startswith(("#", " #")) and (t := _heading_text(ln)) is not None}
    if len(heads) < HEADING_ITEMS:
        return False
    n = 0
    for line in lines[:TOP_LINES]:
        m = _ITEM_TEXT.match(line)
        if m and _plain(m.group(1)) in heads:
            n += 1
            if n >= HEADING_ITEMS:
                return True
    return False


# "Step 3: Deploy", "Phase 2 — Review", "1. Setup": the label and number a heading opens with
# (also a catalog's code before a dash: "A01:2025 — Broken Access Control", "R-12 – Retention")
_HEADING_LABEL = rx.compile(r"(?:(?:step|phase|part|stage|section|chapter)\s*)?\d{1,3}[.:)]?\s*[-—–:.]?\s*"
                            r"|[a-z]{1,4}-?\d{1,3}(?:[:.]\d{1,4})?[ \t]+[—–-][ \t]+", re.I)
# an item of an overview near the top: a list item's text or a table row's first cell
# (the cell's first character is not blank, so the blanks around it are split one way only)
_TABLE_CELL = rx.compile(r"\s*\|\s*([^|\s][^|]{0,119})\|")
OVERVIEW_HEADINGS = 200  # later headings compared with the top of the file (bounded)
OVERVIEW_CHARS = 400  # characters of each top line compared (bounded)
MIN_NAME = 3  # shorter names are not compared
LONG_NAME = 10  # a one-word heading found in the top's prose must be this long (not "Events", "Config")
SHORT_ITEMS = 3  # shorter one-word headings one sentence of the top names that make an overview
MAX_SENTENCES = 60  # sentences of the top looked at (bounded: an overview sentence opens the file)
_SENTENCE_END = lazy_compile(r"[.!?;:](?:\s|$)")


def _main_level(lines: list[str]) -> int:
    """The level of the file's main sections: its shallowest heading below the top, `##` or deeper."""
    levels = (len(ln) - len(ln.lstrip("#")) for ln in lines[TOP_LINES:] if ln.startswith("##"))
    return min(levels, default=2)


def _sentences(top: str) -> list[str]:
    """The sentences of the top's prose (a paragraph's lines joined), bounded by the top's size."""
    out = [s for para in top.split("\n\n") for s in _SENTENCE_END.split(para.replace("\n", " ")) if s.strip()]
    return out[:MAX_SENTENCES]


def _width(text: str) -> int:
    """Characters, a CJK one counting two (a two-character name, 微博 or 抖音, is a whole word)."""
    return len(text) + sum(1 for c in text if "\u2e80" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af")


# "### Randomization (§21.4)": a clause reference after the section's name, not part of it
_CLAUSE_REF = rx.compile(r"[ \t]*\([ \t]*(?:§{1,2}[ \t]*|sec(?:tion)?\.?[ \t]+)?\d{1,3}(?:\.\d{1,3}){0,4}[ \t]*\)$")


def _heading_name(text: str) -> str:
    name = _plain(text)
    if name.endswith(")"):
        name = _CLAUSE_REF.sub("", name) or name
    m = _HEADING_LABEL.match(name)
    return name[m.end():].strip() if m is not None and m.end() < len(name) else name


def _name_forms(name: str, raw: str = "") -> Iterator[str]:
    """The heading's name, then, for a name made of code identifiers, each identifier: without a trailing gloss in
    brackets (`SandboxPool (Pre-warm)`) and each part joined by ` + ` or ` & ` (`BatchJob + ManagedAgentsBatchClient`),
    one word of LONG_NAME or more characters each (a class or a function the top names in code), the forms the top
    may name it by. (Words of prose keep their whole name: "Context Engine (automatic)" is a section of its own; but a
    gloss that points elsewhere or flags the section is dropped too: "Page-Type Checklists (for {{slot}})",
    "Voice rules (CRITICAL)", "Software Supply Chain Failures (NOWA)": its capitals read in `raw`, the heading as
    written.)"""
    yield name
    bare = name[:k].strip() if name.endswith(")") and (k := name.rfind(" (")) > 0 else name
    if bare != name and _pointer_gloss(_raw_gloss(raw) or name[len(bare):].strip()[1:-1]):
        yield bare  # "Page-Type Checklists (for {{page_type_checklist}})": the name, then where it is used
    parts = [p.strip() for p in bare.replace(" & ", " + ").split(" + ")]
    if all(" " not in p and len(p) >= LONG_NAME for p in parts):
        yield from (p for p in parts if p != name)
    elif " + " in bare or " & " in bare:
        yield from (p for p in parts if " " not in p and len(p) >= LONG_NAME)


def _raw_gloss(raw: str) -> str:
    """The text inside the closing brackets of a heading as written (`Voice rules (CRITICAL)`: `CRITICAL`), or ""."""
    raw = raw.rstrip()
    k = raw.rfind(" (")
    return raw[k + 2:-1] if raw.endswith(")") and k > 0 else ""


def _pointer_gloss(gloss: str) -> bool:
    """A heading's bracketed gloss that points elsewhere or flags the section rather than naming it: a template slot
    (`{{page_type_checklist}}`, `<name>`), "for …" / "see …", or one word in capitals (`CRITICAL`)."""
    g = gloss.strip()
    return "{" in g or "<" in g or g.lower().startswith(("for ", "see ")) or (
        len(g) >= 3 and g.isalpha() and g.isupper())


_HEAD_ENDS = (" — ", " – ", " - ", ": ")  # "Memory — read it, then update it": the name, then what it says


def _head(name: str) -> str:
    """A heading's name before its subtitle ("memory" for "memory — read it, then update it")."""
    ends = [i for i in (name.find(e) for e in _HEAD_ENDS) if i > 0]
    return name[:min(ends)].strip() if ends else name


def _word_in(part: str, text: str) -> bool:
    """`part` occurs in `text` as whole words ("teacher" in "teacher tools", not "content" in "contenttype")."""
    i = text.find(part)
    while i >= 0:
        j = i + len(part)
        if (i == 0 or not text[i - 1].isalnum()) and (j == len(text) or not text[j].isalnum()):
            return True
        i = text.find(part, i + 1)
    return False


GAP_WORDS = 2  # words a heading may insert between an overview item's words ("CORS [configuration] on S3 buckets")


def _words_in_order(item: str, name: str) -> bool:
    """The item's words (two or more) occur in the heading's words in order, at most GAP_WORDS others between
    them in all: "cors on s3 buckets" names `## Fix 3: CORS Configuration on S3 Buckets`."""
    want = item.split()
    if len(want) < 2 or len(want) > 12:
        return False
    have = [w.rstrip(":") for w in name.replace("：", " ").split()]  # "方案a：hodor 插件": a label, a colon, a name
    for start in range(len(have)):
        if have[start] != want[0]:
            continue
        k, gaps = 1, 0
        for w in have[start + 1:]:
            if k == len(want) or gaps > GAP_WORDS:
                break
            if w == want[k]:
                k += 1
            else:
                gaps += 1
        if k == len(want) and gaps <= GAP_WORDS:
            return True
    return False


# "(round 2)", "Phase 3", "step 1" in the top's prose or a table, and "## Round 2: How work reaches you"
# (no leading `\b`: without it re skips to the words' first letters; the boundary is tested on each hit)
_NUMBERED = rx.compile(r"(step|phase|part|stage|round|section|chapter|module|lesson|week|day|layer)\s+(\d{1,3}[a-z]?)\b")
_DIGITS = "0123456789"


def _numbered_parts(top: str) -> set[tuple[str, str]]:
    """The (label, number) pairs the top names ("(round 2)", "Phase 3"); most tops hold no digit: no scan."""
    if not any(d in top for d in _DIGITS):
        return set()
    return {(m.group(1), m.group(2)) for m in _NUMBERED.finditer(top)
            if not m.start() or not top[m.start() - 1].isalnum()}


# a line of a drawn outline that names a numbered stage: "Stage 1: Baseline Check", "├── Phase 2 Review"
_STEP_LINE = lazy_compile(r"[\s│├└─|*+-]{0,12}(?:stage|step|phase|part|round|level|tier|layer)\s?\d", re.I)


# a bold label of an inline enumeration, its gloss after a dash or colon ("**方案A Hodor**——配置即可用", "**Reads**: …"),
# not a term stressed in a sentence ("use **progressive disclosure** to …"); negated class: linear
_BOLD = lazy_compile(r"\*\*([^*\n]{1,80})\*\*[ \t]?(?:——|—|–|:|：)")
_BOLD_CELL = lazy_compile(r"\|[ \t]*\*\*([^*|\n]{1,80})\*\*[ \t]*(?=\|)")  # a table cell that is one bold label
_ITEM_GLOSS = (" — ", " – ", " - ")  # (not ": ": "Format: `{service}_{action}`" is a key and its value, no section)
# a gloss in brackets closing an item: "类 I：AI 自检（看自己输出即可）" names `## 类 I：AI 自检（看输出即可，18 条）`
_TRAILING_GLOSS = rx.compile(r"\s{0,3}[（(][^（）()\n]{1,80}[）)]$")


def _add_item(items: list[tuple[int, str]], i: int, text: str) -> None:
    """Keeps line i's list item or table cell as a name the top gives (its step, not what the step yields; its name,
    not the gloss after a dash or in closing brackets: "**Setup** — install the CLI" names `## Setup`)."""
    text = text.strip()
    if text.startswith("**") and (k := text.find("**:", 2)) > 0 and " " in text[2:k].strip():
        text = text[2:k]  # "**Bulk Start**: Start multiple services at once": a bold label of two or more words,
        # then its gloss (a one-word key such as "**Format**: `{service}_{action}`" names no section)
    item = _heading_name(text)
    ends = [k for k in (item.find(e) for e in _ITEM_GLOSS) if k > 0]
    item = item[:min(ends)].strip() if ends else item
    if item.endswith((")", "）")) and (m := _TRAILING_GLOSS.search(item)) is not None and _width(item[:m.start()]) >= MIN_NAME:
        item = item[:m.start()]
    for arrow in ("→", "->"):  # "Upload raw file → unprocessed file": the step, then what it yields
        head = item.split(arrow, 1)[0].strip()
        item = head if len(head) >= MIN_NAME else item
    if _width(item) >= MIN_NAME and not set(item) <= set("-: "):
        items.append((i, item))


def _names_headings(lines: list[str]) -> bool:
    """The first TOP_LINES lines name HEADING_ITEMS of the file's later headings, in any form: an outline
    (`**Lifecycle:** A → B → C` for `## Step 1: A` …), a numbered list of the steps, an overview table or list
    whose items the headings contain (`| Teacher | …` for `## Teacher tools`). The top of the file then
    tells what it covers. A heading found in the top's prose (not in code) counts when it has two words or
    LONG_NAME letters: "events" and "config" in a sentence name no section; shorter one-word headings of the
    main sections' level (or their one-word name before a subtitle: `## Memory — read it, then update it`)
    count only when one sentence of the prose (not a list or a table) names SHORT_ITEMS of them ("the pin and overview formats, the audit and the commit"). So does a numbered part the
    top names (`(round 2)` in an overview table for `## Round 2: How work reaches you`)."""
    parts: list[str] = []
    items: list[tuple[int, str]] = []  # (line, item)
    top_headings: list[tuple[int, str]] = []  # headings among the top lines after an item: (line, line text)
    prose: list[str] = []  # the top's lines of text, not list items, table rows or code
    labels: list[tuple[int, str]] = []  # one-word bold labels run inline: (line, word), each a whole heading's name
    fence = ""
    for i, line in enumerate(lines[:TOP_LINES]):
        line = line[:OVERVIEW_CHARS]
        fence, is_fence = fence_step(fence, line)
        if fence and not is_fence and ("→" in line or "->" in line or _STEP_LINE.match(line)):
            parts.append(_plain(line))  # a flow drawn in a block: "Step 3a 追问 → Step 3b 挖本质 → Step 4 精简",
            # or an outline of numbered stages: "Stage 1: Baseline Check" / "  └── …"; a numbered line of it names
            # its stage as a list item does ("1. BACKLOG   → task recorded" for `### 1. BACKLOG`)
            if (m := _ITEM_TEXT.match(line)) is not None:
                _add_item(items, i, m.group(1))
            continue
        if is_fence or fence:
            continue
        if line.lstrip().startswith("#"):
            if items:
                top_headings.append((i, line))
            elif line.startswith("# ") and (c := line.find(": ")) > 0 and _commas(line[c:]) >= 2:
                parts.append(_plain(line[c + 2:]))  # "# auto-ledger: состав файла, чеклист, действующие нормы,
                prose.append(parts[-1])  # восстановление": a title that lists the file's sections is its overview
            continue
        parts.append(_plain(line))
        m = _ITEM_TEXT.match(line) or _TABLE_CELL.match(line)
        prose.append(parts[-1] if m is None else "")  # (a list item or a table row ends a paragraph)
        if line.count("**") >= 4 and len(bold := _BOLD.findall(line)) >= 2:  # "选型：**方案A Hodor**——…；**方案B
            for label in bold:  # 编程式**——…": bold labels run inline, each with its gloss
                if " " in label.strip():
                    _add_item(items, i, label)
                elif _width(word := _plain(label)) >= MIN_NAME:  # one word: only a heading of that name
                    labels.append((i, word))  # ("**writes**, **reads**" for `## Writes`, not "**seam**" for
                    # `## Seam discipline`)
        if m is None and line.count("、") >= 2:  # "小红书、抖音、Twitter/X、微博。": an enumeration of the sections
            for piece in _plain(line).split("、"):
                piece = piece.strip().rstrip("。.;；").strip()
                if _width(piece) >= MIN_NAME:
                    items.append((i, piece))
            continue
        if m is not None:
            text = m.group(1)
            if m.re is _TABLE_CELL and text.strip().strip("#.").isdigit() and (n := _TABLE_CELL.match(line, m.end() - 1)):
                text = n.group(1)  # `| 1 | PresignedUrlProtocol property | …`: the row's number, then its name
            _add_item(items, i, text)
            if m.re is _TABLE_CELL and "**" in line[m.end():]:  # `| Single person, no agents | **SOLO** |`: a
                for b in _BOLD_CELL.finditer(line, m.end() - 1):  # later column's bold label names `## SOLO Profile`
                    _add_item(items, i, b.group(1))
    top = "\n".join(parts)
    flat = ""  # the top with its lines joined, made on first need
    numbered = _numbered_parts(top)
    found: set[str] = set()
    short: dict[int, set[str]] = {}  # one-word headings each sentence of the top names: several make an overview
    sentences: list[str] | None = None
    named: set[str] = set()  # one-word names already looked for in the sentences
    main = 0  # the main sections' level, found on first need (most files never ask)
    used: set[str] = set()
    seen = 0
    # the headings below the top, and those within it under the overview (a short command table is followed by
    # its first section at once): only an item above such a heading may name it
    below = ((TOP_LINES + k, line) for k, line in enumerate(lines[TOP_LINES:]))
    for at, line in itertools.chain(top_headings, below):
        if not line.startswith(("#", " #")) or (text := _heading_text(line)) is None:
            continue
        seen += 1
        if seen > OVERVIEW_HEADINGS:
            break
        in_top = at < TOP_LINES
        if not in_top and numbered and (m := _NUMBERED.match(_plain(text))) is not None and (
                m.group(1), m.group(2)) in numbered:
            found.add(_plain(text))
            if len(found) >= HEADING_ITEMS:
                return True
            continue
        name = _heading_name(text)
        if len(name) < MIN_NAME or name in found:
            continue
        head = _head(name)
        if not in_top and any((" " in alt or len(alt) >= LONG_NAME) and _word_in(alt, flat or (
                flat := top.replace("\n", " "))) for alt in _name_forms(name, text)):  # (a name the paragraph wraps:
            found.add(name)  # "a note\nfor another repo")
        else:  # an item names one heading: "Approach" in three headings is a word, not an overview
            if not in_top and " " not in head and len(head) >= MIN_NAME and head not in named and head in top \
                    and line.startswith("#" * (main := main or _main_level(lines)) + " "):  # (a main section:
                # not `### Motive` under one)
                named.add(head)
                if sentences is None:
                    sentences = _sentences("\n".join(prose))
                for k, sentence in enumerate(sentences):  # "the pin and overview formats, the audit and the
                    # commit" for `## Pin`, `## Overview`, `## Audit`, `## Commit` (a plural too: "dates" for `## Date`)
                    if _word_in(head, sentence) or _word_in(head + "s", sentence) or _word_in(head + "es", sentence):
                        short.setdefault(k, set()).add(head)
                        if len(short[k]) >= SHORT_ITEMS:
                            return True
            hit = next((item for i, item in items if i < at and item not in used and (
                _word_in(item, name) or _words_in_order(item, name))), None)
            if hit is None and labels:
                hit = next((w for i, w in labels if i < at and w not in used and w in (name, head)), None)
            if hit is None:
                continue
            used.add(hit)
            found.add(name)
        if len(found) >= HEADING_ITEMS:
            return True
    return False


def _frontmatter_end(lines: list[str]) -> int:
    """The index of the first line after the file's frontmatter (a `---` block opening it, closed within its
    first TOP_LINES lines; unclosed there, those lines), or 0 when it has none."""
    n = min(len(lines), TOP_LINES)
    if not n or lines[0].strip() != "---":
        return 0
    return next((j + 1 for j in range(1, n) if lines[j].strip() == "---"), n)


def _commas(text: str) -> int:
    return text.count(",") + text.count("、") + text.count("，")


# frontmatter keys that say what a file covers or when to load it: `description:`, a leaf's `load_when:`
_SCOPE_KEYS = ("description:", "summary:", "scope:", "covers:", "topics:", "load_when:", "when_to_load:")


def _description_lists(lines: list[str]) -> bool:
    """The frontmatter's `description:` (or `summary:`, `scope:`, `covers:`, `topics:`, `load_when:`) lists three or more
    things (two commas, `、` or `，` included), on its line or on the indented lines of a block scalar (`description: >`
    followed by the list)."""
    end = _frontmatter_end(lines)
    for i in range(1, end):
        line = lines[i]
        if not line.startswith(_SCOPE_KEYS):
            continue
        text = line[line.find(":") + 1:]
        for more in lines[i + 1:end]:
            if not more.startswith((" ", "\t")):
                break
            text += more
        if _commas(text) >= 2 or text.count(" / ") >= 2 or text.count(" + ") >= 2:  # (`_gate1 / _orcid / _publish`:
            # a list by slashes; `basics + patterns + pitfalls`, by pluses)
            return True
    return False


def has_toc(lines: list[str]) -> bool:
    """A table of contents starts in the first TOP_LINES lines (of the file, or of its body after a frontmatter
    block): a `Contents`-like heading or label (alone,
    or followed by its links on the same line), a `[TOC]`-style marker, two list items or table rows linking to the
    file's own headings, or three plain list items naming them; or one of the first SCOPE_LINES lines says
    what the file covers and lists it."""
    if _description_lists(lines):
        return True
    fm = _frontmatter_end(lines)
    # the top with the frontmatter (its `index:` list may be the contents), and the body's own top: an agent reads past
    # the frontmatter to the text it opens with
    return _toc_at_top(lines) or (fm > 1 and lines[fm - 1].strip() == "---" and _toc_at_top(lines[fm:]))


def _toc_at_top(lines: list[str]) -> bool:
    anchors = 0
    own: set[str] | None = None  # the headings' anchors, found when a list item links to an address with one
    for i, line in enumerate(lines[:TOP_LINES]):
        if _toc_heading(line, lines[i + 1:i + 4]) or _toc_label(line) or _TOC_MARKER.search(line) or _toc_label_links(line):
            return True
        if i < SCOPE_LINES:
            said = _scope_text(lines, i)
            if (":" in said or _commas(said) >= 1) and _lists_scope(said):  # (no list, no scope sentence)
                return True
            if line.rstrip().endswith(":") and "learn" in line.lower() and _LEARN_LEAD.search(line) \
                    and _list_follows(lines, i + 1):
                return True  # "In this guide, you will learn to:" and the list of what it teaches
        if _anchor_item(line) or "](http" in line and "#" in line and _url_anchor_item(
                line, own := own if own is not None else _own_anchors(lines)):
            anchors += 1
            if anchors >= 2:
                return True
    return _lede_lists(lines) or _purpose_lists(lines) or _lists_headings(lines) or _names_headings(lines) \
        or _outline_in_top(lines) or _title_lists_sections(lines) or _title_names_hidden_sections(lines) \
        or _colon_list_names_sections(lines) \
        or _code_names_headings(lines) or _diagram_names_headings(lines) or _calls_name_headings(lines)


# "In this guide, you will learn to:", "You'll learn how to:", "What you will learn:": a lead-in to the list of what
# the page teaches, its table of contents in prose (ending the line)
_LEARN_LEAD = rx.compile(r"\b(?:you(?:['’]ll|\s+will)\s+learn|what\s+you(?:['’]ll|\s+will)\s+learn)\b[^:\n]{0,40}:\s*$",
                         re.I)
LEARN_ITEMS = 2  # list items right after the lead-in


def _list_follows(lines: list[str], i: int) -> bool:
    """LEARN_ITEMS list items start at line `i` (after blank lines)."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i + LEARN_ITEMS <= len(lines) and all(_ITEM_TEXT.match(lines[k]) for k in range(i, i + LEARN_ITEMS))


# a section that states the file's scope: `## Purpose`, `## Scope`, `## Overview`, `## About`, `## Summary`
_PURPOSE_HEADING = rx.compile(r"#{2,3}[ \t]+(?:purpose|scope|overview|about|summary)[ \t]*:?[ \t]*", re.I)
_LIST_SPLIT = rx.compile(r",[ \t]*(?:and[ \t]+|or[ \t]+|&[ \t]+)?|[ \t](?:and|or|&)[ \t]")  # ("Daemon management & …")
_PHRASE_START = ("with ", "in ", "for ", "by ", "to ", "from ", "of ", "at ", "on ", "via ")
PURPOSE_WORDS = 4  # words of each of a purpose list's last two items ("defensive programming", "red flags to avoid")


def _purpose_lists(lines: list[str]) -> bool:
    """In the first SCOPE_LINES lines, a `## Purpose` (Scope, Overview, About, Summary) section whose first sentence
    lists three or more topics, with or without a verb: "Common TDD mistakes, rationalizations, and red flags to
    avoid." The list's last two items are short and no phrase ("…, with complete RED/GREEN/REFACTOR cycles and
    step-by-step walkthroughs" lists no topics)."""
    for i, line in enumerate(lines[:SCOPE_LINES]):
        if not line.startswith("#") or _PURPOSE_HEADING.fullmatch(line) is None:
            continue
        text = next((ln.strip() for ln in lines[i + 1:i + 4] if ln.strip()), "")
        sentence = text.split(". ", 1)[0].rstrip(".")
        items = [x.strip().lower() for x in _LIST_SPLIT.split(sentence[:OVERVIEW_CHARS]) if x.strip()]
        if len(items) >= 3 and all(len(x.split()) <= PURPOSE_WORDS and not x.startswith(_PHRASE_START)
                                   for x in items[-2:]):
            return True
    return False


TITLE_SECTIONS = 6  # main sections a title may list ("# Tool catalog, advanced builds and recipes")


def _stem(word: str) -> str:
    w = word.strip("()[]{}:;,.!?\"'`*_").lower()
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _main_headings(lines: list[str], start: int) -> Iterator[str]:
    """The text of each `## ` heading from line `start` on, outside fenced code (fences paired from `start`)."""
    for _k, text in _main_heading_lines(lines, start):
        yield text


def _main_heading_lines(lines: list[str], start: int) -> Iterator[tuple[int, str]]:
    """(line, text) of each `## ` heading from line `start` on, outside fenced code (fences paired from `start`)."""
    fence = ""
    for k in range(start, len(lines)):
        line = lines[k]
        fence, is_fence = fence_step(fence, line)
        if not fence and not is_fence and line.startswith("## "):
            yield k, line[3:]


def _item_firsts(listed: str) -> list[str] | None:
    """The stemmed first word of each item a title lists ("Tool catalog, advanced builds and recipes": tool, advanc,
    recip), or None unless it lists two to TITLE_SECTIONS items."""
    items = [x.split() for x in _LIST_SPLIT.split(_plain(listed)[:OVERVIEW_CHARS]) if x.split()]
    return [_stem(item[0]) for item in items] if 2 <= len(items) <= TITLE_SECTIONS else None


def _stems(text: str) -> set[str]:
    """The stemmed words of a heading's text."""
    return {_stem(w) for w in _plain(text).split()}


def _title_line(lines: list[str]) -> str:
    """The file's first line of text among its first three (its title, when it opens with one), or ""."""
    return next((ln for ln in lines[:3] if ln.strip()), "")


def _title_names_hidden_sections(lines: list[str]) -> bool:
    """The title's list after a colon names each main section whose heading lies below the top TOP_LINES lines
    ("# rung config reference: policy and bundle" over `## The v2 model` (line 7), `## Policy` (17) and
    `## Evidence bundle` (93)), and each of its items names a main section: with the headings the preview shows,
    the whole outline is in view. Two to TITLE_SECTIONS items."""
    title = _title_line(lines)
    if not title.startswith("# ") or ": " not in title:
        return False
    firsts = _item_firsts(title[2:].split(": ", 1)[1])
    if firsts is None:
        return False
    heads: list[set[str]] = []
    hidden = 0
    for k, text in _main_heading_lines(lines, 1):
        words = _stems(text)
        heads.append(words)
        if k >= TOP_LINES:
            hidden += 1
            if not any(f in words for f in firsts):
                return False  # a section out of view that the title does not name
        if len(heads) > TITLE_SECTIONS + len(firsts):
            return False
    return hidden > 0 and all(any(f in h for h in heads) for f in firsts)


def _title_lists_sections(lines: list[str]) -> bool:
    """The title lists the file's main sections, each by its first word and nothing else ("# Tool catalog, advanced
    builds and recipes" over `## Tool catalog (79)`, `## Advanced builds …`, `## Recipes`; "# Daemon management &
    multi-instance reference" over `## Daemon commands`, `## Multi-instance (…)`; "# Script-Engine API,
    modules and big plans" over `## Module install by router family` …): the preview names what the file covers.
    Two to TITLE_SECTIONS sections, one title item per section ("# Automation, shell pipelines and batch processing"
    over nine sections is a topic)."""
    title = _title_line(lines)
    if not title.startswith("# ") or ("," not in title and _LAST_ITEM.search(title) is None):
        return False
    firsts = _item_firsts(title[2:])
    if firsts is None:
        return False
    heads: list[set[str]] = []
    for text in _main_headings(lines, 1):
        heads.append(_stems(text))
        if len(heads) > len(firsts):
            return False
    if len(heads) != len(firsts):
        return False
    return all(any(f in h for f in firsts) for h in heads) and all(any(f in h for h in heads) for f in firsts)


_SITUATION_LABEL = rx.compile(r"\b(?:when|whenever|if|before|after)\b", re.I)
COLON_ITEMS = 3  # items of a colon's list that must each name a main section ("operations: duplicate, rename, …")
COLON_ITEM_WORDS = 4  # words of each such item
COLON_LONG_ITEM_WORDS = 6  # words of an item that shares two of them with its section ("cache warmup on cold start")


def _wrapped_list(line: str, following: str) -> str:
    """`line` joined with the `following` one when it ends with a colon, or holds a list after ": " whose sentence
    goes on past the line (it ends with a comma or a word, not a full stop), cut at that sentence's end."""
    stripped = line.rstrip()
    if stripped.endswith(":"):
        return stripped + " " + following.strip()
    colon = stripped.find(": ")
    nxt = following.strip()
    if colon < 0 or not nxt or nxt.startswith(("#", "|", "`", "-", "*", ">")) or stripped.endswith((".", "!", "?")) \
            or ". " in stripped[colon:]:
        return line
    end = nxt.find(". ")
    return stripped + " " + (nxt[:end + 1] if end >= 0 else nxt)


def _colon_list_names_sections(lines: list[str]) -> bool:
    """In the first SCOPE_LINES lines of text, a colon opens a list of COLON_ITEMS or more short items, each naming
    a different main (`##`) section by a word of four or more letters: "High-level asset operations: duplicate,
    token-aware rename, dependency-aware delete, and sprite swap." over `## Duplicate Asset`, `## Rename Asset`,
    `## Dependency-aware Delete`, `## Swap Sprite`. An item of five or six words names its section by two words
    ("cache warmup on cold start" over `## Test 2: Cache Warmup on Cold Start`). No verb is needed: the list is the
    file's outline."""
    start = _frontmatter_end(lines)
    top = lines[start:start + SCOPE_LINES + 1]
    # a line ending in ":" goes on with the next one ("… Three sub-modules:" / "Benchmark Comparator, …"), and so does
    # a list after a colon that wraps without ending its sentence ("…: menus, icons," / "layout config, styling, views
    # and integrations. Scan …": the sentence up to its end)
    joined = (_wrapped_list(ln, top[k + 1]) if k + 1 < len(top) else ln for k, ln in enumerate(top[:SCOPE_LINES]))
    line = next((ln for ln in joined if ": " in ln and not ln.startswith(("#", "|", "`"))
                 and _commas(ln) >= COLON_ITEMS - 1), None)
    if line is None or _SITUATION_LABEL.search(line.split(": ", 1)[0]) is not None:
        return False  # ("**Read this when**: working with pytest, Python mocking, …": situations, not sections)
    items = [x.split() for x in _LIST_SPLIT.split(_plain(line.split(": ", 1)[1])[:OVERVIEW_CHARS].rstrip(". "))
             if x.strip()]
    if len(items) < COLON_ITEMS or any(len(x) > COLON_LONG_ITEM_WORDS for x in items):
        return False
    heads: list[set[str]] = []
    for text in _main_headings(lines, start):
        heads.append({w for w in (_stem(x) for x in _plain(text).replace("-", " ").split()) if len(w) >= 4})
        if len(heads) > OVERVIEW_HEADINGS:
            break
    if len(items) * 2 < len(heads):
        return False  # four of eleven sections: a few topics, not the file's outline
    free = list(range(len(heads)))
    for item in items:
        words = {w for w in (_stem(x) for x in " ".join(item).replace("-", " ").split()) if len(w) >= 4}
        need = 1 if len(item) <= COLON_ITEM_WORDS else 2  # a longer item: two of its words in the heading
        hit = next((k for k in free if len(words & heads[k]) >= need), None)
        if hit is None:
            return False
        free.remove(hit)
    return True


_CODE_SPAN_TEXT = rx.compile(r"`([^`\n]{1,80})`")
CODE_NAMED_HEADINGS = 3  # main sections whose code name the top's code spans give


def _code_names_headings(lines: list[str]) -> bool:
    """The top's code spans give the code names that start CODE_NAMED_HEADINGS or more main sections (a stability table
    listing `scripts/app`, `scripts/api`, … above `## scripts/api - ComfyApi`, `## scripts/app - ComfyApp`, …): an
    API reference's overview. Only names a word cannot be (with `/`, `.`, `_`, `(` or `::`) count."""
    spans: set[str] = set()
    fence = ""
    for line in lines[:TOP_LINES]:
        fence, is_fence = fence_step(fence, line)
        if not fence and not is_fence and "`" in line:
            spans.update(x.strip().rstrip("/*").rstrip("/") for x in _CODE_SPAN_TEXT.findall(line[:OVERVIEW_CHARS]))
    if len(spans) < CODE_NAMED_HEADINGS:
        return False
    found = 0
    for seen, text in enumerate(_main_headings(lines, TOP_LINES), 1):
        if seen > OVERVIEW_HEADINGS:
            break
        first = text.strip().split(" ", 1)[0].strip("`").rstrip("/*").rstrip("/")
        if first in spans and (any(c in first for c in "/._(") or "::" in first):
            found += 1
            if found >= CODE_NAMED_HEADINGS:
                return True
    return False


_BOX_CHARS = frozenset("─│┌┐└┘├┤┬┴┼═║╔╗╚╝╠╣►▼▶◀▲↓↑→←⇒⇓")  # a box drawing's strokes and arrow heads (a ladder's `↓`)
_DIAGRAM_WORD = rx.compile(r"[A-Za-z][A-Za-z0-9]{2,}")
DIAGRAM_HEADINGS = 3  # main sections a diagram at the top must name (and more than half of those below it)
SHARED_WORD_HEADINGS = 3  # a word in this many main headings or more names none of them ("Mode" of five modes)


def _diagram_names_headings(lines: list[str]) -> bool:
    """A box-drawn diagram in the top's code (a decision tree ending in `Invoice Mode`, `ExcelInvoice Mode`, …; or a ladder
    drawn with arrows, whose nodes sit on the lines between its `↓`: every line of a code block that draws counts) names
    DIAGRAM_HEADINGS or more of the main sections below it, and more than half of them: every word of such a heading
    that it does not share with two other headings (`## ExcelInvoice Mode` by `ExcelInvoice`) is a whole word of the
    drawing. A drawing of the code's flow (`CachedCustomerRepository`) over `## Cached Repository Decorator` names no
    section; an element tree naming three of six sections (`tab`, `group`, `qat`) is no outline of the file."""
    drawn: set[str] = set()
    first = -1  # the drawing's first line
    heads: list[set[str]] = []
    fence = ""
    block: list[str] = []  # the lines of the top's open code block so far, until one of them draws
    drawing = False  # the open block draws: each of its lines is the drawing's (a ladder's nodes between its `↓`)
    for i, line in enumerate(lines):
        fence, is_fence = fence_step(fence, line)
        if fence and not is_fence:
            if i < TOP_LINES:
                if drawing:
                    drawn.update(w.lower() for w in _DIAGRAM_WORD.findall(line[:OVERVIEW_CHARS]))
                elif any(c in _BOX_CHARS for c in line[:OVERVIEW_CHARS]):
                    drawing = True
                    for ln in (*block, line):  # (words are read only from a block that draws)
                        drawn.update(w.lower() for w in _DIAGRAM_WORD.findall(ln[:OVERVIEW_CHARS]))
                    block = []
                    if first < 0:
                        first = i
                else:
                    block.append(line)
        elif is_fence:
            block, drawing = [], False
        elif line.startswith("## ") and first >= 0:
            heads.append({w.lower() for w in _DIAGRAM_WORD.findall(line[3:OVERVIEW_CHARS])})
            if len(heads) >= OVERVIEW_HEADINGS:
                break
        if i == TOP_LINES and not drawn:
            return False
    if not drawn:
        return False
    return _words_name_headings(heads, drawn, DIAGRAM_HEADINGS)


def _words_name_headings(heads: list[set[str]], words: set[str], least: int) -> bool:
    """`least` or more of the main headings `heads` (each its set of words), and more than half of them, have every
    word they do not share with two other headings among `words`."""
    seen: dict[str, int] = {}
    for h in heads:
        for w in h:
            seen[w] = seen.get(w, 0) + 1
    named = sum(1 for h in heads if (own := {w for w in h if seen[w] < SHARED_WORD_HEADINGS}) and own <= words)
    return named >= least and 2 * named > len(heads)


_CALL_AT_START = rx.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_.]{0,80})\(")  # `cgc_callers(repo_id=…)`: a call opening a line
_CAMEL = rx.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
CALL_NAMED_HEADINGS = 3  # main sections the calls at the top must name (and more than half of those below)


def _call_words(name: str) -> set[str]:
    """The words of a call's name: `cgc_symbol_search` gives cgc, symbol, search; `client.listUsers` client, list, users."""
    return {w.lower() for part in re.split(r"[_.]+", name) for w in _CAMEL.findall(part)}


def _calls_name_headings(lines: list[str]) -> bool:
    """A code block at the top lists the calls the file documents, one per line (`cgc_symbol_search(…)`,
    `cgc_callers(…)`, …), and each of CALL_NAMED_HEADINGS or more main sections below, more than half of them, is named
    by the words of one call (`## Symbol Search`, `## Callers`): an API reference's overview, written as code. Every word
    of such a heading that it does not share with two other headings must be a word of a call's name."""
    words: set[str] = set()
    calls = 0
    heads: list[set[str]] = []
    fence = ""
    for i, line in enumerate(lines):
        fence, is_fence = fence_step(fence, line)
        if fence and not is_fence:
            if i < TOP_LINES and (m := _CALL_AT_START.match(line)):
                calls += 1
                words |= _call_words(m.group(1))
        elif not fence and not is_fence and line.startswith("## ") and calls:
            heads.append({w.lower() for w in _DIAGRAM_WORD.findall(line[3:OVERVIEW_CHARS])})
            if len(heads) >= OVERVIEW_HEADINGS:
                break
        if i == TOP_LINES and calls < CALL_NAMED_HEADINGS:
            return False
    if calls < CALL_NAMED_HEADINGS:
        return False
    return _words_name_headings(heads, words, CALL_NAMED_HEADINGS)


def _outline_in_top(lines: list[str]) -> bool:
    """Every heading of the file is in its first TOP_LINES lines (the rest is one section's body, an example): the
    preview already shows the whole outline. Needs two headings there, and code blocks are skipped (`#include`)."""
    fence = ""
    heads = 0
    for i, line in enumerate(lines):
        fence, is_fence = fence_step(fence, line)
        if fence or is_fence or not line.startswith("#"):
            continue
        if _ATX.match(line) is None:
            continue
        if i >= TOP_LINES:
            return False
        heads += 1
    return heads >= 2


LEDE_WIDTH = 160  # a lede sentence that lists the file's topics is short


def _lede_lists(lines: list[str]) -> bool:
    """The first sentence of text under the title is a CJK noun list of three or more short topics (`・` or `、`
    between them, no verb needed): "3作品の楽曲構成・BPM・小節数・サウンドメイキングロジック。" says what "Covers the song
    structure, BPM, bar counts and sound logic of three works." says."""
    text = next((t for t in _opening(lines) if not t.startswith("#")), "")
    ends = [k for k in (text.find("。"), text.find(". ")) if k >= 0]
    sentence = text[:min(ends)] if ends else text.rstrip(".")
    if _width(sentence) > LEDE_WIDTH or sentence.count("・") + sentence.count("、") < 2:
        return False
    pieces = [x.strip() for x in _LEDE_SPLIT.split(sentence)]
    return all(x and _width(x) <= LEDE_TOPIC_WIDTH for x in pieces)


# the items of a CJK lede list: split at `・` and `、` (an English list's commas are as often a clause's: "You know
# the operations, their contracts and their notification schemes" lists no topics)
_LEDE_SPLIT = lazy_compile(r"[・、]")
LEDE_TOPIC_WIDTH = 30  # width of one topic in a CJK lede list ("サウンドメイキングロジック": a CJK character counts two)


def _opening(lines: list[str]) -> Iterator[str]:
    """The top's lines of text (stripped of quote and emphasis marks) after any frontmatter, blank lines, `---`
    breaks and HTML comments (one line or several), up to the first that is not a heading: the headings, then
    that line."""
    comment = False
    for line in lines[_frontmatter_end(lines):TOP_LINES]:  # (after the frontmatter of a Claude Code agent file)
        text = line.strip().lstrip("*_>").lstrip()
        if comment or text.startswith("<!--"):
            comment = "-->" not in text
            continue  # an HTML comment (a note to maintainers), on one line or several
        if not text or set(text) <= set("-*_"):
            continue  # a `---` break
        yield text
        if not text.startswith("#"):
            return


def prompt_file(lines: list[str]) -> bool:
    """A subagent's or persona's prompt ("You are the TEST COVERAGE REVIEWER agent. …", "你是…", "你现在是…"): its first
    line of text, after any frontmatter, headings, `---` breaks and one-line comments, addresses the model. It is handed whole to a subagent, which
    reads all of it; a table of contents there is noise in the prompt. So is a command's prompt: `$ARGUMENTS` in that
    first line of text."""
    top = list(_opening(lines))
    if any(t.startswith("#") and _SUBAGENT_SPEC.search(t) is not None for t in top):
        return True  # "# Phase A — candidate extraction (subagent spec)": a title naming the file a subagent's prompt
    text = next((t for t in top if not t.startswith("#")), "")
    if text.startswith(("You are ", "You're ", "你是", "您是", "你现在是", "您现在是", "现在你是", "あなたは")):
        return True
    # a command's prompt (`workflows/handoff.md`: "Generate handoff documentation for: $ARGUMENTS" under its title):
    # Claude Code's argument placeholder in its first line of text, filled in when the whole file is handed to the model
    # as the command's prompt (not a workflow that says, deep in a step, "use `$ARGUMENTS` if provided")
    return "$ARGUMENTS" in text


_SUBAGENT_SPEC = rx.compile(r"\bsub-?agent(?:'s)?[ \t]+(?:spec(?:ification)?|prompt|instructions?|brief)\b", re.I)


ROLE_LINES = 12  # lines of the top looked at for a subagent prompt's `## Role` section


def _agent_prompt(rel: str, lines: list[str]) -> bool:
    """A subagent's instructions in an `agents/` folder, written as a role card rather than "You are …": titled
    "# <Name> Agent" with a `## Role` section in the first ROLE_LINES lines and no second title (skill-creator's
    `agents/comparator.md`, "# Blind Comparator Agent", handed whole to the comparator). A file holding a second
    document (`agents/analyzer.md`'s "# Analyzing Benchmark Results", which SKILL.md sends the main agent to by
    section) is read in parts."""
    if "agents/" not in "/" + rel and "subagents/" not in "/" + rel:
        return False
    title = _title_line(lines).strip()
    if not title.startswith("# ") or not title.lower().rstrip(" #").endswith(("agent", "subagent")):
        return False
    if not any(ln.strip().lower() in ("## role", "## your role") for ln in lines[1:ROLE_LINES]):
        return False
    fence = ""
    titles = 0
    for line in lines:
        fence, is_fence = fence_step(fence, line)
        if not fence and not is_fence and line.startswith("# "):
            titles += 1
            if titles > 1:
                return False
    return True


# "Curated TOC of the official oXygen manual, grouped by topic.", "An index of the API's endpoints": the file is
# itself a table of contents (of pages elsewhere)
_INDEX_FILE = rx.compile(r"(?:[\w-]+\s+){0,2}?(?:toc|table\s+of\s+contents|index)\s+of\s", re.I)


# an index by its name, in capitals as such files are written (`INDEX.md`; a lower-case `index.md` is as often a docs
# section's landing page: "# Index Configuration")
_INDEX_NAMES = frozenset({"INDEX", "TOC", "CONTENTS", "TABLE-OF-CONTENTS", "TABLE_OF_CONTENTS", "toc"})
# a title naming the file a table of contents: "API Table of Contents" (not "… Vector Index": a topic)
_INDEX_TITLE = rx.compile(r"\b(?:table\s+of\s+contents|toc)\s*(?:\([^()\n]{0,60}\))?\s*#*\s*$", re.I)


# a title ending "Reference / API / Docs / Files Index" ("Excel COM API Reference Index"): an index when the top links
# other files ("… Full-text & Vector Index" names a topic)
_INDEX_WORD_TITLE = rx.compile(r"\b(?:reference|api|docs?|documentation|files?|pages?)\s+index\s*#*\s*$", re.I)
INDEX_LINKS = 3  # links to other markdown files in the top that make an "… Index" titled file an index of them
# a database's or search engine's index is a topic, not a table of contents ("# MySQL 索引", "# 向量索引")
_ZH_INDEX_TOPICS = ("数据库", "數據庫", "数据表", "向量", "全文", "倒排", "联合", "聯合", "唯一", "主键", "主鍵", "复合",
                    "複合", "二级", "二級", "聚簇", "哈希", "空间", "空間", "mysql", "sql", "postgres", "mongo", "elastic",
                    "es", "redis", "表")


def _zh_index_title(title: str) -> bool:
    """A title ending in 索引 (index; "# 前端组件索引", "# API 文档索引"), not a database or search index's."""
    t = title.rstrip("# \t").lower()
    return t.endswith("索引") and not t[:-2].rstrip().endswith(_ZH_INDEX_TOPICS)


def _entries(lines: list[str]) -> int:
    """List items and table rows in the lines (an index's entries), counted up to INDEX_LINKS."""
    n = 0
    for line in lines:
        if line.lstrip().startswith("|") or _ITEM_TEXT.match(line):
            n += 1
            if n >= INDEX_LINKS:
                break
    return n


def _links_files(lines: list[str]) -> int:
    """Markdown links to other markdown files (`[range.md](range.md)`) in the lines, counted up to INDEX_LINKS."""
    n = 0
    for line in lines:
        k = line.find("](")
        while k >= 0 and n < INDEX_LINKS:
            close = line.find(")", k)
            target = line[k + 2:close].split("#", 1)[0].strip() if close > 0 else ""
            if target.endswith((".md", ".mdx")) and "://" not in target:
                n += 1
            k = line.find("](", k + 2)
        if n >= INDEX_LINKS:
            break
    return n


def index_file(lines: list[str], rel: str = "") -> bool:
    """The file is itself a table of contents or index: named so (`INDEX.md`, `TOC.md`), titled so ("API Table
    of Contents", or "… Index" above links to INDEX_LINKS other markdown files in the top), or its first line of
    text says so ("Curated TOC of the official manual"). One of its own would list its groups."""
    if rel.rsplit("/", 1)[-1].rsplit(".", 1)[0] in _INDEX_NAMES:
        return True
    for text in _opening(lines):
        if not text.startswith("#"):
            return _INDEX_FILE.match(text[:200]) is not None
        if text.startswith("# ") and (_INDEX_TITLE.search(text[:300]) or _INDEX_WORD_TITLE.search(text[:300])
                                      and _links_files(lines[:TOP_LINES]) >= INDEX_LINKS):
            return True
        if text.startswith("# ") and _zh_index_title(text[:300]) and _entries(lines[:TOP_LINES]) >= INDEX_LINKS:
            return True  # "# 前端组件索引" above its entries: an index in Chinese
    return False


# "Read the whole page before running any of it", "CRITICAL: Read complete step file before taking action",
# "Read this file in full": the file asks to be read whole
_READ_WHOLE = rx.compile(r"\bread\s+(?:(?:the|this)\s+)?(?:whole|entire|complete|full)\b"
                         # "Read this policy before changing any knowledge page": the file, before acting
                         r"|^\W{0,3}read\s+this\s+(?:policy|document|guide|file|page|checklist|spec(?:ification)?)"
                         r"\s+(?:before|first)\b"
                         r"|\bread\s+(?:it|this\s+(?:file|page|document|guide))\s+(?:in\s+full|completely|entirely)\b"
                         # "Follow top to bottom. Each step says who runs it": a checklist walked whole, in order
                         r"|^\W{0,3}(?:follow|work\s+through|go\s+through)\s+(?:it\s+|this\s+)?(?:from\s+)?top[\s-]+to[\s-]+bottom\b"
                         # "Walk **every** category below", "Go through each section below in order"
                         r"|\b(?:walk|go)\s+(?:through\s+)?[*_]{0,2}(?:every|each|all)[*_]{0,2}\s+(?:of\s+the\s+)?"
                         r"(?:categor(?:y|ies)|sections?|steps?|items?|checks?|stages?|phases?)\s+below\b"
                         # a catalog applied whole: "check each pattern against the target system and include any
                         # that apply" (each entry weighed against the case at hand)
                         r"|\b(?:check|test|evaluate|assess|weigh|compare)\s+(?:every|each)\s+[\w-]{3,24}\s+against\b"
                         # a checklist done whole: "Run every item", "Complete each step in order"
                         r"|\b(?:run|apply|complete|tick)\s+(?:every|each)\s+(?:items?|checks?|steps?)\b"
                         # each part worked through in turn: "Run each lens in order" (eight `### Lens N` sections)
                         # ("Execute all steps in exact order")
                         r"|\b(?:run|apply|complete|perform|execute|work\s+through)\s+(?:every|each|all)\s+[\w-]{3,24}\s+in\s+"
                         r"(?:exact\s+|strict\s+)?order\b"
                         # "Run this checklist before approving a PRD", "Every item must pass", "Mark an item as
                         # pass, needs work, or not applicable": each item of the checklist gets its verdict
                         # ("Use this checklist for fast manual audits": walked whole, as "Run this checklist")
                         # (not "Use this checklist to find the section for …": a look-up)
                         # (a rubric alike: "Use this rubric when reviewing Sentry issues")
                         r"|^\W{0,3}run\s+this\s+(?:checklist|rubric)\b|^\W{0,3}use\s+this\s+(?:checklist|rubric)\s+(?:for|before|after|when"
                         r"|whenever|during)\b|\b(?:every|each)\s+(?:item|check)\s+must\s+pass\b"
                         # "Use this checklist to verify generated skills before packaging": checked whole
                         r"|^\W{0,3}use\s+this\s+(?:checklist|rubric)\s+to\s+(?:verify|validate|check|review|audit|confirm|vet)\b"
                         # "Skip a line only when it does not apply": every other line applies
                         r"|\bskip\s+(?:a|an|any)\s+(?:line|item|check|step|rule)\s+only\s+(?:when|if)\b"
                         # "Mandatory rules for citing standards in any skill output": every rule applies, each time
                         r"|^\W{0,3}(?:mandatory|required|non-negotiable)\s+rules\s+(?:for|of|when)\b"
                         r"|\bmark\s+(?:each|every|an)\s+item\s+as\b"
                         # a question bank asked whole, in order: "Ask them in order. Do not move to the next group
                         # until the current group has answers."
                         r"|\bask\s+(?:them|these(?:\s+questions)?|the\s+questions|each\s+question)\s+in\s+order\b"
                         r"|\bdo\s+not\s+(?:move|proceed|skip)\s+(?:on\s+)?to\s+the\s+next\s+(?:group|section|step|phase)\b"
                         # "任何前端任务输出前，必须过一遍这个清单": go through this whole checklist (Chinese)
                         r"|(?:过|過)一遍(?:这|這|此)?(?:个|個|份)?(?:清单|清單|检查表|檢查表|列表)"
                         # "依次执行以下校验，……不跳过": every check below, in order, none skipped
                         r"|(?:依次|逐一|按顺序|按順序)(?:执行|執行)",
                         re.I)
MIN_SECTIONS = 3  # headings after the first: fewer, and the top of the file already shows the layout
DISTINCT_SECTIONS = 8  # heading texts past which a file has many sections (at most a few repeated labels among them)


def read_whole(lines: list[str]) -> bool:
    """One of the first TOP_LINES lines asks the agent to read the whole file, also across a line break in a wrapped
    paragraph ("Skip a line" / "only when it does not apply"): it is not previewed."""
    top = [line[:OVERVIEW_CHARS] for line in lines[:TOP_LINES]]
    if any(_READ_WHOLE.search(line) for line in top):
        return True
    return any(_READ_WHOLE.search(a.rstrip() + " " + b.lstrip()) for a, b in zip(top, top[1:], strict=False)
               if a.strip() and b.strip() and not b.lstrip().startswith(("#", "-", "*", "|", ">")))


# SKILL.md's own line sending the agent to read the file whole: "Read `references/transport-envelope.md` whole before
# starting", "read references/api.md in full" (not "Read `references/x.md` before starting")
_READS_FILE_WHOLE = lazy_compile(r"\b(read|load|follow|work\s+through|go\s+through)\b(?:[^.;\n]|\.(?=\S)){0,120}?\b(?:whole|in\s+full|completely|entirely"
                                 # "follow `prompts/audit-layer.md` inline": the subagent's prompt, carried out here
                                 r"|inline"
                                 # "Work through references/check-rules.md, in order": each part of it, in turn
                                 r"|in\s+(?:that\s+|this\s+|the\s+given\s+)?order(?!\s+to\b)"  # (not "in order to …")
                                 r"|in\s+its\s+entirety|end[\s-]+to[\s-]+end|cover[\s-]+to[\s-]+cover"
                                 # "Read `./tag-detection.md` and follow all steps": each step of the file, in turn
                                 r"|all\s+(?:the\s+|its\s+)?steps|every\s+step"
                                 # "Read `references/url-sources.md` and follow it": the procedure it holds, in turn
                                 r"|and\s+(?:follow|execute|carry\s+out)\s+(?:it|them|its\s+(?:steps|instructions)|the\s+steps)"
                                 # "read it and fill every placeholder": a template filled in whole
                                 r"|and\s+fill\s+(?:in\s+)?(?:every|each|all(?:\s+the|\s+its)?)\s+(?:placeholders?|fields?|slots?|blanks?))\b"
                                 # "先阅读 `references/implement.md`，并按指引逐步执行": read it, then carry it out step by step
                                 r"|(阅读|閱讀|读取|讀取|读|讀|加载|加載|载入|載入)[^。；\n]{0,80}?"
                                 r"(?:逐步执行|逐步執行|逐步操作|全文|完整阅读|完整閱讀"
                                 # "立即读取 `x.md` 并执行", "加载 `x.md` → 执行": read the step file and carry it out
                                 r"|(?:并|並|然后|然後|→|->)\s{0,2}(?:立即\s{0,2})?(?:执行|執行))", re.I)


def _skill_reads_whole(doc: SkillDocument, rel: str) -> bool:
    """A line of SKILL.md names the file and tells the agent to read it whole ("Read `x.md` in full"), or to follow the
    file itself end to end ("Follow `references/git-workflow.md` end-to-end"; not "Follow the end-to-end flow in
    `x.md`"), or a markdown file beside it does ("Read `./tag-detection.md` and follow all steps" in
    `references/pre-flight.md`): it is read, not previewed."""
    lines = doc.index.lines
    if _lines_read_whole([_with_next(lines, ln) for ln in doc.index.lines_with((rel,))], rel):
        return True
    folder, _, name = rel.rpartition("/")
    if not folder:
        return False
    key = ("\0md by folder",)
    by_folder = doc._resolved.get(key)  # (a tuple key never meets resolve()'s string keys)
    if by_folder is None:
        by_folder = doc._resolved[key] = {}
        for bf in bundled_markdown_files(doc):
            by_folder.setdefault(bf.rel.rpartition("/")[0], []).append(bf)
    return any(bf.rel != rel and name in bf.text
               and _lines_read_whole(lines_holding(bf.text, (name,), WHOLE_LINES), name)
               for bf in by_folder.get(folder, ()))


def _with_next(lines: list[str], ln: int) -> str:
    """The line, and the next one when it goes on with the same paragraph ("… — read it and fill" / "every
    placeholder."): not a blank line, a list item, a heading, a table row or a quote."""
    line = lines[ln]
    nxt = lines[ln + 1] if ln + 1 < len(lines) else ""
    if not line.strip() or not nxt.strip() or nxt.lstrip().startswith(("#", "-", "*", "|", ">", "`")) or \
            nxt.lstrip()[:1].isdigit():
        return line
    return line.rstrip() + " " + nxt.strip()[:WHOLE_LINE_CHARS]


WHOLE_LINES = 200  # lines of a sibling naming the file that are read (bounded)


def _lines_read_whole(lines: list[str], rel: str) -> bool:
    """One of `lines` (those naming `rel`) asks for the file to be read whole (_skill_reads_whole)."""
    for line in lines:
        for m in _READS_FILE_WHOLE.finditer(line, 0, WHOLE_LINE_CHARS):
            if (m.group(1) or "").lower() == "read" or m.group(2) is not None or rel in m.group(0):
                return True
        at = line.find(rel)
        if 0 <= at < WHOLE_LINE_CHARS and _APPLIES_EVERY.search(line, at + len(rel), at + len(rel) + EVERY_GAP):
            return True  # "Read `references/anomaly-rules.md`. … Evaluate every applicable rule": a registry applied whole
        if 0 < at < WHOLE_LINE_CHARS and _EVERY_ITEM_IN.search(line, max(0, at - EVERY_IN_GAP), at) is not None:
            return True  # "Put every question in `references/failure-classes.md` to the diff": a checklist applied whole
        if 0 <= at < WHOLE_LINE_CHARS and _FOR_THE_FULL.match(line, at + len(rel)) is not None \
                and _READ_VERB.search(line, max(0, at - READ_GAP), at) is not None:
            return True  # "Read `references/TAILORING.md` for the full workflow": the whole procedure it holds
        if 0 < at < WHOLE_LINE_CHARS and _RUN_PASS_USING.search(line, max(0, at - PASS_GAP), at) is not None:
            return True  # "Run the authenticity pass using [x.md](references/x.md)": a procedure carried out whole
        m = _READ_THE_FULL.search(line, 0, WHOLE_LINE_CHARS)
        if m is not None:  # "Read the full reference rules: `references/dendritic-rules.md`": the file, right after
            at = line.find(rel, m.end(), m.end() + FULL_GAP + len(rel))
            if at >= 0 and not any(c in ".;" for c in line[m.end():at].rstrip("`(['\" ./")):
                return True
    return False


# "Run the authenticity pass using [authenticity.md](references/authenticity.md)", "Perform the security review per
# `x.md`": a pass, check or review done by the file's procedure, so the whole file (not "Run tests using pytest")
_RUN_PASS_USING = lazy_compile(r"\b(?:run|do|perform|execute|carry\s+out|complete)\s+(?:the\s+|an?\s+|your\s+|this\s+)?"
                               r"(?:[\w-]{1,30}\s+){0,3}?(?:pass|check|audit|review|procedure|protocol|checklist)\s+"
                               r"(?:using|following|per|against)\s"
                               # Polish: "Audyt … prowadzisz według `x.md`" (you conduct the audit per the file)
                               r"|\b(?:prowadzisz|prowad[źz]|przeprowad[źz]|przeprowadzasz|wykonaj|wykonujesz)\s+"
                               r"(?:[\w-]{1,30}\s+){0,2}?wed[łl]ug\s", re.I)
PASS_GAP = 160  # characters before the path in which the pass is named (a link's label may come between)
# (also with the link's label opening between: "Read [the complete client contract](references/client-contract.md)")
_FOR_THE_FULL = lazy_compile(r"[`'\")\]]{0,3}\s{1,3}for\s+the\s+(?:full|complete|entire|whole)\s+(?:[\w-]{1,30}\s+){0,2}?"
                             r"(?:workflow|process|procedure|steps|playbook|flow|method|guide|instructions)\b", re.I)
_READ_VERB = lazy_compile(r"\b(?:read|follow)\b", re.I)  # ("Follow `handlers/tdd.md` for the full RED-GREEN-REFACTOR flow")
# after the file's name: every rule or check it holds is applied ("Evaluate every applicable rule against the data")
_APPLIES_EVERY = lazy_compile(r"\b(?:evaluate|apply|check|run)\s+(?:every|each|all)\s+(?:(?:applicable|relevant|of\s+the)\s+)?"
                              r"(?:rules?|checks?|criteria|criterion)\b"
                              # "Read `x.md` before planning commits. Apply it to every commit": a standard, all of it
                              r"|\b(?:apply|follow|enforce)\s+(?:it|them|this|these|the\s+standard)\s+(?:to|on|for)\s+"
                              r"(?:every|each|all)\b", re.I)
EVERY_GAP = 300  # characters after the file's name looked at
# "every question in `x.md`", "each check listed in `x.md`", "all the rules from `x.md`": each item of the file, right
# before its name (only items a checklist holds: not "every example in `x.md`")
_EVERY_ITEM_IN = lazy_compile(r"\b(?:every|each|all(?:\s+(?:the|of\s+the))?)\s+(?:questions?|checks?|rules?|items?|criteria"
                              r"|criterion|gates?|lens(?:es)?|requirements?|checkpoints?|axis|axes|dimensions?"
                              r"|principles?|heuristics?)\s+(?:listed\s+)?(?:in|from)\s+"
                              r"(?:\[[^\]\n]{0,60}\]\(|[`'\"]|\./){0,2}$", re.I)
EVERY_IN_GAP = 100  # characters before the file's name looked at
READ_GAP = 40  # characters before the file's name where "Read" must stand ("see `x.md` for the full …" is a pointer)
_READ_THE_FULL = lazy_compile(r"\bread\s+\[?the\s+(?:full|entire|complete)\b", re.I)
FULL_GAP = 60  # characters between "Read the full …" and the file's name


WHOLE_LINE_CHARS = 1_000  # of a line naming the file, searched (each `read` looks 120 characters on: bounded work)


FENCED_SHARE = 0.5  # share of a template file's lines inside its fenced blocks: more than half ("mostly")
TEMPLATE_BLOCKS = 3  # blocks of one template (a skeleton, a filled-in sample, a command); more: a catalog of templates


_TEMPLATE_NAMES = ("template", "scaffold", "skeleton", "boilerplate")  # (`html-scaffold.md`: an HTML page taken whole)


def fenced_template(rel: str, lines: list[str]) -> bool:
    """A template file (`*template*`, `*scaffold*`, `*skeleton*`, `*boilerplate*` in its name) that is mostly fenced blocks: one
    (a Jinja2 handoff rendered whole), or at most three (a SKILL.md skeleton in a ```` ```markdown ```` block and a
    filled-in sample in another): the agent fills in and copies a block; a table of contents would list the template's
    headings. A catalog of more templates to choose from (`## Template 1: Visual changes` … with eight blocks) is a
    look-up, and still reported."""
    base = rel.rsplit("/", 1)[-1].lower()
    if not any(w in base for w in _TEMPLATE_NAMES):
        return False
    fence, start, fenced, longest, blocks = "", 0, 0, 0, 0
    for i, line in enumerate(lines):
        after, is_fence = fence_step(fence, line)
        if is_fence and not fence:
            start = i
        elif is_fence and not after:
            fenced += i - start + 1
            longest = max(longest, i - start + 1)
            blocks += 1
        fence = after
    share = FENCED_SHARE * len(lines)
    return longest > share or (fenced > share and blocks <= TEMPLATE_BLOCKS)


# "One section per tracked package", "one `## vendor/package` section per entry", "Each section is one endpoint": the
# headings are a registry's keys, named by a scheme the top states, which the agent looks an entry up by
_KEYED_SECTIONS = rx.compile(r"\b(?:one|a)\s+(?:`[^`\n]{1,40}`\s+)?(?:section|heading)\s+(?:per|for\s+(?:each|every))\s+\w"
                             r"|\beach\s+(?:`[^`\n]{1,40}`\s+)?(?:section|heading)\s+(?:is|covers|describes|documents|holds)"
                             r"\s+(?:one|a|an|the)\s+\w", re.I)


def keyed_sections(lines: list[str]) -> bool:
    """One of the first SCOPE_LINES lines says each section is one entry of a registry ("One section per tracked
    package. Section headings (`## vendor/package`) are the single source of truth"): the agent finds an entry by its
    key; a table of contents would repeat every heading."""
    return any(_KEYED_SECTIONS.search(line[:OVERVIEW_CHARS]) for line in lines[:SCOPE_LINES])


def few_sections(lines: list[str], example: frozenset[int] = frozenset()) -> bool:
    """Fewer than MIN_SECTIONS headings after the first one, outside fenced code (and outside `example`: an
    example the author fenced, which a nested fence cut open): a table of contents would list one or two
    sections (or none: a file without headings, such as one structured by XML tags)."""
    labels = 0  # `## Reference`, `## See also`: sections unless the file is one rule's examples (`### Incorrect`)
    pair = False
    fence = ""
    tags: list[str] = []  # the prompt-structure tags open here (`<formats>`, `<format id="spec">`)
    closed = {m.group(2) for ln in lines if ln.startswith("</") and (m := _TAG_LINE.fullmatch(ln.rstrip()))}
    texts: dict[str, int] = {}  # each section heading's text, and how often it is written
    for i, line in enumerate(lines):
        fence, is_fence = fence_step(fence, line)
        if fence or is_fence:
            continue
        if line.startswith("<") and closed:
            _tag_step(tags, line, closed)
            continue
        if (m := _ATX.match(line)) and i not in example and not tags:
            label = _example_label(line[m.end():])
            if label is None:
                text = line[m.end():].strip().strip("#").strip().lower()
                texts[text] = texts.get(text, 0) + 1
                if len(texts) > DISTINCT_SECTIONS:
                    return False  # (bounded: so many sections are no few, whatever repeats)
            elif label in _PAIR_LABELS:
                pair = True
            else:
                labels += 1
    # a heading written under each example (`### Snapshot YAML`, `### Corresponding Java test method` under `## Example
    # 1` and `## Example 2`) labels the parts of every one: no section of its own
    heads = sum(1 for n in texts.values() if n == 1)
    return heads + (0 if pair else labels) <= MIN_SECTIONS


# the headings that label one rule's examples (`### Incorrect`, `### Correct`: the layout of a best-practices rule file,
# one rule per file) and, in such a file, its sources (`## Reference`): a table of contents would list only labels
_PAIR_LABELS = frozenset({"incorrect", "correct", "bad", "good", "wrong", "right", "before", "after", "avoid", "prefer",
                          "do", "don't", "do not", "dont"})
_EXAMPLE_LABELS = _PAIR_LABELS | {"reference", "references", "see also"}
_LABEL_STARTS = tuple(sorted({w.split()[0] for w in _EXAMPLE_LABELS}))
# after the label: a gloss in brackets or after a dash, a colon ("Incorrect (blocks the loop):", "Correct — async
# client"); not after a colon ("Example: deploying to Cloud Run" names a topic)
_LABEL_END = lazy_compile(r"\s*(?:\([^()]*\)|[—–-]\s.*)?\s*:?$")


def _example_label(text: str) -> str | None:
    """The label the heading's text (after its `#`s) is, lowercased (`Incorrect`, `✅ Correct:`, `Bad (N+1 queries)`,
    `Reference`), or None."""
    t = text.strip().strip("#").strip().lstrip("❌✅✔✗✘👎👍🚫⛔ *_").lower()
    if len(t) > 60 or not t.startswith(_LABEL_STARTS):
        return None  # (most headings: no regex)
    head = _LABEL_END.sub("", t, count=1).strip(" *_")
    return head if head in _EXAMPLE_LABELS else None


# a line that is only an opening or closing tag of a prompt's structure (`<formats>`, `<format id="spec">`,
# `</format>`; a lowercase name); HTML's own elements (`<details>`, `<div>`) and MDX components (`<Update>`) hold the
# file's sections, not a template's
_TAG_LINE = rx.compile(r"<(/?)([A-Za-z][\w-]{0,40})((?:[ \t]+[\w:-]{1,40}(?:=(?:\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|[\w.-]{1,40}))?)"
                       r"{0,12})[ \t]*>[ \t]*")
MAX_TAGS = 32  # prompt-structure tags open at once that are followed (deeper: treated as not closed)


def _tag_step(tags: list[str], line: str, closed: set[str]) -> None:
    """Open or close a prompt-structure tag a line holds alone (`<format id="spec">` … `</format>`); a tag no line
    of the file closes (`<class 'ctypes.c_long'>` printed by a doctest) opens nothing."""
    m = _TAG_LINE.fullmatch(line.rstrip())
    if m is None or not m.group(2)[0].islower() or m.group(2) in HTML_ELEMENTS or line.rstrip().endswith("/>"):
        return  # (an MDX component, `<Update label="…">` or `<Tabs>`, holds the page's own sections)
    name = m.group(2)
    if m.group(1):
        if name in tags:
            del tags[len(tags) - 1 - tags[::-1].index(name):]
    elif len(tags) < MAX_TAGS and name in closed:
        tags.append(name)


def _few_sections(bf) -> bool:
    """few_sections, reading a markdown template that a nested fence cut open (```` ```markdown ```` holding
    ```` ```mermaid ````) as the author meant it: its headings are the template's, not the file's."""
    if few_sections(bf.lines):
        return True
    example = bundled_example_lines(bf)
    return bool(example) and few_sections(bf.lines, example)


_ATX = rx.compile(r" {0,3}#{1,6}(?:\s|$)")


def _reference(rel: str, doc: SkillDocument) -> bool:
    """A file the agent reads as a reference: under references/ (or reference/), named in SKILL.md, or under
    docs/ unless SKILL.md surely never reaches it (a maintainers' page: "the AI does not need to read this")."""
    base = rel.rsplit("/", 1)[-1].lower()
    if base.startswith(_NOT_REFERENCES) or any(p in _RELEASE_DIRS for p in rel.lower().split("/")[:-1]):
        return False  # (`docs/plugins/backtest/release/3_00_2.md`: one version's release notes, for people)
    if rel.startswith(("references/", "reference/")) or rel in doc.text:
        return True
    if not rel.startswith("docs/"):
        return False
    r = reach(doc)
    return not (r.complete and not doc.files.truncated and r.unreached([rel]))


_TEMPLATE_FOLDERS = ("templates/", "template/", "assets/")


def _output_template(rel: str, text: str) -> bool:
    """A template of a document the skill writes: `templates/docs/STYLING.md` when SKILL.md names the output
    `docs/STYLING.md` on its own too (not only as part of the template's path). The agent copies it into the
    user's project; it is not a reference the agent previews."""
    if not rel.startswith(_TEMPLATE_FOLDERS):
        return False
    out = rel.split("/", 1)[1]
    if text.count(out) <= text.count(rel):
        return False
    if "/" in out:
        return True
    # a bare name (`templates/plan-full.md` for `plan-full.md`) only as what a command writes:
    # `--output plan-full.md`, `-o out/plan-full.md`, `> plan-full.md` (the first 50 mentions are looked at)
    i, seen = text.find(out), 0
    while i >= 0 and seen < 50:
        end = i + len(out)
        if not _NAME_CHAR.match(text, end) and (i == 0 or text[i - 1] in _PATH_START) \
                and _WRITES_TO.search(text, max(0, i - 120), i) is not None:
            return True
        i, seen = text.find(out, end), seen + 1
    return False


_NAME_CHAR = lazy_compile(r"[\w.-]")
_PATH_START = frozenset(" /=>\t\n`'\"")
# an output option or a redirection, then the start of the path, right before the name
_WRITES_TO = lazy_compile(r"(?:--out(?:put)?[= ]|\s-o |>\s?)[^\s`'\">]{0,100}$")


@rule("REFERENCE_NO_TOC", family="body", severity=Severity.INFO)
def reference_no_toc(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A bundled reference file over 100 lines has no table of contents near its top.

    ## What it does
    Looks at every bundled markdown file that the agent reads as a reference: files under
    `references/` (also `reference/`, and `docs/` unless SKILL.md surely never reaches the file, directly or
    through the files it reaches) and any markdown file whose path SKILL.md names, but
    not READMEs, changelogs (also release notes in a `release/`, `releases/` or `changelog/` folder), licences
    and contributing guides (written for people), nor fill-in
    document templates under `assets/` or `templates/` or named `*template*` (three or more
    `[Client name]`-, `{client}`-, `{标题}`-, `{{CLIENT_NAME}}`- (`{{Project Name}}`, `{{project-name}}`; not template
    code, `{{ var }}`) or `<project-name>`-style fields or empty form fields (`- **Recommendation:**`) outside code, or one-word
    `<N>`-style ones (not an HTML element) and `YYYY-MM-DD` in its first 15 lines: copied whole into the
    agent's output, where a table of contents does not belong), nor a template whose path under
    `templates/` or `assets/` is an output path that SKILL.md names (`templates/docs/STYLING.md` for
    `docs/STYLING.md`: copied into the user's project; a bare name such as `templates/plan-full.md` only
    as what a command writes: `--output plan-full.md`), nor prompts handed whole to a subagent
    (the first line of text, after any frontmatter, headings, `---` breaks and one-line comments, starts "You are …", "你是…" or "你现在是…",
    or a heading above it names the file a subagent's spec / prompt / instructions: "# Candidate extraction
    (subagent spec)";
    or, in an `agents/` folder, a role card titled "# <Name> Agent" with a `## Role` section in its first 12 lines
    and no second title: skill-creator's `agents/comparator.md`), nor a command's prompt, run whole (its first line of
    text holds `$ARGUMENTS`, Claude Code's argument placeholder: "Generate handoff documentation for: $ARGUMENTS"), nor a
    file that is itself a table of contents or index: named so in capitals (`INDEX.md`, `TOC.md`; a lower-case
    `index.md` is as often a docs page), titled so ("API Table of Contents", or "Excel COM API Reference Index", a "Reference / API / Docs /
    Files Index" above three or more links to other markdown files in its first 30 lines; not "Vector Index"; or a title
    ending in 索引, index, above three or more list items or table rows, `# 前端组件索引`; not a database's or search
    engine's index, `# 数据库索引`, `# MySQL 索引`), or whose first line of text says so ("Curated TOC of the official manual, grouped by topic", "An
    index of the API's endpoints"), nor a template file (`*template*`, `*scaffold*`, `*skeleton*`, `*boilerplate*`) that is mostly (more than half) one fenced block (a
    Jinja2 handoff the skill renders whole) or at most three (a SKILL.md skeleton in a ```` ```markdown ```` block
    beside a filled-in sample; a catalog of more templates to choose from is a look-up, and reported), nor a registry whose first 10 lines say each section is one entry ("One section per tracked package",
    "one `## vendor/package` section per entry", "Each section is one endpoint": the agent finds an entry by its key),
    nor files whose
    first 30 lines ask to be read whole, also across a line break in a wrapped paragraph ("Read the whole page before
    running any of it", a line opening "Read
    this policy before changing any page", "Read complete
    step file before taking action", "Walk **every** category below", a checklist's "Run every item", a catalog's "check each pattern against
    the target system", "Run this
    checklist before approving", a line opening "Use this checklist (or rubric) for / before / after / when …" or "Use this checklist to verify /
    validate / check / review / audit / confirm …" (not "Use this checklist to find the section …", a look-up), "Every item must pass", a line opening
    "Mandatory rules for …" (every rule applies each time), "Mark an item as pass, needs work, or not applicable", a question bank's "Ask
    them in order. Do not move to the next group until …", "Run each lens in order" above the lenses' sections, "Execute all steps in exact order",
    in Chinese "必须过一遍这个清单" (go through this whole checklist), "依次执行以下校验…不跳过" (run each check below in order,
    skip none), a checklist's "Skip a line only when it does not apply", "Follow top to bottom" opening a line;
    not "Run each command" alone) or that a line of SKILL.md naming them asks to be read whole
    ("Read `references/transport-envelope.md` whole before starting", "Follow `references/git-workflow.md`
    end-to-end", "follow `prompts/audit-layer.md` inline" (a subagent's prompt, carried out by the main agent), "Work
    through references/check-rules.md, in order", "Read the full reference rules: `references/rules.md`", "Read [the complete client
    contract](references/client-contract.md)", "Run the authenticity pass using [authenticity.md](references/authenticity.md)"
    (run / do / perform / execute / complete a pass, check, audit, review, procedure, protocol or checklist using /
    following / per / against the file; not "Run the tests using pytest; see `x.md` for the rules"; in Polish "Audyt …
    prowadzisz według `x.md`", you conduct it per the file), "Read `x.md` and follow all steps" (or "and follow / execute it", "Load `x.md` and follow its instructions"), "Read / Follow `x.md` for the full (RED-GREEN-REFACTOR) workflow" (or guide, instructions; up to two words between)
    (or process, procedure, steps; not "for the full list", nor "see `x.md` for the full …", a pointer), "Read
    `references/anomaly-rules.md`. … Evaluate every applicable rule" (evaluate / apply / check / run every / each / all
    rules / checks / criteria, after the name on its line: a registry applied whole; also "Read `x.md` before planning
    commits. Apply it to every commit": a standard applied whole; or "Put every question in
    `references/failure-classes.md` to the diff", "Walk every axis in `axes.md`": every / each / all question,
    check, rule, item, criterion, gate, requirement, axis, dimension, principle or heuristic in it, right before its
    name; not "every example in `x.md`"; "… `references/brief.md` — read it and fill every placeholder": a template filled
    in whole, the sentence followed onto the next line of its paragraph), in Chinese "先阅读 `x.md`，并按指引逐步执行" (read it,
    then carry it out step by step), "立即读取 `x.md` 并执行" / "加载 `x.md` → 执行" (read or load it and carry it out); also
    such a line in a markdown file
    beside it: `references/pre-flight.md` saying "Read `./tag-detection.md` and follow all steps"; not "Read `references/x.md` before
    starting", nor "Follow the end-to-end flow in `x.md`"), nor files with fewer than three headings after the first (a table
    of contents would list one or two sections; in a file of one rule's examples, a heading that labels them or the
    rule's sources is no section: `### Incorrect (…)`, `### ✅ Correct:`, `Bad`, `Good`, `Before`, `After`, nor is a heading
    written again under each example (`### Snapshot YAML` under each numbered example section), and there
    `## Reference`, the layout of a best-practices file holding one rule; `## References` beside topics still counts;
    or none in a file structured by XML tags, whose headings inside a
    tag opened and closed on lines of their own, such as an output template's `<format id="spec">` … `</format>`, are
    the template's (not inside HTML's own `<details>` or `<div>`, nor an MDX component's `<Update label="…">`); the
    headings of a
    markdown template that a nested fence cut open, such as a ```` ```mermaid ```` block inside
    ```` ```markdown ````, are the template's, not the file's). A file of more
    than 100 lines is reported, on its first line, when none of its first 30 lines (nor of the 30 after its frontmatter,
    if it opens with one) starts a table
    of contents: a heading or bold label such as `Contents`, `Table of contents`, `On this page`,
    `In this guide`, `目录`, `索引` (a heading may go on after `·`, `：`, `—` or `|`: `## 索引 · 各类型读哪几段`); a marker such as `[TOC]`, `[[_TOC_]]`, `<!-- toc -->`; or two list items (or table rows, by a cell that is the link alone) that
    link to the file's own headings (`- [Setup](#setup)`, `| Design | [Part 1](#part-1) |`; also by the page's full address, as a crawled docs page's
    sidebar does: `* [JWT Tokens](https://x.io/api.html#jwt-tokens)` beside `## JWT Tokens`, not links to other
    sites' anchors), a `Contents:` label followed by such links on
    its line, or three plain list items naming the file's own headings; or, in its first 10 lines, a sentence
    saying what the file covers and listing it ("This file covers setup, multi-surface patterns, and
    streaming.": "this / the file / document / doc / guide / reference / page / topic / article / section /
    chapter / example / walkthrough / tutorial" then "covers / contains / describes / documents / explains /
    includes / shows / demonstrates / lists / outlines / walks through / provides / specifies / details / summarises /
    explores / discusses / introduces / presents / defines",
    "it covers / demonstrates / outlines
    / walks through", "these instructions / notes / guidelines / pages / docs / sections cover / contain / describe /
    … " (a sentence ending in a colon goes on into the next line of prose: "These instructions cover the assembly of
    the package:" / "DOCX-to-PDF conversion, coordinate discovery, script invocation, and output delivery."); a line ending
    "you will learn (to):" / "you'll learn how to:" / "What you will learn:" with a list of two or more items right
    after it ("In this guide, you will learn to:" and what it teaches); "use / consult / see / read this reference / file / guide … for / when" ("Use this reference for
    Docker, SearXNG, Crawl4AI, cache, CLI, and HTTP API questions."), or Chinese, simplified or traditional, `本文档介绍` / `本文件维护` / `本文件規範` / `本文将为大家介绍`…, also
    "this section / chapter" and a short phrase before the verb, the list counted by its `、` (`本节以简短的例子展示如何完成快速
    部署、建立数据库、…`, `本小节将从构造函数、订阅和取消订阅进行介绍`; not `本文将介绍…的使用方法，帮助用户…，提升…`, whose `，` join
    clauses); or a sentence with no subject opening a line
    or after another sentence's end, or a verbless lede opening a line with the file's kind ("Reference material for payroll
    posting, tax reporting, period close, …"; also "Background / Supporting notes / information / details for / on /
    about …") ("Defines the formulas for …", "Covers email login, …", "Handles Phase 5:
    saving sessions, exporting transcripts, …", "A guide to
    indexes. Covers when to index, …"; "…配置文件。维护…", also after an adverb: "完整记录 … 的采集、计算、展示算法"); the
    sentence, which may run on
    to the next line, going on to list three or more things (commas, `、` and `，` count, and "and" / 和 before
    the last item: "A, B and C", "A、B和C"), or two after a colon: "This topic describes two methods: exact search and approximate
    search"), or a
    frontmatter `description:` (or `summary:`, `scope:`, `covers:`, `topics:`, a leaf file's `load_when:`; on its
    line or a block scalar's lines) that lists three or more things (also separated by ` / `: `Submission / Gate1 /
    Review`, or by ` + `)
    (two commas; `、` and `，` count); or the first 30 lines name three of the file's later headings in any form: an outline
    (`**Lifecycle:** A → B → C` above `## Step 1: A` …, also drawn in a code block: `Step 3a → Step 3b`, or an outline of `Stage 1: Baseline Check` (or `Layer 5 …`) lines, or numbered lines there: `1. BACKLOG → task recorded` for
    `### 1. BACKLOG`; or a box-drawn diagram there (or an arrow-drawn one: a ladder `Project scope` `↓ …` `Global
    scope` above `## Project → Global`), a decision tree ending in `ExcelInvoice Mode`, … that has every
    word of three main headings below it, and of more than half of them, but the words three headings share:
    `ExcelInvoice` for `## ExcelInvoice Mode`; a drawing of the code's flow, `CachedCustomerRepository` over `##
    Cached Repository Decorator`, names none, and an element tree naming three of six sections is no outline), or a code
    block there listing the calls the file documents, one per line (`cgc_symbol_search(…)`, `cgc_callers(…)` above `##
    Symbol Search`, `## Callers`: the words of a call's name hold every word of three main headings, and of more than
    half of them), a numbered list of the steps, an overview table or
    list whose items the headings contain (`| Teacher | …` for `## Teacher tools`; a list item's bold label of two or
    more words before its `: ` gloss, `- **Bulk Start**: Start multiple services`; a later column's cell that is one
    bold label too: `| Single person | **SOLO** |` for `## SOLO Profile`), prose naming them (two
    words or ten letters; shorter one-word headings of the main sections, or their one-word name before ` — `
    or `:`, only three or more in one sentence of prose: "the memory rules, the pin and overview formats, the
    audit and the commit" for `## Memory — read it`, `## Pin`, `## Overview`, `## Audit`, `## Commit`; also a line enumerating them with
    `、`: `小红书、抖音、微博。`, two CJK characters a whole name; or a line's bold labels, two or more inline
    (`**方案A Hodor**——…；**方案B 编程式**——…` for `## 2. 方案A：Hodor 插件`, a colon after a heading's label read as a
    blank); also the title's list after a colon, `# auto-ledger:
    file layout, checklist, rules in force, recovery`) or whose numbered parts
    they are (`(round 2)` in a row for `## Round 2: How work reaches you`). A heading's clause reference is not
    part of its name (`### Randomization (§21.4)`, `(section 3.2)`, `(4.1)`), nor is a catalog's code before a dash
    (`## A01:2025 — Broken Access Control` is named "Broken Access Control"); a heading made of code identifiers of
    ten or more characters is also named without a trailing gloss in brackets (`SandboxPool` for
    `## SandboxPool (Pre-warm)`) or by one identifier of several joined by ` + ` or ` & `
    (`ManagedAgentsBatchClient` for `## BatchJob + ManagedAgentsBatchClient`); a heading in words keeps its whole name, but for a bracketed gloss that points elsewhere or flags the section (`## Page-Type
    Checklists (for {{page_type_checklist}})`, `## Voice rules (CRITICAL)`, `(NEW)`, one word in capitals as written,
    `(see …)`, `(<name>)`). So does a title that lists the file's two
    to six main sections, one item each by its first word (`# Tool catalog, advanced builds and recipes` over
    `## Tool catalog (79)`, `## Advanced builds …`, `## Recipes`; items may be joined by `&`: `# Daemon management &
    multi-instance reference` over `## Daemon commands`, `## Multi-instance …`; not `# Automation, shell pipelines and batch processing`
    over sections it does not name), or whose list after a colon names, by first words, every main section below the
    top 30 lines, each of its items naming a main section (`# rung config reference: policy and bundle` over
    `## Policy` at line 17 and `## Evidence bundle` at line 93: with the headings in view, the whole outline is
    seen), and a colon's list in the first 10 lines whose three or more short items each
    name a different main section by a word ("High-level asset operations: duplicate, token-aware rename,
    dependency-aware delete, and sprite swap." over `## Duplicate Asset` … `## Swap Sprite`, also when the list
    starts on the line after the colon; an item of five or six words by two: "cache warmup on cold start" for
    `## Test 2: Cache Warmup on Cold Start`; no verb needed; a plural
    names its section in a sentence too: "dates" for `## Date`), and code spans in the first 30 lines that give the
    code names starting three or more main sections (a table listing `scripts/app`, `scripts/api` above
    `## scripts/api - ComfyApi` …; names with `/`, `.`, `_`, `(` or `::` only). So does, in the first 10 lines, a
    `## Purpose` (`Scope`, `Overview`, `About`, `Summary`) section whose first sentence lists three or more topics,
    with or without a verb ("Common TDD mistakes, rationalizations, and red flags to avoid."; its last two items short,
    not a phrase: "…, with complete RED/GREEN/REFACTOR cycles and step-by-step walkthroughs" still fires). A file whose headings (two or more,
    outside code blocks) all sit in the first 30 lines is not reported either: the preview shows its whole outline,
    and the rest is one section's body. A list item's name is what comes
    before a gloss after a dash or in closing brackets (`- **Setup** — install the CLI` for `## Setup`,
    `- **类 I：AI 自检（看自己输出即可）** — …` for `## 类 I：AI 自检（看输出即可，18 条）`; not after a colon:
    `- **Format**: `{service}_{action}`` is a key and its value). So does a CJK noun list as the first sentence under
    the title, three or more short topics joined by `・` or `、` and no verb needed (`3作品の楽曲構成・BPM・小節数・
    サウンドメイキングロジック。`, which says what "Covers the song structure, BPM, bar counts and sound logic" says; an
    English list there needs its verb: "Seven endpoints, Bearer auth, JSON in and out." still fires, since commas
    as often join a clause's parts).

    ## Why is this bad?
    Anthropic's skill authoring guide: for reference files longer than 100 lines, include a table of
    contents at the top, so that the agent sees the full scope of the file even when it previews
    only its beginning (`head -100`) and can jump to the section it needs.

    ## Example
    ```text
    references/api.md, 420 lines:
      line 1    # API reference
      line 3    ## Authentication
      line 90   ## Endpoints
      line 300  ## Errors
    ```

    Use instead:
    ```text
    references/api.md, 426 lines:
      line 1    # API reference
      line 3    ## Contents
      line 4    - [Authentication](#authentication)
      line 5    - [Endpoints](#endpoints)
      line 6    - [Errors](#errors)
      line 9    ## Authentication
    ```

    ## Fix
    Add a `## Contents` list of links to the file's headings right after its title.
    """
    for bf in bundled_text_files(doc):
        if not bf.is_markdown or not _reference(bf.rel, doc):
            continue
        if bf.text.count("\n", 0) < MIN_LINES:
            continue  # most files: no line index needed
        lines = bf.lines
        n = len(lines) - (1 if lines and lines[-1] == "" else 0)
        if n <= MIN_LINES or has_toc(lines) or fill_in_template(bf.rel, lines) or prompt_file(lines) \
                or _agent_prompt(bf.rel, lines) or index_file(lines, bf.rel) \
                or read_whole(lines) or _output_template(bf.rel, doc.text) or fenced_template(bf.rel, lines) \
                or _few_sections(bf) or _skill_reads_whole(doc, bf.rel) or keyed_sections(lines):
            continue
        yield ctx.finding(bf.index.trimmed_line_range(0),
                          f"`{bf.rel}` has {n} lines and no table of contents in its first {TOP_LINES} lines;"
                          " an agent that previews the top does not see what the file covers", file=bf.rel)
