"""UNKNOWN_FIELD: a frontmatter key that neither the spec nor Claude Code defines."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ... import claude_code
from ...document import SkillDocument
from ...fields import (
    AGENT_WRITTEN_KEYS,
    DEVIN,
    FIELDS,
    GENERATOR_KEYS,
    HERMES,
    HERMES_KEYS,
    OPENCLAW,
    OTHER_AGENT_FIELDS,
    SQUAD,
    SQUAD_DIRS,
    skill_dialect,
)
from ...findings import Edit, Finding, Fix, Severity
from ...hosts import hermes_plugin
from ...lazy_re import lazy_compile
from ...package_code import package_provides, package_reads, package_runtime_only
from ...rule import FixAvailability, RuleContext, rule
from ...targets import known_fields
from .._helpers import kebab_words, runtime_record
from .._sample import sample_skill

# a tool and its version: `arscontexta-v1.6`, `arscontexta-0.8.0`, `skillgen 2.1`
_GENERATOR_STAMP = lazy_compile(r"[A-Za-z][\w.-]{1,40}[-\s@]v?\d{1,4}(?:\.\d{1,4}){0,3}")

# difflib is slow; past this many unknown keys the frontmatter is data, not typos
_SUGGEST_LIMIT = 50
_LONGEST_FIELD = max(len(k) for k in FIELDS)


COMPOUND_EXTRA = 3  # letters around a known key that make another word (`subagent`), not a typo (`agents`)


@rule("UNKNOWN_FIELD", family="frontmatter", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES)
def unknown_field(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A top-level frontmatter key is not defined for the target (the Agent Skills spec, Claude Code).

    ## What it does
    Flags top-level keys other than the spec's (`name`, `description`, `license`, `compatibility`,
    `metadata`, `allowed-tools`) and, with `target = "claude-code"` (the default), Claude Code's
    documented fields (`argument-hint`, `arguments`, `disable-model-invocation`, `user-invocable`,
    `model`, `effort`, `context`, `agent`, `hooks`, `paths`, `shell`, `version`, `when_to_use`).
    With `target = "claude-api"` or `"agentskills"` the Claude Code fields are reported too: other
    clients ignore them. Suggests the closest known key for typos (at most three letters inserted, dropped or
    changed: `targets` is no misspelt `arguments`), when the value would be valid there
    (`modle: sonnet` is a misspelt `model`; `mode: manual` is not: `manual` names no model); `arguments` takes
    argument names (`argument: "<package_name>"` is a misspelt `argument-hint`, the hint shown while typing).
    A key that means a known field under another name says so: `use_when` / `when-to-use` / `whenToUse` (Claude
    Code reads that text from `when_to_use`; an unsafe fix renames it; a list, `use_when: [a, b]`, is another
    runtime's schema and gets the plain message), `model-invocable` (the switch is
    `disable-model-invocation`; no fix, the meaning is inverted), `tools` holding Claude Code's tool names
    (`tools: Read, Grep`: a subagent's key; a skill's is `allowed-tools`, with no fix, since that grants the tools
    without asking; `tools: [search_web]` is another runtime's and gets the plain message); not in a skill without
    `name` (a runtime's own layout, whose `use_when` MISSING_TRIGGER accepts). A `policy:` block is Codex's, which
    reads it from `agents/openai.yaml` beside SKILL.md: the message says so; so does a top-level
    `allow_implicit_invocation` (and names Claude Code's `disable-model-invocation`). A skill under `.universal-ai-config/`
    is that generator's template: a camelCase form of a known key (`userInvocable`, `argumentHint`) and a value
    given per agent (`allowedTools: {claude: [Read, Grep]}`) are its format, turned into each agent's own keys;
    other unknown keys (`descripton`) are still reported.

    A skill written for OpenClaw (formerly Clawdbot), recognised by an `openclaw`, `clawdbot`,
    `clawdis` or `moltbot` key in its `metadata`, by an OpenClaw plugin manifest (`openclaw.plugin.json`)
    beside SKILL.md, or by a description that says it runs on OpenClaw and names no Claude ("… with OpenClaw", "powered
    by OpenClaw", "OpenClaw skill for …", "… for OpenClaw"; not "Manages OpenClaw configs"), may also use OpenClaw's documented keys: `homepage`,
    `user-invocable`, `disable-model-invocation`, `command-dispatch`, `command-tool` and
    `command-arg-mode`. A skill written for NousResearch Hermes Agent, recognised by `metadata.hermes`, by
    Hermes's own keys (`required_environment_variables`), or by `platforms: [macos, linux]` (Hermes's
    operating-system filter) or a top-level `tags`, `category` or `related_skills` in a skill whose text names
    Hermes at least twice or lists it among the agents it is written for (`compatible_with: [claude-code, openclaw,
    hermes]`), or by the Hermes plugin that ships it (a `plugin.yaml` and an `__init__.py` calling `register_skill(`,
    in a folder at most three above the skill's), may use the top-level keys Hermes reads: `author`, `platforms`, `tags`, `related_skills`, `category`, `setup`, `prerequisites`.
    Hermes's own keys are never reported, also in a skill marked for another agent as well (`metadata.openclaw`).
    A skill for Devin CLI (`triggers: [user, model]`, Devin's invocation routes, or a skill under `.devin/skills/`) may
    use Devin's `triggers`, `permissions` and `subagent`. A skill a Squad team earned (bradygaster/squad, for GitHub
    Copilot), recognised by `confidence` on Squad's lifecycle (`low`, `medium`, `high`) beside `domain` or `source`, or
    kept in a Squad team's folder (`.squad/skills/`, `.ai-team/skills/`), may use Squad's `domain`, `confidence` and
    `source`; the same keys in another shape (`confidence: 0.9`, a `domain` alone) are reported. A Kimi CLI flow
    skill (`type: flow` beside a fenced `mermaid` or `d2` flowchart in the body, run as `/flow:<name>`) may use `type`;
    `type: flow` with no flowchart, or another `type`, is reported.

    A skill with a slug `id` (`id: visual-analyst`, `id: builtin/review`, a field no agent's skill loader
    defines), or with no `description` and three or more keys no agent defines (`type: pipeline`, `group`,
    `phase`), is a runtime's own record, read by that runtime's loader: its other keys (`kind`, `aliases`,
    `trigger`) are that runtime's, and only a near-miss of a known key (`descripton`) is reported. So in a sample
    skill (kept under `tests/` or `fixtures/`, tagged `example`, or an example that says it is one: see MISSING_TRIGGER):
    an input for its package's tests or tutorial, whose keys are that test's data (`category: tools` for a hub's upload
    test).

    A key that the code of the package shipping the skill reads from its SKILL.md files (a source of
    the package, the nearest folder above the skill with `pyproject.toml`, `setup.py`, `package.json` or a
    wheel's `*.dist-info`, else the outermost import package (`__init__.py`) holding the skill, that names
    `SKILL.md` or `frontmatter` and writes the key as a quoted name: `meta.get("priority")`, or as a Go struct
    field's YAML tag: a field `Tags []string` tagged `yaml:"tags"` (a `go.mod` marks a Go package), or by index in Dart:
    `rawSkill['activation_hints']` (a `pubspec.yaml` marks a Dart or Flutter package); or reads it through
    a constant it indexes with: `_KEY = "x-stamp"` and `fm.get(_KEY)`; or matches the key's line: `r"^updated:"` (`r"^adapters\\s*:"`),
    `/^lifecycle:\\s*(.+)$/m`, or in a shell script `awk '/^  tags:/'`; or any JavaScript / TypeScript source of it
    declaring the key at the top level of a frontmatter schema object: `SkillFrontmatterSchema = z.object({ domain:
    z.string() })`) is that package's format, declared as `known-fields` would declare it: only a
    near-miss of a known key (`user_invocable` for `user-invocable`) is still reported there, unless the package
    reads the known key too (`_fm_get(fm, "when-to-use", "when_to_use")`: it takes both spellings), or no source of it
    names `.claude` (its own runtime alone loads the skill: emdash_core reads `user_invocable`, and the rename would
    turn off its `/telegram` command). So it is in a
    skill the package hands to another package's runtime through an entry-point group naming skills (its wheel's
    `entry_points.txt` or its `pyproject.toml`: `[agent_utilities.skill_providers]` `arr-mcp = arr_mcp.skills`
    for `arr_mcp/skills/arr-starter/`), `tags` and `categories` are that runtime's keys (agent-utilities filters skills on them); its
    other keys are still reported.

    A key that another agent documents for the same purpose as a known one is reported without a
    rename: Qwen Code reads only `allowedTools`, Claude Code only `allowed-tools`, so renaming one to the
    other silently removes that agent's tool allowlist. A skill that has both keys is not reported.
    Nor is a key an agent's own skill creator writes on the skills it makes (`agent_created: true`): the
    author did not write it, and moving it would hide it from that agent; nor a generator's provenance stamp,
    `generated_from` / `generated_by` holding a tool and its version (`generated_from: "arscontexta-v1.6"`, which
    the Ars Contexta plugin writes on every skill and manual page it generates; `generated_from: notes` is reported).

    ## Why is this bad?
    Unknown keys are ignored by agents (a typo such as `descripton` silently drops the description)
    and rejected by the spec's validator. Custom data belongs under `metadata`; a top-level key your own
    tools read (a catalog's `checksum`, a gate's `phase`) is declared in the `known-fields` setting instead.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    descripton: Use when filling PDF forms.
    author: me
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    metadata:
      author: me
    ---
    ```

    ## Fix
    When the key is a near-miss of a known key, renames it (unsafe: check the intent). A project
    with its own schema lists its keys once, and typos are still caught:
    `known-fields = ["scope", "stability"]` in `[tool.skillgrade]` or `.skillgrade.toml`.
    """
    if not doc.frontmatter.ok:
        return
    unknown = 0
    extra = ctx.config.known_fields
    fields = doc.frontmatter.fields
    dialect = skill_dialect(doc.frontmatter.data, doc.text)
    if dialect is None and doc.files.exists("openclaw.plugin.json"):
        dialect = OPENCLAW  # an OpenClaw plugin's skill: its manifest sits beside SKILL.md
    elif dialect is None and doc.path is not None and ".devin" in doc.path.parts[:-2] \
            and ".claude" not in doc.path.parts:
        dialect = DEVIN  # a skill in Devin CLI's project folder (`.devin/skills/<name>/`): Devin's keys are known
    elif dialect is None and doc.path is not None and SQUAD_DIRS.intersection(doc.path.parts[:-2]):
        dialect = SQUAD  # a skill in a Squad team's folder (`.squad/skills/<name>/`): Squad's keys are known
    known = known_fields(ctx.config.target, dialect)
    if dialect is None and any(k not in known and k not in extra and k not in AGENT_WRITTEN_KEYS for k in fields) \
            and hermes_plugin(doc):  # (looked for only when a key is unknown)
        known = known_fields(ctx.config.target, HERMES)  # a skill a Hermes plugin registers: Hermes's keys are known
    registry = runtime_record(doc.frontmatter.data)  # `id: visual-analyst`: a runtime's record; its keys are its own
    template = doc.skill_dir is not None and TEMPLATE_DIR in doc.skill_dir.parts
    for key, fld in fields.items():
        if key in known or key in extra or key in AGENT_WRITTEN_KEYS or key in HERMES_KEYS:
            continue  # (Hermes's own keys mark a Hermes skill whatever else it is written for: `metadata.openclaw`)
        if key in GENERATOR_KEYS and isinstance(fld.value, str) and _GENERATOR_STAMP.fullmatch(fld.value.strip()):
            continue  # `generated_from: "arscontexta-v1.6"`: the generating plugin's stamp, written on all it makes
        if key == "type" and fld.value == "flow" and _flowchart(doc):
            continue  # Kimi CLI's flow skill: `type: flow` and a Mermaid or D2 flowchart it walks (`/flow:<name>`)
        if template and (kebab_words(key) in known or _per_agent(fld.value)):
            continue  # universal-ai-config's source: `userInvocable`, `allowedTools: {claude: [...]}` become each
            # agent's own keys when it generates their configs
        if key in OTHER_AGENT_FIELDS:  # another agent's name for a known key: renaming it breaks that agent
            agent, ours = OTHER_AGENT_FIELDS[key]
            if ours not in fields:  # with both keys the skill serves both agents
                yield ctx.finding(fld.key_range, f"`{key}` is read by {agent} only: Claude Code reads `{ours}` and "
                                  f"{agent} `{key}`, so a skill for both needs both keys")
            continue
        if key in FIELDS:  # another target's field
            yield ctx.finding(fld.key_range, f"`{key}` is defined only for target `claude-code`, not "
                              f"`{ctx.config.target}`; other clients ignore it")
            continue
        meant = _MEANT.get(key)
        if key == "tools" and not _claude_tools(fld.value):
            meant = None  # `tools: [search_web, read_url]`: another runtime's tool names, not Claude Code's
        if meant is _WHEN and not isinstance(fld.value, str):
            meant = None  # `use_when: [a, b]`: a list, another runtime's schema; no text to move to `when_to_use`
        if meant is not None and meant[0] in known and meant[0] not in fields and not registry \
                and "name" in fields and not package_reads(doc, key):  # (no `name`: a runtime's own layout)
            target, why = meant
            fix = None
            if target == "when_to_use" and isinstance(fld.value, str):  # the same text under Claude Code's key
                fix = Fix.unsafe(f"Rename to `{target}`", Edit(fld.key_range, target))
            yield ctx.finding(fld.key_range, f"Unknown frontmatter field `{key}`; {why}", fix)
            continue
        if key in _ELSEWHERE and (isinstance(fld.value, dict) or key != "policy") and not registry \
                and not package_reads(doc, key):
            yield ctx.finding(fld.key_range, f"Unknown frontmatter field `{key}`; {_ELSEWHERE[key]}")
            continue
        unknown += 1
        close = []
        if unknown <= _SUGGEST_LIMIT and len(key) <= _LONGEST_FIELD + 4:
            close = difflib.get_close_matches(key.lower(), sorted(known), n=1, cutoff=0.75)
            if close and close[0] in key.lower() and len(key) - len(close[0]) >= COMPOUND_EXTRA:
                close = []  # `subagent` holds `agent` whole: a word of its own, not a misspelling
            if close and _edits(key.lower(), close[0]) > MAX_EDITS:
                close = []  # `targets` is no misspelt `arguments` (similar letters, four edits apart)
        fix = None
        msg = (f"Unknown frontmatter field `{key}`; custom data belongs under `metadata` (a key your own tools "
               "read: list it in `known-fields`)")
        if close == ["arguments"] and isinstance(fld.value, str) and not _names(fld.value) and "argument-hint" in known:
            close = ["argument-hint"]  # `argument: "<package_name>"`: a hint shown while typing, not argument names
        if close and close[0] in FIELDS and not _fits(fld.value, FIELDS[close[0]].kind, close[0]):
            close = []  # `agents: [planner, developer]` is no misspelt `agent` (text); `mode: manual` no `model`
        if close and (close[0] in fields or package_reads(doc, key) and package_reads(doc, close[0])):
            close = []  # (the package reads both spellings: `_fm_get(fm, "when-to-use", "when_to_use")`)
        if close and package_runtime_only(doc, [key]):
            continue  # emdash_core reads `user_invocable` and never names `.claude`: its spelling, the rename breaks it
        if close:
            msg = f"Unknown frontmatter field `{key}`; did you mean `{close[0]}`?"
            fix = Fix.unsafe(f"Rename to `{close[0]}`", Edit(fld.key_range, close[0]))
        elif registry or package_reads(doc, key) or key in _PROVIDED_KEYS and package_provides(doc) \
                or sample_skill(doc):
            continue  # only a typo of a known key is reported in a runtime's record, or of a key the package reads,
            # or of `tags` in a skill the package hands to another package's runtime (an entry point naming skills),
            # or in a sample skill (a test input: its keys are the test's data)
        yield ctx.finding(fld.key_range, msg, fix)


