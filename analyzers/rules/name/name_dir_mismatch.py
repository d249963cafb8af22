"""NAME_DIR_MISMATCH: `name` differs from the skill's directory name."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ... import rx
from ...bundle import bundled_text_files
from ...document import Field, SkillDocument
from ...findings import Edit, Finding, Fix, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from ...workspace import package_data
from .._helpers import NAME_RE, folder_label, placeholder_name, runtime_id, runtime_record, slugify

# A folder named `_skill` or `.skill` is a source layout, not the folder an agent loads: a package keeps
# its skill there and its installer copies it to `<skills>/<name>/` (nshskill's `_skill/`).
_SOURCE_PREFIXES = ("_", ".")
_ROOT_MARKS = (".git", "package.json", "pyproject.toml")
# folders that hold copies of other repositories, each under its upstream name (`vendor/owner__repo/`), or
# retired copies of skills (`.archive/x-v2/`, `_archive/`, `deprecated/`): neither is a folder agents load
_VENDORED = frozenset({"vendor", "vendored", "third_party", "third-party", "thirdparty", "external", "externals",
                       "upstream", "submodules", "mirrors", "archive", "archived", "archives", "deprecated", "attic"})
# a GitHub owner (letters, digits, hyphens): `Dubibubii` of a copy kept as `Dubibubii_usage-limit-reducer/`
_OWNER = lazy_compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}")
_ORDER_PREFIX = rx.compile(r"\d{1,3}[-_.](.+)")  # `01-initialize-srs`: a number ordering the skills' folders
# a generic folder a package ships its one skill in (`assets/SKILL.md`, `payload/SKILL.md`), which its
# installer links or copies to `<skills>/<name>/`: the folder's name is the package's, not the skill's
CONTAINERS = frozenset({"assets", "payload", "template", "templates", "skill", "data", "home", "files",
                         "resources", "content", "static", "share", "src"})


def _root(folder: Path) -> bool:
    """A repository's or package's root folder."""
    return any((folder / m).exists() for m in _ROOT_MARKS)


def is_container(dirname: str) -> bool:
    """A generic container's name: one of CONTAINERS, or words of them and `skills` (`skill-assets`)."""
    low = dirname.lower()
    if low in CONTAINERS:
        return True
    words = low.replace("_", "-").split("-")
    return len(words) > 1 and all(w in CONTAINERS or w == "skills" for w in words)


def _owner_copy(dirname: str, name: str) -> bool:
    """`Dubibubii_usage-limit-reducer/` for `usage-limit-reducer`: a copy of another repository kept as
    `<owner>_<repo>` or `<owner>__<repo>`, or `<owner>--<name>` (`mattpocock--research/`: a double hyphen no valid
    name holds), where the part after the owner is the whole name."""
    if dirname.endswith("--" + name):
        return _OWNER.fullmatch(dirname[:-len(name) - 2]) is not None
    if not dirname.endswith("_" + name):
        return False
    owner = dirname[:-len(name) - 1]
    return _OWNER.fullmatch(owner[:-1] if owner.endswith("_") else owner) is not None


def _bundle_sub_skill(folder: Path, name: str) -> bool:
    """`.agents/skills/birdview/compatibility-audit/` for `birdview-compatibility`: a sub-skill of a bundle
    in a skills folder, its name namespaced with the bundle folder's (`<bundle>-…`). The bundle is no skill of
    its own (no SKILL.md: `scitex/general/` under `scitex/SKILL.md` is a section of that skill, and its
    `scitex-general` a real mismatch) unless it is a repository vendored whole (its root: `package.json`)."""
    bundle = folder.parent
    prefix = slugify(bundle.name)
    if not prefix or "skills" in prefix or not name.startswith(prefix + "-") or len(name) == len(prefix) + 1:
        return False
    if "skills" not in bundle.parent.name.lower():
        return False  # (`skills/<bundle>/<sub>/` only)
    return _root(bundle) or not ((bundle / "SKILL.md").exists() or (bundle / "skill.md").exists())


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_HANDLE_MARKS = "/$@"  # `/pdf`, `$pdf`, `@pdf`: a one-word name used as a command or handle
_QUOTES = "`'\""


