"""INVISIBLE_UNICODE: bidi controls, zero-width or tag characters hidden in SKILL.md or a bundled text file."""

from __future__ import annotations

from collections.abc import Iterator

from ... import rx
from ...bundle import BundledFile, bundled_text_files, suffix
from ...document import LineIndex, SkillDocument
from ...findings import Edit, Finding, Fix, Range, Severity
from ...rule import FixAvailability, RuleContext, rule

# one character class, no nesting: a linear scan (runs of adjacent characters are one finding)
_INVISIBLE = rx.compile(
    "[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]+"
)
# one character, no repetition: a search with it is twice as fast as with _INVISIBLE (most texts have none)
_ANY_INVISIBLE = rx.compile(_INVISIBLE.pattern[:-1])
_ASCII_BYTES = bytes(range(128))


def has_invisible(text: str) -> bool:
    """Whether the text holds any of the characters (ordinary or not), cheaply: every one is non-ASCII, so
    only the text's non-ASCII characters are searched (UTF-8 without its ASCII bytes is still UTF-8,
    the same characters in the same order; encoding and deleting run at C speed, and a regex search
    costs ~7 ns a character: here it reads the few non-ASCII characters of a typical text)."""
    if text.isascii():
        return False
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    return _ANY_INVISIBLE.search(rest.decode("utf-8", "surrogatepass")) is not None
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: part of writing in Arabic, Persian, Indic scripts, emoji
_MARKS = frozenset("\u200e\u200f\u061c")  # LRM, RLM, ALM: part of writing right-to-left text
MAX_PER_FILE = 50  # findings per file; the last one counts the rest
# files where a removed character may have been meant (a string literal that strips ZWSP, test data)
_TEXT_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".txt", ".rst", ""})

_NAMES = {
    0x061C: "ARABIC LETTER MARK", 0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER",
    0x200D: "ZERO WIDTH JOINER", 0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK",
    0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
    0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2060: "WORD JOINER",
    0x2061: "FUNCTION APPLICATION", 0x2062: "INVISIBLE TIMES", 0x2063: "INVISIBLE SEPARATOR",
    0x2064: "INVISIBLE PLUS", 0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE",
    0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}


def _emoji(ch: str) -> bool:
    """A character that takes part in an emoji sequence (pictographs, variation selector 16, skin tones)."""
    o = ord(ch)
    return (0x1F000 <= o <= 0x1FAFF or 0x2190 <= o <= 0x21FF or 0x2300 <= o <= 0x23FF
            or 0x2600 <= o <= 0x27BF or 0x2B00 <= o <= 0x2BFF or o in (0xFE0F, 0x20E3, 0x00A9, 0x00AE, 0x2122))


def _joining_script(ch: str) -> bool:
    """A letter or mark of a script written with joiners and direction marks (Hebrew to Myanmar, Arabic
    presentation forms, Indic extensions): ZWNJ/ZWJ/LRM/RLM are ordinary there."""
    o = ord(ch)
    return 0x0590 <= o <= 0x109F or 0xA800 <= o <= 0xABFF or 0xFB1D <= o <= 0xFDFF or 0xFE70 <= o <= 0xFEFC


def _flag_tags(text: str, a: int, b: int) -> bool:
    """An emoji tag sequence: U+1F3F4 WAVING BLACK FLAG, tag letters/digits, U+E007F CANCEL TAG
    (the flags of England, Scotland, Wales)."""
    if a == 0 or text[a - 1] != "\U0001f3f4" or text[b - 1] != "\U000e007f" or b - a < 2:
        return False
    return all(0xE0030 <= ord(c) <= 0xE0039 or 0xE0061 <= ord(c) <= 0xE007A for c in text[a:b - 1])


def _legitimate(text: str, a: int, b: int) -> bool:
    """A run that is part of ordinary writing: a joiner inside an emoji sequence or between letters of
    a joining script, a direction mark next to right-to-left text, a flag's tag sequence."""
    if _flag_tags(text, a, b):
        return True
    if b - a != 1:
        return False
    ch = text[a]
    before = text[a - 1] if a > 0 else ""
    after = text[b] if b < len(text) else ""
    if ch == "\u200b" and before == "[" and text.startswith("](", b):
        return True  # `[\u200b](#install "Direct link to Install")`: a docs site's heading permalink, scraped
    if ch == "\u200d" and before and after and _emoji(before) and _emoji(after):
        return True
    if ch in _JOINERS and before and after and _joining_script(before) and _joining_script(after):
        return True
    return ch in _MARKS and (bool(before) and _joining_script(before) or bool(after) and _joining_script(after))


