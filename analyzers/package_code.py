"""The keys a skill's shipping package reads from its SKILL.md files with its own code.

A package that ships skills often loads them itself (an advisor that reads `priority` and `domains`, a
runtime that routes on `triggers`, a registry that requires `profile`): those keys are that package's
documented format, as a project's `known-fields` setting would declare them. The package is the nearest
folder above the skill, within the workspace, that holds a package manifest (`pyproject.toml`, `setup.py`,
`setup.cfg`, `package.json`, `go.mod`, Dart's `pubspec.yaml`) or an installed wheel's `*.dist-info`, else the outermost
import package (`__init__.py`) holding the skill; its loader is any of its Python, Go, Dart or
JavaScript/TypeScript sources that names `SKILL.md` or `frontmatter` (and its shell scripts for the frontmatter lines
they match: `awk '/^[ \\t]+requires:/'`), and a key it reads is one it reads by
a quoted name (`meta.get("priority")`, `fm["triggers"]`, `data.pop("kind")`, a helper's argument when the helper
indexes with it (`_read("requires_mcp")` with `def _read(key): … meta.get(key)`), a Go struct field's YAML tag
(a field `Tags []string` tagged `yaml:"tags"`), a named constant it indexes with
(`_STAMP_KEY = "x-prompt-linker"` then `fm.get(_STAMP_KEY)`), or a literal list a loop walks
while indexing with its variable: `for (const key of ['name', 'triggers']) { … frontmatter[key] … }`, or a top-level
key of a frontmatter schema object in any JavaScript / TypeScript source (`SkillFrontmatterSchema = z.object({ domain: … })`);
`data.profile ?? …` and a bare string such as a validator's list of allowed keys are not counted). Bounded: at most MAX_SOURCES files of at most MAX_SOURCE_BYTES each are read per package,
once per process (a package's loader changing under a running language server is seen on its restart; the
CLI's result cache checks the key set again on every run).
"""

from __future__ import annotations

import bisect
import functools
import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

try:  # the builtin module: hashlib would also load OpenSSL (~6 ms of every start), as batch.py says
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

from .document import SkillDocument, lines_holding
from .lazy_re import lazy_compile
from .measures import exists_recorded, within
from .workspace import BUNDLE_SKIP_DIRS

PACKAGE_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "go.mod", "pubspec.yaml")
PY_PACKAGE = "__init__.py"  # with no manifest above: the outermost import package holding the skill is its package
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".go", ".dart")
SHELL_SUFFIXES = (".sh", ".bash")  # shell sources: only the frontmatter lines they match (`awk '/^  tags:/'`) are read
LOADER_MARKS = ("SKILL.md", "frontmatter")
MAX_SOURCES = 3000  # source files looked at per package
MAX_SOURCE_BYTES = 400_000  # larger sources (bundles, generated code) are not a loader anyone reads
MAX_TOTAL_BYTES = 16_000_000  # source text read per package
PACKAGE_LEVELS = 8  # folders above the skill looked at for the package's manifest
# a key read by name: `meta.get("priority"`, `fm["triggers"]`, `data.pop('kind'` (a bare string such as a
# validator's list of allowed keys, or a message, is not a read)
_INDEX_OPEN = r"(?:\.get\(|\.pop\(|\.setdefault\(|\[)"  # where a frontmatter read's key starts
_READ = lazy_compile(_INDEX_OPEN + r"""\s*["']([A-Za-z_][\w.-]{0,60})["']""")
# a key read through a named constant: `fm.get(_STAMP_KEY)`, `fm[STAMP_KEY]` (group 1: the constant) and the
# constant's definition at a line's start, `_STAMP_KEY = "x-prompt-linker"` / `const STAMP_KEY = 'x'` (group 1, 2)
_CONST_READ = lazy_compile(_INDEX_OPEN + r"[ \t]*([A-Z_][A-Z0-9_]{1,40})[ \t]*[,)\]]")
_CONST_DEF = lazy_compile(r"^[ \t]*(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+)?([A-Z_][A-Z0-9_]{1,40})[ \t]*"
                          r"(?::[ \t]*[\w\[\]. |]{1,40})?=[ \t]*[\"']([A-Za-z_][\w.-]{0,60})[\"'][ \t]*;?[ \t]*(?:#[^\n]*)?$", re.M)


# a presence check: `grep -q "^homepage: " "$skillmd"` (a validator's list of required keys, the `known-fields` case)
_GREP_QUIET = lazy_compile(r"\bgrep[ \t]+(?:-[A-Za-z]{0,4}[ \t]+)*-[A-Za-z]{0,4}q")
SHELL_LINE_CHARS = 400  # characters of a shell line looked at


def _shell_line_reads(text: str) -> set[str]:
    """Keys a shell script reads off the frontmatter's lines to use their values (`awk '/^[ \\t]+requires:/ {…}'`,
    `sed -n 's/^tags: //p'`); a presence check (`grep -q "^homepage: "`) only requires the key."""
    out: set[str] = set()
    for line in text.splitlines():
        if "^" in line and _GREP_QUIET.search(line[:SHELL_LINE_CHARS]) is None:
            out.update(_line_reads(line[:SHELL_LINE_CHARS]))
    return out


def _constant_reads(text: str) -> set[str]:
    """Keys read through a named constant the source defines (`_STAMP_KEY = "x-prompt-linker"` then
    `fm.get(_STAMP_KEY)`); a constant never used as an index (a message, an allowed-keys list) reads nothing."""
    used = set(_CONST_READ.findall(text))
    if not used:
        return set()
    return {key for name, key in _CONST_DEF.findall(text) if name in used}


# a key read off the frontmatter's text: `re.search(r"^updated:\s*(\S+)", fm)`, `line.startswith("updated:")`
# (also a JS regex literal or an awk / grep pattern, indented or not: `/^lifecycle:\s*(.+)$/m`, `/^[ \t]+requires:/`,
# `grep -E '^  tags:'`; a pattern's own blanks before the colon: `r"^adapters\s*:\s*(.+)$"`)
_LINE_READ = lazy_compile(r"""(?:["'/]\^(?:\[[^\]\n]{1,8}\][*+]?|\\s[*+]|[ ]{1,8})?|startswith\(\s*["'])"""
                          r"""([A-Za-z_][\w-]{0,60}(?:\\{0,2}\.[A-Za-z_][\w-]{0,60}){0,3})(?:\\s[*+?])?\s*:""")  # (`^requires\.bins:`)
# a JavaScript / TypeScript property read off the parsed frontmatter: `fm.tags`, `metadata?.layer`
_JS_PROP_READ = lazy_compile(r"\b(?:fm|frontmatter|frontMatter|meta|metadata|attributes|attrs)\??\.([A-Za-z_]\w{0,60})\b")
# a Go struct field's YAML tag: `Tags []string `yaml:"tags,omitempty"`` (a Go loader unmarshals the frontmatter into it)
_GO_YAML_TAG = lazy_compile(r"""\byaml:"([A-Za-z_][\w.-]{0,60})[,"]""")
# a frontmatter model: `class _SkillFrontMatter(BaseModel):` (or `SkillMeta`, `SkillMetadata`), whose typed
# fields (`    args: ExtensionArgs = ()`) are the keys it reads
_MODEL_CLASS = lazy_compile(r"^class\s+\w*(?:front_?matter|skill_?meta)\w*\s*[(:]", re.I | re.M)
_MODEL_FIELD = lazy_compile(r"[ \t]+([A-Za-z_]\w{0,60})\s*:\s*[^\s=]")
MODEL_LINES = 80  # lines of such a class looked at for its fields


