"""DUPLICATE_SKILL_NAME: two skills in the workspace share a name."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Related, Severity
from ...rule import RuleContext, rule


@rule("DUPLICATE_SKILL_NAME", family="name", severity=Severity.WARNING, workspace=True)
def duplicate_skill_name(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """Another skill in the workspace has the same `name`.

    ## What it does
    Looks up the skill's `name` in the workspace index (every SKILL.md under the workspace folders or
    the paths given to the CLI) and reports the other skills that use it in the same repository: the
    nearest folder with `.git` above the skill (inside the workspace), else the workspace itself.
    Skills of two different repositories scored together (`skillgrade score ~/code` over many
    checkouts, or `skillgrade score repo-a repo-b`) are never loaded side by side, so they do not
    collide.

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
    root = doc.workspace_root
    repo = _repository(str(doc.path), str(root) if root is not None else None)
    others = [e for e in ws.skills_named(fld.value) if e.path != doc.path
              and _repository(str(e.path), str(root) if root is not None else None) == repo]
    if not others:
        return
    related = [Related(str(e.path), e.name_range, f"also named `{fld.value}`") for e in others]
    where = ", ".join(str(e.path) for e in others[:3])
    yield ctx.finding(fld.value_range, f"Skill name `{fld.value}` is also used by {where}", related=related)


def _repository(path: str, root: str | None) -> str | None:
    """The nearest folder holding `.git` above `path`, not looking past the workspace root; else the
    root (None when there is neither: every skill then shares one scope). Not cached: only skills that
    share a name get here, and a long-running server must see a `git init` made after it started."""
    d = os.path.dirname(os.path.abspath(path))
    stop = os.path.abspath(root) if root is not None else None
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        if d == stop:
            return stop
        parent = os.path.dirname(d)
        if parent == d:
            return stop
        d = parent
