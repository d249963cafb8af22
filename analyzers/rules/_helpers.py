"""Helpers shared by several rule families: YAML quoting, slugs, trigger phrases, path resolution."""

from __future__ import annotations

import functools
import json
import re
import unicodedata

from .. import rx
from ..document import ProseLine, SkillDocument
from ..fields import RECORD_KEYS, agent_defines
from ..findings import Pos
from ..lazy_re import lazy_compile

NAME_RE = rx.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")  # (\Z: `$` allows a final line break, `name: |`)
# `name: "{skill-name}"`, `<skill-name>`, `[Skill Name]`: a template's placeholder, filled in by whoever
# copies it (a skill-format template shipped as templates/skill.md)
# `{skill-name}`, `{{name}}`, `<name>`, `[name]`, `__PKG__` (a scaffold's token its generator replaces)
_PLACEHOLDER_NAME = rx.compile(r"\s*(?:\{\{?[^{}]{1,60}\}\}?|<[^<>]{1,60}>|\[[^\[\]]{1,60}\]|__[A-Z][A-Z0-9_]{0,60}__)\s*")
# a placeholder token inside a name (`__SKILL_NAME__-deep-research`, `{{prefix}}-review`); the rest must be a name (NAME_RE)
_PLACEHOLDER_TOKEN = rx.compile(r"__[A-Z][A-Z0-9_]{0,60}__|\{\{[^{}]{1,60}\}\}|\{[^{}]{1,60}\}|<[^<>]{1,60}>")
# the capitalised word a template puts where the name goes: `TEMPLATE-extractor` in an `_template/` folder that users
# fork (`Template-Extractor` is a name, and NAME_FORMAT reports its capitals). A pattern of its own, asked only when the
# word is there: as an alternative of the one above, its look-behind cost every description a scan of every position
_PLACEHOLDER_WORDS = ("TEMPLATE", "PLACEHOLDER", "SKILL_NAME", "YOUR_NAME")
_PLACEHOLDER_WORD = rx.compile(r"(?<![A-Za-z0-9])(?:TEMPLATE|PLACEHOLDER|SKILL_NAME|YOUR_NAME)(?![A-Za-z0-9])")


# a runtime's skill id: `momentum-trading`, `data_fetcher`, `builtin/code-review`
_RUNTIME_ID = lazy_compile(r"[a-z0-9][a-z0-9_-]{0,63}(?:/[a-z0-9][a-z0-9_-]{0,63}){0,3}")


RUNTIME_ID_KEYS = ("id", "skill_id", "skill")


def runtime_id(data: object) -> str | None:
    """The frontmatter's slug id (`id: momentum-trading`, `id: builtin/code-review`, `skill: ip-design`,
    `skill_id: x`): a field no agent's skill loader defines, with which a runtime's own registry identifies
    its skills (its loader, not an agent's, reads this file). None when there is none."""
    if not isinstance(data, dict):
        return None
    for key in RUNTIME_ID_KEYS:
        ident = data.get(key)
        if isinstance(ident, str) and _RUNTIME_ID.fullmatch(ident) is not None:
            return ident
    return None


# a key only Craft Agents defines (the tools it pre-approves while the skill runs): Craft Agents files each skill
# under its folder's slug (`skills/{slug}/`) and shows `name` as the skill's display name; `connectors:`, the
# integrations list of a skill library whose runtime (not an agent's loader) shows `name` in its picker
FOLDER_SLUG_KEYS = ("alwaysAllow", "connectors")
# a runtime's own tool names (`search_tickets`, `web_search`): no agent's tools are spelt so (Claude Code's are
# `Read`, `WebSearch`, `mcp__server__tool`)
_SNAKE_TOOL = lazy_compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def folder_label(data: object, name: str, dirname: str) -> bool:
    """`name: "Memory Search"` in `memory-search/` beside `alwaysAllow:` (a Craft Agents skill), `connectors:`, or a
    `tools:` list of another runtime's snake_case tool names: that runtime identifies the skill by its folder's
    slug; `name` is its display label, the folder's slug written out."""
    if not isinstance(data, dict) or not dirname or slugify(name) != dirname:
        return False
    if any(k in data for k in FOLDER_SLUG_KEYS):
        return True
    tools = data.get("tools")
    return isinstance(tools, list) and bool(tools) and all(
        isinstance(t, str) and _SNAKE_TOOL.fullmatch(t) is not None for t in tools)


FOREIGN_KEYS = 3  # top-level keys no agent defines that, with no `description`, make a record of another runtime


def runtime_record(data: object) -> bool:
    """The frontmatter is another runtime's record, not an agent skill's: a slug `id` (runtime_id), or no
    `description` (which every agent's skill has) beside FOREIGN_KEYS or more keys no agent defines (a
    pipeline's `type`, `group`, `phase`, `inputs`; a scanner fixture's `skill_id`, `ecosystem`)."""
    if runtime_id(data) is not None:
        return True
    if not isinstance(data, dict) or "description" in data or len(data) > RECORD_KEYS:
        return False  # (thousands of keys: a data dump, whose description may lie past the keys read)
    foreign = 0
    for key in data:
        if not agent_defines(key):
            foreign += 1
            if foreign >= FOREIGN_KEYS:
                return True
    return False


def placeholder_name(name: str, line: str = "") -> bool:
    """A template's placeholder name: the whole value (`{skill-name}`, `<name>`), a valid name with a placeholder
    token in it (`__SKILL_NAME__-deep-research`, `{{prefix}}-review`, `TEMPLATE-extractor`), or a sample value whose YAML
    comment on `line` says to replace it (`name: my_skill  # {{PLACEHOLDER: replace with skill name}}`)."""
    if _PLACEHOLDER_NAME.fullmatch(name) is not None:
        return True
    if _PLACEHOLDER_TOKEN.search(name) is not None and \
            NAME_RE.match(_PLACEHOLDER_TOKEN.sub("x", name.strip())) is not None:
        return True  # `__SKILL_NAME__-deep-research`: an installer fills the token in, the rest is a valid name
    if any(w in name for w in _PLACEHOLDER_WORDS) and _PLACEHOLDER_WORD.search(name) is not None and \
            NAME_RE.match(_PLACEHOLDER_WORD.sub("x", _PLACEHOLDER_TOKEN.sub("x", name.strip()))) is not None:
        return True  # `TEMPLATE-extractor`
    hash_at = line.find(" #")
    if hash_at < 0:
        return False
    comment = line[hash_at:].lower()
    return "{{" in comment or "placeholder" in comment or "replace" in comment

# a sentence's start: the text's, or after ". " / "; " / "! " / "? ", or right after a full-width 。！？；
_START = r"(?:^|(?<=[.;!?]\s)|(?<=[。！？；]))"

