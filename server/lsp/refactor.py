"""Extract a section of SKILL.md into references/<slug>.md (the cure for BLOATED_SKILL). Pure planning."""

from __future__ import annotations

import re
from dataclasses import dataclass

from skillgrade.analyzers import SkillDocument, rx
from skillgrade.analyzers.document import Heading

_ATX = rx.compile(r"^( {0,3})(#{1,6})(?=\s|$)")


@dataclass(frozen=True, slots=True)
class Extraction:
    heading: Heading
    rel_path: str  # references/<slug>.md
    content: str  # the new file
    start_line: int  # replace lines [start_line, end_line) of SKILL.md ...
    end_line: int
    replacement: str  # ... with this text


def slugify(text: str) -> str:
    s = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-_")
    s = re.sub(r"-{2,}", "-", s)
    return s[:60].strip("-") or "section"


def section_at(doc: SkillDocument, line: int) -> Heading | None:
    """The innermost section (level 2 or deeper) containing `line`."""
    best = None
    for h in doc.headings:
        if h.level >= 2 and h.line <= line < max(h.end_line, h.line + 1) and (best is None or h.level >= best.level):
            best = h
    return best


def plan_extraction(doc: SkillDocument, heading: Heading, exists) -> Extraction:
    """`exists(rel)` tells whether a bundled file already exists (the slug gets -2, -3, ...)."""
    lines = doc.lines
    end = min(max(heading.end_line, heading.line + 1), len(lines))
    body_end = end
    while body_end > heading.line + 1 and not lines[body_end - 1].strip():
        body_end -= 1
    slug = slugify(heading.text)
    rel = f"references/{slug}.md"
    n = 2
    while exists(rel):
        rel = f"references/{slug}-{n}.md"
        n += 1
    shift = heading.level - 1
    heading_lines = {h.line for h in doc.headings}
    out = []
    for ln in range(heading.line, body_end):
        text = lines[ln]
        if ln in heading_lines and ln not in doc.code_lines:
            m = _ATX.match(text)
            if m:
                level = max(1, len(m.group(2)) - shift)
                text = "#" * level + text[m.end():]
        out.append(text)
    if out and not _ATX.match(out[0]):  # setext heading: make it ATX in the new file
        out = ["# " + heading.text, *out[2:]] if len(out) > 1 else ["# " + heading.text]
    content = "\n".join(out).rstrip() + "\n"
    title = heading.text or "this section"
    trailing = "\n" if end < len(lines) else ""
    replacement = (f"{'#' * heading.level} {heading.text}\n\n"
                   f"See [{title}]({rel}) for details.\n{trailing}")
    return Extraction(heading, rel, content, heading.line, end, replacement)
