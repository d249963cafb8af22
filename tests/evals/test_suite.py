"""Task-suite validation: the seed's rules, every error with file:line:col, all at once; hostile paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from evalkit import write_suite

from skillgrade.analyzers.evals.suite import SuiteInvalid, load_suite, looks_like_suite, suite_findings

GOOD = """
skill_id: "csv-helper"
version: "1.0"
tasks:
  - id: "a"
    prompt: "clean it"
    judge:
      type: "contains"
      expected: ["delimiter"]
  - id: "b"
    prompt: "test it"
    judge:
      type: "pytest"
      test_file: "fixtures/test_b.py"
    timeout_seconds: 5
  - id: "c"
    prompt: "rate it"
    judge:
      type: "llm-rubric"
      rubric: "Must mention the encoding"
  - id: "d"
    prompt: "flag it"
    judge:
      type: "llm-binary"
      criterion: "Does it name the delimiter?"
      examples:
        - {output: "comma-delimited", result: pass, critique: "names it"}
"""


def errors_of(path: Path) -> list[tuple[int, int, str]]:
    with pytest.raises(SuiteInvalid) as info:
        load_suite(path)
    assert all(e.file == str(path) for e in info.value.errors)
    return [(e.line, e.column, e.message) for e in info.value.errors]


def test_a_valid_suite_loads_with_defaults(tmp_path: Path) -> None:
    s = load_suite(write_suite(tmp_path, GOOD, {"fixtures/test_b.py": "def test_x():\n    pass\n"}))
    assert s.skill_id == "csv-helper" and s.version == "1.0" and [t.id for t in s.tasks] == ["a", "b", "c", "d"]
    a, b, c, d = s.tasks
    assert a.judge.expected == ("delimiter",) and a.timeout_seconds == 120.0
    assert b.judge.test_file == "fixtures/test_b.py" and b.timeout_seconds == 5.0
    assert c.judge.pass_threshold == 0.7
    assert d.judge.examples[0].result == "PASS" and d.judge.examples[0].critique == "names it"
    assert len(s.digest) == 64


def test_every_seed_rule_is_reported_at_once_with_line_and_column(tmp_path: Path) -> None:
    path = write_suite(tmp_path, """
        skill_id: ""
        version: 1.1
        tasks:
          - id: "x"
            prompt: ""
            judge:
              type: "contains"
              expected: []
          - id: "x"
            prompt: "p"
            judge:
              type: "regex"
          - id: "y"
            prompt: "p"
          - id: "z"
            prompt: "p"
            judge:
              type: "llm-rubric"
              rubric: "   "
              pass_threshold: 3
          - id: "w"
            prompt: "p"
            judge:
              type: "contains"
              expected: ["ok", 3]
            timeout_seconds: 0
        """)
    got = errors_of(path)
    assert got == [
        (1, 11, "the task suite: `skill_id` must be a non-empty string"),
        (2, 10, "the task suite: `version` must be \"1.0\", not '1.1'"),
        (5, 13, "task 'x': `prompt` must be a non-empty string"),
        (8, 17, "task 'x': judge contains: `expected` must be a non-empty list of strings"),
        (9, 9, "task 'x': duplicate task id (first used by task 1)"),
        (12, 13, "task 'x': judge: unknown judge type 'regex' (one of contains, pytest, llm-rubric, llm-binary)"),
        (13, 5, "task 'y': missing `judge` (a mapping with a `type`)"),
        (19, 15, "task 'z': judge llm-rubric: `rubric` must be a non-empty string"),
        (20, 23, "task 'z': judge llm-rubric: `pass_threshold` must be a number from 0 to 1"),
        (25, 24, "task 'w': judge contains: every `expected` item must be a non-empty string"),
        (26, 22, "task 'w': `timeout_seconds` must be a number > 0"),
    ]
    assert str(SuiteInvalid([]).errors) == "[]"


def test_missing_keys_point_at_the_mapping(tmp_path: Path) -> None:
    path = write_suite(tmp_path, """
        skill_id: s
        tasks:
          - prompt: p
            judge: {type: pytest}
          - id: b
            prompt: p
            judge: {type: llm-binary}
        """)
    assert errors_of(path) == [
        (1, 1, 'the task suite: missing `version` (must be "1.0")'),
        (3, 5, "task 1: missing `id`"),
        (4, 12, "task 1: judge pytest: missing `test_file`"),
        (7, 12, "task 'b': judge llm-binary: missing `criterion`"),
    ]


def test_yaml_syntax_and_empty_and_missing(tmp_path: Path) -> None:
    p = write_suite(tmp_path / "a", "skill_id: [unclosed\nversion: '1.0'\n")
    [(line, col, msg)] = errors_of(p)
    assert line == 2 and msg.startswith("YAML syntax:")
    assert errors_of(write_suite(tmp_path / "b", "\n")) == [
        (1, 1, "the task suite is empty (it needs skill_id, version and tasks)")]
    assert errors_of(tmp_path / "nope.yaml") == [(1, 1, "Task suite not found")]
    assert errors_of(write_suite(tmp_path / "c", "- a\n- b\n")) == [(1, 1, "the task suite must be a mapping")]


HOSTILE = """
skill_id: s
version: "1.0"
tasks:
  - {id: a, prompt: p, judge: {type: pytest, test_file: "fixtures/../secret.py"}}
  - {id: b, prompt: p, judge: {type: pytest, test_file: "/etc/passwd"}}
  - {id: c, prompt: p, judge: {type: pytest, test_file: "tests/test_c.py"}}
  - {id: d, prompt: p, judge: {type: pytest, test_file: "fixtures/link.py"}}
  - {id: e, prompt: p, judge: {type: pytest, test_file: "fixtures/missing.py"}}
  - {id: f, prompt: p, judge: {type: pytest, test_file: "fixtures/sub/t.py"}}
  - {id: g, prompt: p, judge: {type: pytest, test_file: "./fixtures/t.py"}}
