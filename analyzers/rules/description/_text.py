"""The description as the agent sees it."""

from __future__ import annotations

import re

from ... import rx
from ...document import Field, SkillDocument
from ...findings import Edit, Pos, Range
from ...lazy_re import lazy_compile
from .._helpers import archived, kebab_words, opening_prose


def description(doc: SkillDocument) -> tuple[Field | None, str | None]:
    """(field, text). text is None when the description is not text (a list, a mapping)."""
    fld = doc.frontmatter.get("description")
    if fld is None:
        return None, ""
    v = fld.value
    if isinstance(v, str):
        return fld, v
    if v is None:
        return fld, ""
    if fld.node is not None and fld.node.__class__.__name__ == "ScalarNode":
        return fld, str(fld.node.value)  # `description: yes` is still these characters
    return fld, None


# A description that opens by declaring the skill retired: "Deprecated — forwards to x", "DEPRECATED: use x",
# "[Deprecated] …", "**Obsolete.** …", "This skill is deprecated; …", "Superseded by x", "Forwards to x",
# "Compatibility alias for x" / "Legacy shim …".
# Anchored at the start (bmad's validator: `^\s*deprecated\b`): a skill that merely mentions deprecation
# ("Finds deprecated APIs") is routed like any other.
# Or a short name, then "deprecated shim / alias / wrapper / stub / redirect / skill", ending the description or
# its first clause ("Ecomode deprecated shim", "Ralph Init deprecated skill", oh-my-codex): "Finds deprecated
# APIs" names no shim, and "Removes deprecated wrapper classes from code" goes on after it: both are routed like
# any other.
DEPRECATED = rx.compile(
    r"[\W_]*(?:this\s+skill\s+(?:is|has\s+been)\s+(?:now\s+)?)?(?:deprecated|obsolete|superseded|retired)\b"
    r"|[\W_]*forwards?\s+to\b"
    r"|[\W_]*(?:compatibility|compat|legacy)\s+(?:alias|shim|wrapper|redirect|stub)\b"
    r"|[\w .-]{1,40}?\s(?:deprecated|obsolete)\s+(?:compat(?:ibility)?\s+)?(?:shim|alias|wrapper|stub|redirect|skill)\b"
    r"(?=\s*(?:[.;:,(—–-]|$))",
    re.I,
)


def deprecated(doc: SkillDocument) -> bool:
    """The description declares the skill deprecated or a forwarding shim: it is kept so old invocations by
    name still work, and a trigger clause would pull the router toward it. Or the skill is kept in an archive folder
    (`archived/user-skills/implement-phase/`): retired, loaded by no agent."""
    text = description(doc)[1]
    return isinstance(text, str) and DEPRECATED.match(text) is not None or archived(doc)


# A description that says the skill is not routed to by itself: another skill or a stage loads it.
_NOT_ROUTED = rx.compile(
    r"\b(?:do\s+not|don['’]t|never)\s+(?:use|invoke|call|trigger|load|read)\s+(?:this\s+(?:skill\s+)?|it\s+)?directly\b"
    r"|\bnot\s+(?:as\s+)?an?\s+(?:independent|standalone|separate)\s+(?:trigger|entry\s+point)\b"
    r"|\bnot\s+(?:meant|intended|designed)\s+(?:to\s+be\s+)?(?:invoked|used|called|triggered|loaded|activated|selected|run)\s+directly\b"
    r"|\bnot\s+(?:invoked|called|triggered|loaded)\s+directly\b"  # "Not invoked directly — the command file fires it"
    # "the type-specific plug-in of the global `grade` skill", "sub-skill of `grade`": another skill routes to it
    r"|\bplug-?in\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?`?[\w-]{1,40}`?\s+skill\b"
    r"|\bsub-?skill\s+of\s+(?:the\s+)?`?[\w-]{1,40}`?"
    # "User-invoked only - never auto-trigger.": only its user starts it
    # ("Invoked explicitly as /deploy, never model-triggered.": the model does not pick it)
    r"|\buser[-\s]invoked\s+only\b|\bnever\s+auto[-\s]?(?:trigger|invoke|load|activate)"
    r"|\bnever\s+model[-\s](?:triggered|invoked|loaded|activated|selected)\b"
    # "Opt-in only; not automatic on every project.": loaded only when its user asks for it
    r"|\bopt[-\s]?in\s+only\b"
    # "Only the user can invoke this skill."
    r"|\bonly\s+(?:the\s+)?user\s+(?:can|may|should)\s+(?:invoke|call|trigger|run|start|load)\b"
    # "Internal — not for direct invocation.": the noun form
    r"|\bnot\s+for\s+direct\s+(?:invocation|use|calls?|triggering|loading)\b"
    # "Internal shared Python helpers used by local skills.": a library other skills load, not a skill to route to
    r"|^\W{0,3}internal\b[^.;\n]{0,40}?\b(?:helpers?|utilit(?:y|ies)|librar(?:y|ies)|modules?)\b[^.;\n]{0,20}?"
    r"\bused\s+by\b[^.;\n]{0,30}?\bskills?\b",
    re.I,
)


