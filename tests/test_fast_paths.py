"""The shortcuts taken for speed give exactly what the plain computation gives: line starts and the lines
holding a substring, the links-only parse of a bundled file, the invisible-character prefilter and the
credential finders (differential tests on random strings and on every bundled file of the corpus)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from skillgrade.analyzers.bundle import bundled_markdown_files
from skillgrade.analyzers.document import LineIndex, SkillFiles
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.rules.content import hardcoded_secret, invisible_unicode
from skillgrade.analyzers.workspace import find_skill_files

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _random(pieces: list[str], n: int, seed: int, longest: int = 30):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(0, longest)))


def test_line_index_and_lines_with_as_a_line_loop() -> None:
    pat = re.compile(r"b[ac]")
    for text in _random(["a", "b", "c", "ab", "\n", "\r", "\r\n", "é", "\u200b"], 5000, 7):
        index = LineIndex(text)
        parts = _NEWLINE.split(text)
        seps = [m.group(0) for m in _NEWLINE.finditer(text)]
        starts, pos = [0], 0
        for i in range(1, len(parts)):
            pos += len(parts[i - 1]) + len(seps[i - 1])
            starts.append(pos)
        assert index.lines == parts and index.starts == starts, repr(text)
        for needles in (("a",), ("ab", "c"), ("é",), (pat,), ("zz",)):
            want = [i for i, line in enumerate(parts)
                    if any((n in line) if isinstance(n, str) else n.search(line) for n in needles)]
            assert index.lines_with(needles) == want, (repr(text), needles)


def test_links_only_parse_finds_every_link_the_full_parse_finds(corpus: Path) -> None:
    checked = 0
    for skill in sorted(find_skill_files([corpus])):
        doc = parse(skill.read_text("utf-8", errors="replace"), skill, workspace_root=corpus)
        for bf in bundled_markdown_files(doc):
            full = parse(bf.text, None, files=SkillFiles(None)).links
            assert bf.links == (full if bf.may_link else []), bf.rel
            checked += bool(full)
    assert checked >= 10  # the corpus has bundled files with links: the comparison ran on them


def test_links_only_parse_on_tricky_sections() -> None:
    texts = [
        "# A\n\nno links here\n\n# B\n\nsee [x](b.md)\n",
        "# A\n\n```md\n# not a heading [y](c.md)\n```\n\n# B\n\n[z](d.md)\n",
        "# A\n\n[ref]\n\n# B\n\ntext\n\n[ref]: e.md\n",  # a definition: the whole body is one section
        "# A\n\n<!--\n# B [q](f.md)\n-->\n\n# C\n[w](g.md)\n",
        "[t][r]\n\n# H\n\n[r]: h.md\n",
    ]
    for text in texts:
        full = parse(text, None, files=SkillFiles(None)).links
        assert parse(text, None, files=SkillFiles(None), links_only=True).links == full, text


def test_invisible_prefilter_as_the_regex() -> None:
    pieces = ["a", " ", "é", "—", "\u200b", "\u200d", "\u202e", "\ufeff", "\U000e0041", "😀", "\u061c", "’",
              "\u2066", "\u2060", "\ud800"]
    for text in _random(pieces, 20_000, 3):
        assert invisible_unicode.has_invisible(text) == bool(invisible_unicode._ANY_INVISIBLE.search(text)), \
            repr(text)


def test_secret_finders_find_every_prefix_on_every_line() -> None:
    prefixes = sorted({p for _, ps, _ in hardcoded_secret.KINDS for p in ps})
    pieces = [*prefixes, "a", " ", "\n", "\r\n", "A", "gh", "_", "-"]
    for text in _random(pieces, 5000, 11):
        lines = _NEWLINE.split(text)
        got = set()
        index = LineIndex(text)
        for off in hardcoded_secret._candidate_offsets(text):
            got.add(index.pos(off).line)
        want = {i for i, line in enumerate(lines) if any(p in line for p in prefixes)}
        assert got == want, repr(text)


def test_reach_path_tokens_as_the_token_scan() -> None:
    from skillgrade.analyzers import reach

    pieces = ["a", "b", "-", ".", "/", " ", "\n", "$", "{", "}", "%", "~", "é", "_", "(", ")", "`"]
    for text in _random(pieces, 30_000, 5, longest=25):
        want = [(m.start(), m.group()) for m in reach._TOKEN.finditer(text) if "/" in m.group() or "." in m.group()]
        assert [(m.start(), m.group()) for m in reach._PATH_TOKEN.finditer(text)] == want, repr(text)


def test_within_as_pathlib(tmp_path: Path) -> None:
    from skillgrade.analyzers.measures import within

    (tmp_path / "root" / "a" / "b").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (tmp_path / "root" / "link").symlink_to(tmp_path / "out")
    doc = parse("x", tmp_path / "root" / "a" / "SKILL.md")
    root = tmp_path / "root"
    for p in [root, root / "a", root / "a" / "b", root / "link", root / "link" / "x", tmp_path / "out",
              tmp_path, tmp_path / "rootx", root / ".." / "out", root / "a" / ".." / "a"]:
        try:
            p.resolve().relative_to(root.resolve())
            want = True
        except ValueError:
            want = False
        assert within(doc, p, root) == want, p


def _old_after_dash_m(text: str, s: int) -> bool:
    """The token follows `-m ` (the per-token check reach used before)."""
    j = s
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    return j < s and j >= 2 and text[j - 2: j] == "-m" and (j == 2 or text[j - 3] in " \t")


def test_reach_dash_m_positions_as_the_per_token_check() -> None:
    from skillgrade.analyzers import reach

    for text in _random(["-m", " ", "\t", "\n", "x", "-", "m", "a.b", "/"], 30_000, 9, longest=12):
        starts = {m.start() for m in reach._TOKEN.finditer(text)}
        want = {s for s in starts if _old_after_dash_m(text, s)}
        got = {e for e in (m.end() for m in reach._DASH_M.finditer(text)) if e in starts}
        assert got == want, repr(text)


def test_blank_code_spans_single_backtick_path_as_the_span_scan() -> None:
    from skillgrade.analyzers import codespan

    def slow(text: str) -> str:
        out = list(text)
        for a, b in codespan.code_spans(text):
            out[a:b] = "#" * (b - a)
        return "".join(out)

    for text in _random(["`", "a", " ", "é", "``", "\\\\", "x`y"], 30_000, 13, longest=14):
        assert codespan.blank_code_spans(text, "#") == slow(text), repr(text)


def test_interactive_windows_find_what_a_whole_file_scan_finds() -> None:
    from skillgrade.analyzers.rules.scripts import interactive_script as its

    pieces = ["input", "(", " ", "\n", "x", ".", "def ", "getpass", "click.prompt", "Prompt.ask", "raw_input",
              "question", "rl", "prompt", "readlineSync.q", "inquirer.prompt", "_", "\t"]
    for text in _random(pieces, 20_000, 17, longest=16):
        for pattern, needles in ((its._PY, its._NEEDS[its.PY]), (its._JS, its._NEEDS[its.JS])):
            want = [m.span() for m in pattern.finditer(text)]
            assert [m.span() for m in its._finditer(pattern, text, needles)] == want, repr(text)



def test_surrogate_check_as_the_regex() -> None:
    from skillgrade.analyzers.parse import _SURROGATE, _has_surrogate

    pieces = ["a", " ", "é", "—", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\ufffd", "😀", "\U0010ffff"]
    for text in _random(pieces, 20_000, 19, longest=8):
        assert _has_surrogate(text) == bool(_SURROGATE.search(text)), repr(text)


def test_line_token_estimate_as_the_joined_text() -> None:
    from skillgrade.analyzers.measures import estimate_lines_tokens, estimate_tokens

    pieces = ["a", " ", "\n", "é", "—", "中", "文", "가", "\u2e80", "\u2e7f", "\uffef", "\ufff0", "\ua960", "😀", "ｱ"]
    for text in _random(pieces, 20_000, 23, longest=40):
        lines = text.split("\n")
        for k in (0, 1, len(lines) // 2):
            assert estimate_lines_tokens(lines[k:]) == estimate_tokens("\n".join(lines[k:])), (repr(text), k)

def test_lines_with_kept_per_needles_answers_as_the_first_ask() -> None:
    index = LineIndex("a\nskills/x\n../y\nb skills/\n")
    first = index.lines_with(("skills/", "../"))
    assert first == [1, 2, 3] and index.lines_with(("skills/", "../")) is first
    assert index.lines_with(("b",)) == [3]


def test_table_cells_as_the_unescaped_pipe_split() -> None:
    from skillgrade.analyzers import fastmd

    def slow(line: str) -> list[str]:
        cells = fastmd._UNESCAPED_PIPE.split(line.strip())
        if cells and not cells[0].strip():
            cells.pop(0)
        if cells and not cells[-1].strip():
            cells.pop()
        return cells

    for text in _random(["|", "a", " ", "\\", "\\|", "\t", "é", "||"], 20_000, 29, longest=12):
        assert fastmd.cells(text) == slow(text), repr(text)


def _outside_reference(text: str, fenced: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """HIDDEN_INSTRUCTION's comment walk as it was before it was made linear (each opener searched for `-->` to the
    end of the text and counted its line's backticks from the line's start)."""
    from skillgrade.analyzers.rules.content.hidden_instruction import MAX_COMMENTS

    out = []
    k, i, count = 0, text.find("<!--"), 0
    while i >= 0 and count < MAX_COMMENTS:
        while k < len(fenced) and fenced[k][1] < i:
            k += 1
        if k < len(fenced) and fenced[k][0] <= i:
            i = text.find("<!--", fenced[k][1])
            continue
        j = text.find("-->", i + 4)
        end = len(text) if j < 0 else j + 3
        ls = text.rfind("\n", 0, i) + 1
        if text.count("`", ls, i) % 2 == 1:
            i = text.find("<!--", i + 4)
            continue
        count += 1
        out.append((i, end, text[i + 4:end - 3 if j >= 0 else end]))
        if j < 0:
            break
        i = text.find("<!--", end)
    return out


def test_comment_walk_as_before() -> None:
    """A document of 125 KB with runs of `<!--` inside code spans took 0.75 s (fuzz document 39520, seed 16)."""
    import random

    from skillgrade.analyzers.rules.content.hidden_instruction import _outside

    rng = random.Random(16)
    pieces = ["<!--", "-->", "`", "\n", "a", " ", "<!-- x -->", "``"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60)))
        fenced = []
        if len(text) > 10 and rng.random() < 0.3:  # (a block ends on its line break, never where `<!--` starts)
            a = rng.randrange(0, len(text) // 2)
            b = a + rng.randrange(1, len(text) // 2)
            text = text[:b] + "\n" + text[b:]
            fenced = [(a, b)]
        assert list(_outside(text, fenced)) == _outside_reference(text, fenced), (text, fenced)
