"""MISSING_TRIGGER: the description never says when to use the skill."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

from ... import rx
from ...bundle import read_bundled
from ...document import Field, SkillDocument
from ...fields import devin_triggers
from ...findings import Finding, Fix, Severity
from ...lazy_re import lazy_compile
from ...measures import text_recorded, within
from ...package_code import (
    SIDECAR_FILES,
    TRIGGER_FILES,
    package_binds,
    package_invokes,
    package_names_file,
    package_reads,
)
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import english, explicit_trigger, placeholder_name, usage_context
from .._sample import sample_skill
from ..frontmatter.yaml_ambiguous_value import WORD_COMMENT
from ._text import append_sentence, deprecated, description, not_routed, own_name_as_this_skill
from .empty_description import MIN_CHARS, weighted_length


def exempt(doc: SkillDocument) -> bool:
    """Skills the model never routes to by description alone: slash-only, path-triggered, with a
    non-empty `when_to_use` (Claude Code appends it to the description in the skill listing: it is the
    trigger clause, kept in its own field; a runtime's own layout keeps it in `use_when` / `applies_to`),
    deprecated (reached by name only), or said not to be routed to on their own (another skill loads them;
    `allow_implicit_invocation: false`). Memoised per document."""
    memo = doc._resolved  # the document's memo (tuple keys never meet resolve()'s string keys)
    key = ("trigger_exempt",)
    if key not in memo:
        memo[key] = _exempt(doc)
    return memo[key]


def _exempt(doc: SkillDocument) -> bool:
    data = doc.frontmatter.data
    if data.get("disable-model-invocation") is True or deprecated(doc) or not_routed(doc):
        return True
    if _has_text(data.get("when_to_use")):
        return True
    paths = data.get("paths")
    if isinstance(paths, str) and paths.strip():
        return True
    if isinstance(paths, list) and any(isinstance(p, str) and p.strip() for p in paths):
        return True
    if _own_layout_trigger(data):
        return True
    if any(doc.files.exists(f) and package_names_file(doc, f) for f in TRIGGER_FILES):
        return True  # `triggers.yaml` beside SKILL.md, which the package's own router reads
    if any(package_reads(doc, k) for k in _trigger_lists(data)):
        return True
    if any(isinstance(data.get(k), list) and data[k] and package_reads(doc, k) for k in EVENT_KEYS):
        return True  # `events: [lunch.upcoming]`, read by the package: its runtime dispatches the skill on the event
    if data.get("always") is True and package_reads(doc, "always"):
        return True  # nanobot's `always: true`, read by the package: the body is in every prompt, never chosen
    return _sidecar_triggers(doc) or _activation_rules(doc) or _warden_runs(doc)


WARDEN_CONFIG = "warden.toml"  # Sentry Warden's configuration, at the repository root above `.warden/skills/`
WARDEN_BYTES = 200_000


def _warden_runs(doc: SkillDocument) -> bool:
    """The skill sits in `.warden/skills/<folder>/` and the `warden.toml` beside `.warden/` runs it: a `[[skills]]`
    entry whose `name` is the skill's name, its folder or a path ending in that folder
    (`name = "./.warden/skills/migration-safety"`) with `paths` or `triggers`. Sentry Warden starts it on those files
    and events (a pull request, a local run), never by reading its description."""
    sd = doc.skill_dir
    if sd is None or sd.parent.name != "skills" or sd.parent.parent.name != ".warden":
        return False
    root = sd.parent.parent.parent
    if doc.workspace_root is not None and not within(doc, root, doc.workspace_root):
        return False
    text = text_recorded(doc, os.path.join(os.fspath(root), WARDEN_CONFIG))
    if not text or "[[skills]]" not in text or len(text) > WARDEN_BYTES:
        return False
    import tomllib  # (only for a skill in `.warden/skills/`)

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    own = {sd.name, doc.frontmatter.data.get("name") if doc.frontmatter.ok else None}
    for entry in data.get("skills") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        if entry["name"].rstrip("/").rsplit("/", 1)[-1] in own and (entry.get("paths") or entry.get("triggers")):
            return True
    return False


# the events a runtime dispatches the skill on (tend's `events: [lunch.upcoming]`), when the package reads the key
EVENT_KEYS = ("events", "subscribes", "subscriptions", "on_events")


SKILL_RULES = "skill-rules.json"  # an activation hook's keyword table in the skills folder (`.claude/skills/`)


def _activation_rules(doc: SkillDocument) -> bool:
    """The skills folder's `skill-rules.json` gives the skill prompt triggers (`"skills": {"<name>": {"promptTriggers":
    {"keywords": […], "intentPatterns": […]}}}`): a UserPromptSubmit hook matches each prompt against them and
    suggests the skill, so the keywords, not the description, route it."""
    if doc.skill_dir is None:
        return False
    text = text_recorded(doc, os.path.join(os.fspath(doc.skill_dir.parent), SKILL_RULES))
    if '"promptTriggers"' not in text:
        return False
    try:
        data = json.loads(text)
    except ValueError:
        return False
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, dict):
        return False
    name = doc.frontmatter.data.get("name")
    entry = skills.get(name) if isinstance(name, str) else None
    if not isinstance(entry, dict):
        entry = skills.get(doc.skill_dir.name)
    triggers = entry.get("promptTriggers") if isinstance(entry, dict) else None
    return isinstance(triggers, dict) and any(
        isinstance(triggers.get(k), list) and any(isinstance(x, str) and x.strip() for x in triggers[k])
        for k in ("keywords", "intentPatterns"))


def _sidecar_triggers(doc: SkillDocument) -> bool:
    """A JSON sidecar beside SKILL.md (`skill.json`) holds a trigger list (`"triggers": ["performance", …]`) that the
    package's code reads from that file: its catalog loads the skill when a keyword appears (agent47)."""
    for f in SIDECAR_FILES:
        if not f.endswith(".json") or not doc.files.exists(f) or not package_names_file(doc, f):
            continue
        bf = read_bundled(doc, f)
        try:
            data = json.loads(bf.text) if bf is not None and len(bf.text) <= SIDECAR_CHARS else None
        except ValueError:
            continue
        if isinstance(data, dict) and any(package_reads(doc, k) for k in _trigger_lists(data)):
            return True
    return False


SIDECAR_CHARS = 100_000  # a larger sidecar is not parsed for its trigger list


# a runtime's own layout (`id:` / `title:` and no `name:`) keeps its trigger clause in a field of its own
_OWN_LAYOUT_TRIGGER_KEYS = ("use_when", "applies_to", "applicable_when")


def _own_layout_trigger(data: dict) -> bool:
    """A skill in a runtime's own frontmatter layout (an `id` or `title`, no `name`: Claude Code's layout
    always has `name`) that says when it applies in a field of its own (`use_when: "the user wants to fetch a
    URL"`, `applies_to: ["when generating Dockerfile content", …]`): that runtime routes on the field, and the
    description is not where the trigger is kept. A skill with `name` gets no such pass: Claude Code lists only
    `description` and `when_to_use`."""
    if "name" in data or not ("id" in data or "title" in data):
        return False
    return any(_has_text(data.get(key)) for key in _OWN_LAYOUT_TRIGGER_KEYS)


def _has_text(v: object) -> bool:
    """A non-empty text, or a list holding one."""
    return (isinstance(v, str) and bool(v.strip())) or (isinstance(v, list) and any(
        isinstance(w, str) and w.strip() for w in v))


def _trigger_lists(data: dict) -> list[str]:
    """The frontmatter's keyword-trigger keys that hold a non-empty list (`triggers: [react, useState]`), or a
    string of them, comma- or space-separated (`triggers: canvas, ui, dashboard`, `search_hint: playwright browser
    chromium`, which a package's matcher splits; not `trigger: user_request`, a mode, nor Devin CLI's
    `triggers: [user, model]`, who may invoke the skill)."""
    return [k for k in TRIGGER_KEYS if isinstance(data.get(k), list) and data[k] and not devin_triggers(data[k])
            or isinstance(data.get(k), str) and _keyword_text(data[k])]


def _keyword_text(v: str) -> bool:
    if v.count(",") >= 1:
        return "_" not in v.split(",", 1)[0]
    return len(v.split(None, KEYWORD_WORDS)) >= KEYWORD_WORDS


KEYWORD_WORDS = 3  # space-separated keywords in a trigger key's string


# a routing list of the skill's own runtime: `triggers: [react, useState]`, loaded when a keyword appears (agentkai
# matches queries against `when: places, restaurant, cafe`; mantis against `search_hint: chart, charts, plot`)
TRIGGER_KEYS = ("triggers", "trigger", "keywords", "trigger_keywords", "trigger-keywords", "activation", "when", "search_hint")
# a trigger kept in a field of its own that no agent lists (in a skill with `name`, or one whose runtime's code
# does not read it): `usage_trigger: "Use when …"`, `use_when:`
# (not `trigger: user_request`, a mode)
_TRIGGER_TEXT_KEYS = ("usage_trigger", "when-to-use", "whenToUse", "use-when", *_OWN_LAYOUT_TRIGGER_KEYS)


def unread_trigger_key(data: object) -> str | None:
    """The frontmatter key that holds the skill's trigger where no agent reads it (a non-empty `triggers` /
    `keywords` list, or a `usage_trigger` / `use_when` / `when-to-use` text), or None. Asked only once a trigger rule fires."""
    if not isinstance(data, dict):
        return None
    lists = _trigger_lists(data)
    if lists:
        return lists[0]
    return next((key for key in _TRIGGER_TEXT_KEYS if _has_text(data.get(key))), None)


def unread_trigger_note(data: object) -> str:
    """The end of both trigger rules' messages for a trigger kept where no agent reads it (unread_trigger_key):
    ' (no agent reads the `triggers` list: …)', or '' when there is none."""
    key = unread_trigger_key(data)
    if key is None or not isinstance(data, dict):
        return ""
    what = f"the `{key}` list" if isinstance(data.get(key), list) else f"`{key}`"
    return f" (no agent reads {what}: put its phrases in the description)"


PLACEHOLDER = "Use when <the situations this skill is for>."


def routed_description(doc: SkillDocument) -> tuple[Field, str] | None:
    """The description the model routes on, when trigger rules apply to it: a readable mapping, a
    skill that is not exempt, text long enough that EMPTY_DESCRIPTION does not already fire, written in
    English (the phrasing the rules read), with no explicit trigger clause (with one, neither rule fires). Memoised
    per document (both trigger rules ask)."""
    memo = doc._resolved
    key = ("routed_description",)
    if key not in memo:
        memo[key] = _routed_description(doc)
    return memo[key]


DRIVER_FILES = ("AGENT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md")  # the instructions an agent reads first
DRIVER_LEVELS = 3  # folders above the skill looked in: its skills folder and two more


def driver_routes(doc: SkillDocument) -> bool:
    """An agent's driver file above the skill (AGENT.md, AGENTS.md, CLAUDE.md or GEMINI.md in its skills folder or up
    to two folders higher, within the workspace) routes it: a table whose header says when (`| Skill | When to use |`)
    has a row for the skill's name (`| `check-in` | User wants to start their day … |`). The agent reads that table
    first and invokes the skill whose row matches; the description routes nothing. Asked only of a skill about to be
    reported (each file read is remembered for the result cache)."""
    memo = doc._resolved
    key = ("driver_routes",)
    if key not in memo:
        memo[key] = _driver_routes(doc)
    return memo[key]


def _driver_routes(doc: SkillDocument) -> bool:
    if doc.skill_dir is None:
        return False
    name = doc.frontmatter.data.get("name") if doc.frontmatter.ok else None
    names = {n for n in (name if isinstance(name, str) else None, doc.skill_dir.name) if n}
    root = doc.workspace_root
    folder = doc.skill_dir
    for _ in range(DRIVER_LEVELS):
        folder = folder.parent
        if root is not None and not within(doc, folder, root) or folder == folder.parent:
            break
        for f in DRIVER_FILES:
            text = text_recorded(doc, os.path.join(folder, f))
            if text and _routes_in_table(text, names):
                return True
            # a Hermes plugin's profile (`profile/AGENTS.md` beside `skills/`): the persona it installs, which
            # tells the agent which of the plugin's skills to load ("At the start of invoice work, load
            # `priority-erp:priority-workflows`")
            text = text_recorded(doc, os.path.join(folder, "profile", f))
            if text and (_routes_in_table(text, names) or _loads_in_prose(text, names)):
                return True
    return False


# a verb that loads a skill: "load `x`", "invoke the `x` skill", "read the `x` skill first"
_LOAD_VERB = lazy_compile(r"\b(?:load|loads|invoke|invokes|activate|read\s+the)\b", re.I)
LOAD_GAP = 300  # characters before the skill's name in which the verb stands (one list item or paragraph)
LOAD_NAMES = 20  # mentions of a name looked at (bounded)


def _loads_in_prose(text: str, names: set[str]) -> bool:
    """The skill's name in code, bare or behind a plugin's namespace (`` `x` ``, `` `plugin:x` ``), after a verb that
    loads it in the same paragraph."""
    for name in names:
        for tail in (f"`{name}`", f":{name}`"):
            at = text.find(tail)
            for _ in range(LOAD_NAMES):
                if at < 0:
                    break
                start = max(text.rfind("\n\n", 0, at), at - LOAD_GAP, 0)
                if _LOAD_VERB.search(text, start, at) is not None:
                    return True
                at = text.find(tail, at + 1)
    return False


_WHEN_HEADER = lazy_compile(r"^\|[^\n]{0,200}?\b(?:when|trigger)", re.I | re.M)


def _routes_in_table(text: str, names: set[str]) -> bool:
    """A table with a when / trigger column has a row whose first cell is one of `names`."""
    if _WHEN_HEADER.search(text) is None:
        return False
    for line in text.splitlines():
        if line.startswith("|"):
            cell = line[1:].split("|", 1)[0].strip().strip("`*_ ")
            if cell in names:
                return True
    return False


# a template skill's own description: "Template skill for … Copy this folder, rename it, and fill in …"
_COPY_ME = rx.compile(r"\bcopy\s+this\s+(?:folder|skill|directory|template)\b[^.;\n]{0,40}?\b(?:rename|fill|replace|edit)",
                      re.I)


# a scaffold's stand-in for the description, the whole of it: "A brief description of what this skill does", "Replace
# with a description of the skill and when to use it", "Describe what this skill does"
_SCAFFOLD_DESCRIPTION = rx.compile(
    r"\s*[\"'(\[]?(?:(?:a|an)\s+(?:(?:brief|short|clear|one[\s-]line)\s+)?description\s+of\s+what\s+(?:this|the|your)\s+skill\s+does"
    r"|(?:replace|update)\s+(?:this\s+)?with\s+(?:a\s+)?description\s+of\s+(?:the|this|your)\s+skill"
    r"|describe\s+what\s+(?:this|the|your)\s+skill\s+does)"
    r"(?:\s+and\s+when\s+to\s+use\s+it)?[\s.\])\"']*$", re.I)


# an aside set off by commas that says what is not meant: ", not memory,", ", not the API,"
_NOT_ASIDE = lazy_compile(r",\s+not\s+[^,.;:!?\n]{1,40},", re.I)


def _routed_description(doc: SkillDocument) -> tuple[Field, str] | None:
    fm = doc.frontmatter
    if not fm.ok or fm.root_kind != "mapping":
        return None
    fld, text = description(doc)
    if fld is None or text is None or weighted_length(text.strip()) < MIN_CHARS:
        return None  # EMPTY_DESCRIPTION / FIELD_TYPE
    if not english(text) or placeholder_name(text) or _COPY_ME.search(text[:400]) is not None \
            or _SCAFFOLD_DESCRIPTION.match(text) is not None:
        return None  # (`{{customDescription}}`: the installer writes it; "Copy this folder, rename it …": its copy does;
        # "A brief description of what this skill does": a scaffold's, still to be written)
    name = fm.get("name")
    if name is not None and isinstance(name.value, str) and placeholder_name(
            name.value, doc.lines[name.value_range.start.line]):
        return None  # a fill-in template (`name: <skill-id>`): whoever copies it writes the description
    if ", not " in text:
        text = _NOT_ASIDE.sub(",", text)  # "Use first, not memory, for …" reads "Use first, for …"
    text = own_name_as_this_skill(text, doc)
    if explicit_trigger(text) or exempt(doc):
        return None  # an explicit trigger: neither rule fires (asked first: the exemptions read more files)
    if _trigger_cut_by_comment(doc, fld):
        return None  # "… (status, #NOTES, …). Use when starting …": YAML_AMBIGUOUS_VALUE's finding; quoting restores it
    if (sample_skill(doc, text) or package_binds(doc) or package_invokes(
            doc, name.value if name is not None and isinstance(name.value, str) else
            doc.skill_dir.name if doc.skill_dir is not None else "")):
        return None  # a sample skill, or a pipeline step its package builds by folder name or invokes by name
        # (`use_skill('foreman-debug')`) (asked only when a finding could follow)
    return fld, text


def _trigger_cut_by_comment(doc: SkillDocument, fld: Field) -> bool:
    """The one-line plain description is cut by YAML at ` #word` (a comment), and the lost rest of its line holds the
    trigger clause: the author wrote one, YAML_AMBIGUOUS_VALUE reports the cut and its fix (quoting) restores it."""
    rng = fld.value_range
    if rng.start.line != rng.end.line or rng.end.line >= len(doc.lines) or "#" not in doc.lines[rng.end.line]:
        return False
    line = doc.lines[rng.end.line]
    m = WORD_COMMENT.match(line, rng.end.character)
    return m is not None and explicit_trigger(line[m.end() - 1:]) is not None


@rule("MISSING_TRIGGER", family="description", severity=Severity.WARNING, anti_pattern=True,
      fix=FixAvailability.ALWAYS)
def missing_trigger(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """The description has no trigger clause saying when the skill should be used (anti-pattern).

    ## What it does
    Decides, from the shape of `description` (its first 8,192 characters: the spec allows 1,024, and
    `DESCRIPTION_TOO_LONG` reports a longer one), which of three cases it is (the same decision
    `WEAK_TRIGGER` uses; the spelling of a word, e.g. an "-ing" ending, never matters):

    1. **Explicit trigger clause**: no finding. "Use when / whenever / any time / if / in / for / before /
       after / during / to …" (also "Use standalone / directly / independently to …", "Use together with <a skill> during …"), "Use this skill / this / it when …", "Reach for it on / for / when …", "This skill should be used
       when …", "You should / can use this skill when …", "Invoke(s) / Activates / Triggers / Loads
       (it) (automatically / explicitly / manually / first, …) when|on|for|before …" ("Invoke first, before ls or grep, for
       …"), "(explicit) invocation is useful / meant for …", "Invoked (explicitly / manually / only) as /<command> …", "Automation-only …", "must / should be loaded / used / invoked / followed / applied … for|when|before|on every …", "(you) must /
       should / always use / invoke / load / run this skill / it at / on / before / when / every …" ("YOU MUST invoke
       this skill at the start of EVERY task"), a sentence opening "Always use <anything> … for any / all / every …"
       ("Always use Seam CLI as the first retrieval layer for any codebase understanding task"), a sentence
       opening "(Pre-)loaded after / before / when …", a sentence opening "(ONLY) on explicit" and the invocations
       ("ONLY on explicit $caveman, /caveman, 'caveman mode'"; or "on explicit request"), "TRIGGER: …" /
       "Triggers: …" / "Trigger phrases: …" / "Trigger words - …" / a sentence opening "Trigger / Invoke with /<command> …" ("Invoke with /pcp.") (not "release mode (triggered by /commit
       v1.2)", one mode's command) / 'Triggers include "rubber duck this", …' (quoted
       phrases after "include" or "are") / "Trigger with: 'generate tests', …" (quoted phrases after the colon), a sentence opening "Symptoms: …" (the
       situations, listed after a label), a sentence opening 'Examples: "check my idioms", …' (requests a user says,
       quoted, one in the first person or asking: "my", "me", "I", "help", "can you", "please"; not 'Examples: "this
       year", "last month"', the data the skill handles), a sentence opening "WHEN: …" (also `WHEN: "setup AI Runway", …`), "[WHEN] …" or "When to use: …"
       (the `WHAT: … WHEN: … DO-NOT: …` and `[WHAT] … [WHEN] … [HOW] …` layouts), 'Use "idea-refine" or "ideate" to trigger' (the phrases that load it; not 'Use "npm run
       build" to compile'), a schedule at a sentence's start ("Runs weekly as a scheduled check via …", "Invoked every
       hour"; not "Runs every linter"), "Use as <a role> when …", "Use from / via <a command> when …" ("Use from /e when finishing a task"), "Use with <a named tool> to …" at a sentence's start, "Use first, before …", a sentence opening "(Also) run (it) (right / just /
       immediately) after / before / when …" (not "Runs tests after …", which says what the skill does), a sentence opening "Mandatory / required
       for / when / before / after …" ("Mandatory after batch imports.") or "Essential when …", "proactively", "when(ever) the / a user asks / wants / needs / mentions …" (or any verb: "when user discusses applying …"), "when the owner / operator / maintainer / developer says / asks / types / requests / mentions …" (a verb of speech only: "when the owner pushes a branch" is a situation; also a person named with a capital, the one the skill serves: "usable manually when Sandeep says 'run /debug'"; not "when Sandeep is away"), "when Claude / the agent / an agent / the model needs / wants to …",
       "always loaded", "Loaded first" opening a sentence or after a dash ("the entry-point skill — loaded first"), "this skill / it is loaded first" (an entry skill its
       installer loads before any other; not "The config must be loaded first"), "when a prompt /
       the request / a message / a task / the conversation contains / mentions / includes / involves …" (the same keyword trigger, said of the
       text), "Load / Read / Consult / Recall this (skill / index / guide / catalog) (first,) when / before / for / on …", a sentence opening "Reference / Consult these whenever …", "Read / Consult / Load before …",
       a sentence opening "Use / Invoke / Load / Run / Activates / Mandatory / Required (this skill) at / on / upon /
       every / always / from the first / start …" ("Use at the start of a session": not "used at Google") or "Use instead of / rather
       than / alongside / with every …" (also after "Always": "ALWAYS run this skill with every session"), or
       "Fires / Fire / Surfaces / Kicks in / Engages (only / automatically) on / for / when / if …" ("Fire on: \"research X\", …"), or
       "… at session start" / "at the start of …"
       (not "… to read if needed": a reading aid, not a trigger), "Apply (this skill / it) (by default) when /
       whenever / if …" (not "apply for"), ", to run / be used before / after / when …" after a comma or a dash ("Self-check of scope on your own diff, to
       run before declaring a task done"; not "Configures git hooks to run before each commit"), a sentence opening
       "Use / Apply / Follow <what> when <a
       situation>" ("Apply the repository's testing standard when designing or reviewing checks"; not "… when
       needed", not "Follows the house style when …", which says what the skill does; also "Use / Apply / Follow <what>
       before <doing something>": "Use the shared symbol graph before modifying a repository", not "Uses Redis
       before hitting the database"), "Apply (this style) to <contexts>" or "Applies to <contexts>" at a
       sentence's start ("Applies to tasks involving …"; not "Applies Prettier formatting to files") ("Apply to chat,
       tickets and PR bodies"), "Invoke it / this skill to …", "Run /<its own command> to …" and "Load / Read / Consult this (skill) / it to …" (as "Use it to …"; not "Load this
       data to …"), "Loaded / invoked / injected / auto-submitted
       (automatically) by <a plugin> when / before / after / on / for every / over every / at task close / at the end of …", "when <up to four words> is / are
       requested / asked for / mentioned / discussed" ("… when planning is requested", "Whenever commit or push is
       mentioned"), "Run once / first at … / in every session", "Used / Loaded / Invoked by /<command>
       as / for / to …", a sentence opening "Always load / invoke / apply (this skill / it) to …", "Invoke after …", "Invoke automatically / proactively before …", "Trigger this whenever …", "Use this once <the situation>", "Use / Load / Invoke it the moment / as soon as <the situation>" (an aside in brackets may come between), "— mandatory before …", "Required / Mandatory reading when / before …",
       "Read and follow this skill before …", "when they / you ask / request …" (also "when they request or previously authorize …"), "Use right / just after /
       before …", "Use monthly / weekly / regularly or after …", "when the user explicitly
       asks …", a description opening with its situation ("When the user …", "When there is …"),
       also after a one-word label ("WHAT — When the repo has no template …"), and the same
       clause in Spanish ("Úsala / Úsalo / Usar cuando | para …"), Portuguese ("Use (também) quando …"),
       Vietnamese ("Dùng khi …"), Hungarian ("Használd amikor …"), Russian ("Используй при / когда …"), Chinese ("…時使用 / 时使用",
       "當使用者 / 当用户 …", the labels "使用场景：" / "适用场景：" / "触发短语：" / "触发词："),
       Japanese ("…時に使用 / 場合に使う") or Korean ("…할 때 사용 / 쓴다", "…경우에 사용",
       "… 같은 말에 쓴다").
    2. **Usage context only**: `WEAK_TRIGGER`. A clause of situation ("when …", "whenever …",
       "while …", "during …", "if the user / you …", "as part of <a step>": "Run as part of /build-validate or
       standalone"; not the fillers "when needed / necessary / required /
       possible / appropriate / applicable / quiet / idle / allowed / permitted", which name no situation; in Japanese "…場合の / 場合に", "…ときの / ときに",
       "…時に / 時の", "…際に"; in Chinese "…的时候", "(当)…时的 / 时，"; in Korean "…할 때", "…경우에")
       or of purpose ("for <anything but the fillers 'for example / instance / more / details /
       reference / now', and not a beneficiary: 'for the user / all users / you / me / them / us /
       everyone' (or 'for LLMs / (AI) agents / (AI) assistants / developers': "Plugin for LLMs"; or 'for the / our / each player /
       reader / customer / client / audience / viewer / learner / student / visitor / end user' with the clause ending
       there: "ranked by what they would do for the player, then …"; "for the player stats screen" is a purpose) says for whom, not for what, and a reflexive ('speaks for itself', 'see for yourself') is an idiom; and not the "for" of "ask / look / search / wait for", which
       says what is asked for: "tells you what you will ask for next" is no purpose, nor "scan / check / hunt for" (also "waiting / asking / looking / searching / scanning / checking for"), what
       is looked for, nor the "for" of a sentence opening with a search verb and its object ("Search the ChEBI ontology
       for chemical entities", or the search verb's -s form with any object: "Scans analytical outputs for privacy
       risks": what is sought; "Search tool for papers" is a purpose), nor a sentence opening "For …" that
       sends the case to another command ("For single-memory deletion use /mem-delete"), nor "except for", an
       exception>", "in order to", "so (that) you / the user / the agent can …", "designed /
       used / built / meant / helps / lets / allows / enables (or helping / letting / allowing /
       enabling) [you / users / Claude / agents] to …",
       "Toolkit / tools / utilities / scripts / workflow / methodology / framework / guidance /
       playbook / templates to …").
    3. **Neither**: `MISSING_TRIGGER`.

    Where a cue must open a sentence, a full-width `。`, `！`, `？` or `；` (no blank after it) also ends the one
    before ("…实现的。When to use: …"). A sentence ends at ".", "!", "?" or ";" and a blank, also with a closing quote or bracket between ("… never
    have to ask 'what happened?' Use when …": the "never" is the earlier sentence's).
    A phrase after a negation in the same sentence ("Do not use when …", "Do NOT use for forms,
    tables or fields for checkout", "never for …", "skip for migrations", "NÃO use quando …", "Не используй …") counts for
    nothing; the next sentence starts afresh, and a negation inside parentheses that close before the
    phrase negates only what they hold ("(never the whole screen), for the parts of a demo video"); a
    ", not …," aside is left out ("Use first, not memory, for exact keyword names" reads "Use first, for …").
    A sentence opening "Given <a situation>", and "after / before <a moment>" (a word, a `/command` or a
    `` `name` ``: "after /qor-substantiate seals a session") or "at (the) start / end of <…>",
    "at session start" anywhere ("… before implementing a complex feature", "Runs the tests after each edit",
    "Probes environment health at session start") are a usage context, and so are the purpose clauses "para …" (Portuguese, Spanish) and "…을 / 를 위한" (Korean).

    Not reported either: a one-line plain description that YAML cuts at ` #word` (a comment: "Runs pre-checks
    (status, #NOTES, …). Use when starting a task.") when the lost rest of its line holds the trigger clause:
    `YAML_AMBIGUOUS_VALUE` reports the cut, and its fix (quoting the value) brings the trigger back.

    Exempt, because the model does not route to them by the description's wording alone: skills with
    `disable-model-invocation: true`, `paths:` (a string or a list) or a non-empty `when_to_use` (Claude
    Code appends it to the description: the trigger clause in its own field), skills in a runtime's own
    frontmatter layout (an `id` or `title`, no `name`) with a non-empty `use_when`, `applies_to` or
    `applicable_when` (that runtime's trigger field; a skill with `name` gets no such pass, since Claude Code
    lists only `description` and `when_to_use`), and deprecated skills, whose
    description opens by saying so ("Deprecated — forwards to x", "DEPRECATED: use x", "[Deprecated] …",
    "This skill is deprecated …", "Obsolete / Superseded by …", "Forwards to x", "Compatibility alias / Legacy shim …", or a short name followed
    by "deprecated shim / alias / wrapper / stub / redirect / skill" and nothing more in that clause: "Ecomode
    deprecated shim"): a shim kept so old
    invocations by name keep working should not attract the router, and a "Use when …" clause would pull
    it toward the retired skill. Only the opening counts: "Finds deprecated APIs" is routed like any
    other skill. So are skills kept in an archive folder below the workspace root (`archive/`, `archived/`,
    `deprecated/`, `retired/`, `attic/`, also with a leading `_` or `.`: `archived/user-skills/implement-phase/`):
    retired, loaded by no agent. So is a skill in `.warden/skills/` that the `warden.toml` beside `.warden/` runs (a
    `[[skills]]` entry naming it, `name = "./.warden/skills/migration-safety"`, with `paths` or `triggers`): Sentry Warden
    starts it on those files and events, not by its description. Exempt too: a skill whose description says it is not routed to on its own ("DO NOT USE
    directly — consumed by …", "Reached through plan-gate, not as an independent trigger", "not meant to be
    invoked directly", "Not invoked directly", "Internal — not for direct invocation", "User-invoked only - never auto-trigger", "Never model-triggered", "Opt-in only", "Only the user can invoke this skill", "the plug-in of the global
    `grade` skill", "sub-skill of `grade`", or one opening "Internal shared Python helpers used by local skills": a library the
    other skills load, or one marked internal in a skill kept under an `internal/` folder, such as
    `skills/internal/gh/branch-reset/`: a private copy other skills call; marked by a description opening
    "Internal …", by `visibility: internal` / `private`, or by a `name` opening `internal-`), or whose body opens (one
    of its first three prose lines, after the title) saying which agent, command or skill loads it ("Loaded by the
    agent spawned from `/commit`", "Invoked only by the release orchestrator", "This skill is invoked ONLY by:" (the invoker below it), "Called by $dispatch with a level argument" (a Codex
    skill's `$name` or a `/command` right after "by"), "This skill is used by agents in the review chain" or "… by Lead
    Analyst (Tier 2.5) and Analyst (Tier 3) agents", not "… used by AI agents to …"; or at which moment of a slash command's
    flow, the command in backticks: "Loaded after `/speckit.tasks`", "Loaded when the user picks "greenfield" in
    `/fact-start`"; not "Loaded by default"), or whose frontmatter sets `allow_implicit_invocation: false` (at the top or in a
    `metadata` namespace), as does Codex's `agents/openai.yaml` beside SKILL.md (its `policy` block), a
    skill whose `triggers` / `trigger` / `keywords` / `trigger_keywords` (`trigger-keywords`) / `activation` / `when` /
    `search_hint` list
    (a list of phrases, or a string of them separated by commas, `triggers: canvas, ui`, or of three or more words
    separated by spaces, `search_hint: playwright browser chromium`; not a mode such as
    `trigger: user_request`) the code of its shipping package reads (that
    runtime loads the skill when a keyword appears: see `UNKNOWN_FIELD` for how the package is found), or that
    keeps its trigger patterns in a `triggers.yaml` (`.yml`, `.json`) beside SKILL.md which a source of that
    package names (crucible's trigger router), or a trigger list in a JSON sidecar beside SKILL.md (`skill.json`:
    `"triggers": ["performance", …]`) that the package's code reads from that file (agent47's catalog), or a list of
    events the runtime dispatches the skill on (`events: [lunch.upcoming]`; also `subscribes`, `subscriptions`,
    `on_events`) that the package's code reads, or an `always: true` the package's code reads (nanobot puts such a
    skill's body into every prompt), or whose
    folder the package's code builds an object from by name (`Skill.from_directory(ROOT / "summarize")`), binds to
    a slash command (`{"/domains": "structural/protein-domains"}`: its own command line picks it) or reads the
    SKILL.md of by name, in code that copies no file (`skills_dir / "vault-curator" / "SKILL.md"`, a daemon's
    prompt; or in a loop over a list of names, `for name in _SKILL_ORDER:` then `(pkg / name / "SKILL.md").read_text()`,
    an MCP server's prompts), where no source of
    the package names `.claude` (outside its comments and docstrings), or whose name a source of the package passes to a function that runs a skill
    (`use_skill('foreman-debug')`, `run_skill("x")`, `invokeSkill('x')`; not `register_skill("x", …)`, which hands it to
    an agent that routes it: its pipeline runs the skill by name, also when it vendors the skill into `.claude/skills`
    for that) or whose own prompt tells the agent to load it by name ("load the channel-awareness skill via
    read_file(…)", a tool's description "First read the built-in **long-goal** skill"), a skill an agent's driver file routes (AGENT.md, AGENTS.md, CLAUDE.md or GEMINI.md in
    its skills folder or up to two folders higher whose table with a "When to use" / trigger column has a row for the
    skill's name: `| `check-in` | User wants to start their day … |`; also a Hermes plugin's `profile/AGENTS.md` there,
    the persona it installs, with that table or a sentence that loads the skill by name, bare or behind the plugin's
    namespace: "At the start of supplier-invoice work, load `priority-erp:priority-workflows`"), a skill the skills folder's `skill-rules.json`
    gives prompt triggers (`"promptTriggers": {"keywords": […], "intentPatterns": […]}` under its name: an activation
    hook suggests it when a prompt matches), and a
    sample skill (kept under a test folder, `tests/`, `test/`, `__tests__/`, `testdata/`, `fixtures/` (Unity's
    `Fixtures~/` too), at any depth below the workspace root; tagged `example`, `sample` or `demo` in its frontmatter's
    `tags` or `keywords`; or kept under `examples/`, `samples/`, a plugin scaffold's `_template/`, a folder named
    `example_…` / `sample_…` / `fixture_…`, or in a folder named `sample-skill` / `example-skill` / `test-skill`, with
    its description or the first lines of its body calling it an "example / sample / fixture / demo / test skill", or a
    "fixture", or opening "This is a test": an input for its package's checker, tests or tutorial), and a
    fill-in template whose `name` is a placeholder (`name: <skill-id>`), or whose description is one
    (`description: "{{customDescription}}"`, or a scaffold's stand-in sentence, the whole description: "A brief
    description of what this skill does", "Replace with a description of the skill …"), or that says to copy it
    ("Template skill … Copy this folder, rename it, and fill in …"): whoever copies or installs it writes the description. Descriptions too short for `EMPTY_DESCRIPTION` to pass are left to that rule.

    "These tools" stand for "this skill" too ("Use these typed tools instead of arbitrary Python …", "Use these
    tools to query …": the tools the skill brings), and so does its own slash command after use / invoke / run
    ("Invoke /dotclaude:worktree when …", "Invoke /dotclaude:planning in any project where …"; another skill's
    command does not). The skill's own name stands for "this skill": "Use Library Skills to discover …" (`name: library-skills`;
    a CamelCase or slashed form counts word by word: "Use GrokSearch-rs social/content search tools for …" for
    `name: grok-search-social-search`)
    and "Use the siyuan-cli tool to create …" (or "Use `himalaya` to list …" for `name: himalaya`, "Use lighter_* tools for …" for `name: lighter`) read as
    "Use this skill to …", and "Use tmux instead of the bash tool to …" (`name: tmux`) as "Use this skill instead of …". Without a `name`, the folder's name is the skill's, and the words may add up to two of
    their own to the name's ("Use the skillset compiler to build …" in `use-skillset/`); a name of two or more words
    said whole and in order may have up to three around it ("Use the vendored Mythos Research Edition scaffold for …"
    for `name: mythos-research`), and a last role word of a longer name may go ("Use the browser-plus toolset for …"
    for `name: browser-plus-operator`: operator, helper, assistant, expert, guide, …); "use", "using", "the",
    "skill", "skills" and "agent" in a name count for nothing ("Use llmwiki effectively for …" in `using-llmwiki/`).

    Only descriptions written in English get either finding. The cues above in other languages are what
    the static triggering score reads, but their phrasing is open-ended (every language and every package
    says "use when" its own way), so a description in another language gets no trigger finding rather
    than a guess. A description counts as English unless a quarter of its letters are in another script
    (Chinese, Japanese, Korean, Cyrillic, …), or six of them are and it has fewer than two English function
    words ("Google Analytics (GA4) 및 Search Console 데이터 조회 시 사용": Korean around product names), a
    tenth are accented (Vietnamese), or it has three accented letters and fewer than two English function words (a
    language the word lists below do not hold: "Nástroj pro správu faktur přes invoice_api … odeslání faktury"), or more of its function
    words (and at least two) are Portuguese, Spanish, French, German, Italian, Dutch, Indonesian, Turkish,
    Polish, Swedish, Hungarian, Vietnamese or Uzbek ("… regressiya tekshiruvi kerak bo'lganda ishlating"), with or without its accents ("Dung khi user muon …", "… để CRM tự tạo mapping; … chỉ
    truyền ids": identifiers such as `crm_id` can keep the accented letters under a tenth) than English ("Use quando revisar um Pull Request" is Portuguese),
    or one is and none is English, and it has accented letters ("Verwaltet WordPress-Beiträge … löschen und verwalten."); a
    lower-case "i" standing between words counts as two such words ("and" in Polish, Czech or Croatian, which English
    writes "I": "Generuje i uruchamia migracje Drizzle ORM"; "i.e." is not one).

    ## Why is this bad?
    Agents pick skills by matching the request against descriptions. A description that only says
    what the skill is ("PDF toolkit.") gives the router no cue, so the skill fires rarely or wrongly.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description: A comprehensive toolkit of utilities and scripts around PDF documents.
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: A toolkit for PDF documents. Use when the user asks to fill a PDF form, merge
      PDFs, or extract pages.
    ---
    ```

    ## Fix
    Appends a "Use when …" sentence with a placeholder to the description, after a full stop when the
    description has none (display only: the placeholder must be replaced by real situations). When the
    frontmatter holds a `triggers` / `keywords` list or a `usage_trigger` / `use_when` / `when-to-use` text that nothing
    reads, the message names it: its phrases belong in the description, where agents look.
    """
    found = routed_description(doc)
    if found is None or usage_context(found[1]) or driver_routes(doc):
        return
    fld = found[0]
    fix = Fix.suggestion("Add a \"Use when …\" trigger clause", append_sentence(doc, fld, PLACEHOLDER))
    msg = "`description` has no trigger clause (e.g. \"Use when …\"); the agent cannot tell when to load this skill"
    msg += unread_trigger_note(doc.frontmatter.data)  # (a list its package's code reads exempts the skill)
    yield ctx.finding(fld.value_range, msg, fix)
