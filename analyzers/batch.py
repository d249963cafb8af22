"""Score many skills: discovery, the on-disk result cache (content hash), and work spread over the cores.

Works on report dicts (Report.to_dict()), so a fully cached run never imports YAML or markdown-it.
"""

from __future__ import annotations

import functools
import json
import marshal
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

try:  # the builtin module: hashlib would also load OpenSSL (~6 ms of every start)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

from .workspace import BUNDLE_SKIP_DIRS, find_skill_files, quick_name_at

CACHE_VERSION = "2"
_MAX_CACHE_FILE = 256_000_000
KEEP_UNUSED = 2_000  # cached results not used by a run that are kept (newest first)


def engine_fingerprint() -> str:
    """Changes whenever any engine source file (or the Python version, which fixes the cache format) changes."""
    h = blake2b(f"{CACHE_VERSION}:{sys.version_info[:2]}".encode(), digest_size=12)
    stack = [os.path.dirname(os.path.abspath(__file__))]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in sorted(it, key=lambda e: e.name):
                if e.is_dir() and e.name != "__pycache__":
                    stack.append(e.path)
                elif e.name.endswith(".py"):
                    st = e.stat()
                    h.update(f"{e.path}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def _listing(skill_dir: str) -> str:
    """A cheap fingerprint of the skill's bundled files (names, sizes, mtimes, ctimes); symlinked dirs not followed."""
    h = blake2b(digest_size=12)
    stack = [skill_dir]
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
                    if e.name not in BUNDLE_SKIP_DIRS:
                        stack.append(e.path)
                elif e.name != "SKILL.md" or d != skill_dir:  # SKILL.md itself is keyed by content
                    n += 1  # bundled files are linted too: an edit (size, mtime or ctime) invalidates
                    st = e.stat()
                    h.update(f"{e.path}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}\n".encode())
            except OSError:
                continue
    return h.hexdigest()


def _stat_key(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


_RACY_NS = 2_000_000_000  # a file changed this recently may change again within its timestamp's grain


class ResultCache:
    """One file per workspace root (marshal: loads twice as fast as JSON).

    - results: key -> (report, {external path: existed, or a package's mark: the digest of the keys its
      code reads (package_code)}); the key hashes the SKILL.md's content, its
      folder listing, the config, the workspace's skill names and the root;
    - files: path -> (stat, content digest, quick name), so an unchanged SKILL.md (same size, mtime,
      ctime, inode and device, as git's index decides) is neither read nor hashed again. A file whose
      timestamps are within 2 s of when it was recorded is not trusted (git's "racy" rule);
    - texts (a second file, read only for JSON output): key -> the report as compact JSON.
    """

    def __init__(self, directory: str, fingerprint: str) -> None:
        self.directory = directory
        self.file = os.path.join(directory, f"results-{fingerprint}.bin")
        self.texts_file = os.path.join(directory, f"results-{fingerprint}.json-texts.bin")
        self.results: dict[str, tuple] = {}
        self.files: dict[str, tuple] = {}
        self._texts: dict[str, str] | None = None  # loaded on first use
        self.dirty = self.texts_dirty = False
        self.used: set[str] = set()
        data = _load(self.file)
        try:
            self.results, self.files = data["results"], data["files"]
        except (TypeError, KeyError):
            self.results, self.files = {}, {}

    def known_file(self, path: str, st: os.stat_result) -> tuple | None:
        """(digest, name, name position) recorded for this exact file state, or None."""
        e = self.files.get(path)
        return e[1] if e is not None and e[0] == _stat_key(st) else None

    def record_file(self, path: str, st: os.stat_result, facts: tuple) -> None:
        if max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - _RACY_NS:
            self.files[path] = (_stat_key(st), facts)
            self.dirty = True

    def get(self, key: str) -> dict | None:
        e = self.results.get(key)
        if e is None:
            return None
        for p, existed in e[1].items():
            if p.startswith("\0"):  # not a path: a file's text read, or what a package's code reads
                from .measures import mark_still_valid

                if not mark_still_valid(p, existed):
                    return None
            elif os.path.exists(p) != existed:
                return None
        self.used.add(key)
        return e[0]

    def put(self, key: str, report: dict, external: dict[str, bool | str]) -> None:
        self.results.pop(key, None)  # re-inserted last: the newest entries survive pruning
        self.results[key] = (report, external)
        self.used.add(key)
        self.dirty = True

    def json_text(self, key: str, report: dict, encoded: str | None = None) -> str:
        """The report as compact JSON, encoded once and kept (JSON output splices it); `encoded`: the text a
        worker already encoded for this report."""
        if self._texts is None:
            texts = _load(self.texts_file)
            self._texts = texts if isinstance(texts, dict) else {}
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = encoded or json.dumps(report, separators=(",", ":"))
            self.texts_dirty = True
        return text

    def _prune(self) -> None:
        """Keep this run's results and the newest KEEP_UNUSED others (other runs on parts of the tree)."""
        spare = len(self.results) - len(self.used) - KEEP_UNUSED
        if spare > 0:
            for key in [k for k in self.results if k not in self.used][:spare]:
                del self.results[key]
        if len(self.files) > 4 * KEEP_UNUSED:
            self.files = {p: e for p, e in self.files.items() if os.path.exists(p)}

    def save(self) -> None:
        if not (self.dirty or self.texts_dirty):
            return
        self._prune()
        write_texts = self._texts is not None  # loaded this run: pruned with the results, then saved
        if write_texts:
            self._texts = {k: t for k, t in self._texts.items() if k in self.results}
        try:
            os.makedirs(self.directory, exist_ok=True)
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(gitignore):
                with open(gitignore, "w") as fh:
                    fh.write("*\n")
            with os.scandir(self.directory) as it:
                for e in it:
                    if e.name.startswith("results-") and e.path not in (self.file, self.texts_file):
                        os.unlink(e.path)
            if self.dirty:
                _dump(self.file, {"results": self.results, "files": self.files})
            if write_texts:
                _dump(self.texts_file, self._texts)
        except (OSError, ValueError):
            pass  # a read-only tree (or an unmarshallable value): run without a cache


def _load(path: str):
    try:
        with open(path, "rb") as fh:
            if os.fstat(fh.fileno()).st_size < _MAX_CACHE_FILE:
                return marshal.loads(fh.read())  # marshal.load(fh) reads in tiny pieces: 7x slower
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return None


def _dump(path: str, value) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        marshal.dump(value, fh)
    os.replace(tmp, path)


def workspace_root_for(path: Path | str) -> Path:
    """The repository root (nearest .git), else the directory given, else the skill's parent."""
    return Path(_root_of(os.path.abspath(path)))


def _root_of(p: str) -> str:
    is_dir = os.path.isdir(p)
    start = p if is_dir else os.path.dirname(p)
    git = _git_root(start)
    if git is not None:
        return git
    if is_dir and not os.path.exists(os.path.join(p, "SKILL.md")):
        return p
    return os.path.dirname(start)


_WORKSPACE: list = [None]  # the run's workspace index, set before forking (inherited, not pickled)
_WANT_JSON: list = [False]  # the run prints JSON: workers encode their reports (set before forking)


@functools.lru_cache(maxsize=4096)
def _git_root(directory: str) -> str | None:
    if os.path.exists(os.path.join(directory, ".git")):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _git_root(parent)


def _analyze_one(args: tuple) -> tuple[dict, dict[str, bool | str], str | None]:
    """(report, what it depended on outside the file, the report as compact JSON when the run prints JSON: a
    worker encodes its own reports, in parallel, instead of the parent encoding them all at the end)."""
    from .parse import decode
    from .report import analyze

    path, data, root, config = args
    ws = _WORKSPACE[0]
    text, binary = decode(data)
    rep = analyze(text, Path(path), config=config, workspace=ws, workspace_root=root, binary=binary)
    d = rep.to_dict()
    encoded = json.dumps(d, separators=(",", ":")) if _WANT_JSON[0] else None
    return d, dict(rep.document.external) if rep.document is not None else {}, encoded


GC_YOUNG = 20_000  # allocations between a worker's young collections (Python's default: 700)


def _chunk_worker(batch: list[tuple]) -> list[tuple[dict, dict[str, bool | str], str | None]]:
    import gc

    gc.set_threshold(GC_YOUNG, 10, 10)  # a worker's objects live for one skill: collect them less often
    return [_analyze_one(a) for a in batch]


def _forked_worker(conn, batch: list[tuple]) -> None:
    """A forked worker: its share of the skills (inherited from the parent, not pickled), the results down `conn`.
    Ctrl-C is the parent's to handle: it stops the workers."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn.send(_chunk_worker(batch))
    conn.close()


def _skipped_hint(path: Path) -> str:
    """` (dist/skills/a/SKILL.md is in a folder skipped as build output, cache or tool state: give its
    path to score it)`, or "" when no skipped folder holds one."""
    if not path.is_dir():
        return ""
    from .workspace import skipped_skill_file

    rel = skipped_skill_file(path)
    if rel is None:
        return ""
    return (f" ({rel} is in a folder skipped as build output, cache or tool state: give its path to "
            "score it)")


def score_paths(
    paths: list[Path],
    config_for: Callable[[Path], object],
    *,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    config_key: Callable[[object], str] = repr,
    json_texts: list[str] | None = None,
) -> tuple[list[dict], list[str]]:
    """Score every SKILL.md under `paths`. Returns (report dicts in path order, error lines).

    json_texts, when given, receives each report's compact JSON (from the cache where it was kept).
    """
    files: list[tuple[Path, str]] = []
    errors: list[str] = []
    for p in paths:
        found = list(find_skill_files([p]))
        if not found:
            errors.append(f"{p}: no SKILL.md found{_skipped_hint(p)}")
        root = _root_of(os.path.abspath(p))  # the repository, else the directory given (not each skill's parent)
        files.extend((f, root) for f in found)
    uniq: dict[str, tuple[Path, str]] = {}  # de-duplicate while keeping order
    for f, root in files:
        uniq.setdefault(os.path.abspath(f), (f, root))
    fingerprint = engine_fingerprint() if cache_dir is not None else ""
    caches: dict[str, ResultCache] = {}
    items: list[_Item] = []
    for apath, (f, root) in uniq.items():
        it = _Item(f, apath, root)
        items.append(it)
        try:
            st = os.stat(apath)
            if st.st_size > 50_000_000:
                it.error = f"{f}: file is {st.st_size:,} bytes; skillgrade reads at most 50,000,000"
                continue
            if cache_dir is not None:
                cdir = str(cache_dir) if cache_dir.is_absolute() else os.path.join(it.root, cache_dir)
                it.cache = caches.get(cdir) or caches.setdefault(cdir, ResultCache(cdir, fingerprint))
                known = it.cache.known_file(apath, st)
                if known is not None:
                    it.digest, it.name = known
                    continue
            it.read(digest=it.cache is not None)  # the content digest only keys the result cache
            if it.cache is not None:
                it.cache.record_file(apath, st, (it.digest, it.name))
        except OSError as exc:
            it.error = f"{f}: {exc.strerror or exc}"
    ws_hash = ""
    if caches:  # the workspace's skill names, a part of every cache key (a run without a cache needs none)
        ws_names = sorted((it.apath, it.name[0]) for it in items if it.error is None and it.name[0])
        ws_hash = blake2b(repr(ws_names).encode(), digest_size=12).hexdigest()
    cfg_keys: dict[int, str] = {}
    results: dict[int, dict] = {}
    keys: dict[int, str] = {}
    todo: list[tuple[int, _Item, object, str]] = []
    encoded_by_worker: dict[int, str] = {}
    for i, it in enumerate(items):
        if it.error is not None:
            errors.append(it.error)
            continue
        cfg = config_for(it.path)
        key = ""
        if it.cache is not None:  # the key costs a folder listing: only with a cache
            ck = cfg_keys.get(id(cfg))
            if ck is None:
                ck = cfg_keys[id(cfg)] = config_key(cfg)
            parts = (it.digest, it.apath, _listing(os.path.dirname(it.apath)), ck, ws_hash, it.root)
            key = keys[i] = blake2b("\0".join(parts).encode(), digest_size=16).hexdigest()
            hit = it.cache.get(key)
            if hit is not None:
                results[i] = hit
                continue
        todo.append((i, it, cfg, key))
    if todo:
        ws = _workspace(items)
        _WORKSPACE[0] = ws
        _WANT_JSON[0] = json_texts is not None
        args = []
        for _i, it, cfg, _key in todo:
            if it.data is None:
                it.read()
            args.append((str(it.path), it.data, Path(it.root), cfg))
        outs = _run(args, jobs)
        for (i, it, _cfg, key), (report, external, encoded) in zip(todo, outs, strict=True):
            results[i] = report
            if encoded is not None:
                encoded_by_worker[i] = encoded
            if it.cache is not None:
                it.cache.put(key, report, external)
    order = sorted(results)
    if json_texts is not None:
        for i in order:
            cache = items[i].cache
            encoded = encoded_by_worker.get(i)
            if cache is not None:
                json_texts.append(cache.json_text(keys[i], results[i], encoded))
            else:
                json_texts.append(encoded or json.dumps(results[i], separators=(",", ":")))
    for cache in caches.values():
        cache.save()  # entries of other runs on the same tree are kept
    return [results[i] for i in order], errors


@dataclass(slots=True)
class _Item:
    path: Path  # as the user named it (reports keep this spelling)
    apath: str
    root: str
    cache: ResultCache | None = None
    data: bytes | None = None
    digest: str = ""
    name: tuple = (None, None)  # (name, (line, col, end col)) from the frontmatter's `name:` line
    error: str | None = None

    def read(self, digest: bool = True) -> None:
        """Read the SKILL.md and its name; with `digest`, hash its content (a cache key: a run without a cache skips
        it, ~13 instructions a byte, 69 M over the shared corpus's 5 MB in the parent before the workers start)."""
        with open(self.apath, "rb") as fh:
            self.data = fh.read()
        if digest:
            self.digest = blake2b(self.data, digest_size=16).hexdigest()
        text = self.data[:8192].decode("utf-8", errors="replace").lstrip("\ufeff")
        self.name = quick_name_at(text)


def _workspace(items: list[_Item]):
    from .findings import Pos, Range
    from .workspace import Workspace

    ws = Workspace()
    for it in items:
        name, at = it.name
        if it.error is None and name:
            ws.add(it.path, name, Range(Pos(at[0], at[1]), Pos(at[0], at[2])))
    return ws


WEIGHT_ENTRIES = 500  # directory entries looked at per skill for its cost estimate


def _weight(path: str, size: int) -> int:
    """A skill's estimated analysis cost, in SKILL.md bytes: a SKILL.md byte costs ~80 ns (parse and every
    rule), a bundled text byte ~50 ns (content scans, links), and a skill ~1.5 ms whatever its size
    (fitted on the shared corpus). Without the bundle, a skill with a short SKILL.md and a large
    references/ folder landed on one worker at the end of the run while the other waited."""
    from .bundle import MAX_BUNDLED_BYTES, is_text_name

    bundle = 0
    seen = 0
    stack = [os.path.dirname(path)]
    while stack and seen < WEIGHT_ENTRIES:
        try:
            it = os.scandir(stack.pop())
        except OSError:
            continue
        with it:
            for e in it:
                seen += 1
                try:
                    if e.is_dir(follow_symlinks=False):
                        if e.name not in BUNDLE_SKIP_DIRS:
                            stack.append(e.path)
                    elif is_text_name(e.name) and e.name != "SKILL.md":
                        st = e.stat().st_size
                        bundle += st if st <= MAX_BUNDLED_BYTES else 0
                except OSError:
                    continue
    return size + bundle * 3 // 5 + 18_000


def _run(args: list[tuple], jobs: int | None) -> list[tuple[dict, dict[str, bool | str], str | None]]:
    n = len(args)
    cpus = os.cpu_count() or 1
    jobs = cpus if jobs is None else max(1, jobs)
    if jobs <= 1 or n < 16:
        return [_analyze_one(a) for a in args]
    import multiprocessing as mp

    # fork (workers inherit the imports)
    ctx = mp.get_context("fork")
    from . import report  # noqa: F401  (import before fork)
    from .parse import markdown_parser

    markdown_parser()
    # longest first, each to the least loaded worker, by estimated cost (SKILL.md and its bundled text)
    import heapq

    weights = [_weight(str(a[0]), len(a[1])) for a in args]
    buckets: list[list[int]] = [[] for _ in range(jobs)]
    loads = [(0, j) for j in range(jobs)]
    for k in sorted(range(n), key=lambda k: -weights[k]):
        load, j = heapq.heappop(loads)
        buckets[j].append(k)
        heapq.heappush(loads, (load + weights[k], j))
    out: list = [None] * n
    import gc

    gc.freeze()  # what the parent holds (modules, compiled patterns, the parser) stays out of the workers' collections
    # one forked process per bucket, not a Pool: the skills are inherited at the fork instead of pickled down a pipe,
    # and no pool threads poll while the workers run
    procs = []
    done = False
    try:
        for b in buckets:
            if not b:
                continue
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_forked_worker, args=(send, [args[k] for k in b]), daemon=True)
            proc.start()
            send.close()
            procs.append((b, proc, recv))
        for b, proc, recv in procs:
            try:
                part = recv.recv()
            except EOFError:
                proc.join()
                raise RuntimeError(f"a worker process ended without its results (exit code {proc.exitcode})") from None
            for k, res in zip(b, part, strict=True):
                out[k] = res
        done = True
    finally:  # (Ctrl-C, a lost worker: stop the others)
        for _b, proc, recv in procs:
            recv.close()
            if not done:
                proc.terminate()
            proc.join()
    return out
