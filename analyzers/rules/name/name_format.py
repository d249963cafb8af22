"""NAME_FORMAT: `name` is not lowercase letters, digits and single hyphens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ...document import SkillDocument
from ...fields import HERMES, skill_dialect
from ...findings import Edit, Finding, Fix, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import (
    NAME_RE,
    folder_label,
    kebab_words,
    keeps_most,
    placeholder_name,
    runtime_record,
    slugify,
)
from .name_dir_mismatch import is_container

# Hermes Agent's own skill-name pattern (its VALID_NAME_RE): underscores and dots allowed, still lower-case
_HERMES_NAME = lazy_compile(r"[a-z0-9][a-z0-9._-]{0,63}")


def _why(name: str) -> str:
    """Every way the name breaks the format, most telling first (`Code Review Expert`: uppercase and spaces)."""
    why = []
    if name != name.lower():
        why.append("must be lowercase")
    if name.startswith("-") or name.endswith("-"):
        why.append("cannot start or end with a hyphen")
    if "--" in name:
        why.append("cannot contain consecutive hyphens")
    if not name.isascii():
        why.append("must use ASCII letters, digits and hyphens")
    elif not name.replace("-", "").isalnum():
        why.append("may contain only lowercase letters, digits and hyphens")
    return " and ".join(why) or "may contain only lowercase letters, digits and hyphens"


@rule("NAME_FORMAT", family="name", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def name_format(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`name` is not in the spec's format (lowercase letters, digits, single hyphens).

    ## What it does
    Checks `name` against `^[a-z0-9]+(-[a-z0-9]+)*$`: lowercase ASCII letters and digits separated
    by single hyphens, no leading or trailing hyphen. The message names every way the name breaks it
    (`Code Review Expert`: "must be lowercase and may contain only lowercase letters, digits and hyphens").

    A skill written for Hermes Agent (`metadata.hermes`, see `UNKNOWN_FIELD`) is checked against Hermes's own
    pattern, which allows underscores (`google_meet`); upper case and spaces are still reported. So is a CoPaw
    skill (`metadata.copaw` or `metadata.qwenpaw`, or the `metadata.builtin_skill_version` of its built-ins and its
    forks'): CoPaw keys skills by folder, its `name` is a label, and its
    built-ins are snake_case (`channel_message/`); a snake_case name without the marker is reported.

    A skill whose runtime identifies it by a slug `id` (`id: momentum-trading`, `id: data_fetcher`; also
    `skill_id:` or `skill:`) uses `name`
    as its display label (`name: Momentum Trading`): not reported. Nor is a frontmatter that is another
    runtime's record (no `description`, and three or more keys no agent defines: `slug: notion-cli`,
    `type: external_cli`, `install:`, `verify:`), whose `name` is that runtime's label; nor a Craft Agents
    skill (`alwaysAllow:`, a key only Craft Agents defines), which that runtime files under its folder's
    slug, showing `name` as its display name, when the name is the folder's slug written out
    (`name: "Memory Search"` in `memory-search/`); likewise a skill of another runtime's library, marked by a
    `connectors:` list or a `tools:` list of that runtime's snake_case tools (`tools: [search_tickets,
    web_search]`; no agent's tools are spelt so); nor a skill its
    shipping package loads with its own runtime (its code reads a frontmatter key no agent defines, as
    `UNKNOWN_FIELD` asks it) when that code also asks for the name itself (`skills.get("spec_kit")`): the
    name is the runtime's key, and a rename would break the lookup; likewise a snake_case name that a source of the
    shipping package quotes (`s.name == "agent_creator"`, `BUILTIN_SKILL_NAMES = ("code_review", …)`) when no source
    of it names `.claude`. Nor is a lower-case name with underscores
    that is its folder's name when the shipping package serves its skills over MCP by folder (its code uses
    fastmcp's `SkillsDirectoryProvider`: `skill://develop_extension/SKILL.md`; the runtime reads no `name`,
    and the skills' documented addresses would break on a rename).
    A template's placeholder (`name: "{skill-name}"`, `<skill-name>`, `__PKG__`) is not reported: whoever copies
    the template fills it in; nor is a valid name with a placeholder token in it (`__SKILL_NAME__-deep-research`,
    which an installer's `replace("__SKILL_NAME__", …)` completes; or the capitalised `TEMPLATE` / `PLACEHOLDER` of a
    template users fork: `TEMPLATE-extractor`). Around the token the name must still have
    the right shape: `__SKILL_NAME__ Deep Research` is reported.

    ## Why is this bad?
    Agents use the name as an identifier and slash command; validators reject other characters.
    The spec allows Unicode lowercase letters in theory, but its examples and every other validator
    use ASCII, so skillgrade asks for ASCII.

    ## Example
    ```markdown
    ---
    name: PDF_Tools
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    ---
    ```

    ## Fix
    Sets the name to the skill folder's name when that is a valid name and not a package's generic
    container (`assets`, `data`, `skill`, …: see `NAME_DIR_MISMATCH`) (`name: PDF_Tools` in
    `pdf-tools/` becomes `pdf-tools`, which the spec asks for anyway), else rewrites the name as a
    slug (`pdf-tools`; one CamelCase word split where its words start: `ApiFetcher` becomes `api-fetcher`,
    `HTMLParser` `html-parser`; the folder must then be renamed to match) when the slug keeps at least half of
    the name's letters and is no container's name, else uses the folder's name made valid
    (`古法作业.skill` in `Hand-crafted-Homework.skill/` becomes `hand-crafted-homework`, not `skill`);
    a name written as the skill's folder path (`android/accessibility` in `android/accessibility/`, beside an
    `ios/accessibility`) becomes that path as one name, `android-accessibility`, not the folder's name alone;
    with none of these, no fix is offered. A platform's copy of a skill (`<Skill>/platforms/antigravity/`,
    also under `platform/`, `targets/`, `variants/`) is not named after its platform folder: every copy would
    get the same name. Unsafe: renaming a skill changes its command.
    """
    fm = doc.frontmatter
    fld = fm.get("name") if fm.ok else None
    if fld is None or not isinstance(fld.value, str) or not fld.value.strip():
        return
    name = fld.value
    if NAME_RE.match(name) or placeholder_name(name, doc.lines[fld.value_range.start.line]):
        return  # (a template's `{skill-name}` is filled in by whoever copies it)
    if runtime_record(fm.data):
        return  # `id: momentum-trading` identifies the skill; `name: Momentum Trading` is its display label (also
        # `slug: notion-cli` beside `type:`, `install:`, `verify:` and no description: another runtime's record)
    dirname = doc.skill_dir.name if doc.skill_dir is not None else ""
    if folder_label(fm.data, name, dirname):
        return  # `alwaysAllow:`: Craft Agents files the skill under `memory-search/`; `Memory Search` is its label
    if _runtime_key(doc, name):
        return  # teotl's SkillRegistry files the skill under `name` (`spec_kit`), and its code asks for that key
    if _HERMES_NAME.fullmatch(name) and "_" in name and skill_dialect(fm.data, doc.text) == HERMES:
        return  # `google_meet` with `metadata.hermes`: Hermes Agent names skills `^[a-z0-9][a-z0-9._-]*$`
    if _HERMES_NAME.fullmatch(name) and _copaw(fm.data):
        return  # `channel_message` with `metadata.copaw`: CoPaw keys its skills by folder, its built-ins snake_case
        # (`name` is their label: SealClaw's `dingtalk_channel/` holds `name: dingtalk_channel_connect`)
    if name == dirname and _HERMES_NAME.fullmatch(name) and _served_by_folder(doc):
        return  # `develop_extension` served by its package as `skill://develop_extension/SKILL.md` (fastmcp)
    fix = None
    if "/" in name and name.rsplit("/", 1)[1] == dirname and (whole := slugify(name)) and NAME_RE.match(whole):
        # `android/accessibility` in `android/accessibility/`: the folder's path names it, and a kit holds
        # `ios/accessibility` too; the folder's name alone would give both one name
        fix = Fix.unsafe(f"Rename to `{whole}`", Edit(fld.value_range, whole))
    elif NAME_RE.match(dirname) and not is_container(dirname) and not _platform_variant(doc.skill_dir):  # the name the spec asks for: NAME_DIR_MISMATCH is then settled too
        fix = Fix.unsafe(f"Rename to `{dirname}` (the folder's name)", Edit(fld.value_range, dirname))
    elif (slug := _camel_slug(name) or slugify(name)) and not is_container(slug) and keeps_most(slug, name):  # (not
        # `skill` of `古法作业.skill`)
        fix = Fix.unsafe(f"Rename to `{slug}`", Edit(fld.value_range, slug))
    elif not _platform_variant(doc.skill_dir) and (folder := _folder_slug(dirname)) is not None:  # `Hand-crafted-Homework.skill/`: the folder's, made valid
        fix = Fix.unsafe(f"Rename to `{folder}` (from the folder's name)", Edit(fld.value_range, folder))
    shown = name.replace("\r", "\\r").replace("\n", "\\n")  # (`name: |` keeps a line break: shown, not printed)
    why = "ends in a line break (a `|` block keeps it): write the name on the `name:` line" if NAME_RE.match(
        name.rstrip("\r\n")) else _why(name)
    yield ctx.finding(fld.value_range, f"`name: {shown}` {why}", fix)


