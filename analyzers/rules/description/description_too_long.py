"""DESCRIPTION_TOO_LONG: the description is over 1024 characters."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ._text import description

LIMIT = 1024


@rule("DESCRIPTION_TOO_LONG", family="description", severity=Severity.ERROR)
def description_too_long(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The `description` is longer than 1024 characters.

    ## What it does
    Checks the Agent Skills limit of 1024 characters for `description`.

    ## Why is this bad?
    Validators reject the skill, and some agents truncate the description in the skill listing,
    cutting off the trigger clauses at the end. Every skill's description is loaded into every
    conversation, so length costs context for all of them.

    ## Example
    ```markdown
    ---
    description: (1,100 characters listing every feature and every trigger)
    ---
    ```

    Use instead:
    ```markdown
    ---
    description: Reference for the Claude API. Use when the code imports anthropic or the user
      asks about Claude models, pricing or limits.
    ---
    ```

    ## Fix
    Keep what the skill does and when to use it; move details to the body.
    """
    if not doc.frontmatter.ok:
        return
    fld, text = description(doc)
    if fld is not None and text is not None and len(text) > LIMIT:
        yield ctx.finding(fld.value_range, f"`description` is {len(text)} characters (limit {LIMIT})")
