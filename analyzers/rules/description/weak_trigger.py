"""WEAK_TRIGGER: the description implies when to use the skill but has no explicit trigger clause."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Fix, Severity
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import explicit_trigger, usage_context
from ._text import append_sentence
from .missing_trigger import PLACEHOLDER, driver_routes, routed_description, unread_trigger_note


@rule("WEAK_TRIGGER", family="description", severity=Severity.INFO, fix=FixAvailability.ALWAYS)
def weak_trigger(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The description only implies when to use the skill ("Toolkit for testing …"); say it explicitly.

    ## What it does
    Fires when the description has a usage context but no explicit trigger clause: case 2 of the
    decision documented under `MISSING_TRIGGER` (situation: "when building UI", "during reviews",
    "if the user …"; purpose: "Toolkit for testing web apps", "Toolkit for web-app tests",
    "Toolkit to test web apps" — all the same shape, all this code). Not an anti-pattern: it does
    not count toward the penalty, but the triggering sub-score gives the weaker phrasing less credit
    (0.15 instead of 0.25 of the trigger points).

    ## Why is this bad?
    Routers match requests against descriptions; an explicit "Use when the user asks to …" followed
    by concrete situations is the cue they follow most reliably. A purpose phrase says what the skill
    is for, not which requests should load it.

    ## Example
    ```markdown
    ---
    name: webapp-testing
    description: Toolkit for interacting with and testing local web applications using Playwright.
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: webapp-testing
    description: Toolkit for testing local web applications with Playwright. Use when the user asks
      to check a page in a browser, capture a screenshot, or debug frontend behaviour.
    ---
    ```

    ## Fix
    Appends a "Use when …" sentence with a placeholder, after a full stop when the description has none
    (display only: replace the placeholder with real situations). When the frontmatter keeps the trigger in a
    field no agent reads (`usage_trigger: "Use when …"`, a `triggers` list), the message names it.
    """
    found = routed_description(doc)
    if found is None:
        return
    fld, text = found
    if explicit_trigger(text) or not usage_context(text) or driver_routes(doc):
        return  # explicit: fine; none at all: MISSING_TRIGGER; routed by an agent's driver file: no matter
    fix = Fix.suggestion("Add an explicit \"Use when …\" clause", append_sentence(doc, fld, PLACEHOLDER))
    # (`usage_trigger: "Use when …"`: the clause exists, where no agent reads it)
    yield ctx.finding(fld.value_range, "`description` only implies when to use the skill; add an explicit "
                                       "\"Use when …\" clause" + unread_trigger_note(doc.frontmatter.data), fix)