def package_root(doc: SkillDocument) -> Path | None:
    """The nearest folder above the skill (within the workspace) holding a package manifest or a wheel's
    `*.dist-info`; failing that, the outermost Python import package (`__init__.py`) the skill sits in (a
    package's source tree copied without its manifest); else None (a skill repository, the shared corpus: no
    package code to ask)."""
    if doc.skill_dir is None or doc.workspace_root is None:
        return None
    memo = doc._resolved
    key = ("package_root",)
    if key not in memo:
        memo[key] = _package_root(doc)
    return memo[key]


def _package_root(doc: SkillDocument) -> Path | None:
    assert doc.skill_dir is not None and doc.workspace_root is not None
    top = doc.skill_dir if exists_recorded(doc, str(doc.skill_dir / PY_PACKAGE)) else None
    for i, folder in enumerate(doc.skill_dir.parents):
        if i >= PACKAGE_LEVELS or not within(doc, folder, doc.workspace_root):
            break
        if any(exists_recorded(doc, str(folder / m)) for m in PACKAGE_MARKERS) or _has_dist_info(str(folder)):
            return folder
        if exists_recorded(doc, str(folder / PY_PACKAGE)):
            top = folder
    return top


def _has_dist_info(folder: str) -> bool:
    try:
        with os.scandir(folder) as it:
            return any(e.name.endswith(".dist-info") and e.is_dir() for e in it)
    except OSError:
        return False


def package_reads(doc: SkillDocument, key: str, nested: bool = False) -> bool:
    """The code of the skill's shipping package reads `key` from its SKILL.md files (see the module); with
    `nested`, also a key under it by a dotted name (`meta.get("routing.kind")` reads `metadata.routing`). The
    answer depends on that code, so the document remembers the package's key set (by digest) for the result
    cache to check again (`cache_still_valid`), as it remembers the existence of the paths it looked at."""
    keys = _package_keys(doc)
    if keys is None:
        return False
    if key in keys:
        return True
    prefix = key + "."
    return nested and any(k.startswith(prefix) for k in keys)


CLAUDE_DIR = ".claude"  # a source naming Claude Code's folder (`.claude/skills`, `".claude"`) installs or syncs skills there
INSTALLS_FOR_CLAUDE = "\0.claude"  # in loader_keys' set: some source of the package names CLAUDE_DIR (no key has NUL)


def _names_claude_dir(text: str) -> bool:
    """`.claude` as a folder (`~/.claude/skills`, `".claude"`, `.claude-plugin`), not inside a dotted name
    (`devops_agent.claude_runner`, a module of the package's own runtime), nor as one entry of a list of folders to
    skip or keep secret (`"dist", "build", ".next", ".claude"`; `".aws", ".gnupg", ".claude"`): that code keeps out
    of Claude Code's folder."""
    i = text.find(CLAUDE_DIR)
    quotes: list[int] | None = None  # where a Python docstring's triple quotes stand (found once, when needed)
    looked = 0
    while i >= 0:
        before = text[i - 1] if i > 0 else " "
        after = text[i + len(CLAUDE_DIR)] if i + len(CLAUDE_DIR) < len(text) else " "
        if not (before.isalnum() or before == "_" or after.isalnum() or after == "_") and not _in_skip_list(text, i):
            if quotes is None:
                quotes = [m.start() for m in _TRIPLE_QUOTE.finditer(text)] if '"""' in text or "'''" in text else []
            looked += 1
            if looked > CLAUDE_MENTIONS or not (bisect.bisect(quotes, i) % 2 or _in_comment(text, i)):
                return True  # (in a docstring or a `#` comment the folder is only talked about)
        i = text.find(CLAUDE_DIR, i + 1)
    return False


_TRIPLE_QUOTE = lazy_compile(r'"""|\'\'\'')
CLAUDE_MENTIONS = 50  # mentions of `.claude` in comments or docstrings looked past (more: taken as naming the folder)


def _in_comment(text: str, i: int) -> bool:
    """The position is on a line after a `#` that opens a comment (a line opening `#`, or `  # …` after code)."""
    start = text.rfind("\n", 0, i) + 1
    line = text[start:i]
    return line.lstrip().startswith("#") or " # " in line


# other folders a list to skip or to keep secret names beside `.claude` (two or more of them near it)
_SKIP_LIST_NAMES = ('"dist"', '"build"', '.next"', '.nuxt"', "node_modules", "__pycache__", '.venv"', '.git"', ".aws",
                    ".ssh", ".gnupg", ".docker", ".kube", '.env"', ".azure")
SKIP_LIST_WINDOW = 300  # characters each side of `.claude` looked at


def _in_skip_list(text: str, i: int) -> bool:
    window = text[max(0, i - SKIP_LIST_WINDOW):i + SKIP_LIST_WINDOW].replace("'", '"')
    return sum(1 for name in _SKIP_LIST_NAMES if name in window) >= 2


def package_runtime_only(doc: SkillDocument, foreign: list[str]) -> bool:
    """The package's code reads one of the skill's `foreign` keys (ones no agent defines) and never names
    `.claude`: its own runtime loads the skill, and nothing of it puts the skill where Claude Code looks (a
    package whose adapter copies its skills into `.claude/skills/`, vibesop, is read by Claude Code too)."""
    if not any(package_reads(doc, k) for k in foreign):
        return False
    root = package_root(doc)
    return root is not None and INSTALLS_FOR_CLAUDE not in loader_keys(str(root))


# a skill folder the package's code builds an object from, by name: `Skill.from_directory(str(_SKILLS_DIR / "summarize"))`,
# `load_skill(ROOT / "classify")`; in loader_keys' set as BINDS + the folder's name (no key starts with NUL)
BINDS = "\0binds:"
_BIND = lazy_compile(r"""(?:\bfrom_\w{1,30}|\bload\w{0,30})\([^\n]{0,80}?/[ \t]{0,3}["']([\w.-]{1,60})["']""")
# a skill's SKILL.md reached by its folder's name (`skills_dir / "vault-curator" / "SKILL.md"`, `os.path.join(root,
# "curator", "SKILL.md")`) and read, not copied (an installer's): a daemon that sends that file as its prompt
_NAMED_SKILL_FILE = lazy_compile(r"""["']([\w.-]{1,60})["'][ \t]{0,3}[/,][ \t]{0,3}["']SKILL\.md["']""")
_BOUND_NAME = lazy_compile(r"[ \t]{0,40}([A-Za-z_]\w{0,40})[ \t]{0,3}=[^=]")
_CONTAINER_FOLDERS = frozenset({"skills", "skill", ".claude", ".agents", "src", "data", "assets"})


