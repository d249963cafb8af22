"""Known frontmatter fields: the Agent Skills spec and Claude Code's documented extensions."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .lazy_re import lazy_compile


@dataclass(frozen=True, slots=True)
class FieldSpec:
    key: str
    kind: str  # "string" | "bool" | "string-map" | "string-or-list" | "mapping" | "any"
    source: str  # "spec" | "claude-code" | a dialect ("openclaw")
    summary: str
    limit: int | None = None
    required: bool = False


FIELDS: dict[str, FieldSpec] = {
    f.key: f
    for f in (
        FieldSpec("name", "string", "spec",
                  "The skill's identifier: 1-64 characters, lowercase letters, digits and single hyphens, "
                  "equal to the skill's directory name.", 64, True),
        FieldSpec("description", "string", "spec",
                  "What the skill does and when to use it (1-1024 characters). The agent decides from this "
                  "text alone whether to load the skill, so include a trigger clause (\"Use when ...\").",
                  1024, True),
        FieldSpec("license", "string", "spec", "License name or the name of a bundled license file."),
        FieldSpec("compatibility", "string", "spec",
                  "Environment requirements: products, system packages, network access (1-500 characters).",
                  500),
        FieldSpec("metadata", "string-map", "spec",
                  "Additional properties: a map of string keys to string values."),
        FieldSpec("allowed-tools", "string-or-list", "spec",
                  "Space-separated tools the skill may use without asking, e.g. `Bash(git:*) Read` "
                  "(experimental)."),
        FieldSpec("argument-hint", "string", "claude-code",
                  "Claude Code: hint shown for the arguments of the skill's slash command, e.g. `[issue-number]`."),
        FieldSpec("arguments", "string-or-list", "claude-code",
                  "Claude Code: names for the positional arguments, used as `$name` in the body "
                  "(space-separated or a list)."),
        FieldSpec("disable-model-invocation", "bool", "claude-code",
                  "Claude Code: `true` keeps the model from loading the skill by itself; only `/name` runs it."),
        FieldSpec("user-invocable", "bool", "claude-code",
                  "Claude Code: `false` hides the skill from the `/` menu (the model can still load it)."),
        FieldSpec("model", "string", "claude-code", "Claude Code: the model to use while the skill is active."),
        FieldSpec("effort", "string", "claude-code", "Claude Code: reasoning effort while the skill is active."),
        FieldSpec("context", "string", "claude-code", "Claude Code: `fork` runs the skill in a forked sub-agent context."),
        FieldSpec("agent", "string", "claude-code", "Claude Code: the sub-agent type used with `context: fork`."),
        FieldSpec("hooks", "mapping", "claude-code", "Claude Code: hooks scoped to the skill's lifetime."),
        FieldSpec("paths", "string-or-list", "claude-code",
                  "Claude Code: glob patterns; the skill is loaded automatically for matching files."),
        FieldSpec("shell", "string", "claude-code", "Claude Code: the shell used for `!` command blocks."),
        FieldSpec("version", "string", "claude-code", "Version of the skill (free-form; quote it)."),
        FieldSpec("when_to_use", "any", "claude-code",
                  "Claude Code: extra trigger guidance appended to the description in the skill listing."),
    )
}

STRING_FIELDS = frozenset(k for k, f in FIELDS.items() if f.kind == "string")
BOOL_FIELDS = frozenset(k for k, f in FIELDS.items() if f.kind == "bool")


# ------------------------------------------------------------------ other agents' dialects

# OpenClaw (formerly Clawdbot, Clawdis, Moltbot) reads its settings from `metadata.<namespace>`, a nested
# object (its docs write `metadata` as one line of JSON), under any of these names (docs.openclaw.ai
# "Skill format": `metadata.openclaw`, aliases `metadata.clawdbot`, `metadata.clawdis`). A skill holding
# one is written for OpenClaw, which also documents top-level keys of its own ("Optional frontmatter keys"
# in Clawdbot's docs/tools/skills.md).
OPENCLAW = "openclaw"
OPENCLAW_NAMESPACES: tuple[str, ...] = ("openclaw", "clawdbot", "clawdis", "moltbot")
HERMES = "hermes"  # NousResearch Hermes Agent: `metadata.hermes` (tags, related skills, category, …)
CODEX = "codex"  # OpenAI Codex: `metadata.short-description` (no top-level keys of its own)
DIALECT_FIELDS: dict[str, dict[str, FieldSpec]] = {
    OPENCLAW: {
        f.key: f
        for f in (
            FieldSpec("homepage", "string", OPENCLAW, "OpenClaw: URL shown as \"Website\" in the macOS Skills UI."),
            FieldSpec("user-invocable", "bool", OPENCLAW,
                      "OpenClaw: `true` (the default) exposes the skill as a user slash command."),
            FieldSpec("disable-model-invocation", "bool", OPENCLAW,
                      "OpenClaw: `true` leaves the skill out of the model prompt (users can still invoke it)."),
            FieldSpec("command-dispatch", "string", OPENCLAW,
                      "OpenClaw: `tool` makes the slash command call a tool directly, bypassing the model."),
            FieldSpec("command-tool", "string", OPENCLAW, "OpenClaw: the tool `command-dispatch: tool` calls."),
            FieldSpec("command-arg-mode", "string", OPENCLAW,
                      "OpenClaw: `raw` (the default) passes the raw argument string to the dispatched tool."),
        )
    },
    # NousResearch Hermes Agent ("Creating Skills", website/docs/developer-guide/creating-skills.md): a skill
    # carrying `metadata.hermes` is written for Hermes, which defines these top-level keys (`platforms`
    # hides the skill on other operating systems: moving it under `metadata` would drop that filter)
    HERMES: {
        f.key: f
        for f in (
            FieldSpec("author", "any", HERMES, "Hermes Agent: the skill's author."),
            FieldSpec("platforms", "any", HERMES, "Hermes Agent: the operating systems the skill is offered on."),
            FieldSpec("required_environment_variables", "any", HERMES,
                      "Hermes Agent: environment variables the skill needs."),
            FieldSpec("required_credential_files", "any", HERMES, "Hermes Agent: credential files the skill needs."),
            FieldSpec("prerequisites", "any", HERMES, "Hermes Agent (legacy): what the skill needs first."),
            # read at the top level too (hermes-agent 0.19.0: tools/skills_tool.py falls back to them when
            # `metadata.hermes` lacks them; agent/learning_graph.py reads `category`)
            FieldSpec("tags", "any", HERMES, "Hermes Agent: the skill's tags (`metadata.hermes.tags` first)."),
            FieldSpec("related_skills", "any", HERMES,
                      "Hermes Agent: skills to suggest with this one (`metadata.hermes.related_skills` first)."),
            FieldSpec("category", "any", HERMES, "Hermes Agent: the skill's category in its learning graph."),
            FieldSpec("setup", "any", HERMES, "Hermes Agent: setup help and the secrets to collect."),
        )
    },
}

# Devin CLI (docs.devin.ai, "Creating skills": `.devin/skills/<name>/SKILL.md`, also read from `.windsurf/skills/`)
# documents, beside keys Claude Code shares (`allowed-tools`, `argument-hint`, `model`), these of its own:
# `triggers` lists who may invoke the skill (its SkillTrigger: `user`, `model`), not keywords. Kept out of
# DIALECT_FIELDS (agent_defines): a `triggers` list of keywords is still a runtime's own key.
DEVIN = "devin"
DEVIN_FIELDS: dict[str, FieldSpec] = {
    f.key: f
    for f in (
        FieldSpec("triggers", "any", DEVIN, "Devin CLI: who may invoke the skill (`user`: a slash command, `model`)."),
        FieldSpec("permissions", "any", DEVIN, "Devin CLI: the skill's own `allow` / `deny` / `ask` permission rules."),
        FieldSpec("subagent", "bool", DEVIN, "Devin CLI: `true` runs the skill as a subagent in its own context."),
    )
}
DEVIN_TRIGGERS = frozenset({"user", "model"})


def devin_triggers(value: object) -> bool:
    """A `triggers` value in Devin CLI's shape: a non-empty list of its invocation routes (`[user, model]`)."""
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, str) and v.strip().lower() in DEVIN_TRIGGERS for v in value)


