"""Evidence that a skill is written for an agent other than Claude Code.

The `target` setting says where skills run; unset, it is `claude-code`. A skill can still say otherwise on
its own: an OpenClaw skill carries `metadata.openclaw` (or the older `clawdbot` / `clawdis` / `moltbot`),
and a skill kept in another agent's project folder (`.opencode/skills/…`, `.codex/skills/…`) is loaded by
that agent (as is one whose own text places it there: `.github/skills/<its name>/config.md`, and one kept in an
`<agent>/skills/` folder, `opencode/skills/<name>/` in a Nix module), a skill of a
Codex plugin (`.codex-plugin/` at the plugin root) by Codex, a skill of a plugin whose root holds another
agent's `<agent>-plugin.yml` (`datus-plugin.yml`) by that agent, and a skill whose package's own code reads a
key of its frontmatter that no agent defines (and never names `.claude`) by that package's runtime, and a skill
of a repository named for another agent's skills (`cursor-skills`, `ade-cursor-skills`; nothing Claude's on the
way up, no mention of Claude Code in the skill) by that agent. Where the
target was not chosen explicitly, the rules that hold only for Claude Code (their `targets` is claude-code
alone: `$N` substitution, tool names, permission syntax, …) stay silent on such a skill: their findings and
fixes would be wrong there (an escaped `\\$1` is not unescaped by OpenClaw).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .fields import RECORD_KEYS, agent_defines, skill_dialect

if TYPE_CHECKING:
    from .document import SkillDocument

PLUGIN_DEPTH = 3  # skills/<name>/SKILL.md: the plugin root is two folders up; one more for a nested layout
# project folders of agents other than Claude Code (`.claude/` wins where both appear in a path)
# (`.agent/`: Google Antigravity's workspace folder, and where Codex skill packs such as oh-my-codex keep theirs;
# `.factory/`: Factory's Droid; `.devin/`: Devin CLI's; `.squad/`, `.ai-team/`: a Squad team's (GitHub Copilot); the rest as the `skills` installers place them per agent)
OTHER_AGENT_DIRS = frozenset({".opencode", ".codex", ".agents", ".agent", ".gemini", ".qwen", ".letta", ".cursor",
                              ".windsurf", ".roo", ".kiro", ".openclaw", ".clawdbot", ".github", ".pi",
                              ".factory", ".goose", ".cline", ".continue", ".crush", ".junie", ".kilocode",
                              ".openhands", ".qoder", ".trae", ".zencoder", ".augment", ".devin", ".squad",
                              ".ai-team"})


def other_host(doc: SkillDocument) -> str | None:
    """The agent other than Claude Code this skill shows it is written for, or None (no such evidence)."""
    fm = doc.frontmatter
    # metadata.openclaw (a mapping or its JSON text), metadata.hermes, Hermes's own keys
    dialect = skill_dialect(fm.data, doc.text) if fm.ok else None
    if dialect is not None:
        return dialect
    if doc.path is None:
        return None
    parts = doc.path.parent.parts[:-1]  # the folders above the skill's own
    if ".claude" in parts:
        return None
    for part in reversed(parts):
        if part in OTHER_AGENT_DIRS:
            return part.lstrip(".")
    named = _agent_skills_folder(doc, parts)
    if named is not None:
        return named
    installed = _installed_in(doc)
    if installed is not None:
        return installed
    plugin = _plugin_host(doc.path.parent)
    if plugin is None and fm.ok and package_runtime(doc):
        return "its package's own runtime"
    return plugin if plugin is not None else _repository_named_for(doc)


def _agent_skills_folder(doc: SkillDocument, parts: tuple[str, ...]) -> str | None:
    """The agent a `<agent>/skills/` folder on the way up names (`home-manager-modules/opencode/skills/<name>/`,
    a Nix module that installs its skills into OpenCode; `windsurf/skills/<name>/`), when the skill never names
    `.claude/` or Claude Code: that agent loads the skills kept there."""
    for a, b in zip(parts, parts[1:], strict=False):
        if b == "skills" and a.lower() in _NAMED_AGENTS:
            return None if _names_claude_code(doc) else a.lower()
    return None


def _names_claude_code(doc: SkillDocument) -> bool:
    """The skill's own text names `.claude/` or Claude Code: written for Claude Code too, whatever folder holds it."""
    return ".claude/" in doc.text or "Claude Code" in doc.text


