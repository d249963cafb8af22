"""BINARY_CONTENT: the SKILL.md is not text."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...rule import RuleContext, rule


@rule("BINARY_CONTENT", family="input", severity=Severity.ERROR)
def binary_content(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md contains NUL bytes or bytes that are not UTF-8.

    ## What it does
    Flags a SKILL.md that holds binary data (NUL bytes or invalid UTF-8). The markdown body is not
    analysed; frontmatter checks still run on what could be decoded.

    ## Why is this bad?
    Agents read SKILL.md as UTF-8 text. Binary bytes usually mean a corrupted file, a wrong encoding
    (UTF-16, Latin-1) or an accidental copy of another file over SKILL.md.

    ## Example
    ```text
    ---\\x00name: pdf\\xff
    ```

    Use instead:
    ```markdown
    ---
    name: pdf
    description: Use when reading or filling PDF forms.
    ---
    ```

    ## Fix
    Re-save the file as UTF-8 text.
    """
    if doc.binary:
        yield ctx.finding(Range(Pos(0, 0), Pos(0, len(doc.lines[0]) if doc.lines else 0)),
                          "File is not UTF-8 text (NUL or undecodable bytes); the body was not analysed")
