"""SkillServer: per-document state, debounced analysis on one worker thread, push or pull diagnostics.

Handlers live in features/; this module owns the state they share and the few operations that
several features need (analyse the current version, publish, re-check after a change, settings).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from skillgrade.analyzers.bundle import MARKDOWN_SUFFIXES, suffix
from skillgrade.analyzers.workspace import BUNDLE_SKIP_DIRS, is_manifest_name

from .convert import uri_to_path
from .documents import UTF8, UTF16, UTF32, Codec, DocumentStore, OpenDoc
from .engine import SKILL_FILE, Engine, Result, Snapshot, read_for_analysis, stopped_result
from .render import RunRecord
from .settings import Settings, parse_settings, unwrap

log = logging.getLogger("skillgrade.server")
SECTION = "skillgrade"
MAX_BUNDLE_DEPTH = 8  # folders between a bundled markdown file and its SKILL.md


class AnalysisStopped(BaseException):
    """Raised inside the worker thread to stop an analysis that ran past `analysisTimeoutMs` (a
    BaseException, like KeyboardInterrupt, so that the engine's per-rule `except Exception` lets it through)."""


class _Job:
    """One analysis on the worker: which thread runs it, and whether it still runs (under `lock`)."""

    def __init__(self, target: str | None = None, limit: float = 0.0) -> None:
        self.target = target  # the bundled file the analysis is for (None: the SKILL.md)
        self.limit = limit  # seconds; 0: none
        self.lock = threading.Lock()
        self.thread: int | None = None
        self.running = False
        self.started: float | None = None  # time.monotonic() when the worker began it

    def run(self, fn, *args):
        with self.lock:
            self.thread, self.running, self.started = threading.get_ident(), True, time.monotonic()
        # the job enforces its own limit, so that an analysis nobody awaits any more (its version was
        # superseded and the waiting task cancelled) is stopped too
        timer = threading.Timer(self.limit, self.stop) if self.limit else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            return fn(*args)
        finally:
            if timer is not None:
                timer.cancel()
            with self.lock:
                self.running = False

    def stop(self) -> bool:
        """Raise AnalysisStopped in the worker thread at its next Python instruction (code that holds
        the interpreter, a C-level regex say, is stopped only when it returns)."""
        import ctypes

        with self.lock:
            if not self.running or self.thread is None:
                return False
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.thread), ctypes.py_object(AnalysisStopped))
            return True

try:  # the distribution's version; cheap, and never fatal
    from importlib.metadata import version as _dist_version

    VERSION = _dist_version("skillgrade")
except Exception:  # noqa: BLE001
    VERSION = "0.0.0"


