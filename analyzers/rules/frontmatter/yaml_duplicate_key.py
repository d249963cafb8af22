"""YAML_DUPLICATE_KEY: a frontmatter key appears twice."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Related, Severity
from ...rule import FixAvailability, RuleContext, rule


@rule("YAML_DUPLICATE_KEY", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def yaml_duplicate_key(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A top-level frontmatter key is defined more than once.

    ## What it does
    Flags the second (and later) definition of the same top-level key.

    ## Why is this bad?
    YAML forbids duplicate keys, but loaders disagree: PyYAML keeps the last value, strict loaders
    reject the file, and skill validators differ. What the agent sees depends on the tool.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    name: pdf
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    ---
    ```

    ## Fix
    Deletes the earlier definition's line, keeping the value every PyYAML-based tool reads today
    (unsafe: it may not be the value you meant; multi-line values need a manual edit).
    """
    for p in doc.frontmatter.problems:
        if p.kind != "duplicate":
            continue
        fix = None
        first = p.first_range
        if first is not None:
            line = first.start.line
            nxt = line + 1
            # only a single-line earlier value can be deleted safely by line
            if nxt < len(doc.lines) and (doc.lines[nxt][:1] not in (" ", "\t", "-") or not doc.lines[nxt].strip()):
                fix = Fix.unsafe(f"Remove the earlier `{p.key}`", Edit(Range(Pos(line, 0), Pos(nxt, 0)), ""))
        related = [Related(str(doc.path or ""), first, "first definition")] if first else []
        yield ctx.finding(p.range, p.message, fix, related=related)