def _reads_named_skill(text: str) -> set[str]:
    """The skill folders whose SKILL.md the code reads by the folder's name: the path read on its own line
    (`open(os.path.join(root, "curator", "SKILL.md"))`, `(d / "curator" / "SKILL.md").read_text()`) or bound to a
    name that is read (`skill_path = skills_dir / "vault-curator" / "SKILL.md"`, then `skill_path.read_text()`). A
    path only tested or handed on (`candidate.is_file()`, `register_skill(…, path)`) reads nothing."""
    out: set[str] = set()
    seen: set[tuple[str, str | None]] = set()
    copying: list[str] | None = None  # the source's lines that copy something, found once
    for line in lines_holding(text, ('"SKILL.md"', "'SKILL.md'"), NAMED_LINES):
        m = _NAMED_SKILL_FILE.search(line)
        if m is None:
            continue
        folder = m.group(1)
        b = _BOUND_NAME.match(line)
        bound = b.group(1) if b is not None else None
        if folder in _CONTAINER_FOLDERS or (folder, bound) in seen:
            continue
        seen.add((folder, bound))
        if len(seen) > NAMED_SKILLS:
            break  # a table of names, not a loader
        if not ("read_text(" in line or "open(" in line or bound is not None and (
                f"{bound}.read_text(" in text or f"open({bound}" in text)):
            continue
        if copying is None:
            copying = [ln for ln in text.splitlines() if "copy" in ln]
        marks = (f'"{folder}"', f"'{folder}'") + ((bound,) if bound else ())
        if not any(mk in ln for ln in copying for mk in marks):  # (`shutil.copy2(skill_path, dest)`: an installer's)
            out.add(folder)
    return out


NAMED_SKILLS = 50  # skill folders one source may read by name (more: a table of names)
NAMED_LINES = 500  # lines looked at per source (bounded on a generated file)

# a SKILL.md read through a loop variable (`for name in _SKILL_ORDER:` then `(skills_pkg / name / "SKILL.md").read_text()`)
_LOOP_OVER = lazy_compile(r"[ \t]{0,40}for[ \t]+([A-Za-z_]\w{0,40})[ \t]+in[ \t]+([A-Za-z_]\w{0,60})[ \t]*:")
_STRING = lazy_compile(r"""["']([\w.-]{1,60})["']""")
LOOP_REACH = 6  # lines above the read looked at for its loop
LIST_LINES = 60  # lines of the list's assignment read for its names
LISTS_READ = 5  # lists of names one source may loop over to read SKILL.md files (more: not a loader)


def _reads_listed_skills(text: str) -> set[str]:
    """The skill folders whose SKILL.md the code reads by names it lists (gd_specflow: `_SKILL_ORDER = ["specflow-analysis",
    …]`, `for name in _SKILL_ORDER:`, `(skills_pkg / name / "SKILL.md").read_text()`): its own prompts or tools, which
    no model picks by the skill's description. Only a read on the loop's own lines, not a copy."""
    lines = text.splitlines()
    out: set[str] = set()
    lists: set[str] = set()  # the lists looked up (each once: the file is walked once per list)
    for k, line in enumerate(lines[:NAMED_LINES * 4]):
        if "SKILL.md" not in line or not ("read_text(" in line or "open(" in line) or "copy" in line:
            continue
        for j in range(k - 1, max(-1, k - LOOP_REACH - 1), -1):
            m = _LOOP_OVER.match(lines[j])
            if m is None:
                continue
            var, seq = m.group(1), m.group(2)
            if f"/ {var} /" not in line and f", {var}," not in line or seq in lists:
                break
            lists.add(seq)
            if len(lists) > LISTS_READ:
                return set()  # a generated file of loops, not a loader
            for a, assign in enumerate(lines):
                if assign.startswith(seq) and "=" in assign and "[" in assign:
                    for item in lines[a:a + LIST_LINES]:
                        out.update(n for n in _STRING.findall(item) if n not in _CONTAINER_FOLDERS)
                        if "]" in item:
                            break
                    break
            break
    return set() if len(out) > NAMED_SKILLS else out


# a table of slash commands to skill folders (genomix's `COMMAND_SKILL_MAP = {"/domains": "structural/protein-domains"}`):
# the command picks the folder, the description routes nothing; the folder's name is the path's last part
_COMMAND_BIND = lazy_compile(r"""["']/[\w:-]{1,40}["'][ \t]*:[ \t]*["']((?:[\w.-]{1,60}/){0,4}[\w.-]{1,60})["']""")


# a SKILL.md loader that gathers a skill's `references/*.md` by a glob and reads them (html-gen's
# `skill_dir.glob('references/*.md')`, each appended to the prompt after SKILL.md; `(dir / "references").glob("*.md")`):
# every reference file reaches the model
GLOBS_REFERENCES = "\0globs-references"  # in loader_keys' set
_GLOBS_REFERENCES = lazy_compile(r"""references(?:/|["'][ \t]{0,3}\)[ \t]{0,3}\.r?glob\([ \t]{0,3}[rf]?["'])\*\.md["']""")


_READS_FILE = lazy_compile(r"read_text\(|\.read\(|\bopen\(")
GLOB_READ_GAP = 400  # characters after the glob in which its files are read (`r.read_text()` in the loop below it)


# a name bound to a skill's references folder (`refs_dir = skills_dir / "vault-curator" / "references"`), and a
# `*.md` glob on a name (`refs_dir.glob("*.md")`): the folder's files gathered through a variable
_REFERENCES_BOUND = lazy_compile(r"""[ \t]{0,40}([A-Za-z_]\w{0,40})[ \t]{0,3}(?::[^=\n]{0,80})?=[^=\n][^\n]{0,300}?"""
                                 r"""["']references["'][ \t]{0,3}\)?[ \t]{0,3}$""")
_NAME_GLOBS_MD = lazy_compile(r"""\b([A-Za-z_]\w{0,40})\.r?glob\([ \t]{0,3}[rf]?["']\*\.md["']""")


def _reads_globbed_references(text: str) -> bool:
    """A `references/*.md` glob whose files are read soon after (`for r in refs: print(r.read_text())`), also through
    a name bound to the folder (`refs_dir = … / "references"`, then `refs_dir.glob("*.md")`); a glob that only counts or
    lists them (`len(refs)` in a `list` command) hands nothing to the model."""
    globs = [m.end() for m in _GLOBS_REFERENCES.finditer(text)]
    if '"references"' in text or "'references'" in text:
        bound = {m.group(1) for line in lines_holding(text, ('"references"', "'references'"), NAMED_LINES)
                 if (m := _REFERENCES_BOUND.match(line)) is not None}
        if bound:
            globs += [m.end() for m in _NAME_GLOBS_MD.finditer(text) if m.group(1) in bound]
            globs.sort()
    if not globs:
        return False
    reads = [m.start() for m in _READS_FILE.finditer(text)]
    for at in globs:
        i = bisect.bisect_left(reads, at)
        if i < len(reads) and reads[i] - at <= GLOB_READ_GAP:
            return True
    return False


