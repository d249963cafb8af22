"""Classify relative links and prose paths: bundled file, cross-skill reference, or other."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...document import Link, SkillDocument
from ...findings import Pos, Range
from ...measures import Resolution, exists_recorded, link_path, resolve

_CROSS = re.compile(r"(?:^|/)SKILL\.md$|(?:^|/)agents/[^/]+\.md$|(?:^|/)skills/[^/]+")
# a sibling skill folder: skill names have no dots, so `../notes.md` is a file (DEAD_LINK), not a skill
_SIBLING = re.compile(r"^\.\./[^/.]+/?$")
# bare cross references in prose: ../x/SKILL.md, ../../agents/y.md, skills/some-skill
_PROSE_CROSS = re.compile(
    r"(?<![\w/~.@:%-])("
    r"(?:\.\./)+[\w.-]+(?:/[\w.-]+)*/SKILL\.md"
    r"|(?:\.\./)+(?:[\w.-]+/)*agents/[\w.-]+\.md"
    r"|(?:\./)?skills/[a-z0-9]+(?:-[a-z0-9]+)+(?:/SKILL\.md)?"
    r"|(?:\./)?skills/[a-z0-9-]+/SKILL\.md"
    r")(?![\w/-])"
)


@dataclass(frozen=True, slots=True)
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
    for pl in doc.prose:
        if "skills/" not in pl.text and "../" not in pl.text:
            continue
        for m in _PROSE_CROSS.finditer(pl.text):
            # a path inside a markdown link's destination is handled as a link
            before = pl.text[: m.start()]
            if before.endswith("(") or before.endswith("]: "):
                continue
            yield Target(m.group(1), m.group(1), Range(Pos(pl.line, m.start(1)), Pos(pl.line, m.end(1))), None)


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
        if root is not None and not _is_within(a, root):
            break
        cand = a / stripped
        if exists_recorded(doc, cand):
            return Resolution(path, False, True, cand)
        if a.name == stripped.split("/", 1)[0] and exists_recorded(doc, a / name):
            return Resolution(path, False, True, a / name)
    return Resolution(path, False, False, None)


def _is_within(p: Path, root: Path) -> bool:
    try:
        p.resolve().relative_to(root.resolve())
        return True
    except (ValueError, OSError):
        return False
