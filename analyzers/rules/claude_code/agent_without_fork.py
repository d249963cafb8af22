"""AGENT_WITHOUT_FORK: `agent` is set but `context` is not `fork`, so the agent is never used."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...package_code import package_reads
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE


@rule("AGENT_WITHOUT_FORK", family="claude-code", severity=Severity.WARNING, targets=(CLAUDE_CODE,))
def agent_without_fork(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`agent` is set without `context: fork`.

    ## What it does
    Flags an `agent` field when the frontmatter has no `context: fork`. Not when the code of the skill's shipping
    package reads `agent` from its skills (a workflow builder's orchestrator id beside its `team_config`; see
    `UNKNOWN_FIELD` for how the package is found): that is the package's key, and a fork would change the skill.

    ## Why is this bad?
    Claude Code uses `agent` only to choose the sub-agent type of a forked skill (`context:
    fork`). Without the fork the skill runs in the main conversation and the agent named here is
    ignored, which is rarely what the author meant.

    ## Example
    ```markdown
    ---
    name: codebase-survey
    description: Surveys an unfamiliar codebase. Use when the user asks how a repository is organized.
    agent: Explore
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: codebase-survey
    description: Surveys an unfamiliar codebase. Use when the user asks how a repository is organized.
    context: fork
    agent: Explore
    ---
    ```

    ## Fix
    Add `context: fork`, or remove `agent`. No automatic fix: forking changes what the skill sees.
    """
    fm = doc.frontmatter
    fld = fm.get("agent") if fm.ok else None
    if fld is None or fld.value in (None, ""):
        return
    ctx_fld = fm.get("context")
    if ctx_fld is not None and isinstance(ctx_fld.value, str) and ctx_fld.value.strip().lower() == "fork":
        return
    if package_reads(doc, "agent"):
        return  # the shipping package's own code reads `agent` (a workflow's orchestrator): its key, not Claude Code's
    yield ctx.finding(fld.key_range, "`agent` is ignored without `context: fork`; the skill runs in the main "
                      "conversation")