def _flowchart(doc: SkillDocument) -> bool:
    """The body holds a fenced `mermaid` or `d2` block: the flowchart of a Kimi CLI flow skill."""
    return any(b.language in ("mermaid", "d2") for b in doc.code_blocks)


# keys the runtimes that take skills through an entry point read (agent-utilities' skill cards filter on `tags`)
_PROVIDED_KEYS = frozenset({"tags", "categories"})  # (set 43p: its skill filter reads `categories` beside `tags`)
MAX_EDITS = 3  # a misspelling is at most this many letters inserted, dropped or changed (`modle`: 2)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance of two short keys (both at most a field's length and a few letters)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


# keys that mean a known field under another name (too far for a spelling match): the message names that field
_WHEN = ("when_to_use", "Claude Code reads this text from `when_to_use` (added to the description in its skill list)")
_MODEL = ("disable-model-invocation", "no agent reads it: Claude Code's switch is `disable-model-invocation: true`,"
          " which keeps the model from loading the skill on its own (loading it is the default)")
# (`tools` is a subagent's key; no rename fix: `allowed-tools` grants the tools without asking)
_TOOLS = ("allowed-tools", "that is a subagent's key: a skill lists the tools it may use without asking in `allowed-tools`")
_MEANT: dict[str, tuple[str, str]] = {"use_when": _WHEN, "when-to-use": _WHEN, "whenToUse": _WHEN, "use-when": _WHEN,
                                      "model-invocable": _MODEL, "model_invocable": _MODEL, "modelInvocable": _MODEL,
                                      "tools": _TOOLS}