def _uses(text: str, name: str) -> bool:
    """`name` stands in `text` as a whole token (`"qwen-web-researcher": {`, `$kit-audit`; not inside
    `qwen-web-researcher-pro`); a one-word name only as a command, handle or quoted key (`/pdf`, `"pdf"`), not
    as a word of prose or of a command line (`git commit`)."""
    compound = "-" in name
    i = text.find(name)
    while i >= 0:
        j = i + len(name)
        before = text[i - 1] if i else " "
        after = text[j] if j < len(text) else " "
        if before not in _WORD_CHARS and after not in _WORD_CHARS and (
                compound or before in _HANDLE_MARKS or (before in _QUOTES and after == before)):
            return True
        i = text.find(name, j)
    return False


_DATA_SUFFIXES = (".txt", ".csv", ".tsv", ".jsonl")  # data and plain notes: a name in them identifies nothing


def _name_used(doc: SkillDocument, fld: Field) -> str | None:
    """Where the skill's own text uses its current name besides `name:` (the description, the body, a bundled
    file that configures, documents or runs the skill, such as `agents/openai.yaml`): the file, or None.
    There the name is an identifier (a configuration key, an invocation handle), which a new name breaks.
    None when the skill bundles a file or folder of that name (`seekdb-docs/`): its uses may name that."""
    name = fld.value
    if doc.files.exists(name):
        return None
    lines = doc.lines
    skip = fld.value_range.start.line
    if _uses("\n".join(lines[:skip]), name) or _uses("\n".join(lines[skip + 1:]), name):
        return "SKILL.md"
    manifest = doc.path.name if doc.path is not None else "SKILL.md"
    for bf in bundled_text_files(doc):
        if bf.rel != manifest and not bf.rel.lower().endswith(_DATA_SUFFIXES) and _uses(bf.text, name):
            return bf.rel
    return None


def _installed_as(lines: list[str], name: str) -> bool:
    """SKILL.md runs or reads its own files under an agent's skills folder, `.<agent>/skills/<name>/`
    (`bash ~/.claude/skills/overview/scripts/x.sh` in `org-overview/`): the skill is installed under its name,
    and the folder is the repository's source layout (an installer that strips a prefix). Not the folder named
    alone, nor a path relative to the repository (`skills/<name>/checklist.md`, which the folder's name breaks)."""
    mark = "skills/" + name + "/"
    for line in lines:
        i = line.find(mark)
        k, seen = -1, 0  # the last segment delimiter before `seen` (each stretch of the line searched once: linear)
        while i >= 0:
            j = i + len(mark)
            if i >= 3 and line[i - 1] == "/" and j < len(line) and line[j] not in " \t`'\")":
                k = max(k, *(line.rfind(c, seen, i - 1) for c in " /`'\"("))
                seen = i - 1
                if line[k + 1] == "." and i - 1 - k > 2:
                    return True  # `~/.claude/skills/overview/scripts/…`: a path inside the installed folder
            i = line.find(mark, j)
    return False


_SOURCE_SUFFIXES = (".ts", ".tsx", ".js", ".mjs", ".go", ".rs", ".java", ".kt", ".swift", ".rb", ".cs")
SOURCE_FILES = 3  # source files beside SKILL.md that make its folder a code module


def _source_module(folder) -> bool:
    """The folder holds SOURCE_FILES or more program sources (not scripts of the skill: those live in
    `scripts/`): a code module with a runbook, named after the code, not after the skill."""
    try:
        with os.scandir(folder) as it:
            n = 0
            for e in it:
                if e.name.endswith(_SOURCE_SUFFIXES) and e.is_file():
                    n += 1
                    if n >= SOURCE_FILES:
                        return True
    except OSError:
        pass
    return False


