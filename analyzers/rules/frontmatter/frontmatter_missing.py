"""FRONTMATTER_MISSING: no YAML frontmatter at the top of SKILL.md."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...package_code import (
    SIDECAR_FILES,
    package_names_file,
    package_reads_own_format,
    package_reads_whole,
    package_serves_resource,
    package_writes_frontmatter,
)
from ...rule import FixAvailability, RuleContext, rule
from .._helpers import NAME_RE, folders_above, keeps_most, slugify
from .._sample import sample_skill
from ..code._helpers import closes_inner_fence, fenced_frontmatter, line_break
from ..name.name_dir_mismatch import is_container


@rule("FRONTMATTER_MISSING", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.ALWAYS)
def frontmatter_missing(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md does not start with a `---` frontmatter block.

    ## What it does
    Checks that the first line of SKILL.md is `---`, opening a YAML frontmatter block. A leading blank
    line or text before `---` means there is no frontmatter.

    ## Why is this bad?
    The frontmatter carries `name` and `description`, the only text an agent sees before deciding to
    load the skill. The Agent Skills format requires it, and agents that follow it find no skill without it.
    Claude Code falls back to the folder name and the body's first paragraph, which was not written to route
    requests; in a Claude Code folder (`.claude/skills/…`) the finding says so.

    ## Example
    ```markdown
    # PDF tools
    Fill PDF forms.
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling, merging or splitting PDF files.
    ---
    # PDF tools
    ```

    A skill whose manifest beside SKILL.md (a `*.json` file at its root) names the frontmatter an installer
    writes for each host (`"materializedFrontmatterDigest"`, a `"frontmatter"` key) is a source the
    installer completes: it is not reported. A sidecar `skill.json` that only holds the name and
    description (`"entryPoint": "skill.md"`) is: an agent that loads the folder as it is finds no frontmatter;
    but not when the code of the package shipping the skill names that sidecar (`metadata.json`, `skill.json`,
    `manifest.json`, `skill.yaml`, …) and never names `.claude`: its own catalog reads the name and description
    there (simplicio_prompt's `load_skill_metadata` reads `<skill>/metadata.json`), and no agent's skills folder
    receives the skill as it is. Nor is a SKILL.md among a Python package's modules (`__init__.py` beside it) that a
    source of the package reads and serves as an MCP resource (`@mcp.resource("silk://guide")` returning its text),
    when no source names `.claude`: the package's MCP clients read it as a guide; no agent loads it as a skill. Nor is a
    SKILL.md of a package whose code writes SKILL.md files with a frontmatter block it builds from a name
    (`f"---\\nname: {skill_name}\\ndescription: …"`, prompticorn's `ensure_frontmatter`): the package emits its skills
    from sources that carry none. Nor on that of a package whose loader reads SKILL.md in a format of its own (the
    name from the `# ` title, the description from a `> ` line, metadata from a fenced ```` ```yaml ```` block:
    `line.startswith("# ")` in a source naming SKILL.md) and never names `.claude`, when the file has that shape (a
    `# ` title with a `> ` line under it, or a ```` ```yaml ```` block first): its own runtime reads it. A title alone
    gives no description, and is still reported. Nor on that of a package whose loader reads each SKILL.md whole and
    names the skill after its folder (`name = path.parent.name`, `content = path.read_text()`: flopro_nexus pastes it
    into its system prompt) when no source of the package handles a frontmatter (`frontmatter`, `---` or a YAML
    library) and none names `.claude`. Nor is a sample skill under `examples/` (`fixtures/`, `tests/`, …)
    whose opening says it is one: "This example intentionally omits YAML frontmatter so validation tests can assert
    …" (a deliberately broken input of its package's checker).

    When a frontmatter block comes a little later, after blank lines, HTML comments or license lines only
    (`<!-- mirrored from … -->` or `# SPDX-License-Identifier: CC-BY-4.0` above `---`), the finding says where it
    starts instead; when the whole file is wrapped in a
    code fence (```` ````skill ```` on line 1, the frontmatter on line 2, the closing fence last), it says so; and
    when a fence on line 1 around the frontmatter closes further down (```` ````yaml ```` … ```` ```` ```` on line
    30, a generator's stray wrapper), it names the two lines.

    ## Fix
    Inserts a frontmatter block with `name` (from the directory, or from the folder above a package's
    generic container such as `skill/` or `assets/`) and a `description` placeholder.
    The placeholder must be replaced, so the fix is a suggestion (display only). For a block that starts
    late, the fix moves the lines above it below its closing `---` (unsafe: check that the block is the
    skill's frontmatter); for a wrapped file it removes the two fence lines (unsafe, likewise); for a fence around the frontmatter
    that closes further down, line 1 and the closing line, or line 1 alone when, read without line 1, the closing
    line ends a block opened inside (```` ```bash ```` … ```` ```` ````).
    """
    if doc.frontmatter.present or doc.binary:
        return
    close = fenced_frontmatter(doc.lines)
    if close is not None:
        yield _fenced(doc, ctx, close)
        return
    late = _late_block(doc.lines)
    if late is not None:
        start, end = late  # the `---` lines that open and close the block
        lines = doc.lines
        lead = doc.text[:doc.index.starts[start]]  # the lines above, with their own line breaks (CRLF stays CRLF)
        if end + 1 < len(lines):
            after = Edit(Range(Pos(end + 1, 0), Pos(end + 1, 0)), lead)
        else:  # the closing `---` ends the file: the lines go after a break of their own kind
            brk = line_break(doc, start - 1)
            after = Edit(Range(Pos(end, len(lines[end])), Pos(end, len(lines[end]))), brk + lead[:-len(brk)])
        yield ctx.finding(
            Range(Pos(0, 0), Pos(0, len(lines[0]))),
            f"The frontmatter block starts at line {start + 1}, after other lines: SKILL.md must start with its "
            "`---` line, so agents read no frontmatter here",
            Fix.unsafe("Move the lines above the frontmatter below it", Edit(Range(Pos(0, 0), Pos(start, 0)), ""),
                       after),
        )
        return
    if _materialized(doc) or _catalog_sidecar(doc) or package_serves_resource(doc) or package_writes_frontmatter(doc) \
            or (_own_format(doc.lines) and package_reads_own_format(doc)) or sample_skill(doc) \
            or package_reads_whole(doc):
        return
    name = _folder_name(doc)
    block = f"---\nname: {name}\ndescription: Use when <describe the situations this skill is for>.\n---\n"
    first = doc.lines[0] if doc.lines else ""
    claude = ".claude" in folders_above(doc)
    yield ctx.finding(
        Range(Pos(0, 0), Pos(0, len(first))),
        "No YAML frontmatter: SKILL.md must start with a `---` line" + (
            " (Claude Code falls back to the folder name and the first paragraph; agents that follow the Agent "
            "Skills format find no skill)" if claude else ""),
        Fix.suggestion("Insert a frontmatter block", Edit(Range(Pos(0, 0), Pos(0, 0)), block)),
    )