def _describe(run: str) -> str:
    kinds = set(run)  # C speed on a run of any length
    if all(0xE0000 <= ord(c) <= 0xE007F for c in kinds):
        hidden = "".join(chr(ord(c) - 0xE0000) for c in run[:200] if 0x20 <= ord(c) - 0xE0000 < 0x7F)
        shown = hidden if len(hidden) <= 60 else hidden[:59] + "…"
        return (f"{len(run)} invisible tag character{'s' if len(run) > 1 else ''} hide the text `{shown}`"
                if hidden else f"{len(run)} invisible tag characters")
    ordered = sorted(kinds, key=run.index) if len(kinds) <= 3 else sorted(kinds)
    names = ", ".join(f"U+{ord(c):04X} {_NAMES.get(ord(c), 'TAG CHARACTER')}" for c in ordered[:3])
    if len(kinds) > 3:
        names += ", …"
    what = "Bidirectional control" if kinds & _BIDI else "Invisible character"
    if len(run) > 1:
        what = f"{len(run)} invisible characters"
    return f"{what} ({names})"


def _why(run: str) -> str:
    if set(run) & _BIDI:
        return "text can display in a different order from what the agent reads"
    return "the agent reads text that nobody reviewing the skill can see"


MAX_EXAMINED = 10_000  # runs looked at per file (ordinary emoji joiners included): bounds a hostile file


def scan_invisible(text: str) -> tuple[list[tuple[int, int]], bool]:
    """(start, end) offsets of the runs of invisible characters that are not ordinary writing, and
    whether the file has more runs than were examined."""
    out: list[tuple[int, int]] = []
    if not has_invisible(text):
        return out, False
    for k, m in enumerate(_INVISIBLE.finditer(text)):
        if k == MAX_EXAMINED:
            return out, True
        if not _legitimate(text, m.start(), m.end()):
            out.append((m.start(), m.end()))
    return out, False


@rule("INVISIBLE_UNICODE", family="content", severity=Severity.WARNING, fix=FixAvailability.ALWAYS)
def invisible_unicode(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """Invisible Unicode (bidi controls, zero-width or tag characters) is hidden in the skill's text.

    ## What it does
    Looks through SKILL.md and every bundled text file (a finding in a bundled file is reported on
    that file) for characters that render as nothing but are read by the agent:

    - bidirectional controls: U+202A–U+202E (embeddings, overrides), U+2066–U+2069 (isolates),
      U+200E/U+200F (LRM/RLM), U+061C (ALM), the characters of "Trojan Source" attacks;
    - zero-width and invisible characters: U+200B–U+200D, U+2060–U+2064, and U+FEFF anywhere but at
      the start of a file (a byte order mark there is `UTF8_BOM`'s business in SKILL.md, and ignored
      in bundled files);
    - tag characters U+E0000–U+E007F, which can spell out a whole hidden instruction ("ASCII
      smuggling"); the message decodes it.

    Adjacent characters are one finding, with the exact range. Not reported, because they are part
    of ordinary writing: a zero width joiner between two emoji (woman + ZWJ + laptop is the
    technologist emoji; with or without U+FE0F, which is not reported either), ZWJ/ZWNJ between two letters of Arabic, Hebrew, Indic and other
    scripts that use them, LRM/RLM/ALM next to right-to-left text, and the tag sequence of a flag
    emoji (U+1F3F4 + tag letters + CANCEL TAG), and a zero width space that is the whole text of a link
    (`[U+200B](#install "Direct link to Install")`: the heading permalink a docs site such as Docusaurus renders, kept
    by a page scraped to markdown; it hides nothing). In a minified bundle (a `.min.js` / `.css` file, or a
    `.js` / `.css` file with a line of 2,000 characters or more) only bidi controls and tag characters are
    reported: its libraries' strings hold zero-width spaces on purpose, the agent does not read it, and
    nobody edits it by hand. The soft hyphen U+00AD is not reported: it is visible
    where it breaks a line and hides no text. At most 50 findings per file; the last counts the rest.

    ## Why is this bad?
    The agent reads every character; reviewers and marketplace curators read what the editor shows.
    Invisible characters can carry instructions nobody approved, a bidi override can make
    `rm -rf ~/ #safe` display as something harmless, and a zero-width space inside a command or a
    path breaks it while looking right.

    ## Example
    ```text
    Run the cleanup script:<U+202E> ; rm -rf ~/tmp
    Use the <U+200B>`deploy` command.
    ```

    Use instead:
    ```text
    Run the cleanup script: rm -rf ~/tmp
    Use the `deploy` command.
    ```

    ## Fix
    Removes the characters; inside a string literal of a Python, JavaScript, TypeScript or JSON file
    (`text.lstrip("\ufeff")` written with the character itself) writes them as escapes instead
    (`\ufeff`), which keeps what the code does and makes the character visible.

    ## Fix safety
    Safe in SKILL.md and in markdown and plain-text files: the characters carry no visible meaning
    there, except on a line that removing them leaves a bare fence (```` ``` ````, a zero-width space an author put
    before an inner fence so it would not close the ```` ```markdown ```` block around it): unsafe there. Unsafe in scripts, code and data files, where a literal invisible character may be meant
    (a string that strips zero-width spaces, test data): review the change.
    """
    if has_invisible(doc.text):
        yield from _findings(ctx, doc.text, doc.index, None, safe=True, root=doc)
    for bf in bundled_text_files(doc):
        if not has_invisible(bf.text):
            continue  # most files: one scan, no line index
        yield from _findings(ctx, bf.text, bf.index, bf, safe=suffix(bf.rel) in _TEXT_SUFFIXES, root=doc)


# code whose string literals read `\uXXXX` as the character (Python, JavaScript, TypeScript, JSON)
_ESCAPING_SUFFIXES = frozenset({".py", ".js", ".mjs", ".cjs", ".ts", ".json"})


def _as_escapes(text: str, a: int, b: int) -> str | None:
    """`\ufeff…` for the run text[a:b] when it sits inside a quoted string on its line (a literal the
    code means: `text.lstrip("\ufeff")` written with the character itself), else None."""
    run = text[a:b]
    if any(ord(c) > 0xFFFF for c in run):
        return None  # (no escape all these languages share)
    start = text.rfind("\n", 0, a) + 1
    end = text.find("\n", b)
    before, after = text[start:a], text[b:end if end >= 0 else len(text)]
    for q in ("\"", "'", "`"):
        if before.count(q) % 2 == 1 and q in after:
            return "".join(f"\\u{ord(c):04x}" for c in run)
    return None


MINIFIED_LINE = 2000  # a code file with a line this long is built output (a bundle), not written by hand
_BUILT_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".css"})


