"""UNRESTRICTED_BASH: `allowed-tools` pre-approves every shell command (`Bash`, `Bash(*)`)."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE
from ._fields import tool_entries

_ANY = ("", "*", ":*", "**")
_EXAMPLE = {"Bash": "Bash(git diff *)", "PowerShell": "PowerShell(Get-ChildItem *)"}


@rule("UNRESTRICTED_BASH", family="claude-code", severity=Severity.WARNING, targets=(CLAUDE_CODE,))
def unrestricted_bash(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`allowed-tools` allows every shell command without asking.

    ## What it does
    Flags a bare `Bash` (or `PowerShell`) entry in `allowed-tools`, and the patterns that match
    every command: `Bash(*)`, `Bash(:*)`.

    ## Why is this bad?
    While the skill is active, `allowed-tools` lets Claude use the listed tools without a
    permission prompt. An unrestricted `Bash` pre-approves any command: `rm -rf`, `curl … | sh`,
    `git push --force`. A prompt injection in a file the skill reads then runs with no human in
    the loop. Listing the commands the skill needs keeps the prompts for everything else.

    ## Example
    ```markdown
    ---
    name: test-runner
    description: Runs the test suite and summarizes failures. Use when the user asks to run the tests.
    allowed-tools: Read Grep Bash
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: test-runner
    description: Runs the test suite and summarizes failures. Use when the user asks to run the tests.
    allowed-tools: Read Grep Bash(pytest *) Bash(npm test *)
    ---
    ```

    ## Fix
    List the commands the skill runs, `Bash(git diff *)`, `Bash(npm run test:*)`, or remove
    `Bash` and let Claude Code ask. No automatic fix: which commands the skill needs is the
    author's knowledge.
    """
    fld = doc.frontmatter.get("allowed-tools") if doc.frontmatter.ok else None
    if fld is None:
        return
    for entry, rng in tool_entries(doc, fld):
        if entry.name not in ("Bash", "PowerShell"):
            continue
        if entry.spec is None or (entry.closed and entry.spec.strip() in _ANY):
            yield ctx.finding(rng, f"`{entry.text}` in `allowed-tools` runs any shell command without asking; "
                              f"list the commands the skill needs, e.g. `{_EXAMPLE[entry.name]}`")
