"""Classify relative links and prose paths: bundled file, cross-skill reference, or other."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ... import rx
from ...document import Link, SkillDocument
from ...findings import Pos, Range
from ...measures import Resolution, exists_recorded, link_path, resolve, within

_CROSS = rx.compile(r"(?:^|/)SKILL\.md$|(?:^|/)agents/[^/]+\.md$|(?:^|/)skills/[^/]+")
# a sibling skill folder: skill names have no dots, so `../notes.md` is a file (DEAD_LINK), not a skill
_SIBLING = rx.compile(r"^\.\./[^/.]+/?$")
# bare cross references in prose: ../x/SKILL.md, ../../agents/y.md, skills/some-skill. Found by a linear
# scan (_cross_match) over maximal path tokens; the regex this replaces backtracked on long runs of `../`
_PATH_TOKEN = rx.compile(r"[\w./-]+")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _cross_match(tok: str) -> int:
    """Length of the cross reference at the start of a path token (0: none).

    A token is a maximal run of word characters, `.`, `/` and `-`; a match must start at the token's start and end at its end
    or before a `.` (a sentence's full stop). Accepted shapes, longest first:
    `../…/<seg>/SKILL.md`, `../…/agents/<name>.md`, `[./]skills/<kebab-name>[/SKILL.md]`,
    `[./]skills/<name>/SKILL.md`.
    """
    n = len(tok)
    if tok.startswith("../"):
        if "/SKILL.md" not in tok and "agents/" not in tok:
            return 0
        segs = tok.split("/")
        starts = [0] * len(segs)
        pos = 0
        for i, sg in enumerate(segs):
            starts[i] = pos
            pos += len(sg) + 1
        # first empty segment after the leading `..` (segments before it are all non-empty)
        first_empty = next((i for i in range(1, len(segs)) if not segs[i]), len(segs))
        last = len(segs) - 1
        # ../X/SKILL.md: X one or more non-empty segments
        for j in range(min(last, first_empty), 1, -1):
            sg = segs[j]
            if sg == "SKILL.md" and j == last or sg.startswith("SKILL.md."):
                return starts[j] + 8
        # ../Y/agents/Z.md: Z within one segment, ending in `.md` before a `.` or the token's end
        for j in range(min(last, first_empty), 1, -1):
            if segs[j - 1] != "agents":
                continue
            sg = segs[j]
            hi = len(sg)
            k = sg.rfind(".md", 0, hi)
            while k >= 1:  # Z is at least one character before `.md`
                e = k + 3  # the match may end at the token's end or before a `.` (never before a `/`)
                if e == len(sg) and j == last or e < len(sg) and sg[e] == ".":
                    return starts[j] + e
                k = sg.rfind(".md", 0, k + 2)
        return 0
    base = 2 if tok.startswith("./skills/") else 0
    if not tok.startswith("skills/", base):
        return 0
    a = base + 7
    b = a
    while b < n and tok[b] in _NAME_CHARS:
        b += 1
    if b == a:
        return 0
    name = tok[a:b]
    tail_ok = tok.startswith("/SKILL.md", b) and (b + 9 == n or tok[b + 9] == ".")
    kebab = "-" in name and not name.startswith("-") and not name.endswith("-") and "--" not in name
    if kebab and tail_ok:
        return b + 9
    if kebab and (b == n or tok[b] == "." and (b + 1 == n or tok[b + 1] in "./")):
        return b  # before a full stop, not an extension (`skills/energy-diag.md` is a file)
    return b + 9 if tail_ok else 0


def prose_cross_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every bare cross reference in a line of prose, in linear time."""
    for m in _PATH_TOKEN.finditer(text):
        s = m.start()
        if s > 0 and text[s - 1] in "~@:%":
            continue
        k = _cross_match(m.group())
        if k:
            yield s, s + k


@dataclass(slots=True, unsafe_hash=True)  # not frozen: built for every link, and frozen __init__ costs 3x
class Target:
    text: str  # as written
    path: str  # relative path
    range: Range
    link: Link | None  # None for prose paths


def link_targets(doc: SkillDocument) -> list[Target]:
    """Links with a checkable relative path (computed once per document)."""
    if doc._link_targets is None:
        out = []
        for link in doc.links:
            p = link_path(link)
            if p is not None:
                out.append(Target(link.target, p, link.range, link))
        doc._link_targets = out
    return doc._link_targets


def prose_cross_refs(doc: SkillDocument) -> Iterator[Target]:
    for pl in doc.prose_with(("skills/", "../")):  # found by substring search, not a loop over every line
        if "skills/" not in pl.text and "../" not in pl.text:
            continue
        for a, b in prose_cross_spans(pl.text):
            # a path inside a markdown link's destination is handled as a link
            if pl.text[a - 1 : a] == "(" or a >= 3 and pl.text[a - 3 : a] == "]: ":
                continue
            if pl.text[a - 1 : a] == "[" and pl.text[b : b + 2] == "](":
                continue  # `[skills/x/SKILL.md](../x/SKILL.md)`: the link's label; its destination is checked
            path = pl.text[a:b]
            yield Target(path, path, Range(Pos(pl.line, a), Pos(pl.line, b)), None)


def is_cross_ref(path: str) -> bool:
    return bool(_CROSS.search(path) or _SIBLING.match(path))


def resolve_cross(doc: SkillDocument, path: str) -> Resolution:
    """Resolve a cross reference: relative to the skill, then `skills/…` from each ancestor."""
    res = resolve(doc, path)
    if res.exists or res.exists is None and not path.lstrip("./").startswith(("skills/", "agents/")):
        return res
    stripped = path[2:] if path.startswith("./") else path
    if doc.skill_dir is None or not stripped.startswith(("skills/", "agents/")):
        return res
    root = doc.workspace_root
    anchors: list[Path] = list(doc.skill_dir.parents)
    name = stripped.split("/", 1)[1] if "/" in stripped else ""
    for a in anchors:
        if root is not None and not within(doc, a, root):
            break
        cand = a / stripped
        if exists_recorded(doc, cand):
            return Resolution(path, False, True, cand)
        if a.name == stripped.split("/", 1)[0] and exists_recorded(doc, a / name):
            return Resolution(path, False, True, a / name)
    return Resolution(path, False, False, None)