_COPAW = ("copaw", "qwenpaw")  # CoPaw's metadata namespace (and its QwenPaw name)


def _copaw(data: dict) -> bool:
    """The skill carries CoPaw's `metadata.copaw` (`qwenpaw`) mapping, or the `metadata.builtin_skill_version` CoPaw
    and its forks (SealClaw) stamp on their built-ins: a CoPaw-style skill."""
    meta = data.get("metadata")
    return isinstance(meta, dict) and ("builtin_skill_version" in meta or any(isinstance(meta.get(k), dict)
                                                                              for k in _COPAW))


# `ApiFetcher`, `MuseSparkInit`, `HTMLParser`: one CamelCase word, split where a capital starts a word
_CAMEL = lazy_compile(r"[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")


def _camel_slug(name: str) -> str:
    """`api-fetcher` for `ApiFetcher` (not `apifetcher`), `html-parser` for `HTMLParser`; '' for a name that is not
    one CamelCase word (`Memory Search`, `pdf_tools`: slugify's)."""
    if len(name) > 64 or _CAMEL.fullmatch(name) is None or name.isupper() or name.islower():
        return ""
    return kebab_words(name)[:64].strip("-")


def _runtime_key(doc: SkillDocument, name: str) -> bool:
    """The package shipping the skill loads it with its own runtime (a frontmatter key no agent defines that its
    code reads: hosts.package_runtime), and that code names the skill by its `name` in quotes; or the name is
    snake_case and a source of the package (which never names `.claude`) quotes it: the name is the runtime's key,
    which a rename would break."""
    from ...hosts import package_runtime  # (only for names off the format: most skills never get here)
    from ...package_code import package_quotes, package_reads

    if package_runtime(doc) and package_reads(doc, name):
        return True
    # `agent_creator` quoted in the package's code (`s.name == "agent_creator"`, `BUILTIN_SKILL_NAMES = ("code_review",
    # …)`), which never names `.claude`: its runtime looks the skill up by that name
    return _SNAKE_NAME.fullmatch(name) is not None and package_quotes(doc, name)


_SNAKE_NAME = lazy_compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _served_by_folder(doc: SkillDocument) -> bool:
    """The package shipping the skill serves it over MCP under its folder's name (package_serves_by_folder)."""
    from ...package_code import package_serves_by_folder  # (only for names off the format)

    return package_serves_by_folder(doc)


_PLATFORM_PARENTS = frozenset({"platforms", "platform", "targets", "variants"})


def _platform_variant(folder: Path | None) -> bool:
    """`<Skill>/platforms/antigravity/SKILL.md`: one platform's copy of the skill, named after the platform."""
    return folder is not None and folder.parent.name.lower() in _PLATFORM_PARENTS


def _folder_slug(dirname: str) -> str | None:
    """The skill folder's name as a valid name (`Hand-crafted-Homework.skill` -> `hand-crafted-homework`), or None
    when it makes none, or only a container's (`data`, `skill`)."""
    base = dirname[:-len(".skill")] if dirname.lower().endswith(".skill") else dirname
    slug = slugify(base) if base else ""
    return slug if slug and NAME_RE.match(slug) and not is_container(slug) else None
