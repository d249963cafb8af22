"""UNKNOWN_MODEL: `model` names a model Claude Code does not know."""

from __future__ import annotations

from collections.abc import Iterator

from ...claude_code import data, known_model
from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Severity
from ...rule import FixAvailability, RuleContext, rule
from ...targets import CLAUDE_CODE
from ._fields import value_range


@rule("UNKNOWN_MODEL", family="claude-code", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES,
      targets=(CLAUDE_CODE,))
def unknown_model(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`model` is neither a Claude Code model alias nor a Claude model name.

    ## What it does
    Checks `model` against Claude Code's aliases (`sonnet`, `opus`, `haiku`, `best`, `default`,
    `sonnet[1m]`, `opus[1m]`, `opusplan`, and `inherit` for skills) and the shape of a full Claude
    model name (`claude-sonnet-4-6`, a Bedrock profile such as `us.anthropic.claude-…`, or a Bedrock
    ARN). The lists live in `analyzers/data/claude_code.json`, with the page and date they come from.

    ## Why is this bad?
    Claude Code runs every model through Anthropic's model names: `model: gpt-4` cannot be resolved, so the
    skill's model override fails when the skill runs. An alias in another case (`model: Opus`) is not reported:
    Claude Code lowercases the value before it matches its aliases; but `inherit` is compared as written, so
    `model: Inherit` is sent as a model name and fails.

    ## Known problems
    A Foundry deployment name or a Vertex version name can be any text; such a skill works only
    on that provider, and this rule reports it. Suppress it in the file
    (`<!-- skillgrade-disable UNKNOWN_MODEL -->`) when that is intended.

    ## Example
    ```markdown
    ---
    name: deep-review
    description: Reviews a design in depth. Use when the user asks for a design review.
    model: gpt-4
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: deep-review
    description: Reviews a design in depth. Use when the user asks for a design review.
    model: opus
    ---
    ```

    ## Fix
    When the value is `inherit` written in another case (`Inherit`), lowercases it (safe).
    Otherwise choose an alias or a full Claude model name.

    ## Fix safety
    Lowercasing an alias keeps the author's choice of model.
    """
    fld = doc.frontmatter.get("model") if doc.frontmatter.ok else None
    if fld is None or not isinstance(fld.value, str) or not fld.value.strip():
        return
    value = fld.value.strip()
    if known_model(value):
        return
    rng = value_range(doc, fld)
    lower = value.lower()
    if lower in data().model_aliases:
        if lower == "inherit":  # compared as written, before the lowercasing below
            yield ctx.finding(rng, f"`model: {value}` is not a Claude Code alias; `inherit` is matched as written "
                              f"(`{lower}`)", Fix.safe(f"Use `{lower}`", Edit(rng, lower)))
        return  # `model: Opus`: Claude Code lowercases the value before matching its aliases (parseUserSpecifiedModel)
    yield ctx.finding(rng, f"Claude Code does not know the model `{value}`; use an alias "
                      "(`sonnet`, `opus`, `haiku`, `inherit`) or a full Claude model name")