# one of these is in every text _NOT_ROUTED matches: most descriptions are not searched
_NOT_ROUTED_WORDS = ("direct", "independent", "standalone", "separate", "only", "auto", "plug-in", "plugin",
                     "sub-skill", "subskill", "opt", "model-", "model ")  # ("only": also "user-invoked  only", "only  the user can …")


def not_routed(doc: SkillDocument) -> bool:
    """The description says the skill is not routed to on its own ("DO NOT USE directly — consumed by …",
    "not as an independent trigger", "not for direct invocation"), or is marked internal (it opens "Internal …",
    or the frontmatter has `visibility: internal` or a `name` opening `internal-`) in a skill kept under an
    `internal/` folder, or the
    frontmatter sets `allow_implicit_invocation: false` (at the top or
    one level down in `metadata`), or Codex's `agents/openai.yaml` beside it does (its `policy` block), or one of the
    body's first prose lines opens saying which agent, command or skill loads it ("Loaded by the agent spawned from
    `/commit`", "Loaded after `/speckit.tasks`", "Loaded when the user picks "greenfield" in `/fact-start`")."""
    data = doc.frontmatter.data
    if data.get("allow_implicit_invocation") is False or _codex_policy_off(doc):
        return True
    meta = data.get("metadata")
    if isinstance(meta, dict) and (meta.get("allow_implicit_invocation") is False or any(
            isinstance(v, dict) and v.get("allow_implicit_invocation") is False for v in meta.values())):
        return True
    if _opening_says_loaded_by(doc):
        return True
    text = description(doc)[1]
    if not isinstance(text, str):
        return False
    low = text.lower()  # every alternative holds one of these words: most descriptions skip the pattern
    internal = low.lstrip(" \"'*_>").startswith("internal") or _marked_internal(data)
    if not internal and not any(w in low for w in _NOT_ROUTED_WORDS):
        return False
    return _NOT_ROUTED.search(text) is not None or internal and _in_internal_folder(doc)


INTERNAL_DEPTH = 3  # folders above the skill's own looked at for `internal/`
OPENING_PROSE = 3  # prose lines of the body, after its title, read for who loads the skill

# a body line opening with who loads the skill: "Loaded by the agent spawned from `/commit` (`commands/commit.md`)",
# "Invoked only by the `release` orchestrator" (not "Loaded by default, …", nor "Used by teams to …"), "This skill is
# used by agents in the review chain"
_LOADED_BY = lazy_compile(r"[\s>*_]{0,6}(?:loaded|invoked|spawned|called|run)\s+(?:only\s+)?(?:by\s+(?:the\s+|an?\s+)?"
                          r"(?:`?/?[\w:.-]{1,40}`?\s+){0,2}(?:sub-?agent|agent|command|skill|orchestrator|workflow|hook)"
                          r"s?\b"
                          # "Loaded when the user picks "greenfield" in `/fact-start`", "Loaded after `/speckit.tasks`":
                          # a moment of a slash command's flow, the command in backticks
                          r"|(?:when|after|before|from|during)\b[^.,;\n`]{0,80}`/[\w:.-]{1,40}`"
                          # "Called by $dispatch with a target level argument": a Codex skill's `$name` handle, or a
                          # slash command, right after "by"
                          r"|by\s+`?[$/][A-Za-z][\w:.-]{0,39}`?(?![\w/]))"
                          # "This skill is used by Lead Analyst (Tier 2.5) and Analyst (Tier 3) agents …", "… by agents in
                          # the review chain": the agents that load it, named (not "used by AI agents to …")
                          r"|[\s>*_]{0,6}this\s+skill\s+is\s+(?:only\s+)?(?:used|loaded|invoked|called)\s+(?:only\s+)?by\s+"
                          r"(?:[^.;:\n]|\.(?=\d)){0,100}?(?<!\bai\s)(?<!\bllm\s)(?<!\bcoding\s)(?<!\bany\s)(?<!\ball\s)(?<!\bother\s)"
                          r"(?<!\bautonomous\s)\b(?:sub-?agents?|agents|orchestrators?)\b(?!\s+to\b)"
                          # "This skill is invoked ONLY by:" and the invoker below it (`goga-tool-mkdocs` in a block)
                          r"|[\s>*_]{0,6}this\s+skill\s+is\s+(?:used|loaded|invoked|called)\s+only\s+by\s*:", re.I)