def package_globs_references(doc: SkillDocument) -> bool:
    """A SKILL.md loader of the skill's shipping package gathers every `references/*.md` of a skill by a glob and reads
    them (`_reads_globbed_references`)."""
    keys = _package_keys(doc)
    return keys is not None and GLOBS_REFERENCES in keys


SOURCE = "\0source:"  # in loader_keys' set: the name of each source file of the package
# fastmcp's `SkillsDirectoryProvider(roots=…)`: the package serves its skill folders over MCP as
# `skill://<folder>/SKILL.md`, each named by its folder (the frontmatter's `name` is not read)
SERVES_BY_FOLDER_MARK = "SkillsDirectoryProvider"
SERVES_BY_FOLDER = "\0serves-by-folder"  # in loader_keys' set: some source names SERVES_BY_FOLDER_MARK
# a source that reads SKILL.md and registers an MCP resource (`@mcp.resource("silk://guide")` returning its text):
# the package serves the file to MCP clients as a guide
SERVES_RESOURCE = "\0serves-resource"
# a source that writes SKILL.md files and builds their frontmatter from a name it fills in (`f"---\nname: {skill_name}\n…"`,
# `` `---\nname: ${name}` ``): the package emits its skills from sources that need none (prompticorn's skill_emitter)
WRITES_FRONTMATTER = "\0writes-frontmatter"
# a path into a dot-folder with an extension, quoted in a source that names SKILL.md (an installer's file map:
# `".agents/skills/tact/SKILL.md"`, `".tact/AGENTS.md"`); in loader_keys' set as PATH_LITERAL + the path
PATH_LITERAL = "\0path:"
_PATH_LITERAL = lazy_compile(r"[\"'](\.[\w-]{1,60}/(?:[\w-]{1,60}/){0,9}[\w-]{1,80}(?:\.[\w-]{1,20}){0,3}\.\w{1,8})[\"']")
_WRITES_FRONTMATTER = lazy_compile(r"---\\nname: ?\$?\{")
# a loader that reads SKILL.md in a format of its own: the name from its `# ` title, the description from a `> `
# line (leaper's), or the metadata from a fenced ```` ```yaml ```` block (legal_draft_agent's); in loader_keys' set
READS_OWN_FORMAT = "\0reads-own-format"
# a loader that parses the frontmatter line by line (`key, _, value = line.partition(":")`) in a source that names
# SKILL.md and uses no YAML library: `[x]` stays the text written (ecode's); in loader_keys' set
READS_LINES = "\0reads-lines"
_LINE_SPLITS = ('partition(":")', "partition(':')", 'split(":", 1)', "split(':', 1)")
_YAML_LIBS = ("import yaml", "from yaml", "ruamel", "frontmatter.load")  # a source that parses YAML with a library
_READS_OWN_FORMAT = lazy_compile(r"startswith\(\s*[\"'](?:# |> |```ya?ml)")
# a loader that reads each SKILL.md whole and names the skill after its folder (`path.read_text()`,
# `name = path.parent.name`: flopro_nexus pastes each into its system prompt); in loader_keys' set. And any source that
# handles a frontmatter (says `frontmatter`, `---`, or parses YAML) beside SKILL.md: PARSES_FRONTMATTER
READS_WHOLE_BY_FOLDER = "\0reads-whole-by-folder"
PARSES_FRONTMATTER = "\0parses-frontmatter"


# an entry-point group through which the package hands its skills to another package's runtime
# (`[agent_utilities.skill_providers]` / `arr-mcp = arr_mcp.skills`); in loader_keys' set as PROVIDES + the module
PROVIDES = "\0provides:"
ENTRY_POINT_BYTES = 64_000  # an entry_points.txt or pyproject.toml read for skill providers, at most


def _skill_providers(root: str) -> list[str]:
    """The modules the package registers under an entry-point group naming skills, in its wheel's
    `*.dist-info/entry_points.txt` or its `pyproject.toml` (`[project.entry-points."x.skill_providers"]`)."""
    texts: list[tuple[str, str]] = []  # (the table prefix a group of entry points has there, the text)
    try:
        with os.scandir(root) as it:
            names = sorted(e.name for e in it)
    except OSError:
        return []
    for name in names:
        if name.endswith(".dist-info"):
            path, prefix = os.path.join(root, name, "entry_points.txt"), "["
        elif name == "pyproject.toml":
            path, prefix = os.path.join(root, name), "[project.entry-points."
        else:
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.append((prefix, f.read(ENTRY_POINT_BYTES)))
        except OSError:
            continue
    out: list[str] = []
    for prefix, text in texts:
        providers = False  # inside a group of entry points whose name holds "skill"
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("["):
                providers = line.startswith(prefix) and "skill" in line.lower()
            elif providers and "=" in line:
                value = line.partition("=")[2].strip().strip("\"'").split(":", 1)[0].strip()
                if value:
                    out.append(value)
    return out


def package_provides(doc: SkillDocument) -> bool:
    """The skill's shipping package hands the module holding it to another package's runtime through an
    entry-point group naming skills (`[agent_utilities.skill_providers]` `arr-mcp = arr_mcp.skills` for
    `arr_mcp/skills/arr-starter/`): that runtime loads it and reads its own keys."""
    root = package_root(doc)
    keys = _package_keys(doc)
    if not keys or root is None or doc.skill_dir is None:
        return False
    try:
        rel = doc.skill_dir.parent.relative_to(root).parts
    except ValueError:
        return False
    dotted = ".".join(rel)
    return any(k.startswith(PROVIDES) and (dotted == k[len(PROVIDES):] or dotted.startswith(k[len(PROVIDES):] + "."))
               for k in keys)


# a skill's sidecar trigger file its package's router reads (crucible's `core/trigger_router.py` and
# `triggers.yaml` beside SKILL.md); in loader_keys' set as NAMES_FILE + the file name when a source names it
TRIGGER_FILES = ("triggers.yaml", "triggers.yml", "triggers.json")
# a skill's sidecar manifest its package's catalog reads in place of frontmatter (simplicio_prompt's `metadata.json`
# beside each SKILL.md: id, name, description, …)
SIDECAR_FILES = ("metadata.json", "skill.json", "manifest.json", "skill.yaml", "skill.yml", "metadata.yaml",
                 "metadata.yml")
NAMES_FILE = "\0names-file:"


def package_names_file(doc: SkillDocument, name: str, *, own_runtime: bool = False) -> bool:
    """Some source of the skill's shipping package names the file `name` (one of TRIGGER_FILES or SIDECAR_FILES);
    with `own_runtime`, and none names `.claude` (nothing puts the skill where an agent loads it as it is)."""
    keys = _package_keys(doc)
    return keys is not None and NAMES_FILE + name in keys and not (own_runtime and INSTALLS_FOR_CLAUDE in keys)


