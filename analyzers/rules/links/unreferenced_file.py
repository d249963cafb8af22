"""UNREFERENCED_FILE: a file in references/ or scripts/ that SKILL.md does not reach."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from ...bundle import read_bundled
from ...document import SkillDocument
from ...fields import HERMES, skill_dialect
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...measures import exists_recorded, sibling_skills, text_recorded
from ...reach import reach
from ...rule import FixAvailability, RuleContext, rule
from .._sample import sample_skill

_IGNORED_NAMES = {"__init__.py", "LICENSE", "LICENSE.txt", "README.md", "requirements.txt", ".gitkeep", "conftest.py",
                  # lock files the package manager reads, not the agent, whose names do not end in `.lock`
                  "package-lock.json", "pnpm-lock.yaml", "bun.lockb"}
_LOCK_SUFFIX = ".lock"  # `uv.lock`, `poetry.lock`, `yarn.lock`, `Cargo.lock`; `research.py.lock`: a PEP 723 script's
# a log of the skill's own changes, kept for its maintainers (by stem, any case, `_` or `-`)
_MAINTAINERS_LOGS = frozenset({"changelog", "changes", "release-notes", "releasenotes", "evolution-log",
                               "version-history", "revision-history", "change-history", "eval-history",
                               "evaluation-history", "darwin-evaluation",  # (Darwin: a skill-evolution tool's score record)
                               # where the skill came from: the upstream commit, the licence kept, the credits
                               "provenance", "attribution", "attributions", "credits", "notice", "upstream",
                               "upstream-source", "upstream-sources", "upstream-notes", "source-provenance",
                               "creation-log"})  # (how the skill was made: its maintainers' record)
# what Hermes Agent's `skill_view` lists to the agent with the skill's text ("linked_files", tools/skills_tool.py):
# `references/*.md`, `scripts/*.py|sh|bash|js` (direct children)
_HERMES_LISTED = (".md", ".py", ".sh", ".bash", ".js")
_TEST_DIRS = ("tests", "test", "__tests__", "__test__")
_TEST_SUFFIXES = ("_test.py", "_test.go", "_spec.rb")  # a script named smoke_test.sh may be one the skill runs


def is_test_file(rel: str) -> bool:
    """A unit test of the skill's code (`diff.test.ts`, `api.spec.js`, `test_x.py`, `x_test.py`, `x_test.go`,
    anything under `tests/` or `__tests__/`): tests import the code, nothing imports them."""
    parts = rel.split("/")
    if any(p in _TEST_DIRS for p in parts[:-1]):
        return True
    base = parts[-1].lower()
    if base.startswith("test_") and base.endswith(".py") or base.endswith(_TEST_SUFFIXES):
        return True
    stem = base.rsplit(".", 1)[0]
    return stem.endswith((".test", ".spec"))  # diff.test.ts, api.spec.js


def _tests_sibling(rel: str, files: tuple[str, ...]) -> bool:
    """`scripts/test-search.sh` (or `test_search.sh`, `search-test.sh`, `search_test.sh`) beside `scripts/search.sh`:
    the test of a bundled script, which runs it; nothing runs the test."""
    folder, _, base = rel.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    low = stem.lower()
    for pre in ("test-", "test_"):
        if low.startswith(pre):
            target = stem[len(pre):]
            break
    else:
        for suf in ("-test", "_test"):
            if low.endswith(suf):
                target = stem[:-len(suf)]
                break
        else:
            return False
    if not target:
        return False
    prefix = f"{folder}/{target}" if folder else target
    return any(f == f"{prefix}.{ext}" or f == prefix or f.startswith(prefix + ".") for f in files if f != rel)


TRIGGER_EVAL_CHARS = 4096  # characters of a JSON file looked at for a trigger test's key


def _trigger_evals(doc: SkillDocument, rel: str) -> bool:
    """A JSON file of trigger tests (skill-creator's format: `{"query": …, "should_trigger": true}` records): the
    maintainers test the description with it; the agent never reads it."""
    bf = read_bundled(doc, rel)
    return bf is not None and '"should_trigger"' in bf.text[:TRIGGER_EVAL_CHARS]


# "## Should activate" … "## Should NOT activate": the headings of a markdown file of trigger tests
_TRIGGER_HEADINGS = lazy_compile(r"^#{1,6}[ \t]+should[ \t]+(not[ \t]+)?(?:activate|trigger|fire|load)\b", re.I | re.M)


def _trigger_evals_md(doc: SkillDocument, rel: str) -> bool:
    """A markdown file of trigger tests: a "Should activate" and a "Should NOT activate" heading over lists of
    user prompts (`references/evals.md`): the maintainers' test of the description, as the JSON form."""
    bf = read_bundled(doc, rel)
    if bf is None:
        return False
    kinds = {m.group(1) is None for m in _TRIGGER_HEADINGS.finditer(bf.text, 0, TRIGGER_EVAL_CHARS)}
    return kinds == {True, False}


# "Expected behavior:" under each prompt of a markdown file of behaviour tests
_EXPECTED = lazy_compile(r"^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?expected[ \t]+(?:behaviou?r|results?|outcomes?|output)"
                         r"(?:\*\*)?[ \t]*:", re.I | re.M)
# its opening says so: "Use these prompts to manually exercise routing and behavior after changing this Skill"
_TESTS_SKILL = lazy_compile(r"\b(?:test|exercise|evaluate|regression)\w*\b[^\n]{0,120}\bth(?:is|e)[ \t]+skill\b", re.I)
BEHAVIOR_LEDE_LINES = 8  # lines of the file's top that may say it tests the skill


def _behavior_tests_md(doc: SkillDocument, rel: str) -> bool:
    """A markdown file of behaviour tests: its top says it tests or exercises the skill, and two or more prompts
    carry an "Expected behavior:" label (`references/behavior-prompts.md`): the maintainers' regression check
    after a change, not the agent's reading."""
    bf = read_bundled(doc, rel)
    if bf is None:
        return False
    top = "\n".join(bf.text[:TRIGGER_EVAL_CHARS].splitlines()[:BEHAVIOR_LEDE_LINES])
    if _TESTS_SKILL.search(top) is None:
        return False
    hits = _EXPECTED.finditer(bf.text, 0, 4 * TRIGGER_EVAL_CHARS)
    return next(hits, None) is not None and next(hits, None) is not None  # two labels or more


def _without_package_imports(doc: SkillDocument, out: list[str]) -> list[str]:
    """Without the Python modules of a folder that the shipping package's own code imports (devex's CLI:
    `from devex.commands.pr.scripts import lint`; SKILL.md runs `devex pr …`), and the modules of that folder they
    import in turn: its commands run them. A module nothing imports is still reported."""
    from ...package_code import package_imports  # (asked only for files left unreached)

    used: dict[str, set[str]] = {}
    kept = []
    for f in out:
        top, _, rest = f.partition("/")
        if f.endswith(".py") and rest and "/" not in rest:
            if top not in used:
                used[top] = _closure(doc, top, set(package_imports(doc, top)))
            if rest[:-3] in used[top]:
                continue
        kept.append(f)
    return kept


def _closure(doc: SkillDocument, top: str, used: set[str]) -> set[str]:
    """`used` and the modules of `top/` they import (`from .x import`, `from <package>.scripts import x`)."""
    if not used or doc.skill_dir is None:
        return used
    from ...bundle import read_bundled
    from ...package_code import import_names

    todo = list(used)
    while todo and len(used) < CLOSURE_MODULES:
        bf = read_bundled(doc, f"{top}/{todo.pop()}.py")
        if bf is None:
            continue
        new: set[str] = set()
        for line in bf.text.split("\n"):
            s = line.strip()
            if s.startswith("from .") and " import " in s:  # `from ._deploy import run`, `from . import _journal`
                mod = s[len("from ."):s.find(" import ")].strip()
                new |= {mod} if mod else import_names(s.split(" import ", 1)[1])
            elif s.startswith(("from ", "import ")) and f".{top}" in s:  # `from devex.commands.pr.scripts import x`
                pkg = s.split()[1]
                if pkg.endswith(f".{top}") and " import " in s:
                    new |= import_names(s.split(" import ", 1)[1])
                elif f".{top}." in pkg:
                    new.add(pkg.split(f".{top}.", 1)[1].split(".", 1)[0])
            elif f".{top}." in s:  # a module run by its dotted name: `"devex.commands.pr.scripts._await_worker"`
                new |= _quoted_modules(s, top)
        for m in new - used:
            if m.isidentifier():
                used.add(m)
                todo.append(m)
    return used


CLOSURE_MODULES = 200  # modules of a folder followed through their imports


def _quoted_modules(line: str, top: str) -> set[str]:
    """The modules of `top` named in a quoted dotted path on `line` (`"pkg.scripts._worker"`, `-m pkg.scripts.x`)."""
    out = set()
    for m in _DOTTED_QUOTED.finditer(line):
        path = m.group(1) or m.group(2)
        if f".{top}." in f".{path}":
            out.add(f".{path}".split(f".{top}.", 1)[1].split(".", 1)[0])
    return out


_DOTTED_QUOTED = lazy_compile(r"[\"']([A-Za-z_][\w.]{0,200})[\"']|-m\s+([A-Za-z_][\w.]{0,200})")


def unreferenced(doc: SkillDocument) -> list[str]:
    """Bundled files under references/ and scripts/ that SKILL.md does not reach (sorted)."""
    if doc.files.root is None or doc.files.truncated or doc.binary or doc.too_large:
        return []
    targets = []
    hermes: bool | None = None
    for f in doc.files.files:
        if not f.startswith(("references/", "scripts/")):
            continue
        if f.count("/") == 1 and f.endswith(_HERMES_LISTED):
            if hermes is None:
                hermes = skill_dialect(doc.frontmatter.data, doc.text) == HERMES
            listed = f.endswith(".md") if f.startswith("references/") else not f.endswith(".md")
            if hermes and listed:
                continue  # Hermes Agent's skill_view lists it beside SKILL.md: the agent sees it
        base = f.rsplit("/", 1)[-1]
        if base.startswith(".") or base in _IGNORED_NAMES or base.endswith((".pyc", ".pyo", _LOCK_SUFFIX)) \
                or is_test_file(f):
            continue
        if (base.lower().startswith("test") or "test." in base.lower()) and _tests_sibling(f, doc.files.files):
            continue
        if base.rsplit(".", 1)[0].lower().replace("_", "-") in _MAINTAINERS_LOGS:
            continue  # `references/evolution-log.md`: the maintainers' record of changes, not the agent's reading
        if base.startswith("_") and base.endswith(".md") and not base.startswith("__"):
            continue  # `references/_MAPPING.md`: an underscore marks a file about the folder (a deployer's note, an
            # index kept for maintainers), not one of its documents
        if base.endswith(".json") and _trigger_evals(doc, f):
            continue  # `references/eval-prompts.json`: the maintainers' trigger tests (`query`, `should_trigger`)
        targets.append(f)
    if not targets or sample_skill(doc):
        return []  # (a fixture's files are its tests' data)
    r = reach(doc)
    out = r.unreached(targets)
    if not r.complete:
        return []  # too many files to follow: not sure, say nothing
    if out:
        out = _without_self_checks(doc, out)
    if out:
        out = _without_dev_commands(doc, out)
    if out:
        out = _without_package_imports(doc, out)
    if out and any(_top_reference(f) for f in out):
        from ...package_code import package_globs_references  # (asked only for an unreached reference file)

        if package_globs_references(doc):  # html-gen's loader appends every `references/*.md` after SKILL.md
            out = [f for f in out if not _top_reference(f)]
    if out:  # (after the walk: only the few unreached files are read)
        out = [f for f in out if not _deprecated_script(doc, f) and not (f.endswith(".md") and (
            _trigger_evals_md(doc, f) or _behavior_tests_md(doc, f) or _provenance_record(doc, f)))]
    if out and doc.skill_dir is not None:
        siblings: list[str] | None = None
        kept = []
        for f in out:
            if f.endswith(_DATA_SUFFIXES) or _program_less_module(doc, f):
                if siblings is None:
                    siblings = sibling_skills(doc, SIBLINGS_LOOKED)
                if _most_hold(doc, siblings, f):
                    continue
            kept.append(f)
        out = kept
        if out:
            out = _without_sibling_links(doc, siblings if siblings is not None else sibling_skills(doc, SIBLINGS_LOOKED), out)
        if out and "make " in doc.text:
            out = _without_build_paths(doc, out)
    return out


def _top_reference(rel: str) -> bool:
    """A markdown file right in `references/` (what a loader's `references/*.md` glob gathers)."""
    return rel.startswith("references/") and rel.endswith(".md") and rel.count("/") == 1


_BUILD_FILES = ("Makefile", "makefile", "GNUmakefile")


def _without_build_paths(doc: SkillDocument, out: list[str]) -> list[str]:
    """`out` without the files that the Makefile of the project holding the skill in its agent folder
    (`<project>/.agents/skills/<name>/`) names by their path from the project, or names a folder of
    (`semgrep --config .agents/skills/workflows/scripts/linting/rules/`), when SKILL.md runs `make`: the build
    uses them."""
    skill = doc.skill_dir
    agent = skill.parent.parent
    if skill.parent.name != "skills" or not agent.name.startswith("."):
        return out
    project = agent.parent
    texts = [text_recorded(doc, os.path.join(project, b)) for b in _BUILD_FILES]
    texts = [t for t in texts if t]
    if not texts:
        return out
    base = f"{agent.name}/skills/{skill.name}/"

    def used(rel: str) -> bool:
        parts = rel.split("/")
        heads = [base + rel] + [base + "/".join(parts[:k]) for k in range(1, len(parts))]
        return any(_names_whole(t, h) for t in texts for h in heads)

    return [f for f in out if not used(f)]


def _names_whole(text: str, path: str) -> bool:
    """`text` names `path` whole: a file or a folder (with or without its closing slash), not the start of a longer
    path (`…/scripts/linting/rules/io.yaml` names no `…/scripts/` folder)."""
    i = text.find(path)
    while i >= 0:
        j = i + len(path)
        nxt, after = text[j:j + 1], text[j + 1:j + 2]
        if not nxt or not (nxt.isalnum() or nxt in "._-/") or (nxt == "/" and (not after or after.isspace()
                                                                              or after in "\"'`);")):
            return True
        i = text.find(path, j)
    return False


def _without_sibling_links(doc: SkillDocument, siblings: list[str], out: list[str]) -> list[str]:
    """`out` without the files a sibling skill's SKILL.md names by their path from it
    (`../standards/references/writing-concise.md`): a file the skills of a plugin share, in use."""
    name = doc.skill_dir.name
    texts = [text_recorded(doc, f + "SKILL.md") for f in siblings]
    return [f for f in out if not any(f"../{name}/{f}" in t for t in texts)]


# a maintainers' check of the skill package itself: `scripts/validate.sh`, `scripts/check-snippets.mjs`,
# `scripts/lint_skill.py` that reads SKILL.md or the references/ folder as data
_SELF_CHECK_STEMS = ("validate", "check", "lint", "verify", "selftest", "self-test",
                     "run-regression", "run-tests", "regression")  # (a runner of the package's own tests)
_SELF_CHECK_READS = lazy_compile(r"SKILL\.md|[\"'/]references[\"'/]")


def _without_self_checks(doc: SkillDocument, out: list[str]) -> list[str]:
    """`out` without the maintainers' self-checks among them (a script under `scripts/` named `validate…`,
    `check…`, `lint…`, `verify…` whose text reads SKILL.md or `references/`: it checks the package, as a unit
    test does), nor the config and data files such a check names (`scripts/tsconfig.snippets.json`), nor a
    script it runs as a program (`--runner "python mock_runner.py"`: its test double). A reference or a script
    such a check lists (`references/x.md`, `scripts/install.sh`) is still reported."""
    checks: dict[str, str] = {}  # rel -> its text
    for rel in out:
        stem = rel.rsplit("/", 1)[-1].split(".", 1)[0].lower().replace("_", "-")
        if rel.startswith("scripts/") and stem.startswith(_SELF_CHECK_STEMS):
            bf = read_bundled(doc, rel)
            if bf is not None and _SELF_CHECK_READS.search(bf.text[:HEAD_CHARS]) is not None:
                checks[rel] = bf.text[:HEAD_CHARS]
    if not checks:
        return out
    return [f for f in out if f not in checks
            and (not f.endswith(_CONFIG_SUFFIXES) or not any(f.rsplit("/", 1)[-1] in t for t in checks.values()))
            and not (f.startswith("scripts/") and any(_runs(t, f.rsplit("/", 1)[-1]) for t in checks.values()))]


# a labelled field of where the skill came from: "- Source repository: `https://github.com/…`", "Source commit: …",
# "**Upstream commit**: …" (an import pipeline's record, by whatever name it is kept)
_SOURCE_FIELD = lazy_compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:source|upstream|origin(?:al)?|imported\s+from)[ \t]+"
                             r"(?:repo(?:sitory)?|commit|branch|url|path|skill\s+path)(?:\*\*|__)?[ \t]*(?:\*\*|__)?:", re.I | re.M)
