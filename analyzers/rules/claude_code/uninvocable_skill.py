"""UNINVOCABLE_SKILL: neither the model nor the user can invoke the skill."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE


@rule("UNINVOCABLE_SKILL", family="claude-code", severity=Severity.WARNING, targets=(CLAUDE_CODE,))
def uninvocable_skill(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`disable-model-invocation: true` together with `user-invocable: false`.

    ## What it does
    Flags a skill that sets both `disable-model-invocation: true` (the model may not load it) and
    `user-invocable: false` (it is hidden from the `/` menu).

    ## Why is this bad?
    Claude Code then offers the skill to nobody: the model does not see it and the user cannot
    type `/name`. The skill is dead weight in the library. Usually one of the two was meant:
    `disable-model-invocation: true` for a command only the user runs, or `user-invocable: false`
    for background knowledge only the model loads.

    ## Example
    ```markdown
    ---
    name: deploy
    description: Deploys the app to production. Use when the user asks to deploy.
    disable-model-invocation: true
    user-invocable: false
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: deploy
    description: Deploys the app to production. Use when the user asks to deploy.
    disable-model-invocation: true
    ---
    ```

    ## Fix
    Remove one of the two fields. No automatic fix: which one is the author's choice.
    """
    fm = doc.frontmatter
    if not fm.ok:
        return
    dmi, ui = fm.get("disable-model-invocation"), fm.get("user-invocable")
    if dmi is None or ui is None or dmi.value is not True or ui.value is not False:
        return
    yield ctx.finding(ui.key_range, "Nobody can invoke this skill: `disable-model-invocation: true` hides it from "
                      "the model and `user-invocable: false` hides it from the `/` menu")