# Squad (bradygaster/squad, AI agent teams for GitHub Copilot): its agents write the skills they earn to
# `.squad/skills/<name>/SKILL.md` (`.ai-team/skills/` before) with three top-level keys of its own, which its
# coordinator reads: `domain`, `confidence` (the skill's lifecycle: low, medium, high) and `source` (how it was
# learned). Kept out of DIALECT_FIELDS (agent_defines), like Devin's: a `source` or `domain` alone is any runtime's.
SQUAD = "squad"
SQUAD_FIELDS: dict[str, FieldSpec] = {
    f.key: f
    for f in (
        FieldSpec("domain", "any", SQUAD, "Squad: the area of work the earned skill covers."),
        FieldSpec("confidence", "any", SQUAD, "Squad: how proven the skill is (`low`, `medium`, `high`)."),
        FieldSpec("source", "any", SQUAD, "Squad: how the skill was learned (`earned`, `manual`, the work it came from)."),
    )
}
SQUAD_CONFIDENCE = frozenset({"low", "medium", "high"})
SQUAD_DIRS = frozenset({".squad", ".ai-team"})  # where Squad keeps a team's skills (`.ai-team/`: before v0.5)


def squad_skill(data: dict) -> bool:
    """A frontmatter in Squad's earned-skill shape: `confidence` on its lifecycle (low, medium, high) beside its
    `domain` or `source`."""
    value = data.get("confidence")
    return isinstance(value, str) and value.strip().lower() in SQUAD_CONFIDENCE and (
        "domain" in data or "source" in data)