# Explicit trigger clauses: what routers and the methodology look for.
_EXPLICIT = rx.compile(
    r"\b(?:"
    r"use[ds]?\s+(?:this\s+skill\s+|this\s+(?:workflow|playbook|runbook|procedure|checklist|guide)\s+|this\s+|it\s+|me\s+"
    r"|skill\s+|these\s+(?:[\w-]{1,20}\s+)?tools\s+)?"  # ("Use this workflow when taking an issue to a PR")
    r"(?:together\s+with\s+`?[\w.-]{1,60}`?\s+)?"  # "Use together with cve-detect-common during …"
    r"(?:(?:only|immediately|especially|primarily|first|always|also|right|just|standalone|directly|independently),?\s+"
    r"|(?:daily|weekly|monthly|quarterly|regularly|periodically)\s+(?:or|and)\s+)?"  # "Use monthly or after …"
    r"(?:when|whenever|any\s*time|anytime|if|after|before|for|during|while|in|to\s+\w+)\b"
    r"|should\s+be\s+used\s+(?:when|whenever|for|if|to)\b"
    # "Reach for it on STRUCTURAL questions …": "use it on / for" in other words
    r"|reach\s+for\s+(?:it|this\s+skill|this)\s+(?:on|for|when|whenever|if|before|after|during)\b"
    r"|(?:should|must|can)\s+use\s+(?:this\s+skill|it)\s+(?:when|whenever|for|if|to)\b"
    r"|(?:invoke[sd]?|activates?|activated|triggers?|triggered|auto[-\s]?loads?|applies|load|spawn(?:s|ed)?"
    r"|called|dispatched)\s+"
    r"(?:this\s+skill\s+|this\s+|it\s+)?(?:(?:only|automatically|proactively|always|immediately|explicitly|manually"
    r"|first,?)\s+)?"  # ("Invoke first, before ls or grep, for …")
    r"(?:(?:when|whenever|on|for|if|after|before)\b"  # "Invoke after …", "Invoke automatically before writing …"
    # "Invoked at the classification step by the pipeline commands" (not "Invoked at scale")
    r"|(?:at|upon|during)\s+(?:the|a|an|each|every|any)\s+\w"
    # "Invoke this skill in any project where …" (the skill named: not "Invokes ffmpeg in a sandbox")
    r"|(?<=this\sskill\s)in\s+(?:any|every|each|a|an)\s+\w)"
    r"|apply\s+(?:this\s+skill\s+|it\s+)?(?:only\s+|by\s+default\s+)?(?:when|whenever|if)\b"  # "Apply when writing code" (not "apply for")
    # "Apply to chat, Linear tickets, PR bodies …" at a sentence's start: where the skill is used
    r"|" + _START + r"appl(?:y|ies)\s+(?:this\s+(?:skill\s+|style\s+)?|it\s+)?(?:only\s+)?to\s+\w"  # ("Applies to tasks …")
    # "Governs every user-facing reply.": always on, for each turn of that kind (not "Handles every CSV dialect")
    r"|" + _START + r"(?:governs|applies\s+to|covers)\s+(?:every|each|all)\s+(?:[\w-]+\s+){0,2}?(?:repl(?:y|ies)|messages?"
    r"|responses?|answers?|turns?|conversations?|sessions?|requests?|prompts?)\b"
    # "explicit invocation is useful for route inspection": what invoking it is for (as "Invoke it for …")
    r"|(?:explicit\s+|manual\s+)?invocation\s+is\s+(?:useful|meant|intended)\s+(?:for|when|whenever|if)\b"
    # "Invoke it to write the brief when …" (as "Use it to …"); "Loaded by the memory plugin when a turn ends …"
    r"|invoke[sd]?\s+(?:this\s+skill\s+|it\s+)to\s+\w"
    # "Run /test to write a test suite …" (the skill's own command stands for "this skill"), as "Use this skill to …"
    r"|run\s+this\s+skill\s+to\s+\w"
    # "Load this to query solutions, contribute SOPs …" (as "Use this to …"; not "Load this data to BigQuery")
    r"|(?:load|read|consult)\s+(?:this(?:\s+skill)?|it)\s+to\s+\w"
    # "Trigger before every deploy", "Trigger every time …", 'Triggered by "deploy it"' at a sentence's start
    r"|" + _START + r"trigger(?:ed|s)?\s+(?:this\s+skill\s+|it\s+)?(?:before|after|every|any\s*time|by)\b"
    # "Trigger with requests like "audit my crons"": the requests that load it
    r"|trigger(?:ed|s)?\s+(?:this\s+skill\s+|it\s+)?(?:with|on)\s+(?:requests?|prompts?|phrases?|queries|messages?|asks)\b"
    # "Trigger with /update-dependencies or phrases like …": its command, at a sentence's start (not "release mode
    # (triggered by /commit v1.2)": one mode's command)
    r"|" + _START + r"(?:trigger|invoke)\s+(?:this\s+skill\s+|it\s+)?with\s+`?/[\w:.-]{1,40}"  # ("Invoke with /pcp.")
    # ("Invoked by the stackgen generator over every package it vets")
    # ("Loaded by fact-implement at task close": a moment, as "at session start" anywhere; not "at scale")
    # ("Auto-submitted by this plugin's session.measure hook when …": not "forms submitted by users when …")
    r"|(?:loaded|invoked|injected|triggered|auto-submitted)\s+(?:automatically\s+)?by\s+(?:[^.;!?\n]|\.(?=\w)){1,60}?\b"
    r"(?:when|whenever|before|after|on"
    r"|(?:for|over)\s+(?:every|each)"
    r"|at\s+(?:the\s+)?(?:(?:task|session|turn|conversation|phase|step|sprint|run)\s+(?:start|end|close|open)"
    r"|(?:start|end|close|beginning)\s+of))\b"
    # "… produce a plan when planning is requested", "Whenever commit or push is mentioned": the request said in the
    # passive
    r"|when(?:ever)?\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,3}(?:is|are)\s+(?:requested|asked\s+for|mentioned|discussed)\b"
    # "Load this first when …", "Read this skill before …", "Consult it whenever …"
    r"|(?:load|read|consult|recall)\s+(?:this(?:\s+(?:skill|index|guide|catalog))?|it)\s+(?:first,?\s+)?"  # (a catalog skill;
    # "READ THIS FIRST, before doing any forge work")
    r"(?:when|whenever|before|after|during|at|if|(?:for|on)(?!\s+(?:example|instance|more|details?|reference)\b))\b"
    # "Use as the first half of /deep-audit when you want …" (a short role between use and when)
    r"|use[ds]?\s+as\s+[^.;!?\n]{1,60}?\b(?:when|whenever|before|after|if)\b"
    # "Use contracts, templates and durable artifacts consistently when a workflow needs handoffs" at a sentence's
    # start: what to use, then the situation (not "… when needed", not "… except when aligning"); the same with
    # "Apply / Follow": "Apply the repository's testing standard when designing, changing or reviewing checks"
    r"|" + _START + r"(?:use[ds]?|apply|follow)\s+(?!this\b|it\b|me\b|skill\b|as\b|with\b|for\b|to\b)[^.;!?\n]{1,100}?(?<!\bnot)(?<!\bexcept)"
    r"(?<!\bnever)(?<!\bunless)\s(?:when|whenever)\s+"
    r"(?!needed\b|necessary\b|required\b|possible\b|appropriate\b|applicable\b|relevant\b|available\b|in\s+doubt\b)\w"
    # the same with "before" for the imperative only: "Use CodeSextant's symbol graph before modifying a repository"
    # (not "Uses Redis before hitting the database", what the skill does)
    r"|" + _START + r"(?:use|apply|follow)\s+(?!this\b|it\b|me\b|skill\b|as\b|with\b|for\b|to\b)[^.;!?\n]{1,100}?\sbefore\s+"
    r"(?:\w+ing|any|every|each|a|an|the|you|your|making|committing)\b"
    # "Self-check of scope on your own diff, to run before declaring a task done": after a comma or a dash, when it
    # is run (not "Configures git hooks to run before each commit": what the skill sets up)
    r"|(?<=[,—–-]\s)to\s+(?:be\s+)?(?:run|used|invoked|applied|loaded)\s+(?:only\s+)?(?:before|after|when|whenever)\s+\w"
    # "Use with NoCode2ProCode-Genesis to strengthen …" at a sentence's start: with a named tool, as "Use to …"
    # (a capitalised or backticked name: not "Use with caution to …")
    r"|" + _START + r"use\s+(?:it\s+|this\s+(?:skill\s+)?)?(?:with|alongside)\s+"
    r"(?:`[^`\n]{1,60}`|(?-i:[A-Z0-9])[\w./-]{1,60})\s+to\s+\w"
    # "Read before creating any technical plan …" (the object left out; only before / prior to: "files to
    # read if needed" is not a trigger)
    r"|(?:read|consult|load)\s+(?:first\s+)?(?:before|after|prior\s+to)\s+\w"
    # "The dispatcher loads this after the storyboard is approved" (who loads it, and when)
    r"|loads\s+(?:this|it)(?:\s+skill)?\s+(?:when|whenever|before|after|on)\b"
    # "Read when designing …, when …" at a sentence's start (not "files to read when needed" mid-sentence)
    r"|" + _START + r"(?:read|consult|load|reference)\s+(?:these\s+|it\s+|this(?:\s+skill)?\s+)?(?:when|whenever)\s+"
    r"(?!needed\b|necessary\b|required\b)\w"  # "Reference these whenever starting any coding task"
    # a description that opens with its situation: "When the user reports a bug …", "When there is a failing test …"
    r"|^(?:[a-z]{2,12}\s{0,3}[—–:-]\s{0,3})?\W{0,3}when(?:ever)?\s+(?:the\s+|a\s+|an\s+|there\s+|you\s+|users?\s+)\w"
    # at a sentence's start, a routing verb and the moment or occasion: "Use at the start of a session",
    # "Invoke at …", "Activates EVERY session", "Mandatory at seed generation", "Use on …"; a rival it
    # replaces: "Use instead of Chrome for …"; how other skills load it: "Fires only for …", "Surfaces on …"
    r"|(?:^|(?<=[.;!?—–]\s))(?:always\s+)?(?:use|invoke|load|run|activates?|mandatory|required)\s+"
    r"(?:this\s+(?:skill\s+)?|it\s+|these\s+(?:[\w-]{1,20}\s+)?tools\s+)?(?:once\s+|first\s+|only\s+)?"
    r"(?:at|on|upon|every|always|instead\s+of|rather\s+than|alongside|with\s+every"
    r"|in\s+(?:every|each)\s+(?:new\s+)?(?:session|conversation|chat|task|turn)"  # "Run first in every session"
    r"|from\s+the\s+(?:first|start|beginning|outset)\b)\b"  # "Use it from the first message of a build"
    # "… for ALL AI tasks. ALWAYS use `bl` FIRST": the skill's command before anything else, every time; "Always use
    # Seam CLI as the first retrieval layer for any codebase understanding task": every such task
    r"|" + _START + r"always\s+use\s+(?:(?:this(?:\s+skill)?|it|`[^`\n]{1,40}`|[\w.-]{1,40})\s+first\b"
    r"|(?=\S)[^.;!?\n]{1,60}?\s+for\s+(?:any|all|every)\s+\w)"  # ((?=\S): one way to split a run of blanks)
    # "Terse caveman mode. ONLY on explicit $caveman, /caveman, 'caveman mode'.": the invocations that load it
    r"|" + _START + r"(?:only\s+)?(?:on|upon)\s+explicit\s+(?:[$/\"'“`]|(?:requests?|invocations?|mentions?)\b)"
    # "OWASP Proactive Controls. Always load to turn findings into controls." (as "Always use to …")
    r"|" + _START + r"always\s+(?:load|invoke|apply)\s+(?:this(?:\s+skill)?\s+|it\s+)?to\s+\w"
    # "Used by /mb-site as the concept step": the slash command that loads it
    r"|(?:used|loaded|invoked|called)\s+by\s+/[\w:-]{1,40}\s+(?:as|for|when|during|after|before|to)\b"  # "loaded by /bakeoff:run to …"
    # "Invoked as /froid-loop-resolve <story-key>": its command, which an orchestrator or the user types; "Automation-only
    # — invoked by froid-loop sweep runs, not by humans": no model picks it
    r"|\binvoked\s+(?:explicitly\s+|manually\s+|only\s+)?as\s+`?/[\w:.-]{1,40}|\b(?:automation|automated)[\s-]only\b"
    # (also the imperative "Fire on: \"research X\", …")
    # ("Fires automatically at session start …, or on-demand when …": when, and the moment it is loaded; "Applied
    # automatically at session start.")
    r"|" + _START + r"(?:fires?|surfaces|kicks\s+in|engages|(?:applied|loaded|activated)(?=\s+automatically))"
    r"\s+(?:only\s+|automatically\s+)?(?:on|for|when|whenever|if"
    r"|at\s+(?:the\s+)?(?:session|task|turn|conversation)\s+(?:start|end)|at\s+the\s+(?:start|end|beginning)\s+of)\b"
    # "… communication. MANDATORY for complex requests": at a sentence's start (not "gate required before")
    r"|(?:^|(?<=[.;!?:]\s))(?:(?:mandatory|required)\s+(?:for|when|whenever|before|after)|essential\s+(?:when|whenever|before))\b"
    # "The DB checklist — mandatory before writing any database code": after a dash, the moment it is required
    r"|(?<=[—–]\s)(?:mandatory|required)\s+(?:when|whenever|before)\b"
    r"|(?:must|should)\s+be\s+(?:loaded|used|invoked|engaged|consulted|followed|applied)\b[^.;!?\n]{0,80}?"
    r"\b(?:when|whenever|for|before|during|if|on\s+(?:every|each|any|all))\b"  # "MUST be applied on every UI task"
    # "YOU MUST invoke this skill at the start of EVERY task": the active form, anywhere in a sentence
    r"|(?:must|should|always)\s+(?:use|invoke|load|run)\s+(?:this\s+skill|it)\s+"
    r"(?:at|on|upon|before|when|whenever|every)\b"
    r"|proactively\b"
    r"|triggers?(?:\s+(?:phrases?|words?|keywords?|terms?|conditions?))?(?:\s*\([^()\n]{0,80}\))?\s*(?:—|-|:|–)"
    # 'Triggers include "rubber duck this", "rubber duck review"': the label's phrases, quoted
    r"|triggers?(?:\s+(?:phrases?|words?|keywords?|terms?))?\s+(?:include|are)\s*(?::\s*)?[\"“']"
    # "Trigger with: 'generate tests', 'define test strategy'": the same label, its phrases quoted
    r"|trigger(?:ed|s)?\s+(?:with|on|by)\s*:\s*[\"“'‘`]"
    # "… Symptoms: write this as a prompt I can paste, hand this to the team …": the situations, as a label
    r"|" + _START + r"symptoms?\s*:"
    # '… authoring prose. Examples: "check my idioms", "is this proverb used correctly?"': requests a user says, quoted
    # (one in the first person or asking: not 'Examples: "2024-01-01", "Jan 1"', data the skill formats)
    r"|" + _START + r"(?:examples?|e\.g\.)\s*:?\s*[\"“'][^\"“”'\n]{0,60}?\b(?:my|me|i|help|can\s+you|could\s+you"
    r"|please)\b[^\"“”'\n]{0,60}[\"”']"
    # "WHAT: Keep edits narrow. WHEN: Any modification to an existing file. DO-NOT: …", "When to use: …": the
    # situations, as a label at a sentence's start
    r"|" + _START + r"when(?:\s+to\s+use(?:\s+(?:this(?:\s+skill)?|it))?)?\s*:\s*[\w\"“']"  # (`WHEN: "setup AI Runway"`)
    # "[WHAT] … [WHEN] Managing agents/fleets, remote launch … [HOW] …": the same label in brackets
    r"|(?:(?<=^\[)|(?<=[.;!?]\s\[)|(?<=[。！？；]\[))when(?:\s+to\s+use)?\]\s*:?\s*\w"
    # 'Use "addy-idea-refine" or "ideate" to trigger.': the phrases that load it
    r"|use\s+[\"“'`][^\"“”'`\n]{1,40}[\"”'`](?:\s*(?:,|or|and|/)\s*[\"“'`][^\"“”'`\n]{1,40}[\"”'`]){0,8}"
    r"\s+to\s+(?:trigger|invoke|activate|load|call)\b"
    # "Use this once the migration is merged"; "Required reading when …"; "ALWAYS read and follow this skill
    # before …"; "… when they request a review" (they: the users)
    r"|use\s+(?:this(?:\s+skill)?|it)\s+once\s+(?:the|a|an|you|your|all|every)\b"
    # "Use it the moment you are about to edit …", "Load it as soon as DB work appears" (not "Use the moment
    # library", not "Run it as soon as possible")
    # ("INVOKE this skill (and call `brain_feedback`) the moment the user …": an aside in brackets between)
    r"|(?:use|load|invoke|run|read)\s+(?:this(?:\s+skill)?|it)\s+(?:\([^()\n]{0,80}\)\s+)?(?:the\s+moment|as\s+soon\s+as)"
    r"\s+(?!possible\b)\w"
    r"|(?:required|mandatory)\s+reading\s+(?:when|whenever|before|for|if)\b"
    r"|(?:read|load|consult)\s+and\s+follow\s+(?:this(?:\s+skill)?|it)\s+(?:when|whenever|before|after|during|if)\b"
    r"|when(?:ever)?\s+(?:they|you)\s+(?:ask|request|want|need)s?\s+(?:for\s+|to\s+|an?\s+|the\s+|or\s+)\w"
    r"|when(?:ever)?\s+(?:the\s+|an?\s+)?user(?:s)?\s+(?:explicitly\s+|specifically\s+|directly\s+)?(?:asks?|wants?|needs?|mentions?|requests?|says?|types?|reports?|describes?"
    r"|provides?|shares?|pastes?|gives?)\b"
    # "… when the owner says \"daily\"": another requester, with a verb of speech only (not "when the owner pushes")
    r"|when(?:ever)?\s+(?:the\s+)?(?:owner|operator|maintainer|developer|human|person)s?\s+(?:says?|asks?|types?"
    r"|requests?|mentions?)\b"
    # "usable manually when Sandeep says 'run /debug'": the one person it serves, named, with a verb of speech
    r"|when(?:ever)?\s+(?-i:[A-Z][a-z]{1,20})\s+(?-i:says|asks|types|requests|mentions)\b"
    # "… when user discusses applying to positions": any verb the user does ("when user sessions expire" is a
    # situation too: at worst a missed WEAK_TRIGGER)
    r"|when(?:ever)?\s+(?:the\s+)?user\s+[a-z]{2,}s\b"
    # "When Claude needs to work with presentations (.pptx files) for: …": the agent's own need, as "when you need to"
    r"|when(?:ever)?\s+(?:claude|(?:the|an?|your)\s+(?:agent|model|assistant)|codex|the\s+ai)\s+(?:needs?|wants?|has)\s+to\b"
    # "Always loaded first", "Loaded first in every session": an entry skill its installer loads before any other
    # (not "The config must be loaded first": what is loaded must be the skill)
    r"|\balways\s+loaded\b|(?:^|(?<=[.;!?—–]\s)|(?<=[。！？；]))loaded\s+first\b"
    r"|\b(?:this(?:\s+skill)?|it)\s+is\s+(?:always\s+)?loaded\s+first\b"
    # "Use from /e when finishing a task", "Use via the CLI when …": where it is used from, then when
    r"|use[ds]?\s+(?:from|via|through)\s+[^.;!?\n]{1,60}?\b(?:when|whenever|before|after|if)\b"
    # the same keyword trigger said of the text: "When a prompt / the request contains | mentions X"
    r"|when(?:ever)?\s+(?:a|an|the|any)\s+(?:user\s+)?(?:prompts?|messages?|requests?|inputs?|quer(?:y|ies)|questions?"
    r"|tasks?|conversations?|chats?)"
    r"\s+(?:contains?|includes?|mentions?|says?|asks?|references?|matches|uses?|involves?)\b"  # ("when the task involves …")
    # Spanish: "Úsala / Úsalo / Usa / Usar cuando | para | si | antes | siempre que …"
    r"|[úu]sa(?:la|lo|r)?\s+(?:esta\s+skill\s+|este\s+skill\s+)?(?:cuando|para|si|antes|siempre\s+que)\b"
    # Portuguese: "Use quando …", "Use também quando pedirem …", "Usar esta skill para …"
    r"|us[ea]r?\s+(?:esta\s+skill\s+|este\s+skill\s+)?(?:tamb[ée]m\s+)?(?:quando|sempre\s+que)\b"
    # Vietnamese: "Dùng khi …" / "Sử dụng khi …"; Russian: "Используй при словах …", "Применяйте когда …"
    r"|(?:d[ùu]ng|s[ửu]\s+d[ụu]ng)\s+(?:skill\s+n[àa]y\s+)?khi\b"
    # Hungarian: "Használd amikor …", "Használja, ha …"
    r"|haszn[áa]l(?:d|ja)(?:\s+ezt)?,?\s+(?:amikor|ha)\b"
    # Polish: "Używaj, gdy …", "Użyj, kiedy …"
    r"|u[żz]y(?:waj|j)(?:cie)?,?\s+(?:gdy|kiedy|je[śs]li|przy)\b"
    r"|(?:используй(?:те)?|применяй(?:те)?)\s+(?:при|когда|если)\b"
    # "Run after all readers, before the interview …" at the start of a sentence (not "Runs tests after …")
    # ("…; also run when the owner says …": "also" before it)
    r"|" + _START + r"(?:also\s+)?run\s+(?:this\s+(?:skill\s+)?|it\s+)?(?:first\s+|only\s+|right\s+|just\s+|immediately\s+)?"
    r"(?:after|before|when|whenever)\b"
    # "Runs weekly as a scheduled check via reflect-scheduled-checks": a schedule is when it is loaded (not "Runs
    # every linter", "Runs tests after …")
    r"|" + _START + r"(?:runs?|invoked|triggered|loaded)\s+(?:daily|weekly|nightly|hourly|monthly|every\s+"
    r"(?:day|week|night|hour|month|morning|evening|\d{1,3}\s+(?:minutes?|hours?|days?)))\b"
    # "Loaded after a draft is ready, before it is sent.": at a sentence's start, when the skill is loaded
    # ("Pre-loaded when serving via Feishu adapter": the adapter loads it up front in that case)
    r"|" + _START + r"(?:pre-?)?loaded\s+(?:only\s+)?(?:after|before|when|whenever)\b"
    r")"
    # Chinese / Japanese: "…時使用 / 时使用" (use when …), "當使用者 / 当用户 …" (when the user …),
    # "…時に使用 / 場合に使う" — no \b: CJK text has no word boundary between characters.
    r"|(?:時|时)(?:使用|调用|調用|觸發|触发)"
    r"|(?:當|当)(?:使用者|用戶|用户)"
    r"|(?:時|とき|場合)に(?:使用|使う|呼び出)"
    # Chinese labels: "使用场景：(1) …" (usage scenarios), "适用场景：", "触发短语：/ 触发词：" (trigger phrases)
    r"|(?:使用|适用|適用)(?:场景|場景)\s*[：:]"
    r"|(?:触发|觸發)(?:短语|短語|词|詞|条件|條件)\s*[：:]"
    # Korean: "…할 때 사용 / 쓴다", "…경우에 사용", "…같은 말에 쓴다" (use it when …, for phrases like …)
    r"|(?:때|시|경우에?|말에|요청에)\s*(?:사용|쓴다|쓰세요|쓰십시오|쓰인다|호출|트리거)",
    re.I,
)
# Weaker usage contexts: a clause that says in which situation, or for what purpose, the skill applies,
# without an explicit "Use when …". Decided by the clause's shape, never by the spelling of the word that
# follows (a word ending in "-ing" is not special: "for testing web apps" and "for web-app tests" are the
# same shape):
#   situation: when/whenever/while/during/if the user … + a word (not the fillers "when needed / necessary /
#              required / possible / appropriate / applicable / quiet / idle / allowed / permitted"); the same in
#              Japanese, Chinese, Korean;
#   purpose:   "for" + a word (not the fillers "for example/instance/more/details/reference/now", nor "except for", nor a
#              beneficiary: "for the user / all users / you / me / them / us / everyone" names who, not what for,
#              nor a reflexive: "the code speaks for itself", "see for yourself");
#              "in order to"; "(used|designed|built|meant|helps|lets|allows|enables, or -ing: helping …)
#              [you|users|claude|agents] to" + a word;
#              a tool noun + "to" + a word ("Toolkit to test web apps" = "Toolkit for testing web apps").
# 時 / 时 after these is not "when": 同時 (at once), 常時, 随時 (always, any time), 当時 (then), 一時, 臨時, 暂时
# (for now), 瞬時, 即時, 及时 (instantly), 日時 (date), 定時, 毎時, 小时 (hour), 何時, 実時 / 实时 (real time),
# 超时 (timeout), 按时, 准时 (on time), 过时 (outdated), 耗时, 费时 (time-consuming).
_NOT_WHEN = "[同常当當随隨臨临一瞬即及日定毎何小実實实超按准暂過过耗费]"
_CONTEXT = rx.compile(
    # (not the fillers "when needed", "when necessary", "when quiet": no situation is named)
    r"\b(?:when(?:ever)?\s+(?!(?:needed|necessary|required|possible|appropriate|applicable|quiet|idle|allowed"
    r"|permitted)\b)\w"
    r"|while\s+\w|during\s+\w"
    r"|if\s+(?:the\s+)?(?:user|you|someone|claude|an?\s+agent)s?\b"
    # "Run as part of /build-validate or standalone": the step it runs in
    r"|as\s+part\s+of\s+(?:the\s+|a\s+|an\s+|your\s+)?[`/\w]"
    # "… the Telegram channel so you can chat with the agent on Telegram": what it is for (as "lets you …")
    r"|so\s+(?:that\s+)?(?:you|users?|the\s+user|claude|the\s+agent)\s+can\s+\w"
    # (not the "for" of "ask for", "look for", "search for", "wait for": what is asked for, not a purpose)
    r"|(?<!\bask\s)(?<!\basks\s)(?<!\basked\s)(?<!\blook\s)(?<!\blooks\s)(?<!\bsearch\s)(?<!\bsearches\s)"
    r"(?<!\bwait\s)(?<!\bwaits\s)(?<!\bexcept\s)"  # ("except for …": an exception, not a purpose)
    r"(?<!\bscan\s)(?<!\bscans\s)(?<!\bcheck\s)(?<!\bchecks\s)(?<!\bhunt\s)(?<!\bhunts\s)"  # ("scan for …")
    r"(?<!\bwaiting\s)(?<!\bwaited\s)(?<!\basking\s)(?<!\blooking\s)(?<!\blooked\s)(?<!\bsearching\s)"
    r"(?<!\bsearched\s)(?<!\bscanning\s)(?<!\bscanned\s)(?<!\bchecking\s)(?<!\bhunting\s)"  # ("waiting for")
    # (a quoted request after it too: 'for “transcribe this video”')
    r"for\s+[“\"‘]?(?!(?:example|instance|more|details?|reference|now|(?:(?:the|all|any|other|your|our|their)\s+)?users?|you|me|them|us|everyone|anyone"
    r"|llms?|(?:ai\s+)?agents?|(?:ai\s+)?assistants?|developers?"  # ("Plugin for LLMs": who it is for)
    r"|itself|themselves|yourself|yourselves|himself|herself|ourselves|myself|oneself"
    # ("… ranked by what they would do for the player, then …": who gains, the clause ending there)
    r"|(?:the|a|an|each|every|our|your|their)\s+(?:players?|readers?|customers?|clients?|audiences?|viewers?"
    r"|learners?|students?|visitors?|end[-\s]users?)(?=\s*(?:[.,;:!?)]|$))"
    r")\b(?!['’]))\w"
    r"|in\s+order\s+to\b"
    r"|(?:used|designed|built|meant|help(?:s|ing)?|let(?:s|ting)?|allow(?:s|ing)?|enabl(?:es?|ing))\s+"
    r"(?:you\s+|users?\s+|claude\s+|agents?\s+)?to\s+\w"
    r"|" + _START + r"given\s+\w"  # "Given a regulatory change — identify …": the situation it is for
    # "… runs once after the epic PR merges", "After a release, …", "… before implementing a complex feature",
    # "Runs tests after each edit": a moment in the workflow, anywhere (like "during" and "while")
    # (not a product's name mid-sentence: "Controls Adobe After Effects layers", capitalised words)
    # (the word after it checked first: at most a lookbehind more, at an "after" / "before" only)
    r"|(?:after|before)\s+(?:(?-i:[^\WA-Z])|[/`]|(?:(?<=(?-i:after|AFTER)\s)|(?<=(?-i:before|BEFORE)\s)|(?<=^After\s)|(?<=^Before\s)"
    r"|(?<=[.;!?]\sAfter\s)|(?<=[.;!?]\sBefore\s))\w)"
    # "… impact on every PR before merge": the occasion it runs on
    r"|on\s+(?:every|each)\s+\w"
    # "Probes environment health at session start", "… at the start of each task": the moment it runs
    r"|at\s+(?:the\s+)?(?:start|end|beginning|close)\s+of\s+\w|at\s+(?:session|task|conversation|turn)\s+(?:start|end)\b"
    # Portuguese / Spanish purpose: "para auxiliar …"
    r"|para\s+\w"
    r"|(?:toolkit|toolset|tools?|utilit(?:y|ies)|helpers?|scripts?|workflows?|methodology|methods?|framework"
    r"|guidance|playbook|procedures?|templates?)\s+to\s+\w"
    r")"
    # Japanese situation: "…場合の / 場合に / 場合は", "…とき / ときに", "…時に / 時の" (not 同時に "at the same
    # time", 常時 "always", 当時 "then"), "…際に / 際の" (not 実際に "actually", 国際 "international");
    # Chinese: "…的时候 / 的時候", "(当)…时的 / 时，"; Korean: "…할 때 / 때에 / 때의" (not 때문 "because", 때때로
    # "sometimes"), "…경우에 / 경우의".
    # No \b: CJK text has no word boundary between characters.
    r"|場合(?:の|に|は|、|,|で)|とき(?:の|に|は|、|,)|(?<!" + _NOT_WHEN + r")時(?:に|の|は|、)"
    r"|(?<![実國国交])際(?:に|の|は|、)"
    r"|的(?:时候|時候)|(?<!" + _NOT_WHEN + r")[时時](?:的|，|,)"
    r"|\S\s때(?![문때])|경우(?:에|의|는|,|\s)"
    r"|[을를]\s*위(?:한|해)",  # Korean purpose: "…을 위한 도구" (a tool for …), "…를 위해"
    re.I,
)
# A negation earlier in the same sentence ("Do NOT use for X, Y, or Z for checkout") cancels a phrase.
_NEGATION = rx.compile(r"\b(?:do\s+not|don['’]t|never|not|does\s+not|doesn['’]t|avoid|skip|n[ãa]o|không|не)\b", re.I)