def _installed_in(doc: SkillDocument) -> str | None:
    """The agent whose project folder the skill's own text places it in (`Read .github/skills/sprint-retro/
    config.md` in the skill `sprint-retro`: installed for GitHub Copilot), when it never names `.claude/`."""
    text = doc.text
    if doc.path is None or "/skills/" not in text or ".claude/" in text:
        return None
    tail = f"/skills/{doc.path.parent.name}/"
    at = text.find(tail)
    while at >= 0:
        start = text.rfind(".", max(0, at - 20), at)  # the agent folder just before (`.github`, `.opencode`)
        if start >= 0 and text[start:at] in OTHER_AGENT_DIRS:
            return text[start + 1:at]
        at = text.find(tail, at + len(tail))
    return None


def package_runtime(doc: SkillDocument) -> bool:
    """The frontmatter has a key no agent defines that the code of the package shipping the skill reads (teotl's
    `triggers` and `auth`, read by its SkillRegistry), and no code of that package names `.claude`: the
    package's own runtime loads the skill, not Claude Code (it hands the body over as it is: no `$N`
    substitution, no permission syntax)."""
    data = doc.frontmatter.data
    if not isinstance(data, dict) or len(data) > RECORD_KEYS:
        return False  # (a data dump, not a runtime's record)
    foreign = [k for k in data if isinstance(k, str) and not agent_defines(k)]
    if not foreign:
        return False
    from .package_code import package_runtime_only  # (only for skills with such keys: most never import it)

    return package_runtime_only(doc, foreign)


HERMES_PLUGIN_DEPTH = 3  # folders above a skill looked in for the Hermes plugin that registers it


def hermes_plugin(doc: SkillDocument) -> bool:
    """The skill ships in a Hermes Agent plugin: a folder above it, within the workspace and at most
    HERMES_PLUGIN_DEPTH up, holds the plugin's `plugin.yaml` and an `__init__.py` that registers skills with Hermes
    (`ctx.register_skill("github-app-workflow", skill_path)`): Hermes loads the skill, and reads its keys."""
    if doc.skill_dir is None:
        return False
    from .measures import exists_recorded, text_recorded  # (only for skills with a key no agent defines)

    root = doc.workspace_root
    folder = doc.skill_dir.parent
    for _ in range(HERMES_PLUGIN_DEPTH):
        if root is not None and not folder.is_relative_to(root):
            break
        if exists_recorded(doc, folder / "plugin.yaml") and \
                "register_skill(" in text_recorded(doc, os.path.join(folder, "__init__.py")):
            return True
        if folder.parent == folder:
            break
        folder = folder.parent
    return False


REPO_DEPTH = 6  # folders above a skill looked in for its repository's root (`.git`)
# agents whose name a repository of skills for them carries (`cursor-skills`, `ade-cursor-skills`, `codex-rules`)
_NAMED_AGENTS = frozenset({"cursor", "codex", "opencode", "gemini", "windsurf", "copilot", "kiro", "cline", "openclaw",
                           "qwen", "antigravity", "goose", "trae", "kilocode"})
_COLLECTION_WORDS = frozenset({"skill", "skills", "rule", "rules", "agent", "agents", "config", "configs", "setup",
                               "toolkit", "kit", "plugin", "plugins", "prompts", "commands", "workflows", "dotfiles"})


