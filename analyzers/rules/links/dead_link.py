"""DEAD_LINK: a relative link (or #anchor) that does not resolve."""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections.abc import Iterator

from ...document import Link, SkillDocument
from ...findings import Finding, Severity
from ...lazy_re import lazy_compile
from ...measures import completion, resolve
from ...package_code import package_installs
from ...rule import RuleContext, rule
from .._helpers import archived, fill_in_template
from ..code.nested_fence import bundled_example_lines, example_lines
from ._bundled import (
    anchor_message,
    anchor_missing,
    anchor_slugs,
    bad_anchors,
    bundled_link_targets,
    from_skill_root,
    resolve_bundled,
    swallowed_anchor,
    underscore_twin,
)
from ._classify import is_cross_ref, link_targets
from ._mentions import case_variant, shared_above


def _quoted_example(doc: SkillDocument, link: Link, target: str, memo: dict) -> bool:
    """`(e.g., "see [Some Title](#some-title)")` below an example block holding `### Some Title {#some-title}`:
    a link quoted in prose whose heading is in a code block shows how to cross-reference; it links nothing. So
    does a quoted link to an issue number (`"[Decide the refund ledger entry](#42)"`: how to cite an issue)."""
    line = link.range.start.line
    if not 0 <= line < len(doc.lines):
        return False
    if not target.lstrip("#").isdigit() and swallowed_anchor(doc, target, memo) is None:
        return False
    text = doc.lines[line]
    a, b = link.range.start.character, link.range.end.character if link.range.end.line == line else len(text)
    quotes = memo.get(("quotes", line))
    if quotes is None:  # the line's quote marks, found once (a line of many such links stays linear)
        quotes = memo[("quotes", line)] = tuple([i for i, c in enumerate(text) if c == q] for q in '"“”')
    straight, opening, closing = quotes
    k = bisect_left(straight, a)
    if k % 2 == 1 and bisect_left(straight, b) < len(straight):
        return True  # inside "…"
    o, c = bisect_left(opening, a), bisect_left(closing, a)
    return o > 0 and (c == 0 or closing[c - 1] < opening[o - 1]) and bisect_left(closing, b) < len(closing)


def _native_word(path: str) -> bool:
    """A bare word of a non-Latin script, no folder or extension (`[측정](영수증)`, "[measured](receipt)"): a
    notation the file uses for tagging, not a page (an existing `영수증.md` is found before this is asked)."""
    return "/" not in path and "." not in path and any(c.isalpha() and not c.isascii() for c in path) and all(
        not c.isascii() or c == " " for c in path)  # (`各自独立构思方案，并行`: CJK punctuation and blanks too)


def _is_dead(doc: SkillDocument, path: str) -> bool:
    res = resolve(doc, path)
    if res.exists is False and (completion(doc, res.rel) is not None or _native_word(path)):
        return False  # `docs/setup` for docs/setup.md: a docs site's page link; `(영수증)`: a tag, not a page
    if res.inside_skill:
        if res.rel.startswith("references/") or res.exists is not False:
            return False
        if path.lstrip("./").startswith(("skills/", "agents/")):
            return False  # repo-relative cross references: DEAD_CROSS_REF
        if shared_above(doc, res.rel):
            return False  # `assets/x.png` kept once above the skills, for all of them (merged in when installed)
        return case_variant(doc, res.rel) is None  # exists with another case: LINK_CASE_MISMATCH
    return (res.exists is False and not is_cross_ref(res.rel) and case_variant(doc, res.rel) is None
            and not underscore_twin(doc, res) and not package_installs(doc, path) and not _template_tree(doc, path))


TEMPLATE_FOLDERS = ("templates", "template")


def _template_tree(doc: SkillDocument, path: str) -> bool:
    """The skill is kept in a package's template of a project (`harnesskit/templates/skills/scan-facts/`), and the
    file the link climbs to is in that template at the project's top (`../../../ARCHITECTURE.md` is
    `templates/ARCHITECTURE.md`): the installer copies the template into the project and the skill into its
    `.agents/skills/`, where the link is alive."""
    if doc.skill_dir is None or not path.startswith("../"):
        return False
    parts = doc.skill_dir.parts
    t = max((i for i, part in enumerate(parts) if part in TEMPLATE_FOLDERS), default=-1)
    if t < 0:
        return False
    rest = path
    while rest.startswith("../"):
        rest = rest[3:]
    if not rest or rest.startswith(("/", "..")):
        return False
    return os.path.exists(os.path.join(*parts[:t + 1], rest))


