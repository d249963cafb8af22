"""Robustness: `analyze` never raises, never hangs and never reports INTERNAL_ERROR on hostile input;
the CLI fails with one plain line and the documented exit codes."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.parse import decode
from skillgrade.analyzers.report import Report, analyze, analyze_file, read_skill

CORPUS = Path("/work/shared/corpus")
FM = "---\nname: robust-skill\ndescription: Use when testing hostile input for robustness.\n---\n"


class Hang(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float):
    """Fail (instead of hanging) when the block runs longer than `seconds` (main thread, POSIX)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def boom(signum, frame):
        raise Hang(f"took longer than {seconds}s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check(text: str, path: Path | None = None, *, binary: bool = False, root: Path | None = None,
          seconds: float = 20.0) -> Report:
    """analyze() must return a report without INTERNAL_ERROR, within `seconds` (generous: a hang guard,
    not a benchmark, so a loaded CI machine does not fail it)."""
    with deadline(seconds):
        rep = analyze(text, path, binary=binary, workspace_root=root)
    internal = [f.message for f in rep.findings if f.code == "INTERNAL_ERROR"]
    assert not internal, internal
    json.dumps(rep.to_dict())  # the report serialises (the CLI and the server both do this)
    for f in rep.findings:
        assert 0 <= f.range.start.line <= f.range.end.line and f.range.start.character >= 0, f
    return rep


# ------------------------------------------------------------------ random input

_ALPHABET = "-:#`[]()!{}<>|>'\"*&~%@\\/\t \n\r.,=0123456789abcdefMUSTNEVERé😀\x00\ufeff"
_VALID = (FM + "\n# Title\n\nSee [the guide](references/guide.md) and `scripts/run.py`.\n\n"
          "```python\nprint('hi')\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> You MUST read it.\n")


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 12)):
        op = rng.random()
        i = rng.randrange(len(chars) + 1)
        if op < 0.4:
            chars[i:i] = rng.choice(_ALPHABET) * rng.choice((1, 1, 1, 3, 50))
        elif op < 0.7 and chars:
            del chars[i:i + rng.randint(1, 20)]
        elif chars:
            j = rng.randrange(len(chars))
            chars[i:i] = chars[j:j + rng.randint(1, 40)]  # duplicate a chunk
    return "".join(chars)


@pytest.mark.parametrize("seed", range(4))
def test_random_input(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        kind = rng.random()
        if kind < 0.3:  # raw bytes, decoded as the CLI does
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
            text, binary = decode(data)
            check(text, binary=binary)
        elif kind < 0.6:  # markdown/YAML punctuation soup
            text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(400)))
            check(("---\n" if rng.random() < 0.5 else "") + text)
        else:  # a valid skill, mutated
            check(_mutate(rng, _VALID))


# ------------------------------------------------------------------ truncated corpus files


def _corpus_sample(n: int = 40) -> list[Path]:
    files = sorted(CORPUS.rglob("SKILL.md")) if CORPUS.is_dir() else []
    if len(files) <= n:
        return files
    step = len(files) / n
    return [files[int(i * step)] for i in range(n)]


SAMPLE = _corpus_sample()


