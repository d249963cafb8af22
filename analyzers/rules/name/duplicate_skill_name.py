"""DUPLICATE_SKILL_NAME: two skills in the workspace share a name."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Related, Severity
from ...rule import RuleContext, rule


@rule("DUPLICATE_SKILL_NAME", family="name", severity=Severity.WARNING, workspace=True)
def duplicate_skill_name(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """Another skill in the workspace has the same `name`.

    ## What it does
    Looks up the skill's `name` in the workspace index (every SKILL.md under the workspace folders or
    the paths given to the CLI) and reports the other skills that use it.

    ## Why is this bad?
    Agents route by name: with two skills of the same name, one shadows the other, depending on the
    load order.

    ## Example
    ```text
    skills/pdf/SKILL.md        name: pdf
    legacy/pdf-old/SKILL.md    name: pdf
    ```

    Use instead:
    ```text
    skills/pdf/SKILL.md        name: pdf
    legacy/pdf-old/SKILL.md    name: pdf-old
    ```

    ## Fix
    Rename one of the skills (and its directory).
    """
    ws = ctx.workspace
    fld = doc.frontmatter.get("name") if doc.frontmatter.ok else None
    if ws is None or fld is None or not isinstance(fld.value, str) or doc.path is None:
        return
    others = [e for e in ws.skills_named(fld.value) if e.path != doc.path]
    if not others:
        return
    related = [Related(str(e.path), e.name_range, f"also named `{fld.value}`") for e in others]
    where = ", ".join(str(e.path) for e in others[:3])
    yield ctx.finding(fld.value_range, f"Skill name `{fld.value}` is also used by {where}", related=related)
