"""initialize / initialized / configuration / watched files / shutdown."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types as T

from ..convert import uri_to_path
from ..engine import SKILL_FILE
from ..server import SECTION, SkillServer, server

log = logging.getLogger("skillgrade.server")

WATCH_GLOBS = ("**/SKILL.md", "**/references/**", "**/scripts/**", "**/assets/**", "**/.skillgrade.toml",
               "**/pyproject.toml")


@server.feature(T.INITIALIZE)
def on_initialize(ls: SkillServer, params: T.InitializeParams) -> None:
    ls.read_capabilities(params)
    ls.apply_settings(raw_init=params.initialization_options)


@server.feature(T.INITIALIZED)
async def on_initialized(ls: SkillServer, params: T.InitializedParams) -> None:
    caps = ls.client_capabilities
    ws = caps.workspace
    regs = []
    if ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration:
        regs.append(T.Registration(
            id="skillgrade-watch", method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=T.DidChangeWatchedFilesRegistrationOptions(
                watchers=[T.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS])))
    if ws and ws.did_change_configuration and ws.did_change_configuration.dynamic_registration:
        regs.append(T.Registration(id="skillgrade-config", method=T.WORKSPACE_DID_CHANGE_CONFIGURATION,
                                   register_options={"section": SECTION}))
    if regs:
        try:
            await ls.client_register_capability_async(T.RegistrationParams(registrations=regs))
        except Exception as exc:  # noqa: BLE001 - the server works without them
            log.warning("dynamic registration failed: %s", exc)
    await ls.pull_settings()
    asyncio.get_running_loop().run_in_executor(ls.pool, _warm_up)
    await ls.build_index()


def _warm_up() -> None:
    """Import markdown-it and build the parser before the first keystroke needs it."""
    from skillgrade.analyzers import analyze

    analyze("---\nname: warm-up\ndescription: Warms up. Use when starting.\n---\n# W\n\n[x](y.md)\n", None)


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def on_did_change_configuration(ls: SkillServer, params: T.DidChangeConfigurationParams) -> None:
    settings = params.settings
    ours = isinstance(settings, dict) and (
        SECTION in settings or any(k in settings for k in ("debounceMs", "select", "ignore", "severity")))
    if ours:  # VS Code: {skillgrade: {...}}; some clients send the section itself
        if ls.apply_settings(raw_client=settings):
            ls.invalidate_all()
        return
    await ls.pull_settings()  # no settings in the notification: ask for them


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def on_watched_files(ls: SkillServer, params: T.DidChangeWatchedFilesParams) -> None:
    loop = asyncio.get_running_loop()
    paths = []
    for ch in params.changes:
        p = uri_to_path(ch.uri)
        if p is not None and ls.engine.inside_workspace(Path(p)):
            paths.append(Path(p))
    if not paths:
        return
    open_paths = {uri_to_path(d.uri) for d in ls.docs}

    def apply() -> bool:
        changed = False
        for p in paths:
            ls.engine.invalidate(p)
            if p.name in (".skillgrade.toml", "pyproject.toml"):
                changed = True
            if p.name == SKILL_FILE and str(p) not in open_paths:
                changed |= ls.engine.update_index(p, None)
        return changed

    await loop.run_in_executor(ls.pool, apply)
    log.debug("watched files changed: %s", [str(p) for p in paths])
    ls.invalidate_all()


@server.feature(T.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def on_folders(ls: SkillServer, params: T.DidChangeWorkspaceFoldersParams) -> None:
    roots = set(ls.engine.roots)
    for f in params.event.removed:
        if (p := uri_to_path(f.uri)) is not None:
            roots.discard(Path(p))
    for f in params.event.added:
        if (p := uri_to_path(f.uri)) is not None:
            roots.add(Path(p))
    ls.engine.roots = tuple(sorted(roots))
    await ls.build_index()


@server.feature(T.SHUTDOWN)
def on_shutdown(ls: SkillServer, *args) -> None:
    for t in list(ls.pending.values()):
        t.cancel()
    for ev in list(ls.cancel_events.values()):
        ev.set()