def _fenced(doc: SkillDocument, ctx: RuleContext, close: int) -> Finding:
    """The finding for a frontmatter inside a code fence opened on line 1 and closed on line `close`: the whole file
    wrapped (the closing fence its last line), or the fence closed further down, where the fix removes the line
    below too unless, read without line 1, it closes a block opened inside (then only line 1 goes)."""
    lines = doc.lines
    first = Range(Pos(0, 0), Pos(0, len(lines[0])))
    drop_first = Edit(Range(Pos(0, 0), Pos(1, 0)), "")
    drop_close = Edit(Range(Pos(close - 1, len(lines[close - 1])), Pos(close, len(lines[close]))), "")
    if close == next(k for k in range(len(lines) - 1, 0, -1) if lines[k].strip()):
        return ctx.finding(
            first,
            f"SKILL.md is wrapped in a code fence (lines 1 and {close + 1}): agents read no frontmatter, and the "
            "whole skill is one code block; remove the two fence lines",
            Fix.unsafe("Remove the wrapping fence lines", drop_first, drop_close),
        )
    inner = closes_inner_fence(lines, 0, close)
    return ctx.finding(
        first,
        f"The frontmatter is inside a code fence (opened on line 1, closed on line {close + 1}): agents read no "
        "frontmatter; remove " + ("the fence line above it" if inner else "the two fence lines"),
        Fix.unsafe("Remove the fence line above the frontmatter", drop_first) if inner
        else Fix.unsafe("Remove the fence lines around the frontmatter", drop_first, drop_close),
    )


LATE_LINES = 20  # lines above a frontmatter block that starts late
MAX_BLOCK = 200  # lines a late block may span


