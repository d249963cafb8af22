"""Script sources with comments and string contents blanked (offsets kept), for Python, shell and JavaScript.

One pass: a regex finds the next comment or string opener, the string's end is found with a single
anchored match (or str.find), and scanning resumes after it, so every character is looked at a
constant number of times. An unterminated string or comment runs to the end of its line (one-line
strings) or of the file. Good enough to tell `input(` the call from `"input("` the text and
`# input()` the comment; it is not a full tokenizer (regex literals in JavaScript, nested `${}` in
template strings and shell `$(...)` inside double quotes are treated as plain text or string).
"""

from __future__ import annotations

import re

from ... import rx
from ...lazy_re import lazy_compile

PY, SH, JS, PS = "python", "shell", "javascript", "powershell"

_LANG_BY_SUFFIX = {
    ".py": PY, ".sh": SH, ".bash": SH, ".zsh": SH, ".js": JS, ".mjs": JS, ".cjs": JS, ".ts": JS, ".tsx": JS,
    ".jsx": JS, ".ps1": PS,
}


def language(rel: str, text: str) -> str | None:
    """The script language from the file suffix, else from a `#!` line."""
    base = rel.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    lang = _LANG_BY_SUFFIX.get(base[dot:].lower()) if dot > 0 else None
    if lang is not None or dot > 0:
        return lang
    if text.startswith("#!"):
        first = text[:200].split("\n", 1)[0]
        if "python" in first:
            return PY
        if "node" in first or "deno" in first or "bun" in first:
            return JS
        if re.search(r"\b(?:ba|z|da|k)?sh\b", first):
            return SH
    return None


_PY_START = rx.compile(r"#|[rRbBuUfF]{0,2}(?:'''|\"\"\"|'|\")")
_PY_END = {
    "'''": lazy_compile(r"(?:[^'\\]|\\[\s\S]|'(?!''))*'''"),
    '"""': rx.compile(r'(?:[^"\\]|\\[\s\S]|"(?!""))*"""'),
    "'": rx.compile(r"(?:[^'\\\n]|\\[\s\S])*'"),
    '"': rx.compile(r'(?:[^"\\\n]|\\[\s\S])*"'),
}
_JS_START = lazy_compile(r"//|/\*|['\"`]")
_JS_END = {
    "'": lazy_compile(r"(?:[^'\\\n]|\\[\s\S])*'"),
    '"': lazy_compile(r'(?:[^"\\\n]|\\[\s\S])*"'),
    "`": lazy_compile(r"(?:[^`\\]|\\[\s\S])*`"),
}
# shell: a comment starts a word; a heredoc body is data; $'…' has escapes, '…' none, "…" has escapes
_SH_START = rx.compile(r"(?:(?<=[\s;&|()])|^)#|\$'|'|\"|(?<!<)<<-?[ \t]*(['\"]?)([A-Za-z_][\w-]*)\1|\\[\s\S]", re.M)
_SH_END = {
    "'": rx.compile(r"[^']*'"),
    "$'": lazy_compile(r"(?:[^'\\]|\\[\s\S])*'"),
    '"': rx.compile(r'(?:[^"\\]|\\[\s\S])*"'),
}
_PS_START = lazy_compile(r"#|<#|['\"]")
_PS_END = {"'": lazy_compile(r"[^']*'"), '"': lazy_compile(r'(?:[^"`]|`[\s\S])*"')}


def _blank(text: str, a: int, b: int, out: list[str]) -> None:
    """Replace text[a:b] with spaces, keeping line breaks."""
    seg = text[a:b]
    out.append(re.sub(r"[^\n\r]", " ", seg) if "\n" in seg or "\r" in seg else " " * len(seg))


def _line_end(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j


MAX_TOKENS = 50_000  # comments and strings per file; past that the file is not analysed (None)


def blank_code(text: str, lang: str) -> str | None:
    """`text` with comments and string contents replaced by spaces (string quotes kept), same length;
    None for a file with more than MAX_TOKENS comments and strings (generated or hostile)."""
    out: list[str] = []
    pos = 0
    n = len(text)
    start = {PY: _PY_START, JS: _JS_START, SH: _SH_START, PS: _PS_START}[lang]
    tokens = 0
    while pos < n:
        m = start.search(text, pos)
        if m is None:
            break
        tokens += 1
        if tokens > MAX_TOKENS:
            return None
        a, tok = m.start(), m.group(0)
        out.append(text[pos:a])
        if tok == "#" or tok == "//":  # a line comment
            end = _line_end(text, a)
            _blank(text, a, end, out)
            pos = end
            continue
        if tok in ("/*", "<#"):
            close = "*/" if tok == "/*" else "#>"
            j = text.find(close, a + 2)
            end = n if j < 0 else j + 2
            _blank(text, a, end, out)
            pos = end
            continue
        if lang == SH and tok.startswith("\\"):  # an escaped character is plain text
            out.append(tok)
            pos = m.end()
            continue
        if lang == SH and tok.startswith("<<"):  # heredoc: the body, after this line, up to the delimiter
            out.append(tok)
            delim = m.group(2)
            strip_tabs = tok.startswith("<<-")
            eol = _line_end(text, m.end())
            out.append(text[m.end():eol])  # the rest of the command line stays code
            body_start = eol
            k = eol
            end = n
            while k < n:
                nxt = _line_end(text, k + 1)
                line = text[k + 1:nxt]
                if (line.lstrip("\t") if strip_tabs else line).rstrip("\r") == delim:
                    end = k + 1
                    break
                k = nxt
            _blank(text, body_start, end, out)
            pos = end
            continue
        quote = tok.lstrip("rRbBuUfF") if lang == PY else tok
        ends = {PY: _PY_END, JS: _JS_END, SH: _SH_END, PS: _PS_END}[lang]
        body = m.end()
        close = ends[quote].match(text, body)
        if close is not None:
            end = close.end()
            out.append(text[a:body])
            _blank(text, body, end - 1, out)
            out.append(text[end - 1])
        else:  # unterminated: one-line strings end at the line, others at the file
            end = _line_end(text, body) if len(quote) == 1 and lang in (PY, JS) and quote != "`" else n
            out.append(text[a:body])
            _blank(text, body, end, out)
        pos = end
    out.append(text[pos:])
    return "".join(out)