RECORD_KEYS = 60  # a runtime's record has at most this many top-level keys (more: a data dump)


# Keys an agent's own skill creator writes at the top level of the skills it makes, for itself (`agent_created:
# true`: WorkBuddy's skills, whose text names `~/.workbuddy/`, by unrelated authors in set 23 and the public
# index): not the author's data to move
AGENT_WRITTEN_KEYS = frozenset({"agent_created"})

# A generator's provenance stamp: the key and a tool with its version (`generated_from: "arscontexta-v1.6"`, written by
# the Ars Contexta plugin on every skill and manual page it generates, across many unrelated vaults in the index)
GENERATOR_KEYS = frozenset({"generated_from", "generated_by"})

# Top-level keys another agent documents for what a known key does: renaming one to ours would take the
# setting away from that agent. key -> (agent, our key)
OTHER_AGENT_FIELDS: dict[str, tuple[str, str]] = {
    # Qwen Code's parseSkillContent reads only `allowedTools` (a list of its own tool names)
    "allowedTools": ("Qwen Code", "allowed-tools"),
}


def agent_defines(key: object) -> bool:
    """Some agent's skill loader defines this top-level key: ours, another agent's name for one of ours, or a
    dialect's own (OpenClaw's `homepage`, Hermes's keys). A key none defines is a runtime's or the author's."""
    return key in FIELDS or key in OTHER_AGENT_FIELDS or any(key in d for d in DIALECT_FIELDS.values())


def metadata_namespace(metadata: object) -> str | None:
    """The OpenClaw namespace key `metadata` holds (`{"clawdbot": {...}}`), or None. `metadata` is the
    parsed value: a mapping, or JSON text of one (which OpenClaw parses itself)."""
    if isinstance(metadata, str):
        text = metadata.strip()
        if not text.startswith("{") or len(text) > 100_000:
            return None
        try:
            metadata = json.loads(text)
        except (ValueError, RecursionError):
            return None
    if isinstance(metadata, dict):
        for ns in OPENCLAW_NAMESPACES:
            if ns in metadata:
                return ns
        for ns, value in metadata.items():  # a fork's own name (elizaOS: "otto"), known by its shape
            if isinstance(ns, str) and _openclaw_shaped(value):
                return ns
    return None


