"""ARGUMENT_IN_CODE: a literal `$1` in code that Claude Code replaces with the skill's arguments."""

from __future__ import annotations

from collections.abc import Iterator

from ... import rx
from ...document import SkillDocument
from ...findings import Edit, Finding, Fix, Pos, Range, Severity
from ...rule import FixAvailability, RuleContext, rule
from ...targets import CLAUDE_CODE
from ._arguments import ARGUMENTS, POSITIONAL, accepts_arguments, code_texts, prose_placeholders

# code where `$1` can only be literal: inside an awk program or a regex replacement (quoted), or anywhere in a
# shell function or script that reads its own positional parameters
_QUOTED_CONTEXT = rx.compile(r"\bawk\b|\{\s*print\b|\$NF\b|\bsed\b|\.replace(?:All)?\(|\bre\.sub\b|\bgsub\b")
_SCRIPT_CONTEXT = rx.compile(r"\$\{?[#@*]\}?|\bshift\b|\bfunction\b|\(\)\s*\{")


def _literal_starts(text: str, starts: list[int]) -> set[int]:
    """The `$N` positions among `starts` (ascending) that can only be code: any on a shell function/script
    line, or those inside '…' / "…" (counted from the line start, escapes ignored) on a line of awk / sed /
    replace code, after the awk / sed / replace that makes them a program. One pass over the line, however many `$N`
    it holds."""
    if _SCRIPT_CONTEXT.search(text):
        return set(starts)
    ctx = _QUOTED_CONTEXT.search(text) if starts else None
    if ctx is None:
        return set()
    out: set[int] = set()
    single = double = False
    at = 0
    for pos in starts:
        for ch in text[at:pos]:
            if ch == "'" and not double:
                single = not single
            elif ch == '"' and not single:
                double = not double
        at = pos
        # (only after the awk / sed / replace: in `'$0'.toLowerCase().replace(/\s+/g, '-')` the quoted `$0` is the
        # string replace is called on, the author's placeholder)
        if (single or double) and pos > ctx.start():
            out.add(pos)
    return out


@rule("ARGUMENT_IN_CODE", family="claude-code", severity=Severity.WARNING, fix=FixAvailability.ALWAYS,
      targets=(CLAUDE_CODE,))
def argument_in_code(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """Code in a skill contains `$0`…`$9`, which Claude Code replaces with the invocation's arguments.

    ## What it does
    Flags `$0`…`$9` written in code (code blocks and inline code) where they are code, not the
    author's placeholder:

    - in any skill, `$N` in code that cannot be a placeholder: inside the quoted program of `awk`
      (`awk '{print $1}'`) or the quoted pattern of `sed` / `replace` (after them on the line: in
      `'$0'.toLowerCase().replace(/\\s+/g, '-')` the quoted `$0` is the author's placeholder that replace is
      called on), and anywhere on a line of a
      shell function or script that reads its own parameters (`f() {`, `$@`, `$#`, `shift`). Every
      skill can be invoked with arguments: the user types `/name some words`, and the model passes
      arguments through the Skill tool;
    - in a skill that *takes arguments* (its frontmatter has `argument-hint` or `arguments`, or its
      body uses `$ARGUMENTS` / `$ARGUMENTS[N]`, Claude Code's own syntax, meaningless elsewhere)
      and never uses a positional placeholder in prose (`Migrate the $0 component`) or as a bare
      inline placeholder (`` `$0` ``), every `$N` in code: there it is code (awk fields, shell
      parameters, regex groups, prices such as `$0.05`);
    - inside a fenced example of a skill or command file (a block with `argument-hint:` or
      `allowed-tools:` lines) of a skill that takes arguments, `$ARGUMENTS`, `$ARGUMENTS[N]` and
      `$N` too: they document the syntax, they are not this skill's placeholders.

    Claude Code's pattern is `$` + digits not followed by a letter, digit or `_`, so `$1a` and
    `${1}` are safe and `$0.05` is not. Escaped (`\\$1`) and multi-digit (`$12`, argument 13) forms
    are not flagged.

    ## Why is this bad?
    Claude Code substitutes its argument placeholders everywhere in SKILL.md, inside fenced and
    inline code too, and `$N` is 0-based (`$0` is the first argument). Invoked as `/name a b`,
    `awk '{print $1}'` reaches the model as `awk '{print b}'`: a plausible, wrong command, while the
    file on disk looks right. The damage depends on each invocation's arguments.

    ## Known problems
    In a skill that does not take arguments, `$N` in code outside the contexts above (a price in
    inline code, `git log -$1`) is not flagged, to stay precise. `$ARGUMENTS` in ordinary code is
    taken as the author's placeholder.

    ## Example
    ```markdown
    ---
    name: top-files
    description: Lists the largest files. Use when the user asks what takes space in a folder.
    argument-hint: "[folder]"
    ---

    Run `du -a $ARGUMENTS | sort -n | awk '{print $2}' | tail`.
    ```

    Use instead:
    ```markdown
    ---
    name: top-files
    description: Lists the largest files. Use when the user asks what takes space in a folder.
    argument-hint: "[folder]"
    ---

    Run `du -a $ARGUMENTS | sort -n | awk '{print \\$2}' | tail`.
    ```

    ## Fix
    Puts a backslash before the `$` (`\\$2`), which Claude Code removes when it loads the skill, so
    the model sees `$2` with or without arguments. Sources: an answer on
    anthropics/claude-code#94709 cites the skills page ("Available string substitutions") for the
    backslash; it was measured on Claude Code 2.1.251 (melodic-software/claude-code-plugins#3540)
    and is what published fixes use (bradfeld/ceos#29). The skills page itself could not be read
    when this rule was written (2026-11-23).

    ## Fix safety
    Unsafe: for code meant literally, which is what the rule looks for, the model then sees the
    text as written; where `$N` was meant as a placeholder after all, the escape turns the
    substitution off. The finding says which argument Claude Code would put there.
    """
    why = accepts_arguments(doc)
    uses_positional = prose_placeholders(doc)[1] if why is not None else True
    when = (f"the skill takes arguments, per {why}" if why is not None else
            "as `/name …` or through the model's Skill tool, even without `argument-hint`")
    for ct in code_texts(doc):
        everything = why is not None and (ct.example or not uses_positional)
        hits = list(POSITIONAL.finditer(ct.text))
        if not everything:
            literal = _literal_starts(ct.text, [m.start() for m in hits])
            hits = [m for m in hits if m.start() in literal]
        if ct.example and why is not None:
            hits += list(ARGUMENTS.finditer(ct.text))
        for m in sorted(hits, key=lambda m: m.start()):
            col = ct.column + m.start()
            rng = Range(Pos(ct.line, col), Pos(ct.line, ct.column + m.end()))
            token = m.group(0)
            what = (f"argument {int(token[1:]) + 1}" if m.re is POSITIONAL else "the arguments")
            yield ctx.finding(
                rng,
                f"Claude Code replaces `{token}` in this code with {what} when the skill is invoked with "
                f"arguments ({when}); escape it as `\\{token}`",
                Fix.unsafe(f"Escape as `\\{token}`", Edit(Range(rng.start, rng.start), "\\")),
            )
