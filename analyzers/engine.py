"""Run the rules over a SkillDocument: selection, severity overrides, inline suppression, stable order."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from operator import attrgetter

from .config import Config
from .document import SkillDocument
from .findings import Finding, Pos, Range, Severity
from .hosts import bundled_in_skill, other_host
from .registry import ALL_RULES
from .rule import Rule, RuleContext
from .targets import CLAUDE_CODE
from .workspace import Workspace

CLAUDE_CODE_ONLY = frozenset({CLAUDE_CODE})
# rules about a skill's identity and routing, which a SKILL.md bundled in another skill's folder does not have
SKILL_IDENTITY = frozenset({"FRONTMATTER_MISSING", "NAME_MISSING", "NAME_DIR_MISMATCH", "NAME_FORMAT",
                            "DUPLICATE_SKILL_NAME", "EMPTY_DESCRIPTION", "MISSING_TRIGGER", "WEAK_TRIGGER"})


_OWN_ORDER = attrgetter("range.start.line", "range.start.character", "code", "message")


def _suppressed(doc: SkillDocument, f: Finding) -> bool:
    if f.file is not None:  # a bundled file: its own inline comments
        from .bundle import suppressed_in

        return suppressed_in(doc, f.file, f.code, f.range.start.line)
    for key in (f.code, "ALL"):
        if key in doc.disabled:
            lines = doc.disabled[key]
            if lines is None or f.range.start.line in lines:
                return True
    return False


@lru_cache(maxsize=64)
def _selected(select: tuple[str, ...], ignore: tuple[str, ...], target: str,
              rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The rules for `target` that select/ignore leave on (the same for every document of a run)."""
    probe = Config(select=select, ignore=ignore)
    return tuple(r for r in rules if target in r.targets and probe.enabled(r.code))


def run_rules(
    doc: SkillDocument,
    config: Config | None = None,
    workspace: Workspace | None = None,
    rules: tuple[Rule, ...] = ALL_RULES,
) -> tuple[list[Finding], int]:
    """(findings, number suppressed inline). A failing rule becomes an INTERNAL_ERROR finding."""
    config = config or Config()
    path = str(doc.path) if doc.path is not None else None
    out: list[Finding] = []
    suppressed = 0
    # another agent's skill (other_host): looked for only once a Claude Code-only rule has something to say (most
    # skills never need it); an explicit target, or one other than Claude Code, says where the skill runs
    host_checked = config.target_explicit or config.target != CLAUDE_CODE
    host: str | None = None
    bundled = bundled_in_skill(doc)  # a document in a skill's folder, not a skill an agent loads
    path_ignores = bool(path and config.per_path_ignores)
    plain = not doc.disabled and not config.severity  # no inline suppression, no severity override
    for r in _selected(config.select, config.ignore, config.target, rules):
        if path_ignores and not config.enabled(r.code, path):
            continue
        if bundled and r.targets == CLAUDE_CODE_ONLY:
            continue  # a document, not a skill: Claude Code's own semantics do not apply
        if bundled and r.code in SKILL_IDENTITY:
            continue  # read as a plain document: its name, description and frontmatter route nothing
        if r.workspace and workspace is None:
            continue
        ctx = RuleContext(r, config, workspace)
        try:
            found = list(r.check(doc, ctx))
        except Exception as exc:  # noqa: BLE001 - a rule bug must never take the editor or CI down
            found = [Finding("INTERNAL_ERROR", Severity.ERROR, Range(Pos(0, 0), Pos(0, 0)),
                             f"rule {r.code} failed: {type(exc).__name__}: {exc}")]
        if found and r.targets == CLAUDE_CODE_ONLY:
            if not host_checked:
                host, host_checked = other_host(doc), True
            if host is not None:
                continue  # a skill written for another agent: Claude Code's own semantics do not apply
        if plain:  # nothing to filter or change on SKILL.md's own findings (a link run: 10^5 of them)
            rest = [f for f in found if f.file is not None]
            out.extend(found if not rest else [f for f in found if f.file is None])
            found = rest
        for f in found:
            if f.file is not None and doc.skill_dir is not None and config.per_path_ignores and \
                    not config.enabled(f.code, str(doc.skill_dir / f.file)):
                continue  # per-path-ignores match the bundled file's own path
            if _suppressed(doc, f):
                suppressed += 1
                continue
            if f.code in config.severity:
                f = replace(f, severity=config.severity[f.code])
            out.append(f)
    # Finding.sort_key's order: SKILL.md's own findings (by position, code, message) first, then bundled files'
    # (by file, …); the first part by a C-level key (a link run: 10^5 findings)
    own = [f for f in out if f.file is None]
    own.sort(key=_OWN_ORDER)
    if len(own) < len(out):
        own.extend(sorted((f for f in out if f.file is not None), key=Finding.sort_key))
    return own, suppressed