def _last_boundary(text: str, lo: int, hi: int) -> int:
    """The offset just after the last sentence break ('.', ';', '!', '?' + space, or a newline; '.', '!', '?'
    also with a closing quote or bracket before the space: "… ask 'what happened?' Use when …") in
    text[lo:hi], or -1."""
    best = -1
    for sep in (". ", "; ", "! ", "? ", "\n"):
        i = text.rfind(sep, lo, hi)
        if i >= 0:
            best = max(best, i + len(sep))
    for sep in _CLOSERS:
        start = max(lo + 1, best)  # (a break only counts after the best so far)
        i = text.rfind(sep, start, hi)
        while i >= start and text[i - 1] not in ".!?":
            i = text.rfind(sep, start, i)
        if i >= start:
            best = i + len(sep)
    return best


_CLOSERS = ("' ", '" ', "’ ", "” ", ") ")


PAREN_REACH = 200  # how far a negation's enclosing parentheses are looked for (bounded: linear)


def _in_closed_parens(text: str, n: re.Match, stop: int) -> bool:
    """The negation sits in a parenthetical that closes before `stop` ("(never the whole screen), for the
    parts of a demo video"): it negates only what is inside."""
    op = text.rfind("(", max(0, n.start() - PAREN_REACH), n.start())
    if op < 0 or text.find(")", op, n.start()) >= 0:
        return False
    return text.find(")", n.end(), min(stop, n.end() + PAREN_REACH)) >= 0


