"""FRONTMATTER_NOT_MAPPING: the frontmatter is a list or a scalar."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule


@rule("FRONTMATTER_NOT_MAPPING", family="frontmatter", severity=Severity.ERROR)
def frontmatter_not_mapping(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter is valid YAML but not a mapping of keys to values (or it is empty).

    ## What it does
    Flags a frontmatter that is a YAML list, a plain string, or empty.

    ## Why is this bad?
    Skill metadata is read as `key: value` pairs. A list or a scalar has no `name` or `description`;
    reference tools crash on it.

    ## Example
    ```markdown
    ---
    - name: pdf-tools
    - description: Use when filling PDF forms.
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
    Write the metadata as `key: value` lines without leading `- `.
    """
    fm = doc.frontmatter
    if not fm.present or not fm.terminated or any(p.kind == "syntax" for p in fm.problems):
        return
    if fm.root_kind == "empty":
        yield ctx.finding(doc.frontmatter_range(), "Frontmatter is empty: it needs `name` and `description`")
    elif fm.root_kind in ("sequence", "scalar"):
        what = "a list" if fm.root_kind == "sequence" else "a single value"
        yield ctx.finding(fm.root_range or doc.frontmatter_range(),
                          f"Frontmatter is {what}, not a mapping of `key: value` pairs")
