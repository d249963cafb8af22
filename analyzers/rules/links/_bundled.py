"""Links inside the skill's bundled markdown files (references/*.md, ...), resolved from each file's folder."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from ... import rx
from ...bundle import BundledFile, bundled_markdown_files
from ...document import Link, SkillDocument
from ...fastmd import atx_heading_text
from ...findings import Range
from ...lazy_re import lazy_compile
from ...measures import Resolution, exists_recorded, link_path, normalize, resolve
from ...workspace import underscored_data_folder
from .._helpers import github_slug

_ANCHOR_LINK = rx.compile(r"\]\([ \t]*<?#|\]:[ \t]*<?#")  # where an `#anchor` link can be (linear)


@dataclass(frozen=True, slots=True)
class BundledTarget:
    file: BundledFile
    text: str  # as written
    path: str  # joined with the file's folder: relative to the skill folder (may start with ../)
    range: Range  # in the bundled file
    link: Link


def bundled_link_targets(doc: SkillDocument) -> Iterator[BundledTarget]:
    """Links with a checkable relative path in every bundled markdown file (each file parsed once)."""
    for bf in bundled_markdown_files(doc):
        if bf._links is None:
            out = []
            for link in bf.links:  # no `](` or `]:`: no link, no parse
                p = link_path(link)
                if p is not None:
                    out.append(BundledTarget(bf, link.target, normalize(p, bf.folder), link.range, link))
            bf._links = out
        yield from bf._links


def resolve_bundled(doc: SkillDocument, t: BundledTarget) -> Resolution:
    """Resolve from the file's folder; the skill's manifest (not among the bundled files) exists, whether it
    is spelled `SKILL.md` or, as this skill's own file is, `skill.md`."""
    if t.path == "SKILL.md" or _manifest(doc, t.path):
        return Resolution(t.path, True, True, doc.skill_dir, joined=False)
    return resolve(doc, t.path)


def underscore_twin(doc: SkillDocument, res: Resolution) -> bool:
    """A target outside the skill that exists with its first folder spelled with a leading underscore, read
    from above the skill's own underscored container: a wheel ships its data as `pkg/_skills/<name>/` and
    `pkg/_knowledge/`, and its installer copies them side by side without the underscore, so
    `../../knowledge/x.md` works once installed. Only the nearest `_folder` above the skill counts."""
    if res.inside_skill or res.absolute is None or doc.skill_dir is None:
        return False
    base = next((a.parent for a in doc.skill_dir.parents if underscored_data_folder(a.name)), None)
    if base is None:
        return False
    try:
        parts = res.absolute.relative_to(base).parts
    except ValueError:
        return False
    if len(parts) < 2 or parts[0][:1] in ("_", "."):
        return False
    return exists_recorded(doc, base.joinpath("_" + parts[0], *parts[1:]))


def _manifest(doc: SkillDocument, rel: str) -> bool:
    return doc.path is not None and rel == doc.path.name


def from_skill_root(doc: SkillDocument, t: BundledTarget) -> bool:
    """The link's path exists when read from the skill folder instead (`scripts/x.py` written in
    references/guide.md): agents read such paths from the skill folder, so this is not reported."""
    if not t.file.folder:
        return False
    raw = link_path(t.link)
    if raw is None:
        return False
    rel = normalize(raw)
    return bool(rel) and not rel.startswith("..") and (
        rel == "SKILL.md" or _manifest(doc, rel) or resolve(doc, rel).exists is True)


def _squash(s: str) -> str:
    return re.sub(r"[^0-9a-z]", "", s.lower())


# an HTML element's `id` / `name` (`<a id="step-1"></a>`, `<h2 id="setup">`): a link target GitHub and
# other renderers honour like a heading's slug. Bounded runs, no nested quantifier: linear.
_HTML_ANCHOR = rx.compile(r"""<[A-Za-z][\w-]{0,20}[^<>\n]{0,300}?\b(?:id|name)[ \t]*=[ \t]*["']([^"'<>\n]{1,200})["']""")


# a heading's explicit id, written at its end (`## Setup {#setup}`, `{: #setup}`, `{#setup .wide}`): Pandoc,
# kramdown, MkDocs and Hugo name the heading by it
_HEADING_ID = lazy_compile(r"\{:?[ \t]*#([\w-]{1,100})[^{}\n]{0,100}\}[ \t]*\Z")


