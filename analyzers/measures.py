"""Measurements over a SkillDocument shared by rules and the static layer (directives, tokens, paths)."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from . import rx
from .document import Link, SkillDocument
from .findings import Pos, Range

# (not a keyword joined to another by a slash: "Count MUST/NEVER/ALWAYS constraints" names the words, it obeys none;
# nor a numbered rule's label: "HARD CONSTRAINTS (MUST 7)", "(MUST 6, 12, 13)" cite rules stated elsewhere)
_DIRECTIVE = rx.compile(r"(?<![\w/])(MUST|ALWAYS|NEVER)\b(?!/| ?\d+(?:, ?\d+)*\))")
_DQUOTED = rx.compile(r"\"[^\"\n]*\"|“[^”\n]*”")


@dataclass(frozen=True, slots=True)
class Directive:
    word: str
    range: Range


def directives(doc: SkillDocument) -> list[Directive]:
    """MUST/ALWAYS/NEVER used as directives in prose: not in code, frontmatter, comments or quotes."""
    if doc._directives is None:
        doc._directives = _directives(doc)
    return doc._directives


def _directives(doc: SkillDocument) -> list[Directive]:
    out = []
    for pl in doc.prose_with(("MUST", "ALWAYS", "NEVER")):  # found by substring search, not a line loop
        if pl.quoted or ("MUST" not in pl.text and "ALWAYS" not in pl.text and "NEVER" not in pl.text):
            continue
        text = pl.text
        if text.lstrip(" ").startswith("#"):
            continue  # `### ALWAYS`: a heading labels the rules below it, it directs nothing itself
        if '"' in text or "“" in text:
            text = _DQUOTED.sub(lambda m: " " * len(m.group(0)), text)
        cells = "|" in text
        for m in _DIRECTIVE.finditer(text):
            if cells and _lone_cell(text, m.start(), m.end()):
                continue  # `| ALWAYS | Every invocation |`: a table's label (a loading level), not a directive
            out.append(Directive(m.group(1), Range(Pos(pl.line, m.start()), Pos(pl.line, m.end()))))
    return out


def _lone_cell(text: str, a: int, b: int) -> bool:
    """The word at a:b is a table cell's whole content (`| ALWAYS |`)."""
    i = a - 1
    while i >= 0 and text[i] in " \t*_":  # (no slices: a line of many directives stays linear)
        i -= 1
    if i < 0 or text[i] != "|":
        return False
    j = b
    while j < len(text) and text[j] in " \t*_":
        j += 1
    return j < len(text) and text[j] == "|"


# CJK symbols and punctuation, kana, CJK ideographs, Yi and Hangul (U+3000–U+DFFF) and full-width forms (U+FF00–U+FFFF):
# a tokenizer spends about one token on each (often more), not a quarter of one. Counted on the UTF-8 bytes, where each
# such character has exactly one lead byte E3–ED, or EF followed by BC–BF: `bytes.translate` keeps the lead bytes in
# one C pass (a regex over the text, or one `bytes.count` a lead byte, took 5–8 times longer: 4% of a corpus run)
_NOT_WIDE_LEADS = bytes(b for b in range(256) if not 0xE3 <= b <= 0xED)
_FULL_WIDTH = (b"\xef\xbc", b"\xef\xbd", b"\xef\xbe", b"\xef\xbf")


def _wide_chars(text: str) -> int:
    raw = text.encode("utf-8", "surrogatepass")
    n = len(raw.translate(None, _NOT_WIDE_LEADS))
    if b"\xef" in raw:
        n += sum(raw.count(b) for b in _FULL_WIDTH)
    return n


def _tokens(chars: int, wide: int) -> int:
    """Four characters a token, and one a wide character."""
    return (chars - wide + 3) // 4 + wide


def lines_chars(lines: list[str]) -> int:
    """len("\n".join(lines)), without the join."""
    return sum(map(len, lines)) + max(0, len(lines) - 1)


def estimate_lines_tokens(lines: list[str], chars: int | None = None) -> int:
    """estimate_tokens("\n".join(lines)), without joining them and encoding only the lines that are not ASCII
    (`str.isascii` is a flag, not a scan: in most skills a few lines hold an em dash or an arrow). `chars`: their
    lines_chars, when the caller has it."""
    n = lines_chars(lines) if chars is None else chars
    return _tokens(n, _wide_chars("".join([x for x in lines if not x.isascii()])))


