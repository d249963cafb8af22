"""UNINVOCABLE_SKILL: neither the model nor the user can invoke the skill."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Severity
from ...rule import RuleContext, rule
from ...targets import CLAUDE_CODE


@rule("UNINVOCABLE_SKILL", family="claude-code", severity=Severity.WARNING, targets=(CLAUDE_CODE,))
def uninvocable_skill(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`disable-model-invocation: true` together with `user-invocable: false`.

    ## What it does
    Flags a skill that sets both `disable-model-invocation: true` (the model may not load it) and
    `user-invocable: false` (it is hidden from the `/` menu).

    ## Why is this bad?
    Claude Code then offers the skill to nobody: the model does not see it and the user cannot
    type `/name`. The skill is dead weight in the library. Usually one of the two was meant:
    `disable-model-invocation: true` for a command only the user runs, or `user-invocable: false`
    for background knowledge only the model loads.

    ## Example
    ```markdown
    ---
    name: deploy
    description: Deploys the app to production. Use when the user asks to deploy.
    disable-model-invocation: true
    user-invocable: false
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: deploy
    description: Deploys the app to production. Use when the user asks to deploy.
    disable-model-invocation: true
    ---
    ```

    Not reported: a skill that a subagent of the same plugin or project preloads, its name in the `skills:` list
    of an agent definition in the `agents/` folder beside the skills folder (`agents/reviewer.md` with
    `skills: [nw-dor-validation]` for `skills/nw-dor-validation/`; `.claude/agents/` for `.claude/skills/`): an
    agent-only skill, kept out of the main model's list and the `/` menu on purpose.

    ## Fix
    Remove one of the two fields. No automatic fix: which one is the author's choice.
    """
    fm = doc.frontmatter
    if not fm.ok:
        return
    dmi, ui = fm.get("disable-model-invocation"), fm.get("user-invocable")
    if dmi is None or ui is None or dmi.value is not True or ui.value is not False:
        return
    if _preloaded_by_agent(doc):
        return
    yield ctx.finding(ui.key_range, "Nobody can invoke this skill: `disable-model-invocation: true` hides it from "
                      "the model and `user-invocable: false` hides it from the `/` menu")


AGENT_FILES = 200  # agent definitions read, at most
AGENT_HEAD = 8_000  # characters of an agent file read for its frontmatter
# agents folder -> (its definitions' names, sizes and modification times; the skill names their `skills:` lists hold):
# a plugin's agent-only skills share one folder, read once while its files stand
_PRELOADS: dict[str, tuple[tuple[tuple[str, int, int], ...], frozenset[str]]] = {}


def _preloaded_by_agent(doc: SkillDocument) -> bool:
    """An agent definition in the `agents/` folder beside this skill's `skills/` folder lists the skill's name (or
    its folder's) in its `skills:` frontmatter list."""
    if doc.path is None:
        return False
    skill_dir = os.path.dirname(os.path.abspath(doc.path))
    data = doc.frontmatter.data
    names = {os.path.basename(skill_dir)} | ({data["name"]} if isinstance(data.get("name"), str) else set())
    return not names.isdisjoint(_preloaded(os.path.join(os.path.dirname(os.path.dirname(skill_dir)), "agents")))


def _preloaded(agents: str) -> frozenset[str]:
    """The skill names (`plugin:name` as `name`) the `skills:` lists of the first AGENT_FILES agent definitions in
    `agents` hold; read again only when a definition is added, removed or changed."""
    try:
        names = sorted(e for e in os.listdir(agents) if e.endswith(".md"))[:AGENT_FILES]
    except OSError:
        return frozenset()
    state = tuple((name, *_stamp(os.path.join(agents, name))) for name in names)
    known = _PRELOADS.get(agents)
    if known is not None and known[0] == state:
        return known[1]
    from ...parse import parse  # (only for a skill both hidden and unusable: rare)

    found: set[str] = set()
    for name, _size, _mtime in state:
        try:
            with open(os.path.join(agents, name), encoding="utf-8", errors="replace") as f:
                head = f.read(AGENT_HEAD)
        except OSError:
            continue
        if not head.startswith("---") or "skills:" not in head:
            continue
        meta = parse(head).frontmatter.data
        listed = meta.get("skills") if isinstance(meta, dict) else None
        if isinstance(listed, str):
            listed = [x.strip() for x in listed.split(",")]
        if isinstance(listed, list):
            found.update(x.split(":")[-1] for x in listed if isinstance(x, str))
    if len(_PRELOADS) > 1024:
        _PRELOADS.clear()
    _PRELOADS[agents] = (state, frozenset(found))
    return _PRELOADS[agents][1]


def _stamp(path: str) -> tuple[int, int]:
    """A file's size and modification time, or (-1, -1) when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return -1, -1
    return st.st_size, st.st_mtime_ns
