"""NAME_RESERVED_WORD: `name` contains the reserved word `anthropic` or `claude`."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_API

RESERVED = ("anthropic", "claude")


@rule("NAME_RESERVED_WORD", family="name", severity=Severity.WARNING, targets=(CLAUDE_API,))
def name_reserved_word(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`name` contains a reserved word (`anthropic`, `claude`).

    ## What it does
    Splits `name` at hyphens and flags a part that is `anthropic` or `claude`.

    ## Why is this bad?
    Anthropic's skill rules for the Claude API and claude.ai reserve these words: an upload whose
    name contains them is rejected. Claude Code and the Agent Skills spec do not reserve them, so
    the rule applies only with `target = "claude-api"`. Words that merely start the same way
    (`claudette`) are not reserved.

    ## Example
    ```markdown
    ---
    name: claude-pdf-helper
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-helper
    ---
    ```

    ## Fix
    Rename the skill (and its directory) without the reserved word. No automatic fix: the new
    name is the author's choice.
    """
    fm = doc.frontmatter
    fld = fm.get("name") if fm.ok else None
    if fld is None or not isinstance(fld.value, str):
        return
    parts = fld.value.strip().lower().split("-")
    found = [w for w in RESERVED if w in parts]
    if found:
        yield ctx.finding(fld.value_range, f"`name: {fld.value.strip()}` contains the reserved word `{found[0]}`; "
                          "the Claude API and claude.ai reject it")
