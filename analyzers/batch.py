"""Score many skills: discovery, the on-disk result cache (content hash), and work spread over the cores.

Works on report dicts (Report.to_dict()), so a fully cached run never imports YAML or markdown-it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .workspace import SKIP_DIRS, find_skill_files, quick_name

CACHE_VERSION = "1"
_MAX_CACHE_FILE = 256_000_000


def engine_fingerprint() -> str:
    """Changes whenever any engine source file changes (so a new version never reuses old results)."""
    here = Path(__file__).parent
    h = hashlib.blake2b(CACHE_VERSION.encode(), digest_size=12)
    for p in sorted(here.rglob("*.py")):
        try:
            st = p.stat()
        except OSError:
            continue
        h.update(f"{p.relative_to(here)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def _listing(skill_dir: Path) -> str:
    """A cheap fingerprint of the skill's bundled files (names and sizes); symlinked dirs not followed."""
    h = hashlib.blake2b(digest_size=12)
    stack = [str(skill_dir)]
    n = 0
    while stack and n < 5000:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name not in SKIP_DIRS:
                        stack.append(e.path)
                else:
                    n += 1
                    h.update(f"{e.path}:{e.stat().st_size}\n".encode())
            except OSError:
                continue
    return h.hexdigest()


@dataclass(slots=True)
class Item:
    path: Path
    data: bytes | None
    error: str | None


class ResultCache:
    """One JSON file per workspace root: key -> {"report": ..., "external": {path: exists}}."""

    def __init__(self, directory: Path, fingerprint: str) -> None:
        self.file = directory / f"results-{fingerprint}.json"
        self.directory = directory
        self.entries: dict[str, dict] = {}
        self.dirty = False
        try:
            if self.file.stat().st_size < _MAX_CACHE_FILE:
                self.entries = json.loads(self.file.read_text("utf-8"))
        except (OSError, ValueError):
            self.entries = {}

    def get(self, key: str) -> dict | None:
        e = self.entries.get(key)
        if e is None:
            return None
        for p, existed in e.get("external", {}).items():
            if os.path.exists(p) != existed:
                return None
        return e["report"]

    def put(self, key: str, report: dict, external: dict[str, bool]) -> None:
        self.entries[key] = {"report": report, "external": external}
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("*\n")
            for old in self.directory.glob("results-*.json"):
                if old != self.file:
                    old.unlink(missing_ok=True)
            tmp = self.file.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.entries, separators=(",", ":")), "utf-8")
            os.replace(tmp, self.file)
        except OSError:
            pass  # a read-only tree: run without a cache


def workspace_root_for(path: Path) -> Path:
    """The repository root (nearest .git), else the directory given, else the skill's parent."""
    p = Path(os.path.abspath(path))
    start = p if p.is_dir() else p.parent
    git = _git_root(str(start))
    if git is not None:
        return Path(git)
    if p.is_dir() and not (p / "SKILL.md").exists():
        return p
    skill_dir = start if (start / "SKILL.md").exists() else start
    return skill_dir.parent


_WORKSPACE: list = [None]  # the run's workspace index, set before forking (inherited, not pickled)


@functools.lru_cache(maxsize=4096)
def _git_root(directory: str) -> str | None:
    if os.path.exists(os.path.join(directory, ".git")):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _git_root(parent)


def _analyze_one(args: tuple) -> tuple[dict, dict[str, bool]]:
    from .parse import decode
    from .report import analyze

    path, data, root, config = args
    ws = _WORKSPACE[0]
    text, binary = decode(data)
    rep = analyze(text, Path(path), config=config, workspace=ws, workspace_root=root, binary=binary)
    d = rep.to_dict()
    return d, dict(rep.document.external) if rep.document is not None else {}


def _chunk_worker(batch: list[tuple]) -> list[tuple[dict, dict[str, bool]]]:
    return [_analyze_one(a) for a in batch]