def _minified(rel: str, text: str) -> bool:
    """A minified bundle (`dashboard/assets/index-Dy_lyfkJ.js`): a `.min.` name or a line of MINIFIED_LINE
    characters or more. Its libraries' strings hold zero-width characters on purpose (a line-break point in
    a price range), the agent does not read it, and nobody can fix it by hand."""
    if suffix(rel) not in _BUILT_SUFFIXES:
        return False
    return ".min." in rel or any(len(line) >= MINIFIED_LINE for line in text.split("\n"))


def _attack(run: str) -> bool:
    """Bidi controls or tag characters: what a Trojan Source or ASCII-smuggling attack is made of."""
    return any(c in _BIDI or "\U000e0000" <= c <= "\U000e007f" for c in run)


def _findings(ctx: RuleContext, text: str, index: LineIndex, bf: BundledFile | None, *, safe: bool,
              root: SkillDocument) -> Iterator[Finding]:
    runs, truncated = scan_invisible(text)
    if bf is not None and runs and _minified(bf.rel, text):
        runs = [(a, b) for a, b in runs if _attack(text[a:b])]  # only what an attack is made of
    path = None  # SKILL.md itself
    if bf is not None:  # the bundled file on disk (its relative path for a buffer with no folder)
        path = str(root.skill_dir / bf.rel) if root.skill_dir is not None else bf.rel
    for i, (a, b) in enumerate(runs[:MAX_PER_FILE]):
        rng = Range(index.pos(a), index.pos(b))
        run = text[a:b]
        msg = f"{_describe(run)}: {_why(run)}"
        if i == MAX_PER_FILE - 1 and (len(runs) > MAX_PER_FILE or truncated):
            msg += f" ({len(runs) - MAX_PER_FILE}{' or more' if truncated else ''} more in this file)"
        escaped = _as_escapes(text, a, b) if bf is not None and suffix(bf.rel) in _ESCAPING_SUFFIXES else None
        if escaped is not None:  # in a string literal of code: keep the character, make it visible
            fix = Fix.unsafe(f"Write it as an escape ({escaped})", Edit(rng, escaped, path))
        else:
            edit = Edit(rng, "", path)
            title = f"Remove the invisible character{'s' if b - a > 1 else ''}"
            if safe and _bares_fence(text, a, b):  # `\u200b```` escaping an inner fence of a ```` ```markdown ```` block
                fix = Fix.unsafe(f"{title} (the line becomes a bare fence, which may close the block around it)", edit)
            else:
                fix = Fix.safe(title, edit) if safe else Fix.unsafe(title, edit)
        yield ctx.finding(rng, msg, fix, file=bf.rel if bf is not None else None)


def _bares_fence(text: str, a: int, b: int) -> bool:
    """Removing text[a:b] leaves its line a bare fence (```` ``` ````, also in a list item or a quote, as the code
    rules read fences): a zero-width space an author put there so the fence would not close the block that holds
    it; without it, it closes that block."""
    from ..code._helpers import fence_line  # (asked only of an invisible character in markdown)

    start = text.rfind("\n", 0, a) + 1
    end = text.find("\n", b)
    f = fence_line((text[start:a] + text[b:end if end >= 0 else len(text)]).rstrip("\r"))
    return f is not None and not f.info
