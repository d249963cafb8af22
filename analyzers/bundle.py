"""The skill's bundled text files (everything under the skill folder but SKILL.md), read lazily once per document.

Rules that look beyond SKILL.md (links in `references/*.md`, secrets or invisible Unicode in any bundled
text file, interactive scripts, reachability) get the files from here, so each file is read at most once
per analysis. The language server passes open editor buffers as `doc.bundle_overrides` (rel path -> text),
which win over the disk. Findings on a bundled file carry `Finding.file` = its rel path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .document import LineIndex, SkillDocument

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


@dataclass(slots=True)
class BundledFile:
    rel: str  # posix path relative to the skill folder
    text: str
    _index: LineIndex | None = field(default=None, repr=False)

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
    names = [f for f in doc.files.files if is_text_name(f)]
    names += sorted(r for r in doc.bundle_overrides if r not in doc.files._set)
    for rel in names[:MAX_BUNDLED_FILES]:
        bf = read_bundled(doc, rel)
        if bf is not None:
            out.append(bf)
    return out
