"""DESCRIPTION_XML_TAG: the description contains an XML tag."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...codespan import code_spans
from ...document import SkillDocument
from ...findings import Finding, Severity
from ...lazy_re import lazy_compile
from ...rule import RuleContext, rule
from ...targets import CLAUDE_API, CLAUDE_CODE
from ._text import description

# an opening, closing or self-closing tag: `<example>`, `</example>`, `<br/>`, `<tool name="x">`
TAG = lazy_compile(r"</?[A-Za-z][\w.:-]*(?:\s+[\w.:-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>=`]+))?)*\s*/?>")
_NAME = lazy_compile(r"</?([\w.:-]+)")
_BARE = lazy_compile(r"<[\w.:-]+\s*>")  # an opening tag without attributes
_WORDS = lazy_compile(r"<[\w.:-]+(?:\s+[\w.:-]+)*\s*>")  # an opening tag of words only: `<project root>`


def _name(tag: str) -> str:
    m = _NAME.match(tag)
    return m.group(1).lower() if m else tag


def markup_tags(text: str) -> list[re.Match]:
    """The tags in `text` that are markup, not placeholders. A placeholder is left out: inside an inline
    code span (`` `/review <pr-number>` ``), a path segment (`references/<language>/README.md`), a type
    parameter glued to a name (`Execute<T>`, `List<String>`), or a bare `<name>` or `<some words>` that
    nothing closes (`/ssh <instruction>`, `cwd="<project root>"`). A closing tag, a self-closing tag, a tag with attributes and an opening tag
    closed later in the text are markup."""
    spans = code_spans(text)
    found: list[re.Match] = []
    k = 0
    for m in TAG.finditer(text):
        while k < len(spans) and spans[k][1] <= m.start():
            k += 1
        if k < len(spans) and spans[k][0] <= m.start():
            continue  # inside a code span
        if text[m.start() - 1:m.start()] == "/" or text[m.end():m.end() + 1] == "/":
            continue  # a path segment
        found.append(m)
    closed_at: dict[str, int] = {}  # name -> offset of its last closing tag
    for m in found:
        if m.group(0).startswith("</"):
            closed_at[_name(m.group(0))] = m.start()
    markup = []
    for m in found:
        tag = m.group(0)
        bare = _BARE.fullmatch(tag) is not None
        if bare and text[m.start() - 1:m.start()].isalnum():
            continue  # `Execute<T>`: a type parameter
        if (bare or _WORDS.fullmatch(tag)) and closed_at.get(_name(tag), -1) < m.start():
            continue  # `<instruction>`, `<project root>` with nothing closing them: placeholders
        markup.append(m)
    return markup


@rule("DESCRIPTION_XML_TAG", family="description", severity=Severity.WARNING, targets=(CLAUDE_API, CLAUDE_CODE))
def description_xml_tag(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The `description` contains an XML tag.

    ## What it does
    Looks for markup in `description`: a closing tag (`</example>`), a self-closing tag (`<br/>`), a tag
    with attributes (`<tool name="x">`), or an opening tag that the text closes later
    (`<example>…</example>`). Comparisons and placeholders are not tags: `a < b`, `<5 MB`,
    `<patch|minor|major>`, a placeholder inside an inline code span (`` `/review <pr-number>` ``), a path
    segment (`references/<language>/README.md`), a type parameter glued to a name (`Execute<T>`), and a
    bare `<name>` or `<some words>` (no `=`) that nothing closes (`/ssh [cluster] <instruction>`,
    `kg_read(cwd="<project root>")`).

    With `target = "claude-api"` every tag-shaped `<…>` counts, placeholders included: Anthropic's upload
    validator for the Claude API and claude.ai rejects the description whatever the brackets mean
    (skill-creator's `quick_validate.py`: "Description cannot contain angle brackets").

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
    if ctx.config.target == CLAUDE_API:  # the upload validator rejects placeholders in angle brackets too
        m = TAG.search(text)
        if m:
            yield ctx.finding(fld.value_range, f"`description` contains the XML tag `{m.group(0)[:40]}`; the "
                                               "Claude API rejects angle brackets in a description")
        return
    tags = markup_tags(text)
    if tags:
        yield ctx.finding(fld.value_range, f"`description` contains the XML tag `{tags[0].group(0)[:40]}`")
