"""The skill's bundled text files (everything under the skill folder but SKILL.md), read lazily once per document.

Rules that look beyond SKILL.md (links in `references/*.md`, secrets or invisible Unicode in any bundled
text file, interactive scripts, reachability) get the files from here, so each file is read at most once
per analysis. The language server passes open editor buffers as `doc.bundle_overrides` (rel path -> text),
which win over the disk. Findings on a bundled file carry `Finding.file` = its rel path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .document import LineIndex, SkillDocument, SkillFiles
from .findings import Edit, Range
from .lazy_re import lazy_compile

MAX_BUNDLED_BYTES = 1_000_000  # larger bundled files are not read (data, not instructions)
MAX_BUNDLED_FILES = 500  # at most this many bundled text files are read per skill

# suffixes read as text; anything else (images, archives, fonts, office files) is never opened
TEXT_SUFFIXES = frozenset({
    ".md", ".markdown", ".mdx", ".txt", ".rst", ".py", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat",
    ".cmd", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb", ".pl", ".php", ".go", ".rs", ".java",
    ".kt", ".swift", ".c", ".h", ".cpp", ".hpp", ".cs", ".lua", ".r", ".sql", ".json", ".jsonl", ".yaml",
    ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".xml", ".html", ".htm", ".css", ".scss", ".csv",
    ".tsv", ".tex", ".svg", ".graphql", ".proto", ".tf", ".hcl", ".dockerfile", ".mk", ".makefile", "",
})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
SCRIPT_SUFFIXES = frozenset({".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl",
                             ".ps1", ".php", ".lua"})


def suffix(rel: str) -> str:
    base = rel.rsplit("/", 1)[-1]
    i = base.rfind(".")
    return base[i:].lower() if i > 0 else ""


def is_text_name(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1]
    if base.startswith("."):
        return False  # .gitkeep, .DS_Store, editor droppings
    return suffix(rel) in TEXT_SUFFIXES


# an inline suppression anywhere in a non-markdown file (after `#`, `//`, `--`, inside `<!-- -->`, ...)
_DISABLE_ANY = lazy_compile(r"skillgrade-(disable-next-line|disable)(?![\w-])([^\n]*)")
_CODE_WORD = lazy_compile(r"[A-Za-z][A-Za-z0-9_]*\*?")


@dataclass(slots=True)
class BundledFile:
    rel: str  # posix path relative to the skill folder
    text: str
    _index: LineIndex | None = field(default=None, repr=False)
    _markdown: SkillDocument | None = field(default=None, repr=False)  # parsed once, on first use
    _linked: SkillDocument | None = field(default=None, repr=False)  # its linked sections only
    _disabled: dict | None = field(default=None, repr=False)
    _links: list | None = field(default=None, repr=False)  # link targets (see rules/links/_bundled.py)

    @property
    def index(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    @property
    def lines(self) -> list[str]:
        return self.index.lines

    @property
    def is_markdown(self) -> bool:
        return suffix(self.rel) in MARKDOWN_SUFFIXES

    @property
    def is_script(self) -> bool:
        return suffix(self.rel) in SCRIPT_SUFFIXES

    @property
    def folder(self) -> str:
        """The file's folder relative to the skill ('' at the skill root)."""
        return self.rel.rsplit("/", 1)[0] if "/" in self.rel else ""

    @property
    def markdown(self) -> SkillDocument | None:
        """The file parsed as markdown (links, headings, code blocks, prose), once; None for other files.

        The same parser as SKILL.md's, without a skill folder: nothing is resolved or read from disk here.
        """
        if self._markdown is None and self.is_markdown:
            from .parse import parse  # YAML and markdown-it load only when a bundled markdown file is read

            # sections are cached by content (as for SKILL.md in the editor): re-analysing a skill after
            # an edit of SKILL.md does not parse its unchanged reference files again
            self._markdown = parse(self.text, None, files=SkillFiles(None), incremental=True)
        return self._markdown

    @property
    def links(self) -> list:
        """The file's markdown links (document.Link), exact; [] for other files. Only the sections with
        link syntax are parsed (most of a reference file has none), unless the whole file was parsed."""
        if not self.is_markdown or not self.may_link:
            return []
        if self._markdown is not None:
            return self._markdown.links
        if self._linked is None:
            from .parse import parse

            self._linked = parse(self.text, None, files=SkillFiles(None), incremental=True, links_only=True)
        return self._linked.links

    @property
    def may_link(self) -> bool:
        """Whether the text can hold a markdown link or a link reference definition (cheap: no parse)."""
        return "](" in self.text or "]:" in self.text

    @property
    def disabled(self) -> dict[str, set[int] | None]:
        """Inline suppressions in this file: code -> None (whole file) or the set of suppressed lines.

        Markdown files use SKILL.md's HTML comments (`<!-- skillgrade-disable CODE -->`, `-next-line`,
        ignored inside code blocks); other text files accept the same words after any comment marker
        (`# skillgrade-disable-next-line HARDCODED_SECRET`).
        """
        if self._disabled is None:
            if "skillgrade-" not in self.text:
                self._disabled = {}
            else:
                md = self.markdown
                self._disabled = md.disabled if md is not None else _disabled_any(self.lines)
        return self._disabled


