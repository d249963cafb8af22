"""`skillgrade evaluate` end to end: the real CLI in a subprocess, the real SDK, the fake Messages API."""

from __future__ import annotations

import json
import os
from pathlib import Path

from evalkit import SKILL_MD, answering, cli, contains_suite, is_candidate, make_skill, write_suite
from fakeapi import FakeAPI

from skillgrade.analyzers.evals.suite import load_suite

REPO = Path(__file__).resolve().parents[2]


def test_standalone_run_writes_the_artifact_under_the_state_root(fake_api: FakeAPI, tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "suite", contains_suite(5))
    skill = make_skill(tmp_path)
    fake_api.responder = answering(candidate={1, 2, 3, 4}, baseline={1, 2, 3})
    p = cli(fake_api, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite), "--skill-path", str(skill),
            "--state-root", str(tmp_path / "state"))
    assert p.returncode == 0, p.stderr
    [path] = (tmp_path / "state" / "evaluations").glob("*.json")
    art = json.loads(path.read_text())
    assert (art["execution_pass_rate"], art["baseline_pass_rate"], art["delta"], art["verdict"]) == (
        0.8, 0.6, 0.2, "pass")
    assert art["truth_anchor"] == str(path.resolve()) and path.stem == art["run_id"]
    assert art["mode"] == "standalone" and art["baseline"] == {"kind": "no-skill"} and art["mock"] is False
    assert art["ledger"]["calls"] == 10
    assert "verdict PASS" in p.stdout and "candidate 80%, baseline 60%, delta +20 pts" in p.stdout
    assert "LLM: 10 call(s)" in p.stderr


def test_a_hostile_suite_is_refused_with_all_its_errors_before_any_call(fake_api: FakeAPI, tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "suite", """
        skill_id: ""
        version: "1.0"
        tasks:
          - {id: a, prompt: p, judge: {type: pytest, test_file: "fixtures/../../etc/passwd"}}
          - {id: b, prompt: p, judge: {type: pytest, test_file: "/etc/passwd"}}
          - {id: a, prompt: "", judge: {type: contains, expected: []}}
        """)
    skill = make_skill(tmp_path)
    p = cli(fake_api, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite), "--skill-path", str(skill),
            "--state-root", str(tmp_path / "state"))
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert lines[:-1] == [
        f"{suite}:1:11: the task suite: `skill_id` must be a non-empty string",
        f"{suite}:4:57: task 'a': judge pytest: `test_file` 'fixtures/../../etc/passwd' must not contain `..`",
        f"{suite}:5:57: task 'b': judge pytest: `test_file` '/etc/passwd' must be a relative path under fixtures/, "
        "not an absolute one",
        f"{suite}:6:10: task 'a': duplicate task id (first used by task 1)",
        f"{suite}:6:21: task 'a': `prompt` must be a non-empty string",
        f"{suite}:6:59: task 'a': judge contains: `expected` must be a non-empty list of strings",
    ]
    assert lines[-1] == "skillgrade: error: the task suite has 6 error(s); nothing was run"
    assert fake_api.requests == [] and not (tmp_path / "state").exists()


def test_missing_suite_and_bad_modes_are_usage_errors(tmp_path: Path) -> None:
    skill = make_skill(tmp_path)
    p = cli(None, tmp_path, "evaluate", "--standalone", "--task-suite", "nope.yaml", "--skill-path", str(skill))
    assert p.returncode == 2 and "Task suite not found" in p.stderr
    suite = write_suite(tmp_path / "suite", contains_suite(1))
    p = cli(None, tmp_path, "evaluate", "--task-suite", str(suite), "--skill-path", str(skill))
    assert p.returncode == 2 and "choose one mode" in p.stderr
    p = cli(None, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite))
    assert p.returncode == 2 and "--standalone needs --skill-path" in p.stderr
    p = cli(None, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite), "--skill-path", str(skill),
            key=None)
    assert p.returncode == 2 and "No API key" in p.stderr and "--mock" in p.stderr


def test_mock_needs_no_key_calls_nothing_and_never_reads_as_real(fake_api: FakeAPI, tmp_path: Path) -> None:
    suite = REPO / "examples" / "evals" / "release-notes" / "task_suite.yaml"
    skill = REPO / "examples" / "skills" / "release-notes"
    out = tmp_path / "mock.json"
    p = cli(fake_api, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite), "--skill-path", str(skill),
            "--mock", "--output", str(out), "--baseline-cache-dir", str(tmp_path / "bc"), key=None)
    assert p.returncode == 0, p.stderr
    art = json.loads(out.read_text())
    assert art["mock"] is True and art["verdict"] == "mock" and art["mock_verdict"] == "pass"
    assert art["execution_pass_rate"] is None and art["baseline_pass_rate"] is None and art["delta"] is None
    assert art["mock_rates"] == {"execution_pass_rate": 0.75, "baseline_pass_rate": 0.75, "delta": 0.0}
    assert art["run_id"].startswith("mock-") and art["note"].startswith("MOCK RUN")
    assert art["ledger"] is None and fake_api.requests == []
    assert not (tmp_path / "bc").exists()  # a mock baseline is never cached
    assert p.stdout.startswith("MOCK RUN") and "verdict MOCK" in p.stdout and "MOCK pass rate: candidate 75%" in p.stdout
    by_id = {r["task_id"]: r for r in art["candidate_results"]}
    assert by_id["groups"]["passed"] is True  # the canned answer carries the contains keywords
    assert by_id["breaking-called-out"]["attempts"][0]["detail"].startswith("MOCK")
    assert by_id["markdown-sections"]["passed"] is False  # pytest really ran on the canned answer