SOURCE_FIELDS = 2  # such fields in the head of a file that make it a provenance record
PROVENANCE_HEAD = 1200  # characters of the file looked at


def _provenance_record(doc: SkillDocument, rel: str) -> bool:
    """A markdown file whose head holds SOURCE_FIELDS or more labelled source fields (repository, commit, branch, path:
    `references/omni-import-source-summary.md`): the record of where the skill was imported from, kept for its
    maintainers as `provenance.md` is (_MAINTAINERS_LOGS), not reading for the agent."""
    bf = read_bundled(doc, rel)
    if bf is None:
        return False
    head = bf.text[:PROVENANCE_HEAD]
    return sum(1 for _ in _SOURCE_FIELD.finditer(head)) >= SOURCE_FIELDS


# a script whose opening comment or docstring calls it deprecated: "Deprecated checkout-local shim for …"
_DEPRECATED_HEAD = lazy_compile(r"\A(?:#![^\n]*\n)?(?:\s*(?:#|//)[^\n]*\n){0,3}?\s*(?:[rbu]?(?:\"\"\"|\'\'\')|#|//|/\*+)\s*"
                                r"(?:\[?deprecated\b|legacy\s+shim\b"
                                # "Compatibility wrapper for `fengchao.py capture`": a shim kept for old invocations
                                r"|(?:backwards?[\s-]+)?compat(?:ibility)?\s+(?:wrapper|shim|alias|entry\s?point|launcher|stub)\b)", re.I)


