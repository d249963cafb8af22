"""Each backtracking regex that was replaced finds exactly what it found before (differential tests against
the old pattern on random strings), and the replacement is fast on the input that made the old one crawl."""

from __future__ import annotations

import importlib
import random
import re
import time

import pytest

parse = importlib.import_module("skillgrade.analyzers.parse")
static_layer = importlib.import_module("skillgrade.analyzers.static_layer")
code_block_invalid = importlib.import_module("skillgrade.analyzers.rules.code.code_block_invalid")
usage_context = importlib.import_module("skillgrade.analyzers.rules._helpers").usage_context

OLD_DISABLE = re.compile(r"<!--\s*skillgrade-(disable-next-line|disable)(?![\w-])([^>]*?)-->")
OLD_OUTPUT_FORMAT = re.compile(r"\boutput\b.*\bformat\b|\bformat\b.*\boutput\b|\breturns?\b.*\bjson\b")
OLD_PLACEHOLDER = re.compile(r"\.\.\.|…|<[A-Za-z_][\w -]*>|\{\{|\{%|\$\{|^\s*#\s*\.\.\.|\[\.\.\.\]|//", re.M)


def _random(pieces: list[str], n: int, seed: int, longest: int = 12):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(1, longest)))


def test_disable_directives_as_the_old_regex() -> None:
    pieces = ["<!--", " ", "skillgrade-disable", "-next-line", "-->", ">", "-", "A", "B,C", "x", "--", "\t"]
    for text in _random(pieces, 20_000, 1):
        want = [(m.group(1), m.group(2)) for m in OLD_DISABLE.finditer(text)]
        assert list(parse._directives(text)) == want, text


def test_output_format_as_the_old_regex() -> None:
    pieces = ["output", "format", "returns", "return", "json", " ", "x", "_", "-", "formats"]
    for text in _random(pieces, 20_000, 2):
        assert static_layer._states_format(text) == bool(OLD_OUTPUT_FORMAT.search(text)), text


def test_placeholder_as_the_old_regex() -> None:
    pieces = ["...", "#", " ", "\n", "x", "<a>", "//", "{{"]
    for text in _random(pieces, 20_000, 4):
        new = bool(code_block_invalid._PLACEHOLDER.search(text))
        assert new == bool(OLD_PLACEHOLDER.search(text)), text