def _repository_named_for(doc: SkillDocument) -> str | None:
    """The agent a repository of skills names itself for (`cursor-skills`, `ade-cursor-skills`: an agent's name
    followed by a word for a collection), where its root (the folder holding `.git`) names no Claude and
    nothing on the way up is Claude Code's (`.claude/`, `.claude-plugin/`): such a repository installs its
    skills into that agent's folder, which does not substitute `$N` or read `allowed-tools`. A skill whose own
    text names `.claude/` or Claude Code is taken as written for Claude Code too."""
    if doc.path is None or _names_claude_code(doc):
        return None
    d = str(doc.path.parent)
    for _ in range(REPO_DEPTH):
        isdir = os.path.isdir
        if isdir(os.path.join(d, ".claude-plugin")) or isdir(os.path.join(d, ".claude")):
            return None
        if os.path.exists(os.path.join(d, ".git")):
            words = [w for w in re.split(r"[^a-z0-9]+", os.path.basename(d).lower()) if w]
            if "claude" in words:
                return None
            for a, b in zip(words, words[1:], strict=False):
                if a in _NAMED_AGENTS and b in _COLLECTION_WORDS:
                    return a
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    return None


def _plugin_host(skill_dir: Path) -> str | None:
    """"codex" for a skill of a Codex plugin: the plugin root (a few folders up, at most to the repository
    root) has `.codex-plugin/` and no `.claude-plugin/`; "datus" for one whose root has `datus-plugin.yml`
    (any `<agent>-plugin.yml`) and no `.claude-plugin/`."""
    d = os.path.dirname(str(skill_dir))  # strings, not Path objects
    for _ in range(PLUGIN_DEPTH):
        isdir = os.path.isdir
        if isdir(os.path.join(d, ".codex-plugin")):
            return None if isdir(os.path.join(d, ".claude-plugin")) else "codex"
        if (agent := _plugin_manifest(d)) is not None and not isdir(os.path.join(d, ".claude-plugin")):
            return agent  # `datus-plugin.yml` (`skills: skills`): a Datus plugin, whose loader hands SKILL.md over as is
        parent = os.path.dirname(d)
        if isdir(os.path.join(d, ".claude-plugin")) or os.path.exists(os.path.join(d, ".git")) or parent == d:
            return None
        d = parent
    return None


# folder -> (its modification time, the agent its manifest names): sibling skills share their parents' listings
_MANIFESTS: dict[str, tuple[int, str | None]] = {}