# a line of a script's head that calls it a placeholder or stub ("Placeholder — wired up in a follow-up PR"), or a
# docstring opening "Future helper:": code not written yet
_PLACEHOLDER_HEAD = lazy_compile(r"^[ \t]*(?:#+|//|[rbu]?\"\"\"|[rbu]?\'\'\')?[ \t]*(?:placeholder|stub)\b(?![(_.=])"
                                 r"|^[ \t]*(?:#+|//|[rbu]?\"\"\"|[rbu]?\'\'\')?[ \t]*future\s+helper\b", re.I | re.M)


def _deprecated_script(doc: SkillDocument, rel: str) -> bool:
    """A script under `scripts/` whose opening docstring or comment says it is deprecated (a shim kept for old
    invocations) or a placeholder not written yet: SKILL.md has no reason to send the agent to it."""
    if not rel.startswith("scripts/"):
        return False
    bf = read_bundled(doc, rel)
    return bf is not None and (_DEPRECATED_HEAD.match(bf.text[:600]) is not None
                               or _PLACEHOLDER_HEAD.search(bf.text[:600]) is not None)


_PROJECT_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg", "package.json")
_DEV_DOCS = ("README.md", "CONTRIBUTING.md", "DEVELOPMENT.md")


def _without_dev_commands(doc: SkillDocument, out: list[str]) -> list[str]:
    """`out` without the scripts a skill that is also a project's root (`pyproject.toml`, `package.json` beside
    SKILL.md) documents as commands in its README or CONTRIBUTING (`python scripts/build_bundles.py`): the
    maintainers' build and release steps, for people, which SKILL.md has no reason to name."""
    if not any(doc.files.exists(m) for m in _PROJECT_MANIFESTS):
        return out
    docs = [bf.text for bf in (read_bundled(doc, d) for d in _DEV_DOCS if doc.files.exists(d)) if bf is not None]
    if not docs:
        return out
    return [f for f in out if not (f.startswith("scripts/") and any(_runs(t, f) for t in docs))]  # (its path)