# the keys OpenClaw reads from its metadata namespace (docs.openclaw.ai, skills: "Gating")
OPENCLAW_META_KEYS = frozenset({"always", "emoji", "homepage", "os", "requires", "primaryEnv", "skillKey",
                                "install"})


def _openclaw_shaped(value: object) -> bool:
    """A mapping of OpenClaw's metadata keys only, with its gating (`requires` / `install`) or `emoji`: the
    namespace of an OpenClaw fork under another name (`{"otto": {"requires": {"bins": [...]}}}`)."""
    return (isinstance(value, dict) and bool(value) and all(isinstance(k, str) for k in value)
            and value.keys() <= OPENCLAW_META_KEYS and not value.keys().isdisjoint({"requires", "install", "emoji"}))


def dialect_of(metadata: object) -> str | None:
    """The agent dialect a skill is written in, from its `metadata` value: OPENCLAW, HERMES or None."""
    if metadata_namespace(metadata) is not None:
        return OPENCLAW
    return HERMES if _hermes(metadata) else None


def _hermes(metadata: object) -> bool:
    """`metadata` holds Hermes Agent's nested `hermes` mapping."""
    return isinstance(metadata, dict) and isinstance(metadata.get(HERMES), dict)


NAMESPACE_KEYS = 5  # a mapping under `metadata` with this many keys is a tool's configuration block


def agent_namespaces(metadata: object) -> frozenset[str]:
    """Every agent's namespace `metadata` holds (OpenClaw's under any of its names, Hermes's, and any mapping of
    NAMESPACE_KEYS or more keys: a runtime's configuration block such as `metadata.helixforge` with its engine,
    tier and limits): nested mappings those agents read, not text values."""
    out = set()
    ns = metadata_namespace(metadata)
    if ns is not None:
        out.add(ns)
    if _hermes(metadata):
        out.add(HERMES)
    if isinstance(metadata, dict):
        out.update(k for k, v in metadata.items() if isinstance(k, str) and isinstance(v, dict)
                   and len(v) >= NAMESPACE_KEYS)
    return frozenset(out)


# keys only Hermes Agent documents: a skill carrying one is written for Hermes even without `metadata.hermes`
HERMES_KEYS = ("required_environment_variables", "required_credential_files")


def frontmatter_dialect(data: object) -> str | None:
    """The agent dialect of a whole frontmatter mapping: its `metadata` (dialect_of), or Hermes's own keys
    (`required_environment_variables`), Codex's `metadata.short-description`, a `compatibility` naming
    Hermes Agent, or a description saying the skill runs with OpenClaw ("… with OpenClaw", "powered by
    OpenClaw", "OpenClaw skill for …", "… for OpenClaw") and naming no Claude."""
    if not isinstance(data, dict):
        return None
    meta = data.get("metadata")
    found = dialect_of(meta)
    if found is not None:
        return found
    if any(k in data for k in HERMES_KEYS):
        return HERMES
    if isinstance(meta, dict) and "short-description" in meta:
        return CODEX  # Codex shows `metadata.short-description` in its skill list
    compat = data.get("compatibility")
    if isinstance(compat, str) and "hermes" in compat.lower():
        return HERMES
    desc = data.get("description")
    low = desc.lower() if isinstance(desc, str) else ""
    if "openclaw" in low and "claude" not in low.replace("openclaw", "") and _RUNS_ON_OPENCLAW.search(low):
        return OPENCLAW  # "… an AI-controlled server with OpenClaw": run by OpenClaw (not one about it)
    return None


_OS_NAMES = frozenset({"macos", "linux", "windows", "darwin", "win32", "osx"})  # Hermes's `platforms` values
HERMES_MENTIONS = 2  # times a skill with Hermes's `platforms` names Hermes to be taken as written for it