def _positive(pattern: re.Pattern, text: str, skip=None) -> re.Match | None:
    """The first match not cancelled by a negation earlier in its sentence (nor one `skip(text, match, sentence
    start)` rules out). Linear: the sentence start and whether the sentence is negated so far are carried from match
    to match, so each stretch of text is searched once."""
    start = scanned = 0
    negated = False
    for m in pattern.finditer(text):
        b = _last_boundary(text, max(0, scanned - 2), m.start())  # (a break may start just before: `?' `)
        if b >= 0:  # a new sentence: nothing in it searched yet
            start, negated = b, False
        lo = max(start, scanned - 12)  # re-read a little: a negation may straddle the last stop
        if not negated:
            for n in _NEGATION.finditer(text, lo, m.start()):
                if not _in_closed_parens(text, n, m.start()):
                    negated = True
                    break
        scanned = m.start()
        if not negated and (skip is None or not skip(text, m, start)):
            return m
    return None


# Is a description written in English? The trigger rules read English phrasing ("Use when …"); in any other
# language the cues are open-ended (each language and each package phrases them its own way), so a
# description in another language gets no trigger finding rather than a guess. Decided by script (a
# quarter of the letters outside Latin: CJK, Hangul, Cyrillic, …; a tenth accented: Vietnamese) and by a
# vote of function words (more, and at least two, of Portuguese / Spanish / French / German / Italian /
# Dutch / Indonesian / Turkish / Polish / Swedish / Vietnamese / Hungarian than of English; or one, none of English, and accented
# letters: "Verwaltet WordPress-Beiträge … und verwalten."). Words both languages use ("in", "a",
# "use", "per", "mit" = MIT) are in neither list.
# the words are found by splitting at blanks and punctuation (C passes, several times faster than a word
# pattern: this runs for every description)
_PUNCT = "!\"#$%&()*+,./:;<=>?@[\\]^_`{|}~0123456789«»“”‘’—–…·•、，。：；！？（）"
_ASCII_PUNCT = bytes(c for c in _PUNCT.encode() if c < 0x80)
_ASCII_PUNCT_TO_SPACE = bytes.maketrans(_ASCII_PUNCT, b" " * len(_ASCII_PUNCT))


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ENGLISH_WORDS = _words(
    "the a an and or of to for with when whenever this that these those is are be from by it its your you any all "
    "into using user users skill if before after while during about how what which should can will not")