def score_paths(
    paths: list[Path],
    config_for: Callable[[Path], object],
    *,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    config_key: Callable[[object], str] = repr,
) -> tuple[list[dict], list[str]]:
    """Score every SKILL.md under `paths`. Returns (report dicts in path order, error lines)."""
    files: list[Path] = []
    errors: list[str] = []
    for p in paths:
        found = list(find_skill_files([p]))
        if not found:
            errors.append(f"{p}: no SKILL.md found")
        files.extend(found)
    # de-duplicate while keeping order
    uniq: dict[str, Path] = {}
    for f in files:
        uniq.setdefault(os.path.abspath(f), f)
    files = list(uniq.values())
    items: list[Item] = []
    for f in files:
        try:
            size = f.stat().st_size
            if size > 50_000_000:
                items.append(Item(f, None, f"{f}: file is {size:,} bytes; skillgrade reads at most 50,000,000"))
                continue
            items.append(Item(f, f.read_bytes(), None))
        except OSError as exc:
            items.append(Item(f, None, f"{f}: {exc.strerror or exc}"))
    names: dict[str, tuple] = {}
    for it in items:
        if it.data is not None:
            try:
                text = it.data[:8192].decode("utf-8", errors="replace").lstrip("\ufeff")
            except Exception:  # noqa: BLE001
                text = ""
            names[str(it.path)] = quick_name(text)
    ws_hash = hashlib.blake2b(json.dumps(sorted((k, v[0]) for k, v in names.items())).encode(),
                              digest_size=12).hexdigest()
    roots: dict[Path, Path] = {}
    caches: dict[Path, ResultCache] = {}
    fingerprint = engine_fingerprint() if cache_dir is not None else ""
    from .workspace import Workspace

    ws = Workspace()
    for p, (name, rng) in names.items():
        if name:
            ws.add(Path(p), name, rng)
    _WORKSPACE[0] = ws
    results: dict[int, dict] = {}
    todo: list[tuple[int, tuple, str, ResultCache | None]] = []
    for i, it in enumerate(items):
        if it.data is None:
            errors.append(it.error or f"{it.path}: unreadable")
            continue
        root = roots.setdefault(it.path.parent, workspace_root_for(it.path))
        cfg = config_for(it.path)
        key, cache = "", None
        if cache_dir is not None:  # the key costs a folder listing and a hash: only with a cache
            h = hashlib.blake2b(digest_size=16)
            h.update(it.data)
            h.update(os.path.abspath(it.path).encode())
            h.update(_listing(it.path.parent).encode())
            h.update(config_key(cfg).encode())
            h.update(ws_hash.encode())
            h.update(str(root).encode())
            key = h.hexdigest()
            cdir = cache_dir if cache_dir.is_absolute() else root / cache_dir
            cache = caches.get(cdir)
            if cache is None:
                cache = caches[cdir] = ResultCache(cdir, fingerprint)
            hit = cache.get(key)
            if hit is not None:
                results[i] = hit
                continue
        todo.append((i, (str(it.path), it.data, root, cfg), key, cache))
    if todo:
        outs = _run(todo, jobs)
        for (i, _args, key, cache), (report, external) in zip(todo, outs, strict=True):
            results[i] = report
            if cache is not None:
                cache.put(key, report, external)
    for cache in caches.values():
        cache.save()  # entries of other runs on the same tree are kept
    return [results[i] for i in sorted(results)], errors


def _run(todo: list, jobs: int | None) -> list[tuple[dict, dict[str, bool]]]:
    args = [t[1] for t in todo]
    n = len(args)
    cpus = os.cpu_count() or 1
    jobs = cpus if jobs is None else max(1, jobs)
    if jobs <= 1 or n < 16:
        return [_analyze_one(a) for a in args]
    import multiprocessing as mp

    # interleave by size so both workers get a fair share, then fork (workers inherit the imports)
    ctx = mp.get_context("fork")
    from . import report  # noqa: F401  (import before fork)
    from .parse import markdown_parser

    markdown_parser()
    order = sorted(range(n), key=lambda k: -len(args[k][1]))
    buckets: list[list[int]] = [[] for _ in range(jobs)]
    for rank, k in enumerate(order):
        buckets[rank % jobs].append(k)
    out: list = [None] * n
    with ctx.Pool(jobs) as pool:
        parts = pool.map(_chunk_worker, [[args[k] for k in b] for b in buckets])
    for b, part in zip(buckets, parts, strict=True):
        for k, res in zip(b, part, strict=True):
            out[k] = res
    return out
