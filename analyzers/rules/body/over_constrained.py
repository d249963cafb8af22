"""OVER_CONSTRAINED: more than 15 MUST/ALWAYS/NEVER directives in prose."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...measures import directives
from ...rule import RuleContext, rule

LIMIT = 15


@rule("OVER_CONSTRAINED", family="body", severity=Severity.WARNING, anti_pattern=True)
def over_constrained(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """More than 15 MUST / ALWAYS / NEVER directives in the prose (methodology anti-pattern).

    ## What it does
    Counts the upper-case words MUST, ALWAYS and NEVER used as directives in the markdown prose.
    Words inside code blocks, inline code, the frontmatter, HTML comments, blockquotes and
    double-quoted text are not directives and are not counted, nor are headings (`### NEVER` labels the rules
    below it), a table cell that is the word alone (`| ALWAYS | Every invocation |`: a loading level's name),
    nor keywords joined by a slash ("Count
    MUST/NEVER/ALWAYS constraints" names the words), nor a numbered rule's label ("HARD CONSTRAINTS (MUST 7)",
    "(MUST 6, 12, 13)": it cites a rule stated elsewhere). The finding is placed on the 16th
    directive, the one that crosses the limit.

    ## Why is this bad?
    A wall of absolute rules reduces the model's flexibility, costs tokens, and signals
    micromanagement instead of explained guidance. Models follow reasons better than shouting.

    ## Example
    ```markdown
    You MUST read the file. You MUST NEVER skip a step. ALWAYS ... (16 or more of these)
    ```

    Use instead:
    ```markdown
    Read the file first: the schema decides which fields exist. Keep the hard rules for safety.
    ```

    ## Fix
    Replace directives with the reason behind them; keep hard constraints for real safety or
    correctness requirements (target fewer than 10 per 100 lines).
    """
    found = directives(doc)
    if len(found) > LIMIT:
        d = found[LIMIT]
        yield ctx.finding(d.range, f"{len(found)} MUST/ALWAYS/NEVER directives in prose (limit {LIMIT}); "
                                   "explain the reason instead of adding another absolute rule")