@pytest.mark.skipif(not SAMPLE, reason="no corpus at /work/shared/corpus")
def test_truncated_corpus_files() -> None:
    rng = random.Random(1234)
    t0 = time.perf_counter()
    for path in SAMPLE:
        text, binary = read_skill(path)
        close = text.find("\n---", 3)
        cuts = {0, 1, 3, 4, len(text) // 3, len(text) // 2, len(text) - 1, rng.randrange(len(text) + 1)}
        if close > 0:
            cuts |= {close, close + 2, close + 4, max(0, close - 7)}
        for cut in sorted(cuts):
            check(text[:cut], path, binary=binary, root=CORPUS)
    assert time.perf_counter() - t0 < 60


# ------------------------------------------------------------------ pathological YAML and markdown


@pytest.mark.parametrize("value", ["[" * 5000, "{" * 5000, "[" * 5000 + "]" * 5000, "- " * 3000 + "x"])
def test_deeply_nested_yaml(value: str) -> None:
    rep = check(f"---\nname: deep\ndescription: Use when testing deep YAML nesting.\na: {value}\n---\n# T\n")
    assert {f.code for f in rep.findings} & {"YAML_SYNTAX", "UNKNOWN_FIELD"}


def test_deeply_nested_block_mappings() -> None:
    yaml = "".join("  " * i + f"k{i}:\n" for i in range(1000))
    check("---\nname: deep\n" + yaml + "---\n# T\n")


def test_huge_yaml_100k_keys() -> None:
    """A 2.4 MB frontmatter: 100,000 keys under `metadata` (every metadata rule walks them)."""
    keys = "".join(f"  key{i}: value {i}\n" for i in range(100_000))
    rep = check(FM.replace("---\n", "---\nmetadata:\n" + keys, 1), seconds=60)
    assert {f.code for f in rep.findings} <= {"BODY_OVER_BUDGET", "BLOATED_SKILL", "FILE_TOO_LARGE"}


def test_many_top_level_keys() -> None:
    """10,000 top-level keys: the first 2,000 are checked, and FILE_TOO_LARGE says so."""
    keys = "".join(f"key{i}: value {i}\n" for i in range(10_000))
    rep = check(FM.replace("---\n", "---\n" + keys, 1), seconds=30)
    assert sum(f.code == "UNKNOWN_FIELD" for f in rep.findings) == 2_000
    too_large = [f for f in rep.findings if f.code == "FILE_TOO_LARGE"]
    assert len(too_large) == 1 and "10,00" in too_large[0].message


def test_yaml_billion_laughs() -> None:
    y = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    prev = "a"
    for c in "bcdefghi":
        y += f"{c}: &{c} [" + ",".join([f"*{prev}"] * 9) + "]\n"
        prev = c
    fields = "".join(f"{k}: *i\n" for k in ("name", "description", "allowed-tools", "paths", "version",
                                             "hooks", "compatibility", "when_to_use"))
    rep = check("---\n" + y + fields + "metadata: {x: *i, y: *h}\n---\n# T\n", seconds=20)
    assert any(f.code == "FIELD_TYPE" for f in rep.findings)


def test_ten_megabyte_skill(tmp_path: Path) -> None:
    body = ("lorem ipsum dolor sit amet, the MUST of [a](references/x.md) " * 20 + "\n") * 8500
    text = FM + body
    assert len(text) > 10_000_000
    rep = check(text)
    assert "FILE_TOO_LARGE" in {f.code for f in rep.findings}
    skill = tmp_path / "robust-skill" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(text, encoding="utf-8")
    with deadline(20):
        rep = analyze_file(skill)
    assert "FILE_TOO_LARGE" in {f.code for f in rep.findings}


@pytest.mark.parametrize("body", [
    ">" * 5000 + " quote\n",
    "".join("  " * i + "- item\n" for i in range(2000)),
    "[" * 20000 + "](" * 5000 + "\n",
    "*a " * 30000 + "\n",
    "`" * 30000 + "\n" + "` x " * 10000,
    "[a](references/x.md) " * 5000 + "\n",
    "<!--" * 20000 + "\n",
    "<!-- " + "MUST\n" * 10000,
    "<!-- skillgrade-disable-next-line ORPHAN_REFERENCE -->\n" * 5000,
    "references/" + "a/" * 50000 + "\n",
    "```python\n" + "(" * 5000 + "\n```\n```json\n" + "[" * 100000 + "\n```\n```yaml\n" + "[" * 5000
    + "\n```\n```toml\na = " + "[" * 5000 + "\n```\n",
    "| a |\n|---|\n" + "| x |\n" * 20000,
    "#" * 10000 + " heading\n" + "# h\n" * 5000,
    "## h\n" * 100000,  # once quadratic (a slice per heading): ~50 s
    "> q [a](b.md)\n\n" * 30000,  # once quadratic (a sort per quote): ~30 s
], ids=["quotes", "lists", "brackets", "emphasis", "backticks", "links", "comments", "unclosed-comment",
        "disables", "long-path", "code-blocks", "table", "headings", "100k-headings", "30k-quotes"])
def test_pathological_markdown(body: str) -> None:
    check(FM + body, seconds=20)


# ------------------------------------------------------------------ encodings and control characters


def test_nul_bytes(tmp_path: Path) -> None:
    rep = check("---\nname: x\x00y\ndescription: Use when \x00 testing.\n---\n\x00# T\x00\n")
    assert "BINARY_CONTENT" in {f.code for f in rep.findings}
    skill = tmp_path / "s" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_bytes(b"---\nname: s\n---\n\x00\x01\x02")
    text, binary = read_skill(skill)
    assert binary
    assert "BINARY_CONTENT" in {f.code for f in check(text, skill, binary=binary).findings}


def test_invalid_utf8_through_read_skill(tmp_path: Path) -> None:
    skill = tmp_path / "s" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_bytes(b"---\nname: s\xff\xfe\ndescription: Use when \xed\xa0\x80 testing.\n---\n# T \xc3\x28\n")
    text, binary = read_skill(skill)
    assert binary and "\ufffd" in text
    assert "BINARY_CONTENT" in {f.code for f in check(text, skill, binary=binary).findings}


def test_lone_surrogates_in_body() -> None:
    check(FM + "\ud800 [a](references/\udc00.md) `\udfff`\n")
    check("\ud800 no frontmatter\n")


def test_lone_surrogates_in_frontmatter() -> None:
    check("---\nname: x\ud800\ndescription: Use when \udfff testing.\n---\n# T\n")


def test_control_characters_in_yaml() -> None:
    rep = check("---\nname: x\x07\ndescription: Use when \x1b[31m testing.\n---\n# T\n")
    assert "YAML_SYNTAX" in {f.code for f in rep.findings}


# ------------------------------------------------------------------ line endings


@pytest.mark.skipif(not SAMPLE, reason="no corpus at /work/shared/corpus")
def test_line_endings_do_not_move_findings() -> None:
    for path in SAMPLE[:12]:
        text, _ = read_skill(path)
        lf = text.replace("\r\n", "\n")

        def key(t: str, path: Path = path) -> list:
            rep = check(t, path, root=CORPUS)
            return [(f.code, f.range, f.message) for f in rep.findings]

        base = key(lf)
        assert key(lf.replace("\n", "\r\n")) == base, path
        assert key(lf.replace("\n", "\r")) == base, path


def test_mixed_line_endings_positions(tmp_path: Path) -> None:
    text = "---\r\nname: Bad_Name\rdescription: short\n---\r\n\r[x](references/missing.md)\n"
    rep = analyze(text, tmp_path / "Bad_Name" / "SKILL.md", workspace_root=tmp_path,
                  config=Config(select=("NAME_FORMAT", "EMPTY_DESCRIPTION", "ORPHAN_REFERENCE")))
    got = [(f.code, f.range.start.line, f.range.start.character) for f in rep.findings]
    assert got == [("NAME_FORMAT", 1, 6), ("EMPTY_DESCRIPTION", 2, 13), ("ORPHAN_REFERENCE", 5, 4)]


# ------------------------------------------------------------------ the file system


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loops_in_references(tmp_path: Path) -> None:
    skill = tmp_path / "ws" / "looped"
    refs = skill / "references"
    refs.mkdir(parents=True)
    (refs / "a.md").write_text("# A\n\nSee [b](loop/a.md).\n")
    os.symlink("..", refs / "loop")  # references/loop -> the skill dir
    os.symlink(".", refs / "self")  # references/self -> references
    os.symlink(str(tmp_path), refs / "outside")  # out of the workspace
    os.symlink("missing-target", refs / "dangling.md")
    (skill / "SKILL.md").write_text(FM.replace("robust-skill", "looped")
                                    + "\nSee [a](references/a.md) and [c](references/loop/references/self/a.md).\n")
    with deadline(20):
        rep = analyze_file(skill / "SKILL.md", workspace_root=tmp_path / "ws")
    assert not [f for f in rep.findings if f.code == "INTERNAL_ERROR"]


# ------------------------------------------------------------------ CLI


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=60)


