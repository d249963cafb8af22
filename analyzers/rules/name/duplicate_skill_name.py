"""DUPLICATE_SKILL_NAME: two skills that an agent loads together share a name."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Related, Severity
from ...rule import RuleContext, rule
from ...workspace import package_data

# The project folders (`<project>/<folder>/skills/`) that one agent reads together, from each agent's
# documentation: OpenCode reads `.opencode`, `.claude` and `.agents`; GitHub Copilot (VS Code, CLI,
# cloud agent) `.github`, `.claude` and `.agents`; Codex `.agents` (and `.codex`); Cursor `.cursor`,
# `.claude`, `.codex` and `.agents`; Gemini CLI `.gemini` and `.agents`. Claude Code reads `.claude` alone.
_READ_TOGETHER: tuple[frozenset[str], ...] = (
    frozenset({".opencode", ".claude", ".agents"}),
    frozenset({".github", ".claude", ".agents"}),
    frozenset({".agents", ".codex"}),
    frozenset({".cursor", ".claude", ".codex", ".agents"}),
    frozenset({".gemini", ".agents"}),
)
# other agents' project folders: read alone
AGENT_FOLDERS = frozenset().union(*_READ_TOGETHER) | {
    ".windsurf", ".kiro", ".qwen", ".goose", ".roo", ".cline", ".clinerules", ".continue", ".augment", ".amp",
    ".factory", ".trae", ".crush", ".kilocode", ".openhands", ".junie", ".zed", ".pi", ".letta", ".openclaw",
}
_SKILLS_FOLDERS = frozenset({"skills", "skill"})


def load_scope(path: str) -> tuple[str, str | None]:
    """Where an agent loads the skill whose SKILL.md is at `path` from: (project, agent folder) for a skill
    under `<project>/<agent folder>/skills/` (at any depth below it: OpenCode and Codex search it
    recursively), else (the folder holding the skill folder, None). Pure path arithmetic: no disk access."""
    skill_dir = os.path.dirname(os.path.abspath(path))
    parent = os.path.dirname(skill_dir)
    d = parent
    while True:  # the nearest `skills` folder above the skill
        if os.path.basename(d) in _SKILLS_FOLDERS:
            agent = os.path.dirname(d)
            if os.path.basename(agent) in AGENT_FOLDERS:
                return os.path.dirname(agent), os.path.basename(agent)
            break
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return parent, None


def loaded_together(a: tuple[str, str | None], b: tuple[str, str | None]) -> bool:
    """Whether some agent loads skills of the two load scopes side by side."""
    if a[0] != b[0]:
        return False
    if a[1] == b[1]:
        return True
    return a[1] is not None and b[1] is not None and any(a[1] in s and b[1] in s for s in _READ_TOGETHER)


def _nested(skill_dir: str, other: str) -> bool:
    """Whether one of the two skill folders holds the other (a stale copy inside the skill): installed
    together, and found together by agents that search a skills folder at any depth (OpenCode, Codex). Not a skill
    inside an npm package within the other (`packages/cli/self-skill/` under a repository-root skill, with
    `packages/cli/package.json`): that package ships it and its CLI installs it alone."""
    there = os.path.dirname(os.path.abspath(other))
    if there.startswith(skill_dir + os.sep):
        inner = there[len(skill_dir) + 1:]
    elif skill_dir.startswith(there + os.sep):
        inner = skill_dir[len(there) + 1:]
    else:
        return False
    parts = inner.split(os.sep)
    if any(part in _GENERATED for part in parts):
        return False
    outer = skill_dir if len(there) > len(skill_dir) else there
    for i in range(1, len(parts)):  # a folder between them is a package of its own (`packages/cli/package.json`)
        if os.path.isfile(os.path.join(outer, *parts[:i], "package.json")):
            return False
    return True


# folders of generated per-agent copies inside a skill (`platforms/<agent>/…`, `dist/`): built from the skill
# by its own tooling, and installed one at a time, never beside it
_GENERATED = frozenset({"platforms", "dist", "build", "bundles", "generated", "out"})


@rule("DUPLICATE_SKILL_NAME", family="name", severity=Severity.WARNING, workspace=True)
def duplicate_skill_name(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """Another skill that an agent loads together with this one has the same `name`.

    ## What it does
    Looks up the skill's `name` in the workspace index (every SKILL.md under the workspace folders or
    the paths given to the CLI) and reports the other skills of that name that some agent loads side
    by side with it:

    - skills whose folders sit in the same folder (`plugin/skills/pdf` and `plugin/skills/pdf-old`
      both named `pdf`): one skills folder, loaded as one set;
    - skills in the project skill folders of the same project that one agent reads together:
      OpenCode reads `.opencode/skills`, `.claude/skills` and `.agents/skills`; GitHub Copilot
      `.github/skills`, `.claude/skills` and `.agents/skills`; Codex `.agents/skills` and
      `.codex/skills`; Cursor `.cursor/skills`, `.claude/skills`, `.codex/skills` and
      `.agents/skills`; Gemini CLI `.gemini/skills` and `.agents/skills`;
    - a skill inside another skill's folder (`pdf/old/SKILL.md` in `pdf/`): installed with it, and
      found with it by agents that search a skills folder at any depth (OpenCode, Codex); not a copy
      the skill's own tooling generates under `platforms/`, `dist/`, `build/`, `bundles/`, `generated/` or
      `out/` (`platforms/codex/SKILL.md`: one per agent, installed one at a time), nor a skill inside an npm
      package within the other's folder (`packages/cli/self-skill/` under a repository-root SKILL.md, with
      `packages/cli/package.json`: the package ships its copy and its CLI installs it alone).

    Skills in two different skills folders are not compared: a build that copies
    `packages/shared/skills/*` into `packages/plugin/skills/`, a marketplace whose plugins each ship a
    `skills/` folder (an agent namespaces a plugin's skills by the plugin), two checkouts scored
    together (`skillgrade score ~/code`). No agent lists those side by side, and renaming one copy
    would break the build that makes it. Nor is a skill that is data of a Python package (an
    `__init__.py` in its parent or grandparent folder, or, for a skill in an agent's folder such as
    `<pkg>/assets/.claude/skills/<skill>`, in one of the two folders above that agent's folder, or a wheel's
    `*.data/data/`): its installer copies
    each variant alone into one agent's folder (a Cursor and a Claude Code variant of one skill).

    ## Why is this bad?
    Agents route by name: with two skills of the same name, one shadows the other, depending on the
    load order.

    ## Example
    ```text
    skills/pdf/SKILL.md        name: pdf
    skills/pdf-old/SKILL.md    name: pdf
    ```

    Use instead:
    ```text
    skills/pdf/SKILL.md        name: pdf
    skills/pdf-old/SKILL.md    name: pdf-old
    ```

    ## Fix
    Rename one of the skills (and its directory), or delete the stale copy. Each finding points at
    the other skill (related information in the editor).
    """
    ws = ctx.workspace
    fld = doc.frontmatter.get("name") if doc.frontmatter.ok else None
    if ws is None or fld is None or not isinstance(fld.value, str) or doc.path is None:
        return
    if doc.skill_dir is not None and package_data(doc.skill_dir, past_agent_folder=True):
        return  # variants an installer copies one by one into different agents' folders (Cursor, Claude Code)
    scope = load_scope(str(doc.path))
    here = os.path.dirname(os.path.abspath(doc.path))
    others = [e for e in ws.skills_named(fld.value) if e.path != doc.path
              and (loaded_together(scope, load_scope(str(e.path))) or _nested(here, str(e.path)))]
    if not others:
        return
    related = [Related(str(e.path), e.name_range, f"also named `{fld.value}`") for e in others]
    where = ", ".join(str(e.path) for e in others[:3])
    yield ctx.finding(fld.value_range, f"Skill name `{fld.value}` is also used by {where}", related=related)
