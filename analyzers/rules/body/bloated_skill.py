"""BLOATED_SKILL: over 800 lines and nothing split out (references/, or markdown files SKILL.md names)."""

from __future__ import annotations

from collections.abc import Iterator

from ...bundle import MARKDOWN_SUFFIXES, suffix
from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule

LIMIT = 800


@rule("BLOATED_SKILL", family="body", severity=Severity.WARNING, anti_pattern=True)
def bloated_skill(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md has more than 800 lines and nothing split out of it into files loaded on demand (anti-pattern).

    ## What it does
    Counts the lines of SKILL.md (frontmatter included, as the methodology does) and flags more than
    800 when `references/` (or `reference/`) holds no file and SKILL.md names no other non-empty bundled
    markdown file (`FORMS.md` beside it, as Anthropic's pdf skill keeps its forms guide, or `docs/api.md`;
    a README, CHANGELOG or LICENSE does not count: those are not loaded on demand). The finding is placed on the first line of the file; the
    "Move section to references/" refactoring in the editor is the cure.

    ## Why is this bad?
    The whole SKILL.md enters the context every time the skill triggers. Material needed only in
    some cases belongs in `references/`, loaded on demand.

    ## Example
    ```text
    pdf-tools/SKILL.md   (950 lines, no references/)
    ```

    Use instead:
    ```text
    pdf-tools/SKILL.md              (300 lines, links to the references)
    pdf-tools/references/forms.md
    pdf-tools/references/api.md
    ```

    ## Fix
    Move detailed sections to `references/<topic>.md` and link to them.
    """
    if doc.line_count <= LIMIT:
        return
    if doc.files.non_empty_under("references") or doc.files.non_empty_under("reference"):
        return  # (`reference/`, singular, as REFERENCE_NO_TOC reads it: skill_graphs' docs skills)
    if any(_split_out(doc, rel) for rel in doc.files.files):
        return
    yield ctx.finding(doc.index.trimmed_line_range(0),
                      f"SKILL.md has {doc.line_count} lines (limit {LIMIT}) and no files in `references/`")


_NOT_SPLIT_OUT = ("skill", "readme", "changelog", "license", "licence")


def _split_out(doc: SkillDocument, rel: str) -> bool:
    """`rel` is a non-empty bundled markdown file, not SKILL.md or a repository file (README, CHANGELOG, LICENSE),
    that SKILL.md names: material moved out of SKILL.md and loaded on demand."""
    if suffix(rel) not in MARKDOWN_SUFFIXES or rel in doc.files.empty or doc.files.in_nested_skill(rel):
        return False
    if rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() in _NOT_SPLIT_OUT:
        return False
    return bool(doc.index.lines_with((rel,)))