def _skill(root: Path, name: str, text: str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(text, encoding="utf-8")
    return d


CLEAN = ("---\nname: clean-skill\ndescription: Fills PDF forms. Use when the user asks to fill, merge or split "
         "PDF files.\n---\n\n# Clean skill\n\nRun the filler on the form, then check the output.\n")


def _one_plain_line(p: subprocess.CompletedProcess) -> None:
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr


def test_cli_nonexistent_path(tmp_path: Path) -> None:
    p = cli("score", str(tmp_path / "nope"), "--no-cache", cwd=tmp_path)
    assert p.returncode == 2
    _one_plain_line(p)


def test_cli_directory_without_skill(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "README.md").write_text("# not a skill\n")
    p = cli("score", str(tmp_path / "empty"), "--no-cache", cwd=tmp_path)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and p.stderr.strip()


def test_cli_depth_deep(tmp_path: Path) -> None:
    d = _skill(tmp_path, "clean-skill", CLEAN)
    p = cli("score", str(d), "--depth", "deep", "--mc-n", "1", "--no-cache", cwd=tmp_path)
    assert p.returncode == 2
    _one_plain_line(p)
    assert "--mc-n" in p.stderr


def test_cli_bad_format(tmp_path: Path) -> None:
    d = _skill(tmp_path, "clean-skill", CLEAN)
    p = cli("score", str(d), "--format", "yaml", "--no-cache", cwd=tmp_path)
    assert p.returncode == 2
    _one_plain_line(p)


def test_cli_exit_codes(tmp_path: Path) -> None:
    clean = _skill(tmp_path, "clean-skill", CLEAN)
    p = cli("score", str(clean), "--format", "json", "--no-cache", cwd=tmp_path)
    assert p.returncode == 0, (p.stdout, p.stderr)
    report = json.loads(p.stdout)
    assert not [f for f in report["findings"] if f["severity"] == "error"]
    p = cli("score", str(clean), "--threshold", "101", "--no-cache", cwd=tmp_path)
    assert p.returncode == 1, (p.stdout, p.stderr)
    broken = _skill(tmp_path, "broken-skill", "---\nname: Broken_Skill\ndescription: Use when: broken\n---\n")
    p = cli("score", str(broken), "--no-cache", cwd=tmp_path)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert "YAML_SYNTAX" in p.stdout and "Traceback" not in p.stderr


def test_cli_binary_and_empty_files(tmp_path: Path) -> None:
    b = tmp_path / "binary-skill"
    b.mkdir()
    (b / "SKILL.md").write_bytes(b"\x00\xff\xfe" * 100)
    e = _skill(tmp_path, "empty-skill", "")
    for d in (b, e):
        p = cli("score", str(d), "--format", "json", "--no-cache", cwd=tmp_path)
        assert p.returncode == 1, (p.stdout, p.stderr)
        assert "Traceback" not in p.stderr
        json.loads(p.stdout)