# a block another agent reads from its own file, not from the frontmatter: `policy:` (Codex's `agents/openai.yaml`)
_ELSEWHERE = {"policy": "Codex reads `policy` (`allow_implicit_invocation`) from `agents/openai.yaml` beside SKILL.md, "
                        "not from the frontmatter",
              # the switch itself, at the top level (`allow_implicit_invocation: false`)
              "allow_implicit_invocation": "Codex reads it under `policy:` in `agents/openai.yaml` beside SKILL.md, "
                                           "not from the frontmatter; Claude Code's switch is "
                                           "`disable-model-invocation: true`"}

# universal-ai-config (uac) keeps one template per skill under this folder and generates each agent's config from it:
# its keys are camelCase (`userInvocable` becomes Claude Code's `user-invocable`) and a value may be a block per agent
TEMPLATE_DIR = ".universal-ai-config"
_AGENTS = frozenset({"default", "claude", "copilot", "cursor", "codex", "gemini", "windsurf", "opencode", "kiro", "cline"})
def _per_agent(value: object) -> bool:
    """`{claude: [...], copilot: [...]}`: a value given per agent (uac's overrides)."""
    return isinstance(value, dict) and bool(value) and all(isinstance(k, str) and k in _AGENTS for k in value)


def _claude_tools(value: object) -> bool:
    """`Read, Grep, Bash(git:*)` or a list of such: Claude Code's tool names (capitalised, or `mcp__…`)."""
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else []
    names = [x.strip() for x in items if isinstance(x, str) and x.strip()]
    return bool(names) and all(n[:1].isupper() or n.startswith("mcp__") for n in names)


_VALUED = ("model", "context", "effort", "shell")
_NAME = lazy_compile(r"[A-Za-z_][\w-]{0,63}")


def _names(value: str) -> bool:
    """`issue branch`: argument names, as `arguments` takes them (not `<package_name>` or `[issue-number]`)."""
    words = value.split()
    return bool(words) and len(words) <= 20 and all(_NAME.fullmatch(w) for w in words)


def _fits(value: object, kind: str, field: str = "") -> bool:
    """The value has the type the suggested field takes (a rename must not trade one finding for another),
    and for a field with documented values (`model`, `context`, `effort`, `shell`) one of them."""
    if field == "arguments":
        return _names(value) if isinstance(value, str) else isinstance(value, list) and all(
            isinstance(v, str) and _names(v) for v in value)
    if field in _VALUED and isinstance(value, str):
        return claude_code.known_model(value) if field == "model" else value in claude_code.data().enums[field]
    if kind == "string":
        return isinstance(value, str | int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "string-or-list":
        return isinstance(value, str | list)
    if kind in ("string-map", "mapping"):
        return isinstance(value, dict)
    return True