"""


def test_hostile_fixture_paths_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.py").write_text("def test_x():\n    pass\n")
    (tmp_path / "secret.py").write_text("x = 1\n")
    path = write_suite(tmp_path / "suite", HOSTILE, {"tests/test_c.py": "def test_c():\n    pass\n"})
    fixtures = tmp_path / "suite" / "fixtures"
    fixtures.mkdir()
    os.symlink(outside / "evil.py", fixtures / "link.py")
    os.symlink(outside, fixtures / "sub")
    (outside / "t.py").write_text("def test_t():\n    pass\n")
    got = errors_of(path)
    assert [(line, col) for line, col, _ in got] == [(4, 57), (5, 57), (6, 57), (7, 57), (8, 57), (9, 57), (10, 57)]
    msgs = [m for _, _, m in got]
    assert "must not contain `..`" in msgs[0]
    assert "not an absolute one" in msgs[1]
    assert "must start with fixtures/" in msgs[2]
    assert "resolves outside the suite's fixtures/ folder" in msgs[3]
    assert "not found" in msgs[4]
    assert "resolves outside the suite's fixtures/ folder" in msgs[5]
    assert "must start with fixtures/" in msgs[6]


def test_a_symlinked_fixtures_folder_out_of_the_suite_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "t.py").write_text("def test_t():\n    pass\n")
    path = write_suite(tmp_path / "suite", """
        skill_id: s
        version: "1.0"
        tasks:
          - {id: a, prompt: p, judge: {type: pytest, test_file: fixtures/t.py}}
        """)
    os.symlink(outside, tmp_path / "suite" / "fixtures")
    [(line, _col, msg)] = errors_of(path)
    assert line == 4 and "symlink out of the suite's folder" in msg


def test_side_document_validator_claims_suites_by_name_or_content(tmp_path: Path) -> None:
    text = 'skill_id: s\nversion: "2"\ntasks: []\n'
    got = suite_findings(tmp_path / "evals" / "any.yaml", text)
    assert got is not None and [(f.range.start.line, f.range.start.character) for f in got] == [(1, 9), (2, 7)]
    assert all(f.code == "TASK_SUITE" for f in got)
    assert suite_findings(tmp_path / "other.yaml", "name: x\nsteps: []\n") is None
    assert suite_findings(tmp_path / "task_suite.yaml", "name: x\n") is not None  # named: always a suite
    assert suite_findings(tmp_path / "x.json", text) is None
    assert looks_like_suite("skill_id: [\ntasks:\n") and not looks_like_suite("a: 1\n")


def test_a_suite_nested_thousands_deep_is_one_error_not_a_crash(tmp_path: Path) -> None:
    # pyyaml's composer recurses once per level: `[[[[…` past the interpreter's limit raised RecursionError
    text = 'skill_id: a\nversion: "1.0"\ntasks:\n  - id: x\n    prompt: ' + "[" * 3000 + "\n"
    found = suite_findings(tmp_path / "task_suite.yaml", text)
    assert [(f.code, f.message) for f in found] == [
        ("TASK_SUITE", "YAML syntax: the document is nested too deeply to read")]
    assert looks_like_suite(text)  # named keys at the top: still a suite, so its error is shown