def estimate_tokens(text: str) -> int:
    """~4 characters per token, the spec's own rule of thumb (no tokenizer download needed); a CJK character, kana or
    Hangul syllable counts as one token."""
    return _tokens(len(text), 0 if text.isascii() else _wide_chars(text))


URL_RE = rx.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def link_path(link: Link) -> str | None:
    """The relative file path a link points at, or None for URLs, anchors, mailto, absolute paths."""
    return _target_path(link.target)


@lru_cache(maxsize=4096)
def _target_path(target: str) -> str | None:
    t = target.strip()
    if not t or t.startswith("#") or URL_RE.match(t) or t.startswith("//") or t.startswith("~"):
        return None
    p = target
    for sep in ("#", "?"):  # Link.path_part: without #anchor and ?query
        i = p.find(sep)
        if i >= 0:
            p = p[:i]
    p = unquote(p)
    if not p or p.startswith(("/", ":")) or "{" in p or "<" in p or "$" in p:
        return None  # absolute or templated paths cannot be checked; `[Convert]::ToBase64String(…)` opening a
        # paragraph reads as a definition of `[Convert]` with the target `:ToBase64String(…)`: PowerShell, no path
    if p.lower() in _PLACEHOLDER_TARGETS or any(m in p for m in _PLACEHOLDER_MARKS) or _CAPS_SLOT.fullmatch(p):
        return None  # `[Source Title](URL)`, `H-YYYYMMDD-###.md`: a placeholder for the link the reader fills in
    if p.rpartition("/")[2].partition(".")[0] in _PLACEHOLDER_NAMES:
        return None  # `references/TODO.md` in an unfilled scaffold: the reference is still to be chosen
    return p


_PLACEHOLDER_TARGETS = frozenset({"url", "uri", "link", "href", "path", "filepath", "file_path", "file-path", "target",
                                  "todo", "tbd", "xxx", "..."})
_PLACEHOLDER_MARKS = ("YYYY", "###", "XXX", "NNN")  # a date or a number to fill in
_PLACEHOLDER_NAMES = frozenset({"TODO", "TBD", "FIXME"})  # a file named for the work still to do (in capitals)
_CAPS_SLOT = rx.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # `[source](<LINK_URL>)`: a template's slot


@lru_cache(maxsize=4096)
def normalize(rel: str, base: str = "") -> str:
    """Join and normalise a posix path relative to the skill root ('' is the root)."""
    joined = posixpath.normpath(posixpath.join(base, rel)) if base else posixpath.normpath(rel)
    return "" if joined == "." else joined


@dataclass(frozen=True, slots=True)
class Resolution:
    rel: str  # normalised path relative to the skill dir (may start with ../)
    inside_skill: bool
    exists: bool | None  # None: not checked (outside the workspace)
    at: Path | None  # the absolute path; with joined=False, the folder `rel` is relative to
    joined: bool = True

    @property
    def absolute(self) -> Path | None:
        """The target's absolute path (joined on demand: a document of 60,000 links resolves each once and
        asks few of them where they lead)."""
        if self.joined or self.at is None:
            return self.at
        return self.at / self.rel


def resolve(doc: SkillDocument, rel_path: str) -> Resolution:
    """Resolve a relative path from the skill dir; never touches the disk outside the workspace."""
    memo = doc._resolved
    hit = memo.get(rel_path)
    if hit is None:
        hit = memo[rel_path] = _resolve(doc, rel_path)
    return hit


def _resolve(doc: SkillDocument, rel_path: str) -> Resolution:
    rel = normalize(rel_path)
    inside = not (rel == ".." or rel.startswith("../"))
    if doc.skill_dir is None:
        return Resolution(rel, inside, None, None)  # an unsaved buffer: nothing to check against
    if inside:
        ok = rel == "" or doc.files.exists(rel) if doc.files.root is not None else False
        if not ok and doc.path is not None and rel == doc.path.name:
            ok = True  # `[SKILL.md](SKILL.md)`: the skill's own file (the listing leaves it out)
        if doc.files.root is None or doc.files.truncated and not ok:
            ok = _disk_exists(doc, rel)
        return Resolution(rel, True, ok, doc.skill_dir, joined=False)
    if doc.skill_dir is None:
        return Resolution(rel, False, None, None)
    target = Path(posixpath.normpath(posixpath.join(doc.skill_dir.as_posix(), rel)))
    root = doc.workspace_root
    if root is None or not within(doc, target, root):
        return Resolution(rel, False, None, target)
    return Resolution(rel, False, exists_recorded(doc, target), target)


