"""UTF8_BOM: SKILL.md starts with a UTF-8 byte order mark."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...rule import RuleContext, rule


@rule("UTF8_BOM", family="input", severity=Severity.WARNING)
def utf8_bom(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md starts with a UTF-8 byte order mark (U+FEFF).

    ## What it does
    Flags a SKILL.md whose first bytes are `EF BB BF`. skillgrade reads the file correctly either
    way (the mark is dropped before parsing, as editors do), so the other findings are unaffected.

    ## Why is this bad?
    The frontmatter must start with `---` on the first line. Several readers do not skip the mark:
    the Agent Skills reference validator (`skills-ref`) and skill-creator's `quick_validate.py`
    report "must start with YAML frontmatter", and the reference evaluator reads no frontmatter at all.

    ## Example
    ```text
    <U+FEFF>---
    name: pdf-tools
    ```

    Use instead:
    ```text
    ---
    name: pdf-tools
    ```

    ## Fix
    Save the file as UTF-8 without a BOM (the mark is outside the text editors show, so there is no
    editor quick fix); `skillgrade score --fix` rewrites the file without it.
    """
    if doc.bom:
        first = doc.lines[0] if doc.lines else ""
        yield ctx.finding(Range(Pos(0, 0), Pos(0, len(first))),
                          "File starts with a UTF-8 byte order mark; some skill readers then see no frontmatter")