def _plugin_manifest(folder: str) -> str | None:
    """The agent named by a `<agent>-plugin.yml` / `.yaml` manifest in the folder (`datus-plugin.yml`: "datus"), or
    None. (Looked for only once a Claude Code-only rule has a finding: see engine.run_rules.) A folder's answer is
    kept while its modification time stands (adding, removing or renaming an entry changes it), so the skills of
    one collection list their shared parents once."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return None
    known = _MANIFESTS.get(folder)
    if known is not None and known[0] == mtime:
        return known[1]
    agent = None
    try:
        with os.scandir(folder) as it:
            for e in it:
                name = e.name.lower()
                if name.endswith(("-plugin.yml", "-plugin.yaml")) and not name.startswith("claude"):
                    agent = name.rsplit("-plugin.", 1)[0]
                    break
    except OSError:
        pass
    if len(_MANIFESTS) > 4096:
        _MANIFESTS.clear()
    _MANIFESTS[folder] = (mtime, agent)
    return agent


# folders of a skill's own material: a SKILL.md in one is a document of that skill
_BUNDLE_FOLDERS = frozenset({"lib", "src", "docs", "doc", "references", "reference", "scripts", "assets", "examples",
                             "templates", "tests", "test", "resources", "modules", "vendor"})
BUNDLED_DEPTH = 3  # folders above a SKILL.md looked in for the skill that bundles it (`lib/webapp/SKILL.md`)


def bundled_in_skill(doc: SkillDocument) -> bool:
    """This SKILL.md is a document, not a skill an agent loads; the agent reads it as a plain file, so skill
    semantics (its name, description, frontmatter, argument substitution) never apply. It is one when:

    - it lies under `skills/<name>/` in a folder of the skill's material (`.claude/skills/top/lib/webapp/
      SKILL.md`: Claude Code loads only `<skills>/<name>/SKILL.md`; not a category folder such as
      `.agent/skills/local/<name>/`);
    - it lies below another skill's SKILL.md (within BUNDLED_DEPTH folders, no `skills/` folder between) in a
      material folder or without frontmatter (`top/lib/webapp/SKILL.md` beside `top/SKILL.md`; a sub-skill
      with its own frontmatter, `top/general/SKILL.md`, stays a skill);
    - it is a `skills/SKILL.md` without frontmatter (an index of the guides in that folder);
    - it has no frontmatter and a slash command's `command.md`, a runtime plugin's entry point (`run.py`), a
      runtime's manifest (`skill.toml`, `skill.yaml`), or a markdown file naming it by path sits beside it
      (_loaded_by_sibling), or it opens with a `# Skill: <name>` title (_runtime_title: a runtime's own
      skill format, whose loader reads the title and the lines under it, not a frontmatter).
    """
    if doc.path is None:
        return False
    own = os.path.abspath(doc.path.parent)  # (a relative path names no folder above it)
    parts = Path(own).parts
    if parts and parts[-1] == "skills" and not doc.frontmatter.present:
        return True  # `skills/SKILL.md` without frontmatter: an index of the folder's guides
    if not doc.frontmatter.present and (_loaded_by_sibling(doc) or _runtime_title(doc)):
        return True  # a guide that the folder's `command.md` reads by path ("Read `skills/add-tool/SKILL.md`")
    for i in range(len(parts) - 3):
        if parts[i + 1] == "skills" and any(p in _BUNDLE_FOLDERS for p in parts[i + 3:]):
            return True  # .claude/skills/<name>/lib/<x>/SKILL.md (not a category: .agent/skills/local/<name>/)
    material = os.path.basename(own) in _BUNDLE_FOLDERS or not doc.frontmatter.present
    d = os.path.dirname(own)
    for _ in range(BUNDLED_DEPTH):
        if os.path.basename(d) in ("skills", ".claude", "") or os.path.exists(os.path.join(d, ".git")):
            return False
        if material and os.path.isfile(os.path.join(d, "SKILL.md")):
            return True
        material = material or os.path.basename(d) in _BUNDLE_FOLDERS
        parent = os.path.dirname(d)
        if parent == d:
            return False
        d = parent
    return False


def _runtime_title(doc: SkillDocument) -> bool:
    """The first line of text is a `# Skill: <name>` title: the skill format of a runtime's own loader
    (arccrew's recipes, strata-lookml's `# Skill: grain_validator` with `domain:` / `mode:` lines under it)."""
    for line in doc.lines[:TITLE_LINES]:
        if line.strip():
            return line.startswith("# Skill: ") and len(line.strip()) > len("# Skill:")
    return False


TITLE_LINES = 5  # blank lines before the title looked past
SIBLINGS_READ = 5  # markdown files beside SKILL.md looked at for a mention of it
# the entry point a runtime runs for its plugin (arka-agent: `run.py` + `skill.json` beside a readme SKILL.md)
_PLUGIN_ENTRIES = ("run.py", "main.py", "__main__.py", "skill.py", "plugin.py")
# a runtime's own manifest beside a frontmatter-less SKILL.md (agentic-workbench: `skill.toml` with `id`,
# `description`, `required_tools`): that runtime reads the skill's metadata from it
RUNTIME_MANIFESTS = ("skill.toml", "skill.yaml", "skill.yml")


def _loaded_by_sibling(doc: SkillDocument) -> bool:
    """A slash command's `command.md` or a runtime plugin's entry point (`run.py`, `skill.py`, …) sits beside
    this SKILL.md, or a markdown file beside it names it by path: the command or the plugin is what runs,
    and this file is its guide."""
    from .bundle import read_bundled  # (the bundle module parses markdown: imported only when needed)

    if doc.files.exists("command.md"):
        return True  # a slash command's folder: the command is what is loaded, this file its guide
    if any(doc.files.exists(f) for f in _PLUGIN_ENTRIES):
        return True  # a runtime's plugin (`run.py` beside it): this file is the plugin's readme
    if any(doc.files.exists(f) for f in RUNTIME_MANIFESTS):
        return True  # a runtime's manifest holds the skill's id and description; this file is its instructions
    seen = 0
    for rel in doc.files.files:
        if "/" in rel or not rel.lower().endswith(".md") or rel.lower() == "skill.md":
            continue
        seen += 1
        if seen > SIBLINGS_READ:
            break
        bf = read_bundled(doc, rel)
        if bf is not None and "SKILL.md" in bf.text:
            return True
    return False