def _opening_says_loaded_by(doc: SkillDocument) -> bool:
    """One of the body's first prose lines (after its title; a quoted guard counts) says which agent, command or skill
    loads this one: it is reached through that, not routed to by its description."""
    # (the raw line: prose blanks the command's code span)
    return any(_LOADED_BY.match(doc.lines[pl.line]) is not None for pl in opening_prose(doc, OPENING_PROSE))


def _marked_internal(data: dict[object, object]) -> bool:
    """The frontmatter marks the skill private: `visibility: internal` / `private`, or a `name` that opens
    `internal-` (`internal-context-url-patterns`: a registry other skills consult)."""
    vis, name = data.get("visibility"), data.get("name")
    return (isinstance(vis, str) and vis.strip().lower() in ("internal", "private")) or \
        (isinstance(name, str) and name.lower().startswith("internal-"))


def _in_internal_folder(doc: SkillDocument) -> bool:
    """The skill is kept under a folder named `internal` (`skills/internal/gh/branch-reset/`): with a
    description that opens "Internal …", one that other skills call, not one routed to on its own."""
    if doc.path is None:
        return False
    above = doc.path.parent.parts[:-1][-INTERNAL_DEPTH:]
    return any(part.lower() in ("internal", "_internal") for part in above)


# "Use <a name of up to eight words>[ a tool-name glob: `lighter_*`] [tool|skill|cli|command|plugin] to", matched at each "use": words are
# letters and digits only, so a name splits one way (linear; one pattern for every skill)
_USE_NAMED = rx.compile(
    r"(use\s+)(?:the\s+)?`?([^\W_]+(?:[\s_/-]+[^\W_]+){0,7}?)(?:[_.-]?\*)?`?(?:\s+(?:tools?|skills?|cli|commands?|plugins?))?"
    r"(?=\s+(?:to|for|when|whenever|if|before|after|during|in|instead\s+of|rather\s+than)\b)",
    re.I)
_SEPARATORS = rx.compile(r"[-_\s]+")
# a slash command after use / invoke / run (`/worktree`, `/dotclaude:worktree`, in backticks or not); group 3: its name
_SLASH_COMMAND = lazy_compile(r"\b(use|invoke|run)(\s+)`?/(?:[\w-]{1,40}:)?([\w.-]{1,64})`?(?![\w:/-])", re.I)


def _codex_policy_off(doc: SkillDocument) -> bool:
    """Codex's `agents/openai.yaml` beside SKILL.md sets `allow_implicit_invocation: false` (its policy block)."""
    if not doc.files.exists("agents/openai.yaml"):
        return False
    from ...bundle import read_bundled  # (imported only when the file is there)

    bf = read_bundled(doc, "agents/openai.yaml")
    if bf is None:
        return False
    for line in bf.text.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "allow_implicit_invocation" and value.split("#", 1)[0].strip().lower() == "false":
            return True
    return False


USE_GAP = 24  # characters from "use" to the name: " the ", an adjective ("Use the vendored Mythos Research …")


_NOT_NAME_WORDS = frozenset({"use", "using", "the", "skill", "skills", "agent"})
NAME_EXTRA_WORDS = 2  # words a "Use the skillset compiler to" may add to the name's own (`use-skillset`)
NAME_RUN_EXTRA_WORDS = 3  # words around a name of two or more words said whole and in order ("the vendored Mythos
# Research Edition scaffold" for `mythos-research`)
# a last name word that says the skill's role towards what it names: "Use the browser-plus toolset for …" in
# `browser-plus-operator` names what the skill operates
_ROLE_WORDS = frozenset({"operator", "helper", "assistant", "expert", "guide", "specialist", "manager", "runner",
                         "wizard", "companion", "advisor", "coach"})