# an interpreter and a path up to the file's name (`--runner "python mock_runner.py"`, `node ./fake-api.js`)
_RUN_BEFORE = lazy_compile(r"\b(?:python3?|node|bash|sh|bun|tsx|deno\s+run)\s+[\w./-]{0,60}\Z")
RUN_LOOK = 80  # characters before a name looked at for the interpreter
RUNS_LOOKED = 20  # mentions of the name looked at


def _runs(text: str, base: str) -> bool:
    """The self-check's text runs the script `base` as a program (`python mock_runner.py`): the check's test
    double or fixture, not a tool of the skill's."""
    at = text.find(base)
    for _ in range(RUNS_LOOKED):
        if at < 0:
            return False
        if _RUN_BEFORE.search(text, max(0, at - RUN_LOOK), at) is not None:
            return True
        at = text.find(base, at + len(base))
    return False


_PROGRAM_MARKS = ("__main__", "argv", "argparse", "import click", "import typer", "process.argv", "require.main")
_DATA_SUFFIXES = (".json", ".yaml", ".yml", ".toml")  # a data file no one reads as prose: a tool's, when every skill has it
_CONFIG_SUFFIXES = _DATA_SUFFIXES + (".ini", ".cfg")  # what a self-check names for itself, not a script
CONVENTION_SIBLINGS = 2  # sibling skills holding the same path (a scripts/ module, a data file) that make it a convention
SIBLINGS_LOOKED = 50
HEAD_CHARS = 65536  # of a module, looked at for the marks of a program