def test_pipeline_mode_skips_below_the_threshold_and_runs_above(fake_api: FakeAPI, tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "suite", contains_suite(2))
    make_skill(tmp_path / "cands", "c1")
    make_skill(tmp_path / "cands", "c2")
    ranking = tmp_path / "ranking.json"
    ranking.write_text(json.dumps({"candidates": [
        {"id": "c1", "score": 5.5, "skill_path": "cands/c1"},
        {"id": "c2", "score": 7.25, "skill_path": "cands/c2/SKILL.md"}]}))
    fake_api.responder = answering(candidate={1, 2}, baseline={1})
    low = cli(fake_api, tmp_path, "evaluate", "--input", str(ranking), "--candidate-id", "c1", "--task-suite",
              str(suite), "--output", str(tmp_path / "c1.json"), "--format", "json")
    assert low.returncode == 0, low.stderr
    art = json.loads(low.stdout)
    assert art["verdict"] == "skipped" and art["reason"] == "discriminator score 5.5 < --eval-threshold 6"
    assert art["execution_pass_rate"] is None and art["candidate_results"] == [] and fake_api.requests == []
    assert json.loads((tmp_path / "c1.json").read_text()) == art
    high = cli(fake_api, tmp_path, "evaluate", "--input", str(ranking), "--candidate-id", "c2", "--task-suite",
               str(suite), "--output", str(tmp_path / "c2.json"), "--format", "json", "--eval-threshold", "7")
    assert high.returncode == 0, high.stderr
    art = json.loads(high.stdout)
    assert (art["verdict"], art["execution_pass_rate"], art["baseline_pass_rate"], art["delta"]) == (
        "pass", 1.0, 0.5, 0.5)
    assert art["candidate_id"] == "c2" and art["discriminator_score"] == 7.25 and art["mode"] == "pipeline"
    assert art["candidate_skill"] == str((tmp_path / "cands" / "c2" / "SKILL.md").resolve())
    assert sum(1 for r in fake_api.message_requests if is_candidate(r.body)) == 2
    missing = cli(fake_api, tmp_path, "evaluate", "--input", str(ranking), "--candidate-id", "c9", "--task-suite",
                  str(suite))
    assert missing.returncode == 2 and "no candidate 'c9' (candidates: c1, c2)" in missing.stderr


def test_a_failing_candidate_exits_1_and_baseline_skill_is_used(fake_api: FakeAPI, tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "suite", contains_suite(2))
    cand = make_skill(tmp_path / "a", "new", SKILL_MD.replace("name: csv-helper", "name: new"))
    orig = make_skill(tmp_path / "b", "orig", SKILL_MD.replace("name: csv-helper", "name: orig"))
    # "candidate" here = any request carrying a SKILL.md: both sides do with --baseline-skill
    fake_api.responder = lambda b: answering({1, 2} if "name: orig" in json.dumps(b) else {1}, set())(b)
    p = cli(fake_api, tmp_path, "evaluate", "--standalone", "--task-suite", str(suite), "--skill-path", str(cand),
            "--baseline-skill", str(orig), "--output", str(tmp_path / "o.json"))
    art = json.loads((tmp_path / "o.json").read_text())
    assert p.returncode == 1 and art["verdict"] == "fail" and art["delta"] == -0.5
    assert art["baseline"] == {"kind": "skill", "skill": str((orig / "SKILL.md").resolve())}


def test_example_suite_is_valid() -> None:
    s = load_suite(REPO / "examples" / "evals" / "release-notes" / "task_suite.yaml")
    assert {t.judge.type for t in s.tasks} == {"contains", "pytest", "llm-binary", "llm-rubric"}
    assert os.path.isfile(s.fixtures / "test_release_notes.py")


def test_ranking_file_shapes(tmp_path: Path) -> None:
    import pytest

    from skillgrade.server.cli import UsageError
    from skillgrade.server.cli_evaluate import read_ranking

    r = tmp_path / "r.json"
    r.write_text(json.dumps({"original_skill_path": "orig", "ranking": [
        {"candidate_id": "a", "total_score": 6, "candidate_path": "x/SKILL.md"}, {"id": "b"}]}))
    got = read_ranking(r, "a")
    assert got == {"score": 6.0, "skill_path": tmp_path / "x/SKILL.md", "baseline_skill": tmp_path / "orig"}
    assert read_ranking(r, "b") == {"score": None, "skill_path": None, "baseline_skill": tmp_path / "orig"}
    r.write_text(json.dumps({"candidates": [{"id": "a", "score": "high"}]}))
    with pytest.raises(UsageError, match="non-numeric score"):
        read_ranking(r, "a")
    r.write_text("[1, 2]")
    with pytest.raises(UsageError, match="must be a JSON object"):
        read_ranking(r, "a")


def test_progress_bar_only_on_a_terminal() -> None:
    import io

    from skillgrade.server.cli_evaluate import progress_printer

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert progress_printer(io.StringIO()) is None
    out = Tty()
    show = progress_printer(out)
    show("baseline", 3, 4)
    assert out.getvalue() == "\rbaseline  [##################......] 3/4\x1b[K"
