"""ORPHAN_REFERENCE: a link into references/ that does not resolve."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import CreateFile, Finding, Fix, Severity
from ...measures import resolve
from ...rule import FixAvailability, RuleContext, rule
from ...workspace import is_manifest_name
from ._classify import link_targets
from ._mentions import case_collision, case_variant, shared_above, supplied_files


@rule("ORPHAN_REFERENCE", family="links", severity=Severity.ERROR, anti_pattern=True,
      fix=FixAvailability.SOMETIMES)
def orphan_reference(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A link to a `references/…` file that does not exist (methodology anti-pattern).

    ## What it does
    Resolves every markdown link and image whose path is under `references/` (with or without `./`,
    nested folders included; `#anchors`, `?queries` and link titles are ignored) against the skill's
    files. Links inside code blocks and inline code are not links and are ignored. The name follows
    the methodology; files nothing links to are `UNREFERENCED_FILE`. A path that exists relative to a
    folder above the skill, up to the workspace root (`skills/references/kql2/x.md` kept once for all
    the skills under `skills/`, merged into each when a package installs them), is not reported, nor a placeholder
    (`references/TODO.md`, `TBD.md`, `FIXME.md` in capitals: an unfilled scaffold's reference still to be chosen),
    nor a file whose own sentence, somewhere in SKILL.md, says something else puts it there, before the path ("Your
    pipeline supplies `references/API.md`", "injected at publish time") or after it ("… must include
    [`references/API.md`](references/API.md) (your publish/sync pipeline copies the API doc …)"): every link to it
    means a file the source does not keep.

    ## Why is this bad?
    The agent follows the link when it needs the detail and finds nothing: the instructions that were
    supposed to be there are missing.

    ## Example
    ```markdown
    See [the form fields](references/forms.md) for details.   <!-- no references/forms.md -->
    ```

    Use instead:
    ```markdown
    See [the form fields](references/form-fields.md) for details.
    ```

    ## Fix
    Creates the missing file with a title (safe: it only adds a file; a `.json`, `.yaml` or `.yml` file holds an
    empty mapping, `{}`, so that it parses); or retarget the link. A link whose
    file exists with another case is `LINK_CASE_MISMATCH`, and no file is ever created whose path differs
    only in case from an existing file or folder (`references/Forms/x.md` beside `references/forms/`):
    on a case-insensitive disk it would be the same file, on Linux a confusing twin. Then no fix is
    offered; nor for a missing `SKILL.md` (`references/SKILL.md`, a link to a sub-skill): a stub without
    frontmatter would be a broken skill; nor for a folder (`references/meeting-notes/`, or a name without an
    extension): a file of that name would stand where the folder should be.
    """
    for t in link_targets(doc):
        res = resolve(doc, t.path)
        if not res.inside_skill or not res.rel.startswith("references/"):
            continue
        if res.exists is not False:
            continue  # exists, or unknown (a buffer with no file on disk)
        if case_variant(doc, res.rel) is not None:
            continue  # exists with another case: LINK_CASE_MISMATCH
        if shared_above(doc, res.rel):
            continue  # `references/kql2/x.md` kept once above the skills (a package merges it in when it installs)
        if res.rel in supplied_files(doc):
            continue  # "(your publish/sync pipeline copies the API doc …)": put there when the skill is assembled
        fix = None
        base = res.rel.rsplit("/", 1)[-1]
        folder = t.path.rstrip().endswith("/") or "." not in base  # `references/meeting-notes/`: a folder
        if doc.skill_dir is not None and not folder and case_collision(doc, res.rel) is None and not is_manifest_name(
                base):  # (never a SKILL.md: a link to a sub-skill; a stub would be a broken skill)
            title = res.rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].replace("-", " ").replace("_", " ").strip()
            content = (f"# {title.capitalize() or 'Reference'}\n" if res.rel.endswith(".md")
                       else "{}\n" if res.rel.endswith((".json", ".yaml", ".yml")) else "")  # (an empty file is no JSON)
            target = os.path.join(str(doc.skill_dir), *res.rel.split("/"))
            fix = Fix.safe(f"Create `{res.rel}`", creates=(CreateFile(target, content),))
        yield ctx.finding(t.range, f"Link target `{t.text}` does not exist in `references/`", fix)
