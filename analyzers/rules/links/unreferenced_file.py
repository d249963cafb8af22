"""UNREFERENCED_FILE: a file in references/ or scripts/ that nothing links to."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule

_IGNORED_NAMES = {"__init__.py", "LICENSE", "LICENSE.txt", "README.md", "requirements.txt", ".gitkeep"}


def unreferenced(doc: SkillDocument) -> list[str]:
    if doc.files.root is None or doc.binary or doc.too_large:
        return []
    out = []
    for f in doc.files.files:
        if not f.startswith(("references/", "scripts/")):
            continue
        base = f.rsplit("/", 1)[-1]
        if base.startswith(".") or base in _IGNORED_NAMES or base.endswith((".pyc", ".pyo")):
            continue
        if f in doc.mentioned or any(f.startswith(m.rstrip("/") + "/") for m in doc.mentioned if m):
            continue
        out.append(f)
    return out


@rule("UNREFERENCED_FILE", family="links", severity=Severity.INFO, fix=FixAvailability.ALWAYS)
def unreferenced_file(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A file under `references/` or `scripts/` that SKILL.md never mentions, directly or indirectly.

    ## What it does
    Collects every path SKILL.md mentions (links, inline code, code blocks, prose), follows mentioned
    markdown files transitively, and reports bundled files under `references/` and `scripts/` that
    are never reached. A mention of a folder (`scripts/`) covers its files; `python -m
    scripts.tool` covers `scripts/tool.py`. The finding is placed on the first line of SKILL.md.

    ## Why is this bad?
    The agent only opens bundled files that SKILL.md points to. An unmentioned file is dead weight in
    the package, or a reference the author forgot to link.

    ## Example
    ```text
    SKILL.md links references/forms.md; references/api.md exists but is never mentioned
    ```

    Use instead:
    ```markdown
    For the low-level API see [references/api.md](references/api.md).
    ```

    ## Fix
    Appends a link to the file at the end of SKILL.md (unsafe: you may prefer to place it in the
    relevant section, or to delete the file).
    """
    files = unreferenced(doc)
    if not files:
        return
    last = len(doc.lines) - 1
    end = Pos(last, len(doc.lines[last]))
    for f in files:
        sep = "\n" if doc.lines[last] == "" else "\n\n"
        fix = Fix.unsafe(f"Link `{f}` at the end of SKILL.md", Edit(Range(end, end), f"{sep}- [{f}]({f})\n"))
        yield ctx.finding(doc.index.trimmed_line_range(0), f"`{f}` is not referenced from SKILL.md", fix)