def _disabled_any(lines: list[str]) -> dict[str, set[int] | None]:
    out: dict[str, set[int] | None] = {}
    for ln, line in enumerate(lines):
        if "skillgrade-" not in line:
            continue
        for m in _DISABLE_ANY.finditer(line):
            codes = []
            for word in m.group(2).replace(",", " ").split():
                if not _CODE_WORD.fullmatch(word) or word != word.upper():
                    break  # the end of the code list (`-->`, `*/`, prose)
                codes.append(word.upper())
            for code in codes or ["ALL"]:
                if m.group(1) == "disable":
                    out[code] = None
                    continue
                cur = out.setdefault(code, set())
                if cur is not None:
                    nxt = ln + 1
                    while nxt < len(lines) and not lines[nxt].strip():
                        nxt += 1
                    cur.add(nxt)
    return out


_NOT_FOR_THE_AGENT = frozenset({"tests", "test", "__tests__"})


def agent_facing(doc: SkillDocument, rel: str) -> bool:
    """A bundled file the agent may read: not in a hidden folder (`tests/.skill_backups/`, `.github/`) nor in
    a test folder (fixtures break things on purpose), unless SKILL.md names its path."""
    folders = rel.split("/")[:-1]
    if not any(f.startswith(".") or f in _NOT_FOR_THE_AGENT for f in folders):
        return True
    return rel in doc.text


def own_file(doc: SkillDocument, rel: str) -> bool:
    """Not a file of a skill nested in this one (`child/SKILL.md` beside it): that skill is linted on its
    own, so its files are not reported twice."""
    return not doc.files.in_nested_skill(rel)


def bundled_markdown_files(doc: SkillDocument) -> list[BundledFile]:
    """The bundled markdown files the agent may read (references/*.md, nested guides, ...: `agent_facing`),
    in path order; only these are read."""
    if doc.binary or doc.too_large:
        return []
    names = [f for f in doc.files.files
             if suffix(f) in MARKDOWN_SUFFIXES and is_text_name(f) and agent_facing(doc, f) and own_file(doc, f)]
    names += sorted(r for r in doc.bundle_overrides if r not in doc.files._set and suffix(r) in MARKDOWN_SUFFIXES)
    out = []
    for rel in names[:MAX_BUNDLED_FILES]:
        bf = read_bundled(doc, rel)
        if bf is not None:
            out.append(bf)
    return out


def bundled_path(doc: SkillDocument, rel: str) -> str | None:
    """The absolute path of a bundled file (None for a buffer with no skill folder)."""
    if doc.skill_dir is None:
        return None
    return os.path.join(str(doc.skill_dir), *rel.split("/"))


def bundled_edit(doc: SkillDocument, rel: str, rng: Range, new_text: str) -> Edit | None:
    """An edit of a bundled file, for a finding with `file=rel` (None when the file has no path)."""
    path = bundled_path(doc, rel)
    return Edit(rng, new_text, path) if path is not None else None


def suppressed_in(doc: SkillDocument, rel: str, code: str, line: int) -> bool:
    """Whether `code` is disabled inline at `line` of the bundled file `rel`."""
    bf = read_bundled(doc, rel)
    if bf is None:
        return False
    disabled = bf.disabled
    for key in (code, "ALL"):
        if key in disabled:
            lines = disabled[key]
            if lines is None or line in lines:
                return True
    return False


def read_bundled(doc: SkillDocument, rel: str) -> BundledFile | None:
    """One bundled text file (None: not a bundled text file, too large, binary, unreadable). Cached."""
    cache = doc._bundle
    if cache is None:
        cache = doc._bundle = {}
    if rel in cache:
        return cache[rel]
    bf = _read(doc, rel)
    cache[rel] = bf
    return bf


def _read(doc: SkillDocument, rel: str) -> BundledFile | None:
    override = doc.bundle_overrides.get(rel)
    if override is not None:
        return BundledFile(rel, override)
    files = doc.files
    if files.root is None or rel not in files._set or not is_text_name(rel):
        return None
    path = files.root / rel
    try:
        if path.stat().st_size > MAX_BUNDLED_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None  # binary
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return BundledFile(rel, text)


def bundled_text_files(doc: SkillDocument) -> list[BundledFile]:
    """Every readable bundled text file, in path order (at most MAX_BUNDLED_FILES are read)."""
    if doc.binary or doc.too_large:
        return []
    out = []
    names = [f for f in doc.files.files if is_text_name(f) and own_file(doc, f)]
    names += sorted(r for r in doc.bundle_overrides if r not in doc.files._set)
    for rel in names[:MAX_BUNDLED_FILES]:
        bf = read_bundled(doc, rel)
        if bf is not None:
            out.append(bf)
    return out
