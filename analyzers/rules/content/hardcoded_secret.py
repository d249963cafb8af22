"""HARDCODED_SECRET: an API key, token or private key written into SKILL.md or a bundled text file."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from ... import rx
from ...bundle import BundledFile, bundled_text_files
from ...document import SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import RuleContext, rule

# (what it is, the literals it cannot occur without, pattern); each pattern's group 0 is the secret. Only
# formats with a distinctive prefix. A pattern runs only on lines holding one of its prefixes (a regex
# costs ~50 ns a character even when nothing matches; `in` costs ~1).
KINDS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("an Anthropic API key", ("sk-ant-",), rx.compile(r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}")),
    # the whole token; _openai() then looks for the T3BlbkFJ marker inside it (a regex with the marker
    # between two runs of the same class backtracks quadratically on a line of `sk-sk-sk-…`)
    ("an OpenAI API key", ("T3BlbkFJ",), lazy_compile(r"\bsk-[A-Za-z0-9_-]{20,}")),
    ("an AWS access key id", ("AKIA", "ASIA"), lazy_compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a GitHub token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     rx.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b")),
    ("a Slack token", ("xox",), rx.compile(r"\bxox[abprs]-[0-9]{6,}-[A-Za-z0-9-]{10,}")),
    ("a Google API key", ("AIza",), lazy_compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("a Stripe live key", ("_live_",), rx.compile(r"\b[rs]k_live_[0-9A-Za-z]{20,}")),
    # another service's live key in Stripe's style (`pb_live_…`, PostBridge; held-out set 45d); _random() asks for
    # digits and both cases after `_live_`; a publishable `pk_live_` key is meant to be public
    ("a live API key", ("_live_",), rx.compile(r"\b(?![rsp]k_)[a-z]{2,4}_live_[0-9A-Za-z]{20,}")),
    # `BSA` and ~28 random characters (held-out set 35d: a live key in a Hermes skill); _random() then asks for
    # digits and both cases in the rest, so an upper-case word such as `BSAFETYCHECKLIST…` is not one
    ("a Brave Search API key", ("BSA",), lazy_compile(r"\bBSA[A-Za-z0-9_-]{24,40}\b")),
    ("a private key", ("PRIVATE KEY-",),
     lazy_compile(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY( BLOCK)?-----")),
)
_PLACEHOLDER = lazy_compile(r"x{4,}|X{4,}|\*{3,}|\.\.\.|0{8,}|1234|example|sample|dummy|fake|your|test|redacted|placeholder",
                          re.I)
MAX_SECRET = 400  # the longest formats (OpenAI project keys, GitHub fine-grained tokens) are under 200
# where a credential can be: each is one pass over the text, as few and as distinctive as the formats
# allow (every format's prefixes, so every format is looked for). A literal is a str.find (~1 ns a
# character); prefixes that share their first letters are one regex with that literal prefix, which
# re scans for as fast as str.find does for one of them (`gh[pousr]_` is one pass, not five). A longer literal is
# cheaper: str.find skips ahead by its length (`sk-`, in every "task-" and "risk-", cost twice `sk-ant-` and
# `T3BlbkFJ` together, the marker every OpenAI key holds: _openai() asks for it)
_FINDERS: tuple[str | re.Pattern[str], ...] = (
    "sk-ant-", "T3BlbkFJ", rx.compile(r"A(?:KIA|SIA|Iza)"), rx.compile(r"gh[pousr]_"), "github_pat_", "xox", "_live_",
    "PRIVATE KEY-", "BSA",
)


def _candidate_offsets(text: str) -> Iterator[int]:
    """The first offset of each prefix on each line that has it (one pass per finder)."""
    cr = "\r" in text
    for finder in _FINDERS:
        if isinstance(finder, str):
            i = text.find(finder)
        else:
            m = finder.search(text)
            i = m.start() if m is not None else -1
        while i >= 0:
            yield i
            nl = text.find("\n", i)
            if cr:
                r = text.find("\r", i)
                nl = r if nl < 0 or 0 <= r < nl else nl
            if nl < 0:
                break
            if isinstance(finder, str):
                i = text.find(finder, nl + 1)
            else:
                m = finder.search(text, nl + 1)
                i = m.start() if m is not None else -1


def _placeholder(secret: str) -> bool:
    """A placeholder, or a run far longer than any credential format (a blob, not a key)."""
    return "PRIVATE KEY" not in secret and (len(secret) > MAX_SECRET or bool(_PLACEHOLDER.search(secret))
                                            or _made_up(secret))


SEQUENCE_RUN = 6  # consecutive ascending characters (`ABCDEF`, `TUVWXY`, `345678`) in a key: typed, not generated


def _made_up(secret: str) -> bool:
    """The key holds SEQUENCE_RUN characters in alphabet or digit order (`AKIA0000TUVWXY3BCDEF`) or one
    character SEQUENCE_RUN times (`AKIAYYYYYYYYYYYYYYYY`): a made-up example. A random key of 100 letters
    and digits has such a run about once in 500,000 keys."""
    run = same = 1
    for a, b in zip(secret, secret[1:], strict=False):
        if not (a.isalnum() and b.isalnum()):
            run = same = 1
            continue
        run = run + 1 if ord(b) == ord(a) + 1 else 1
        same = same + 1 if b == a else 1
        if run >= SEQUENCE_RUN or same >= SEQUENCE_RUN:
            return True
    return False


_BASE64_RUN = lazy_compile(r"[A-Za-z0-9+/]{40,}={0,2}")
KEY_BODY_LINES = 60  # a 4096-bit RSA key is ~50 lines of base64
KEY_LINE_CHARS = 8192  # of the header's own line (a `\\n`-joined key in JSON is ~1.7k-3.3k characters)


def _key_material(rest: str, lines: list[str], ln: int) -> bool:
    """After a `-----BEGIN … PRIVATE KEY-----` header: real base64 key material before `-----END`, on the
    lines below or on the header's own line (`\\n`-joined, as in JSON). A header alone, or a body of
    `...`, `<key>`, `xxxx`, is an illustration of the format, not a leaked key."""
    head = rest[:KEY_LINE_CHARS]
    if "-----END" in head:  # the whole key on the header's line (JSON): the lines below are not its body
        chunks = head[: head.find("-----END")].split("\\n")
    else:
        chunks = head.split("\\n")
        for nxt in lines[ln + 1: ln + 1 + KEY_BODY_LINES]:
            if "-----BEGIN" in nxt:
                break  # another header: this one had no body
            if "-----END" in nxt:
                chunks.append(nxt[: nxt.find("-----END")])
                break
            chunks.append(nxt)
    return any(not _PLACEHOLDER.search(run) for c in chunks for run in _BASE64_RUN.findall(c))


def _openai(token: str) -> bool:
    """An OpenAI key: `sk-` (`proj-`, `svcacct-` included), 20+ characters, `T3BlbkFJ`, 20+ characters."""
    i = token.find("T3BlbkFJ", 23)
    while i >= 0:
        if len(token) - i - 8 >= 20:
            return True
        i = token.find("T3BlbkFJ", i + 1)
    return False


def _random(rest: str) -> bool:
    """Digits, lower-case and upper-case letters all in `rest`: generated, not a word."""
    return any(c.isdigit() for c in rest) and any(c.islower() for c in rest) and any(c.isupper() for c in rest)


def scan_secrets(source: SkillDocument | BundledFile) -> Iterator[tuple[Range, str, str]]:
    """(range, what it is, the secret) for every credential in a file's text."""
    text = source.text
    offsets = sorted(_candidate_offsets(text))
    if not offsets:
        return  # the line index of a bundled file is built only when needed
    index = source.index
    lines, starts = index.lines, index.starts
    k = 0
    while k < len(offsets):  # the formats only on lines with a prefix, each such line once
        ln = index.pos(offsets[k]).line
        k = bisect_left(offsets, starts[ln + 1] if ln + 1 < len(starts) else len(text) + 1, k)
        line = lines[ln]
        material = None
        for what, prefixes, pattern in KINDS:
            if not any(p in line for p in prefixes):
                continue
            for m in pattern.finditer(line):
                secret = m.group(0)
                if _placeholder(secret) or what == "an OpenAI API key" and not _openai(secret):
                    continue
                if what == "a Brave Search API key" and not _random(secret[3:]) or \
                        what == "a live API key" and not _random(secret[secret.find("_live_") + 6:]):
                    continue
                if what == "a private key":
                    if material is None:  # once per line: every header on it shares the lines below
                        material = _key_material(line[m.end():], lines, ln)
                    if not material:
                        continue
                yield Range(Pos(ln, m.start()), Pos(ln, m.end())), what, secret