class SkillProtocol(LanguageServerProtocol):
    """pygls' protocol with two changes: cancellation reaches running commands, and text sync goes to
    the server's own document store (LSP line breaks) instead of pygls' TextDocument."""

    _server: SkillServer

    def _handle_cancel_notification(self, msg_id):
        super()._handle_cancel_notification(msg_id)
        ev = self._server.cancel_events.get(msg_id)
        if ev is not None:
            ev.set()

    @lsp_method(T.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: T.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(T.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: T.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(T.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: T.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class SkillServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("skillgrade", VERSION, protocol_cls=SkillProtocol,
                         text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.docs = DocumentStore()
        self.settings = Settings()
        self.codec = Codec(UTF16)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skillgrade-analysis")
        self.engine = Engine(self.protocol._converter)
        self.generation = 0
        self.results: dict[str, Result] = {}
        self.inflight: dict[tuple, asyncio.Future] = {}
        self.jobs: dict[tuple, _Job] = {}
        self.stopped: dict[tuple, Result] = {}  # (uri, version, generation) -> the "analysis stopped" result
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, tuple[int | None, str]] = {}
        self.runs: dict[str, list[RunRecord]] = {}
        self.judged: dict[str, Any] = {}  # uri -> judge_view.JudgeState (the last judge result, per version)
        self.certified: dict[str, Any] = {}  # uri -> judge_view.CertifyState (the last certify result)
        self.judge_probed: set[tuple[str, int | None]] = set()  # (uri, version) looked up in the LLM cache
        self.judge_tasks: dict[str, asyncio.Task] = {}  # uri -> the judge run in progress
        self.cancel_events: dict[Any, threading.Event] = {}
        self.disk_results: dict[Path, tuple[tuple, Result]] = {}
        self.stamps: dict[Path, int] = {}  # skill folder -> edits of any of its open files
        # side documents (task suites, eval files: side_docs.py): uri -> (version, diagnostics, result id)
        self.side_results: dict[str, tuple[int | None, list[T.Diagnostic], str]] = {}
        # client capabilities, filled in initialize
        self.use_pull = False
        self.supports_progress = False
        self.supports_config = False
        self.supports_refresh = False
        self.supports_lens_refresh = False
        self.document_changes = False
        self.can_create = False
        self.hierarchical_symbols = True
        self.snippets = False
        self._raw_init: Any = None
        self._raw_client: Any = None

    # ------------------------------------------------------------------ capabilities and settings

    def read_capabilities(self, params: T.InitializeParams) -> None:
        caps = params.capabilities
        td, ws, win = caps.text_document, caps.workspace, caps.window
        self.use_pull = bool(td and td.diagnostic)
        self.supports_progress = bool(win and win.work_done_progress)
        self.supports_config = bool(ws and ws.configuration)
        self.supports_refresh = bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)
        self.supports_lens_refresh = bool(ws and ws.code_lens and ws.code_lens.refresh_support)
        we = ws.workspace_edit if ws else None
        ops = [str(getattr(o, "value", o)) for o in ((we.resource_operations or []) if we else [])]
        # resource operations exist only inside documentChanges: a client that lists them applies both
        self.document_changes = bool(we and (we.document_changes or ops))
        self.can_create = "create" in ops
        sym = td.document_symbol if td else None
        self.hierarchical_symbols = bool(sym and sym.hierarchical_document_symbol_support)
        comp = td.completion if td else None
        self.snippets = bool(comp and comp.completion_item and comp.completion_item.snippet_support)
        self.engine.watching = bool(ws and ws.did_change_watched_files
                                    and ws.did_change_watched_files.dynamic_registration)
        enc = self.protocol.workspace.position_encoding
        enc = str(getattr(enc, "value", enc) or UTF16)
        self.codec = Codec(enc if enc in (UTF8, UTF16, UTF32) else UTF16)
        roots: list[Path] = []
        for f in params.workspace_folders or []:
            if (p := uri_to_path(f.uri)) is not None:
                roots.append(Path(p))
        if not roots and params.root_uri and (p := uri_to_path(params.root_uri)) is not None:
            roots.append(Path(p))
        elif not roots and params.root_path:
            roots.append(Path(params.root_path))
        self.engine.roots = tuple(roots)
        client = params.client_info.name if params.client_info else "?"
        log.info("client=%s pull=%s progress=%s config=%s encoding=%s roots=%s", client, self.use_pull,
                 self.supports_progress, self.supports_config, self.codec.encoding, roots)

    def apply_settings(self, raw_init: Any = ..., raw_client: Any = ...) -> bool:
        """Layer the client's settings over initializationOptions; True when the result changed."""
        if raw_init is not ...:
            self._raw_init = unwrap(raw_init)
        if raw_client is not ...:
            self._raw_client = unwrap(raw_client)
        merged: dict = {}
        for layer in (self._raw_init, self._raw_client):
            if isinstance(layer, dict):
                merged.update(layer)
            elif layer is not None:
                merged = layer  # reported as an error by parse_settings
        new, errors = parse_settings(merged if merged != {} else None)
        if errors:
            self.show_message("skillgrade: ignoring invalid settings (defaults used instead): " + "; ".join(errors),
                              T.MessageType.Warning)
        if new == self.settings:
            return False
        self.settings = new
        if "logLevel" in merged or "log_level" in merged:
            logging.getLogger("skillgrade").setLevel(new.log_level)
        log.info("settings changed: %s", new)
        return True

    async def pull_settings(self) -> None:
        if not self.supports_config:
            return
        try:
            res = await self.workspace_configuration_async(
                T.ConfigurationParams(items=[T.ConfigurationItem(section=SECTION)]))
        except Exception as exc:  # noqa: BLE001 - a client that fails here keeps the current settings
            log.warning("workspace/configuration failed: %s", exc)
            return
        value = res[0] if res else None
        if value is not None and self.apply_settings(raw_client=value):
            self.invalidate_all()

    def show_message(self, text: str, kind: T.MessageType = T.MessageType.Info) -> None:
        log.warning("%s", text) if kind <= T.MessageType.Warning else log.info("%s", text)
        self.window_show_message(T.ShowMessageParams(type=kind, message=text))

    def log_client(self, text: str) -> None:
        self.window_log_message(T.LogMessageParams(type=T.MessageType.Info, message=text))

    # ------------------------------------------------------------------ analysis

    def path_of(self, doc: OpenDoc) -> Path | None:
        p = uri_to_path(doc.uri)
        return Path(p) if p else None

    def is_skill(self, uri: str) -> bool:
        """SKILL.md files and buffers without a file (untitled:); other files are not ours. A case variant
        (`skill.md`) in a folder without SKILL.md is one too: SKILL_FILE_NAME tells its author why Claude
        Code skips it."""
        p = uri_to_path(uri)
        if p is None:
            return not uri.startswith("file:")
        path = Path(p)
        if path.name == SKILL_FILE:
            return True
        return is_manifest_name(path.name) and not (path.parent / SKILL_FILE).is_file()

    def bundle_owner(self, uri: str) -> tuple[Path, str] | None:
        """(its SKILL.md, rel path) for a markdown file bundled with a skill (references/forms.md);
        None for any other file: markdown outside a skill folder gets no diagnostics."""
        p = uri_to_path(uri)
        if p is None:
            return None
        path = Path(p)
        if path.name == SKILL_FILE or suffix(path.name) not in MARKDOWN_SUFFIXES:
            return None
        d = path.parent
        for _ in range(MAX_BUNDLE_DEPTH):
            try:
                if (d / SKILL_FILE).is_file():
                    rel = path.relative_to(d).as_posix()
                    if any(part in BUNDLE_SKIP_DIRS for part in rel.split("/")[:-1]):
                        return None  # node_modules, .git, ...: not part of the skill
                    return d / SKILL_FILE, rel
            except OSError:
                return None
            if d in self.engine.roots or d.parent == d:
                break
            d = d.parent
        return None

    def is_ours(self, uri: str) -> bool:
        """A skill (SKILL.md, untitled buffer) or a markdown file bundled with one."""
        return self.is_skill(uri) or self.bundle_owner(uri) is not None

    def skill_dir_of(self, uri: str) -> Path | None:
        p = uri_to_path(uri)
        if p is None:
            return None
        if self.is_skill(uri):
            return Path(p).parent
        owner = self.bundle_owner(uri)
        return owner[0].parent if owner is not None else None

    def key_of(self, doc: OpenDoc) -> tuple:
        d = self.skill_dir_of(doc.uri)
        return (doc.version, self.generation, self.stamps.get(d, 0) if d is not None else 0)

    def _overrides(self, skill_dir: Path | None, except_uri: str | None = None) -> dict[str, str]:
        """Open buffers of the skill's bundled markdown files (rel path -> text)."""
        if skill_dir is None:
            return {}
        out = {}
        for d in self.docs:
            owner = self.bundle_owner(d.uri) if d.uri != except_uri else None
            if owner is not None and owner[0].parent == skill_dir:
                out[owner[1]] = d.text
        return out

    def snapshot(self, doc: OpenDoc) -> Snapshot:
        key = self.key_of(doc)
        owner = None if self.is_skill(doc.uri) else self.bundle_owner(doc.uri)
        if owner is None:
            path = self.path_of(doc)
            overrides = self._overrides(path.parent if path is not None else None)
            return Snapshot(doc.uri, doc.version, self.generation, doc.text, path, self.codec, self.settings,
                            stamp=key[2], overrides=overrides)
        skill_md, rel = owner
        overrides = self._overrides(skill_md.parent)
        overrides[rel] = doc.text
        from .convert import path_to_uri

        skill_doc = self.docs.get(path_to_uri(str(skill_md)))
        return Snapshot(doc.uri, doc.version, self.generation, skill_doc.text if skill_doc is not None else None,
                        skill_md, self.codec, self.settings, stamp=key[2], target=rel, target_lines=doc.lines,
                        overrides=overrides)

    def touch_skill(self, uri: str) -> None:
        """A file of a skill changed (or opened, or closed): its other open files are analysed again."""
        d = self.skill_dir_of(uri)
        if d is None:
            return
        others = [x.uri for x in self.docs if x.uri != uri and self.skill_dir_of(x.uri) == d]
        if not others and self.bundle_owner(uri) is None:
            return  # a SKILL.md alone: nothing else depends on its buffer
        self.stamps[d] = self.stamps.get(d, 0) + 1
        for o in others:
            self.results.pop(o, None)
            self.schedule(o)
        if others:
            self.refresh_clients()

    def open_lines(self) -> dict[str, list[str]]:
        out = {}
        for d in self.docs:
            p = uri_to_path(d.uri)
            if p is not None:
                out[p] = d.lines
        return out

    def current(self, uri: str) -> Result | None:
        doc = self.docs.get(uri)
        res = self.results.get(uri)
        if doc is None or res is None or res.key != self.key_of(doc):
            return None
        return res

    async def result_for(self, uri: str, bundled: bool = False) -> Result | None:
        """The analysis of the document's current version (computed on the worker if needed).

        bundled=True (diagnostics and quick fixes only) also answers for a markdown file bundled with a
        skill: its skill is analysed and the result holds that file's findings (`Result.target`).
        """
        loop = asyncio.get_running_loop()
        for _ in range(8):
            doc = self.docs.get(uri)
            if doc is None or not (self.is_skill(uri) or bundled and self.bundle_owner(uri) is not None):
                return None
            if (res := self.current(uri)) is not None:
                return res
            key = (uri, *self.key_of(doc))
            if (res := self.stopped.get(key)) is not None:
                self.results[uri] = res
                return res
            fut = self.inflight.get(key)
            if fut is None:
                snap = self.snapshot(doc)
                job = _Job(snap.target, self.settings.analysis_timeout_ms / 1000)
                fut = loop.run_in_executor(self.pool, job.run, self.engine.run, snap, self.open_lines())
                self.inflight[key] = fut
                self.jobs[key] = job
                fut.add_done_callback(lambda _f, k=key: (self.inflight.pop(k, None), self.jobs.pop(k, None)))
            res = await self._bounded(key, fut, doc)
            if res.name_changed:
                res.name_changed = False
                self.generation += 1
                res.generation = self.generation
                self.results[uri] = res
                self.recheck_others(uri)
            doc = self.docs.get(uri)
            if doc is not None and res.key == self.key_of(doc):
                self.results[uri] = res
                return res
        return None

    async def _bounded(self, key: tuple, fut: asyncio.Future, doc: OpenDoc) -> Result:
        """The future's result, unless the analysis runs past analysisTimeoutMs (counted from when the
        worker starts it, not from when it was queued): then the "analysis stopped" result."""
        limit = self.settings.analysis_timeout_ms / 1000
        wait = limit or None
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(fut), wait)
            except AnalysisStopped:  # the job's own timer stopped it
                return self.stop_analysis(key, doc, limit, stuck=False)
            except TimeoutError:
                job = self.jobs.get(key)
                started = job.started if job is not None else None
                # past the limit and a grace period, the job has not stopped: it is inside code that
                # holds the interpreter; give the queue a fresh worker
                left = limit + 1.0 - (time.monotonic() - started) if started is not None else limit
                if left > 0:
                    wait = left
                    continue
                return self.stop_analysis(key, doc, limit, stuck=True)

    def stop_analysis(self, key: tuple, doc: OpenDoc, limit: float, stuck: bool) -> Result:
        """The analysis of this version ran past the limit and was stopped: answer one diagnostic that
        says so. `stuck`: it did not stop (code that holds the interpreter); leave it to finish on its
        own and give the worker's queue a fresh thread, so later versions are analysed normally."""
        if (res := self.stopped.get(key)) is not None:
            return res
        job = self.jobs.pop(key, None)
        if stuck:
            if job is not None:
                job.stop()
            old, self.pool = self.pool, ThreadPoolExecutor(max_workers=1, thread_name_prefix="skillgrade-analysis")
            old.shutdown(wait=False)  # work already queued there still runs once the stuck analysis returns
        log.warning("analysis of %s v%s stopped after %.1f s%s", doc.uri, doc.version, limit,
                    " (stuck: a fresh worker takes the queue)" if stuck else "")
        target = job.target if job is not None else None
        res = stopped_result(doc.uri, key[1], key[2], key[3], target, limit, doc.lines, self.protocol._converter)
        self.stopped[key] = res
        if len(self.stopped) > 64:
            self.stopped.pop(next(iter(self.stopped)))
        self.results[doc.uri] = res
        return res

    def is_side(self, uri: str) -> bool:
        """A file some side-document validator may claim (by its name; the content decides)."""
        return not self.is_ours(uri) and self._side_name(uri)

    @staticmethod
    def _side_name(uri: str) -> bool:
        from . import side_docs

        p = uri_to_path(uri)
        return side_docs.candidate(Path(p) if p else None)

    async def side_result(self, uri: str) -> tuple[list[T.Diagnostic], str] | None:
        """Diagnostics of a side document's current version (validated on the analysis worker), or None
        when it is not open or no validator claims it."""
        from . import side_docs
        from .convert import to_lsp_diagnostic
        from .engine import result_id_for

        doc = self.docs.get(uri)
        if doc is None or not self.is_side(uri):
            return None
        got = self.side_results.get(uri)
        if got is not None and got[0] == doc.version:
            return got[1], got[2]
        version, text, path = doc.version, doc.text, self.path_of(doc)
        claimed = await asyncio.get_running_loop().run_in_executor(self.pool, side_docs.validate, path, text)
        if claimed is None:
            diags: list[T.Diagnostic] = []
        else:
            base = self.settings.config().docs_base_url
            diags = [to_lsp_diagnostic(f, uri, version if version is not None else -1, doc.lines, self.codec,
                                       base, lambda _p: None) for f in claimed[1]]
        rid = result_id_for(diags, self.protocol._converter)
        if (now := self.docs.get(uri)) is not None and now.version == version:
            self.side_results[uri] = (version, diags, rid)
        return diags, rid

    async def _publish_side(self, uri: str) -> None:
        got = await self.side_result(uri)
        doc = self.docs.get(uri)
        if got is None or doc is None or self.published.get(uri) == (doc.version, got[1]):
            return
        if not got[0] and uri not in self.published:
            return  # nothing to say about a file that never had findings
        self.published[uri] = (doc.version, got[1])
        self.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=got[0]))

    async def _publish_skill(self, uri: str) -> None:
        res = await self.result_for(uri, bundled=True)
        if res is not None:
            self.publish(res)

    def schedule(self, uri: str, delay_ms: int | None = None) -> None:
        """Debounced analysis + publish (push clients). The newest version always wins."""
        if self.use_pull:
            return
        if self.is_ours(uri):
            work = self._publish_skill
        elif self._side_name(uri):  # not ours: a task suite, an eval file, ...
            work = self._publish_side
        else:
            return
        if (t := self.pending.pop(uri, None)) is not None:
            t.cancel()
        delay = (self.settings.debounce_ms if delay_ms is None else delay_ms) / 1000

        async def later() -> None:
            try:
                if delay > 0:
                    await asyncio.sleep(delay)
                await work(uri)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - logged; the next edit tries again
                log.exception("analysis of %s failed", uri)
            finally:
                if self.pending.get(uri) is task:
                    self.pending.pop(uri, None)

        task = asyncio.get_running_loop().create_task(later())
        self.pending[uri] = task

    def publish(self, res: Result) -> None:
        doc = self.docs.get(res.uri)
        if doc is None or res.key != self.key_of(doc):
            return  # stale: never published
        from .judge_view import with_judge_diagnostics

        diagnostics, result_id = with_judge_diagnostics(self, res)
        if self.published.get(res.uri) == (res.version, result_id):
            return
        self.published[res.uri] = (res.version, result_id)
        self.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=res.uri, version=res.version, diagnostics=diagnostics))

    def clear(self, uri: str) -> None:
        if (t := self.pending.pop(uri, None)) is not None:
            t.cancel()
        self.results.pop(uri, None)
        self.side_results.pop(uri, None)
        if not self.use_pull and self.published.pop(uri, None) is not None:
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def recheck_others(self, except_uri: str | None = None) -> None:
        for d in self.docs:
            if d.uri != except_uri:
                self.schedule(d.uri, 0)
        self.refresh_clients()

    def invalidate_all(self) -> None:
        """Settings, configuration files or the workspace changed: re-check every open skill."""
        self.generation += 1
        self.disk_results.clear()
        self.recheck_others(None)

    def refresh_clients(self) -> None:
        if self.use_pull and self.supports_refresh:
            self.workspace_diagnostic_refresh(None)
        if self.supports_lens_refresh:
            self.workspace_code_lens_refresh(None)

    # ------------------------------------------------------------------ files on disk

    async def analyse_path(self, path: Path) -> Result | None:
        """A SKILL.md that is not open (workspace diagnostics, commands on closed files)."""
        loop = asyncio.get_running_loop()
        if not self.engine.inside_workspace(path):
            return None
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size, self.generation, self.settings)
        hit = self.disk_results.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        got = await loop.run_in_executor(self.pool, read_for_analysis, path)
        if got is None:
            return None
        text, binary = got
        from .convert import path_to_uri

        snap = Snapshot(path_to_uri(str(path)), None, self.generation, text, path, self.codec, self.settings, binary)
        res = await loop.run_in_executor(self.pool, self.engine.run, snap, self.open_lines())
        res.report.document = None  # closed files: keep the findings and scores, not the parse (memory)
        res.lines = []
        self.disk_results[path] = (key, res)
        return res

    async def build_index(self) -> None:
        loop = asyncio.get_running_loop()
        roots = self.engine.roots
        if not roots:
            return
        import time

        t0 = time.perf_counter()
        open_texts = {}
        for d in self.docs:
            if (p := self.path_of(d)) is not None and p.name == SKILL_FILE:
                open_texts[p] = d.text
        ws, n = await loop.run_in_executor(self.thread_pool, self.engine.index_roots, roots, open_texts)

        def swap() -> None:
            # open buffers may have changed while we scanned: they win over the disk
            for d in self.docs:
                if (p := self.path_of(d)) is not None and p.name == SKILL_FILE:
                    ws.add_text(p, d.text)
            self.engine.workspace = ws

        await loop.run_in_executor(self.pool, swap)
        ms = (time.perf_counter() - t0) * 1000
        self.log_client(f"skillgrade: indexed {n} skills in {ms:.0f} ms")
        self.invalidate_all()


server = SkillServer()