HOSTILE = {  # name -> (function, input); each took seconds to minutes with the old pattern
    "disable-openers": (lambda t: list(parse._directives(t)), "<!-- skillgrade-disable " * 20_000 + ">"),
    "output-without-format": (static_layer._states_format, "output " * 20_000 + "formats"),
    "returns-without-json": (static_layer._states_format, "returns " * 20_000),
    "blank-lines-in-code": (code_block_invalid._PLACEHOLDER.search, "\n" * 100_000 + "x"),
    # "Always use <x> … for any …" (session 26): a run of blanks after "use" was once split two ways (41 s)
    "always-use-then-blanks": (usage_context, "Always use " + " " * 100_000 + "x"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_fast_on_hostile_input(name: str) -> None:
    fn, text = HOSTILE[name]
    t0 = time.perf_counter()
    fn(text)
    dt = time.perf_counter() - t0
    print(f"{name}: {dt * 1000:.1f} ms")  # ~1-30 ms
    assert dt < 2.0  # generous: a loaded CI machine; the old patterns took seconds to minutes


OLD_NAME_LINE = re.compile(r"^name:[ \t]*['\"]?([^'\"\r\n#]*?)['\"]?[ \t]*(?:#.*)?$", re.M)


def test_quick_name_as_the_old_regex() -> None:
    workspace = importlib.import_module("skillgrade.analyzers.workspace")
    pieces = ["name:", " ", "\t", "'", '"', "#", "x", "y z", "\r", "\n", "-", "name: "]
    for text in _random(pieces, 20_000, 5, longest=10):
        m = OLD_NAME_LINE.search(text)
        assert workspace._name_value(text) == (m.span(1) if m else None), repr(text)


def test_quick_name_fast_on_a_run_of_spaces() -> None:
    workspace = importlib.import_module("skillgrade.analyzers.workspace")
    text = "---\nname: x" + " " * 100_000 + "y\n---\n"
    t0 = time.perf_counter()
    assert workspace.quick_name_at(text)[0] == "x" + " " * 100_000 + "y"
    assert time.perf_counter() - t0 < 1.0  # ~5 ms; the old regex: 25 s at 20,000 spaces


reference_no_toc = importlib.import_module("skillgrade.analyzers.rules.body.reference_no_toc")
_TOC_WORDS = (r"(?:table\s+of\s+contents|contents|toc|index|on\s+this\s+page|in\s+this\s+(?:file|document|guide|"
              r"reference|page)|sections|overview\s+of\s+sections|quick\s+navigation|navigation)")
OLD_TOC_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?:\W*\s*)?" + _TOC_WORDS + r"\s*:?\s*#*\s*$", re.I)
OLD_TOC_LABEL = re.compile(r"^\s*(?:\*\*|__)?(?:table\s+of\s+contents|contents|toc|on\s+this\s+page)\s*:?\s*"
                           r"(?:\*\*|__)?:?\s*$", re.I)
OLD_TOC_LABEL_LINKS = re.compile(r"\s*(?:\*\*|__)?(?:table\s+of\s+contents|contents|toc|on\s+this\s+page)\s*:?\s*"
                                 r"(?:\*\*|__)?:?[^\n]*?\]\(#", re.I)
OLD_HEADING_TEXT = re.compile(r"\s{0,3}#{2,6}\s+(.{1,120}?)\s*#*\s*$")
OLD_ANCHOR_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+.*\]\(#")


def test_reference_toc_scans_as_the_old_regexes() -> None:
    """REFERENCE_NO_TOC's `Contents` heading and label checks and its heading text, scanned without the
    patterns whose neighbouring `\\s*` re-split runs of blanks (seconds on a line with a few thousand)."""
    pieces = [" ", "  ", "#", "##", "###", "a", "b c", "\t", "*", "**", "__", "_", ":", "](#", "Contents",
              "contents", "TOC", "Table of  contents", "in this guide", "index", "- ", "1.", "1234)", "x" * 50,
              "x" * 80, "\u3000", "\r", "\u00a0"]
    rng = random.Random(11)
    for text in _random(pieces, 40_000, 11):
        line = rng.choice(["", "#", "##", "###", " ##", "####### ", "   ##", "    ##", "**", " ", "- ", " 12.", "*"]) + text
        m = OLD_HEADING_TEXT.match(line)
        assert reference_no_toc._heading_text(line) == (m.group(1) if m else None), repr(line)
        assert reference_no_toc._toc_heading(line, []) == bool(OLD_TOC_HEADING.match(line)), repr(line)
        assert reference_no_toc._toc_label(line) == bool(OLD_TOC_LABEL.match(line)), repr(line)
        assert reference_no_toc._toc_label_links(line) == bool(OLD_TOC_LABEL_LINKS.match(line)), repr(line)
        assert reference_no_toc._anchor_item(line) == bool(OLD_ANCHOR_ITEM.match(line)), repr(line)


HOSTILE_TOC_LINES = {
    "heading-then-blanks": "## a" + " " * 100_000 + "b",
    "label-then-blanks": "Contents" + " " * 100_000 + "x",
    "toc-heading-then-blanks": "## Contents" + " " * 100_000 + "x",
    "hashes-then-blanks": "##" + " " * 100_000 + "x",
    "bullet-then-blanks": "- " + " " * 100_000 + "x" * 200,
    "label-then-colons": "**Contents**" + " :" * 50_000,
    "table-pipe-then-blanks": "|" + " " * 100_000 + "x",
    "table-cells-of-blanks": "| " * 50_000,
    "read-then-blanks": "Read the" + " " * 100_000 + "whole",
    "description-commas": "description:" + ", " * 50_000,
    "cjk-index-then-blanks": "## 索引" + " " * 100_000 + "· x",
    "fenced-arrows": "Step 3a →" * 20_000,
    "cjk-enumeration": "小红书、" * 25_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TOC_LINES))
