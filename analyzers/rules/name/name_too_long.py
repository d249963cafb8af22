"""NAME_TOO_LONG: `name` is over 64 characters."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule

LIMIT = 64


@rule("NAME_TOO_LONG", family="name", severity=Severity.ERROR)
def name_too_long(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`name` is longer than 64 characters.

    ## What it does
    Checks the Agent Skills limit of 64 characters for `name`.

    ## Why is this bad?
    Validators reject longer names, and the name is typed as a slash command.

    ## Example
    ```markdown
    ---
    name: a-very-long-skill-name-that-describes-everything-the-skill-does-in-detail
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-form-filler
    ---
    ```

    ## Fix
    Shorten the name (and rename the directory to match).
    """
    fld = doc.frontmatter.get("name") if doc.frontmatter.ok else None
    if fld is not None and isinstance(fld.value, str) and len(fld.value) > LIMIT:
        yield ctx.finding(fld.value_range, f"`name` is {len(fld.value)} characters (limit {LIMIT})")
