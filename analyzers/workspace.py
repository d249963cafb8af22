"""The workspace index: every skill's name and location, for cross-skill rules."""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .findings import Pos, Range

# Folders that never hold skills of the project: version control, dependencies, virtualenvs, caches and
# tool state. Every other folder is walked, hidden ones included: Claude Code keeps project skills in
# `.claude/skills/`, other agents in `.agents/skills/` or `.github/skills/`, and public skill collections
# use `.curated/`, `.system/`, `.experimental/`. One set serves the CLI, the batch runner, the language
# server's workspace index and the listing of a skill's bundled files.
SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", ".jj",  # version control
    "node_modules", "bower_components", ".pnpm-store", ".yarn", ".npm", "site-packages", ".eggs",  # dependencies
    ".venv", "venv", ".tox", ".nox", ".conda",  # virtualenvs
    "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".cache", ".skillgrade_cache",
    ".ipynb_checkpoints", ".next", ".nuxt", ".parcel-cache", ".gradle", ".terraform", ".serverless",  # caches
    "dist", "build", ".idea", ".vscode", ".DS_Store", ".Trash",  # build output, editor state
})
# Inside a skill folder only what is certainly not bundled content is skipped (a skill may well ship a
# `build/` or `dist/` folder its instructions name).
BUNDLE_SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", ".jj", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".skillgrade_cache", ".ipynb_checkpoints",
})
_QUOTES = "'\""
_NOT_IN_NAME = "'\"\r#"  # (and no newline: one line)


def _name_value(head: str) -> tuple[int, int] | None:
    """The span of the first `name:` line's value: what the regex
    `^name:[ \\t]*['"]?([^'"\\r\\n#]*?)['"]?[ \\t]*(?:#.*)?$` (re.M) captured, found in linear time (its lazy
    group and the [ \\t]* after it re-scanned a run of spaces from each of its characters: 25 s on
    `name: x` + 20,000 spaces + `y`). The value may be quoted, trailing blanks and a `# comment` are not
    part of it, and a line that fits none of that is skipped."""
    pos = 0
    while True:
        i = head.find("name:", pos)
        if i < 0:
            return None
        eol = head.find("\n", i)
        if eol < 0:
            eol = len(head)
        pos = eol
        if i and head[i - 1] != "\n":
            continue
        p0 = i + 5
        while p0 < eol and head[p0] in " \t":
            p0 += 1
        starts = (p0 + 1, p0) if p0 < eol and head[p0] in _QUOTES else (p0,)
        for p in starts:
            limit = p
            while limit < eol and head[limit] not in _NOT_IN_NAME:
                limit += 1
            if limit == eol or head[limit] == "#":
                end = limit
                while end > p and head[end - 1] in " \t":
                    end -= 1
                return p, end
            if head[limit] in _QUOTES:
                after = head[limit + 1:eol].lstrip(" \t")
                if not after or after[0] == "#":
                    return p, limit


@dataclass(frozen=True, slots=True)
class SkillEntry:
    path: Path  # the SKILL.md
    name: str
    name_range: Range


@dataclass(slots=True)
class Workspace:
    roots: tuple[Path, ...] = ()
    entries: dict[Path, SkillEntry] = field(default_factory=dict)
    _folders: list[str] | None = field(default=None, repr=False, compare=False)

    def add(self, path: Path, name: str | None, name_range: Range | None = None) -> None:
        self._folders = None
        if name:
            self.entries[path] = SkillEntry(path, name, name_range or Range(Pos(0, 0), Pos(0, 0)))
        else:
            self.entries.pop(path, None)

    def remove(self, path: Path) -> None:
        self._folders = None
        self.entries.pop(path, None)

    def folders_under(self, prefix: str) -> list[str]:
        """The absolute folders (each ending in a separator) of the indexed skills under the absolute `prefix`,
        sorted; the sorted list of all folders is built once per change of the index."""
        folders = self._folders
        if folders is None or len(folders) != len(self.entries):
            folders = self._folders = sorted(os.path.abspath(p.parent) + os.sep for p in self.entries)
        lo = bisect.bisect_left(folders, prefix)
        hi = lo
        while hi < len(folders) and folders[hi].startswith(prefix):
            hi += 1
        return folders[lo:hi]

    def skills_named(self, name: str) -> list[SkillEntry]:
        return sorted((e for e in self.entries.values() if e.name == name), key=lambda e: str(e.path))

    def add_text(self, path: Path, text: str) -> None:
        """Index a SKILL.md from its text without a full parse (the `name:` line of the frontmatter)."""
        name, rng = quick_name(text)
        self.add(path, name, rng)