def test_reference_toc_fast_on_runs_of_blanks(name: str) -> None:
    line = HOSTILE_TOC_LINES[name]
    lines = ["# Title", line] + ["text"] * 120 + ["## Setup", "## Usage", "## Errors"]
    t0 = time.perf_counter()
    reference_no_toc.has_toc(lines)
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize("name", sorted(HOSTILE_TOC_LINES))
def test_overview_checks_fast_on_a_hostile_top(name: str) -> None:
    """The overview, read-whole and section checks on a top of 30 hostile lines and 300 headings built from
    them (a table cell pattern that re-split blanks took 0.9 s here)."""
    line = HOSTILE_TOC_LINES[name]
    lines = ["# Title"] + [line] * 29 + ["text"] * 120 + ["## Setup " + line[:200]] * 300
    t0 = time.perf_counter()
    reference_no_toc._names_headings(lines)
    reference_no_toc.read_whole(lines)
    reference_no_toc.few_sections(lines)
    assert time.perf_counter() - t0 < 0.5


def test_fence_step_follows_commonmark_runs() -> None:
    """A block opened by four backticks closes only at four or more with nothing after them; an inner
    ```` ```python ```` line is a line of the example (set 11: a template's nested fences)."""
    from skillgrade.analyzers.rules._helpers import fence_step

    fence, inside = "", []
    for line in ["````markdown", "```python", "x = 1", "```", "## Usage", "````", "## Real", "~~~", "```", "~~~~", "y"]:
        fence, is_fence = fence_step(fence, line)
        inside.append((line, bool(fence) and not is_fence))
    assert [ln for ln, code in inside if code] == ["x = 1", "## Usage"]
    assert fence == ""
    t0 = time.perf_counter()
    fence_step("", "`" * 100_000)
    fence_step("```", "`" * 100_000 + "x")
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize(("text", "skips"), [
    ("p.add_argument('--yes')", True), ("--skip-confirmation", True), ('"-y"', True), ("case $1 in\n  -y) Y=1;;", True),
    ("## --force  Force shutdown without confirmation", True), ("delete <uid> [--force]", False),
    ("--yesterday", False), ("--yes-all", False), ("--confirmation", False), ("a--yes", False),
])
def test_skip_option_boundaries(text: str, skips: bool) -> None:
    """INTERACTIVE_SCRIPT's skip options, found by substring search with the regex's word boundaries."""
    from skillgrade.analyzers.rules.scripts.interactive_script import _skip_option

    assert _skip_option(text) is skips
    t0 = time.perf_counter()
    _skip_option("--yess" * 20_000 + "--force " * 100_000)  # (no match: every occurrence is looked at)
    assert time.perf_counter() - t0 < 0.5


_RL = "const rl = require('readline').createInterface({ input: process.stdin });\n"


@pytest.mark.parametrize("body", [
    "x = x || rl.question(1); " * 20_000,  # fallbacks on one line: each looked back a whole line's length
    "const q = (a) => rl.question(a); " * 20_000,
    "".join(f"const q{i} = (a) => rl.question(a); " for i in range(20_000)),  # 20,000 wrappers of their own
])
def test_interactive_prompt_checks_fast_on_one_long_line(body: str) -> None:
    from skillgrade.analyzers.rules.scripts.interactive_script import _javascript, _python

    t0 = time.perf_counter()
    list(_javascript(_RL + body))
    list(_python("name = args.name or input(1); " * 20_000))
    assert time.perf_counter() - t0 < 1.0


def test_imported_modules_is_linear_on_a_line_repeating_the_module() -> None:
    """A source line repeating the package's module path 10^5 times (a look-back to the line's start for each
    occurrence took 1.8 s for 40,000): well under a second, and the imports around it are still read."""
    package_code = importlib.import_module("skillgrade.analyzers.package_code")
    text = "from pkg.scripts import a, b as c\nx = 1; " + "pkg.scripts " * 100_000 + "\nimport pkg.scripts.d\n"
    t = time.perf_counter()
    found = package_code.imported_modules(text, "pkg.scripts")
    assert time.perf_counter() - t < 1.0
    assert found == {"a", "b", "d"}


@pytest.mark.parametrize("text", ["a@b " * 250_000, "ssh " * 250_000 + "a@b", "ssh a@b " * 125_000,
                                  "x" * 31 + "@" + "1." * 500_000], ids=["logins", "commands", "both", "dots"])
