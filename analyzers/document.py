"""SkillDocument: one parse of a SKILL.md (frontmatter nodes, markdown structure, skill context)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, count
from operator import add
from pathlib import Path
from typing import Any

from .findings import Pos, Range
from .lazy_re import lazy_compile

_NEWLINE = lazy_compile(r"\r\n|\r|\n")


def _line_of(p: ProseLine) -> int:
    return p.line


def _find(text: str, needle: str | re.Pattern[str], pos: int) -> int:
    if isinstance(needle, str):
        return text.find(needle, pos)
    m = needle.search(text, pos)
    return m.start() if m is not None else -1


def lines_holding(text: str, needles: tuple[str, ...], limit: int) -> list[str]:
    """The lines of `text` holding any of `needles` (substrings), each once, in order, at most `limit`: found by
    `str.find` from line to line, for a text that has no LineIndex (a package's source, a sibling file) and needs
    none (LineIndex.lines_with is the indexed form)."""
    starts: set[int] = set()
    for needle in needles:
        i = text.find(needle)
        while i >= 0 and len(starts) < limit:
            starts.add(text.rfind("\n", 0, i) + 1)
            end = text.find("\n", i)
            if end < 0:
                break
            i = text.find(needle, end)
    out = []
    for a in sorted(starts)[:limit]:
        b = text.find("\n", a)
        out.append(text[a:b if b >= 0 else len(text)])
    return out


class LineIndex:
    """Maps offsets (code points) to 0-based line/character and back; LSP line breaks only."""

    __slots__ = ("text", "starts", "lines", "_found")

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict | None = None  # lines_with's answers, by needles
        if "\r" in text:
            parts = _NEWLINE.split(text)
            seps = [m.group(0) for m in _NEWLINE.finditer(text)]
        else:
            parts = text.split("\n")
            seps = None
        # starts[i] = the lengths of the lines and separators before line i (prefix sums, at C speed)
        if seps is None:
            self.starts = list(map(add, accumulate(map(len, parts[:-1]), initial=0), count()))
        else:
            self.starts = list(accumulate((len(p) + len(sp) for p, sp in zip(parts[:-1], seps, strict=True)), initial=0))
        self.lines = parts

    def pos(self, offset: int) -> Pos:
        import bisect

        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return Pos(line, min(offset - self.starts[line], len(self.lines[line])))

    def offset(self, pos: Pos) -> int:
        line = max(0, min(pos.line, len(self.starts) - 1))
        return self.starts[line] + min(pos.character, len(self.lines[line]))

    def lines_with(self, needles: tuple[str | re.Pattern[str], ...]) -> list[int]:
        """The lines holding any of `needles` (substrings or patterns, neither spanning a line break), in
        order: one pass over the text per needle and a bisection per hit, instead of a loop over every
        line. A pattern should start with a literal, which re scans for as fast as str.find.

        Kept per needles (several rules and the static layer ask for the same ones): the list is shared, do not
        change it."""
        memo = self._found
        if memo is None:
            memo = self._found = {}
        hit = memo.get(needles)
        if hit is None:
            hit = memo[needles] = self._lines_with(needles)
        return hit

    def _lines_with(self, needles: tuple[str | re.Pattern[str], ...]) -> list[int]:
        text, starts = self.text, self.starts
        found: set[int] = set()
        for needle in needles:
            i = _find(text, needle, 0)
            while i >= 0:
                ln = bisect_right(starts, i) - 1
                found.add(ln)
                if ln + 1 >= len(starts):
                    break
                i = _find(text, needle, starts[ln + 1])
        return sorted(found)

    def line_range(self, line: int) -> Range:
        line = max(0, min(line, len(self.lines) - 1))
        return Range(Pos(line, 0), Pos(line, len(self.lines[line])))

    def trimmed_line_range(self, line: int) -> Range:
        line = max(0, min(line, len(self.lines) - 1))
        text = self.lines[line]
        start = len(text) - len(text.lstrip())
        return Range(Pos(line, start), Pos(line, len(text.rstrip())))


# line breaks YAML counts that LSP does not (NEL, LINE / PARAGRAPH SEPARATOR): with one of them in the
# frontmatter, YAML's line numbers run ahead of the file's
_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")
# (the last document's index, its frontmatter's first line, where each YAML line starts in the file or None)
_yaml_lines: tuple[LineIndex, int, list[tuple[int, int]] | None] | None = None


def _yaml_starts(index: LineIndex, line_offset: int) -> list[tuple[int, int]] | None:
    """Where each YAML line starts in the file (line, character), or None when the text holds no YAML-only line
    break (the YAML lines are the file's); remembered for the last document."""
    global _yaml_lines
    memo = _yaml_lines
    if memo is None or memo[0] is not index or memo[1] != line_offset:
        starts: list[tuple[int, int]] | None = None
        if any(c in index.text for c in _YAML_ONLY_BREAKS):
            starts = []
            for ln in range(line_offset, len(index.lines)):
                starts.append((ln, 0))
                line = index.lines[ln]
                if any(c in line for c in _YAML_ONLY_BREAKS):
                    starts.extend((ln, i + 1) for i, c in enumerate(line) if c in _YAML_ONLY_BREAKS)
        memo = _yaml_lines = (index, line_offset, starts)
    return memo[2]


def yaml_mark_pos(mark: Any, line_offset: int, index: LineIndex) -> Pos:
    """A YAML mark (line and column of the YAML text, which starts `line_offset` lines into the file) as a file
    position in LSP lines."""
    return _mark_in(mark, line_offset, _yaml_starts(index, line_offset))


def _mark_in(mark: Any, line_offset: int, starts: list[tuple[int, int]] | None) -> Pos:
    if starts is None or mark.line >= len(starts):
        return Pos(mark.line + line_offset, mark.column)
    ln, base = starts[mark.line]
    return Pos(ln, base + mark.column)


def yaml_node_range(node: Any, line_offset: int, index: LineIndex) -> Range:
    """The file range of a PyYAML node whose text starts `line_offset` lines into the file.

    A node that ends at column 0 of the next line (block values) ends at the previous line's end.
    """
    sm, em = node.start_mark, node.end_mark
    starts = _yaml_starts(index, line_offset)
    if starts is None:  # (almost every file: YAML's lines are the file's)
        start, end = Pos(sm.line + line_offset, sm.column), Pos(em.line + line_offset, em.column)
    else:
        start, end = _mark_in(sm, line_offset, starts), _mark_in(em, line_offset, starts)
    if end.line > start.line and end.character == 0:
        prev = end.line - 1
        end = Pos(prev, len(index.lines[prev]) if prev < len(index.lines) else 0)
    if end.line < len(index.lines):
        end = Pos(end.line, min(end.character, len(index.lines[end.line])))
    return Range(start, end)


@dataclass(slots=True)
class Field:
    """A top-level frontmatter key and its value, with exact ranges in the file."""

    key: str
    key_range: Range
    value: Any  # constructed Python value (None on failure)
    value_range: Range
    node: Any  # the PyYAML node (ScalarNode / SequenceNode / MappingNode)
    style: str | None  # scalar style: None plain, "'", '"', "|", ">"

    @property
    def is_plain_scalar(self) -> bool:
        return self.node is not None and self.node.__class__.__name__ == "ScalarNode" and self.style is None

    @property
    def text(self) -> str | None:
        """The value as a string when it is a string scalar, else None."""
        return self.value if isinstance(self.value, str) else None


@dataclass(slots=True)
class YamlProblem:
    kind: str  # "syntax" | "duplicate" | "not-mapping" | "tab"
    message: str
    range: Range
    key: str | None = None
    first_range: Range | None = None


@dataclass(slots=True)
class Frontmatter:
    present: bool = False
    terminated: bool = False
    open_line: int = 0  # line of the opening ---
    close_line: int | None = None  # line of the closing --- (None when unterminated)
    fields: dict[str, Field] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    problems: list[YamlProblem] = field(default_factory=list)
    root_kind: str = "mapping"  # "mapping" | "sequence" | "scalar" | "empty"
    root_range: Range | None = None

    def get(self, key: str) -> Field | None:
        return self.fields.get(key)

    @property
    def ok(self) -> bool:
        """True when a mapping was read without syntax errors."""
        return self.present and self.terminated and not any(p.kind == "syntax" for p in self.problems)


@dataclass(slots=True)
class Heading:
    level: int
    text: str
    line: int
    range: Range
    end_line: int = 0  # last line of the section (exclusive end filled by the parser)


@dataclass(slots=True)
class CodeBlock:
    language: str  # first word of the info string ("" when untagged)
    info: str
    content: str
    fenced: bool
    start_line: int  # line of the opening fence (or first line of an indented block)
    end_line: int  # exclusive
    open_range: Range  # the opening fence line (or first line)
    content_start_line: int  # first content line
    closed: bool = True  # False: a fence that never closes runs to the end of its container


@dataclass(slots=True)
class Link:
    target: str  # raw destination as written (no title)
    text: str
    range: Range  # the destination in the source
    full: tuple[int, int, int, int]  # the whole link construct where known: start line, character, end line, character
    is_image: bool = False
    kind: str = "link"  # "link" | "image" | "path" (a bare path in prose) | "definition"

    @property
    def full_range(self) -> Range:
        """`full` as a Range (kept as four numbers: a link run's 10^5 links made two Ranges each)."""
        l1, c1, l2, c2 = self.full
        return Range(Pos(l1, c1), Pos(l2, c2))

    @property
    def is_url(self) -> bool:
        return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", self.target)) or self.target.startswith("//")

    @property
    def path_part(self) -> str:
        """The target without #anchor and ?query."""
        t = self.target
        for sep in ("#", "?"):
            i = t.find(sep)
            if i >= 0:
                t = t[:i]
        return t


@dataclass(slots=True)
class ProseLine:
    """A line of prose with code spans, HTML comments and quoted text blanked out."""

    line: int
    text: str  # same length as the source line; excluded parts replaced by spaces
    quoted: bool = False  # inside a blockquote


@dataclass(slots=True)
class SkillFiles:
    """The skill's bundled files, relative posix paths, found once."""

    root: Path | None
    files: tuple[str, ...] = ()  # every file under the skill dir (relative, posix), bounded
    truncated: bool = False
    empty: frozenset[str] = frozenset()  # files of size 0

    def exists(self, rel: str) -> bool:
        rel = rel.strip("/")
        return rel in self._set or rel in self._dirs

    def under(self, prefix: str) -> list[str]:
        prefix = prefix.rstrip("/") + "/"
        return [f for f in self.files if f.startswith(prefix)]

    def non_empty_under(self, prefix: str) -> list[str]:
        return [f for f in self.under(prefix) if f not in self.empty]

    @property
    def has_nested_skills(self) -> bool:
        """A folder below holds its own SKILL.md."""
        return bool(self._nested)

    def in_nested_skill(self, rel: str) -> bool:
        """The file belongs to a skill nested in this one (a folder below with its own SKILL.md): that
        skill's own findings cover it."""
        if not self._nested:
            return False
        i = rel.rfind("/")
        while i > 0:
            rel = rel[:i]
            if rel in self._nested:
                return True
            i = rel.rfind("/")
        return False

    def __post_init__(self) -> None:
        self._set = set(self.files)
        dirs = set()
        nested = set()
        for f in self.files:
            parts = f.split("/")
            for i in range(1, len(parts)):
                dirs.add("/".join(parts[:i]))
            if len(parts) > 1 and parts[-1] == "SKILL.md":
                nested.add("/".join(parts[:-1]))
        self._dirs = dirs
        self._nested = nested

    _set: set = field(default_factory=set)
    _dirs: set = field(default_factory=set)
    _nested: set = field(default_factory=set)


@dataclass(slots=True)
class SkillDocument:
    text: str
    path: Path | None  # the SKILL.md path (may not exist for unsaved buffers)
    index: LineIndex
    frontmatter: Frontmatter
    body_start_line: int  # first line after the frontmatter
    headings: list[Heading]
    code_blocks: list[CodeBlock]
    links: list[Link]
    tables: list[tuple[int, int]]  # (start_line, end_line) of each table
    disabled: dict[str, set[int] | None]  # code -> None (whole file) or set of lines
    files: SkillFiles
    workspace_root: Path | None = None
    binary: bool = False
    code_lines: set[int] = field(default_factory=set)  # lines inside code blocks (body)
    table_lines: set[int] = field(default_factory=set)
    html_comment_lines: set[int] = field(default_factory=set)
    html_blocks: list[tuple[int, int, int]] = field(default_factory=list)  # (start, end, CommonMark kind 1-7)
    too_large: bool = False
    bom: bool = False  # the text started with a UTF-8 byte order mark (removed before parsing)
    external: dict[str, bool | str] = field(default_factory=dict)
    # prose lines, built on first use from (lines, body_start, skip, quoted) by _make_prose (parse.py):
    # bundled markdown files parsed for their links never need them
    _prose: list[ProseLine] | None = None
    _make_prose: Any = None
    _prose_text: str | None = None
    _prose_lower: str | None = None
    _resolved: dict = field(default_factory=dict)
    _directives: list | None = None
    _skill_dir: Path | None = None
    _link_targets: list | None = None  # paths outside the skill checked on disk
    bundle_overrides: dict[str, str] = field(default_factory=dict)  # rel path -> open editor buffer text
    _bundle: dict | None = None  # rel path -> BundledFile | None (see bundle.py), filled lazily
    _reach: Any = None  # reach.Reach, created by the first rule that asks (see reach.py)
    _mentions: list | None = None  # bundle paths mentioned outside links (rules/links/_mentions.py)
    _block_outputs: tuple | None = None  # paths command blocks create / lines after a `cd` away (rules/links/_mentions.py)
    _listings: dict | None = None  # folder -> names on disk, for case checks (rules/links/_mentions.py)
    _realpaths: dict | None = None  # path -> its real path (measures.within)

    @property
    def lines(self) -> list[str]:
        return self.index.lines

    @property
    def prose(self) -> list[ProseLine]:
        """Lines of prose with code spans, HTML comments and quoted text blanked (computed on first use)."""
        if self._prose is None:
            make, self._make_prose = self._make_prose, None
            self._prose = make() if make is not None else []
        return self._prose

    def prose_with(self, needles: tuple[str, ...]) -> list[ProseLine]:
        """The prose lines whose source line holds one of `needles`, in order (a superset of those whose
        blanked text holds one: callers test the prose text as before). Found by substring search."""
        prose = self.prose
        out = []
        for ln in self.index.lines_with(needles):
            k = bisect_left(prose, ln, key=_line_of)
            if k < len(prose) and prose[k].line == ln:
                out.append(prose[k])
        return out

    @property
    def mentioned(self) -> set[str]:
        """Bundled files SKILL.md reaches, directly or through other bundled files (computed on first use)."""
        from .reach import reached_paths

        return reached_paths(self)

    @property
    def line_count(self) -> int:
        n = len(self.index.lines)
        if n > 1 and self.index.lines[-1] == "":
            n -= 1  # a trailing newline does not add a line
        return n

    @property
    def body_line_count(self) -> int:
        return max(0, self.line_count - self.body_start_line)

    @property
    def skill_dir(self) -> Path | None:
        if self._skill_dir is None and self.path is not None:
            self._skill_dir = self.path.parent
        return self._skill_dir

    @property
    def prose_text(self) -> str:
        """All prose lines joined with newlines (code, comments and code spans blanked)."""
        cached = self._prose_text
        if cached is None:
            cached = self._prose_text = "\n".join(p.text for p in self.prose)
        return cached

    @property
    def prose_lower(self) -> str:
        cached = self._prose_lower
        if cached is None:
            cached = self._prose_lower = self.prose_text.lower()
        return cached

    @property
    def body_text(self) -> str:
        return "\n".join(self.index.lines[self.body_start_line :])

    def field_text(self, key: str) -> str | None:
        f = self.frontmatter.get(key)
        return f.text if f else None

    def node_range(self, node: Any) -> Range:
        """The file range of a frontmatter YAML node (e.g. a `metadata` value)."""
        return yaml_node_range(node, self.frontmatter.open_line + 1, self.index)

    def source(self, rng: Range) -> str:
        """The text of the file within `rng`."""
        return self.text[self.index.offset(rng.start) : self.index.offset(rng.end)]

    def frontmatter_range(self) -> Range:
        """Where to report frontmatter-wide findings: the opening delimiter line."""
        return self.index.trimmed_line_range(self.frontmatter.open_line if self.frontmatter.present else 0)
