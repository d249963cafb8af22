"""INVALID_FIELD_VALUE: `context`, `effort` or `shell` holds a value Claude Code does not document."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ...claude_code import data
from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Severity
from ...rule import FixAvailability, RuleContext, rule
from ...targets import CLAUDE_CODE
from ._fields import value_range


@rule("INVALID_FIELD_VALUE", family="claude-code", severity=Severity.WARNING,
      fix=FixAvailability.SOMETIMES, targets=(CLAUDE_CODE,))
def invalid_field_value(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A Claude Code field with a fixed set of values holds another value.

    ## What it does
    Checks the fields whose values Claude Code documents as a closed list: `context` (only
    `fork`), `effort` (`low`, `medium`, `high`, `xhigh`, `max`) and `shell` (`bash`,
    `powershell`). The lists live in `analyzers/data/claude_code.json`, with the page and date
    they come from. Non-text values are `FIELD_TYPE`'s. An empty value (`context: ''`, a frontmatter that writes
    every field with an empty default) is the same as leaving the key out and is not reported.

    ## Why is this bad?
    Claude Code ignores a value it does not know: `context: isolated` runs the skill in the main
    conversation rather than a forked sub-agent, `effort: maximum` keeps the session's effort, and
    the author never finds out.

    ## Example
    ```markdown
    ---
    name: deep-review
    description: Reviews a design in depth. Use when the user asks for a design review.
    context: forked
    effort: maximum
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: deep-review
    description: Reviews a design in depth. Use when the user asks for a design review.
    context: fork
    effort: max
    ---
    ```

    ## Fix
    A documented value in another case (`Fork`) is lowercased (safe); a near miss (`forked`,
    `maximum`) is replaced by the closest documented value (unsafe: check the intent).

    ## Fix safety
    Lowercasing keeps the value the author wrote. The closest value is a guess.
    """
    if not doc.frontmatter.ok:
        return
    for key, values in data().enums.items():
        fld = doc.frontmatter.get(key)
        if fld is None or not isinstance(fld.value, str):
            continue
        value = fld.value.strip()
        if value in values or not value:
            continue  # (`context: ''`: an empty value, the same as no key: Claude Code's default applies)
        rng = value_range(doc, fld)
        allowed = ", ".join(f"`{v}`" for v in values)
        if value.lower() in values:
            yield ctx.finding(rng, f"`{key}: {value}` must be lowercase", Fix.safe(f"Use `{value.lower()}`",
                                                                                Edit(rng, value.lower())))
            continue
        close = difflib.get_close_matches(value.lower(), values, n=1, cutoff=0.6)
        if not close and value.lower().startswith(values):  # `forked`, `maximum`
            close = [v for v in values if value.lower().startswith(v)][:1]
        fix = Fix.unsafe(f"Use `{close[0]}`", Edit(rng, close[0])) if close else None
        yield ctx.finding(rng, f"`{key}: {value}` is not a value Claude Code knows ({allowed})", fix)
