"""Hostile lines: every one goes through the full engine (`analyze`) in well under a second.

Each case is a SKILL.md whose body (or frontmatter value) is one pathological construct at a size where
a backtracking regex or a quadratic scan shows: 10^5 backticks, 10^5 `../`, 10^6-character lines,
10^4 nested brackets, emphasis and link runs, an unclosed comment, 10^5 frontmatter keys, a 10 MB file.
`EXPECTED` is the time measured on a developer laptop (seconds, for the record); the assertion bound
`LIMIT` is generous so a loaded CI machine does not fail it, and still far below the seconds-to-minutes
these inputs took before the scans were made linear (docs/benchmarks.md, "Hostile input").

Run `python tests/test_hostile.py` to print the time of every case.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from skillgrade.analyzers.report import analyze

LIMIT = 1.0  # seconds per case on an idle machine, the bound the issue asks for ("well under a second")
REFERENCE = 0.03  # seconds the _slowdown() loop takes on an idle developer machine


def _slowdown() -> float:
    """How much slower than idle this machine runs Python right now (>= 1): the bound scales with it,
    so that a loaded CI machine does not fail a linear case, while a backtracking one (10x-10,000x
    over) still fails."""
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        sum(i * i for i in range(300_000))
        runs.append(time.perf_counter() - t0)
    return max(1.0, sorted(runs)[1] / REFERENCE)
FM = "---\nname: hostile\ndescription: Use when checking that hostile input is analysed in linear time.\n---\n"
MB = 1_000_000


def _body(text: str) -> str:
    return FM + "\n# Hostile\n\n" + text + "\n"


def _desc(text: str) -> str:
    return f"---\nname: hostile\ndescription: {text}\n---\n\n# Hostile\n\nBody.\n"


def _keys(n: int) -> str:
    return "---\nname: hostile\ndescription: Use when testing.\n" + "".join(f"k{i}: v{i}\n" for i in range(n)) + "---\n\nBody.\n"


def _ten_mb() -> str:
    para = "Use `scripts/run.py` to see [the guide](references/guide.md) and **bold** text.\n\n"
    return FM + "\n# Big\n\n" + para * (10 * MB // len(para))


# name -> (SKILL.md text, seconds measured after the fix: the time on a loaded 2-core machine divided by
# its measured slowdown, 2026-11-23)
CASES: dict[str, tuple[Callable[[], str], float]] = {
    "backticks-1e5": (lambda: _body("x " + "`" * 100_000), 0.007),
    "backticks-then-letter-1e5": (lambda: _body("x " + "`" * 100_000 + "x"), 0.008),
    "backticks-3000": (lambda: _body("x" + "`" * 3_000), 0.001),
    "backticks-line-1e5": (lambda: _body("`" * 100_000), 0.015),
    "backtick-pairs-1e5": (lambda: _body("`` ` " * 50_000), 0.13),
    "backtick-runs-growing": (lambda: _body(" ".join("`" * k for k in range(1, 450))), 0.005),
    "dotdot-slash-1e5": (lambda: _body("../" * 100_000), 0.18),
    "dotdot-slash-then-word-1e5": (lambda: _body("../" * 100_000 + "skills"), 0.19),
    "dotdot-in-description": (lambda: _desc("Use when " + "../" * 100_000), 0.053),
    "letters-1e6": (lambda: _body("a" * MB), 0.12),
    "words-1e6": (lambda: _body("ab " * (MB // 3)), 0.069),
    "spaces-1e6": (lambda: _body("a" + " " * MB + "b"), 0.11),
    "stars-1e6": (lambda: _body("*" * MB), 0.17),
    "underscores-1e6": (lambda: _body("_" * MB), 0.26),
    "open-brackets-1e6": (lambda: _body("[" * MB), 0.063),
    "lt-1e6": (lambda: _body("<" * MB), 0.07),
    "backslashes-1e6": (lambda: _body("\\" * MB), 0.11),
    "nested-brackets-1e4": (lambda: _body("[" * 10_000 + "a" + "]" * 10_000 + "(b)"), 0.26),
    "nested-parens-1e4": (lambda: _body("[a](" + "(" * 10_000 + "b" + ")" * 10_000 + ")"), 0.003),
    "open-parens-1e5": (lambda: _body("(" * 100_000), 0.013),
    "emphasis-run-1e5": (lambda: _body("*_" * 100_000), 0.005),
    # 10^4 links to a missing file: 10^4 DEAD_LINK findings; linear (10^5 take ~10x as long: the cost is
    # one finding per link, see docs/benchmarks.md)
    "link-run-1e4": (lambda: _body("[a](b)" * 10_000), 0.3),
    "image-run-1e4": (lambda: _body("![a](b)" * 10_000), 0.28),
    "unclosed-comment": (lambda: _body("<!--" + " text" * 200_000), 0.04),
    "comment-openers-1e5": (lambda: _body("<!-- -->" + "<!--" * 100_000), 0.011),
    "comment-openers-lines": (lambda: _body("<!-- a -->\n" + "x <!-- y\n" * 20_000), 0.048),
    # openers inside code spans, with no closer: each had searched to the end for `-->` (fuzz seed 16, doc 39520)
    # a frontmatter line of 10^4 blanks before a word: the key-line pattern split the blanks two ways (fuzz seed 17)
    "frontmatter-blank-run-1e4": (lambda: "---\nname: hostile\ndescription: Use when x.\n" + " " * 10_000
                                  + "word with no colon\ntags: [a\n---\n\nBody.\n", 0.05),
    # many bare blocks before 10^5 trailing blank lines: the stray-fence check walked the blanks once per block
    "untagged-blocks-then-blank-lines": (lambda: _body("```\nx\n```\n\n" * 3_000 + "\n" * 100_000), 0.3),
    # fuzz seed 20, document 71980: a 10^5-letter word in a python block (the API-signature test was quadratic)
    "python-block-long-word-1e5": (lambda: _body("```python\n" + "a" * 100_000 + "\n```"), 0.01),
    # fuzz seed 20, document 4102: an untagged block opening 10^4 `[`: the JSON guess recursed too deep
    "untagged-block-nested-brackets-1e4": (lambda: _body("```\n" + "[" * 10_000 + "\n```"), 0.01),
    "comment-openers-in-code-spans": (lambda: _body(("`<!--` " * 2_000 + "\n") * 25), 0.05),
    "path-mentions-1e5": (lambda: _body("references/" * 100_000), 0.081),
    "module-mention-1e5": (lambda: _body("scripts" + ".a" * 100_000), 0.019),
    "folder-slashes-1e5": (lambda: _body("scripts/" + "a/" * 100_000), 0.024),
    "html-tag-attrs-1e5": (lambda: _body("<a" + " b=c" * 100_000), 0.07),
    "description-xml-attrs": (lambda: _desc("Use when <a" + " b=c" * 50_000), 0.13),
    "description-bare-tags": (lambda: _desc("Use when <a>" * 20_000), 0.2),
    "description-closing-tags": (lambda: _desc("Use when </a>" + " <a>" * 20_000), 0.1),
    "description-backtick-runs": (lambda: _desc("Use when " + " ".join("`" * (k % 30 + 1) + "<a>" for k in range(20_000))),
                                  0.14),
    "description-path-tags": (lambda: _desc("Use when " + "x/<a>/" * 20_000), 0.05),
    "description-deprecated-lead": (lambda: _desc("'" + "[ " * 100_000 + "deprecated'"), 0.06),
    "description-cjk-situations": (lambda: _desc("手順" + "同時に場合のとき" * 20_000), 0.15),
    "description-for-the-user": (lambda: _desc("Writes it " + "for the user " * 10_000), 0.4),
    "description-prompt-contains": (lambda: _desc("When a prompt " * 10_000 + "contains x"), 0.27),
    "description-long-words": (lambda: _desc("Use when " + "testing " * 100_000), 0.076),
    # 110 KB of description (100x the 1,024-character limit); 550 KB take ~5x as long (linear)
    "description-negations": (lambda: _desc("Do not use " * 10_000), 0.8),
    "secret-prefix-run": (lambda: _body("sk-" + "a" * MB), 0.14),
    "secret-like-run": (lambda: _body("sk-ant-api01-" * 50_000), 0.23),
    "disable-comment-run": (lambda: _body("<!-- skillgrade-disable " + "A " * 100_000), 0.004),
    "disable-openers-2e4": (lambda: _body("<!-- skillgrade-disable " * 20_000 + ">"), 0.037),
    "output-without-format": (lambda: _body("output " * 100_000 + "formats"), 0.1),
    "name-with-spaces-1e5": (lambda: _desc("Use when testing.").replace("name: hostile", "name: x" + " " * 100_000 + "y"),
                             0.05),
    "blank-lines-1e5": (lambda: _body("\n" * 100_000 + "x"), 0.23),
    "table-pipes-1e5": (lambda: _body("| a |\n|---|\n" + "|" * 100_000), 0.022),
    "list-markers-1e4": (lambda: _body("- " * 10_000 + "a"), 0.039),
    "quote-markers-1e4": (lambda: _body("> " * 10_000 + "a"), 0.002),
    "hr-like-1e5": (lambda: _body("* " * 100_000 + "a"), 0.8),
    "placeholder-dots": (lambda: _body("```python\n" + "..." * 100_000 + "\n```"), 0.014),
    "frontmatter-keys-1e5": (lambda: _keys(100_000), 0.17),
    "ten-megabytes": (_ten_mb, 0.38),
    # a `yaml` block of 10^5 quoted values under a label: read line by line only up to YAML_LINES of them
    "yaml-quoted-lines-1e5": (lambda: _body("```yaml\n# CORRECT\n" + '"a"\n' * 100_000 + "```"), 0.15),
    # 3 x 10^4 `allowed-tools` entries on one line (fuzz seed 19 had 10^4: 1.56 s): each entry's range searched the
    # whole value again, and each unknown name was matched against every tool again (quadratic); one finding per
    # entry remains
    "allowed-tools-3e4": (lambda: FM.replace("---\n", "---\nallowed-tools: Read" + " &a" * 30_000 + "\n", 1)
                          + "\n# Tools\n", 0.35),
}


# cases whose cost is one finding per link (10^4 DEAD_LINK findings), not a scan: a 3x looser bound
VOLUME = {"link-run-1e4": 3.0, "image-run-1e4": 3.0}


def _skill(tmp: Path, text: str) -> Path:
    d = tmp / "hostile"
    d.mkdir(exist_ok=True)
    p = d / "SKILL.md"
    p.write_text(text, encoding="utf-8")
    return p


def time_case(name: str, tmp: Path) -> float:
    text = CASES[name][0]()
    path = _skill(tmp, text)
    t0 = time.perf_counter()
    rep = analyze(text, path, workspace_root=tmp)
    dt = time.perf_counter() - t0
    internal = [f.message for f in rep.findings if f.code == "INTERNAL_ERROR"]
    assert not internal, internal
    json.dumps(rep.to_dict())
    return dt


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_line_is_analysed_fast(name: str, tmp_path: Path) -> None:
    time_case(name, tmp_path)  # warm-up: imports, markdown-it, the YAML loader
    slow = _slowdown() * VOLUME.get(name, 1.0)
    dt = time_case(name, tmp_path)
    print(f"{name}: {dt * 1000:.1f} ms (expected ~{CASES[name][1] * 1000:.0f} ms; machine {slow:.1f}x slower than idle)")
    assert dt < LIMIT * slow, f"{name} took {dt:.2f}s (bound {LIMIT * slow:.2f}s)"


def test_hostile_lines_through_the_cli(tmp_path: Path) -> None:
    """The CLI on a folder of every hostile skill: exits with a documented code, prints no traceback."""
    for name in ("backticks-1e5", "dotdot-slash-1e5", "unclosed-comment", "link-run-1e4", "nested-brackets-1e4"):
        d = tmp_path / name
        d.mkdir()
        (d / "SKILL.md").write_text(CASES[name][0]().replace("name: hostile", f"name: {name}"), encoding="utf-8")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", str(tmp_path), "--no-cache",
                           "--format", "json", "--jobs", "1"], capture_output=True, text=True, timeout=120)
    dt = time.perf_counter() - t0
    print(f"cli: {dt:.2f}s")
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(json.loads(proc.stdout)["skills"]) == 5


if __name__ == "__main__":
    import tempfile

    only = sys.argv[1:] or sorted(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        for case in only:
            time_case(case, Path(tmp))
            print(f"{case:32s} {time_case(case, Path(tmp)) * 1000:9.1f} ms", flush=True)


@pytest.mark.parametrize("brk", ["\u2029", "\u2028", "\x85"])
def test_yaml_only_line_breaks_in_the_frontmatter(brk: str) -> None:
    """Fuzz seed 21 (document 43846): a PARAGRAPH SEPARATOR in the description. YAML counts it (and LINE SEPARATOR,
    NEL) as a line break, LSP does not, so YAML's line numbers ran past the file's and MISSING_TRIGGER,
    WEAK_TRIGGER and NAME_DIR_MISMATCH raised IndexError. Ranges are now the file's lines."""
    from skillgrade.analyzers.report import analyze

    text = f"---\nname: demo\ndescription: Fills forms.{brk} More.{brk}{brk} Use when filling.\nfoo: [bar]\n---\n\n# Demo\n"
    rep = analyze(text, Path("/tmp/hostile-yaml-breaks/demo/SKILL.md"))
    assert not [f.message for f in rep.findings if f.code == "INTERNAL_ERROR"]
    (unknown,) = [f for f in rep.findings if f.code == "UNKNOWN_FIELD"]
    assert (unknown.range.start.line, unknown.range.start.character) == (3, 0)