def _names_skill(said: list[str], words: list[str], key: list[str]) -> bool:
    """The words after "use" name the skill: its name's words, up to NAME_EXTRA_WORDS more; a name of two or more
    words whole and in order among up to NAME_RUN_EXTRA_WORDS more; the same without a last role word (_ROLE_WORDS)."""
    if said == words or (len(said) <= len(key) + NAME_EXTRA_WORDS and set(key) <= set(said)):
        return True
    for run in (key, key[:-1] if len(key) >= 3 and key[-1] in _ROLE_WORDS else None):
        if run and len(run) >= 2 and len(said) <= len(run) + NAME_RUN_EXTRA_WORDS and any(
                said[k:k + len(run)] == run for k in range(len(said) - len(run) + 1)):
            return True
    return False


def own_name_as_this_skill(text: str, doc: SkillDocument) -> str:
    """`text` with "Use <the skill's own name> to / for / when …" (`library-skills` written `Library Skills`,
    `the siyuan-cli tool`, in backticks: "Use `himalaya` to", or as a glob of its tools' names: "Use lighter_* tools for") put as "Use this skill to / for / when …":
    the same clause; so is the skill's own slash command after use / invoke / run ("Invoke /dotclaude:worktree
    when …", "Run `/planning` in any project …"). Without a `name`, the folder's name is the skill's; the words may add up to
    NAME_EXTRA_WORDS to the name's own (`use-skillset`: "Use the skillset compiler to"), or say a name of two or more
    words whole among a few more (see _names_skill)."""
    name = doc.frontmatter.data.get("name")
    if not isinstance(name, str):
        name = doc.skill_dir.name if doc.skill_dir is not None else None
    if not isinstance(name, str) or not 3 <= len(name) <= 64:
        return text
    if "/" in text:  # "Invoke /dotclaude:worktree when …": the skill's own slash command stands for it
        own = name.strip().lower()
        text = _SLASH_COMMAND.sub(
            lambda m: m.group(1) + m.group(2) + "this skill" if m.group(3).lower() == own else m.group(0), text)
    words = _SEPARATORS.split(name.strip().lower())
    key = [w for w in words if w and w not in _NOT_NAME_WORDS]
    low = text.lower()
    if not key or key[0] not in low:
        return text  # the name's first word is nowhere: nothing to put (most descriptions)
    starts: list[int] = []  # a "use" right before an occurrence of the name's first word (they are few)
    j = low.find(key[0])
    while j >= 0:
        i = low.rfind("use", max(0, j - USE_GAP), j)
        if i >= 0 and (not starts or starts[-1] != i):
            starts.append(i)
        j = low.find(key[0], j + 1)
    parts: list[str] = []
    last = 0
    for i in starts:
        if i >= last and (i == 0 or not low[i - 1].isalnum()) and low[i + 3:i + 4].isspace():  # ("user": no)
            m = _USE_NAMED.match(text, i)
            if m is None:
                continue
            said = _SEPARATORS.split(kebab_words(m.group(2)).replace("/", "-"))  # (`GrokSearch-rs`: grok, search, rs)
            if _names_skill(said, words, key):
                parts += (text[last:i], m.group(1), "this skill")
                last = m.end()
    return "".join(parts) + text[last:] if parts else text


_SENTENCE_END = frozenset(".!?。！？…")


def append_sentence(doc: SkillDocument, fld: Field, sentence: str) -> Edit:
    """An edit that adds `sentence` at the end of the description, whatever its YAML style, after a full
    stop when the description has none (no run-on "… for charts Use when …")."""
    end = fld.value_range.end
    text = description(doc)[1] or ""
    stop = "" if not text.strip() or text.rstrip()[-1] in _SENTENCE_END else "."
    addition = stop + " " + sentence
    if fld.style in ('"', "'"):
        at = Pos(end.line, max(0, end.character - 1))  # before the closing quote
    elif fld.style in ("|", ">"):
        line = doc.lines[end.line] if end.line < len(doc.lines) else ""
        indent = line[: len(line) - len(line.lstrip())] or "  "
        at = end
        addition = stop + "\n" + indent + sentence
    else:
        at = end
    return Edit(Range(at, at), addition)
