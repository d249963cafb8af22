"""BODY_OVER_BUDGET: the body exceeds the spec's 500 lines or ~5,000 tokens guidance."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...measures import estimate_lines_tokens, lines_chars
from ...rule import RuleContext, rule


@rule("BODY_OVER_BUDGET", family="body", severity=Severity.INFO)
def body_over_budget(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The body is over 500 lines or about 5,000 tokens (Agent Skills guidance).

    ## What it does
    Counts the body's lines (after the frontmatter) and estimates its tokens at four characters per
    token, and one token per CJK character, kana or Hangul syllable (a tokenizer spends at least one on each, so
    four to a token would undercount a Chinese, Japanese or Korean body fourfold). Flags more than 500 lines or 5,000 tokens. Both budgets are configurable
    (`body-line-budget`, `body-token-budget`). The finding is placed on the first line past the line
    budget, or on the first line when only the token budget is exceeded.

    ## Why is this bad?
    The spec recommends keeping SKILL.md under 500 lines and 5,000 tokens so that activating the skill
    stays cheap; detail goes into files the agent reads on demand.

    ## Example
    ```text
    SKILL.md body: 720 lines
    ```

    Use instead:
    ```text
    SKILL.md body: 310 lines + references/advanced.md
    ```

    ## Options
    `body-line-budget` (default 500), `body-token-budget` (default 5000).

    ## Fix
    Move detail into `references/`.
    """
    lines_budget = ctx.config.body_line_budget
    tokens_budget = ctx.config.body_token_budget
    body_lines = doc.body_line_count
    if doc.too_large:
        tokens = len(doc.text) // 4
    else:  # (no character is more than one token: a body of no more characters than the budget is within it)
        lines = doc.index.lines[doc.body_start_line:]
        chars = lines_chars(lines)
        tokens = estimate_lines_tokens(lines, chars) if chars > tokens_budget else 0
    if body_lines <= lines_budget and tokens <= tokens_budget:
        return
    parts = []
    if body_lines > lines_budget:
        parts.append(f"{body_lines} lines (budget {lines_budget})")
    if tokens > tokens_budget:
        parts.append(f"~{tokens:,} tokens (budget {tokens_budget:,})")
    line = doc.body_start_line + lines_budget if body_lines > lines_budget else 0
    yield ctx.finding(doc.index.trimmed_line_range(min(line, len(doc.lines) - 1)),
                      "Body is over budget: " + " and ".join(parts))
