"""FILE_TOO_LARGE: the SKILL.md is too large to analyse fully."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...parse import MAX_ANALYSED_CHARS
from ...rule import RuleContext, rule


@rule("FILE_TOO_LARGE", family="input", severity=Severity.WARNING)
def file_too_large(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md is larger than 2,000,000 characters, or its frontmatter has over 2,000 keys.

    ## What it does
    Flags a SKILL.md over 2,000,000 characters: skillgrade still checks its frontmatter but skips the
    markdown body so that the editor stays responsive. Also flags a frontmatter with more than 2,000
    top-level keys: only the first 2,000 are checked.

    ## Why is this bad?
    A SKILL.md body is loaded into the model's context whenever the skill triggers. Anything near this
    size cannot fit in a context window at all; it is almost always generated data pasted by mistake.

    ## Example
    ```text
    A SKILL.md with 50,000 lines of logs pasted under "## Examples"
    ```

    Use instead:
    ```text
    A short SKILL.md that links to references/examples.md
    ```

    ## Fix
    Move bulk material into `references/` or `assets/` and link to it.
    """
    if doc.too_large:
        yield ctx.finding(doc.frontmatter_range(),
                          f"File has {len(doc.text):,} characters (limit {MAX_ANALYSED_CHARS:,}); body not analysed")
    for p in doc.frontmatter.problems:
        if p.kind == "too-large":
            yield ctx.finding(p.range, p.message)
