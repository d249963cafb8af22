"""YAML_SYNTAX: the frontmatter is not valid YAML."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import yaml_quote


@rule("YAML_SYNTAX", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def yaml_syntax(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter cannot be read as YAML.

    ## What it does
    Reports the YAML error at its line and column: unclosed brackets or quotes, bad indentation,
    tab characters used for indentation, a `: ` inside an unquoted value, values nested too deeply.
    When a markdown heading after a blank line comes before the error (`# Orchestrator Mode`, which YAML
    reads as a comment), the message asks whether the closing `---` is missing before it: the frontmatter
    then runs on to the next `---` in the body.

    A value holding a template placeholder (`name: {{tool}}`, `name: {{REPO}}-refactor`), or a line that
    is a placeholder alone (`{{EXTRA_FIELDS}}`, `__ALLOWED_RULES__`), filled in by an installer before the
    skill is used, is not reported; nor is an error a placeholder in a nested value causes (`guide:` /
    `  runtime:` / `    default_mode: {{DEFAULT_MODE}}`, which PyYAML reports at `guide:`): a frontmatter that
    parses once every `{{…}}` is replaced by a plain word is an unfilled template.

    When the error is a `: ` inside an unquoted one-line value of a top-level key (`description: Use when:
    filling PDF forms`), the message names the key, and a safe fix quotes the value (`description: "Use when:
    filling PDF forms"`, the same text, escaped as a JSON string is), offered only when the quoted line reads
    back as exactly that key and text.

    ## Why is this bad?
    Agents and validators that read YAML strictly (the Agent Skills validator, Codex, a claude.ai upload) reject
    the skill, or read its frontmatter as empty: it loses its name and description without a visible error.
    Claude Code retries a frontmatter that does not parse with such one-line values quoted, so a skill can work
    there and fail everywhere else; it does not recover a value continued on unindented lines or an unclosed
    quote. Other linters silently treat a broken frontmatter as `{}`.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: Use when: filling PDF forms
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: "Use when: filling PDF forms"
    ---
    ```

    ## Fix
    Quote values that contain `: ` or start with special characters, indent with spaces, close
    brackets and quotes.
    """
    filled: bool | None = None
    for p in doc.frontmatter.problems:
        if p.kind == "syntax" and not _template_value(doc, p.range.start.line):
            if filled is None:
                filled = _parses_filled(doc)
            if filled:
                continue  # `    default_mode: {{DEFAULT_MODE}}` in a nested block: the template parses once filled in
            quoted = _quote_fix(doc, p.range.start.line) if "mapping values are not allowed" in p.message else None
            if quoted is None:
                yield ctx.finding(p.range, p.message)
            else:
                key, fix = quoted
                yield ctx.finding(p.range, f"{p.message}: the value of `{key}` holds `: ` and is not quoted", fix)


# a top-level `key: value` on one line (the key at the line's start)
_ONE_LINE = lazy_compile(r"([A-Za-z_][\w-]{0,60}):[ \t]+(\S[^\n]*)")


def _quote_fix(doc: SkillDocument, line: int) -> tuple[str, Fix] | None:
    """`description: Use when: filling forms` on `line`: (key, a fix that quotes the value), when the quoted line
    reads back as exactly {key: value}; else None (a value continued on the next lines, an unclosed quote)."""
    if not 0 <= line < len(doc.lines):
        return None
    text = doc.lines[line].rstrip("\r")
    m = _ONE_LINE.fullmatch(text.rstrip())
    if m is None or ": " not in m.group(2) or m.group(2)[0] in "\"'[{|>&*!%@`#":
        return None
    key, value = m.group(1), m.group(2).rstrip()
    nxt = doc.lines[line + 1] if line + 1 < len(doc.lines) else ""
    if nxt.startswith((" ", "\t", "- ")) and nxt.strip():
        return None  # continued on the next lines: not a one-line value
    import yaml  # (already loaded: the frontmatter was parsed with it)

    new = f"{key}: {yaml_quote(value)}"
    try:
        back = yaml.safe_load(new)
    except yaml.YAMLError:
        return None
    if back != {key: value}:
        return None
    return key, Fix.safe(f"Quote the value of `{key}`", Edit(Range(Pos(line, m.start(2)), Pos(line, m.start(2) + len(value))),
                                                              yaml_quote(value)))


_PLACEHOLDER_SLOT = lazy_compile(r"\{\{\s?[A-Za-z_][\w.-]{0,60}\s?\}\}")
_SLOT_LINE = lazy_compile(r"__[A-Z][A-Z0-9_]{1,60}__")  # a line an installer replaces whole: `__ALLOWED_RULES__`


FILL_CHARS = 20_000  # frontmatter re-read with its placeholders filled in, at most (a template's is short)


def _parses_filled(doc: SkillDocument) -> bool:
    """The frontmatter holds `{{placeholder}}` slots and parses once each is replaced by a plain word: the
    syntax error is the unfilled template's (`guide:` / `  runtime:` / `    default_mode: {{DEFAULT_MODE}}`,
    reported at `guide:`), not the author's."""
    fm = doc.frontmatter
    if fm.close_line is None:
        return False
    text = "\n".join(doc.lines[fm.open_line + 1:fm.close_line])
    if len(text) > FILL_CHARS or "{{" not in text:
        return False
    filled, n = _PLACEHOLDER_SLOT.subn("x", text)
    if not n:
        return False
    import yaml  # (already loaded: the frontmatter was parsed with it)

    try:
        yaml.safe_load(filled)
    except yaml.YAMLError:
        return False
    return True


def _template_value(doc: SkillDocument, line: int) -> bool:
    """The line's value holds a `{{placeholder}}` (`name: {{tool}}`, `name: {{REPO}}-refactor`), or the line is
    a placeholder alone (`{{EXTRA_FIELDS}}`, `__ALLOWED_RULES__`): a template an installer fills in before the
    skill is used, not broken YAML."""
    if not 0 <= line < len(doc.lines):
        return False
    text = doc.lines[line]
    alone = text.strip()
    if _SLOT_LINE.fullmatch(alone) or _PLACEHOLDER_SLOT.fullmatch(alone):
        return True
    colon = text.find(":")
    value = text[colon + 1:].strip() if colon >= 0 else ""
    return _PLACEHOLDER_SLOT.search(value) is not None
