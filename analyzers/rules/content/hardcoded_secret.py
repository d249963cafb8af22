"""HARDCODED_SECRET: an API key, token or private key written into SKILL.md."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...document import SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...rule import RuleContext, rule

# (what it is, pattern); each pattern's group 0 is the secret. Only formats with a distinctive prefix.
KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an Anthropic API key", re.compile(r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}")),
    # the part before the T3BlbkFJ marker is bounded (real keys: 20-160): unbounded, each `sk-` inside
    # one long token re-scanned the rest of it (quadratic on `sk-ant-api01-` * 50,000)
    ("an OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,300}T3BlbkFJ[A-Za-z0-9_-]{20,}")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b")),
    ("a Slack token", re.compile(r"\bxox[abprs]-[0-9]{6,}-[A-Za-z0-9-]{10,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("a Stripe live key", re.compile(r"\b[rs]k_live_[0-9A-Za-z]{20,}")),
    ("a private key", re.compile(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY( BLOCK)?-----")),
)
_PLACEHOLDER = re.compile(r"x{4,}|X{4,}|\*{3,}|\.\.\.|0{8,}|1234|example|sample|dummy|fake|your|test|redacted|placeholder",
                          re.I)
# where a credential can be: each is one str.find pass (~1 ns a character; a regex alternation costs
# ~30 ns a character), so as few and as distinctive as the formats allow
# (one per format in KINDS, so every format is looked for)
_PREFIXES = ("sk-", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza", "_live_",
             "PRIVATE KEY-")


def _candidate_offsets(text: str) -> Iterator[int]:
    for prefix in _PREFIXES:
        i = text.find(prefix)
        while i >= 0:
            yield i
            i = text.find(prefix, i + 1)


def _placeholder(secret: str) -> bool:
    return "PRIVATE KEY" not in secret and bool(_PLACEHOLDER.search(secret))


@rule("HARDCODED_SECRET", family="content", severity=Severity.ERROR)
def hardcoded_secret(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A credential (API key, access token, private key) is written into SKILL.md.

    ## What it does
    Looks through the whole file, code blocks included, for credentials with a distinctive format:
    Anthropic, OpenAI, GitHub, Slack, Google and Stripe keys, AWS access key ids and PEM private
    keys. Placeholders (`sk-ant-api03-xxxx…`, `AKIAIOSFODNN7EXAMPLE`, values with `your`, `example`,
    `test`, `...`) are not reported.

    ## Why is this bad?
    Skills are shared: copied between repositories, published in marketplaces, uploaded to Claude.
    A key in one is leaked to everyone who installs it, and every agent that loads the skill sees it.

    ## Example
    ````markdown
    ```bash
    export ANTHROPIC_API_KEY=sk-ant-api03-Qm9vYmFyYmF6cXV4Z3JhdWx0aW5nS2V5
    ```
    ````

    Use instead:
    ````markdown
    ```bash
    export ANTHROPIC_API_KEY="$(op read op://vault/anthropic/key)"   # or ask the user to set it
    ```
    ````

    ## Fix
    Remove the value, rotate the key (it has been exposed), and read it from the environment.
    """
    lines = doc.lines
    seen: set[int] = set()
    for offset in sorted(_candidate_offsets(doc.text)):  # the formats only on lines with a prefix
        ln = doc.index.pos(offset).line
        if ln in seen:
            continue
        seen.add(ln)
        line = lines[ln]
        for what, pattern in KINDS:
            if what == "an OpenAI API key" and "T3BlbkFJ" not in line:
                continue  # its marker: without it the pattern cannot match (and need not scan)
            for m in pattern.finditer(line):
                if _placeholder(m.group(0)):
                    continue
                shown = m.group(0)[:10] + "…"
                yield ctx.finding(Range(Pos(ln, m.start()), Pos(ln, m.end())),
                                  f"This looks like {what} (`{shown}`); never ship credentials in a skill")