# The extension a path may leave out (`scripts/fill` for scripts/fill.py; docs sites such as Nextra,
# Docusaurus, VitePress and MkDocs link `./setup` for setup.md). Shared by reach and the link rules.
COMPLETIONS = (".py", ".sh", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".json", ".md", ".mdx")


def completion(doc: SkillDocument, rel: str) -> str | None:
    """The existing file an extensionless path names (`docs/features/lsp` -> docs/features/lsp.md), relative
    to the skill folder like `rel`; None when there is none or the path has an extension. (A folder that
    exists resolves as it is.)"""
    last = rel.rsplit("/", 1)[-1]
    if not last or "." in last:
        return None
    for cand in [rel + ext for ext in COMPLETIONS]:
        if resolve(doc, cand).exists is True:
            return cand
    return None


def exists_recorded(doc: SkillDocument, path: Path | str) -> bool:
    """Whether the path exists, remembered on the document (the result cache re-checks these paths). A path
    already a string is not made a Path (callers that test many joined paths pass strings)."""
    key = os.fspath(path)
    hit = doc.external.get(key)
    if hit is None:
        hit = doc.external[key] = os.path.exists(key)  # (False on any OSError, as Path.exists was caught)
    return hit


def sibling_skills(doc: SkillDocument, limit: int) -> list[str]:
    """The folders beside the skill's (the first `limit` by name) that hold a SKILL.md, each ending in a separator;
    each SKILL.md's existence remembered on the document (the result cache re-checks them)."""
    skill_dir = doc.skill_dir
    if skill_dir is None:
        return []
    parent = os.fspath(skill_dir.parent)
    try:
        with os.scandir(parent) as it:
            names = sorted(e.name for e in it if e.is_dir() and e.name != skill_dir.name)
    except OSError:
        return []
    folders = [os.path.join(parent, n) + os.sep for n in names[:limit]]
    return [f for f in folders if exists_recorded(doc, f + "SKILL.md")]


TEXT_MARK = "\0text:"  # a key of SkillDocument.external: a file outside the skill whose content a rule read
MAX_OUTSIDE_BYTES = 200_000  # a longer file outside the skill is not read


def _read_capped(path: str) -> bytes | None:
    """A file's bytes (None when missing, unreadable or longer than MAX_OUTSIDE_BYTES)."""
    try:
        if os.path.getsize(path) > MAX_OUTSIDE_BYTES:
            return None
        with open(path, "rb") as f:
            return f.read()
    except (OSError, ValueError):
        return None


def _digest(data: bytes | None) -> str:
    if data is None:
        return ""
    # (the builtin module, as package_code's and batch.py's digests: hashlib would load OpenSSL, ~6 ms, on the CLI's
    # static path whenever a rule reads a file outside the skill, such as a sample skill's siblings)
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b

    return blake2b(data, digest_size=16).hexdigest()


def text_recorded(doc: SkillDocument, path: str) -> str:
    """The text of a file outside the skill (another skill's SKILL.md), "" when missing, unreadable, binary or too
    long; the document remembers its digest for the result cache to check again."""
    data = _read_capped(path)
    doc.external[TEXT_MARK + path] = _digest(data)
    return "" if data is None or b"\x00" in data[:8192] else data.decode("utf-8", "replace")


def mark_still_valid(mark: str, value: object) -> bool:
    """A cached result's record of something besides a path's existence still holds: the text of a file outside
    the skill (TEXT_MARK), or the keys a package's code reads."""
    if mark.startswith(TEXT_MARK):
        return _digest(_read_capped(mark[len(TEXT_MARK):])) == value
    from .package_code import cache_still_valid  # (imported only when a result asked a package)

    return cache_still_valid(mark, value)


def within(doc: SkillDocument, p: Path, root: Path) -> bool:
    """`p` is `root` or under it, symlinks resolved (real paths remembered on the document: resolving a
    path costs a system call per component)."""
    memo = doc._realpaths
    if memo is None:
        memo = doc._realpaths = {}
    real = []
    for q in (p, root):
        key = str(q)
        hit = memo.get(key)
        if hit is None:
            try:
                hit = memo[key] = os.path.realpath(key)
            except (OSError, ValueError):
                return False
        real.append(hit)
    rp, rr = real
    return rp == rr or rp.startswith(rr.rstrip(os.sep) + os.sep)


def _disk_exists(doc: SkillDocument, rel: str) -> bool:
    if doc.skill_dir is None:
        return False
    try:
        return (doc.skill_dir / rel).exists()
    except OSError:
        return False
