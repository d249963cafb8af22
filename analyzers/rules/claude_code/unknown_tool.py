"""UNKNOWN_TOOL: an `allowed-tools` entry names a tool Claude Code does not have."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ... import rx
from ...claude_code import data
from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import FixAvailability, RuleContext, rule
from ...targets import CLAUDE_CODE
from ._fields import tool_entries

MCP = lazy_compile(r"^mcp__[A-Za-z0-9_.*-]+$")  # mcp__server, mcp__server__tool, mcp__server__*
# `read_file`, `fs.read`, `skill.read_file` (monoid's, loro's tool ids): no Claude Code tool is written so
_SNAKE = lazy_compile(r"[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+")
_LOWER = rx.compile(r"[a-z][a-z0-9_.]*")  # `bash` beside `read_file`: the same agent's one-word tool


@rule("UNKNOWN_TOOL", family="claude-code", severity=Severity.WARNING, fix=FixAvailability.SOMETIMES,
      targets=(CLAUDE_CODE,))
def unknown_tool(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """`allowed-tools` names a tool that Claude Code does not have.

    ## What it does
    Reads `allowed-tools` (space- or comma-separated text, or a list) and checks each tool name,
    the part before any `(…)`, against Claude Code's tool names (`Read`, `Grep`, `Bash`, `WebFetch`,
    `Agent`, `Skill`, … and the older names it still accepts, such as `Task` and `LS`). MCP tools
    (`mcp__server`, `mcp__server__tool`) are accepted as written. The list lives in
    `analyzers/data/claude_code.json`, with the page and date it comes from. A list whose entries are
    all in lower case, at least one snake_case or dotted or no Claude Code tool in any case (`read_file, bash,
    make_directory`, `fs.read text.search`, `read grep glob exec`, a lone `canon_runtime_control`), names another agent's own tools (Claude Code
    writes none so; an installer may translate them): the skill is written for that agent, and nothing is
    reported; so is a lower-case list beside a `permissions:` mapping (`deny: [edit]`), a key Claude Code's
    skills do not have (it keeps permissions in its settings): an installer's template that translates the
    names for each client (koolie). A lower-case list of Claude Code's own names (`read, grep, bash`) alone is
    still reported. A list that spells a tool both ways (`bash` beside `Bash`) is shared by several agents, each
    reading its own names (an installer copies the skill to Codex, Crush and Claude Code alike): its lower-case
    entries (`bash`, `execute_command`) are the other agents' tools and are not reported; other entries still are.

    ## Why is this bad?
    Tool names are exact, case-sensitive strings. An entry such as `List`, `bash` or `WebSearchTool`
    pre-approves nothing, so the skill stops for a permission prompt on the tool the author meant
    to allow.

    ## Example
    ```markdown
    ---
    name: repo-stats
    description: Counts lines of code per language. Use when the user asks how big a repository is.
    allowed-tools: read List Bash(cloc:*)
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: repo-stats
    description: Counts lines of code per language. Use when the user asks how big a repository is.
    allowed-tools: Read Glob Bash(cloc:*)
    ---
    ```

    ## Fix
    A known tool written in another case (`read`) or a near miss (`WebFetchTool`) is renamed
    (unsafe).

    ## Fix safety
    The rename makes the entry pre-approve a tool it did not approve before; check that this is
    the tool meant.
    """
    fld = doc.frontmatter.get("allowed-tools") if doc.frontmatter.ok else None
    if fld is None:
        return
    d = data()
    names = sorted(d.tools)
    by_lower = {n.lower(): n for n in names}
    entries = list(tool_entries(doc, fld))
    if entries and all(_LOWER.fullmatch(e.name) for e, _ in entries) and (any(
            _SNAKE.fullmatch(e.name) or e.name not in by_lower for e, _ in entries) or _own_permissions(doc)):
        return  # `read_file, bash` or `read grep exec`: another agent's own tool names (zeer, koolie), not typos
    written = {e.name for e, _ in entries}
    # `bash` beside `Bash`: a list shared by several agents, each spelling its own (an installer copies the skill to
    # Codex, Crush and Claude Code alike); its lower-case entries (`bash`, `execute_command`) are the others' tools
    shared = any(_LOWER.fullmatch(n) and by_lower.get(n) in written for n in written)
    close_memo: dict[str, str | None] = {}
    for entry, rng in entries:
        name = entry.name
        if name in d.tools or MCP.match(name) or not name or shared and _LOWER.fullmatch(name):
            continue
        name_rng = Range(rng.start, Pos(rng.start.line, rng.start.character + len(name))) \
            if rng.start.line == rng.end.line else rng
        guess = by_lower.get(name.lower())
        if guess is None:
            if name not in close_memo:  # (one look per distinct name: `&a &a …` repeats one 10^4 times)
                close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
                close_memo[name] = close[0] if close else None
            guess = close_memo[name]
        if guess is not None:
            yield ctx.finding(name_rng, f"Claude Code has no tool `{name}`; did you mean `{guess}`?",
                              Fix.unsafe(f"Rename to `{guess}`", Edit(name_rng, guess)))
        else:
            yield ctx.finding(name_rng, f"Claude Code has no tool `{name}`; `allowed-tools` entries are exact, "
                              "case-sensitive tool names")


def _own_permissions(doc: SkillDocument) -> bool:
    """The frontmatter has a `permissions:` mapping (`deny: [edit]`): another tool's schema, which Claude Code's
    skill frontmatter does not define."""
    data = doc.frontmatter.data
    return isinstance(data, dict) and isinstance(data.get("permissions"), dict)
