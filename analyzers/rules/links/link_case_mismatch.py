"""LINK_CASE_MISMATCH: a link or mentioned path that exists only with a different case."""

from __future__ import annotations

from collections.abc import Iterator

from ... import rx
from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...measures import normalize
from ...rule import FixAvailability, RuleContext, rule
from ._bundled import bundled_link_targets, resolve_bundled
from ._classify import link_targets
from ._mentions import case_variant, folded_bundle, link_spans_by_line, mentioned_files

# a bare file name in prose (`FORMS.md`): not part of a longer path, a URL or a word; one class each: linear
_BARE_NAME = rx.compile(r"(?<![\w./\\@:~$%-])[\w-]{1,80}\.[A-Za-z0-9]{1,8}(?![\w/-])")


def _respelled(written: str, rel: str, variant: str) -> str | None:
    """`written` with its path spelled as on disk, when the written form is a plain spelling of `rel`."""
    if written == rel:
        return variant
    if written == "./" + rel:
        return "./" + variant
    return None


@rule("LINK_CASE_MISMATCH", family="links", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES)
def link_case_mismatch(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A link or mentioned path whose file exists, but only with different upper/lower case.

    ## What it does
    Checks relative links and images, and the `references/…`, `scripts/…`, `assets/…` file paths
    SKILL.md names in prose, inline code and commands (see `MISSING_MENTIONED_FILE`), against the
    names in each folder's listing, byte for byte: `FORMS.md` when the file is `forms.md`,
    `Scripts/fill.py` when the folder is `scripts/`. The check reads directory listings, so it gives
    the same answer on case-insensitive disks (macOS, Windows), where the link happens to work.
    Links in bundled markdown files (`references/*.md`) are checked too, on that file (no fix there).
    These links are reported here and not as `DEAD_LINK`, `ORPHAN_REFERENCE`, `DEAD_CROSS_REF` or
    `MISSING_MENTIONED_FILE`. Bare names of files at the skill root written in SKILL.md's prose are
    checked too (`read FORMS.md` when the file is `forms.md`; not link text, and not `skill.md`).
    Paths outside the workspace are not read.

    ## Why is this bad?
    The link resolves on the author's Mac and breaks on Linux, where most agents run: the agent looks
    for `FORMS.md`, finds nothing, and works without the instructions.

    ## Example
    ```markdown
    Fill the fields as [the form guide](references/FORMS.md) says.   <!-- the file is references/forms.md -->
    ```

    Use instead:
    ```markdown
    Fill the fields as [the form guide](references/forms.md) says.
    ```

    ## Fix
    Rewrites the path to the spelling on disk, keeping any `#anchor` (safe: it points at the same file on
    every disk). Offered when the path is written plainly (`references/FORMS.md`, `./references/FORMS.md`);
    paths with `..` segments or percent-escapes are reported without a fix.
    """
    if doc.skill_dir is None:
        return
    seen: set[tuple[int, int]] = set()
    variants: dict[str, tuple[str, str | None]] = {}  # path -> (normalized, on-disk spelling): a link run repeats a few
    for t in link_targets(doc):
        link = t.link
        if link is None:
            continue
        got = variants.get(t.path)
        if got is None:
            rel = normalize(t.path)
            got = variants[t.path] = (rel, case_variant(doc, rel))
        rel, variant = got
        if variant is None:
            continue
        seen.add((t.range.start.line, t.range.start.character))
        fix = None
        written = link.path_part
        new = _respelled(written, rel, variant) if t.path == written else None  # no %-escapes
        if new is not None:
            text = new + link.target[len(written):]
            fix = Fix.safe(f"Change the path to `{new}`", Edit(Range(t.range.start, t.range.end), text))
        shown = written or t.text
        yield ctx.finding(t.range, f"`{shown}` exists only as `{variant}` (case differs; breaks on Linux)", fix)
    for m in mentioned_files(doc):
        key = (m.range.start.line, m.range.start.character)
        if key in seen:
            continue
        seen.add(key)
        variant = case_variant(doc, m.rel)
        if variant is None:
            continue
        new = _respelled(m.text, m.rel, variant)
        fix = Fix.safe(f"Change the path to `{new}`", Edit(m.range, new)) if new is not None else None
        yield ctx.finding(m.range, f"`{m.text}` exists only as `{variant}` (case differs; breaks on Linux)", fix)
    for rng, written, variant in _bare_names(doc):
        if (rng.start.line, rng.start.character) not in seen:
            fix = Fix.safe(f"Change the name to `{variant}`", Edit(rng, variant))
            yield ctx.finding(rng, f"`{written}` exists only as `{variant}` (case differs; breaks on Linux)", fix)
    for bt in bundled_link_targets(doc):
        res = resolve_bundled(doc, bt)
        if res.rel == "SKILL.md":
            continue
        variant = case_variant(doc, res.rel)
        if variant is not None:
            yield ctx.finding(bt.range, f"`{bt.link.path_part or bt.text}` exists only as `{variant}` "
                              "(case differs; breaks on Linux)", file=bt.file.rel)


def _bare_names(doc: SkillDocument) -> Iterator[tuple[Range, str, str]]:
    """Bare names of files at the skill root in SKILL.md's prose, written with another case (`read FORMS.md`
    when the file is forms.md), outside links. SKILL.md itself is not checked (`skill.md` is how prose
    often names it)."""
    if doc.files.root is None or doc.files.truncated:
        return
    roots = {k: v for k, v in folded_bundle(doc).items() if "/" not in v and v != "SKILL.md"}
    if not roots:
        return  # no file at the skill root but SKILL.md: nothing to misspell
    folded = doc.prose_text.casefold()
    if not any(k in folded for k in roots):
        return  # no root file named in the prose in any case: most skills, and no line loop
    in_links = link_spans_by_line(doc)
    for pl in doc.prose:
        if "." not in pl.text:
            continue
        for m in _BARE_NAME.finditer(pl.text):
            name = m.group().rstrip(".")
            on_disk = roots.get(name.casefold()) if "." in name else None
            if on_disk is None or on_disk == name or doc.files.exists(name):
                continue
            s = m.start()
            if any(a <= s < b for a, b in in_links.get(pl.line, ())):
                continue
            yield Range(Pos(pl.line, s), Pos(pl.line, s + len(name))), name, on_disk