def package_serves_by_folder(doc: SkillDocument) -> bool:
    """The skill's shipping package serves its skills over MCP by folder name (fastmcp's SkillsDirectoryProvider:
    `skill://develop_extension/SKILL.md`)."""
    keys = _package_keys(doc)
    return keys is not None and SERVES_BY_FOLDER in keys


def package_serves_resource(doc: SkillDocument) -> bool:
    """The skill's SKILL.md sits among its package's modules (`__init__.py` beside it), a source of the package reads
    SKILL.md and registers an MCP resource (`@mcp.resource("silk://guide")`), and none names `.claude`: the file is
    the guide the package's MCP server serves, not a skill an agent's loader finds."""
    keys = _package_keys(doc)
    return keys is not None and SERVES_RESOURCE in keys and INSTALLS_FOR_CLAUDE not in keys \
        and doc.files.exists(PY_PACKAGE)


def package_writes_frontmatter(doc: SkillDocument) -> bool:
    """A source of the skill's shipping package writes SKILL.md files with a frontmatter block it builds from a name
    (`f"---\\nname: {skill_name}\\n…"`): the package emits its skills, adding the frontmatter its sources leave out."""
    keys = _package_keys(doc)
    return keys is not None and WRITES_FRONTMATTER in keys


def package_reads_own_format(doc: SkillDocument) -> bool:
    """A source of the skill's shipping package reads SKILL.md files in a format of its own (`line.startswith("# ")`
    for the name, `"> "` for the description, `"```yaml"` for a fenced metadata block), and none names `.claude`:
    its own loader reads the skill, which needs no frontmatter there."""
    keys = _package_keys(doc)
    return keys is not None and READS_OWN_FORMAT in keys and INSTALLS_FOR_CLAUDE not in keys


def package_reads_whole(doc: SkillDocument) -> bool:
    """A source of the skill's shipping package reads each SKILL.md whole and names the skill after its folder, no
    source handles a frontmatter (names `frontmatter`, or `---` / a YAML library beside SKILL.md), and none names
    `.claude`: the package's own runtime pastes the file's text, and no agent's loader reads it."""
    keys = _package_keys(doc)
    return keys is not None and READS_WHOLE_BY_FOLDER in keys and PARSES_FRONTMATTER not in keys \
        and INSTALLS_FOR_CLAUDE not in keys


def package_reads_lines(doc: SkillDocument) -> bool:
    """A source of the skill's shipping package parses SKILL.md's frontmatter line by line (`line.partition(":")`,
    no YAML), and none names `.claude`: its own loader keeps a value as the text written (`[file]` is not a list)."""
    keys = _package_keys(doc)
    return keys is not None and READS_LINES in keys and INSTALLS_FOR_CLAUDE not in keys


def package_installs(doc: SkillDocument, path: str) -> bool:
    """The code of the skill's shipping package installs this skill at a path it names (`".agents/skills/tact/SKILL.md"`)
    and also names the file `path` reaches from there (`../../../.tact/AGENTS.md` from `.agents/skills/tact/` is
    `.tact/AGENTS.md`, which the installer writes beside it): the link is alive where the skill is installed."""
    if not any(part[:1] == "." and part[1:2] not in (".", "") for part in path.split("/")):
        return False  # the installer's file map names paths into dot-folders (PATH_LITERAL): `.tact/AGENTS.md`
    keys = _package_keys(doc)
    if keys is None or doc.skill_dir is None:
        return False
    own = "/" + doc.skill_dir.name + "/SKILL.md"
    for key in keys:
        if key.startswith(PATH_LITERAL) and key.endswith(own):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(key[len(PATH_LITERAL):]), path))
            if not target.startswith("..") and PATH_LITERAL + target in keys:
                return True
    return False


def package_supplies(doc: SkillDocument, rel: str) -> bool:
    """The skill's shipping package holds a source file of that name elsewhere (`scripts/audit_skill.py` and the
    package's `skill_quality_lab/audit_skill.py`): its installer puts it beside the skill, or wraps it there."""
    keys = _package_keys(doc) if rel.endswith(SOURCE_SUFFIXES) else None
    return keys is not None and SOURCE + rel.rsplit("/", 1)[-1] in keys


def package_binds(doc: SkillDocument) -> bool:
    """The code of the skill's shipping package builds an object from this skill's folder by name, maps a slash
    command to it (`{"/domains": "structural/protein-domains"}`), or reads its SKILL.md by the folder's name (alfred's
    `skills_dir / "vault-curator" / "SKILL.md"`, sent as a daemon's prompt), and never names `.claude`: a library of
    pipeline steps its callers chain in code (skillchain's `summarize`), or skills its own code picks, which no model
    picks by its description."""
    keys = _package_keys(doc)
    return keys is not None and doc.skill_dir is not None and BINDS + doc.skill_dir.name in keys \
        and INSTALLS_FOR_CLAUDE not in keys


def _package_keys(doc: SkillDocument) -> frozenset[str] | None:
    """What the skill's shipping package's code reads (`loader_keys`), None without a package; the document
    remembers the set's digest for the result cache to check again."""
    root = package_root(doc)
    if root is None:
        return None
    keys = loader_keys(str(root))
    doc.external[KEYS_MARK + str(root)] = keys_digest(keys)
    return keys


KEYS_MARK = "\0package-keys:"  # a key of SkillDocument.external that is no path (a path holds no NUL)


@functools.lru_cache(maxsize=64)
def keys_digest(keys: frozenset[str]) -> str:
    return blake2b("\n".join(sorted(keys)).encode(), digest_size=16).hexdigest()


def cache_still_valid(mark: str, digest: object) -> bool:
    """A cached result that asked the package at `mark` (KEYS_MARK + root) holds while that package's
    loaders still read the same keys (QUOTES_MARK + root NUL literal: while a source still quotes it, or not)."""
    if mark.startswith(QUOTES_MARK):
        root, _, literal = mark[len(QUOTES_MARK):].partition("\0")
        return _quotes.__wrapped__(root, literal) == digest
    if mark.startswith(INVOKES_MARK):
        return keys_digest(_invoked_names.__wrapped__(mark[len(INVOKES_MARK):])) == digest
    if mark.startswith(IMPORTS_MARK):
        root, dotted, skill_dir = mark[len(IMPORTS_MARK):].split("\0", 2)
        return " ".join(sorted(_imports.__wrapped__(root, dotted, skill_dir))) == digest
    return keys_digest(loader_keys(mark[len(KEYS_MARK):])) == digest


def _model_fields(text: str) -> set[str]:
    """The typed fields of the frontmatter models a source declares (`class SkillFrontMatter(BaseModel):`
    then `    args: ExtensionArgs = ()`), up to the class's end (its first line back at the left margin)."""
    out: set[str] = set()
    for m in _MODEL_CLASS.finditer(text):
        pos = text.find("\n", m.end())  # the class line's end; its body is read line by line, not copied whole
        for _ in range(MODEL_LINES):
            if pos < 0:
                break
            nxt = text.find("\n", pos + 1)
            line = text[pos + 1:nxt if nxt >= 0 else len(text)]
            pos = nxt
            if line and not line[0].isspace():
                break  # the class ended
            f = _MODEL_FIELD.match(line)
            if f is not None and not line.lstrip().startswith(("def ", "return ", "#")):
                out.add(f.group(1))
    return out


