"""PERMISSION_RULE_SYNTAX: an `allowed-tools` permission rule Claude Code cannot read as meant."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE
from ._fields import tool_entries


def _problem(name: str, spec: str | None, closed: bool) -> str | None:
    if spec is None:
        return None
    if not closed:
        return "has no closing `)`"
    if spec.count("(") != spec.count(")"):
        return "has unbalanced parentheses"
    if not spec.strip():
        return "has an empty `()`; write the bare tool name to allow every use, or a pattern inside"
    if name in ("Bash", "PowerShell") and ":*," in spec.replace(" ", ""):
        return (f"packs several commands into one rule; Claude Code reads it as one pattern that no command "
                f"matches: write one rule per command (`{name}(…:*)`, comma-separated)")
    if name in ("Bash", "PowerShell") and ":*" in spec.rstrip()[:-2]:
        return "uses `:*` before the end; the prefix form `:*` only works at the end of the pattern (use ` *`)"
    if name == "WebFetch" and not spec.startswith("domain:"):
        return "needs the form `WebFetch(domain:example.com)`"
    return None


@rule("PERMISSION_RULE_SYNTAX", family="claude-code", severity=Severity.WARNING, targets=(CLAUDE_CODE,))
def permission_rule_syntax(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """An `allowed-tools` permission rule is malformed.

    ## What it does
    Checks the `Tool(pattern)` entries of `allowed-tools` against Claude Code's permission-rule
    syntax: the parenthesis is closed and balanced, the pattern is not empty, the legacy prefix
    form `:*` of `Bash(…)` comes only at the end (`Bash(git diff:*)`), one rule holds one command
    (`Bash(ls:*, git log:*)` packs two: one rule each, `Bash(ls:*), Bash(git log:*)`), and `WebFetch` takes
    `domain:` (`WebFetch(domain:docs.python.org)`). `Read(./src/**)`, `Bash(npm run *)` and MCP
    names are valid. Unknown tool names are `UNKNOWN_TOOL`'s.

    ## Why is this bad?
    A rule Claude Code cannot match pre-approves nothing (or, for a stray `:*` in the middle of a
    pattern, matches a literal `:*` that no command contains), so the skill keeps stopping for
    permission prompts the author meant to remove.

    ## Example
    ```markdown
    ---
    name: git-summary
    description: Summarizes local changes. Use when the user asks what changed in the working tree.
    allowed-tools: Bash(git diff:* --stat) WebFetch(https://git-scm.com) Bash(git log:*
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: git-summary
    description: Summarizes local changes. Use when the user asks what changed in the working tree.
    allowed-tools: Bash(git diff *) WebFetch(domain:git-scm.com) Bash(git log:*)
    ---
    ```

    ## Fix
    Rewrite the rule in the documented form. No automatic fix: the intended pattern is the
    author's.
    """
    fld = doc.frontmatter.get("allowed-tools") if doc.frontmatter.ok else None
    if fld is None:
        return
    for entry, rng in tool_entries(doc, fld):
        problem = _problem(entry.name, entry.spec, entry.closed)
        if problem:
            yield ctx.finding(rng, f"Permission rule `{entry.text}` {problem}")