_OTHER_WORDS = _words(
    "de da dos das que para com um uma os em na nas nos ao aos se por mais quando como sobre seu sua este esta isso "
    "não ou pelo pela usar usa úsala úsalo el la los las y en del con una cuando es lo al su sus también ser "
    "le les des et du une avec dans est sur aux ce cette qui lorsque quand vous votre utiliser "
    "der das und für von zu ist den dem ein eine einen wenn auf nicht oder bei wird verwenden verwende nutze "
    "benutze sie fuer ueber "  # (German written without umlauts: "Skill fuer OT-Sicherheitsbeauftragte und …")
    "il di che gli della delle dei nel nella utilizza questo questa "
    "het een van voor wanneer gebruik deze "
    "yang dan untuk dengan ini itu saat ketika gunakan atau dari "
    "ve bir için ile bu się jest dla oraz att och för som när "
    "gdy lub nie jak przez przy jako że może kiedy także używaj użyj "
    "khi cho va cua cac mot nhung duoc trong voi nay dung khong hoac muon viec nguoi "  # (Vietnamese unaccented)
    # (Vietnamese accented: identifiers such as crm_id can keep its accented letters under a tenth)
    "để chỉ dùng của và các một những được với này không hoặc muốn việc người tạo tự bằng từ theo "
    # Hungarian
    "és az amikor használd használja hogy nem vagy egy van ha csak után előtt minden ezt szerint való által akkor "
    # Uzbek (Latin script, no accents: "… regressiya tekshiruvi kerak bo'lganda ishlating")
    "uchun bilan yoki kerak bo'lganda qachon ishlating foydalaning qilish ishga emas agar")
