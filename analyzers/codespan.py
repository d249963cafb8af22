"""Code spans in inline markdown text, found exactly as CommonMark (and markdown-it) reads them, in linear time.

The one implementation the engine uses: prose blanking (parse) and the fast link scan (fastmd) both call it.

CommonMark: a run of n backticks opens a code span that the next run of *exactly* n backticks closes;
a run with no such closer is literal text, and scanning resumes after it. A backtick after an odd
number of backslashes is escaped (literal), so the opening run starts after it; inside a span
backslashes are literal, so a closing run is counted as written.

Linear: every run is found once, runs are grouped by length, and for each length a cursor only moves
forward over its group (openers are visited left to right), so a line of 10^5 backticks or 10^5 short
runs costs O(n). (A regex such as (`+)(.+?)\\1 backtracks on such lines.)

Not modelled: constructs that start *before* a backtick and take precedence over it (raw HTML and
autolinks, `<a title="`">`; a link destination, `[a](x`y)`). Callers that need those exactly fall back
to markdown-it whenever `<` or `](` survive outside the spans (fastmd does).
"""

from __future__ import annotations

from . import rx

_RUN = rx.compile("`+")


def _runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of backticks."""
    return [m.span() for m in _RUN.finditer(text)]


def _single_spans(text: str) -> list[tuple[int, int]]:
    """code_spans() of a text whose runs are all single backticks and that has no backslash: each
    backtick closes the span the previous unpaired one opened (the common case, no run bookkeeping)."""
    spans: list[tuple[int, int]] = []
    find = text.find
    a = find("`")
    while a >= 0:
        b = find("`", a + 1)
        if b < 0:
            break  # an unpaired last backtick is literal
        spans.append((a, b + 1))
        a = find("`", b + 1)
    return spans


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each code span in `text`, backticks included, in order and non-overlapping."""
    if "`" not in text:
        return []
    if "``" not in text and "\\" not in text:
        return _single_spans(text)
    runs = _runs(text)
    by_len: dict[int, list[int]] = {}  # run length -> indices of the runs of that length, in order
    for j, (a, b) in enumerate(runs):
        by_len.setdefault(b - a, []).append(j)
    cursor: dict[int, int] = {}  # run length -> first entry of by_len[length] not yet passed
    spans: list[tuple[int, int]] = []
    last = 0  # end of the previous span: backslashes before it are inside that span
    k = 0
    while k < len(runs):
        a, b = runs[k]
        opener = a
        if a > last and text[a - 1] == "\\":
            slashes = 1
            while a - slashes - 1 >= last and text[a - slashes - 1] == "\\":
                slashes += 1
            if slashes % 2:
                opener += 1  # the first backtick is escaped: the opening run starts after it
        size = b - opener
        same = by_len.get(size)
        if same is not None:
            t = cursor.get(size, 0)
            while t < len(same) and same[t] <= k:
                t += 1
            cursor[size] = t
            if t < len(same):
                close = same[t]
                end = runs[close][1]
                spans.append((opener, end))
                last = end
                k = close + 1
                continue
        k += 1  # no closer of that length: the run is literal text
    return spans


def blank_code_spans(text: str, fill: str = " ") -> str:
    """`text` with every code span's characters (backticks included) replaced by `fill`, offsets kept."""
    if "``" not in text and "\\" not in text:  # single backticks, none escaped: they pair in order
        parts = text.split("`")
        k = len(parts) - 1  # backticks; with an odd count the last one is literal
        if k < 2:
            return text
        out = [parts[0]]
        for i in range(1, k - k % 2, 2):
            out += [fill * (len(parts[i]) + 2), parts[i + 1]]
        if k % 2:
            out.append("`" + parts[k])
        return "".join(out)
    spans = code_spans(text)
    if not spans:
        return text
    pieces: list[str] = []
    last = 0
    for a, b in spans:
        pieces += [text[last:a], fill * (b - a)]
        last = b
    pieces.append(text[last:])
    return "".join(pieces)
