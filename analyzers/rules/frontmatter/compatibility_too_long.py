"""COMPATIBILITY_TOO_LONG: `compatibility` is over 500 characters."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule

LIMIT = 500


@rule("COMPATIBILITY_TOO_LONG", family="frontmatter", severity=Severity.ERROR)
def compatibility_too_long(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The `compatibility` field is longer than 500 characters.

    ## What it does
    Checks the Agent Skills limit of 500 characters for `compatibility`.

    ## Why is this bad?
    The spec caps the field; validators reject the skill. Long requirements belong in the body.

    ## Example
    ```markdown
    ---
    compatibility: Requires ... (600 characters of setup instructions)
    ---
    ```

    Use instead:
    ```markdown
    ---
    compatibility: Python 3.11+, network access
    ---
    ```

    ## Fix
    Keep the field to a short list of requirements; move setup steps to the body or `references/`.
    """
    text = doc.field_text("compatibility") if doc.frontmatter.ok else None
    if text is not None and len(text) > LIMIT:
        fld = doc.frontmatter.get("compatibility")
        assert fld is not None
        yield ctx.finding(fld.value_range, f"`compatibility` is {len(text)} characters (limit {LIMIT})")