def quick_name(text: str) -> tuple[str | None, Range | None]:
    name, at = quick_name_at(text)
    if name is None or at is None:
        return None, None
    return name, Range(Pos(at[0], at[1]), Pos(at[0], at[2]))


def quick_name_at(text: str) -> tuple[str | None, tuple[int, int, int] | None]:
    """The frontmatter's `name:` value and its (line, start column, end column), from the text alone."""
    if not text.startswith(("---", "\ufeff---")):
        return None, None
    end = text.find("\n---", 3)
    head = text[: end if end > 0 else min(len(text), 4096)]
    span = _name_value(head)
    value = head[span[0]:span[1]] if span else ""
    if not value.strip():
        return None, None
    line = head.count("\n", 0, span[0])
    line_start = head.rfind("\n", 0, span[0]) + 1
    col = span[0] - line_start
    return value.strip(), (line, col, col + len(value))


TEMPLATE_DIRS = frozenset({"assets", "templates"})  # under a skill folder: templates, not skills


PACKAGE_MODULES = 2  # modules beside `__init__.py` that make a skill folder a Python package's code


def _modules(folder: Path) -> int:
    try:
        with os.scandir(folder) as it:
            return sum(1 for e in it if e.name.endswith(".py") and e.name != "__init__.py" and e.is_file())
    except OSError:
        return 0


def package_data(skill_dir: Path, *, past_agent_folder: bool = False) -> bool:
    """The skill folder is data of a Python package (its parent or grandparent has `__init__.py`, or, with
    `past_agent_folder`, for a skill in an agent's folder such as `<pkg>/assets/.claude/skills/<skill>`, one of
    the two folders above the agent's folder has; or it lies in a wheel's `*.data/data/`, or under an import
    package's underscored data folder within DATA_LEVELS, no agent's dot-folder between: `<pkg>/_bundled/…/skills/
    <skill>`, not `<pkg>/_resources/.claude/skills/<skill>`): the package's installer deploys it as `<skills>/<name>/SKILL.md`, whatever
    the folder and file are called here. So is a skill folder that is itself the package's code (its own
    `__init__.py` beside two or more other modules: `cli.py`, `adapters.py`), whose installer copies the
    SKILL.md out. (An `__init__.py` alone in the skill folder only makes its scripts importable.)"""
    if ".data/data/" in skill_dir.as_posix() + "/":
        return True
    if (skill_dir / "__init__.py").is_file() and _modules(skill_dir) >= PACKAGE_MODULES:
        return True
    d = skill_dir.parent
    # `<pkg>/[assets/].claude/skills/<skill>`: past an agent's folder, the two folders above it too (asked only
    # by DUPLICATE_SKILL_NAME: a package's per-agent copies of one skill; name rules keep their reading)
    deep = past_agent_folder and d.name == "skills" and d.parent.name.startswith(".")
    levels = 4 if deep else 2
    for _ in range(levels):
        if (d / "__init__.py").is_file():
            return True
        if d.parent == d:
            break
        d = d.parent
    d = skill_dir.parent  # `<pkg>/_bundled/agent_scripts/skills/documents/<skill>`: a package's own data folder
    for _ in range(DATA_LEVELS):
        if d.name[:1] == ".":
            break  # `<pkg>/_resources/.claude/skills/<skill>`: an agent's folder, copied into projects as it is
        if underscored_data_folder(d.name) and (d.parent / "__init__.py").is_file():
            return True
        if d.parent == d:
            break
        d = d.parent
    return False


def underscored_data_folder(name: str) -> bool:
    """`_bundled`, `_skills`, `_knowledge`: a package's data folder, its name underscored (not `__pycache__`, `_`)."""
    return name[:1] == "_" and name[1:2] not in ("_", "")


DATA_LEVELS = 5  # folders above a skill looked at for an underscored data folder of an import package (`_bundled/`)


_PLUGIN_CODE = frozenset({"skill.py", "skill.js", "skill.ts", "skill.mjs"})
PROMPT_PEERS = 3  # markdown files in a folder (skill.md included) above which it is a folder of prompts


def _variant_is_skill(folder: str, name: str, entries: list) -> bool:
    """A `skill.md` (a case variant of SKILL.md) counts as a skill's file unless a `skill.py` / `skill.js` sits
    beside it (a runtime's plugin, loaded by that runtime's own code, not by an agent's skill loader) or it
    has no frontmatter in a folder of markdown prompts (`agent.md`, `rule.md`, `skill.md`: a fragment), or it has no
    frontmatter in a website's static folder (`public/skill.md`: the page a site serves at `/skill.md` for agents to
    read, like `llms.txt`)."""
    if any(e.name.lower() in _PLUGIN_CODE for e in entries):
        return False
    if os.path.basename(folder) in WEB_ROOTS:
        return _has_frontmatter(folder, name)
    if sum(1 for e in entries if e.name.lower().endswith(".md")) <= PROMPT_PEERS:
        return True  # `templates/skills/panel/skill.md` (+ skill.json): a skill, frontmatter or not
    return _has_frontmatter(folder, name)