def skill_dialect(data: object, text: str) -> str | None:
    """The agent dialect of a skill: its frontmatter's (frontmatter_dialect), or Hermes for a skill with Hermes
    Agent's `platforms: [macos, linux]` (its operating-system filter, which no other agent defines at the top
    level) whose text names Hermes more than in passing (a fork's skill that keeps the keys, "source: hermes
    agent", is read by a loader that ignores them), or with the top-level `tags`, `category` or `related_skills`
    Hermes reads and text that names Hermes as often (a skill merely about Hermes has neither key), or a list of the
    agents it is written for that names Hermes (`compatible_with: [claude-code, openclaw, hermes]`); or Devin CLI
    for a skill whose `triggers` lists Devin's invocation routes (`[user, model]`); or Squad for one in its
    earned-skill shape (squad_skill)."""
    found = frontmatter_dialect(data)
    if found is not None or not isinstance(data, dict):
        return found
    if devin_triggers(data.get("triggers")):
        return DEVIN  # `triggers: [user, model]`: Devin CLI's invocation routes, a shape only Devin gives the key
    if squad_skill(data):
        return SQUAD  # `confidence: high` beside `domain` / `source`: a skill a Squad team earned
    value = data.get("platforms")
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip().lower() in _OS_NAMES
                                                 for v in value):
        return HERMES if _hermes_mentions(text) >= HERMES_MENTIONS else None
    if any(k in data for k in _HERMES_TOP_KEYS) and (_hermes_mentions(text) >= HERMES_MENTIONS or _lists_hermes(data)):
        return HERMES  # `category: reasonix`, `tags: […]` and a "Hermes 适配说明" section: Hermes reads both keys
    return None


# agents a skill may list itself as written for, beside Hermes (`compatible_with: [claude-code, openclaw, hermes]`)
_AGENT_NAMES = frozenset({"claude-code", "claude", "cursor", "openclaw", "codex", "gemini", "gemini-cli", "copilot",
                          "windsurf", "opencode", "cline", "kiro", "amp"})


def _lists_hermes(data: dict) -> bool:
    """A top-level list of the agents the skill is written for names Hermes among other agents
    (`compatible_with: [claude-code, openclaw, cursor, hermes]`)."""
    for value in data.values():
        if isinstance(value, list) and 2 <= len(value) <= 20 and all(isinstance(v, str) for v in value):
            names = {v.strip().lower() for v in value}
            if names & {"hermes", "hermes-agent"} and names & _AGENT_NAMES:
                return True
    return False


def _hermes_mentions(text: str) -> int:
    """How often the text names Hermes, not counting Hermes Labs (`author: Hermes Labs`, `hermes-labs-ai/…`: a
    company whose tools are not Hermes Agent)."""
    if "ermes" not in text and "ERMES" not in text:
        return 0  # (most skills: no lower-cased copy of the text)
    low = text.lower()
    n = low.count("hermes")
    if n < HERMES_MENTIONS:
        return n
    return n - sum(low.count(f"hermes{sep}labs") for sep in (" ", "-", "_", ""))


# top-level keys Hermes Agent reads (tools/skills_tool.py falls back to them) that Claude Code does not
_HERMES_TOP_KEYS = ("tags", "category", "related_skills")


# the description says the skill runs with OpenClaw ("… server with OpenClaw", "powered by OpenClaw"), not that
# it is about OpenClaw ("manages OpenClaw skills" may run anywhere)
# ("OpenClaw skill for source-backed web search …", "… search for OpenClaw": an OpenClaw skill)
_RUNS_ON_OPENCLAW = lazy_compile(r"\b(?:with|in|on|via|using|powered\s+by|for(?:\s+your)?)\s+openclaw\b(?![\w/-])"
                                 r"|\bopenclaw\s+(?:agent\s+)?skill\b(?![\w/-])", re.I)

