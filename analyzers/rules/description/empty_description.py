"""EMPTY_DESCRIPTION: the description is missing or shorter than 20 characters."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import frontmatter_insert_point, runtime_record
from ._text import deprecated, description

MIN_CHARS = 20
CJK_WEIGHT = 3  # a Chinese, Japanese or Korean character says about as much as a short English word


def weighted_length(text: str) -> int:
    """Characters, a CJK character counting CJK_WEIGHT: 「当用户要求生成周报时使用」 (12 characters) says as much
    as "Use when the user asks for a weekly report" (42)."""
    n = len(text)
    if n >= MIN_CHARS or text.isascii():
        return n  # (only a short text can change its verdict)
    return n + (CJK_WEIGHT - 1) * sum(1 for c in text if "\u3040" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff"
                                      or "\uac00" <= c <= "\ud7af" or "\uf900" <= c <= "\ufaff")
    # (a character loop over a short text: a compiled class of these ranges costs 38 M instructions at import)


@rule("EMPTY_DESCRIPTION", family="description", severity=Severity.ERROR, anti_pattern=True,
      fix=FixAvailability.SOMETIMES)
def empty_description(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The `description` is missing or shorter than 20 characters (methodology anti-pattern).

    ## What it does
    Flags a missing `description`, an empty one, or one under 20 characters after trimming (a Chinese,
    Japanese or Korean character counts as three: "当用户要求生成周报时使用" is a full sentence). When this
    fires, `MISSING_TRIGGER` does not, so one defect is never counted twice in the penalty. A short
    description that declares the skill deprecated ("TDD deprecated shim", "Deprecated: use tdd-v2") is
    not reported: such a shim is kept for old invocations by name and is not meant to be routed to; nor is a
    short one ("Review Pull Request") of a skill with `disable-model-invocation: true`: only its user starts it,
    from a menu where the description is a label (an empty or missing one is still reported). Nor
    is a frontmatter with no `description` that is another runtime's record: a slug `id`, or three or more
    keys no agent defines (a pipeline step's `type`, `group`, `phase`, `inputs`), read by that runtime's
    own loader.

    ## Why is this bad?
    The description is all an agent sees when deciding whether to load the skill. Without a
    meaningful one the skill is never invoked on its own.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: PDF stuff
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Fills, merges and splits PDF files. Use when the user asks to fill a PDF form,
      combine PDFs, or extract pages.
    ---
    ```

    ## Fix
    When the key is missing, inserts a `description` with a placeholder trigger clause (display only:
    the placeholder must be replaced).
    """
    fm = doc.frontmatter
    if not fm.ok or fm.root_kind != "mapping":
        return
    fld, text = description(doc)
    if text is None:
        return  # not text: FIELD_TYPE
    n = len(text.strip())
    if n >= MIN_CHARS or weighted_length(text.strip()) >= MIN_CHARS or n and deprecated(doc):
        return  # a deprecated shim ("TDD deprecated shim") is reached by name only: it need not say more
    if n and fm.data.get("disable-model-invocation") is True:
        return  # only its user starts it (`/review-pr`): the description is the menu's label, never routed by
    if fld is None:
        if runtime_record(fm.data):
            return  # `type: pipeline`, `group`, `phase` and no description: another runtime's record
        at = frontmatter_insert_point(doc)
        name_fld = fm.get("name")
        if name_fld is not None:
            at = type(at)(name_fld.value_range.end.line + 1, 0)
        fix = Fix.suggestion(
            "Add a description with a trigger clause",
            Edit(Range(at, at), "description: <What it does>. Use when <the situations it is for>.\n"),
        )
        yield ctx.finding(doc.frontmatter_range(), "Frontmatter has no `description`", fix)
    elif n == 0:
        yield ctx.finding(fld.key_range, "`description` is empty")
    else:
        yield ctx.finding(fld.value_range, f"`description` is {n} characters; write at least {MIN_CHARS}, "
                                           "saying what the skill does and when to use it")