def _program_less_module(doc: SkillDocument, rel: str) -> bool:
    """A module under `scripts/` that is not a program: no `#!` line, no `__main__` block, no command-line
    arguments read (in its first HEAD_CHARS characters)."""
    if not rel.startswith("scripts/") or not rel.endswith((".py", ".js", ".mjs", ".ts")):
        return False
    bf = read_bundled(doc, rel)  # (the editor's unsaved text too; cached for the document)
    if bf is None:
        return False
    head = bf.text[:HEAD_CHARS]
    return not head.startswith("#!") and not any(m in head for m in _PROGRAM_MARKS)


def _most_hold(doc: SkillDocument, siblings: list[str], rel: str) -> bool:
    """A host's convention: CONVENTION_SIBLINGS or more sibling skills, and at least half of them, hold `rel`
    at the same path (`scripts/handler.py` with the hook functions of every skill of a runtime that imports
    it by convention): the host loads it, SKILL.md need not name it. A runnable script copied into every
    skill (`scripts/validate.py` with `#!`) never gets here: the agent has to be told to run it."""
    found = sum(1 for f in siblings if exists_recorded(doc, f + rel))
    return found >= CONVENTION_SIBLINGS and 2 * found >= len(siblings)  # most siblings: not a coincidence


@rule("UNREFERENCED_FILE", family="links", severity=Severity.INFO, fix=FixAvailability.ALWAYS)
def unreferenced_file(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A file under `references/` or `scripts/` that SKILL.md never reaches, directly or indirectly.

    ## What it does
    Follows what SKILL.md points to, through every bundled text file it reaches, and reports the files
    under `references/` and `scripts/` that are never reached. A plugin that keeps a root skill beside its
    own `skills/<name>/SKILL.md` has those skills followed too (each runs its own
    `${CLAUDE_PLUGIN_ROOT}/scripts/x.py`). Counted as pointing to a file:
    a link, or its path anywhere in the text (prose, inline code, code blocks), also written
    `{baseDir}/…`, `${CLAUDE_PLUGIN_ROOT}/…`, `$SKILL_DIR/…` or from a plugin or repository root
    (a path that ends in the file's path); a bare file name (`fields.json`); a mention of a folder
    (`scripts/`, `scripts/validators`, `schemas/{name}.json`), which covers every file under it;
    `python -m scripts.tool`; a markdown file under `references/` (or `reference/`, `docs/`) named by its
    stem alone in SKILL.md or a reached markdown file, when the stem is a compound word of eight or more
    characters (`{cli} doc window/bulk-reader-brief`, a table row `llm-agent-nodes` beside
    `load_skill_resource("<resource>.md")`); an extension-less executable under `scripts/` or `bin/` (of four or more
    characters), or a script whose stem is a compound word of eight or more characters, run by that name in
    SKILL.md or a reached markdown file, first on a line or after a prompt, a backtick, `&&`, `;` or `|`, or from a
    `bin/` folder anywhere (`herder-fork --below` for `scripts/herder-fork`, `~/bin/run-scheduled-task` for
    `scripts/run-scheduled-task.sh`; not `name: herder-fork` or a `# herder-fork` title); a script's compound stem
    (eight or more characters) named anywhere in such a file, `-` and `_` alike, unless it is the skill's own name
    ("`test-healer` is disabled for now", `hybris exec parse-java-class` for `scripts/parse_java_class.py`); a script directly under `scripts/`
    whose stem (four or more characters) is a whole code span on a line that speaks of a script (`` `script_name`:
    `whoami` `` for `scripts/whoami.py`, as Datalayer's `run_skill_script` takes it; not "the `whoami` endpoint");
    the entry module (`cli.py`, `__main__.py`, `main.py`) of a
    `scripts/` folder that is an importable Python package (`__init__.py`) when SKILL.md runs a command
    named like the skill (`uvx schliff score …`: the wheel's console script runs it); in a reached script, Python imports (`import x`, `from pkg import y`,
    `from .mod import z`; a package covers its folder), JS `require('./z')` and `import … from './z'`,
    shell `source lib.sh`, and any quoted name of a bundled file or folder (`open("templates/x.html")`,
    `Path(__file__).parent / "schemas"`); the skill's own config file at its root (`customize.toml`,
    `config.yaml`) when a reached file reads one of its top-level keys through a placeholder
    (`{workflow.review_layers}`, filled in by a renderer), and what that file names; a name written
    with another case (`FORMS.md` for `forms.md`, reported by `LINK_CASE_MISMATCH`); the commands and
    entry points of the skill's own `package.json` (`scripts`, `bin`, `main`: npm runs a `postinstall`
    hook), but not its `files` list (what is published, not what runs); and the files named in configs
    whose commands the host runs: `hooks/*.json` (Claude Code hooks), `.mcp.json`, a plugin manifest, a
    JSON / TOML / YAML file at the skill's root (`component.toml` with a cron command), each when it has a
    `command` / `cmd` / `args` / `run` key.
    Nor is a module under `scripts/` that is no program (no `#!` line, `__main__` block or argument parsing),
    or a data file (`.json`, `.yaml`, `.toml`), found at the same path in two or more sibling skills, and in
    at least half of them (`scripts/handler.py` with hook functions in every skill of a runtime that
    imports it by convention; `references/task-profile.json`, an evaluation tool's profile in every skill); nor a file a sibling skill's
    SKILL.md names by its path from there (`../standards/references/writing-concise.md`: the plugin's skills share
    it; the result cache reads that SKILL.md again to check it); nor, in a project's agent folder
    (`<project>/.agents/skills/<name>/`), a file the project's Makefile names by its path from the project, or a
    folder of (`semgrep --config .agents/skills/workflows/scripts/linting/rules/`), when SKILL.md runs `make`. A file mentioned only by files SKILL.md never reaches is
    still reported. In a skill written for Hermes Agent (`metadata.hermes`, Hermes's own keys), a `references/*.md`
    file and a `scripts/*.py|sh|bash|js` file directly in those folders are not reported: Hermes's `skill_view`
    lists them to the agent beside SKILL.md (its `linked_files`). The result does not depend on the order files are
    found in. Skills with more
    files than it can follow get no finding. `__init__.py`, `conftest.py`, `README.md`, `LICENSE`,
    `requirements.txt`, lock files (`uv.lock`, `package-lock.json`, `research.py.lock`: the package manager
    reads them), a changelog (`CHANGELOG.md`, `CHANGES.md`, `release-notes.md`, `evolution-log.md`,
    `version-history.md`, `eval-history.md`, `darwin-evaluation.md`: the maintainers' record), a markdown file whose
    name starts with one underscore (`references/_MAPPING.md`: a note about the folder, for whoever deploys or keeps
    it, not one of its documents), a note of where
    the skill came from (`provenance.md`, `attribution.md`, `credits.md`, `NOTICE`, `upstream.md`, `upstream-source.md`,
    or any markdown file whose head holds two or more labelled source fields: "Source repository: …", "Source
    commit: …", an import pipeline's `omni-import-source-summary.md`) or how it was made
    (`CREATION-LOG.md`), a JSON file of trigger tests (skill-creator's `{"query": …, "should_trigger": true}` records, the
    maintainers' test of the description; also a markdown file with a "Should activate" and a "Should NOT
    activate" / "Should not trigger" heading over the prompts, or a markdown file of behaviour tests whose top says
    it tests or exercises the skill and whose prompts carry "Expected behavior:" labels), dot-files and unit tests (`diff.test.ts`, `api.spec.js`, `test_x.py`,
    `x_test.py`, `x_test.go`, files under `tests/` or `__tests__/`, and `test-x.sh` / `x_test.sh` beside a bundled
    `x.sh`: tests import or run the code, nothing
    imports them, and SKILL.md has no reason to name them) are never reported; nor are the files of a sample skill
    as `MISSING_TRIGGER` defines one (under `tests/`, `fixtures/`, Unity's `Fixtures~/` …, its description or its
    body's opening lines calling it a fixture, example or test skill: "Fixture skill for computedHash tests."),
    which are its tests' data; nor are the maintainers'
    self-checks of the package (an unreached `scripts/validate.sh`, `check-snippets.mjs`, `lint_skill.py`:
    named `validate…`, `check…`, `lint…`, `verify…`, `run_regression…`, `run_tests…` and reading SKILL.md or
    `references/` as data, or naming them: "Contract tests (SKILL.md structure + reference files)"), the
    build and release scripts of a skill that is also a project's root (`pyproject.toml` or `package.json` beside
    SKILL.md) that its README or CONTRIBUTING gives as commands (`python scripts/build_bundles.py`), a script
    whose opening docstring or comment calls it deprecated ("Deprecated checkout-local shim for …") or a compatibility
    wrapper, shim, alias, entry point, launcher or stub ("Compatibility wrapper for `fengchao.py capture`", or whose
    head has a line opening "Placeholder", "Stub" or "Future helper": code not written yet,
    "Compatibility entrypoint for the interactive HTML exporter"), and the
    config and data files they name (`tsconfig.snippets.json`), nor a script such a check runs as a program
    (`--runner "python mock_runner.py"`: its test double); nor a Python module of a folder that the shipping
    package's own code, outside the skill, imports (`from devex.commands.pr.scripts import lint` for
    `devex/commands/pr/scripts/lint.py`: the package's command runs it), nor the modules of that folder it imports
    in turn or names by its dotted path (`"devex.commands.pr.scripts._await_worker"`, run with `python -m`); a
    module of that folder nothing imports is still reported; nor a markdown file right in `references/` when a
    SKILL.md loader of the shipping package gathers them all by a glob and reads each (`for r in
    skill_dir.glob('references/*.md'): print(r.read_text())`, after SKILL.md; also through a name bound to the folder:
    `refs_dir = skills_dir / "curator" / "references"`, then `refs_dir.glob("*.md")`; a glob that only counts them, one of
    another folder, or one in code that never names SKILL.md, is no such loader).
    A reference or a script such a check lists
    (`references/x.md`, `scripts/install.sh`) is still reported. The finding is placed on the first line of SKILL.md. A folder of three or
    more files that are all reported (none reached, none a README or test the rule passes over) is one finding on
    the outermost such folder
    ("`scripts/office/schemas/` (39 files, none reached)"), whose fix links the folder: a folder of dead weight is one
    thing to fix, not 39.

    ## Why is this bad?
    The agent only opens bundled files that SKILL.md points to. An unmentioned file is dead weight in
    the package, or a reference the author forgot to link.

    ## Example
    ```text
    SKILL.md links references/forms.md; references/api.md exists but is never mentioned
    ```

    Use instead:
    ```markdown
    For the low-level API see [references/api.md](references/api.md).
    ```

    ## Fix
    Appends a link to the file at the end of SKILL.md (unsafe: you may prefer to place it in the
    relevant section, or to delete the file).
    """
    files = unreferenced(doc)
    if not files:
        return
    last = len(doc.lines) - 1
    end = Pos(last, len(doc.lines[last]))
    sep = "\n" if doc.lines[last] == "" else "\n\n"
    for f, n in _grouped(doc, files):
        fix = Fix.unsafe(f"Link `{f}` at the end of SKILL.md", Edit(Range(end, end), f"{sep}- [{f}]({f})\n"))
        what = f"`{f}` ({n} files, none reached)" if n else f"`{f}`"
        yield ctx.finding(doc.index.trimmed_line_range(0), f"{what} is not referenced from SKILL.md", fix)


FOLDER_GROUP = 3  # files of a folder all reported unreferenced, reported once as that folder


def _folders(rel: str) -> Iterator[str]:
    """The folders holding `rel`, outermost first, each with its closing slash (`scripts/`, `scripts/office/`)."""
    i = rel.find("/")
    while i > 0:
        yield rel[:i + 1]
        i = rel.find("/", i + 1)


def _grouped(doc: SkillDocument, files: list[str]) -> list[tuple[str, int]]:
    """The findings to report, in path order: a folder (`scripts/office/`, with its number of files) when it holds
    FOLDER_GROUP or more files and every one of them is reported (SKILL.md reaches none, and none is a README, a
    test or another file the rule passes over), the outermost such folder; else each file (with 0). One pass over
    the bundled files per level, not one per folder."""
    count: dict[str, int] = {}
    for f in files:
        for d in _folders(f):
            count[d] = count.get(d, 0) + 1
    if max(count.values(), default=0) < FOLDER_GROUP:
        return [(f, 0) for f in files]
    held: dict[str, int] = {}  # every bundled file under each such folder
    for x in doc.files.files:
        for d in _folders(x):
            if d in count:
                held[d] = held.get(d, 0) + 1
    out: list[tuple[str, int]] = []
    for f in files:
        # the outermost folder of FOLDER_GROUP or more files, all of them reported (none reached or passed over)
        d = next((d for d in _folders(f) if count[d] >= FOLDER_GROUP and held.get(d) == count[d]), None)
        out.append((d, count[d]) if d is not None else (f, 0))
    return sorted(set(out))