# a frontmatter schema object in JavaScript / TypeScript: `export const SkillFrontmatterSchema = z.object({` (zod; also
# `v.object({` of valibot, `Type.Object({` of typebox), whose top-level keys (`name: z.string()`, `"claude-code": …`) are
# the keys the loader validates and reads
_SCHEMA_OBJECT = lazy_compile(r"\b(?:const|let|var)[ \t]+\w{0,40}(?:front_?matter|skill_?meta)\w{0,40}[ \t]*(?::[^=\n]{0,80})?="
                              r"[ \t]*(?:z|v|Type|yup|Joi)[ \t]*\.[ \t]*(?:object|Object|strictObject)[ \t]*\([ \t]*\{", re.I)
_SCHEMA_KEY = lazy_compile(r"[ \t]*[\"']?([A-Za-z_][\w-]{0,60})[\"']?[ \t]*:")
SCHEMA_CHARS = 6000  # characters of such a schema object looked at for its keys


def _schema_fields(text: str) -> set[str]:
    """The top-level keys of the frontmatter schema objects a JavaScript / TypeScript source declares
    (`const SkillFrontmatterSchema = z.object({ name: z.string(), domain: z.string(), … })`); a nested object's keys
    (`activation: z.object({ cursor: … })`) are not top-level keys."""
    out: set[str] = set()
    pos = 0
    while (m := _SCHEMA_OBJECT.search(text, pos)) is not None:
        depth, start, end = 1, m.end(), min(len(text), m.end() + SCHEMA_CHARS)
        line_start = start  # a key sits at the start of an entry: after the opening brace, a comma or a line break
        i = start
        while i < end and depth > 0:
            c = text[i]
            if c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
            elif c in ",\n" and depth == 1:
                line_start = i + 1
            if depth == 1 and i == line_start:
                k = _SCHEMA_KEY.match(text, i, min(end, i + 80))
                if k is not None:
                    out.add(k.group(1))
            i += 1
        pos = i  # the next schema starts after this one's scan: each character is looked at once
    return out


# a loop over a literal list of names: `for (const key of ['name', 'triggers'])`, `for k in ("a", "b"):`; group 1 is
# the loop variable, group 2 the list's text (`['a', 'b'].forEach((key) =>` is found from its `].forEach(`)
# (one blank quantifier in a row everywhere: `for` then a run of blanks is split one way only, linear)
_LOOP = lazy_compile(r"""\bfor[ \t]*(?:\([ \t]*)?(?:(?:const|let|var)[ \t]+)?([A-Za-z_]\w{0,30})[ \t]+(?:of|in)[ \t]+[\[(]"""
                     r"""([^\[\]()\n]{1,400})[\])]""")
_FOR_EACH_VAR = lazy_compile(r"[ \t]*(?:\([ \t]*)?([A-Za-z_]\w{0,30})")
_QUOTED = lazy_compile(r"""["']([A-Za-z_][\w.-]{0,60})["']""")
LOOP_BODY = 600  # characters after a loop's head where its variable must index the frontmatter
LOOP_LIST = 400  # characters of a looped list


def _line_reads(text: str) -> set[str]:
    """The keys `_LINE_READ` finds, a dotted key's escaped dots read as dots (`^requires\\.bins:` is `requires.bins`)."""
    return {k.replace("\\", "") for k in _LINE_READ.findall(text)}


# a helper that reads the key it is given: `def _read(key: str):` / `function read(key)` whose body then indexes with
# it (`meta.metadata.get(key)`, `fm[key]`), or with each of its keys (`def _fm_get(data, *keys):` / `for key in keys:` /
# `data[key]`); group 1 or 3 is its name, 2 or 4 its parameters
_HELPER = lazy_compile(r"(?:^|\n)[ \t]*(?:async[ \t]+)?def[ \t]+(\w{1,40})\(([^)]{0,200})\)"
                       r"|\bfunction[ \t]+(\w{1,40})[ \t]*\(([^)]{0,200})\)")
HELPER_BODY = 400  # characters of a helper's body where it must index with its parameter
MAX_HELPERS = 20  # such helpers looked at per source
CALL_ARGS = 240  # characters of a call's arguments read for its keys


def _key_param(params: str, body: str) -> tuple[int, bool] | None:
    """(position, variadic) of the parameter a helper's body indexes with (`fm[key]`, `.get(key)`, or each item of
    `*keys` in a loop), or None. Positions count the arguments a call passes (not `self` / `cls`)."""
    names = []
    for raw in _top_level_split(params):
        name = raw.split(":", 1)[0].split("=", 1)[0].strip()
        if name in ("self", "cls", "*", "/", "") or name.startswith("**"):
            continue
        names.append(name)
    for i, name in enumerate(names):
        variadic = name.startswith("*")
        name = name.lstrip("*")
        if not name.isidentifier():
            continue
        if f".get({name}" in body or f"[{name}]" in body:
            return i, variadic
        at = body.find(f" in {name}")
        loop = _LOOP_VAR.search(body, max(0, at - 40), at + 4) if at >= 0 else None
        if loop is not None and loop.end() == at + 3:  # `for key in keys`: the loop walks this parameter
            var = loop.group(1)
            if f".get({var}" in body or f"[{var}]" in body:
                return i, True  # each item of the list it is given
    return None


