"""The server's analysis state, run on one worker thread: workspace index, file and config caches.

Everything here is plain Python plus the lsprotocol values made by convert.py; nothing touches the
event loop. The server submits `Snapshot`s and gets `Result`s back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as T

from skillgrade.analyzers import Config, ConfigError, Report, Workspace, analyze, config_for, find_skill_files
from skillgrade.analyzers.document import LineIndex, SkillFiles
from skillgrade.analyzers.parse import scan_skill_files
from skillgrade.analyzers.report import MAX_FILE_BYTES, read_skill

from .convert import to_lsp_diagnostic
from .documents import Codec
from .settings import Settings

log = logging.getLogger("skillgrade.server")

SKILL_FILE = "SKILL.md"
FILES_TTL_NO_WATCH = 2.0  # seconds a file listing stays valid when the client cannot watch files


@dataclass(frozen=True, slots=True)
class Snapshot:
    uri: str
    version: int | None  # None: a file on disk that is not open
    generation: int
    text: str | None  # None: read the SKILL.md from disk (only a bundled file of it is open)
    path: Path | None
    codec: Codec
    settings: Settings
    binary: bool = False
    stamp: int = 0  # the skill's edit counter (any open file of the skill): part of the result key
    target: str | None = None  # a bundled file of the skill (rel path): its diagnostics, not SKILL.md's
    target_lines: list[str] | None = None  # that file's open buffer
    overrides: dict[str, str] = field(default_factory=dict)  # open bundled buffers: rel path -> text


@dataclass(slots=True)
class Result:
    uri: str
    version: int | None
    generation: int
    report: Report
    diagnostics: list[T.Diagnostic]
    result_id: str
    elapsed_ms: float
    lines: list[str] = field(repr=False, default_factory=list)
    name_changed: bool = False
    stamp: int = 0
    target: str | None = None  # the bundled file these diagnostics are for (None: the SKILL.md)

    @property
    def key(self) -> tuple:
        return (self.version, self.generation, self.stamp)


def result_id_for(diags: list[T.Diagnostic], converter) -> str:
    blob = json.dumps(converter.unstructure(diags), sort_keys=True, default=str)
    return hashlib.sha1(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class Engine:
    """Caches keyed by directory; mutated only on the analysis thread (single worker)."""

    def __init__(self, converter, watching: bool = False) -> None:
        self.converter = converter
        self.roots: tuple[Path, ...] = ()
        self.workspace = Workspace()
        self.files: dict[Path, tuple[float, SkillFiles]] = {}
        self.configs: dict[Path, tuple[Config, str | None]] = {}
        self.watching = watching
        self.config_errors: list[str] = []  # reported once each, drained by the server
        self._reported: set[str] = set()
        self.thread = threading.local()

    # ------------------------------------------------------------------ paths

    def root_for(self, path: Path) -> Path:
        """The workspace folder holding `path`; outside every folder: the skill's own directory."""
        best = None
        for r in self.roots:
            if (path == r or r in path.parents) and (best is None or len(str(r)) > len(str(best))):
                best = r
        return best or path.parent

    def inside_workspace(self, path: Path) -> bool:
        return any(path == r or r in path.parents for r in self.roots)

    # ------------------------------------------------------------------ caches

    def files_for(self, skill_dir: Path, root: Path) -> SkillFiles:
        now = time.monotonic()
        hit = self.files.get(skill_dir)
        if hit is not None and (self.watching or now - hit[0] < FILES_TTL_NO_WATCH):
            return hit[1]
        files = scan_skill_files(skill_dir, root)
        self.files[skill_dir] = (now, files)
        return files

    def config_for(self, skill_dir: Path) -> Config:
        hit = self.configs.get(skill_dir)
        if hit is None:
            try:
                cfg, err = config_for(skill_dir), None
            except ConfigError as exc:
                cfg, err = Config(), str(exc)
            except OSError as exc:
                cfg, err = Config(), f"cannot read configuration: {exc}"
            hit = (cfg, err)
            self.configs[skill_dir] = hit
        if hit[1] and hit[1] not in self._reported:
            self._reported.add(hit[1])
            self.config_errors.append(hit[1])
        return hit[0]

    def invalidate(self, path: Path) -> set[Path]:
        """A file changed on disk: drop what depends on it; returns the skill dirs affected."""
        affected: set[Path] = set()
        if path.name in (".skillgrade.toml", "pyproject.toml"):
            self.configs.clear()
            self._reported.clear()
            from skillgrade.analyzers import config as engine_config

            if hasattr(engine_config, "clear_config_cache"):  # the engine caches lookups per directory
                engine_config.clear_config_cache()
            return set(self.files)
        for d in list(self.files):
            if d == path or d in path.parents:
                self.files.pop(d, None)
                affected.add(d)
        return affected

    def forget_files(self) -> None:
        self.files.clear()

    # ------------------------------------------------------------------ workspace index

    def index_roots(self, roots: tuple[Path, ...], open_texts: dict[Path, str]) -> tuple[Workspace, int]:
        """Build a fresh index of every SKILL.md under the roots (disk), with open buffers on top."""
        ws = Workspace(roots=roots)
        n = 0
        for p in find_skill_files(list(roots)):
            try:
                if p.stat().st_size > MAX_FILE_BYTES:
                    continue
                with p.open("rb") as fh:
                    head = fh.read(16384)
                ws.add_text(p, head.decode("utf-8", "replace"))
                n += 1
            except OSError:
                continue
        for p, text in open_texts.items():
            ws.add_text(p, text)
        return ws, n

    def update_index(self, path: Path, text: str | None) -> bool:
        """Index one SKILL.md (None: read it from disk, or drop it when gone). True when its name changed."""
        before = self.workspace.entries.get(path)
        if text is None:
            try:
                text = read_skill(path)[0] if path.is_file() else None
            except OSError:
                text = None
        if text is None:
            self.workspace.remove(path)
        else:
            self.workspace.add_text(path, text)
        after = self.workspace.entries.get(path)
        return (before.name if before else None) != (after.name if after else None)

    def skill_paths(self) -> list[Path]:
        return sorted(self.workspace.entries)

    # ------------------------------------------------------------------ analysis

    def lines_of(self, path: str, open_lines: dict[str, list[str]]) -> list[str] | None:
        if path in open_lines:
            return open_lines[path]
        p = Path(path)
        if not self.inside_workspace(p):
            return None
        try:
            if p.stat().st_size > MAX_FILE_BYTES:
                return None
            return LineIndex(p.read_text("utf-8", errors="replace")).lines
        except OSError:
            return None

    def run(self, snap: Snapshot, open_lines: dict[str, list[str]] | None = None) -> Result:
        t0 = time.perf_counter()
        settings = snap.settings
        path = snap.path
        name_changed = False
        if path is None:
            # no file on disk: the engine reports no link, file or name findings it cannot check
            cfg = settings.config()
            report = analyze(snap.text, None, config=cfg, files=SkillFiles(None), binary=snap.binary,
                             incremental=True)
        else:
            skill_dir = path.parent
            root = self.root_for(path)
            cfg = settings.config(self.config_for(skill_dir))
            files = self.files_for(skill_dir, root)
            text, binary = snap.text, snap.binary
            if text is None:  # a bundled file is open, its SKILL.md is not: the SKILL.md on disk
                got = read_for_analysis(path)
                text, binary = got if got is not None else ("", False)
            if snap.version is not None and path.name == SKILL_FILE and snap.target is None:
                name_changed = self.update_index(path, text)
            report = analyze(text, path, config=cfg, workspace=self.workspace, workspace_root=root,
                             files=files, binary=binary, incremental=snap.version is not None,
                             bundle_overrides=snap.overrides)
        doc = report.document
        skill_lines = doc.lines if doc is not None else LineIndex(snap.text or "").lines
        lines = skill_lines if snap.target is None else (snap.target_lines or [])
        base = cfg.docs_base_url
        cache = dict(open_lines or {})
        if path is not None:
            cache[str(path)] = skill_lines

        def lines_for(p: str) -> list[str] | None:
            return self.lines_of(p, cache)

        # SKILL.md shows its own findings; a bundled file's buffer shows the findings on that file
        mine = [f for f in report.findings if f.file == snap.target]
        if path is not None and settings.hide_baselined:  # findings recorded in the baseline file
            from .baseline_view import baseline_file, without_baselined

            mine = without_baselined(mine, path, baseline_file(settings, cfg, root), lines_for)
        diags = [to_lsp_diagnostic(f, snap.uri, snap.version if snap.version is not None else -1, lines,
                                   snap.codec, base, lines_for) for f in mine]
        rid = result_id_for(diags, self.converter)
        ms = (time.perf_counter() - t0) * 1000
        log.debug("analysed %s v%s in %.1f ms: %d findings", snap.uri, snap.version, ms, len(diags))
        return Result(snap.uri, snap.version, snap.generation, report, diags, rid, ms, lines, name_changed,
                      snap.stamp, snap.target)


def stopped_result(uri: str, version: int | None, generation: int, stamp: int, target: str | None, limit: float,
                   lines: list[str], converter) -> Result:
    """The result for a version whose analysis ran past the time limit: no findings, no scores, one
    diagnostic that says analysis stopped (so the editor shows why this version has no findings)."""
    from skillgrade.analyzers.scoring import composite
    from skillgrade.analyzers.static_layer import STATIC_TO_DIMENSION, StaticResult

    report = Report(None, None, [], StaticResult({k: None for k in STATIC_TO_DIMENSION}, {}),
                    composite({"static": {}}, 0))
    first = lines[0] if lines else ""
    diag = T.Diagnostic(
        range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=len(first))),
        message=(f"skillgrade stopped analysing this version after {limit:g} s (the analysisTimeoutMs "
                 "setting); its findings are not shown. The next edit is analysed again."),
        severity=T.DiagnosticSeverity.Warning, source="skillgrade", code="ANALYSIS_STOPPED")
    rid = result_id_for([diag], converter)
    return Result(uri, version, generation, report, [diag], rid, limit * 1000, lines, stamp=stamp, target=target)


def read_for_analysis(path: Path) -> tuple[str, bool] | None:
    try:
        return read_skill(path)
    except OSError:
        return None
