"""YAML_SYNTAX: the frontmatter is not valid YAML."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule


@rule("YAML_SYNTAX", family="frontmatter", severity=Severity.ERROR)
def yaml_syntax(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter cannot be read as YAML.

    ## What it does
    Reports the YAML error at its line and column: unclosed brackets or quotes, bad indentation,
    tab characters used for indentation, a `: ` inside an unquoted value, values nested too deeply.

    ## Why is this bad?
    A frontmatter that does not parse is read as empty by Claude Code: the skill loses its name and
    description without any visible error. Other linters silently treat it as `{}`.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: Use when: filling PDF forms
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: "Use when: filling PDF forms"
    ---
    ```

    ## Fix
    Quote values that contain `: ` or start with special characters, indent with spaces, close
    brackets and quotes.
    """
    for p in doc.frontmatter.problems:
        if p.kind == "syntax":
            yield ctx.finding(p.range, p.message)
