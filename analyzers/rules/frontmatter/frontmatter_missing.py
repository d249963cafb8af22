"""FRONTMATTER_MISSING: no YAML frontmatter at the top of SKILL.md."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import NAME_RE, slugify


@rule("FRONTMATTER_MISSING", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.ALWAYS)
def frontmatter_missing(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md does not start with a `---` frontmatter block.

    ## What it does
    Checks that the first line of SKILL.md is `---`, opening a YAML frontmatter block. A leading blank
    line or text before `---` means there is no frontmatter.

    ## Why is this bad?
    The frontmatter carries `name` and `description`, the only text an agent sees before deciding to
    load the skill. Without it the skill cannot be discovered or triggered.

    ## Example
    ```markdown
    # PDF tools
    Fill PDF forms.
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling, merging or splitting PDF files.
    ---
    # PDF tools
    ```

    ## Fix
    Inserts a frontmatter block with `name` (from the directory) and a `description` placeholder.
    The placeholder must be replaced, so the fix is a suggestion (display only).
    """
    if doc.frontmatter.present or doc.binary:
        return
    name = doc.skill_dir.name if doc.skill_dir is not None else "my-skill"
    if not NAME_RE.match(name):
        name = slugify(name) or "my-skill"
    block = f"---\nname: {name}\ndescription: Use when <describe the situations this skill is for>.\n---\n"
    first = doc.lines[0] if doc.lines else ""
    yield ctx.finding(
        Range(Pos(0, 0), Pos(0, len(first))),
        "No YAML frontmatter: SKILL.md must start with a `---` line",
        Fix.suggestion("Insert a frontmatter block", Edit(Range(Pos(0, 0), Pos(0, 0)), block)),
    )
