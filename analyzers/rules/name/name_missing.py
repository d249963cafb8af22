"""NAME_MISSING: the frontmatter has no `name`."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import NAME_RE, folders_above, frontmatter_insert_point, runtime_record
from .name_dir_mismatch import is_container


@rule("NAME_MISSING", family="name", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def name_missing(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The frontmatter has no `name` field, or it is empty.

    ## What it does
    Checks that `name` is present and not empty.

    Not reported on another runtime's record (a slug `id`, or no `description` beside three or more keys no
    agent defines: a scanner fixture's `skill_id`, `ecosystem`, `category`), which names itself its own way (see
    `UNKNOWN_FIELD`).

    ## Why is this bad?
    The Agent Skills spec requires `name`; it identifies the skill and becomes its `/command`.
    Claude Code falls back to the directory name, other agents reject the skill. In a Claude Code folder
    (`.claude/skills/…`) the finding says so: OpenCode loads skills from there too and requires `name`.

    ## Example
    ```markdown
    ---
    description: Use when filling PDF forms.
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
    Inserts `name: <directory name>` when the directory name is a valid skill name (safe: that is the
    name Claude Code already uses), and not a package's generic container for its skill (`skill`,
    `data`, `assets`, `templates`, …: see `NAME_DIR_MISMATCH`), which its installer copies under
    another name.
    """
    fm = doc.frontmatter
    if not fm.ok or fm.root_kind != "mapping":
        return
    fld = fm.get("name")
    if fld is None and runtime_record(fm.data):
        return  # `skill_id: fixture/allowed-only`, `ecosystem: clawdbot`: another runtime's record, named its own way
    if fld is not None and not (fld.value is None or (isinstance(fld.value, str) and not fld.value.strip())):
        return
    fix = None
    dirname = doc.skill_dir.name if doc.skill_dir is not None else None
    if dirname and is_container(dirname):
        dirname = None  # `skill/`, `data/`, `assets/`: a package's container, installed under another name
    if fld is None:
        if dirname and NAME_RE.match(dirname):
            at = frontmatter_insert_point(doc)
            fix = Fix.safe(f"Add `name: {dirname}`", Edit(Range(at, at), f"name: {dirname}\n"))
        yield ctx.finding(doc.frontmatter_range(), "Frontmatter has no `name`" + (
            " (Claude Code falls back to the folder's name; OpenCode, which also loads `.claude/skills`, requires it)"
            if ".claude" in folders_above(doc) else ""), fix)
    else:
        if dirname and NAME_RE.match(dirname):
            fix = Fix.safe(f"Set `name: {dirname}`", Edit(fld.value_range, dirname) if fld.value_range.start !=
                           fld.value_range.end else Edit(Range(fld.key_range.end, fld.value_range.end),
                                                         f": {dirname}"))
        yield ctx.finding(fld.key_range, "`name` is empty", fix)