@rule("DEAD_LINK", family="links", severity=Severity.WARNING)
def dead_link(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A relative link or image whose target does not exist, or a `#anchor` with no matching heading.

    ## What it does
    Resolves relative links and images against the skill directory (`scripts/`, `assets/`, other
    files) and `#anchor` links against the document's headings and the `id` / `name` of its HTML
    elements (`<a id="step-1"></a>`, which GitHub honours), and a heading's explicit id written at its end
    (`## Setup {#setup}`, `{: #setup}`: Pandoc, kramdown, MkDocs, Hugo); a heading written as a link is named by its
    visible text (`### [isNull](./expressions/isnull.md)` is `#isnull`). When the anchor's heading is written
    inside a fenced code block (a fence above it closed early or was left open, and the heading became code),
    the message names that line and where the block opens: the fences are what to fix. A link in quotes in prose whose
    heading is in a code block is an example of cross-referencing (`(e.g., "see [Some Title](#some-title)")` under a
    block showing `### Some Title {#some-title}`): not reported, nor is a quoted link to an issue number
    (`"[Decide the refund ledger entry](#42)"`, how to cite an issue; unquoted, `[x](#42)` is reported). Links
    into `references/` are
    `ORPHAN_REFERENCE`, links to other skills or agents are `DEAD_CROSS_REF`, links that leave the
    workspace are `LINK_ESCAPES_WORKSPACE`, and
    targets that exist with another case are `LINK_CASE_MISMATCH`. A skill kept in a package's template of a project
    (`templates/skills/<name>/`) may link up out of it to a file the template holds at its top
    (`../../../ARCHITECTURE.md`, found as `templates/ARCHITECTURE.md`): the installer copies the template into the
    project and the skill into `.agents/skills/`, where the link is alive; not reported.
    URLs, absolute paths, templated paths and targets opening with `:` (`[Convert]::ToBase64String(…)` at a
    paragraph's start reads as a link definition: PowerShell, not a path) are not checked, nor
    placeholder targets (`URL`, `path`, `target`, `<LINK_URL>`, `H-YYYYMMDD-###.md`, a file named `TODO`, `TBD` or
    `FIXME` in capitals: `references/TODO.md` in an unfilled scaffold), nor a bare word of a non-Latin script with no
    folder or extension that names no file (`[측정](영수증)`: a notation for tagging evidence, not a page).
    Links in an example that a nested fence cut open (a ```` ```markdown ```` SKILL.md template holding
    ```` ```bash ```` blocks, which CommonMark closes early) are `NESTED_FENCE`, not dead links, in
    SKILL.md and in bundled markdown alike (a skill-writing guide's example skills in `references/`).
    A link without an extension resolves to the page it names, as docs sites (Nextra, Docusaurus,
    VitePress, MkDocs) read it: `../features/lsp` is `lsp.md` or `lsp.mdx` (or a script's `.py`, `.sh`,
    `.js`…). A path with a folder (`assets/logo.png`) that exists relative to a folder above the skill,
    up to the workspace root, is a file kept once for several skills and merged in when they are
    installed: not reported. So are bare names (`direct.md`) that lie in the skill's parent folder when that
    folder is no skill and two or more of the skill's links name its files (`skills/*.md` merged with
    `skills/custom/` into one installed skill); one such name (`README.md` in `skills/`) is still reported.
    A package that ships its data with underscored folder names (`pkg/_skills/<name>/`, `pkg/_knowledge/`) and
    installs them side by side without the underscore: `../../knowledge/x.md` from such a skill is alive when
    `pkg/_knowledge/x.md` exists. Nor is a link out of the skill that its package's installer makes good: the code
    names the skill's install path (`".agents/skills/tact/SKILL.md"`) and the file the link reaches from there
    (`../../../.tact/AGENTS.md` is `".tact/AGENTS.md"`, a file it writes); a link to a file no source names is reported.

    Links in the skill's other markdown files (`references/*.md`, nested guides) are checked too,
    resolved from that file's folder, and `#anchors` against that file's headings; the finding is on
    that file. There a missing `references/…` target is a `DEAD_LINK` too, a path that exists when
    read from the skill folder (`scripts/fill.py` written in `references/forms.md`) is accepted, and
    links to another skill's SKILL.md or to an agent (`../x/SKILL.md`, `agents/y.md`) are not checked here (see
    `DEAD_CROSS_REF`); a link to another file of a sibling skill (`../x/reference.md`) is checked like any other. Links in a fill-in template (a markdown file under an
    `assets/` or `templates/` folder at any depth, or named `*template*`, with three or more `[Field]`, `{FIELD}` or
    `<free text to fill in>` placeholders outside code, such
    as a report the skill copies to `{OUTPUT_DIR}/report.md`) are not checked: they point into the
    folder the filled-in copy goes to (`screenshots/issue-001.png`), nor the markdown pages a sample
    document links (`references/example-adr.md`, `sample-decision-log.md`, a page in `examples/` linking
    `workflows/development.md` beside it or `../db/users.md` in a folder the skill does not have: the made-up
    siblings a real one would have). Nor are markdown files in a hidden
    folder or a test folder (`tests/.skill_backups/other-skill.md`, `tests/fixtures/broken.md`) unless
    SKILL.md names their path: backups and fixtures are not written for the agent, and their links point
    where the original lived; nor, in a SKILL.md kept in an archive folder (`archived/`, `.claude-archive/2026-05-21/
    .claude/skills/x/`), are links that leave the skill's folder, for the same reason (its own files are still
    checked). Nor are the links after a line at the top of a file (its first 30 lines) saying
    its paths are relative to a web address ("All paths below are relative to
    `https://www.oxygenxml.com/doc/ug-editor/`", "Base URL: https://…"): they name that site's pages.
    These findings do not change the score.

    ## Why is this bad?
    A script the skill tells the agent to run, or an asset it should copy, is missing: the
    instructions fail at run time.

    ## Example
    ```markdown
    Run [the filler](scripts/fill.py).   <!-- the file is scripts/fill_form.py -->
    ```

    Use instead:
    ```markdown
    Run [the filler](scripts/fill_form.py).
    ```

    ## Fix
    Retarget the link or add the missing file.
    """
    slugs = None
    swallowed: dict = {}  # per document: its headings inside code blocks (looked for on a first dead anchor)
    example = example_lines(doc)  # an example CommonMark cut open by a nested fence: NESTED_FENCE
    for link in doc.links:
        t = link.target.strip()
        if t.startswith("#") and len(t) > 1 and link.range.start.line not in example:
            if slugs is None:
                slugs = anchor_slugs(doc.headings, doc.text)
            if anchor_missing(t, slugs) and not _quoted_example(doc, link, t, swallowed):
                yield ctx.finding(link.range, anchor_message(doc, t, swallowed))
    dead: dict[str, bool] = {}  # one verdict per distinct path (a link run repeats a handful of targets)
    base: int | None = -1  # (-1: not looked for yet)
    retired: bool | None = None  # the skill is kept in an archive folder (decided on a first dead link)
    for t in link_targets(doc):
        line = t.range.start.line
        if line in example or (t.link is not None and not t.link.text and _array_notation(doc, t.link)):
            continue
        if base == -1:
            base = url_base(doc.lines)
        if base is not None and line >= base:
            continue  # "All paths below are relative to `https://…/ug-editor/`": that site's pages
        verdict = dead.get(t.path)
        if verdict is None:
            verdict = dead[t.path] = _is_dead(doc, t.path)
        if verdict:
            if retired is None:
                retired = archived(doc)
            if retired and not resolve(doc, t.path).inside_skill:
                continue  # a retired copy (`.claude-archive/2026-05-21/.claude/skills/x/`): it links where it lived
            yield ctx.finding(t.range, f"Link target `{t.text}` does not exist")
    examples: dict[str, frozenset[int]] = {}  # per bundled file: its example lines (decided on a first hit)
    quoted: dict[str, dict] = {}  # per bundled file: _quoted_example's memo (each line's quote marks found once)
    for bf, link in bad_anchors(doc):
        t = link.target.strip()
        if t[1:].isdigit() and bf.markdown is not None and \
                _quoted_example(bf.markdown, link, t, quoted.setdefault(bf.rel, {})):
            continue  # `"[Decide the refund ledger entry](#42)"` in a guide: how to cite an issue
        if link.range.start.line not in _bundled_examples(examples, bf):
            yield ctx.finding(link.range, anchor_message(bf.markdown, link.target.strip(), swallowed), file=bf.rel)
    templates: dict[str, bool] = {}
    bases: dict[str, int | None] = {}
    for bt in bundled_link_targets(doc):
        tpl = templates.get(bt.file.rel)
        if tpl is None:
            tpl = templates[bt.file.rel] = fill_in_template(bt.file.rel, bt.file.lines)
        if tpl:
            continue  # a fill-in template: its links point into the folder it is copied to
        if bt.file.rel not in bases:
            bases[bt.file.rel] = url_base(bt.file.lines)
        if (at := bases[bt.file.rel]) is not None and bt.range.start.line >= at:
            continue  # "All paths below are relative to `https://www.oxygenxml.com/doc/ug-editor/`": its pages
        res = resolve_bundled(doc, bt)
        if bt.path.lower().endswith((".md", ".mdx")) and (_sample_doc(bt.file.rel) or (
                _in_samples_folder(bt.file.rel) and (not bt.link.target.lstrip().startswith("..")
                                                     or _project_folder(doc, res.rel)))):
            continue  # a sample document's "References": the made-up pages a real one would link
        if res.exists is not False or completion(doc, res.rel) is not None or from_skill_root(doc, bt) \
                or _native_word(bt.path):
            continue
        if res.inside_skill and bt.link.target.lstrip("./").startswith(("skills/", "agents/")):
            continue  # repo-relative cross references
        if case_variant(doc, res.rel) is not None:
            continue  # exists with another case: LINK_CASE_MISMATCH
        if bt.range.start.line in _bundled_examples(examples, bt.file):
            continue  # an example skill cut open by a nested fence in a guide (NESTED_FENCE's reading)
        if underscore_twin(doc, res):
            continue  # `../../knowledge/x.md` from `pkg/_skills/<name>/`: `pkg/_knowledge/x.md`, installed unprefixed
        if res.inside_skill or not is_cross_ref(res.rel):
            yield ctx.finding(bt.range, f"Link target `{bt.text}` does not exist", file=bt.file.rel)


# "All paths below are relative to `https://www.oxygenxml.com/doc/ug-editor/`", "Base URL: https://…": the
# file's relative links are pages of that site
_URL_BASE = lazy_compile(r"\brelative\s+to\s+(?:the\s+(?:site|url|page)\s+)?[`<\[(\"']?https?://"
                         r"|\bbase\s+url\b[^\n]{0,40}?https?://", re.I)
BASE_LINES = 30  # lines at the top of a file looked at for a declared web base


def url_base(lines: list[str]) -> int | None:
    """The line at the top of a file (BASE_LINES) that says its relative paths are relative to a web address,
    or None: the links after it name that site's pages, not files of the skill."""
    for i, line in enumerate(lines[:BASE_LINES]):
        low = line.lower()
        if "http" in low and ("relative to" in low or "base url" in low) and _URL_BASE.search(line[:2000]):
            return i
    return None


def _bundled_examples(memo: dict[str, frozenset[int]], bf) -> frozenset[int]:
    """A bundled markdown file's lines that its author meant as code (see `example_lines`), once per file."""
    hit = memo.get(bf.rel)
    if hit is None:
        hit = memo[bf.rel] = bundled_example_lines(bf)
    return hit


def _array_notation(doc: SkillDocument, link: Link) -> bool:
    """`{mode, done[](each with an anchor), tags[]}`: a list field's `[]` glued to its name, then a note in
    parentheses; no link text, and a target with no `/` or `.` of a file path."""
    if link.text or link.kind != "link" or "/" in link.target or "." in link.target:
        return False
    line, at = link.full[0], link.full[1]
    before = doc.lines[line][at - 1:at] if at > 0 else ""
    return before.isalnum() or before == "_"


_SAMPLE_WORDS = ("example", "sample")
_SAMPLE_FOLDERS = ("example", "examples", "sample", "samples")


def _in_samples_folder(rel: str) -> bool:
    """A markdown file kept in an `examples/` or `samples/` folder: a sample of the skill's output, whose links
    to pages beside or below it are the made-up pages of the project it was written for (a link up out of
    the folder into one of the skill's own folders, `../references/format.md`, is the skill's and still
    checked; one into a folder the skill does not have, `../db/users.md`, is the project's)."""
    parts = rel.lower().split("/")
    return len(parts) >= 2 and parts[-2] in _SAMPLE_FOLDERS and parts[-1].endswith((".md", ".mdx"))


def _project_folder(doc: SkillDocument, rel: str) -> bool:
    """`rel` (from the skill folder) lies in a folder the skill does not have (`db/users.md`): one of the made-up
    project a sample describes, not the skill's own (`references/format.md`, or `README.md` at the top)."""
    top, sep, _ = rel.partition("/")
    return bool(sep) and top not in ("", "..") and not doc.files.under(top)


def _sample_doc(rel: str) -> bool:
    """A sample of the documents the skill writes (`references/example-adr.md`, `sample-decision-log.md`):
    its "References" list links the made-up siblings a real one would have."""
    base = rel.rsplit("/", 1)[-1].lower()
    if not base.endswith((".md", ".mdx")):
        return False
    words = re.split(r"[-_. ]+", base.rsplit(".", 1)[0])
    return len(words) >= 2 and any(w in _SAMPLE_WORDS for w in words)  # not `examples.md`, a collection

