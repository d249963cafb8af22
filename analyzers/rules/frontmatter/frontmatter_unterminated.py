"""FRONTMATTER_UNTERMINATED: the frontmatter has no closing `---`."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule

DASH_LOOK = 60  # lines after the opening `---` searched for a closing line of the wrong length


@rule("FRONTMATTER_UNTERMINATED", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def frontmatter_unterminated(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter opened with `---` is never closed.

    ## What it does
    Flags an opening `---` line with no closing `---` (or `...`) line after it. The whole file is then
    read as YAML by most loaders, or the frontmatter is ignored.

    ## Why is this bad?
    Claude Code and the Agent Skills validators reject the file or read empty metadata, so the skill
    silently loses its name and description.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    # PDF tools
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    ---
    # PDF tools
    ```

    ## Fix
    Add a `---` line where the metadata ends. When a line of only dashes of another length comes before the first
    heading (`--------…`, a rule drawn as wide as the editor), the message names it and an unsafe fix makes it
    `---`. Otherwise no automatic fix: where the block should end is a guess (other tools that "fix" this by adding
    a second block corrupt the file).
    """
    fm = doc.frontmatter
    if fm.present and not fm.terminated:
        dashes = _dash_line(doc.lines)
        if dashes is None:
            yield ctx.finding(doc.frontmatter_range(), "Frontmatter opened with `---` is never closed with a `---` line")
            return
        run = len(doc.lines[dashes].strip())
        fix = Fix.unsafe("Make it the closing `---`", Edit(Range(Pos(dashes, 0), Pos(dashes, len(doc.lines[dashes]))), "---"))
        yield ctx.finding(doc.frontmatter_range(), f"Frontmatter opened with `---` is never closed with a `---` line: line "
                                                   f"{dashes + 1} is a run of {run} dashes, and the closing line must be "
                                                   "exactly `---`", fix)


def _dash_line(lines: list[str]) -> int | None:
    """The first line after the opening one, before any heading, made of four or more dashes only."""
    for i in range(1, min(len(lines), DASH_LOOK)):
        s = lines[i].strip()
        if s.startswith("#"):
            return None
        if len(s) >= 4 and s.strip("-") == "":
            return i
    return None