def _top_level_split(params: str) -> list[str]:
    """A parameter list split at its top-level commas (`data: Dict[str, Any], *keys: str`: two parameters)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth <= 0:
            out.append(params[start:i])
            start = i + 1
    out.append(params[start:])
    return out


_LOOP_VAR = lazy_compile(r"\bfor[ \t]+(\w{1,30})[ \t]+in\b")


def _helper_reads(text: str) -> set[str]:
    """Keys read through a helper the source defines: `_read("requires_mcp")` where `def _read(key)` does
    `meta.metadata.get(key)` within HELPER_BODY characters; `_fm_get(fm, "when-to-use", "when_to_use")` where
    `def _fm_get(data, *keys)` indexes `data` with each of its keys."""
    if "def " not in text and "function" not in text:
        return set()
    out: set[str] = set()
    helpers = 0
    for m in _HELPER.finditer(text):
        name, params = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        body = text[m.end():m.end() + HELPER_BODY]
        found = _key_param(params, body)
        if found is None:
            continue
        pos, variadic = found
        helpers += 1
        if helpers > MAX_HELPERS:
            break  # (each helper's calls are looked for over the whole source: bounded)
        call = f"{name}("
        at = text.find(call)
        while at >= 0 and len(out) < 500:
            if not (at and (text[at - 1].isalnum() or text[at - 1] == "_")):
                args = text[at + len(call):at + len(call) + CALL_ARGS].split(")", 1)[0].split(",")
                for arg in (args[pos:] if variadic else args[pos:pos + 1]):
                    if (q := _QUOTED.fullmatch(arg.strip())) is not None:
                        out.add(q.group(1))
            at = text.find(call, at + 1)
    return out


def _looped_keys(text: str) -> set[str]:
    """The names of a literal list a loop walks when the loop variable then indexes an object (`frontmatter[key]`,
    `fm.get(k)`) within LOOP_BODY characters: each is a key read by name (a list of messages or file names that
    indexes nothing is not)."""
    loops = [(m.group(1), m.group(2), m.end()) for m in _LOOP.finditer(text)] if "for" in text else []
    at = text.find("].forEach(")
    while at >= 0 and len(loops) < 1000:
        start = text.rfind("[", max(0, at - LOOP_LIST), at)
        v = _FOR_EACH_VAR.match(text, at + len("].forEach("))
        if start >= 0 and "\n" not in text[start:at] and v is not None:
            loops.append((v.group(1), text[start + 1:at], v.end()))
        at = text.find("].forEach(", at + 1)
    out: set[str] = set()
    for var, names, end in loops:
        body = text[end:end + LOOP_BODY]
        if f"[{var}]" in body or f".get({var}" in body:
            out.update(_QUOTED.findall(names))
    return out


def _sources(root: str) -> Iterator[tuple[str, str | None, bool]]:
    """(file path, text, is a shell script) of the package's sources under `root`, in a stable order, within the
    MAX_SOURCES / MAX_TOTAL_BYTES bounds (the file past them comes with no text); dot-folders and dependency folders
    skipped."""
    seen = total = 0
    stack = [root]
    while stack and seen < MAX_SOURCES and total < MAX_TOTAL_BYTES:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)  # (the same files read, whatever the disk's order)
        except OSError:
            continue
        for e in entries:
            if e.name.startswith(".") or e.name in BUNDLE_SKIP_DIRS:
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                    continue
                shell = e.name.endswith(SHELL_SUFFIXES)
                if not shell and not e.name.endswith(SOURCE_SUFFIXES):
                    continue
                size = e.stat().st_size
            except OSError:
                continue
            if size > MAX_SOURCE_BYTES:
                continue
            seen += 1
            total += size
            if seen > MAX_SOURCES or total > MAX_TOTAL_BYTES:
                yield e.path, None, shell  # named (a source file of that name exists), not read
                break
            try:
                with open(e.path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            yield e.path, text, shell


def package_quotes(doc: SkillDocument, literal: str) -> bool:
    """A source of the skill's shipping package holds `literal` in quotes (`"agent_creator"`,
    `BUILTIN_SKILL_NAMES = ("code_review", …)`), and none names `.claude`: the package's own runtime looks the skill up
    by that string. (Asked for a name off the format only: it reads the sources again.)"""
    keys = _package_keys(doc)
    if keys is None or INSTALLS_FOR_CLAUDE in keys:
        return False
    root = str(package_root(doc))
    found = _quotes(root, literal)
    doc.external[QUOTES_MARK + root + "\0" + literal] = found  # (the result cache asks again: cache_still_valid)
    return found


def package_imports(doc: SkillDocument, folder: str) -> frozenset[str]:
    """The modules of the skill's `folder` that a source of the shipping package outside the skill imports
    (`from devex.commands.pr.scripts import lint as lint_script` for `devex/commands/pr/scripts/`: `lint`): the
    package's own command runs them, and the skill's commands reach them through it."""
    root = package_root(doc)
    if root is None or doc.skill_dir is None or _package_keys(doc) is None:
        return frozenset()
    try:
        rel = doc.skill_dir.relative_to(root).parts
    except ValueError:
        return frozenset()
    parts = [*rel, *folder.strip("/").split("/")]
    if not parts or not all(p.isidentifier() for p in parts):
        return frozenset()  # (a module path is dotted identifiers)
    dotted = ".".join(parts)
    found = _imports(str(root), dotted, str(doc.skill_dir))
    doc.external[IMPORTS_MARK + str(root) + "\0" + dotted + "\0" + str(doc.skill_dir)] = " ".join(sorted(found))
    return found


@functools.lru_cache(maxsize=256)
def _imports(root: str, dotted: str, skill_dir: str) -> frozenset[str]:
    inside = skill_dir + os.sep
    found: set[str] = set()
    for path, text, shell in _sources(root):
        if text is not None and not shell and dotted in text and not path.startswith(inside):
            found.update(imported_modules(text, dotted))
    return frozenset(found)


def imported_modules(text: str, dotted: str) -> set[str]:
    """The modules of package `dotted` that `text` imports: `from D import a, b as c` (`a`, `b`), `from D.a import x`,
    `import D.a` (`a`); a parenthesised list may span lines."""
    out: set[str] = set()
    i = text.find(dotted)
    while i >= 0:
        j = i + len(dotted)
        # what precedes it on its line, looked for within IMPORT_HEAD_CHARS (a look-back to the line's start for every
        # occurrence was quadratic on a long line repeating the name)
        window = max(0, i - IMPORT_HEAD_CHARS)
        line_start = text.rfind("\n", window, i) + 1
        head = text[line_start:i].strip() if line_start or not window else ""
        if head in ("from", "import") and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "._")):
            if text.startswith(".", j):
                k = j + 1
                while k < len(text) and (text[k].isalnum() or text[k] == "_"):
                    k += 1
                if k > j + 1:
                    out.add(text[j + 1:k])
            elif head == "from" and text.startswith(" import ", j):
                k = j + len(" import ")
                end = text.find(")", k) if text.startswith("(", k) else text.find("\n", k)
                out |= import_names(text[k:end if end >= 0 else len(text)])
        i = text.find(dotted, j)
    return out


def import_names(listed: str) -> set[str]:
    """The names an import list brings in: `a, b as c` and `(a,\n b)` give `a`, `b` (identifiers only; the first
    IMPORT_LIST_CHARS characters)."""
    out: set[str] = set()
    for item in listed.strip("() \n")[:IMPORT_LIST_CHARS].split(","):
        word = item.strip().split(" ", 1)[0].strip("()\n\\ ")
        if word.isidentifier():
            out.add(word)
    return out


IMPORT_LIST_CHARS = 4_000  # of a `from D import (…)` list read
IMPORT_HEAD_CHARS = 256  # before the module's name: its line's `from` / `import` and indentation, at most


IMPORTS_MARK = "\0package-imports:"  # SkillDocument.external: root NUL module NUL skill dir -> the modules imported
QUOTES_MARK = "\0package-quotes:"  # a key of SkillDocument.external: root NUL literal -> whether a source quotes it
INVOKES_MARK = "\0package-invokes:"  # SkillDocument.external: root -> the digest of the skill names it invokes


def package_invokes(doc: SkillDocument, name: str) -> bool:
    """A source of the skill's shipping package calls a skill function with the skill's name as its first argument
    (Foreman's `use_skill('foreman-debug')` in the prompts it builds, `run_skill("x")`, `invoke_skill('x')`), or its
    own prompt tells the agent to load the skill by name ("load the channel-awareness skill via read_file(…)", a tool's
    description "First read the built-in **long-goal** skill"): the package's own pipeline or prompt says when the
    skill runs, also when it vendors the skill into `.claude/skills` for that."""
    root = package_root(doc)
    if root is None or not name:
        return False
    r = str(root)
    names = _invoked_names(r)
    doc.external[INVOKES_MARK + r] = keys_digest(names)  # (the result cache asks again: cache_still_valid)
    return name in names


# a call that runs a skill, then the skill's name quoted as its first argument (run, invoke, call, execute, trigger,
# activate, apply: not `register_skill(`, which hands the skill to an agent that routes it, nor `get_skill(`)
_SKILL_CALL = lazy_compile(r"(?<![A-Za-z])(?:use|run|invoke|call|exec(?:ute)?|trigger|activate|apply)_?skill\w{0,20}"
                           r"\([ \t]{0,3}[rf]?([\"'])([^\"'\n]{1,200})\1", re.I)


@functools.lru_cache(maxsize=64)
def _invoked_names(root: str) -> frozenset[str]:
    """The skill names the package's sources (not its tests nor shell scripts) pass to a skill-running call: one pass
    over the sources per package, whatever the number of skills asked about."""
    out: set[str] = set()
    for path, text, shell in _sources(root):
        if text is None or shell or _test_source(os.path.basename(path)):
            continue
        out.update(m.group(2) for m in _SKILL_CALL.finditer(text))
        if "skill" in text:
            out.update(m.group(1) for m in _PROMPT_LOADS.finditer(text))
    return frozenset(out)


# the package's own prompt telling the agent to load a skill by name: "load the channel-awareness skill via
# read_file(…)", "First read the built-in **long-goal** skill", "Consult the `airflow` skill before composing …"
# (a blank, or a string literal's end and the next one's start: `"… load the "` / `"web-browsing skill via "`)
_GAP = r"(?:\s{1,3}|\s{0,3}[\"']\s{1,40}[\"']\s{0,3})"
_PROMPT_LOADS = lazy_compile(r"\b(?:load|read|consult|open|use)" + _GAP + r"(?:the" + _GAP + r")?(?:(?:built-in|bundled)"
                             + _GAP + r")?[`*'\"]{0,2}([a-z0-9][\w.-]{1,63})[`*'\"]{0,2}" + _GAP + r"skill\b", re.I)


@functools.lru_cache(maxsize=256)
def _quotes(root: str, literal: str) -> bool:
    quoted = (f'"{literal}"', f"'{literal}'")
    return any(text is not None and not shell and not _test_source(os.path.basename(path)) and any(q in text for q in quoted)
               for path, text, shell in _sources(root))


def _test_source(name: str) -> bool:
    """A test module (`test_prompt.py`, `prompt_test.py`, `prompt.test.ts`, `conftest.py`): it quotes names to check
    them, not to load them."""
    stem = name.rsplit(".", 1)[0]
    return stem.startswith("test_") or stem.endswith(("_test", ".test", ".spec")) or stem == "conftest"


@functools.lru_cache(maxsize=64)
def loader_keys(root: str) -> frozenset[str]:
    """The names the package's SKILL.md loaders (sources naming `SKILL.md` or `frontmatter`) read: quoted
    keys (`meta.get("priority")`, `fm["triggers"]`), keys matched on the frontmatter's lines
    (`r"^updated:"`, `startswith("updated:")`), the typed fields of a Python frontmatter model class, and
    JavaScript / TypeScript properties read off it (`fm.tags`, `metadata?.layer`); and, in any JavaScript / TypeScript
    source, the top-level keys of a frontmatter schema object (`SkillFrontmatterSchema = z.object({ domain: … })`)."""
    keys: set[str] = {PROVIDES + m for m in _skill_providers(root)}
    for path, text, shell in _sources(root):
        name = os.path.basename(path)
        if not shell:
            keys.add(SOURCE + name)
        if text is None:
            continue
        if shell:  # `awk '/^[ \t]+requires:/'` in a script that parses SKILL.md files
            if any(m in text for m in LOADER_MARKS):
                keys.update(_shell_line_reads(text))
            continue
        if any(m in text for m in LOADER_MARKS):
            keys.update(_READ.findall(text))
            keys.update(_line_reads(text))
            keys.update(_looped_keys(text))
            keys.update(_helper_reads(text))
            keys.update(_constant_reads(text))
            if name.endswith(".py"):
                keys.update(_model_fields(text))
            elif name.endswith(".go"):
                keys.update(_GO_YAML_TAG.findall(text))  # `Tags []string `yaml:"tags"``: a field its parser fills
            elif not name.endswith(".dart"):  # (Dart reads a parsed map by index: `rawSkill['inputs']`)
                keys.update(_JS_PROP_READ.findall(text))
        if not name.endswith(".py") and "bject(" in text:
            keys.update(_schema_fields(text))  # `SkillFrontmatterSchema = z.object({ domain: … })`
        if "/" in text and ("from_" in text or "load" in text):
            keys.update(BINDS + n for n in _BIND.findall(text))
        if "\"/" in text or "'/" in text:
            keys.update(BINDS + n.rsplit("/", 1)[-1] for n in _COMMAND_BIND.findall(text))
        if "SKILL.md" in text and "read" in text and "copytree(" not in text:
            keys.update(BINDS + n for n in _reads_named_skill(text))
            keys.update(BINDS + n for n in _reads_listed_skills(text))
        if CLAUDE_DIR in text and _names_claude_dir(text):
            keys.add(INSTALLS_FOR_CLAUDE)
        if SERVES_BY_FOLDER_MARK in text:
            keys.add(SERVES_BY_FOLDER)
        if "SKILL.md" in text and ".resource(" in text:
            keys.add(SERVES_RESOURCE)
        if "SKILL.md" in text and _WRITES_FRONTMATTER.search(text) is not None:
            keys.add(WRITES_FRONTMATTER)
        if "SKILL.md" in text and "startswith(" in text and _READS_OWN_FORMAT.search(text) is not None:
            keys.add(READS_OWN_FORMAT)
        if "SKILL.md" in text and any(m in text for m in _LINE_SPLITS) and not any(m in text for m in _YAML_LIBS):
            keys.add(READS_LINES)
        if "frontmatter" in text or ("SKILL.md" in text and ("---" in text or any(m in text for m in _YAML_LIBS))):
            keys.add(PARSES_FRONTMATTER)
        elif "SKILL.md" in text and ".parent.name" in text and ("read_text(" in text or ".read()" in text):
            keys.add(READS_WHOLE_BY_FOLDER)
        if "SKILL.md" in text and "glob(" in text and _reads_globbed_references(text):
            keys.add(GLOBS_REFERENCES)
        if "SKILL.md" in text and "/" in text:  # an installer's file map: `".tact/AGENTS.md": …`
            keys.update(PATH_LITERAL + p for p in _PATH_LITERAL.findall(text))
        if "triggers." in text:
            keys.update(NAMES_FILE + f for f in TRIGGER_FILES if f in text)
        if ".json" in text or ".y" in text:
            keys.update(NAMES_FILE + f for f in SIDECAR_FILES if f in text)
    return frozenset(keys)