WEB_ROOTS = frozenset({"public", "static", "www", "wwwroot", "htdocs", ".well-known"})  # a site's served files


def _has_frontmatter(folder: str, name: str) -> bool:
    try:
        with open(os.path.join(folder, name), "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"---")


def is_manifest_name(name: str) -> bool:
    """`SKILL.md` or a case variant of it (`skill.md`): the file a skill folder is scored by. A variant
    is found only where the folder has no `SKILL.md`; Claude Code itself loads only the exact name."""
    return name.lower() == "skill.md"


# folders never searched for a hint: version control and dependency stores (huge, and never a skill's home)
_HINT_SKIP = frozenset({".git", ".hg", ".svn", ".bzr", ".jj", "node_modules", "bower_components", ".pnpm-store",
                        "site-packages", ".venv", "venv", "__pycache__"})


def skipped_skill_file(path: Path, budget: int = 20000) -> str | None:
    """When discovery found nothing under `path`: the first SKILL.md inside a folder it skips (`dist/`,
    `build/`, `.cache/`, ...), as a path relative to `path`, so the error can say where to point instead.
    Looks at most `budget` directory entries and never into VCS, dependency or virtualenv folders."""
    top = os.fspath(path)
    stack = [(top, False)]
    while stack and budget > 0:
        d, skipped = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        budget -= len(entries)
        subdirs = []
        for e in entries:
            if skipped and is_manifest_name(e.name) and e.is_file():
                return os.path.relpath(e.path, top)
            if e.name not in _HINT_SKIP and e.is_dir(follow_symlinks=False):
                subdirs.append((e.path, skipped or e.name in SKIP_DIRS))
        stack.extend(reversed(subdirs))
    return None


# skipped folder names that are also good skill names: walked when they hold a SKILL.md themselves
_SKILL_NAMED = frozenset({"build", "dist"})


def find_skill_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every SKILL.md at or under the given paths, skipping VCS, dependency, cache and virtualenv folders.

    A folder without `SKILL.md` but with a case variant (`skill.md`) yields the variant: it is a skill
    to agents that match the name case-insensitively, and SKILL_FILE_NAME says why Claude Code skips it.

    Hidden folders are walked (`.claude/skills/…`), except the tool and cache folders in SKIP_DIRS; a
    `build/` or `dist/` folder that holds a SKILL.md itself is a skill of that name and is walked.
    A skill's own `assets/` and `templates/` folders are not searched: a SKILL.md there is a template
    the skill copies out (given directly as a file, it is still scored).
    Symlinked folders are not followed; the order is a pre-order walk with names sorted.
    """
    seen: set[str] = set()
    for p in paths:
        if p.is_file():
            rp = os.path.realpath(p)
            if rp not in seen:
                seen.add(rp)
                yield p
            continue
        top = os.fspath(p)
        stack = [(top, True)]
        while stack:
            d, is_top = stack.pop()
            try:
                with os.scandir(d) as it:
                    entries = list(it)
            except OSError:
                continue
            subdirs = []
            has_skill = False
            variant = None  # `skill.md`, `Skill.md`: SKILL_FILE_NAME reports it; the skill is still scored
            for e in entries:
                name = e.name
                if name == "SKILL.md":
                    has_skill = e.is_file()
                elif name.lower() == "skill.md" and e.is_file() and (variant is None or name < variant):
                    variant = name  # (kept below only if it reads as a skill's file)
                elif name == "pyvenv.cfg" and not is_top:
                    break  # a virtualenv: nothing of ours lives there
                elif (name not in SKIP_DIRS or name in _SKILL_NAMED and os.path.isfile(os.path.join(e.path, "SKILL.md"))) \
                        and e.is_dir(follow_symlinks=False):
                    subdirs.append(name)  # (a skill called `build`: skills/build/SKILL.md is a skill, not output)
            else:
                if variant is not None and not has_skill and not _variant_is_skill(d, variant, entries):
                    variant = None
                if has_skill or variant is not None:
                    f = Path(d, "SKILL.md" if has_skill else variant)
                    rp = os.path.abspath(f)
                    if rp not in seen:
                        seen.add(rp)
                        yield f
                    # a skill's assets/ and templates/ hold material it copies out (a skill-creator's
                    # `assets/skill-template/SKILL.md` with `name: skill-name`), not skills of their own
                    subdirs = [n for n in subdirs if n.lower() not in TEMPLATE_DIRS]
                stack.extend((os.path.join(d, n), False) for n in sorted(subdirs, reverse=True))
