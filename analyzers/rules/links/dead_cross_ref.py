"""DEAD_CROSS_REF: a reference to another skill or agent that does not resolve."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ..code.nested_fence import example_lines
from ._classify import is_cross_ref, link_targets, prose_cross_refs, resolve_cross
from ._mentions import case_variant


@rule("DEAD_CROSS_REF", family="links", severity=Severity.WARNING, anti_pattern=True)
def dead_cross_ref(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A link or path to another skill or agent that does not exist (methodology anti-pattern).

    ## What it does
    Checks references to other skills and agents: links that leave the skill (`../other/SKILL.md`,
    `../sibling/`, `../../agents/reviewer.md`), repo-relative links (`skills/other/SKILL.md`), and
    the same paths written in prose (`../other/SKILL.md`, `skills/other-skill`; not a link's label that is a
    path, `[skills/x/SKILL.md](../x/SKILL.md)`: the link is checked by its destination, once). `skills/x` is looked
    up from every ancestor directory up to the workspace root. URLs (`github.com/.../skills/...`),
    home paths (`~/.claude/skills/...`), code, and prose such as "skills/agents" are not references.
    Paths outside the workspace are never read (`LINK_ESCAPES_WORKSPACE`). References in an example
    that a nested fence cut open (a ```` ```markdown ```` template whose inner ```` ```bash ```` block
    closes it early) are the example's placeholders: `NESTED_FENCE` reports the cause.
    `../<name>/SKILL.md` is accepted when the workspace holds a skill named `<name>` (by `name:` or by
    its folder) elsewhere: installers put a package's skills side by side under one skills folder, so
    the link resolves once installed.

    ## Why is this bad?
    Broken ecosystem links send the agent looking for skills that are not installed, and cost the
    skill its ecosystem-coherence credit.

    ## Example
    ```markdown
    For charts, see [the chart skill](../charts/SKILL.md).   <!-- no ../charts -->
    ```

    Use instead:
    ```markdown
    For charts, see [the chart skill](../chart-builder/SKILL.md).
    ```

    ## Fix
    Point the reference at the skill's real directory, or remove it.
    """
    example = example_lines(doc)  # an example CommonMark cut open by a nested fence: NESTED_FENCE
    for t in link_targets(doc):
        if t.range.start.line in example:
            continue
        inside_repo_rel = t.path.lstrip("./").startswith(("skills/", "agents/"))
        if not (t.path.startswith("../") or inside_repo_rel):
            continue
        res = resolve_cross(doc, t.path)
        if res.exists is False and (is_cross_ref(res.rel) or inside_repo_rel):
            if case_variant(doc, res.rel) is not None:
                continue  # exists with another case: LINK_CASE_MISMATCH
            if _installed_sibling(ctx, t.path):
                continue  # `../laravel-workflow/SKILL.md`: a skill of that name is installed beside this one
            yield ctx.finding(t.range, f"Cross reference `{t.text}` does not resolve to a skill or agent")
    for t in prose_cross_refs(doc):
        if t.range.start.line in example:
            continue
        res = resolve_cross(doc, t.path)
        if res.exists is False and not _installed_sibling(ctx, t.path):
            yield ctx.finding(t.range, f"Cross reference `{t.text}` does not resolve to a skill or agent")


def _installed_sibling(ctx: RuleContext, path: str) -> bool:
    """`../<name>/SKILL.md` (or `../<name>/`) names a skill of the workspace by its `name:` or its folder:
    installers put a package's skills side by side under `<skills dir>/<name>/`, so the link resolves once
    installed even where the source tree keeps that skill in another folder."""
    ws = ctx.workspace
    if ws is None or not path.startswith("../"):
        return False
    parts = [p for p in path[3:].split("/") if p]
    if not parts or len(parts) > 2 or (len(parts) == 2 and parts[1] != "SKILL.md"):
        return False
    name = parts[0]
    return bool(ws.skills_named(name)) or any(e.path.parent.name == name for e in ws.entries.values())