ACCENTED_LETTERS = 3  # accented Latin letters that, with fewer than two English function words, are another language
OTHER_SCRIPT_LETTERS = 6  # letters of another script that, with fewer than two English function words, are that language
ENGLISH_SCAN = 1000  # characters of a description looked at: enough to tell the language, and bounded


_NON_ASCII = rx.compile(r"[^\x00-\x7f]")
_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))


@functools.lru_cache(maxsize=256)  # MISSING_TRIGGER and WEAK_TRIGGER ask about the same description
def english(text: str) -> bool:
    """The description reads as English (see above); True when it has no letters to tell by."""
    text = text[:ENGLISH_SCAN]
    other_script = accented = 0
    if not text.isascii():
        raw = text.encode("ascii", "ignore")
        letters = len(raw) - len(raw.translate(None, _ASCII_LETTERS))
        for ch in _NON_ASCII.findall(text):
            if ch.isalpha():
                letters += 1
                o = ord(ch)
                if o <= 0x24F or 0x1E00 <= o <= 0x1EFF:
                    accented += 1
                else:
                    other_script += 1
        if other_script * 4 >= letters > 0 or accented * 10 >= letters > 0:
            return False
    lower = text.lower()
    if text.isascii():
        words = lower.encode().translate(_ASCII_PUNCT_TO_SPACE).decode().split()
    else:
        words = [w.strip(_PUNCT) for w in lower.split()]
    theirs = sum(map(_OTHER_WORDS.__contains__, words))  # (counted in C: this runs for every description)
    if " i " in text:  # a lower-case "i" between words: "and" in Polish, Czech, Croatian… (English writes "I"):
        theirs += 2 * text.count(" i ")  # "Generuje i uruchamia migracje Drizzle ORM"
    # English function words, counted once and only when a test below reads them (most descriptions: none does)
    ours = sum(map(_ENGLISH_WORDS.__contains__, words)) if (
        theirs or other_script >= OTHER_SCRIPT_LETTERS or accented >= ACCENTED_LETTERS) else 0
    if other_script >= OTHER_SCRIPT_LETTERS and ours < 2:
        return False  # "Google Analytics (GA4) 및 Search Console 데이터 조회 시 사용": Korean around product names
    if accented >= ACCENTED_LETTERS and ours < 2:
        return False  # accented letters and next to no English function word: a language the lists do not hold
    if not theirs:
        return True
    # one function word of another language, none of English, and accented letters ("Verwaltet WordPress-Beiträge
    # … löschen und verwalten."): not English either
    return ours > 0 or not accented if theirs < 2 else theirs <= ours


