"""DESCRIPTION_XML_TAG: the description contains an XML tag."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_API, CLAUDE_CODE
from ._text import description

# an opening, closing or self-closing tag: `<example>`, `</example>`, `<br/>`, `<tool name="x">`
TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s+[\w.:-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>=`]+))?)*\s*/?>")


@rule("DESCRIPTION_XML_TAG", family="description", severity=Severity.WARNING, targets=(CLAUDE_API, CLAUDE_CODE))
def description_xml_tag(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The `description` contains an XML tag.

    ## What it does
    Looks for an opening, closing or self-closing tag (`<example>`, `</example>`, `<br/>`) in
    `description`. Comparisons and placeholders such as `a < b` or `<5 MB` are not tags.

    ## Why is this bad?
    The description is placed inside the system prompt's own tagged skill listing; a tag in it can
    break that structure or be read as an instruction. Anthropic's skill rules for the Claude API
    and claude.ai reject a description with XML tags. The rule applies with `target = "claude-api"`
    and `"claude-code"` (Claude Code puts the description in the same tagged listing); the plain
    Agent Skills spec does not forbid tags.

    ## Example
    ```markdown
    ---
    description: Reviews pull requests. <example>review PR 42</example>
    ---
    ```

    Use instead:
    ```markdown
    ---
    description: Reviews pull requests. Use when the user asks to review a PR, e.g. "review PR 42".
    ---
    ```

    ## Fix
    Say it in plain words; move examples to the body. No automatic fix.
    """
    if not doc.frontmatter.ok:
        return
    fld, text = description(doc)
    if fld is None or not text or "<" not in text:
        return
    m = TAG.search(text)
    if m:
        yield ctx.finding(fld.value_range, f"`description` contains the XML tag `{m.group(0)[:40]}`")
