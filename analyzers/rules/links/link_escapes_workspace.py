"""LINK_ESCAPES_WORKSPACE: a relative link that points outside the workspace."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...measures import resolve
from ...rule import RuleContext, rule
from ._bundled import bundled_link_targets, resolve_bundled
from ._classify import link_targets


@rule("LINK_ESCAPES_WORKSPACE", family="links", severity=Severity.WARNING)
def link_escapes_workspace(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A relative link climbs out of the workspace (e.g. `../../../../etc/passwd`).

    ## What it does
    Flags relative links and images whose resolved path is outside the workspace root (the folder
    opened in the editor, or the repository / directory given to the CLI). skillgrade never reads
    files there, so it cannot tell whether the target exists. Links in the skill's other markdown
    files (`references/*.md`) are checked too, from that file's folder; the finding is on that file.

    ## Why is this bad?
    A skill is installed into other people's machines; a path outside its repository will not exist
    there, and a link into system files is suspicious.

    ## Example
    ```markdown
    Read [the config](../../../../etc/passwd).
    ```

    Use instead:
    ```markdown
    Read [the config](references/config.md).
    ```

    ## Fix
    Bundle the file with the skill and link to it relatively.
    """
    for t in link_targets(doc):
        res = resolve(doc, t.path)
        if not res.inside_skill and res.exists is None and doc.workspace_root is not None:
            yield ctx.finding(t.range, f"Link target `{t.text}` is outside the workspace; not followed")
    if doc.workspace_root is None:
        return
    for bt in bundled_link_targets(doc):
        res = resolve_bundled(doc, bt)
        if not res.inside_skill and res.exists is None:
            yield ctx.finding(bt.range, f"Link target `{bt.text}` is outside the workspace; not followed",
                              file=bt.file.rel)