# characters of a description read for its trigger clause: the spec allows 1,024 (DESCRIPTION_TOO_LONG beyond) and no
# router reads more than a few thousand; the two patterns cost ~2 µs a character (a 1 MB description took 3.3 s)
TRIGGER_TEXT_CHARS = 8_192


@functools.lru_cache(maxsize=256)  # the static score and two rules ask about the same description
def explicit_trigger(text: str) -> re.Match | None:
    """An explicit, non-negated trigger clause ("Use when…", "This skill should be used when…") in the first
    TRIGGER_TEXT_CHARS characters."""
    return _positive(_EXPLICIT, text[:TRIGGER_TEXT_CHARS])


@functools.lru_cache(maxsize=256)
def usage_context(text: str) -> re.Match | None:
    """An explicit trigger or a weaker usage context ("when building…", "for testing…")."""
    return explicit_trigger(text) or _positive(_CONTEXT, text[:TRIGGER_TEXT_CHARS], _not_a_purpose)


# a sentence opening with a search verb and its object: "Search the ChEBI ontology (EBI) for chemical entities",
# "Scans analytical outputs for privacy risks" (the "for" names what is sought; not "Search tool for …", a noun)
_SEARCH_OBJECT = rx.compile(r"[\s\"'(“]*(?:(?:search(?:es)?|scans?|quer(?:y|ies)|hunts?|greps?|crawls?|mines?|browses?)\s+"
                            r"(?:the|a|an|your|our|its|their|all|any|every|over|across|through|within|inside)\s"
                            # "Scans analytical outputs and communications for privacy risks": the verb's -s form
                            # takes any object (not "Search tool for …", a noun)
                            r"|(?:searches|scans|queries|hunts|greps|crawls|mines|browses)\s+(?!for\b)\w)",
                            re.I)
# a sentence opening "For …" that sends that case elsewhere: "For single-memory deletion use /mem-delete."
_SENDS_ELSEWHERE = lazy_compile(r"[^.;!?\n]{0,200}?\b(?:use|run|see|try)\s+[`/]", re.I)


def _not_a_purpose(text: str, m: re.Match, start: int) -> bool:
    """A "for" that states no purpose of the skill: what a search looks for (_SEARCH_OBJECT at its sentence's start),
    or the case a sentence opening "For …" sends to another command (_SENDS_ELSEWHERE)."""
    if m.group(0)[:3].lower() != "for":
        return False
    before = text[start:m.start()]
    if not before.strip(" \t\"'(“"):
        return _SENDS_ELSEWHERE.match(text, m.end()) is not None
    return _SEARCH_OBJECT.match(before) is not None


def yaml_quote(value: str) -> str:
    """A double-quoted YAML scalar for `value` (JSON strings are valid YAML double-quoted scalars)."""
    return json.dumps(value, ensure_ascii=False)


def keeps_most(slug: str, text: str) -> bool:
    """The slug keeps most of the text's letters and digits (`code-review` of `Code Review`; not `3` of
    `3層モデルルーティング`, nor `skill` of `古法作业.skill`)."""
    return 2 * len(slug.replace("-", "")) >= sum(c.isalnum() for c in text)


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return re.sub(r"-{2,}", "-", text)[:64].strip("-")


# where a word starts inside a CamelCase name: after a lower-case letter or digit, or at the last capital of a run of
# capitals (`HTMLParser` → `HTML`, `Parser`)
_WORD_START = rx.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z]{2})(?=[A-Z][a-z])")


def kebab_words(name: str) -> str:
    """`api-fetcher` for `ApiFetcher`, `user-invocable` for `userInvocable`, `html-parser` for `HTMLParser`."""
    return _WORD_START.sub("-", name).lower()


def github_slug(heading: str) -> str:
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def frontmatter_insert_point(doc: SkillDocument) -> Pos:
    """Where a new key goes: the start of the line after the opening `---`."""
    return Pos(doc.frontmatter.open_line + 1, 0)


# a fill-in field: `[Client name]`, `[Project name]` (not a `[ ]` / `[x]` checkbox, a link or a footnote),
# or `{APP_NAME}`, `{page URL where the issue was found}`, `{标题}` (not `${VAR}`, `{{mustache}}` or JSON), or a
# `{{…}}` slot (_SLOT)
_FIELD = lazy_compile(r"\[(?![ xX]?\])[^\[\]\n]{1,80}\](?![(\[:])|(?<![${])\{[^\W\d_][^{}\n]{0,79}\}(?!\})"
                    r"|<[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+>")  # `<nom-du-projet>`, `<project_name>` (not `<details>`)
# a `{{…}}` slot of a document template: `{{BRAND_NAME}}`, `{{Project Name}}`, `{{project-name}}`, `{{What problem
# exists and for whom}}` (upper-case first, or words apart: not template code, `{{ var }}`, `{{user.name}}`)
_SLOT = lazy_compile(r"\{\{([^{}\s][^{}\n]{0,79})\}\}")


def _slots(line: str) -> int:
    return sum(1 for m in _SLOT.finditer(line) if m.group(1)[0].isupper() or " " in m.group(1) or "-" in m.group(1))
