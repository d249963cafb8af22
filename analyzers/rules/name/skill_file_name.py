"""SKILL_FILE_NAME: the skill's file is `skill.md` (or another case variant), not `SKILL.md`."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE
from ...workspace import WEB_ROOTS, is_manifest_name, package_data


@rule("SKILL_FILE_NAME", family="name", severity=Severity.ERROR, targets=(CLAUDE_CODE,))
def skill_file_name(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The skill's file is named `skill.md` (or `Skill.md`, …) instead of `SKILL.md`.

    ## What it does
    Reports a skill folder whose manifest differs from `SKILL.md` only in case. skillgrade scores such a
    folder (some agents match the name case-insensitively) and reports this on its first line.

    Not reported where the file is not a skill folder an agent loads: data of a Python package (an
    `__init__.py` in its parent or grandparent folder, or a wheel's `*.data/data/`), which an
    installer copies to `SKILL.md`, or a folder holding other skills. A `skill.md` that is no skill's file is not
    scored at all: one beside a runtime's plugin code (`skill.py`, `skill.js`), one without frontmatter among more
    than three markdown prompts (`agent.md`, `rule.md`), or one without frontmatter in a website's static folder
    (`public/`, `static/`, `www/`, `wwwroot/`, `htdocs/`, `.well-known/`: the page a site serves at `/skill.md` for
    agents to read, like `llms.txt`). One with frontmatter there is scored (agents save it as their `SKILL.md`) but
    its name is not reported: it is the page's address.

    ## Why is this bad?
    Claude Code loads a skill from a file named exactly `SKILL.md`. On a case-sensitive file system
    (Linux, CI containers, WSL's ext4) `skill.md` is not that file, so the skill is silently missing from
    the skill list: no error, no warning. On macOS and Windows both names open the same file, which is
    why the mistake survives review (anthropics/claude-code#16983, anthropics/skills#314).

    ## Example
    ```text
    .claude/skills/release-notes/skill.md
    ```

    Use instead:
    ```text
    .claude/skills/release-notes/SKILL.md
    ```

    ## Fix
    None offered (a rename, not an edit): `git mv skill.md SKILL.md`. On a case-insensitive file system
    rename in two steps (`git mv skill.md tmp.md && git mv tmp.md SKILL.md`).
    """
    if doc.path is None or doc.path.name == "SKILL.md" or not is_manifest_name(doc.path.name):
        return
    if doc.skill_dir is not None and package_data(doc.skill_dir) or doc.files.has_nested_skills:
        return  # the source an installer copies to SKILL.md, or a folder of skills: not a skill Claude Code loads
    if doc.path.parent.name in WEB_ROOTS:
        return  # `frontend/public/skill.md`: a page the site serves at `/skill.md`; its name is its address
    yield ctx.finding(doc.index.trimmed_line_range(0),
                      f"The skill's file is `{doc.path.name}`; Claude Code loads only `SKILL.md` (case-sensitive), "
                      "so on Linux and in CI this skill is silently skipped: rename it to `SKILL.md`")
