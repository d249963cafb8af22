"""Baselines: fingerprints that survive line shifts (analyzers/baseline.py), `skillgrade baseline write`, and
`score --baseline` failing only on findings added after the baseline (every output format)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillgrade.analyzers.baseline import (
    BaselineError,
    Entry,
    fingerprint,
    fingerprint_findings,
    normalise_line,
    parse,
    split,
    to_json,
)
from tests.test_cli import EXAMPLES, run


def _f(code: str, line: int, char: int = 0, message: str = "m", file: str | None = None) -> dict:
    d = {"code": code, "message": message,
         "range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char}}}
    if file:
        d["file"] = file
    return d


def test_fingerprint_is_a_fixed_function_of_code_file_text_and_occurrence() -> None:
    # a baseline written by this version must match the next one: the value is pinned
    assert fingerprint("NAME_FORMAT", "skills/a/SKILL.md", "name:   PDF_Tools ", 0) == "26e3bb3aece09e4c2730"
    assert normalise_line("\ufeff  name:\t PDF_Tools  ") == "name: PDF_Tools"
    base = fingerprint("X", "a/SKILL.md", "t", 0)
    assert len({base, fingerprint("Y", "a/SKILL.md", "t", 0), fingerprint("X", "b/SKILL.md", "t", 0),
                fingerprint("X", "a/SKILL.md", "u", 0), fingerprint("X", "a/SKILL.md", "t", 1)}) == 5


def test_line_shift_keeps_fingerprints_and_identical_lines_get_occurrence_indexes(tmp_path: Path) -> None:
    skill = str(tmp_path / "s" / "SKILL.md")
    before = {skill: ["---", "name: x", "---", "```", "a", "```", "```", "b", "```"]}
    after = {skill: ["---", "name: x", "---", "new", "lines", "```", "a", "```", "```", "b", "```"]}
    found_before = [(skill, _f("CODE_BLOCK_UNTAGGED", 6)), (skill, _f("CODE_BLOCK_UNTAGGED", 3))]
    found_after = [(skill, _f("CODE_BLOCK_UNTAGGED", 5)), (skill, _f("CODE_BLOCK_UNTAGGED", 8))]
    a = fingerprint_findings(found_before, str(tmp_path), before.get)
    b = fingerprint_findings(found_after, str(tmp_path), after.get)
    # same line text "```": told apart by their order in the file (line 3 is occurrence 0 in `before`)
    assert a[1].fingerprint == fingerprint("CODE_BLOCK_UNTAGGED", "s/SKILL.md", "```", 0)
    assert a[0].fingerprint == fingerprint("CODE_BLOCK_UNTAGGED", "s/SKILL.md", "```", 1)
    assert {e.fingerprint for e in a} == {e.fingerprint for e in b}
    assert (a[1].file, a[1].line) == ("s/SKILL.md", 4)
    # a third identical line (added at the top) is one new finding: the baseline covers two of them, and the
    # one reported as new is the last of the three in the file (occurrences are counted in file order)
    found_more = [*found_after, (skill, _f("CODE_BLOCK_UNTAGGED", 0))]
    after[skill][0] = "```"
    c = fingerprint_findings(found_more, str(tmp_path), after.get)
    assert split(c, parse(to_json(a))) == [True, False, True]


def test_bundled_file_findings_are_keyed_by_their_own_file(tmp_path: Path) -> None:
    skill = str(tmp_path / "s" / "SKILL.md")
    ref = str(tmp_path / "s" / "references" / "r.md")
    lines = {skill: ["same"], ref: ["same"]}
    e = fingerprint_findings([(skill, _f("C", 0)), (skill, _f("C", 0, file="references/r.md"))],
                             str(tmp_path), lines.get)
    assert [x.file for x in e] == ["s/SKILL.md", "s/references/r.md"]
    assert e[0].fingerprint != e[1].fingerprint
    unreadable = fingerprint_findings([(skill, _f("C", 0))], str(tmp_path), lambda _p: None)
    assert unreadable[0].fingerprint == fingerprint("C", "s/SKILL.md", "", 0)


def test_baseline_file_round_trip_and_bad_files() -> None:
    rows = [Entry("b" * 20, "B", "z/SKILL.md", 3, "m2"), Entry("a" * 20, "A", "a/SKILL.md", 9, "m1")]
    text = to_json(rows)
    doc = json.loads(text)
    assert doc["format"] == "skillgrade-baseline" and doc["version"] == 1
    assert [r["file"] for r in doc["findings"]] == ["a/SKILL.md", "z/SKILL.md"]  # sorted: diffs well
    assert parse(text) == {"a" * 20: 1, "b" * 20: 1}
    for bad, words in (("{", "invalid JSON"), ("[]", "not a skillgrade baseline"),
                       ('{"format": "skillgrade-baseline", "version": 9, "findings": []}', "version 9"),
                       ('{"format": "skillgrade-baseline", "version": 1, "findings": [{}]}', "fingerprint")):
        with pytest.raises(BaselineError, match=words):
            parse(bad, "b.json")


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    dst = tmp_path / "repo"
    shutil.copytree(EXAMPLES, dst / "skills")
    (dst / ".git").mkdir()
    return dst


def _shift_and_add(repo: Path) -> None:
    """Tomorrow's edit: lines added above every finding of pdf-tools, and one new error in a clean skill."""
    pdf = repo / "skills" / "pdf-tools" / "SKILL.md"
    text = pdf.read_text()
    pdf.write_text(text.replace("# PDF tools\n", "# PDF tools\n\nAn intro paragraph.\n\nAnother one.\n"))
    pdf_fm = pdf.read_text().replace("author: someone\n", "author: someone\nlicense: MIT\n")
    pdf.write_text(pdf_fm)
    csv = repo / "skills" / "csv-report-builder" / "SKILL.md"
    csv.write_text(csv.read_text() + "\nSee [the missing page](references/missing.md).\n")