@rule("HARDCODED_SECRET", family="content", severity=Severity.ERROR)
def hardcoded_secret(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A credential (API key, access token, private key) is written into SKILL.md or a bundled file.

    ## What it does
    Looks through the whole of SKILL.md and of every bundled text file (scripts, references,
    configs; a finding in a bundled file is reported on that file), code blocks included, for
    credentials with a distinctive format: Anthropic, OpenAI, GitHub, Slack, Google, Stripe and Brave Search keys, other
    services' live keys in Stripe's style (`pb_live_` and 20 or more random letters and digits; not a publishable
    `pk_live_` key), AWS access key ids and PEM private
    keys (a private key only with a base64 body: a header over `...` shows the format). Placeholders (`sk-ant-api03-xxxx…`, `AKIAIOSFODNN7EXAMPLE`, values with `your`, `example`,
    `test`, `...`, six characters in alphabet or digit order: `AKIA0000TUVWXY3BCDEF`, one character six times:
    `AKIAYYYYYYYYYYYYYYYY`) are not reported.

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
    for rng, what, secret in scan_secrets(doc):
        yield ctx.finding(rng, _message(what, secret))
    for bf in bundled_text_files(doc):
        for rng, what, secret in scan_secrets(bf):
            yield ctx.finding(rng, _message(what, secret), file=bf.rel)


def _message(what: str, secret: str) -> str:
    return f"This looks like {what} (`{secret[:10]}…`); never ship credentials in a skill"
