"""The reference corpus index for Elo (`skillgrade init CORPUS_DIR`): what each reference skill is, without
re-reading the corpus at certify time, and the K references nearest to a skill.

    index, stats = build_index(Path("corpus"), previous=load_index(path))
    save_index(index, path)                    # path = index_path(data_dir)
    refs = nearest(index, query_of(doc), k=8)

Each entry: name, description, category (and where it came from), size, SKILL.md content hash, static
composite (analyzers/report.analyze with the default config), path. Re-indexing re-analyses only entries
whose content hash changed; entries under the indexed folder that no longer exist are dropped; entries of
other folders are kept.

Category, in this order: frontmatter `category`, `metadata.category`, `subject` or `metadata.subject` (the
skill-graph export's field), the first of `tags` / `metadata.tags`; else a keyword bucket: the bucket of
KEYWORD_BUCKETS whose words occur most often among the words of the name and description (ties: the
earlier bucket), "general" when none occurs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .ranking import corpus_ratings

FORMAT = 1
DEFAULT_K = 8
KEYWORD_BUCKETS: tuple[tuple[str, frozenset[str]], ...] = (
    ("documents", frozenset({"pdf", "pdfs", "docx", "word", "excel", "xlsx", "pptx", "powerpoint", "spreadsheet",
                             "spreadsheets", "slides", "presentation", "presentations", "form", "forms"})),
    ("frontend", frozenset({"react", "css", "html", "frontend", "component", "components", "browser", "ui",
                            "tailwind", "nextjs", "next", "vue", "svelte", "dom"})),
    ("backend", frozenset({"api", "apis", "server", "backend", "database", "sql", "postgres", "http", "endpoint",
                           "endpoints", "rest", "graphql", "webhook", "webhooks"})),
    ("data", frozenset({"data", "csv", "analytics", "pipeline", "etl", "chart", "charts", "dataset", "pandas",
                        "statistics", "dashboard"})),
    ("devops", frozenset({"deploy", "deployment", "docker", "kubernetes", "ci", "infrastructure", "terraform",
                          "cloud", "aws", "monitoring", "release"})),
    ("testing", frozenset({"test", "tests", "testing", "qa", "lint", "linting", "debug", "debugging",
                           "review"})),
    ("ai", frozenset({"llm", "prompt", "prompts", "agent", "agents", "model", "models", "claude", "mcp", "eval",
                      "evals", "skill", "skills"})),
    ("writing", frozenset({"write", "writing", "copy", "blog", "documentation", "docs", "communication",
                           "email", "newsletter", "editing"})),
    ("design", frozenset({"design", "brand", "art", "visual", "image", "images", "canvas", "theme", "logo",
                          "typography", "color"})),
)
_STOP = frozenset({"the", "and", "for", "use", "when", "with", "this", "that", "not", "from", "into", "your", "you",
                   "are", "can", "any", "all", "its", "skill", "using", "used", "user", "users", "also", "such",
                   "how", "what", "which", "other", "than", "about", "they", "them", "will", "should", "must"})


class CorpusIndexError(ValueError):
    """The corpus folder or the index file cannot be used (one line for a user)."""


def words(text: str) -> list[str]:
    out, cur = [], []
    for ch in text.lower():
        if ch.isalnum():
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def keyword_bucket(name: str, description: str) -> str:
    counts = [0] * len(KEYWORD_BUCKETS)
    for w in words(f"{name.replace('-', ' ')} {description}"):
        for i, (_b, kws) in enumerate(KEYWORD_BUCKETS):
            if w in kws:
                counts[i] += 1
    best = max(range(len(counts)), key=lambda i: (counts[i], -i))
    return KEYWORD_BUCKETS[best][0] if counts[best] else "general"


def _label(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        text = value.strip()
        if text.startswith("["):  # a JSON list kept as a string (skill-graph's export)
            try:
                items = json.loads(text)
            except (ValueError, RecursionError):
                items = None
            if isinstance(items, list):
                return _label(items)
        return " ".join(text.lower().split())[:60]
    if isinstance(value, list):
        for v in value:
            got = _label(v)
            if got:
                return got
    return None


def categorize(frontmatter: Mapping[str, Any], name: str, description: str) -> tuple[str, str]:
    """(category, source): source is the frontmatter key it came from, or "keywords"."""
    meta = frontmatter.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    for source, value in (("category", frontmatter.get("category")), ("metadata.category", meta.get("category")),
                          ("subject", frontmatter.get("subject")), ("metadata.subject", meta.get("subject")),
                          ("tags", frontmatter.get("tags")), ("metadata.tags", meta.get("tags"))):
        got = _label(value)
        if got:
            return got, source
    return keyword_bucket(name, description), "keywords"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class CorpusEntry:
    path: str  # absolute path of the SKILL.md
    root: str  # the folder given to `init`
    name: str
    description: str
    category: str
    category_source: str
    size: int  # bytes of SKILL.md
    content_hash: str  # sha256 of SKILL.md's bytes
    composite: float | None  # static composite 0-100 (None: the static layer measured nothing)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SkillQuery:
    """What `nearest` needs to know about the skill being ranked."""

    name: str
    description: str
    category: str
    size: int
    content_hash: str
    path: str | None = None


@dataclass(slots=True)
class IndexStats:
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: list[str] = field(default_factory=list)  # "path: reason"

    @property
    def total(self) -> int:
        return self.added + self.changed + self.unchanged


@dataclass(slots=True)
class CorpusIndex:
    entries: list[CorpusEntry] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    _ratings: dict[str, float] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "roots": list(self.roots), "entries": [e.to_dict() for e in self.entries]}

    @classmethod
    def from_dict(cls, data: Any) -> CorpusIndex:
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("entries"), list):
            raise CorpusIndexError("the corpus index has an unknown format; run `skillgrade init CORPUS_DIR` again")
        try:
            entries = [CorpusEntry(**e) for e in data["entries"]]
        except TypeError:
            raise CorpusIndexError("the corpus index is damaged; run `skillgrade init CORPUS_DIR` again") from None
        return cls(entries, [str(r) for r in data.get("roots") or []])

    def ratings(self) -> dict[str, float]:
        """Anchor Elo rating of every entry with a composite, by path (ranking.corpus_ratings)."""
        if self._ratings is None:
            self._ratings = corpus_ratings({e.path: e.composite for e in self.entries if e.composite is not None})
        return self._ratings


def default_data_dir(env: Mapping[str, str]) -> Path:
    """`$XDG_DATA_HOME/skillgrade`, else `~/.local/share/skillgrade` (`%LOCALAPPDATA%` on Windows)."""
    base = env.get("XDG_DATA_HOME")
    if not base and os.name == "nt":
        base = env.get("LOCALAPPDATA")
    root = Path(base) if base else Path(os.path.expanduser("~")) / ".local" / "share"
    return root / "skillgrade"


def index_path(data_dir: Path) -> Path:
    return Path(data_dir) / "corpus" / "index.json"


def load_index(path: Path) -> CorpusIndex | None:
    """The index at `path`; None when there is none; CorpusIndexError when it cannot be read."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CorpusIndexError(f"{path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise CorpusIndexError(f"{path}: not JSON; run `skillgrade init CORPUS_DIR` again") from None
    return CorpusIndex.from_dict(data)


def find_index(env: Mapping[str, str], data_dir: Path | None = None) -> CorpusIndex | None:
    """The index of `data_dir` (default: default_data_dir(env)); None when `skillgrade init` never ran there.
    Raises CorpusIndexError when it exists but cannot be read."""
    return load_index(index_path(Path(data_dir).expanduser() if data_dir is not None else default_data_dir(env)))


def save_index(index: CorpusIndex, path: Path) -> None:
    """Write atomically (temporary file + rename). Raises CorpusIndexError when the folder is not writable."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(index.to_dict(), fh, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
    except OSError as exc:
        raise CorpusIndexError(f"{path}: cannot write the index ({exc.strerror or exc})") from None


def _entry(skill_md: Path, root: str, data: bytes) -> CorpusEntry:
    from .batch import workspace_root_for
    from .parse import decode
    from .report import analyze

    text, binary = decode(data)
    report = analyze(text, skill_md, workspace_root=workspace_root_for(skill_md), binary=binary)
    doc = report.document
    fm = doc.frontmatter.data if doc is not None and isinstance(doc.frontmatter.data, dict) else {}
    name = report.name or skill_md.parent.name
    desc = fm.get("description")
    description = " ".join(desc.split()) if isinstance(desc, str) else ""
    category, source = categorize(fm, name, description)
    return CorpusEntry(str(skill_md), root, name, description, category, source, len(data), content_hash(data),
                       report.composite.score)


def build_index(corpus_dir: Path, *, previous: CorpusIndex | None = None,
                progress: Callable[[int, str], None] | None = None) -> tuple[CorpusIndex, IndexStats]:
    """Index every SKILL.md under `corpus_dir` (analyzers/workspace.find_skill_files), reusing `previous`
    entries whose content hash is unchanged. Raises CorpusIndexError when the folder cannot be used."""
    from .workspace import find_skill_files

    corpus_dir = Path(corpus_dir)
    if not corpus_dir.is_dir():
        raise CorpusIndexError(f"{corpus_dir}: not a folder" if corpus_dir.exists() else f"{corpus_dir}: no such folder")
    root = os.path.abspath(corpus_dir)
    files = [Path(os.path.abspath(f)) for f in find_skill_files([corpus_dir])]
    if not files:
        raise CorpusIndexError(f"{corpus_dir}: no SKILL.md found")
    old = {e.path: e for e in (previous.entries if previous else [])}
    stats = IndexStats()
    fresh: list[CorpusEntry] = []
    for i, f in enumerate(files):
        try:
            data = f.read_bytes()
        except OSError as exc:
            stats.failed.append(f"{f}: {exc.strerror or exc}")
            continue
        prior = old.get(str(f))
        if prior is not None and prior.content_hash == content_hash(data) and prior.root == root:
            fresh.append(prior)
            stats.unchanged += 1
        else:
            try:
                fresh.append(_entry(f, root, data))
            except Exception as exc:  # noqa: BLE001 - one bad file never stops the index
                stats.failed.append(f"{f}: {type(exc).__name__}")
                continue
            if prior is None:
                stats.added += 1
            else:
                stats.changed += 1
        if progress is not None:
            progress(i + 1, str(f))
    seen = {e.path for e in fresh}
    kept = []
    for e in (previous.entries if previous else []):
        if e.path in seen:
            continue
        if e.root == root or e.path.startswith(root + os.sep):
            stats.removed += 1  # gone from this corpus folder
        else:
            kept.append(e)  # another corpus folder's entry
    roots = [r for r in (previous.roots if previous else []) if r != root] + [root]
    entries = sorted(kept + fresh, key=lambda e: e.path)
    return CorpusIndex(entries, roots), stats


def summary(stats: IndexStats, index: CorpusIndex, where: Path) -> str:
    """The one line `skillgrade init` prints."""
    cats = len({e.category for e in index.entries})
    failed = f", {len(stats.failed)} unreadable" if stats.failed else ""
    return (f"Indexed {stats.total} reference skill(s) ({stats.added} new, {stats.changed} changed, "
            f"{stats.unchanged} unchanged, {stats.removed} removed{failed}); {len(index.entries)} in the index "
            f"across {cats} categor{'y' if cats == 1 else 'ies'}: {where}")


def query_of(doc: Any) -> SkillQuery:
    """The SkillQuery of a parsed SkillDocument (analyzers/document.py)."""
    fm = doc.frontmatter.data if isinstance(doc.frontmatter.data, dict) else {}
    name = fm.get("name") if isinstance(fm.get("name"), str) else None
    if not name:
        name = doc.path.parent.name if doc.path is not None else "this-skill"
    desc = fm.get("description")
    description = " ".join(desc.split()) if isinstance(desc, str) else ""
    category, _src = categorize(fm, name, description)
    data = doc.text.encode("utf-8", "surrogatepass")
    path = str(Path(os.path.abspath(doc.path))) if doc.path is not None else None
    return SkillQuery(name, description, category, len(data), content_hash(data), path)


def _terms(text: str) -> frozenset[str]:
    return frozenset(w for w in words(text) if len(w) >= 3 and w not in _STOP)


def overlap(a: Iterable[str], b: Iterable[str]) -> float:
    """Jaccard overlap of two word sets (0 when both are empty)."""
    sa, sb = set(a), set(b)
    union = sa | sb
    return len(sa & sb) / len(union) if union else 0.0


def nearest(index: CorpusIndex, skill: SkillQuery, k: int = DEFAULT_K) -> list[CorpusEntry]:
    """The k references closest to `skill`: same category first, then the larger description word overlap
    (Jaccard), then the closer size (|ln size ratio|), then name and path. Never the skill itself (same
    content hash or same path), never an entry without a composite (it has no anchor rating)."""
    mine = _terms(skill.description)
    size = max(skill.size, 1)

    def key(e: CorpusEntry) -> tuple:
        return (e.category != skill.category, -round(overlap(mine, _terms(e.description)), 12),
                round(abs(math.log(max(e.size, 1) / size)), 12), e.name, e.path)

    candidates = [e for e in index.entries if e.content_hash != skill.content_hash and e.composite is not None
                  and (skill.path is None or os.path.abspath(e.path) != skill.path)]
    return sorted(candidates, key=key)[:max(k, 0)]