def _own_format(lines: list[str]) -> bool:
    """The file has the shape a runtime's own format gives it: a fenced ```` ```yaml ```` metadata block first, or a
    `# ` title with a `> ` description line under it (a title alone gives the agent no description)."""
    body = [ln.strip() for ln in lines[:8] if ln.strip()]
    if not body:
        return False
    if body[0].startswith(("```yaml", "```yml")):
        return True
    return body[0].startswith("# ") and any(ln.startswith("> ") for ln in body[1:3])


def _license_line(s: str) -> bool:
    """A license or copyright comment (`# SPDX-License-Identifier: MIT`, `# Copyright 2025 …`)."""
    if not s.startswith("#"):
        return False
    rest = s.lstrip("#").lstrip().lower()
    return rest.startswith(("spdx-license-identifier:", "spdx-filecopyrighttext:", "copyright "))


def _late_block(lines: list[str]) -> tuple[int, int] | None:
    """(opening, closing) line of a `---` block that follows only blank lines, HTML comments and license lines,
    holding a `name:` or `description:` key, or None."""
    in_comment = False
    for i, line in enumerate(lines[:LATE_LINES]):
        s = line.strip()
        if in_comment:
            in_comment = "-->" not in s
            continue
        if not s:
            continue
        if s.startswith("<!--"):
            in_comment = "-->" not in s[4:]
            continue
        if _license_line(s):
            continue  # `# SPDX-License-Identifier: CC-BY-4.0` above the block (agent-style's skills)
        if s != "---" or i == 0:
            return None
        for j in range(i + 1, min(len(lines), i + MAX_BLOCK)):
            if lines[j].rstrip() in ("---", "..."):
                keys = lines[i + 1:j]
                if any(k.startswith(("name:", "description:")) for k in keys):
                    return i, j
                return None
        return None
    return None


def _folder_name(doc: SkillDocument) -> str:
    """The name the skill's folder gives it, made valid: the folder above a generic container (`tool/skill/`
    gives `tool`, as NAME_MISSING never offers `skill`), else `my-skill` (also when making it valid drops most
    of it: `3層モデルルーティング` would give `3`)."""
    if doc.skill_dir is None:
        return "my-skill"
    for folder in (doc.skill_dir, doc.skill_dir.parent):
        name = folder.name if NAME_RE.match(folder.name) else slugify(folder.name)
        if name and is_container(name):
            continue  # `tool/skill/`: the folder above names it
        if name and keeps_most(name, folder.name):
            return name  # (not `3` of `3層モデル…`)
        break
    return "my-skill"


# a JSON key that names the frontmatter a tool writes: `"materializedFrontmatterDigest"`, `"frontmatter": {…}`
_FRONTMATTER_KEY = lazy_compile(r'"[A-Za-z_]{0,40}frontmatter[A-Za-z_]{0,40}"\s*:', re.I)
MANIFEST_BYTES = 65536


def _materialized(doc: SkillDocument) -> bool:
    """A manifest at the skill's root says an installer writes SKILL.md's frontmatter (per host)."""
    from ...bundle import read_bundled  # (only for a skill with no frontmatter)

    for rel in doc.files.files:
        if "/" in rel or not rel.endswith(".json") or rel in doc.files.empty:
            continue
        bf = read_bundled(doc, rel)
        if bf is not None and _FRONTMATTER_KEY.search(bf.text[:MANIFEST_BYTES]) is not None:
            return True
    return False


# a manifest's name and description keys: `"name": …` / `name: …` at a line's start or after `{` / `,`
_NAME_KEY = lazy_compile(r'(?:^|[{,])\s{0,8}"?name"?\s{0,3}:', re.M)
_DESCRIPTION_KEY = lazy_compile(r'(?:^|[{,])\s{0,8}"?description"?\s{0,3}:', re.M)


def _catalog_sidecar(doc: SkillDocument) -> bool:
    """A sidecar manifest at the skill's root holds its name and description, and the shipping package's own code
    names that file (and never `.claude`): its catalog reads the skill from there."""
    from ...bundle import read_bundled  # (only for a skill with no frontmatter)

    for rel in SIDECAR_FILES:
        if not doc.files.exists(rel) or not package_names_file(doc, rel, own_runtime=True):
            continue
        bf = read_bundled(doc, rel)
        text = bf.text[:MANIFEST_BYTES] if bf is not None else ""
        if _NAME_KEY.search(text) is not None and _DESCRIPTION_KEY.search(text) is not None:
            return True
    return False
