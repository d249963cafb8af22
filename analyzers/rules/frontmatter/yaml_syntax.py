"""YAML_SYNTAX: the frontmatter is not valid YAML."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...lazy_re import lazy_compile
from ...rule import RuleContext, rule


@rule("YAML_SYNTAX", family="frontmatter", severity=Severity.ERROR)
def yaml_syntax(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter cannot be read as YAML.

    ## What it does
    Reports the YAML error at its line and column: unclosed brackets or quotes, bad indentation,
    tab characters used for indentation, a `: ` inside an unquoted value, values nested too deeply.
    When a markdown heading after a blank line comes before the error (`# Orchestrator Mode`, which YAML
    reads as a comment), the message asks whether the closing `---` is missing before it: the frontmatter
    then runs on to the next `---` in the body.

    A value holding a template placeholder (`name: {{tool}}`, `name: {{REPO}}-refactor`), or a line that
    is a placeholder alone (`{{EXTRA_FIELDS}}`, `__ALLOWED_RULES__`), filled in by an installer before the
    skill is used, is not reported.

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
        if p.kind == "syntax" and not _template_value(doc, p.range.start.line):
            yield ctx.finding(p.range, p.message)


_PLACEHOLDER_SLOT = lazy_compile(r"\{\{\s?[A-Za-z_][\w.-]{0,60}\s?\}\}")
_SLOT_LINE = re.compile(r"__[A-Z][A-Z0-9_]{1,60}__")  # a line an installer replaces whole: `__ALLOWED_RULES__`


def _template_value(doc: SkillDocument, line: int) -> bool:
    """The line's value holds a `{{placeholder}}` (`name: {{tool}}`, `name: {{REPO}}-refactor`), or the line is
    a placeholder alone (`{{EXTRA_FIELDS}}`, `__ALLOWED_RULES__`): a template an installer fills in before the
    skill is used, not broken YAML."""
    if not 0 <= line < len(doc.lines):
        return False
    text = doc.lines[line]
    alone = text.strip()
    if _SLOT_LINE.fullmatch(alone) or _PLACEHOLDER_SLOT.fullmatch(alone):
        return True
    colon = text.find(":")
    value = text[colon + 1:].strip() if colon >= 0 else ""
    return _PLACEHOLDER_SLOT.search(value) is not None
