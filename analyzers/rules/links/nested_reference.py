"""NESTED_REFERENCE: SKILL.md links to a file whose own links lead to files SKILL.md never names."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections import Counter
from collections.abc import Iterator

from ... import rx
from ...bundle import MARKDOWN_SUFFIXES, read_bundled, suffix
from ...document import SkillDocument
from ...findings import Finding, Severity
from ...measures import link_path, normalize, resolve
from ...rule import RuleContext, rule
from ._classify import link_targets


def _folder_named(doc: SkillDocument, folder: str, memo: dict[str, bool]) -> bool:
    """SKILL.md names the file's folder as a whole (`syntax/*.md`, "the cards in `syntax/`"): it tells the
    agent every file there exists, as a folder mention does for UNREFERENCED_FILE."""
    if not folder:
        return False
    hit = memo.get(folder)
    if hit is None:
        pat = rx.compile(r"(?<![\w./-])" + re.escape(folder) + r"/(?:\*[\w.*-]*)?(?![\w.<{$\[-])")
        hit = memo[folder] = pat.search(doc.text) is not None
    return hit


def _glob_named(doc: SkillDocument, target: str, memo: dict[str, list[str]]) -> bool:
    """SKILL.md names the file by a pattern of its folder (`docs/KEEP-*.md` for docs/KEEP-PROMPT.md): it
    tells the agent that those files exist."""
    folder, base = posixpath.split(target)
    if not folder:
        return False
    globs = memo.get(folder)
    if globs is None:
        at = doc.text.find(folder + "/")
        globs = memo[folder] = [] if at < 0 else [m.group(1) for m in re.finditer(
            r"(?<![\w./-])" + re.escape(folder) + r"/([\w.-]{0,60}\*[\w.*-]{0,60})", doc.text)]
    return any(fnmatch.fnmatchcase(base, g) for g in globs)


def _named_by_base(doc: SkillDocument, target: str, bases: dict[str, int]) -> bool:
    """SKILL.md names the file by its name alone (a `docs/` tree diagram: `└── VOODOO_CONSTANTS.md`), and no
    other bundled file has that name (`bases`: how many bundled files have each name, counted once)."""
    base = posixpath.basename(target)
    if base not in doc.text:
        return False
    if not bases:
        bases.update(Counter(posixpath.basename(f) for f in doc.files.files))
    return bases.get(base, 0) == 1


def _index_of_linked(doc: SkillDocument, target: str, linked: dict[str, object]) -> bool:
    """The nested file is a README / INDEX whose links to the skill's files (any kind, back to SKILL.md
    aside) all lead to files SKILL.md links: it adds nothing the agent was not already sent to."""
    if posixpath.basename(target).lower() not in ("readme.md", "index.md"):
        return False
    bf = read_bundled(doc, target)
    if bf is None:
        return False
    folder = posixpath.dirname(target)
    outs = {normalize(p, folder) for p in (link_path(lk) for lk in bf.links) if p is not None}
    outs = {o for o in outs if o != "SKILL.md" and doc.files.exists(o)}
    return bool(outs) and all(o in linked for o in outs)


# legal and project boilerplate: written for people, not reference material for the agent
_BOILERPLATE = frozenset({"notice", "license", "licence", "copying", "authors", "credits", "changelog", "changes",
                          "history", "contributing", "code_of_conduct", "security"})


def _boilerplate(rel: str) -> bool:
    return posixpath.basename(rel).rsplit(".", 1)[0].lower().replace("-", "_") in _BOILERPLATE


# a language suffix on a file's stem: `report-contract.zh.md`, `SKILL.zh-CN.md`, `guide_ja.md`, `README-en.md`
_LANG_SUFFIX = rx.compile(r"[._-](?:zh|en|ja|ko|de|fr|es|pt|ru|it|vi|tr|ar|pl|nl|id|th|uk|cn|tw|hk|jp|kr)"
                          r"(?:[-_](?:cn|tw|hk|sg|hans|hant|br|pt|us|gb|mx))?$", re.I)


def _untranslated(rel: str) -> str | None:
    """The file a translation translates (`references/a.zh.md` -> `references/a.md`), or None."""
    stem, dot, ext = rel.rpartition(".")
    if not dot:
        return None
    m = _LANG_SUFFIX.search(stem)
    return f"{stem[:m.start()]}.{ext}" if m and m.start() > 0 and stem[m.start() - 1] != "/" else None


def _variant_skill(doc: SkillDocument, rel: str) -> bool:
    """`ts/skill.md` with a frontmatter: a nested skill's file in a case variant of SKILL.md, which discovery scores as
    that skill (`SKILL_FILE_NAME` reports the spelling); its links are its own business."""
    if "/" not in rel or posixpath.basename(rel).lower() != "skill.md":
        return False
    bf = read_bundled(doc, rel)
    return bf is not None and bf.text.lstrip("\ufeff").startswith("---")


SHORT_LINES = 100  # a file an agent's `head -100` preview reads whole
_LOAD_VERBS = ("load ", "read ", "open ")


def _short_load(doc: SkillDocument, bf: object, link: object, target: str) -> bool:
    """The sentence that links the nested file tells the agent to read it ("One stem. Load [FORMAT.md](FORMAT.md) for
    its section and [EXPLANATION.md](EXPLANATION.md) for …"), and the file has at most 100 lines: the agent is sent
    there, and a `head -100` preview reads it whole, so the extra level hides nothing."""
    line, col = link.full[0], link.full[1]  # type: ignore[attr-defined]
    lines = bf.lines  # type: ignore[attr-defined]
    if line >= len(lines):
        return False
    before = lines[line][:col]
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "), before.rfind("; "))
    sentence = before[cut + 2:] if cut >= 0 else before
    sentence = sentence.lstrip(" \t>-*+0123456789.)").lstrip("*_").lower()
    if not sentence.startswith(_LOAD_VERBS):
        return False
    nested = read_bundled(doc, target)
    return nested is not None and len(nested.lines) <= SHORT_LINES + 1 and (
        len(nested.lines) <= SHORT_LINES or not nested.lines[-1])


@rule("NESTED_REFERENCE", family="links", severity=Severity.INFO)
def nested_reference(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A file SKILL.md links to sends the agent on to further reference files (more than one level deep).

    ## What it does
    For each markdown file of the skill that SKILL.md links to (say `references/a.md`), reads that
    file's own markdown links (not those in its code) and collects the ones that lead to another
    markdown file of the skill (say `references/b.md`) that SKILL.md neither links to nor names
    anywhere in its text (by its path, or by its file name alone when no other bundled file has that
    name: a `docs/` tree diagram), or names its folder as a whole (`syntax/*.md`, "the cards in
    `syntax/`"; not a placeholder path such as `reference/<command>.md`, which names one file per command),
    or by a pattern its name matches (`docs/KEEP-*.md` for `docs/KEEP-NOW.md`). A `README.md` / `INDEX.md` whose links to the skill's files (scripts and
    data too; a link back to SKILL.md aside) all lead to files SKILL.md links is not counted either: it
    sends the agent nowhere new. Reports the link to `a.md` in SKILL.md, naming the nested files. Links
    to scripts, images and data, to SKILL.md, back to `a.md` itself, to files outside the skill, and
    to files that do not exist are not counted (the link rules report those), and neither are legal and
    project boilerplate (`NOTICE.md`, `LICENSE.md`, `CREDITS.md`, `CHANGELOG.md`, `CONTRIBUTING.md`,
    `SECURITY.md`, …), linked or linking: they are written for people, not read as references. Nor are
    translations: a link to `a.zh.md` (a language suffix: `.zh`, `_ja`, `-en`, `.zh-CN`, …) from `a.md` or
    from any file when SKILL.md links `a.md` (a language switch, `[中文](a.zh.md)`), or the links of
    `SKILL.zh.md` (SKILL.md itself in another language), or of a nested skill's `ts/skill.md` with a frontmatter
    (a case variant of SKILL.md, which discovery scores as that skill). Nor is a file of at most 100 lines that the
    sentence linking it tells the agent to read ("One stem. Load [FORMAT.md](FORMAT.md) for its section and
    [EXPLANATION.md](EXPLANATION.md) for its response type"): the agent is sent there, and a `head -100` preview
    reads it whole. A longer file, or a link in a sentence that does not ask for the read ("see
    [b.md](b.md) for details"), is still reported.

    ## Why is this bad?
    Anthropic's skill authoring guide asks to keep references one level deep from SKILL.md. An
    agent reads a file SKILL.md points to, but when that file points further it often previews the
    next file partially (`head`) or not at all, so the information in nested files is missed. A
    direct link from SKILL.md tells the agent the file exists and when it needs it.

    ## Example
    ```text
    SKILL.md              links to references/forms.md
    references/forms.md   links to references/field-types.md   (SKILL.md does not)
    ```

    Use instead:
    ```text
    SKILL.md              links to references/forms.md and references/field-types.md
    references/forms.md   may still link to references/field-types.md
    ```

    ## Fix
    Link the nested file from SKILL.md (with a line on when to read it), or merge it into the file
    that links to it.
    """
    targets = link_targets(doc)
    if not targets or doc.skill_dir is None:
        return
    linked: dict[str, object] = {}  # rel -> the first SKILL.md link to it
    for t in targets:
        res = resolve(doc, t.path)
        if res.inside_skill and res.exists and res.rel not in linked:
            linked[res.rel] = t
    folders: dict[str, bool] = {}
    globs: dict[str, list[str]] = {}
    bases: dict[str, int] = {}
    for rel, t in linked.items():
        if suffix(rel) not in MARKDOWN_SUFFIXES or rel == "SKILL.md" or doc.files.in_nested_skill(rel) \
                or _boilerplate(rel) or _untranslated(rel) == "SKILL.md" or _variant_skill(doc, rel):
            continue  # (a nested skill's files, its SKILL.md among them, are that skill's business)
        bf = read_bundled(doc, rel)
        if bf is None or not bf.links:
            continue  # (parsed once per file, shared with the bundled link checks)
        folder = posixpath.dirname(rel)
        nested: list[str] = []
        for link in bf.links:
            p = link_path(link)
            if p is None:
                continue
            target = normalize(p, folder)
            if (target in (rel, "SKILL.md", "") or target.startswith("../") or target == ".."
                    or suffix(target) not in MARKDOWN_SUFFIXES or target in linked or target in nested):
                continue
            if _boilerplate(target) or not doc.files.exists(target) or target in doc.text:
                continue  # missing (a link rule's business), or SKILL.md names it in prose or code
            if (original := _untranslated(target)) is not None and (original == rel or original in linked):
                continue  # `[中文](report-contract.zh.md)`: the same reference in another language
            if _named_by_base(doc, target, bases) or _index_of_linked(doc, target, linked) or _folder_named(
                    doc, posixpath.dirname(target), folders) or _glob_named(doc, target, globs):
                continue
            nested.append(target)
        if nested:  # (a file the agent is told to load is exempt wherever else the file links it)
            loaded = {normalize(lp, folder) for link in bf.links if (lp := link_path(link)) is not None
                      and normalize(lp, folder) in nested and _short_load(doc, bf, link, normalize(lp, folder))}
            nested = [n for n in nested if n not in loaded]
        if nested:
            shown = [f"`{n}`" for n in nested[:3]] + ([f"{len(nested) - 3} more"] if len(nested) > 3 else [])
            names = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            yield ctx.finding(t.range, f"`{rel}` links on to {names}, which SKILL.md does not link: keep"
                                       " references one level deep (link them from SKILL.md)")
