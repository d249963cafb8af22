"""MISSING_MENTIONED_FILE: a `references/…`, `scripts/…` or `assets/…` path in prose or code that does not exist."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from ... import rx
from ...document import SkillDocument
from ...findings import Finding, Severity
from ...lazy_re import lazy_compile
from ...measures import exists_recorded, resolve
from ...package_code import package_supplies
from ...rule import RuleContext, rule
from ._mentions import (
    block_names_project_paths,
    block_outputs,
    case_variant,
    clause_before,
    exists_near,
    is_example,
    mentioned_files,
    names_project_paths,
    supplied_files,
)

NEAR_LOOKED = 200  # files of that folder compared, at most
NEAR_RATIO = 0.9  # difflib ratio of two file names close enough for a "did you mean" (`tech-spec-templates.md`)


def _nearest(doc: SkillDocument, rel: str) -> str | None:
    """A bundled file in the same folder with the missing one's name before its extensions
    (`x-template.md` for `x-template.md.tmpl`), else with a close name, for the message."""
    import difflib  # (only when a finding is made: most runs make none)

    folder, _, name = rel.rpartition("/")
    prefix = folder + "/" if folder else ""
    name = name.lower()
    stem = name.split(".", 1)[0]
    best, best_ratio = None, NEAR_RATIO
    matcher = difflib.SequenceMatcher(None, "", name)  # (seq2 is the one it indexes)
    looked = 0
    for f in doc.files.files:
        other = f[len(prefix):].lower() if f.startswith(prefix) else "/"
        if "/" in other:
            continue
        looked += 1
        if looked > NEAR_LOOKED:
            break
        if other.split(".", 1)[0] == stem:
            return f
        matcher.set_seq1(other)
        if matcher.real_quick_ratio() > best_ratio and matcher.quick_ratio() > best_ratio:
            ratio = matcher.ratio()
            if ratio > best_ratio:
                best, best_ratio = f, ratio
    return best


def _rendered_later(doc: SkillDocument) -> bool:
    """A generator's source, not an installed skill: no frontmatter, a runtime's manifest beside it (its name
    and description: `skill.toml`), and that runtime's `{{…}}` template fields in the text (`{{skill:route}}`)."""
    from ...hosts import RUNTIME_MANIFESTS

    return not doc.frontmatter.present and "{{" in doc.text and "}}" in doc.text and any(
        doc.files.exists(f) for f in RUNTIME_MANIFESTS)