def test_remote_logins_are_linear_on_a_megabyte(text: str) -> None:
    """ABSOLUTE_USER_PATH's remote logins (`ssh hch@gpu-box`) on a megabyte of logins or command words: a look-back
    over the line for every login took 1 s for 10^6 characters; a bisect into the command positions is linear."""
    rule = importlib.import_module("skillgrade.analyzers.rules.content.absolute_user_path")
    t = time.perf_counter()
    rule._remote_logins(text)
    assert time.perf_counter() - t < 1.0
    assert rule._remote_logins("run `ssh -p 22 hch@gpu-box` and `scp x deploy@10.0.0.5:/srv`;\nmail ann@ex.com") == {
        "hch", "deploy"}


@pytest.mark.parametrize("word", ["a", "Use the tool."])
def test_a_megabyte_description_is_read_for_triggers_fast(word: str, tmp_path) -> None:
    """A 1 MB description (fuzzing's kind of input) took 3.3 s: the trigger patterns cost ~2 µs a character. Only
    its first TRIGGER_TEXT_CHARS are read for a trigger clause (the spec allows 1,024; DESCRIPTION_TOO_LONG reports
    the rest); a fresh text each run, so no cache answers."""
    from skillgrade.analyzers.report import analyze

    body = f"{word} " * (1_000_000 // (len(word) + 1)) + str(time.perf_counter_ns())
    text = f'---\nname: s\ndescription: "{body}"\n---\n# T\n\nBody.\n'
    (tmp_path / "s").mkdir()
    t = time.perf_counter()
    rep = analyze(text, tmp_path / "s" / "SKILL.md", workspace_root=tmp_path)
    assert time.perf_counter() - t < 1.0
    assert {"DESCRIPTION_TOO_LONG", "MISSING_TRIGGER"} <= {f.code for f in rep.findings}


def test_a_huge_yaml_block_of_bare_globs_is_not_parsed_twice(tmp_path) -> None:
    """CODE_BLOCK_INVALID repairs bare globs (`globs: **/*.ts`, Cursor's form) and parses the block again only for a
    block of at most REPAIR_CHARS: 50,000 such lines took 2.2 s more. The block is still reported."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    block = "```yaml\n" + "globs: **/*.ts\n" * 50_000 + "```\n"
    text = f"---\nname: s\ndescription: Use when testing.\n---\n# T\n\n{block}"
    (tmp_path / "s").mkdir()
    t = time.perf_counter()
    rep = analyze(text, tmp_path / "s" / "SKILL.md", config=Config(select=("CODE_BLOCK_INVALID",)),
                  workspace_root=tmp_path)
    assert time.perf_counter() - t < 1.0
    assert [f.code for f in rep.findings] == ["CODE_BLOCK_INVALID"]


def test_quoted_example_anchors_are_linear_on_one_line(tmp_path) -> None:
    """DEAD_LINK's quoted-example test (`"see [x](#a)"` under a code block showing `# a`) reads a line's quote marks
    once: counting them before each of 30,000 such links on one line took 2.5 s for 0.42 MB. Quoted ones stay silent."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    text = "---\nname: s\ndescription: Use when testing.\n---\n\n```\n# a\n```\n\n" + '"see [x](#a)" ' * 30_000 + "\n"
    (tmp_path / "s").mkdir()
    t = time.process_time()
    rep = analyze(text, tmp_path / "s" / "SKILL.md", config=Config(select=("DEAD_LINK",)), workspace_root=tmp_path)
    assert time.process_time() - t < 1.0
    assert rep.findings == []  # every link sits inside its own quotes


def test_quoted_issue_links_in_a_guide_are_linear_on_one_line(tmp_path) -> None:
    """The same test for a bundled guide's quoted issue links (`"[x](#42)"`): each link began with a fresh memo and
    counted the line's quotes again (20,000 links on one 0.2 MB line: 374 s). One memo per file: linear."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    skill = tmp_path / "s"
    (skill / "references").mkdir(parents=True)
    (skill / "references" / "g.md").write_text("# G\n\n" + ' "[x](#42)"' * 20_000 + " [y](#7)\n")
    text = "---\nname: s\ndescription: Use when testing.\n---\n\nSee [the guide](references/g.md).\n"
    t = time.process_time()
    rep = analyze(text, skill / "SKILL.md", config=Config(select=("DEAD_LINK",)), workspace_root=tmp_path)
    assert time.process_time() - t < 1.0
    assert [f.message for f in rep.findings] == ["No heading matches the anchor `#7`"]  # only the unquoted one


def test_installed_path_scan_is_linear_on_one_line(tmp_path) -> None:
    """NAME_DIR_MISMATCH's installed-path test (`~/.claude/skills/<name>/…`) looked back to the line's start for the
    segment before each `skills/<name>/`: 30,000 such mentions on one 0.57 MB line took 0.53 s (quadratic). Each
    stretch of the line is now searched once. The mismatch is still reported (no segment is a dot-folder)."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    text = "---\nname: overview\ndescription: Use when testing.\n---\n\n" + "a/skills/overview/x" * 60_000 + "\n"
    folder = tmp_path / "skills" / "org-overview"
    folder.mkdir(parents=True)
    t = time.process_time()
    rep = analyze(text, folder / "SKILL.md", config=Config(select=("NAME_DIR_MISMATCH",)), workspace_root=tmp_path)
    assert time.process_time() - t < 1.0
    assert [f.code for f in rep.findings] == ["NAME_DIR_MISMATCH"]


@pytest.mark.parametrize(("line", "found"), [
    ("ssh " * 100_000 + '"/home/bob/x"', 1),  # many command words before one quote (no host: a local path)
    ('ssh h "x" ' * 50_000 + "/home/bob/x", 1),  # many remote commands, then a local path
    ('ssh h "/home/bob/x" ' * 30_000, 0),  # many remote commands, each holding a path: each looked up once
    ('"open /home/bob/x" ' * 30_000, 0),  # many quoted requests, each holding a made-up user's path
    ('"' + "open /home/bob/x " * 30_000 + '"', 0),  # one long quote (its first path is a request's: bob is made up)
    ('"' + "x" * 300 + " /home/bob/x" * 30_000 + '"', 30_000),  # a long quote: a request's words are few
    ("“open /home/bob/x ” " * 30_000, 0),  # curly quotes
    ("scp " + "x|hh:/home/bob/x" * 50_000, 0),  # many copy targets: each host read back only to its first non-host mark
    ("x|hh:/home/bob/x" * 50_000, 50_000),  # the same with no copy command: the line is searched for one only once
], ids=["ssh-words-one-quote", "commands-then-local-path", "paths-in-commands", "quoted-requests",
        "one-long-quote", "long-quote-then-paths", "curly-quoted-requests",
        "copy-targets", "host-colons-without-copy"])
def test_ssh_remote_commands_are_linear_on_one_line(line: str, found: int, tmp_path) -> None:
    """ABSOLUTE_USER_PATH's remote-command spans (`ssh <host> "…"`) are found once per line, each quote looked at from
    the command word nearest before it, and each path is placed among them by a binary search: hostile lines of
    ~0.5 MB stay well under a second (30,000 paths in 30,000 commands took 13 s with a scan of the spans per path)."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    text = "---\nname: s\ndescription: Use when testing.\n---\n\n" + line + "\n"
    (tmp_path / "s").mkdir()
    t = time.process_time()
    rep = analyze(text, tmp_path / "s" / "SKILL.md", config=Config(select=("ABSOLUTE_USER_PATH",)), workspace_root=tmp_path)
    assert time.process_time() - t < 1.0
    assert len(rep.findings) == found


def test_directive_table_cells_are_linear_on_one_line(tmp_path) -> None:
    """OVER_CONSTRAINED's lone-cell test walks only the blanks around each directive: 100,000 `| ALWAYS |` cells and
    as many `NEVER` words on one line stay well under a second, and only the words outside cells count."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    text = "---\nname: s\ndescription: Use when testing.\n---\n\n" + "| ALWAYS " * 100_000 + "| NEVER x " * 20 + "|\n"
    (tmp_path / "s").mkdir()
    t = time.process_time()
    rep = analyze(text, tmp_path / "s" / "SKILL.md", config=Config(select=("OVER_CONSTRAINED",)), workspace_root=tmp_path)
    assert time.process_time() - t < 1.0
    assert [f.message.split(" ")[0] for f in rep.findings] == ["20"]
