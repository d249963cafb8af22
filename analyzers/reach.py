"""Which bundled files an agent can reach from SKILL.md, deterministically and only as far as asked.

Reach starts at SKILL.md and follows, through every reached bundled text file:

- paths written anywhere in the text (links, prose, inline code, code blocks, string literals), resolved
  from the file's own folder and from the skill root, and up to case when nothing has the exact spelling
  (`read FORMS.md` reaches forms.md); `{baseDir}/…`, `${CLAUDE_PLUGIN_ROOT}/…`,
  `$SKILL_DIR/…`, `~/…` and absolute or plugin-root-relative paths count when their static tail ends
  in a bundled path (`plugins/x/skills/y/scripts/a.py` reaches `scripts/a.py`), and a path shorter
  than a bundled one reaches it when it is that path's tail (`validators/x.py`, or a bare `fields.json`);
- the skill's own config file at its root (`customize.toml`, `config.yaml`, `*.json`) when a reached file
  reads one of its top-level keys through a placeholder (`{workflow.review_layers}`: a renderer fills it
  in), and then every path that file names;
- a folder (`references/`, `scripts/validators`, a path cut short by a placeholder such as
  `schemas/{name}.json` or `templates/*.html`): every file under it;
- dotted module names (`python -m scripts.tool`, `importlib.import_module("pkg.mod")`) and Python
  imports (`import x`, `from pkg import y`, `from .mod import z`), resolved from the script's folder,
  its package and the skill root; importing a package reaches the whole package folder;
- an executable under `scripts/` or `bin/` run by its bare name (`herder-fork --below`) or from a `bin/` folder
  (`~/bin/run-scheduled-task` for `scripts/run-scheduled-task.sh`), as the skill runs it once installed; a script's
  compound stem named anywhere in a reached markdown file, `-` and `_` alike (`hybris exec parse-java-class` for
  `scripts/parse_java_class.py`), unless it is the skill's own name;
- a script directly under `scripts/` whose stem is a whole code span on a line about scripts (`` `script_name`:
  `whoami` `` for `scripts/whoami.py`: a runtime such as `run_skill_script` runs it by stem);
- in a reached YAML or JSON manifest, the scripts its entries declare by name (`tools.yaml`'s `- name:
  export_fbx` reaches `scripts/export_fbx.py`: the runtime maps each tool to the script of that stem), and the
  manifest itself when the frontmatter names it, also inside a YAML flow mapping (`dcc-mcp: {…, tools: tools.yaml}`);
- in scripts, quoted bare names of bundled files or folders (`Path(__file__).parent / "schemas"`,
  `open('fields.json')`), JS `require('./z')` / `import … from './z'` (extensions completed) and shell
  `source lib.sh` / `. ./lib.sh`.

Where it cannot be sure it prefers "reached": dynamic paths reach the folder they start in, and when
the bundle is too big to follow (`complete` is False) rules should say nothing. The result never
depends on set or hash order: the worklist is processed in a fixed order and every reached text file is
read exactly once. Files are read lazily: `Reach.unreached(targets)` stops as soon as every target is
reached.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

from . import rx
from .bundle import MARKDOWN_SUFFIXES, is_text_name, read_bundled, suffix
from .document import SkillDocument
from .lazy_re import lazy_compile
from .measures import COMPLETIONS

MAX_READ = 400  # reached text files read per skill; past that, reachability is uncertain
# a tool a manifest declares: `- name: export_fbx` (YAML) or `"name": "export_fbx"` (JSON); one line each, linear
_TOOL_NAME = lazy_compile(r"^[ \t]*(?:-[ \t]+)?name:[ \t]*[\"']?([\w-]{1,80})[\"']?[ \t]*$"
                        r'|"name"[ \t]*:[ \t]*"([\w-]{1,80})"', re.M)
_MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
MANIFEST_CHARS = 200_000  # characters of a reached manifest looked at for declared tools

# a path-like token: one character class, so the scan is linear on any input
_TOKEN = rx.compile(r"[\w.$~%{}<>/-]+")
# a token with a `/` or `.` (what _TOKEN finds, bare words left out), tried only at a token's start: the
# atomic group reads the token up to its first `/` or `.` once, so a long bare word costs linear time
# `-m` at the text's start or after a space or tab, then spaces or tabs: a module name follows (`python -m tool`)
_DASH_M = rx.compile(r"(?:^|(?<=[ \t]))-m[ \t]+")
_PATH_TOKEN = rx.compile(r"(?<![\w.$~%{}<>/-])(?>[\w$~%{}<>-]*)[./][\w.$~%{}<>/-]*")
_ANGLE_LINK = lazy_compile(r"\]\(<([^<>\n]+)>")  # [x](<path with spaces.md>)
_PERCENT = rx.compile(r"%[0-9A-Fa-f]{2}")
_DYNAMIC = frozenset("${}%~<>")  # `{lang}`, `<lang>`, `$VAR`, `%s`, `~`: a segment filled in at run time
_PROSE_SUFFIXES = MARKDOWN_SUFFIXES | {".txt", ".rst"}
_QUOTES = frozenset("\"'`")
# `{workflow.review_layers}`: a value a renderer fills in from the skill's own config file
_CONFIG_REF = rx.compile(r"\{([A-Za-z_][\w-]{0,63})\.[\w.-]{1,80}\}")
_CONFIG_SUFFIXES = frozenset({".toml", ".yaml", ".yml", ".json"})
_TOP_KEY = lazy_compile(r"^(?:\[\[?[ \t]*\"?([\w-]+)|([\w-]+)[ \t]*[=:]|[ \t]{0,4}\"([\w-]+)\"[ \t]*:)", re.M)


RUNNER_CONFIG_CHARS = 200_000  # a runner config larger than this is not read
# a key that holds a command the host runs: `"command": "node …"`, `command = "python …"`, `args:`
_COMMAND_KEY = lazy_compile(r"""["']?\b(?:command|commands|cmd|args|exec|run)["']?[ \t]*[:=]""")


def _runner_config(rel: str) -> bool:
    """A config whose commands the host runs: `hooks/hooks.json` (Claude Code hooks), `.mcp.json`, a plugin
    manifest, or a JSON / TOML / YAML file at the skill's root (`component.toml` with a cron command); read
    when it has a `command` / `cmd` / `args` / `run` key (a skill's `customize.toml` of prompts has none)."""
    if rel.startswith("hooks/") and rel.count("/") == 1 and rel.endswith(".json"):
        return True
    if rel in (".claude-plugin/plugin.json", ".codex-plugin/plugin.json"):
        return True
    return "/" not in rel and rel != "package-lock.json" and rel.endswith((".json", ".toml", ".yaml", ".yml"))


@dataclass(slots=True)
class _Index:
    """The bundle's files and folders, and every path by each of its segment tails."""

    files: frozenset[str]
    dirs: frozenset[str]
    by_tail: dict[str, tuple[str, ...]]
    under: dict[str, tuple[str, ...]]  # folder -> files under it (sorted)
    depth: int  # the most segments a bundled path has
    pieces: frozenset[str]  # every name between `/` and `.` in a bundled path (case-folded): a token without one names nothing
    folded: dict[str, tuple[str, ...]]  # case-folded path or tail -> bundled paths (`FORMS.md` for forms.md)


def _index(doc: SkillDocument) -> _Index:
    files = doc.files.files
    dirs = doc.files._dirs
    tails: dict[str, list[str]] = {}
    under: dict[str, list[str]] = {}
    for path in sorted(set(files) | set(dirs)):
        parts = path.split("/")
        for i in range(len(parts)):
            tails.setdefault("/".join(parts[i:]), []).append(path)
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            under.setdefault("/".join(parts[:i]), []).append(f)
    depth = max((f.count("/") + 1 for f in files), default=1)
    pieces = frozenset(p.casefold() for f in files for p in f.replace(".", "/").split("/") if p)
    folded: dict[str, list[str]] = {}
    for tail, paths in tails.items():
        folded.setdefault(tail.casefold(), []).extend(paths)
    return _Index(frozenset(files), frozenset(dirs), {k: tuple(v) for k, v in tails.items()},
                  {k: tuple(v) for k, v in under.items()}, depth, pieces,
                  {k: tuple(sorted(set(v))) for k, v in folded.items()})


MAX_STEMS = 200  # reference files looked for by their stem
MIN_STEM = 8  # characters: `bulk-reader-brief`, `callback_signatures`, not `api`


def _reference_stems(files: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(stem, path) of markdown files under references/ (or reference/, docs/) whose stem is distinctive: a
    compound word of MIN_STEM characters or more (`llm-agent-nodes`). A CLI that serves references by name
    (`{cli} doc window/bulk-reader-brief`, `load_skill_resource("x", "<resource>.md")` beside a table of
    stems) names them without folder or extension."""
    out = []
    for f in sorted(files):
        if not f.startswith(("references/", "reference/", "docs/")) or not f.endswith(".md"):
            continue
        stem = f.rsplit("/", 1)[-1][:-3]
        if len(stem) >= MIN_STEM and ("-" in stem or "_" in stem):
            out.append((stem, f))
            if len(out) >= MAX_STEMS:
                break
    return tuple(out)


MIN_COMMAND = 4  # characters of an extension-less script's name looked for as a command (`herder-fork`, not `run`)


_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".ts", ".rb", ".pl")


def _command_scripts(files: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(name, path) of executables under scripts/ or bin/ a skill may run as installed commands: an extension-less
    file by its name (`scripts/herder-fork`), a script by its stem when that is a compound word of MIN_STEM
    characters or more (`scripts/run-scheduled-task.sh` installed as `~/bin/run-scheduled-task`)."""
    out = []
    for f in sorted(files):
        if not f.startswith(("scripts/", "bin/")):
            continue
        name = f.rsplit("/", 1)[-1]
        if "." not in name and len(name) >= MIN_COMMAND:
            out.append((name, f))
        elif name.endswith(_SCRIPT_SUFFIXES) and len(stem := name.rsplit(".", 1)[0]) >= MIN_STEM and (
                "-" in stem or "_" in stem):
            out.append((stem, f))
        if len(out) >= MAX_STEMS:
            break
    return tuple(out)


MIN_SCRIPT_NAME = 4  # characters of a script's stem looked for as a code span on a line about scripts
MAX_SPAN_LINE = 2_000  # characters of a line looked at around such a code span


def _runtime_scripts(files: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(stem, path) of scripts directly under scripts/ a skill runtime may run by stem (`run_skill_script` with
    `script_name`: `whoami` for scripts/whoami.py): stems of MIN_SCRIPT_NAME characters or more."""
    out = []
    for f in sorted(files):
        if f.count("/") != 1 or not f.startswith("scripts/") or not f.endswith(_SCRIPT_SUFFIXES):
            continue
        stem = f[len("scripts/"):].rsplit(".", 1)[0]
        if len(stem) >= MIN_SCRIPT_NAME:
            out.append((stem, f))
            if len(out) >= MAX_STEMS:
                break
    return tuple(out)


def _script_name_span(text: str, stem: str) -> bool:
    """`stem` is a whole code span (`` `whoami` ``) on a line that speaks of a script (`- `script_name`: `whoami``):
    the runtime is told to run the script of that name. A span on a line about something else (`the `whoami`
    endpoint`) does not count."""
    span = f"`{stem}`"
    i = text.find(span)
    tries = 0
    while i >= 0 and tries < 50:
        lo = max(0, i - MAX_SPAN_LINE)
        start = text.rfind("\n", lo, i) + 1 or lo
        end = text.find("\n", i, i + MAX_SPAN_LINE)
        end = min(len(text), i + MAX_SPAN_LINE) if end < 0 else end
        if "script" in text[start:end].lower():
            return True
        i = text.find(span, i + 1)
        tries += 1
    return False


_COMMAND_BEFORE = ("$", "`", "&&", "||", ";", "|", "(", "exec", "sudo")


def _runs_as_command(text: str, name: str) -> bool:
    """`name` is run as a command somewhere in `text`: first on its line (`herder-fork --below`), or after a
    prompt, a backtick, `&&`, `;`, `|`, or from a `bin/` folder anywhere (`~/bin/run-scheduled-task`) — not in
    `name: herder-fork` or a `# herder-fork` title."""
    i = text.find(name)
    tries = 0
    while i >= 0 and tries < 50:
        end = i + len(name)
        after = text[end] if end < len(text) else " "
        before = text[i - 1] if i else " "
        if not (after.isalnum() or after in "_-./") and text.endswith("bin/", 0, i):
            return True  # `~/bin/run-scheduled-task`, `$HOME/bin/x`, `/usr/local/bin/x`: the installed command
        if not (after.isalnum() or after in "_-./") and not (before.isalnum() or before in "_-./"):
            start = text.rfind("\n", 0, i) + 1
            prefix = text[start:i].strip()
            if not prefix or prefix.endswith(_COMMAND_BEFORE):
                return True
        i = text.find(name, i + 1)
        tries += 1
    return False


def _names_stem(text: str, stem: str, *, values: bool = True) -> bool:
    """`stem` occurs in `text` as a whole name: not inside a longer word or path segment name; with `values` False,
    not as a string assigned in code either (`output_dir="cytotrace2_smoke"` names a folder, not the script)."""
    i = text.find(stem)
    tries = 0
    while i >= 0 and tries < 50:
        before = text[i - 1] if i else " "
        after = text[i + len(stem)] if i + len(stem) < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-") and (
                values or not (before in "\"'" and text[max(0, i - 3):i - 1].rstrip().endswith(("=", ":")))):
            return True
        i = text.find(stem, i + 1)
        tries += 1
    return False


@dataclass(slots=True)
class Reach:
    """Reachability state for one document; grows lazily (see `unreached`)."""

    doc: SkillDocument
    idx: _Index
    files: set[str] = field(default_factory=set)  # reached files
    dirs: set[str] = field(default_factory=set)  # reached folders (every file under them is reached)
    queue: deque[str] = field(default_factory=deque)  # reached files not read yet ("" is SKILL.md)
    read: int = 0
    complete: bool = True  # False: the read budget ran out before the worklist did
    spaced: tuple[str, ...] = ()  # bundled paths with a space (tokens cannot hold them)
    stems: tuple[tuple[str, str], ...] | None = None  # (stem, path) of references named by a distinctive stem
    commands: tuple[tuple[str, str], ...] | None = None  # (name or stem, path) of scripts that may run by name
    runtime_scripts: tuple[tuple[str, str], ...] | None = None  # (stem, path) of scripts a runtime runs by stem
    via: dict[str, str] = field(default_factory=dict)  # reached path -> the file that reached it ("" SKILL.md)
    memo: dict[tuple[str, str, bool], tuple[str, ...]] = field(default_factory=dict)  # (token, folder, quoted)
    _current: str = ""
    _config_keys: dict[str, tuple[str, ...]] | None = None  # top-level key -> root config files defining it

    def is_reached(self, rel: str) -> bool:
        if rel in self.files:
            return True
        i = rel.rfind("/")
        while i > 0:
            if rel[:i] in self.dirs:
                return True
            i = rel.rfind("/", 0, i)
        return False

    # -------------------------------------------------------------- growth

    def _reach_file(self, rel: str) -> None:
        if rel in self.files:
            return
        self.files.add(rel)
        self.via.setdefault(rel, self._current)
        if is_text_name(rel) or rel in self.doc.bundle_overrides:
            self.queue.append(rel)

    def _reach_dir(self, rel: str) -> None:
        if rel in self.dirs or rel == "":
            return
        self.dirs.add(rel)
        self.via.setdefault(rel + "/", self._current)
        for f in self.idx.under.get(rel, ()):
            self._reach_file(f)

    def _reach(self, paths: Iterable[str]) -> None:
        for p in sorted(set(paths)):
            if p in self.idx.dirs:
                self._reach_dir(p)
            else:
                self._reach_file(p)

    def _step(self) -> bool:
        """Read the next queued file and reach what it names; False when the worklist is empty."""
        if not self.queue:
            return False
        if self.read >= MAX_READ:
            self.complete = False
            self.queue.clear()
            return False
        rel = self.queue.popleft()
        self.read += 1
        self._current = rel
        if rel == "":
            self._reach(self._scan(self.doc.text, "", prose=True) | self._config_refs(self.doc.text))
            if "package.json" in self.idx.files:
                self._reach(self._scan(self._npm_commands("package.json"), "", prose=False))
            for rel in sorted(f for f in self.idx.files if _runner_config(f)):
                bf = read_bundled(self.doc, rel)  # hooks, MCP servers, schedules: the host runs what they name
                if bf is not None and len(bf.text) <= RUNNER_CONFIG_CHARS and _COMMAND_KEY.search(bf.text):
                    self._reach(self._scan(bf.text, "", prose=False))
            return True
        bf = read_bundled(self.doc, rel)
        if bf is None:
            return True
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        if rel == "package.json" or rel.endswith("/package.json"):  # read by a script for its version
            self._reach(self._scan(self._npm_commands(rel), folder, prose=False))
            return True
        sfx = suffix(rel)
        found = self._scan(bf.text, folder, prose=sfx in _PROSE_SUFFIXES)
        if sfx in _MANIFEST_SUFFIXES and "name" in bf.text:
            found |= self._declared_tools(bf.text)
        if sfx in (".py", ".pyw"):
            found |= self._python_imports(bf.text, folder)
        found |= self._config_refs(bf.text)
        self._reach(found)
        return True

    def run(self) -> Reach:
        while self._step():
            pass
        return self

    def unreached(self, targets: Iterable[str]) -> list[str]:
        """The targets SKILL.md does not reach (sorted); reads only as many files as it takes to decide."""
        pending = sorted(t for t in targets if not self.is_reached(t))
        while pending and self._step():
            pending = [t for t in pending if not self.is_reached(t)]
        return pending

    # -------------------------------------------------------------- scanning one text

    def _scan(self, text: str, folder: str, *, prose: bool) -> set[str]:
        out: set[str] = set()
        # where a word after `python -m` starts (a module it runs)
        after_m = {m.end() for m in _DASH_M.finditer(text)} if "-m" in text else set()
        if prose:  # bare words count only after `-m` here: elsewhere only paths are read
            for s in after_m:
                m = _TOKEN.match(text, s)
                if m is not None and "/" not in m.group() and "." not in m.group():
                    out.update(self._module(m.group()))
        for m in (_PATH_TOKEN if prose else _TOKEN).finditer(text):
            tok = m.group()
            if "/" not in tok and "." not in tok:
                # a bare word counts only as a quoted name in code ("schemas") or after `python -m`
                s = m.start()
                if _is_quoted(text, s, m.end()):
                    out.update(self._lookup([tok], folder, anchored=True, dir_only=False))
                elif s in after_m:
                    out.update(self._module(tok))
                continue
            quoted = not prose and _is_quoted(text, m.start(), m.end())
            key = (tok, folder, quoted)
            hit = self.memo.get(key)
            if hit is None:
                found: set[str] = set()
                pieces = tok.replace(".", "/").split("/")
                if any(p.casefold() in self.idx.pieces for p in pieces) or "%" in tok:
                    self._token(tok, folder, found, quoted=quoted)
                hit = self.memo[key] = tuple(found)
            out.update(hit)
        if prose and "](<" in text:
            for m in _ANGLE_LINK.finditer(text):
                self._token(m.group(1), folder, out, quoted=True)
        for p in self.spaced:
            if p.rsplit("/", 1)[-1] in text:
                out.add(p)
        if prose:
            if self.stems is None:
                self.stems = _reference_stems(self.idx.files)
            for stem, p in self.stems:
                if stem in text and _names_stem(text, stem):
                    out.add(p)
            if self.commands is None:
                self.commands = _command_scripts(self.idx.files)
            for name, p in self.commands:
                if name in text and _runs_as_command(text, name):
                    out.add(p)
                elif name != p.rsplit("/", 1)[-1] and name.lower() not in self._own_names():
                    # a script's compound stem named anywhere, `-` and `_` alike: "`test-healer` is disabled for
                    # now", `hybris exec parse-java-class` for scripts/parse_java_class.py (not the skill's own name)
                    for variant in dict.fromkeys((name, name.replace("_", "-"), name.replace("-", "_"))):
                        if variant in text and _names_stem(text, variant, values=False):
                            out.add(p)
                            break
            if "`" in text and "script" in text.lower():
                if self.runtime_scripts is None:
                    self.runtime_scripts = _runtime_scripts(self.idx.files)
                for stem, p in self.runtime_scripts:
                    if p not in out and f"`{stem}`" in text and _script_name_span(text, stem):
                        out.add(p)
        return out

    def _declared_tools(self, text: str) -> set[str]:
        """The scripts a reached tool manifest declares by name (`tools.yaml`: `- name: export_fbx` for
        `scripts/export_fbx.py`): the runtime maps each declared tool to the script of that stem."""
        names = {a or b for a, b in _TOOL_NAME.findall(text[:MANIFEST_CHARS])}
        if not names:
            return set()
        return {p for p in self.idx.files if p.startswith("scripts/") and "/" not in p[8:]
                and p[8:].rsplit(".", 1)[0] in names}

    def _own_names(self) -> tuple[str, ...]:
        """The skill's name and folder, lowercased: a script named like the skill must be run to count."""
        data = self.doc.frontmatter.data if self.doc.frontmatter.ok else None
        name = data.get("name") if isinstance(data, dict) else None
        folder = self.doc.skill_dir.name if self.doc.skill_dir is not None else ""
        return tuple(x.lower() for x in (name, folder) if isinstance(x, str) and x)

    def _config_refs(self, text: str) -> set[str]:
        """The skill's own config files (`customize.toml`, `config.yaml` at its root) that define the key a
        `{workflow.review_layers}` placeholder in the text reads: the renderer fills it in from that file."""
        if "{" not in text or "." not in text:
            return set()
        out: set[str] = set()
        for m in _CONFIG_REF.finditer(text):
            if self._config_keys is None:
                self._config_keys = self._read_config_keys()
            out.update(self._config_keys.get(m.group(1), ()))
        return out

    def _read_config_keys(self) -> dict[str, tuple[str, ...]]:
        keys: dict[str, list[str]] = {}
        for f in sorted(self.idx.files):
            if "/" in f or suffix(f) not in _CONFIG_SUFFIXES:
                continue
            bf = read_bundled(self.doc, f)
            if bf is None:
                continue
            for m in _TOP_KEY.finditer(bf.text):
                name = m.group(1) or m.group(2) or m.group(3)
                if f not in keys.setdefault(name, []):
                    keys[name].append(f)
        return {k: tuple(v) for k, v in keys.items()}

    def _token(self, tok: str, folder: str, out: set[str], *, quoted: bool) -> None:
        if "%" in tok and _PERCENT.search(tok):
            tok = unquote(tok)
        tok = tok.rstrip(".")  # a full stop after the path
        while tok.endswith("}") and tok.count("}") > tok.count("{"):
            tok = tok[:-1].rstrip(".")  # a YAML flow mapping's closing brace: `{…, tools: tools.yaml}`
        if len(tok) > 2 and tok[0] == "_" == tok[-1] and "/" in tok:
            tok = tok[1:-1]  # _emphasis_
        if len(tok) > 2 and tok[0] == "<" and tok[-1] == ">" and tok.count("<") == 1 == tok.count(">"):
            tok = tok[1:-1]  # `<references/billing.md>`: a path in angle brackets (not `references/<topic>.md`)
        if not tok:
            return
        slash = "/" in tok
        if not slash:
            if _is_module(tok):
                out.update(self._module(tok))
            if not _has_ext(tok) and not quoted:
                return
        segs = tok.split("/")
        anchored = segs[0] not in ("", "~") and not (set(segs[0]) & _DYNAMIC)
        run: list[str] = []
        for i, seg in enumerate(segs):
            dynamic = not seg or bool(set(seg) & _DYNAMIC) or (seg.strip(".") == "" and len(seg) > 2)
            if dynamic:
                if run:
                    # a static run cut short by a placeholder or `//`: the folder it names; a trailing
                    # `/` (`references/`) names a folder or a file
                    trailing = not seg and i == len(segs) - 1
                    out.update(self._lookup(run, folder, anchored=anchored, dir_only=not trailing))
                run = []
                anchored = False
                continue
            run.append(seg)
        if run:
            out.update(self._lookup(run, folder, anchored=anchored, dir_only=False))

    def _lookup(self, run: list[str], folder: str, *, anchored: bool, dir_only: bool) -> list[str]:
        """Bundled paths a run of static segments names (see the module docstring); when none has that exact
        spelling, the paths it names up to case (`read FORMS.md` reaches forms.md: it works on the author's
        disk, and LINK_CASE_MISMATCH is where the spelling is reported)."""
        out = self._lookup_exact(run, folder, anchored=anchored, dir_only=dir_only)
        if out or all(seg in (".", "..") for seg in run):
            return out
        rel = posixpath.normpath("/".join(run))
        while rel.startswith("../"):
            rel = rel[3:]
        cands = [rel]
        if not dir_only and "." not in run[-1]:
            cands += [rel + ext for ext in COMPLETIONS]
        for c in cands:
            out.extend(self.idx.folded.get(c.casefold(), ()))  # the run is, up to case, a bundled path's tail
        if dir_only:
            out = [p for p in out if p in self.idx.dirs]
        return out

    def _lookup_exact(self, run: list[str], folder: str, *, anchored: bool, dir_only: bool) -> list[str]:
        idx = self.idx
        out: list[str] = []
        if all(seg in (".", "..") for seg in run):
            return out  # `./`, `../`: the current or parent folder is not a mention
        rel = "/".join(run)
        cands = [rel]
        if not dir_only and "." not in run[-1]:
            cands += [rel + ext for ext in COMPLETIONS]
        for c in cands:
            if anchored:
                for base in (folder, ""):
                    p = posixpath.normpath(posixpath.join(base, c)) if base else posixpath.normpath(c)
                    if p in idx.files or p in idx.dirs:
                        out.append(p)
            tail = posixpath.normpath(c)
            while tail.startswith("../"):
                tail = tail[3:]
            if tail in (".", "..", ""):
                continue
            out.extend(idx.by_tail.get(tail, ()))  # the run is the tail of a bundled path
            if "/" in tail:  # a bundled path is the tail of the run (plugin-root or absolute paths)
                tsegs = tail.split("/")
                for j in range(max(1, len(tsegs) - idx.depth), len(tsegs)):
                    rest = "/".join(tsegs[j:])
                    if rest in idx.files or rest in idx.dirs:
                        out.append(rest)
        if dir_only:
            out = [p for p in out if p in idx.dirs]
        return out

    def _module(self, dotted: str) -> list[str]:
        """`scripts.tool` -> scripts/tool.py, scripts/tool/ (a package folder), wherever it is bundled."""
        path = dotted.replace(".", "/")
        out = list(self.idx.by_tail.get(path + ".py", ()))
        out += [d for d in self.idx.by_tail.get(path, ()) if d in self.idx.dirs]
        return out

    def _npm_commands(self, rel: str) -> str:
        """The commands and entry points of the skill's own package.json (`"postinstall": "node
        scripts/postinstall.js"`, `bin`, `main`): npm runs them, so the files they name are used. Not its
        `files` list, which says what is published, not what runs."""
        bf = read_bundled(self.doc, rel)
        if bf is None or len(bf.text) > 200_000:
            return ""
        try:
            data = json.loads(bf.text)
        except (ValueError, RecursionError):
            return ""
        if not isinstance(data, dict):
            return ""
        out: list[str] = []
        for key in ("scripts", "bin"):
            v = data.get(key)
            if isinstance(v, dict):
                out.extend(x for x in v.values() if isinstance(x, str))
            elif isinstance(v, str):
                out.append(v)
        if isinstance(data.get("main"), str):
            out.append(data["main"])
        return "\n".join(out)

    def _python_imports(self, text: str, folder: str) -> set[str]:
        out: set[str] = set()
        for level, module, names in python_imports(text):
            out.update(self._resolve_import(level, module, names, folder))
        return out

    def _resolve_import(self, level: int, module: str, names: list[str], folder: str) -> list[str]:
        idx = self.idx
        mod = module.replace(".", "/")
        if level:
            base = folder
            for _ in range(level - 1):
                base = base.rsplit("/", 1)[0] if "/" in base else ""
            bases = [base]
        else:
            bases = [folder]
            b = folder
            while b:
                b = b.rsplit("/", 1)[0] if "/" in b else ""
                bases.append(b)
        wanted = [mod] if mod else []
        wanted += [f"{mod}/{n}" if mod else n for n in names]
        out: list[str] = []
        for base in bases:
            for w in wanted:
                p = posixpath.join(base, w) if base else w
                if p + ".py" in idx.files:
                    out.append(p + ".py")
                elif p in idx.dirs:
                    out.append(p)  # a package: its whole folder
            if out:
                return out
        if not level:  # sys.path set up at run time: any bundled module with that dotted path
            for w in wanted:
                out.extend(idx.by_tail.get(w + ".py", ()))
                out.extend(d for d in idx.by_tail.get(w, ()) if d in idx.dirs)
        return out


def _has_ext(tok: str) -> bool:
    i = tok.rfind(".")
    return 0 < i < len(tok) - 1


def _is_module(tok: str) -> bool:
    parts = tok.split(".")
    return len(parts) > 1 and all(p.isidentifier() for p in parts)


def _is_quoted(text: str, s: int, e: int) -> bool:
    return s > 0 and e < len(text) and text[s - 1] in _QUOTES and text[e] == text[s - 1]


def python_imports(text: str) -> list[tuple[int, str, list[str]]]:
    """(relative level, module, imported names) of every import statement, read line by line."""
    out: list[tuple[int, str, list[str]]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith("import "):
            for part in line[7:].split("#", 1)[0].split(","):
                name = part.strip().split(" ", 1)[0]
                if name:
                    out.append((0, name.strip("."), []))
        elif line.startswith("from ") and " import" in line:
            head, _, rest = line[5:].partition(" import")
            head = head.strip()
            level = len(head) - len(head.lstrip("."))
            rest = rest.split("#", 1)[0]
            if "(" in rest and ")" not in rest:
                k = 0
                while i < len(lines) and k < 200:
                    nxt = lines[i].split("#", 1)[0]
                    i += 1
                    k += 1
                    rest += " " + nxt
                    if ")" in nxt:
                        break
            names = [p.strip().split(" ", 1)[0] for p in rest.replace("(", " ").replace(")", " ").split(",")]
            out.append((level, head.lstrip("."), [n for n in names if n.isidentifier()]))
    return out


def reach(doc: SkillDocument) -> Reach:
    """The document's reach state (created once; grows as rules ask)."""
    r = doc._reach
    if r is None:
        idx = _index(doc)
        r = doc._reach = Reach(doc, idx, spaced=tuple(f for f in sorted(idx.files) if " " in f))
        r.queue.append("")
        for entry in _console_entries(doc, idx.files):
            r._reach_file(entry)  # (via SKILL.md: it runs the command)
        for nested in _plugin_skills(idx.files):
            r._reach_file(nested)  # (the host loads them as it loads this one: what they run is reached)
    return r


def _plugin_skills(files: frozenset[str]) -> list[str]:
    """The skills of a plugin whose root is this skill's folder: `skills/<name>/SKILL.md` beside the root's own
    SKILL.md (a plugin that keeps a legacy root skill). The host loads each of them, and each runs the scripts
    it names (`${CLAUDE_PLUGIN_ROOT}/scripts/tts.py`): those are not dead weight of the plugin."""
    return sorted(f for f in files if f.startswith("skills/") and f.endswith("/SKILL.md") and f.count("/") == 2)


_ENTRY_MODULES = ("cli.py", "__main__.py", "main.py")


def _console_entries(doc: SkillDocument, files: frozenset[str]) -> list[str]:
    """The entry module of the skill's own command: when the skill's `scripts/` is an importable Python package
    (`__init__.py`) holding `cli.py`, `__main__.py` or `main.py`, and SKILL.md runs a command
    named like the skill (`uvx schliff score`, `pipx run schliff …`, a line `schliff score …`), the package's
    console script runs that module (the wheel's entry point, which the skill folder does not hold)."""
    if "scripts/__init__.py" not in files:
        return []  # (most skills: no package under scripts/, nothing more to look at)
    names = set()
    fm_name = doc.frontmatter.data.get("name") if doc.frontmatter.ok else None
    if isinstance(fm_name, str) and 2 < len(fm_name) <= 64:
        names.add(fm_name.lower())
    if doc.skill_dir is not None:
        names.add(doc.skill_dir.name.lower())
    entries = ["scripts/" + m for m in _ENTRY_MODULES if "scripts/" + m in files]
    if entries and any(_runs_command(doc.text, n) for n in names if n):
        return entries
    return []


def _runs_command(text: str, name: str) -> bool:
    """`name` is run as a command in `text`: after `uvx ` / `pipx run ` / `$ `, or at a line's start, followed by
    a space and an argument."""
    low = text.lower()
    i = low.find(name)
    tries = 0
    while i >= 0 and tries < 200:
        after = low[i + len(name):i + len(name) + 2]
        if len(after) == 2 and after[0] == " " and (after[1].isalnum() or after[1] == "-"):
            before = low[max(0, i - 9):i]
            if before.endswith(("uvx ", "pipx run ", "$ ", "\n", "`")) or i == 0:
                return True
        i = low.find(name, i + 1)
        tries += 1
    return False


def reached_paths(doc: SkillDocument) -> set[str]:
    """Every bundled file SKILL.md reaches (the whole worklist is run)."""
    r = reach(doc).run()
    return {f for f in doc.files.files if r.is_reached(f)}