@rule("MISSING_MENTIONED_FILE", family="links", severity=Severity.WARNING)
def missing_mentioned_file(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A `references/…`, `scripts/…` or `assets/…` file named outside a link that does not exist.

    ## What it does
    Checks file paths under the standard bundle folders written in SKILL.md's prose
    (`See references/setup.md`), in inline code (`` run `scripts/fetch.py` ``), and as the file a
    command runs or reads in a fenced code block (`python scripts/fetch.py`, `bash scripts/x.sh`,
    `cat references/a.md`); a path ends at its extension when letters of another script are glued to it
    (`references/cross-validation.md의`: a Korean particle). When a file of the same folder has a close name, the message names it
    (`references/x-template.md.tmpl` does not exist; `references/x-template.md` does). Not checked: links (`DEAD_LINK`, `ORPHAN_REFERENCE`), folders
    (`scripts/`), names without an extension (nor with a `_` after their last dot: `scripts/review.QODO_TRIGGER`, a
    module's attribute), paths with placeholders (`references/<topic>.md`,
    `scripts/{name}.py`, `assets/*.png`, `...`, a generic name: `references/filename.md`,
    `scripts/your_script.py`, `references/xxx_en.md` with a language suffix), paths that continue a longer path or URL
    (`{baseDir}/scripts/x.py`, `https://…/scripts/x.py`), output arguments in inline code
    (`-o assets/out.png`, `> scripts/log.txt`), other lines of code blocks (examples of other
    projects), files a command block creates (the destination of `cp` / `mv` / `ln` / `install`, a
    `touch`ed or redirected file: `cp ~/.claude/skills/x/scripts/a.sh scripts/a.sh` then `chmod +x
    scripts/a.sh` names the user's copy), command lines that follow a `cd` into another folder in the
    same block (`cd ~/.claude/skills/other-skill`), and paths that exist relative to a folder above
    the skill up to the workspace root (a plugin or repository root), and paths the same sentence
    places in another project or skill ("`scripts/policy.json` in the arelay repo", "… from the upstream
    repository", "run `scripts/detect.py` from that skill directory", "`references/papers.bib` exists at
    the workspace root", "repo-level `references/papers.bib`"), wherever else the document names them, and paths given as examples: in a list item or paragraph that starts with
    `Example:` / `**Examples**:` / `e.g.` (a list item counts whole, wrapped lines included, and so does
    a list introduced by an `Example: … :` paragraph), in a sentence where `e.g.`, `for example`,
    `for instance` or `such as` comes before the path (an `(e.g. …)` parenthetical only up to its `)`),
    or right after `like` (skill-authoring guides name the files *the reader's* skill could bundle:
    "`**Examples**: references/finance.md` for financial schemas"). A path that exists with a different case is
    `LINK_CASE_MISMATCH`.
    A project skill (SKILL.md names paths of a host project that are not in the skill, such as
    `src/app.ts` or `.claude/agents/x.md`) runs from the repository root, so its `scripts/…` and
    `assets/…` paths are checked only when the skill bundles that folder itself; `references/…` paths
    are always checked. Nor are a skill's `scripts/…` and `assets/…` paths checked when SKILL.md names its own
    files by their path from the repository root (`.agents/skills/review/scripts/gather.sh`): a bare
    `scripts/check-coverage.sh` is then the project's. A command in a code block that also names such project paths, files or
    project-layout folders (`pytest tests/`, `kubectl apply -f k8s/`, `black src/`), runs in the user's
    project ("Common Commands"): its paths are not checked, even when the skill bundles `scripts/`.
    Link syntax shown in inline code (`` `[text](references/filename.md)` ``) names no file. Nor is a SKILL.md
    with no frontmatter checked whose metadata sits in a runtime's manifest beside it (`skill.toml`,
    `skill.yaml`) and whose text holds that runtime's `{{…}}` template fields (`invoke {{skill:route}}`): a
    generator's source, which builds the installed skill and the files it names.
    A path that exists in another skill the same line links to ("the [eliza-cloud](../eliza-cloud/SKILL.md)
    skill and its `references/payments.md`", "`plugin:other-skill` -> references/core.md", or "`ac1004-expert`
    → references/ap-management.md" where the document calls `ac1004-expert` a skill) is that skill's
    file; one the sentence says may not be there ("A local installation may also contain
    `references/x.local.md`", "if present", "optional"), or that it is still to come ("arrives in W4 as
    `scripts/swarm/boot.py`", "will be added", "planned", "not yet", "to be written"), is not required. A guide to writing skills (its name or
    description says so: `skill-creator`, "Create effective Codex skills …") names the files of the skill
    its reader writes ("Move detailed content to references/: … → `references/patterns.md`"): outside
    commands, its missing paths are not reported.
    A path a verb right before it makes ("Create or update `references/notes.md`", "Writes
    `assets/report.html`", "- Updated `references/summary.md`", "Output: `assets/chart.png`") or that the
    description names (the skill is about that file) is the skill's output, not its input (also in
    Chinese: "创建 `scripts/x.py`", and "write them to `scripts/config.json`"), at every mention of that path
    (a troubleshooting row "make sure `scripts/config.json` exists" means the file the skill makes); so is a
    script of which the skill's shipping package holds a source of the same name elsewhere (`scripts/audit_skill.py`
    and the package's `skill_quality_lab/audit_skill.py`: its installer puts or wraps it there; see `UNKNOWN_FIELD`
    for how the package is found); so is a
    path in a file tree whose root is a placeholder (`<skill-name>/` then `└── references/` and `source-map.md`:
    the layout of the skill this one creates); so is a path whose template the skill ships (`scripts/config.json` beside `scripts/config.json.example` or
    `config.example.json`, `.sample`, `.template`, `.tmpl`, `.dist`, `.default`: the user makes it, often with their
    own secrets); so is a
    path followed by "if it exists", "(if present)", "(optional)" (also at the start of the next line when the path
    ends its line: "load `references/overlay.md`" then "(if it exists) before …"), by a dash or colon and "optional" that
    qualifies the file ("— optional reference; not load-bearing", "- optional.", ": optional read"; not "— optional
    flags and their defaults", which says what the file holds),
    a path in "If `references/x.md` exists …",
    and one after "<name> Skill 的" or after another skill's kebab-case name ending in `-skill`
    ("詳細は run-build-skill `references/x.md`", "the deploy-skill's `scripts/x.sh`": that skill's file;
    this skill's own name or folder there does not count), or after a name and "skill's" ("see the vizflow skill's
    `references/catalog.md`"; not "this skill's"), or after a name in backticks, the word skill and an opening bracket
    ("The `flutter_scene-idioms` skill (`references/traps.md`)"), or after a kebab-case name in backticks with a
    possessive ("See `scan-pdf-to-print-html`'s `references/cover-workflow.md`"), or right before the path's own
    backticks ("a copy of the `gap-to-topic` `scripts/dossier_to_docx.js` generator"), or after a wiki link to
    another skill ("`[[instagram-reel-publish]] scripts/validate_reel.sh`"), or later on a line that starts with an
    agent's name in backticks ("`nanlabs-architect` agent — trade-off analysis and `references/PATTERNS.md`": that
    agent's file). A path the text says something
    else supplies ("Your pipeline supplies `references/API.md` next to this SKILL.md", "supplied by the
    build", "injected at publish time", or after the path: "… must include [`references/API.md`](references/API.md)
    (your publish/sync pipeline copies the API doc …)") is not required either, at every mention of it. A path that
    another skill of the same `skills/` folder (also `_skills/`, `.skills/`) holds at the same place (`scripts/detect_resources.py` of a sibling
    skill) may name that skill's file: whose it is, only the text can say, so it is not reported.

    ## Why is this bad?
    The agent is told to read or run a file that is not there: the step fails, or the agent improvises
    without the instructions the file was meant to hold.

    ## Example
    ```markdown
    Run `scripts/fetch.py` to download the data.   <!-- no scripts/fetch.py in the skill -->
    ```

    Use instead:
    ```markdown
    Run `scripts/fetch_data.py` to download the data.
    ```

    ## Fix
    Correct the path, or add the missing file to the skill. No automatic fix: which one is right
    cannot be told from the text.
    """
    if doc.skill_dir is None or doc.files.root is None or _rendered_later(doc):
        return
    seen: set[tuple[int, int]] = set()
    project: bool | None = None
    missing: dict[str, bool] = {}  # rel -> reported (decided once per path)
    created: frozenset[str] | None = None
    away: frozenset[int] = frozenset()
    guide: bool | None = None
    linked: dict[int, tuple[str, ...]] = {}
    others: dict = {}  # rel -> held by another skill; '\0folders' -> those skills' folders
    declared: frozenset[str] | None = None
    own: tuple[str, ...] | None = None  # this skill's name and folder, lowercased (found once)
    for m in mentioned_files(doc):
        key = (m.range.start.line, m.range.start.character)
        if key in seen:
            continue
        seen.add(key)
        if created is None:
            created, away = block_outputs(doc)
        if m.rel in created or (m.where == "command" and m.range.start.line in away):
            continue  # the user's copy made by `cp … scripts/x.sh`, or a path after `cd other-folder`
        hit = missing.get(m.rel)
        if hit is None:
            hit = missing[m.rel] = _missing(doc, m.rel)
        if not hit or _from_template(doc, m.rel) or m.rel in _placeholder_trees(doc):
            continue  # (`scripts/config.json` beside `config.json.example`: the user's copy, with secrets; `<skill-name>/…`)
        top = m.rel.split("/", 1)[0]
        if top != "references" and not doc.files.exists(top):
            if project is None:
                project = names_project_paths(doc)
            if project:
                continue  # a project skill's scripts/ or assets/ may be the repository's own
        if top != "references" and _names_itself_from_root(doc):
            continue  # the skill calls its own `.agents/skills/review/scripts/x.sh`: a bare `scripts/…` is the project's
        if m.where == "command" and block_names_project_paths(doc, m.range.start.line):
            continue  # "Common Commands" of the user's project: `pytest tests/`, `python scripts/train.py`
        if m.where != "command" and _elsewhere(doc.lines[m.range.end.line], m.range.end.character):
            continue  # "`scripts/policy.json` in the arelay repo": a file of another project
        if is_example(doc, m):
            continue  # "**Examples**: `references/finance.md` for financial schemas": the reader's future files
        ln = m.range.start.line
        if m.where != "command" and _other_skill_or_optional(doc.lines[ln], m.range.start.character, m.rel,
                                                             doc.lines[ln - 1] if ln else ""):
            continue  # "`plugin:other` -> references/x.md", "A local installation may also contain …"
        if m.where != "command" and own is None:
            own = _own_names(doc)
        if m.where != "command" and _arrow_to_named_skill(doc, doc.lines[ln], m.range.start.character, own):
            continue  # "See `ac1004-expert` → references/ap-management.md" where the text calls it a skill
        if m.where != "command" and _in_linked_skill(doc, linked, ln, m.rel):
            continue  # "the [eliza-cloud](../eliza-cloud/SKILL.md) skill and its `references/x.md`"
        if guide is None:
            guide = authoring_guide(doc)
        if guide:
            continue  # a guide to writing skills names the files of the skill its reader writes
        if m.where != "command" and (_created_here(doc.lines[ln], m.range.start.character)
                                     or _in_description(doc, m.rel)
                                     or _qualified(doc.lines[ln], m.range.start.character, m.range.end.character,
                                                   own or (), doc.lines[ln + 1] if ln + 1 < len(doc.lines) else "",
                                                   doc.lines[ln - 1] if ln else "")):
            continue  # "Create or update `references/conventions.md`": the file this skill makes
        if _in_other_skill(doc, ctx, m.rel, others):
            continue  # `references/dream-core.md` of a sibling skill: whose file it is, the text must say
        if declared is None:
            declared = _declared_elsewhere(doc)
        if m.rel in declared:
            continue  # another mention says whose it is ("exists at the workspace root"): so is this one
        if package_supplies(doc, m.rel):
            continue  # a source of that name elsewhere in the shipping package: its installer puts it there
        near = _nearest(doc, m.rel)
        yield ctx.finding(m.range, f"`{m.text}` does not exist in the skill folder"
                          + (f"; `{near}` does" if near else ""))


# a file tree's root that is a placeholder: `<skill-name>/`, `{name}/` (the folder the reader creates)
_PLACEHOLDER_ROOT = rx.compile(r"[ \t]*[<{][\w .-]{1,40}[>}]/[ \t]*")
_TREE_LEAD = "│├└─|`+- \t"  # what a drawn tree puts before a name
TREE_LINES = 200  # lines of such a tree read


def _names_itself_from_root(doc: SkillDocument) -> bool:
    """SKILL.md names its own files by their path from the repository root (`.agents/skills/review/scripts/x.sh`, the
    skill's parent folder and its own, then a file): it runs from the root, where a bare `scripts/…` is the
    project's. Looked for once per document (a substring test)."""
    memo = doc._resolved
    hit = memo.get(("names-itself-from-root",))
    if hit is None:
        d = doc.skill_dir
        hit = d is not None and d.parent.name != "" and f"/{d.parent.name}/{d.name}/" in doc.text
        memo[("names-itself-from-root",)] = hit
    return hit


def _placeholder_trees(doc: SkillDocument) -> frozenset[str]:
    """Paths under a file tree whose root is a placeholder (`<skill-name>/` then `├── references/` …): the layout of
    what the skill creates, not files of its own. Memoised per document."""
    memo = doc._resolved
    key = ("placeholder_trees",)
    if key in memo:
        return memo[key]
    out: set[str] = set()
    for b in doc.code_blocks:
        if "/" not in b.content or ("<" not in b.content and "{" not in b.content):
            continue
        lines = doc.lines[b.content_start_line:min(b.end_line, b.content_start_line + TREE_LINES, len(doc.lines))]
        first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
        if first is None or _PLACEHOLDER_ROOT.fullmatch(lines[first]) is None:
            continue
        stack: list[tuple[int, str]] = []  # (column of the name, folder path) of the folders above
        for ln in lines[first + 1:]:
            name = ln.lstrip(_TREE_LEAD)
            col = len(ln) - len(name)
            name = name.split("#", 1)[0].strip()
            if not name or " " in name:
                continue
            while stack and stack[-1][0] >= col:
                stack.pop()
            path = "/".join([s for _, s in stack] + [name.rstrip("/")])
            out.add(path)
            if name.endswith("/"):
                stack.append((col, name.rstrip("/")))
    memo[key] = frozenset(out)
    return memo[key]


_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".tmpl", ".dist", ".default")


def _from_template(doc: SkillDocument, rel: str) -> bool:
    """The skill ships the file's template (`config.json.example`, `config.example.json`, `.env.sample`): the
    user makes the file from it, often with their secrets, so it is missing on purpose."""
    folder, _, name = rel.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    names = [name + s for s in _TEMPLATE_SUFFIXES]
    if dot and stem:
        names += [f"{stem}{s}.{ext}" for s in _TEMPLATE_SUFFIXES]
    return any(doc.files.exists(f"{folder}/{n}" if folder else n) for n in names)


_ELSEWHERE = rx.compile(
    r"\s*[)`'\"]?[\s,:(]*(?:in|from|of|inside|within)\s+(?:"
    r"(?:the\s+|their\s+|its\s+|your\s+)?"
    r"(?:[`'\"]?[\w.@/-]{1,80}[`'\"]?\s+)?(?:repo|repository|project|package|codebase|monorepo|workspace)\b"
    # "… from that skill directory", "in the other skill's folder", "of another skill"
    r"|(?:that|another|the\s+other)\s+skill\b)"
    # "`references/papers.bib` exists at the workspace root"
    r"|\s*[)`'\"]?\s+(?:exists\s+|lives\s+|is\s+|sits\s+)?at\s+the\s+(?:[\w-]+\s+)?root\b", re.I)
# "repo-level `references/papers.bib`", "(workspace-wide `datasets/`, …)": said before the path
_SCOPE_BEFORE = rx.compile(r"\b(?:repo|repository|project|workspace)[- ](?:level|wide|root)\b[^.;]{0,60}$", re.I)


def _declared_elsewhere(doc: SkillDocument) -> frozenset[str]:
    """The paths one of whose prose mentions says they are another project's ("`references/papers.bib` exists
    at the workspace root", "repo-level `references/papers.bib`") or that the skill makes them ("write the keys
    into `scripts/config.json`") or that something else supplies them ("Your pipeline supplies
    `references/API.md` next to this SKILL.md"): every mention of them means that file ("make sure `scripts/config.json`
    exists" in a troubleshooting table)."""
    out = set()
    for m in mentioned_files(doc):
        if m.where == "command" or m.rel in out:
            continue
        line = doc.lines[m.range.start.line]
        start = m.range.start.character
        if _elsewhere(doc.lines[m.range.end.line], m.range.end.character) or _SCOPE_BEFORE.search(
                line, max(0, start - 120), start) or _created_here(line, start):
            out.add(m.rel)
    return frozenset(out) | supplied_files(doc)


def _elsewhere(line: str, end: int) -> bool:
    """The path is followed, in its sentence, by "in/from the <name> repo(sitory)/project/package"."""
    tail = line[end:end + 120]
    stop = min((i for i in (tail.find(". "), tail.find("; ")) if i >= 0), default=len(tail))
    return _ELSEWHERE.match(tail[:stop]) is not None


# "(`bitranox:meta-dream-tree` -> references/dream-passes.md)": another skill (plugin:skill) and an arrow,
# anywhere before the path on its line or the line before (the list item goes on about that skill)
_OTHER_SKILL_ARROW = rx.compile(r"`[\w.-]{1,80}:[\w.-]{1,80}`\s*(?:->|→|=>)")
# "`plugin:other-skill`'s references/x.md": the possessive, right before the path
_OTHER_SKILL_POSSESSIVE = rx.compile(r"`[\w.-]{1,80}:[\w.-]{1,80}`\s*['’]s\s*[`'\"]?$")
# "may also contain `references/x.local.md`", "if present", "(optional)": a file that may not exist
_OPTIONAL = rx.compile(r"\bmay\s+(?:also\s+)?(?:contain|include|have|hold)\b|\bif\s+(?:present|it\s+exists|available)\b"
                       r"|\boptional(?:ly)?\b"
                       # a file still to come: "… arrives in W4 as `scripts/swarm/boot.py`", "will be added as", "planned:"
                       r"|\barrives?\s+in\b|\bwill\s+(?:be\s+)?(?:add|creat|writ|land|ship)\w*|\bplanned\b|\bnot\s+yet\b"
                       r"|\bto\s+be\s+(?:added|created|written)\b", re.I)
def _other_skill_or_optional(line: str, col: int, rel: str, prev: str = "") -> bool:
    """The path is another skill's (`ns:skill` and an arrow before it on its line or the line before, or
    `ns:skill`'s right before it), or a file the sentence says may not be there (`may also contain`,
    `if present`, `optional`; a `*.local.*` name)."""
    before = line[max(0, col - 200):col]
    if _OTHER_SKILL_ARROW.search(before) or _OTHER_SKILL_POSSESSIVE.search(before) or (
            prev and _OTHER_SKILL_ARROW.search(prev[-300:])):
        return True
    if ".local." in rel.rsplit("/", 1)[-1]:
        return True
    return _OPTIONAL.search(clause_before(before)) is not None


# "See `ac1004-expert` → references/x.md": a backticked name and an arrow before the path
_NAME_ARROW = lazy_compile(r"`([\w.-]{1,80})`\s*(?:->|→|=>)")


def _arrow_to_named_skill(doc: SkillDocument, line: str, col: int, own: tuple[str, ...]) -> bool:
    """A backticked name and an arrow come before the path on its line, and the document calls that name a
    skill elsewhere ("see `ac1004-expert` skill for …"): the path is that skill's file. Not this skill's own
    name or folder (`own`, lowercased)."""
    before = line[max(0, col - 200):col]
    if "`" not in before or not ("→" in before or "->" in before or "=>" in before):
        return False
    for m in _NAME_ARROW.finditer(before):
        name = m.group(1)
        if name.lower() not in own and (f"{name}` skill" in doc.text or f"{name} skill" in doc.text):
            return True
    return False


# a link on the same line to another skill's SKILL.md or folder: `[eliza-cloud](../eliza-cloud/SKILL.md)`
_SKILL_LINK = lazy_compile(r"\]\((\.\./[^()\s]{1,200}?)(?:/SKILL\.md|/)?\)")


def _linked_skills(doc: SkillDocument, line: int) -> tuple[str, ...]:
    """The folders of other skills that this line or the one before links to (a wrapped sentence)."""
    out: list[str] = []
    for ln in (line - 1, line) if line else (line,):
        text = doc.lines[ln]
        if "](../" in text:
            out.extend(m.group(1) for m in _SKILL_LINK.finditer(text))
    return tuple(out)


def _in_linked_skill(doc: SkillDocument, linked: dict[int, tuple[str, ...]], line: int, rel: str) -> bool:
    """The path exists in another skill that the same or the previous line links to ("Use the [eliza-cloud]
    (../eliza-cloud/SKILL.md) skill and its `references/payments.md`"): that skill's file. `linked` keeps
    each line's answer (10^5 mentions on one line read it once)."""
    if doc.skill_dir is None:
        return False
    dirs = linked.get(line)
    if dirs is None:
        dirs = linked[line] = _linked_skills(doc, line)
    return any(os.path.exists(os.path.join(doc.skill_dir, d, rel)) for d in dirs)


# a description that says the skill is about writing skills: "Create effective Codex skills …", "Guide for
# authoring Agent Skills", "Use when writing a new skill"
_AUTHORING = rx.compile(r"\b(?:creat|writ|develop|author|build|scaffold|convert|adapt)\w*\s+"
                        r"(?:(?:a|an|new|effective|good|better|great|your|own|custom|agent|claude|codex|code|external"
                        r"|upstream|existing|third-party)\s+){0,3}"
                        r"skills?\b(?![-_.])|\bskill\s+(?:creation|development|authoring|writing)\b", re.I)


def authoring_guide(doc: SkillDocument) -> bool:
    """A skill about writing skills (skill-creator, skill-development, writing-skills, skill-converter: "Convert an
    external skill into the house format"): its name or
    description says so. Such a guide names `references/…`, `scripts/…` files of the skill its reader
    builds ("Move detailed content to references/: - Detailed patterns → `references/patterns.md`")."""
    fm = doc.frontmatter
    data = fm.data if fm.ok and isinstance(fm.data, dict) else {}
    name, desc = data.get("name"), data.get("description")
    if isinstance(name, str) and re.search(r"skill[s]?[-_ ]?(?:creat|develop|author|writ|build|convert)|"
                                           r"(?:creat|develop|author|writ|build|convert)\w*[-_ ]skill", name, re.I):
        return True
    return isinstance(desc, str) and _AUTHORING.search(desc[:2000]) is not None


# the path is what a verb right before it makes: "Create or update `references/x.md`", "writes
# scripts/out.json", "- Updated `references/x.md`", "Output: `assets/report.html`"
_CREATES = rx.compile(
    r"(?:\b(?:creat|generat|writ|sav|produc|output|updat|maintain|emit|export|overwrit|append)(?:e|es|ed|ing|s)?"
    r"(?:\s+(?:it|them|these|those)(?=\s+(?:to|into|in)\b))?"  # "write them to `scripts/config.json`"
    r"(?:\s+(?:to|into|in))?(?:\s+(?:the|a|an|its|your|this|that|new|updated|fresh|file))*"
    r"|\b(?:outputs?|creates?|writes?|produces?|generates?|updates?|artifacts?|deliverables?)\s*:)"
    r"[\s`'\"*_\[(]*$", re.I)
CREATES_REACH = 80  # characters before the path that are read (bounded: the pattern is anchored at the end)


# the same in Chinese: 创建 / 生成 / 新建 / 写入 / 输出 / 保存 right before the path ("创建 `scripts/x.py`")
_CREATES_ZH = ("创建", "生成", "新建", "写入", "输出", "保存", "产出")


def _created_here(line: str, col: int) -> bool:
    before = line[max(0, col - CREATES_REACH):col]
    if _CREATES.search(before) is not None:
        return True
    tail = before.rstrip(" `'\"*_[(（「")
    return tail.endswith(_CREATES_ZH)


# after the path, in its sentence: ", if it exists", "(if present)", "(optional)", "if available"
_OPTIONAL_AFTER = rx.compile(r"[\s`'\"*_]*[,(（]?\s*(?:if\s+(?:it\s+)?(?:exists|present|available)|optional)\b", re.I)
# after a dash or colon, "optional" that qualifies the file, not its content: "`references/a.md` — optional
# reference; not load-bearing", "- optional.", ": optional read" (not "— optional flags and their defaults")
# the next line, when the path ends its line: "load `references/overlay.md`\n(if it exists) …"
_OPTIONAL_NEXT = rx.compile(r"\s{0,3}[,(（]?\s{0,3}if\s+(?:it\s+)?(?:exists|present|available)\b|\s{0,3}[(（]\s{0,3}optional\b",
                            re.I)
_OPTIONAL_DASH = rx.compile(r"[`'\"*_]{0,3}\s{0,3}(?:—|–|--?|:)\s{0,3}[*_]{0,2}optional(?:ly)?[*_]{0,2}"
                            r"(?=\s{0,3}(?:[.,;:)]|$|(?:reference|read|file|doc|guide|resource|context|extra|background)"
                            r"\w*\b))", re.I)
# "X Skill 的 `scripts/x.py`" (Chinese possessive after a skill's name): that skill's file
_OTHER_SKILL_ZH = rx.compile(r"skill\s*的\s*[`'\"]?$", re.I)
# "詳細は run-build-skill `references/x.md`", "the deploy-skill's scripts/x.sh": a skill's kebab-case name
# (ending in -skill) right before the path; the group is the name, which must not be this skill's own
_NAMED_SKILL = lazy_compile(r"(?<![\w-])([a-z0-9]+(?:-[a-z0-9]+)*-skill)(?:['’]s)?\s*[`'\"]?$", re.I)


# "see the vizflow skill's `references/catalog.md`": a name, the word skill and a possessive right before the path
_NAME_SKILL_POSSESSIVE = lazy_compile(r"(?<![\w-])`?([\w.-]{1,80})`?\s+skill['’]s\s*[`'\"]?$", re.I)
# "The `flutter_scene-idioms` skill (`references/traps.md`)": a backticked name, the word skill and the path in brackets
_NAME_SKILL_PAREN = lazy_compile(r"`([\w.-]{1,80})`\s+skill\s{0,2}\(\s{0,2}[`'\"]?$", re.I)
_NOT_A_NAME = frozenset({"this", "the", "our", "your", "its", "their", "same", "parent", "main", "each", "every",
                         "own", "current", "a", "an", "any"})


# "`scan-pdf-to-print-html`'s `references/cover-workflow.md`": a kebab-case name in backticks and a possessive
# right before the path (another skill's file, when the name is not this skill's); or the name alone right before
# the path in backticks of its own ("a near-copy of the `gap-to-topic` `scripts/dossier_to_docx.js` generator")
_CODE_NAME_POSSESSIVE = lazy_compile(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`(?:\s?['’]s\s?[`'\"]?|\s`)$", re.I)
# "`nanlabs-architect` agent — trade-off analysis and `references/PATTERNS.md`": a backticked agent's name earlier in
# the line, then the path: that agent's file (its own `references/`)
_CODE_NAME_AGENT = lazy_compile(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`\s{0,3}(?:sub-?)?agent\b[^`\n]{0,80}$", re.I)
# "`[[instagram-reel-publish]] scripts/validate_reel.sh`": a wiki link to a skill right before the path
_WIKI_NAME = lazy_compile(r"\[\[([\w.-]{1,80})\]\]\s{0,3}[`'\"]?$")


def _qualified(line: str, start: int, end: int, own: tuple[str, ...] = (), following: str = "",
               previous: str = "") -> bool:
    """The path is said to be optional right after it (on the `following` line when the path ends its line), or is another skill's by a Chinese possessive or by
    another skill's name right before it (`deploy-skill's`, a kebab-case name in backticks with `'s`, or a
    wiki link `[[other-skill]]`; `own`
    holds this skill's name and folder, lowercased; a path that opens its line is read after the end of the
    `previous` one: "… of the `gap-to-topic`" then "`scripts/x.js` generator")."""
    before = line[max(0, start - 40):start]
    if previous and not before.strip(" \t`'\"") and start <= len(before):
        before = previous[max(0, len(previous.rstrip()) - 40):].rstrip() + " " + before.lstrip(" \t")
    if before.rstrip(" `'\"*_").lower().endswith("if") and "exist" in line[end:end + 60].lower():
        return True  # "If `references/backends.md` exists in the vault, load it"
    if (_OPTIONAL_AFTER.match(line, end, end + 60) is not None or _OPTIONAL_DASH.match(line, end, end + 60) is not None
            or _OTHER_SKILL_ZH.search(before) is not None):
        return True
    if following and not line[end:].strip(" `'\"*_") and _OPTIONAL_NEXT.match(following) is not None:
        return True  # "load `references/overlay.md`" and, on the next line, "(if it exists) before …"
    named = _NAMED_SKILL.search(line[max(0, start - 80):start]) if "skill" in before.lower() else None
    if named is None and ("skill's" in before or "skill’s" in before):  # "see the vizflow skill's `references/x.md`"
        named = _NAME_SKILL_POSSESSIVE.search(before)
        if named is not None and named.group(1).lower() in _NOT_A_NAME:
            named = None  # "this skill's `references/x.md`": its own
    if named is None and "(" in before and "skill" in before.lower():
        named = _NAME_SKILL_PAREN.search(before)  # "The `flutter_scene-idioms` skill (`references/traps.md`)"
    if named is None and "`" in before:
        named = _CODE_NAME_POSSESSIVE.search(before)  # "See `scan-pdf-to-print-html`'s `references/x.md`"
    if named is None and "]]" in before:
        named = _WIKI_NAME.search(before)  # "`[[instagram-reel-publish]] scripts/validate_reel.sh`"
    if named is None and "agent" in line[max(0, start - 120):start].lower():
        named = _CODE_NAME_AGENT.search(line[max(0, start - 120):start - 1])  # "`x-architect` agent — … and `references/…`"
    return named is not None and named.group(1).lower() not in own


def _own_names(doc: SkillDocument) -> tuple[str, ...]:
    """This skill's name and folder, lowercased, and the words of its title (the first heading, "# Platform": "the
    platform skill's `references/x.md`"): a path after them is this skill's own."""
    fm = doc.frontmatter
    name = fm.data.get("name") if fm.ok and isinstance(fm.data, dict) else None
    folder = os.path.basename(doc.skill_dir or "")
    title = doc.headings[0].text.lower().split()[:8] if doc.headings else []
    return tuple(x.lower() for x in (name, folder, *title) if isinstance(x, str) and x)


def _in_description(doc: SkillDocument, rel: str) -> bool:
    """The description names the path: the skill is about that file ("Create or update
    references/project-conventions.md"), which it makes in the user's project."""
    fm = doc.frontmatter
    desc = fm.data.get("description") if fm.ok and isinstance(fm.data, dict) else None
    return isinstance(desc, str) and rel in desc


OTHER_SKILLS_SCAN = 300  # skills of the same package looked in for a missing path (bounded)


def _in_other_skill(doc: SkillDocument, ctx: RuleContext, rel: str, memo: dict[str, bool]) -> bool:
    """Another skill of the same `skills/` folder (this skill's parent or grandparent: `skills/<name>/`,
    `skills/<category>/<name>/`) holds `rel` at the same place in its folder (skills of one package share names like
    `references/dream-core.md`, `scripts/detect_resources.py`): the path may name that skill's file, so it
    is not reported as missing from this one."""
    hit = memo.get(rel)
    if hit is None:
        folders = memo.get("\0folders")
        if folders is None:
            folders = memo["\0folders"] = _package_skills(doc, ctx)
        hit = memo[rel] = any(exists_recorded(doc, folder + rel) for folder in folders)
    return hit


def _package_skills(doc: SkillDocument, ctx: RuleContext) -> tuple:
    ws = ctx.workspace
    own = doc.skill_dir
    if ws is None or own is None:
        return ()
    own = Path(os.path.abspath(own))
    top = next((p for p in own.parents[:2] if p.name.lstrip("._").lower() == "skills"), None)  # also `_skills/`
    if top is None:
        return ()
    mine = str(own) + os.sep
    out = [f for f in ws.folders_under(str(top) + os.sep) if f != mine]
    return tuple(out[:OTHER_SKILLS_SCAN])


def _missing(doc: SkillDocument, rel: str) -> bool:
    if resolve(doc, rel).exists is not False:
        return False
    return case_variant(doc, rel) is None and not exists_near(doc, rel)