# a free-text field in angle brackets: `<Title that names the outcome>`, `<who reads the result>` (three or
# more words, no `=` or quotes: not an HTML tag with attributes, `<details open>` or `<br />`)
_FREE_FIELD = lazy_compile(r"<[A-Za-z][^<>=\"'\n]{0,160}>")
_CODE_SPAN = lazy_compile(r"`[^`\n]*`")
# a one-word field: `<N>`, `<number>`, `<file>` (not an HTML element: `<details>`, `<br>`); a date mask `YYYY-MM-DD`
_WORD_FIELD = lazy_compile(r"<([A-Za-z][A-Za-z0-9]{0,30})>|\bYYYY-MM-DD\b")
HTML_ELEMENTS = frozenset({"details", "summary", "div", "section", "article", "aside", "main", "nav", "header",
                           "footer", "p", "span", "table", "thead", "tbody", "tr", "td", "th", "ul", "ol", "li",
                           "dl", "dt", "dd", "blockquote", "pre", "code", "center", "figure", "figcaption", "picture",
                           "a", "b", "i", "u", "s", "em", "strong", "sub", "sup", "br", "hr", "img", "kbd", "small",
                           "font", "mark", "del", "ins", "abbr", "cite", "q", "var", "samp", "video", "audio", "source",
                           "html", "head", "body", "title", "script", "style", "svg", "iframe", "input", "button",
                           "form", "label", "select", "option", "textarea", "caption", "col", "colgroup", "tfoot"})
MIN_FIELDS = 3
HEADER_FIELD_LINES = 15  # lines of a template's header where one-word fields count (`# TODO #<N> — …`, `**PR:** #<number>`)


def fence_step(fence: str, line: str) -> tuple[str, bool]:
    """CommonMark fences, line by line: (the open fence's marker run, or "" outside code; whether the line is
    a fence). A block opened by ```` ```` ```` closes only at a run of at least as many of the same character
    with nothing after it: ```` ```python ```` inside a ```` ````markdown ```` example stays inside."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith(("```", "~~~")):
        return fence, False
    ch = stripped[0]
    run = len(stripped) - len(stripped.lstrip(ch))
    if not fence:
        if ch == "`" and "`" in stripped[run:]:
            return fence, False  # ``` followed by a backtick is an inline span, not a fence
        return stripped[:run], True
    if ch == fence[0] and run >= len(fence) and not stripped[run:].strip():
        return "", True
    return fence, True


LABEL_CHARS = 80  # a form field's label, at most


def _blank_label(line: str) -> bool:
    """The line is an empty form field: a list item that is a bold label ending in a colon with nothing after it
    (`- **Recommendation:**`, `* **Repo type**:`). A label with text after it is a filled-in line; a label alone
    on its line (`**What to cut:**`) leads in the list below it."""
    s = line.strip()
    if s[:2] not in ("- ", "* ", "+ "):
        return False
    s = s[2:].lstrip()
    if not s.startswith("**"):
        return False
    if not s.endswith((":**", "**:")):
        return False
    label = s[2:-3]
    return 0 < len(label) <= LABEL_CHARS and "*" not in label and label.strip() == label


def _nested_under(line: str, lines: list[str], i: int) -> bool:
    """The next line is indented deeper than `line`: items nested under a label (`- **Always:**` over
    `  - run tests`), which leads them in rather than waiting to be filled in."""
    if i + 1 >= len(lines) or not lines[i + 1].strip():
        return False
    nxt = lines[i + 1]
    return len(nxt) - len(nxt.lstrip()) > len(line) - len(line.lstrip())


def fill_in_template(rel: str, lines: list[str]) -> bool:
    """A document template (under an assets/ or templates/ folder at any depth, or a file named `*template*`, such as
    `references/design-template.md`): three or more `[placeholder]`, `{placeholder}`, `{{PLACEHOLDER}}` (`{{Project Name}}`, `{{project-name}}`; not template code, `{{ var }}`),
    `<compound-name>`, `<free text to fill in>` fields or empty bold labels of list items (`- **Recommendation:**`, nothing nested under it) outside code (one-word `<N>` / `<file>`, not an HTML element,
    and `YYYY-MM-DD` only in its first HEADER_FIELD_LINES lines: a filled-in document's header; a catalogue of
    templates, `<root>/` in its examples, is no template).

    The agent copies such a file into its output (a proposal, a report) and fills it in: it is read whole
    (a table of contents would end up in the user's document), and its relative links point into the
    output folder (`screenshots/issue-001.png`), not the skill. A catalogue of code templates (UiPath's
    `assets/vs-templates.md`, read piece by piece) has no such fields outside code and stays checked."""
    if "/assets/" not in "/" + rel and "/templates/" not in "/" + rel and "template" not in rel.rsplit("/", 1)[-1].lower():
        return False  # (at any depth: `helloagents/templates/archive/_index.md` in a skill at a wheel's root)
    fields = 0
    fence = ""
    for i, line in enumerate(lines):
        fence, is_fence = fence_step(fence, line)
        if is_fence:
            continue
        if not fence and "**" in line and _blank_label(line) and not _nested_under(line, lines, i):
            fields += 1
        if not fence and ("[" in line or "{" in line or "<" in line):
            if "`" in line:
                line = _CODE_SPAN.sub("", line)
            fields += len(_FIELD.findall(line)) + (_slots(line) if "{{" in line else 0)
            if "<" in line:
                fields += sum(1 for f in _FREE_FIELD.findall(line) if f.count(" ") >= 2 and not f.endswith("/>"))
        if i < HEADER_FIELD_LINES and not fence and ("<" in line or "YYYY" in line):
            fields += sum(1 for m in _WORD_FIELD.finditer(_CODE_SPAN.sub("", line) if "`" in line else line)
                          if m.group(1) is None or m.group(1).lower() not in HTML_ELEMENTS)
        if fields >= MIN_FIELDS:
            return True
    return False


FOLDERS_ABOVE = 6  # folders above a skill looked at when there is no workspace root


def folders_above(doc: SkillDocument) -> tuple[str, ...]:
    """The folders above the skill's own, up to the workspace root (without one, the FOLDERS_ABOVE nearest): where a
    skill is kept (`examples/`, `archived/`, `fixtures/fx-01/native-root/skills/`)."""
    if doc.skill_dir is None:
        return ()
    if doc.workspace_root is not None and doc.skill_dir.is_relative_to(doc.workspace_root):
        return doc.skill_dir.relative_to(doc.workspace_root).parts[:-1]
    return doc.skill_dir.parts[-FOLDERS_ABOVE - 1:-1]


# folders that keep retired skills (`archived/user-skills/<skill>/`, `.archive/`, `deprecated/`, `.claude-archive/`)
_ARCHIVE_DIRS = frozenset({"archive", "archived", "archives", "deprecated", "retired", "attic", "graveyard"})


def archived(doc: SkillDocument) -> bool:
    """A folder above the skill, below the workspace root, is an archive: `archived/`, `_archive/`, `.deprecated/`,
    or a name that starts or ends with such a word (`.claude-archive/2026-05-21/.claude/skills/`, `archive-2024/`;
    not `zip-archive-tools/`)."""
    for p in folders_above(doc):
        words = p.lower().lstrip("._").replace("_", "-").split("-")
        if words[0] in _ARCHIVE_DIRS or words[-1] in _ARCHIVE_DIRS:
            return True
    return False


def opening_prose(doc: SkillDocument, count: int) -> list[ProseLine]:
    """The body's first `count` prose lines after its title (not blank, not a heading)."""
    out: list[ProseLine] = []
    for pl in doc.prose:
        text = pl.text.strip()
        if not text or text.startswith("#"):
            continue
        out.append(pl)
        if len(out) >= count:
            break
    return out