# a link or image in a heading's text: `[text](target)`, kept as its text (bounded runs: linear)
_LINK_TEXT = lazy_compile(r"!?\[([^\[\]\n]{0,200})\]\([^()\n]{0,400}\)")


def _explicit_id_keys(text: str) -> tuple[str, ...]:
    """A heading's explicit id written at its end (`## Setup {#setup}`) and the slug of the text before it,
    squashed; () when it has none."""
    if not text.endswith("}") or (m := _HEADING_ID.search(text)) is None:
        return ()
    return _squash(m.group(1)), _squash(github_slug(text[:m.start()].rstrip()))


def anchor_slugs(headings, text: str) -> set[str]:
    """What `#anchor` links of a document may point at, squashed: its headings' GitHub slugs (with and
    without an explicit `{#id}` at the end, and that id; a heading written as a link also by its visible text) and
    the `id` / `name` of its HTML elements."""
    out = set()
    for h in headings:
        out.add(_squash(github_slug(h.text)))
        if "](" in h.text:  # `### [isNull](./expressions/isnull.md)`: renderers slug the visible text, `isnull`
            out.add(_squash(github_slug(_LINK_TEXT.sub(r"\1", h.text))))
        out.update(_explicit_id_keys(h.text))
    if "<" in text and ("id" in text or "name" in text):
        out.update(_squash(m.group(1)) for m in _HTML_ANCHOR.finditer(text))
    return out


def anchor_missing(target: str, slugs: set[str]) -> bool:
    """`#target` matches none of `slugs` (a trailing `-N` is left alone: GitHub's numbering of repeated
    headings; `%20`-style escapes are decoded first, as browsers do)."""
    anchor = _squash(unquote(target[1:]) if "%" in target else target[1:])
    return bool(anchor) and anchor not in slugs and not re.search(r"-\d+$", target)


def swallowed_headings(md: SkillDocument) -> dict[str, tuple[int, int, str]]:
    """Heading lines written inside fenced code blocks, by squashed slug: (the line, the block's opening line, the
    line's text). A fence that closes early (a nested example) or never closes turns the headings after it into
    code; an anchor that names one is dead because of the fences, not the anchor."""
    out: dict[str, tuple[int, int, str]] = {}
    for b in md.code_blocks:
        if not b.fenced or "#" not in b.content:
            continue
        for i in range(b.content_start_line, min(b.end_line, len(md.lines))):
            text = atx_heading_text(md.lines[i])  # (the scan's own reading of a heading line)
            if text:
                hit = (i, b.start_line, md.lines[i].strip())
                out.setdefault(_squash(github_slug(text)), hit)
                for key in _explicit_id_keys(text):  # `### Some Title {#some-title}`: its id, its title's slug
                    out.setdefault(key, hit)
    return out


def swallowed_anchor(md: SkillDocument, target: str, memo: dict) -> tuple[int, int, str] | None:
    """The heading inside a code block that `#target` names (see swallowed_headings), or None; `memo` keeps each
    document's headings in code blocks, looked for on a first dead anchor."""
    swallowed = memo.get(id(md))
    if swallowed is None:
        swallowed = memo[id(md)] = swallowed_headings(md)
    return swallowed.get(_squash(unquote(target[1:]) if "%" in target else target[1:])) if swallowed else None


def anchor_message(md: SkillDocument, target: str, memo: dict) -> str:
    """DEAD_LINK's message for an `#anchor` that matches no heading: when a heading inside a code block has its
    slug, say so and where the block opens (the fences are what to fix)."""
    hit = swallowed_anchor(md, target, memo)
    if hit is None:
        return f"No heading matches the anchor `{target}`"
    line, opened, text = hit
    return (f"No heading matches the anchor `{target}`: `{text[:80]}` (line {line + 1}) is inside the code block "
            f"that opens at line {opened + 1}, so it is not a heading (a fence above it may close early or be left open)")


def bad_anchors(doc: SkillDocument) -> Iterator[tuple[BundledFile, Link]]:
    """`#anchor` links in bundled markdown files that match no heading of the same file."""
    for bf in bundled_markdown_files(doc):
        md = bf.markdown if _ANCHOR_LINK.search(bf.text) else None  # no `](#…` or `]: #…`: no parse
        if md is None:
            continue
        slugs = None
        for link in md.links:
            t = link.target.strip()
            if not t.startswith("#") or len(t) < 2:
                continue
            if slugs is None:
                slugs = anchor_slugs(md.headings, bf.text)
            if anchor_missing(t, slugs):
                yield bf, link