@rule("NAME_DIR_MISMATCH", family="name", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES)
def name_dir_mismatch(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`name` is not the name of the directory that holds SKILL.md.

    ## What it does
    Compares `name` with the skill directory's name, where that name is the skill's identity: in a
    skills folder (the parent or grandparent folder's name contains `skills`: `skills/<name>/`,
    `.claude/skills/<name>/`, `skills/<category>/<name>/`, `builder-skills/<name>/`; a grandparent that is a
    repository's root, `draco-skills/Ark Version/<name>/`, is not one). A runtime that
    identifies the skill by a slug id equal to the folder's name (`skill: ip-design`, `id: ip-design`)
    shows `name` as a label (`name: IP Design`): not reported, nor is a label with blanks beside such an id in
    any folder (`id: omics_skills_index`, `name: Omics Analysis Skills Index` in `omics/`: the runtime files the
    skill by its id or path, and a name with blanks is no folder's name; `name: ip-design-kit` beside
    `skill: ip-design` in another folder is reported); nor is a Craft Agents skill (it has
    `alwaysAllow:`, a key only Craft Agents defines), which that runtime files under its folder's slug and
    whose `name` is its display label, when the label is the folder's name written out
    (`name: "Memory Search"` in `memory-search/`), nor another runtime's library skill marked by `connectors:` or
    a `tools:` list of snake_case tool names (`tools: [search_tickets, web_search]`) under the same condition;
    nor is a frontmatter that is another
    runtime's record (no `description`, three or more keys no agent defines: `slug:`, `type:`, `install:`).
    Elsewhere (a
    package's `payload/`, `examples/`, a source tree, a repository root) the folder is a layout that
    installers copy to `<skills>/<name>/`, and nothing is reported. A directory whose name starts with `_` or `.` is
    skipped: it is a package's source layout (`mypkg/_skill/SKILL.md`), which an installer copies to
    a folder named after `name`, not a folder an agent loads skills from. So is a skill folder that is
    data of a Python package (its parent or grandparent has `__init__.py`, or it lies in
    a wheel's `*.data/data/`, or under an import package's underscored data folder within five folders:
    `<pkg>/_bundled/agent_scripts/skills/documents/<skill>/`, no agent's dot-folder such as `.claude/` between):
    the package's installer deploys it as `<skills>/<name>/`. Nor is a
    SKILL.md at a repository or package root (the folder holds `.git`, `package.json` or
    `pyproject.toml`): that folder is named by whoever clones or installs it, nor a package's generic
    container folder for its skill (`assets`, `payload`, `templates`, `skill`, `data`, `home`, …, or such
    words joined: `skill-assets`) right under such a root, one level below it, or inside a folder that
    has the skill's name (`orchestra/skill-assets/SKILL.md`), which its installer links as
    `<skills>/<name>/`; a container one level below a skills folder's entry (`skills/<entry>/files/SKILL.md`,
    a hub keeping each skill's files in its entry) is compared with the entry's name, nor a code
    module with a runbook (three or more `.ts` / `.js` / `.go` / … sources beside SKILL.md:
    `src/adapters/claude/SKILL.md`), nor a namespaced name whose part after the colon is the folder's (`forge:challenge`
    in `challenge/`, invoked as `/forge:challenge`, or in `forge-challenge/`, the colon written as a hyphen; NAME_FORMAT
    reports the colon), nor a name written as the skill's
    folder path (`android/accessibility` in `android/accessibility/`; NAME_FORMAT reports the slash), nor the folder's
    name followed by a line break (`name: |` then `claim-verifier`: NAME_FORMAT reports the break), nor a Python import package holding the skill (`fengchao_skill/` with an
    `__init__.py`, for a hyphenated `name` an import package cannot take: its installer copies it to
    `.claude/skills/<name>/`), nor a copy of another repository in a `vendor/`, `third_party/`,
    `external/`, `upstream/` or `submodules/` folder (`vendor/Dilaz__security-review-skill/`: named after
    its upstream), nor a sub-skill of a bundle whose name is namespaced with the bundle folder's
    (`.agents/skills/birdview/compatibility-audit/` for `name: birdview-compatibility`) when the bundle is
    no skill of its own (no SKILL.md) or is a repository vendored whole (`package.json`: its root); a
    section of a parent skill (`skills/scitex/general/` beside `scitex/SKILL.md`, `name: scitex-general`)
    is reported. Nor a copy named `<owner>_<name>`, `<owner>__<name>` or `<owner>--<name>` where what follows the owner is
    the whole name (`skills/Dubibubii_usage-limit-reducer/` for `name: usage-limit-reducer`), nor a
    retired copy in an `archive/`, `.archive/`, `_archive/`, `deprecated/` or `attic/` folder
    (`.archive/adjutant-add-phase-v2/`: no agent loads it), nor a skill whose SKILL.md uses a path inside
    an agent's skills folder, `.<agent>/skills/<name>/` (`bash ~/.claude/skills/overview/scripts/project-detect.sh`
    in `org-overview/`): it is installed under its name, and the folder is its repository's source layout (an
    installer stripping the `org-` prefix); the folder named alone (`~/.claude/skills/overview/`) is not such a
    use, nor a path relative to the repository (`skills/<name>/checklist.md`, which the folder's name breaks). Nor is a template's placeholder name (`name: "{skill-name}"`, a name with a placeholder token in it,
    `__SKILL_NAME__-deep-research`, `TEMPLATE-extractor`, or a sample value whose comment says to replace it:
    `name: my_skill  # {{PLACEHOLDER: replace with the skill name}}`), nor a folder that is the name after
    a number ordering the folders (`01-initialize-srs/` for `name: initialize-srs`), nor a Laravel package's skill in
    `resources/boost/skills/<folder>/`, which Laravel Boost's installer copies to the agent's skills folder under its
    `name`.

    ## Why is this bad?
    The spec requires them to be equal. Claude Code lists the skill under the directory name in some
    places and the `name` in others; installers and validators disagree on which one wins.

    ## Example
    ```markdown
    ---
    # in skills/pdf/SKILL.md
    name: pdf-tools
    ---
    ```

    Use instead:
    ```markdown
    ---
    # in skills/pdf-tools/SKILL.md
    name: pdf-tools
    ---
    ```

    ## Fix
    Sets `name` to the directory name when that is a valid name and no generic container's (unsafe: renaming may break
    references to the old name; renaming the directory is the other option). When the skill's own text uses
    the current (valid) name besides `name:` (a configuration key `"qwen-web-researcher": {`, an invocation
    handle `$kit-audit` in `agents/openai.yaml`, a command in the description or body; a one-word name only
    as a command or quoted key: `/pdf`, `"pdf"`, not `git commit`; not when the skill bundles a folder of
    that name, `seekdb-docs/`, which those uses may name; data files and plain notes, `.txt`, `.csv`, do not count), no fix is offered and the message says to rename the folder instead: a new
    name would break those uses.
    """
    fld = doc.frontmatter.get("name") if doc.frontmatter.ok else None
    if fld is None or not isinstance(fld.value, str) or not fld.value.strip() or doc.skill_dir is None:
        return
    dirname = doc.skill_dir.name
    if not dirname or fld.value == dirname or placeholder_name(fld.value, doc.lines[fld.value_range.start.line]):
        return
    if fld.value.rstrip("\r\n") == dirname:
        return  # `name: |` / `  claim-verifier`: the block keeps a line break, which NAME_FORMAT reports (and fixes)
    if ":" in fld.value and dirname in (fld.value.rsplit(":", 1)[1], fld.value.replace(":", "-")):
        return  # `forge:challenge` in `challenge/` (or in `forge-challenge/`, the colon written as a hyphen): a
        # namespace and the folder's name, invoked as `/forge:challenge` (NAME_FORMAT reports the colon)
    if "/" in fld.value and fld.value.strip().rsplit("/", 1)[1] == dirname \
            and doc.skill_dir.parent.name == fld.value.strip().rsplit("/", 2)[-2]:
        return  # `android/accessibility` in `android/accessibility/`: the folder's own path (NAME_FORMAT reports it)
    ordered = _ORDER_PREFIX.fullmatch(dirname)
    if ordered is not None and ordered.group(1) == fld.value:
        return  # `01-initialize-srs/` for `initialize-srs`: a number that orders the folders, chosen on purpose
    if "description" not in doc.frontmatter.data and runtime_record(doc.frontmatter.data):
        return  # `name: Notion CLI`, `slug: notion-cli`, `type:`, `install:` and no description: another runtime's record
    ident = runtime_id(doc.frontmatter.data)
    if ident is not None and (ident.rsplit("/", 1)[-1] == dirname or " " in fld.value.strip()):
        return  # `skill: ip-design` in `ip-design/` identifies it; `name: IP Design` is the runtime's label (a label
        # with blanks beside a runtime id is one wherever it sits: `id: omics_skills_index`, `name: Omics … Index`)
    if folder_label(doc.frontmatter.data, fld.value, dirname):
        return  # `alwaysAllow:`: Craft Agents files the skill under `memory-search/`; `Memory Search` is its label
    if dirname.startswith(_SOURCE_PREFIXES) or package_data(doc.skill_dir) or _root(doc.skill_dir):
        return  # a folder an installer deploys under `name`, or a root named by whoever clones or installs it
    if not any("skills" in p.name.lower() and not (i and _root(p))
               for i, p in enumerate(Path(os.path.abspath(doc.skill_dir)).parents[:2])):
        return  # not in a skills folder (`skills/`, `.claude/skills/`, `builder-skills/`): a layout installers rename
        # (a repository named `draco-skills-collection` two levels up is not one: `<repo>/Ark Version/cover/`)
    if doc.skill_dir.parent.name.lower().lstrip("._") in _VENDORED or _owner_copy(dirname, fld.value):
        return  # `vendor/Dilaz__security-review-skill/`: a copy of another repository, kept under that repository's
        # name (also `skills/Dubibubii_usage-limit-reducer/`: an owner's prefix, then the name);
        # `.archive/adjutant-add-phase-v2/`: a retired copy, which no agent loads
    if _installed_as(doc.lines, fld.value):
        return  # `bash ~/.claude/skills/overview/scripts/project-detect.sh` in `org-overview/`: installed as `name`
    if [p.name.lower() for p in doc.skill_dir.parents[:3]] == ["skills", "boost", "resources"]:
        return  # a Laravel package's `resources/boost/skills/<folder>/`: Boost's installer writes it to the agent's
        # skills folder under its `name` (SkillWriter: `skillsPath().'/'.$skill->name`)
    if _source_module(doc.skill_dir):
        return  # a runbook kept among the code it is about (`src/adapters/claude/SKILL.md`): not a skill folder
    if doc.files.exists("__init__.py") and "-" in fld.value and "-" not in dirname:
        return  # `fengchao_skill/` holding `__init__.py`: an import package (no `-` in its name), which the wheel's
        # installer copies to `.claude/skills/<name>/`
    container = is_container(dirname)
    if not container and _bundle_sub_skill(doc.skill_dir, fld.value):
        return  # `skills/birdview/compatibility-audit/` for `birdview-compatibility`: namespaced with its bundle
    if container and (doc.skill_dir.parent.name == fld.value or any(
            _root(anc) for anc in doc.skill_dir.parents[:2])):
        return  # `<package>/assets/SKILL.md`, `orchestra/skill-assets/SKILL.md`: a container, installed under `name`
    if container and "skills" in doc.skill_dir.parent.parent.name.lower():
        dirname = doc.skill_dir.parent.name  # `skills/<entry>/files/SKILL.md`: the entry is the skill's folder
        container = is_container(dirname)
    fix = None
    shown = fld.value.replace("\r", "\\r").replace("\n", "\\n")  # (`name: |` keeps a line break: shown, not printed)
    message = f"`name: {shown}` does not match the directory name `{dirname}`"
    if NAME_RE.match(dirname) and not container:  # (never `name: files`)
        used = _name_used(doc, fld) if NAME_RE.match(fld.value) else None
        if used is None:
            fix = Fix.unsafe(f"Set `name` to `{dirname}`", Edit(fld.value_range, dirname))
        else:  # `"qwen-web-researcher": {` in the body: a configuration key a new name would break
            message += f" (`{fld.value}` is also used in {used}: rename the folder to `{fld.value}` instead)"
    yield ctx.finding(fld.value_range, message, fix)
