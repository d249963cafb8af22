"""Apply fixes to text: pure functions shared by the CLI (--fix) and the tests."""

from __future__ import annotations

from collections.abc import Iterable

from .document import LineIndex
from .findings import Applicability, Edit, Fix


def applicable(fix: Fix | None, unsafe: bool = False) -> bool:
    if fix is None:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, int]:
    """Apply non-overlapping edits to `text` (edits on other files are ignored). Returns (text, applied)."""
    index = LineIndex(text)
    spans = []
    for e in edits:
        if e.path is not None:
            continue
        a, b = index.offset(e.range.start), index.offset(e.range.end)
        spans.append((a, b, e.new_text))
    spans.sort(key=lambda s: (s[0], s[1]))
    kept = []
    last_end = -1
    for a, b, t in spans:
        if a < last_end:
            continue  # overlapping: the next run applies it
        kept.append((a, b, t))
        last_end = max(b, a + 1 if a == b else b)
    out = text
    for a, b, t in reversed(kept):
        out = out[:a] + t + out[b:]
    return out, len(kept)


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, int]:
    """Apply whole fixes (all of a fix's edits or none of them)."""
    edits: list[Edit] = []
    for f in fixes:
        edits.extend(e for e in f.edits if e.path is None)
    return apply_edits(text, edits)


def edits_by_file(fixes: Iterable[Fix]) -> dict[str, list[Edit]]:
    """The edits of whole fixes on other files than the SKILL.md (bundled files), by absolute path."""
    out: dict[str, list[Edit]] = {}
    for f in fixes:
        for e in f.edits:
            if e.path is not None:
                out.setdefault(e.path, []).append(Edit(e.range, e.new_text))
    return out
