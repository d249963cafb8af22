"""YAML_AMBIGUOUS_VALUE: an unquoted value that YAML reads as something other than text, or cuts at a `#`."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from ... import rx
from ...document import Field, SkillDocument
from ...fields import BOOL_FIELDS, STRING_FIELDS
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import yaml_quote

_YAML11_BOOL = rx.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")


def _kind(value: object) -> str | None:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, datetime.date | datetime.datetime):
        return "a date"
    if value is None:
        return "null"
    return None


def _scalars(fld: Field) -> Iterator[tuple[object, object, str]]:
    """(node, value, where) for the field and, for `metadata`, its values."""
    if fld.key == "metadata" and isinstance(fld.value, dict) and fld.node.__class__.__name__ == "MappingNode":
        for k_node, v_node in fld.node.value:
            if v_node.__class__.__name__ == "ScalarNode":
                yield v_node, fld.value.get(k_node.value), f"metadata.{k_node.value}"
    elif fld.node is not None and fld.node.__class__.__name__ == "ScalarNode":
        yield fld.node, fld.value, fld.key


# after a plain value, ` #` and a word at once: a hashtag, a channel, an issue number (`#ops-github`, `#123`,
# `#expect`), which YAML reads as a comment (a note to readers is written `# note`, with a blank)
WORD_COMMENT = lazy_compile(r"[ \t]+#[^\W_]")  # (only for a frontmatter with a `#`)
SHOWN = 40  # characters of the lost text shown in the message
_TICKS = lazy_compile(r"`+")


def _code(text: str) -> str:
    """`text` as a markdown code span, fenced by more backticks than its longest run of them."""
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(m) for m in _TICKS.findall(text)) + 1)
    return f"{fence} {text} {fence}"


def _cut_by_comment(doc: SkillDocument, ctx: RuleContext, node: object, where: str) -> Finding | None:
    """The plain one-line value ends where ` #word` starts a comment: the rest of its line is lost."""
    rng = doc.node_range(node)
    if rng.start.line != rng.end.line or rng.end.line >= len(doc.lines):
        return None  # (a value over several lines: left as it is)
    line = doc.lines[rng.end.line]
    m = WORD_COMMENT.match(line, rng.end.character)
    if m is None:
        return None
    lost = line[m.end() - 2:].rstrip()  # from the `#`
    shown = lost if len(lost) <= SHOWN else lost[:SHOWN] + "…"
    whole = Range(rng.start, Pos(rng.end.line, len(line.rstrip())))
    return ctx.finding(
        rng, f"`{where}`: YAML reads {_code(shown)} as a comment, so the value ends before it; quote the whole value",
        Fix.unsafe("Quote the whole value, comment included", Edit(whole, yaml_quote(doc.source(whole)))))


@rule("YAML_AMBIGUOUS_VALUE", family="frontmatter", severity=Severity.WARNING, fix=FixAvailability.ALWAYS)
def yaml_ambiguous_value(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """An unquoted value is read as a boolean, number, date or null where text is meant, or is cut at a `#`.

    ## What it does
    Flags unquoted (plain) values of text fields (`name`, `description`, `license`, `compatibility`,
    `version`, `metadata` values, ...) that YAML turns into something else: `yes`/`no`/`on`/`off`
    (booleans in YAML 1.1, strings in YAML 1.2), `1.10` (the number 1.1), `2024-01-01` (a date). A null
    written out (`argument-hint: ~`, `null`, or nothing) is taken as unset on purpose: quoting `~` would show a
    literal "~", and a required field's own rule reports a null one (NAME_MISSING, EMPTY_DESCRIPTION). Also flags `yes`/`no`/`on`/`off` in boolean fields, which YAML 1.2
    readers take as strings. A `version` or `metadata` whole number that reads back as written
    (`version: 2`, `tier: 2`) is not reported: every reader agrees on it and its text is unchanged (a package's own tools may require the
    number); `1.10`, `1.0` (JavaScript readers print `1`), `007`, `1e3` are. Nor is a `metadata` flag
    written `true` / `false` (`metadata: {"always_inject": true}`), which every YAML and JSON reader reads
    alike.

    An unquoted one-line text value followed by a blank and `#` with a word right after it (`#ops-github`,
    `"fix issue #N"`, `#expect`) is cut there: YAML reads ` #` as the start of a comment, so the rest of the
    line is dropped (`description: Posts activity to #ops-github. Internal skill for nightly cron.` is the
    description "Posts activity to"). A comment written `# note`, with a blank after `#`, is taken as meant.

    ## Why is this bad?
    Different YAML readers give different answers: PyYAML reads `description: yes` as `True`, a
    YAML 1.2 reader as `"yes"`. Version numbers lose digits (`1.10` becomes `1.1`). A description cut at a
    `#` loses its trigger phrases and everything after them, and the agent routes on what is left.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    version: 1.10
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    version: "1.10"
    ---
    ```

    ## Fix
    Quotes the value exactly as written (safe: the text is unchanged), or, for boolean fields, writes
    `true`/`false`. A value cut at a `#` is quoted with the rest of its line (unsafe: the value then holds
    the text that YAML dropped, as its author meant).
    """
    fm = doc.frontmatter
    if not fm.ok:
        return
    hashes = fm.close_line is not None and any("#" in ln for ln in doc.lines[fm.open_line + 1:fm.close_line])
    for key, fld in fm.fields.items():
        if key in BOOL_FIELDS:
            node = fld.node
            if node is not None and fld.is_plain_scalar and _YAML11_BOOL.match(str(node.value)):
                word = "true" if str(node.value).lower() in ("y", "yes", "on") else "false"
                yield ctx.finding(
                    fld.value_range,
                    f"`{key}: {node.value}` is a boolean only in YAML 1.1; write `{word}`",
                    Fix.safe(f"Replace with `{word}`", Edit(fld.value_range, word)),
                )
            continue
        if key not in STRING_FIELDS and key != "metadata":
            continue
        for node, value, where in _scalars(fld):
            if getattr(node, "style", None):
                continue  # quoted or block scalars are strings
            if hashes and isinstance(value, str) and (cut := _cut_by_comment(doc, ctx, node, where)) is not None:
                yield cut
                continue
            kind = _kind(value)
            raw = str(node.value)
            if kind is None and not _YAML11_BOOL.match(raw):
                continue
            if kind is None:
                kind = "a boolean in YAML 1.1"
            if kind == "null":
                continue  # empty, `~` or `null`: unset on purpose (`argument-hint: ~`); quoting `~` would show a literal
                # "~", and a required field's own rule reports it (NAME_MISSING, EMPTY_DESCRIPTION)
            if type(value) is int and (where.startswith("metadata.") or where == "version") and str(value) == raw:
                continue  # `tier: 2`: every reader gets 2, its text "2" (`1.10`, `007`, `1.0` read back otherwise)
            if type(value) is bool and where.startswith("metadata.") and raw in ("true", "false"):
                continue  # `always_inject: true`: a flag every YAML and JSON reader agrees on (not yes/no/on/off)
            rng = doc.node_range(node)
            src = doc.source(rng)
            yield ctx.finding(
                rng,
                f"`{where}: {raw}` is read as {kind}, not text; quote it",
                Fix.safe("Quote the value", Edit(rng, yaml_quote(src))),
            )
