"""FRONTMATTER_UNTERMINATED: the frontmatter has no closing `---`."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule


@rule("FRONTMATTER_UNTERMINATED", family="frontmatter", severity=Severity.ERROR)
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
    Add a `---` line where the metadata ends. No automatic fix: where the block should end is a guess
    (other tools that "fix" this by adding a second block corrupt the file).
    """
    fm = doc.frontmatter
    if fm.present and not fm.terminated:
        yield ctx.finding(doc.frontmatter_range(), "Frontmatter opened with `---` is never closed with a `---` line")