def test_baseline_then_shift_and_one_new_finding_fails_only_on_the_new_one(repo: Path) -> None:
    w = run("baseline", "write", "skills", "--no-cache", cwd=repo)
    assert w.returncode == 0, w.stderr
    assert "wrote 10 findings of 3 skills to .skillgrade-baseline.json" in w.stdout
    same = run("score", "skills", "--no-cache", "--baseline", ".skillgrade-baseline.json", cwd=repo)
    assert same.returncode == 0 and "10 findings baselined" in same.stdout
    assert "3 skills, 0 findings" in same.stdout

    _shift_and_add(repo)
    plain = run("score", "skills", "--no-cache", cwd=repo)
    assert plain.returncode == 1
    p = run("score", "skills", "--no-cache", "--baseline", ".skillgrade-baseline.json", cwd=repo)
    assert p.returncode == 1
    finding_lines = [x for x in p.stdout.splitlines() if x.startswith("skills/") and ": " in x
                     and not x.split(": ")[0].endswith("SKILL.md")]
    assert finding_lines == ["skills/csv-report-builder/SKILL.md:58:24: ORPHAN_REFERENCE [*] Link target "
                             "`references/missing.md` does not exist in `references/`"]
    assert "10 findings baselined (not reported)" in p.stdout

    j = json.loads(run("score", "skills", "--no-cache", "--format", "json", "--baseline",
                       ".skillgrade-baseline.json", cwd=repo).stdout)
    assert j["summary"]["baselined"] == 10 and j["summary"]["findings"] == 1
    assert [f["code"] for r in j["skills"] for f in r["findings"]] == ["ORPHAN_REFERENCE"]
    assert {r["skill"]["path"]: r["baselined"] for r in j["skills"]} == {
        "skills/csv-report-builder/SKILL.md": 0, "skills/pdf-tools/SKILL.md": 9, "skills/release-notes/SKILL.md": 1}

    s = run("score", "skills", "--no-cache", "--format", "sarif", "--baseline", ".skillgrade-baseline.json",
            cwd=repo)
    sarif = json.loads(s.stdout)
    assert s.returncode == 1 and sarif["runs"][0]["properties"] == {"baselined": 10}
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["ORPHAN_REFERENCE"]
    assert "10 findings baselined" in s.stderr

    g = run("score", "skills", "--no-cache", "--format", "github", "--baseline", ".skillgrade-baseline.json",
            cwd=repo)
    annotations = [x for x in g.stdout.splitlines() if x.startswith("::")]
    assert len(annotations) == 1 and "file=skills/csv-report-builder/SKILL.md" in annotations[0]
    assert g.stdout.splitlines()[-1] == "skillgrade: 10 findings baselined (not reported)"


def test_baseline_from_config_relative_to_its_folder_and_no_baseline(repo: Path) -> None:
    (repo / ".skillgrade.toml").write_text('baseline = "ci/baseline.json"\n')
    w = run("baseline", "write", "--no-cache", cwd=repo)  # PATHS default to .; output from the config
    assert w.returncode == 0 and (repo / "ci" / "baseline.json").is_file(), w.stderr
    rows = json.loads((repo / "ci" / "baseline.json").read_text())["findings"]
    assert {r["file"] for r in rows} == {"../skills/pdf-tools/SKILL.md", "../skills/release-notes/SKILL.md"}
    sub = repo / "skills"
    p = run("score", "pdf-tools", "--no-cache", cwd=sub)  # run from elsewhere: still found and matched
    assert p.returncode == 0 and "9 findings baselined" in p.stdout, p.stdout + p.stderr
    q = run("score", "pdf-tools", "--no-cache", "--no-baseline", cwd=sub)
    assert q.returncode == 1 and "baselined" not in q.stdout


def test_missing_or_bad_baseline_is_a_usage_error(repo: Path) -> None:
    p = run("score", "skills", "--no-cache", "--baseline", "nope.json", cwd=repo)
    assert p.returncode == 2 and "nope.json: baseline file not found" in p.stderr
    (repo / "bad.json").write_text("[1]")
    p = run("score", "skills", "--no-cache", "--baseline", "bad.json", cwd=repo)
    assert p.returncode == 2 and "not a skillgrade baseline file" in p.stderr
    p = run("baseline", cwd=repo)
    assert p.returncode == 2 and "baseline write" in p.stderr
