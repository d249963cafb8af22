"""`skillgrade comprehension` end to end: the real CLI in a subprocess, the real anthropic SDK, pointed
(ANTHROPIC_BASE_URL) at the fake Messages API with the scripted agent and grader."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from comp_script import COPIED, EVALS, SKILL_DIR, CompResponder, load_prompts, verdict
from fakeapi import FakeAPI
from llm_test_fixtures import TEST_KEY


def cli(fake: FakeAPI | None, tmp: Path, *args: str, key: str | None = TEST_KEY) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["XDG_CACHE_HOME"] = str(tmp / "xdg")
    env["ANTHROPIC_CONFIG_DIR"] = "/nonexistent-anthropic-config"
    if fake is not None:
        env["ANTHROPIC_BASE_URL"] = fake.url
    if key:
        env["ANTHROPIC_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], env=env, cwd=tmp,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """tmp/skills/type-safety/SKILL.md and tmp/_evals/type-safety.json (the reference repository's layout)."""
    shutil.copytree(SKILL_DIR, tmp_path / "skills" / "type-safety")
    (tmp_path / "_evals").mkdir()
    shutil.copy(EVALS, tmp_path / "_evals" / "type-safety.json")
    return tmp_path


def grader(case_id, attempt, answer, behaviors):
    if case_id == 9 and attempt == 1:  # a fabricated quote, caught and re-run
        return verdict(case_id, answer, behaviors, quote="a quote the agent never wrote")
    return verdict(case_id, answer, behaviors)


def test_json_report_found_under_evals(tree):
    with FakeAPI() as fake:
        r = CompResponder(grader, answers={1: COPIED})
        load_prompts(r)
        fake.responder = r
        got = cli(fake, tree, "comprehension", "skills/type-safety", "--format", "json",
                  "--agent-model", "claude-haiku-5-5", "--grader-model", "gpt-grader-1")
    assert got.returncode == 1, got.stderr
    out = json.loads(got.stdout)
    assert out["eval_file"].endswith("_evals/type-safety.json")
    assert out["verdict"] == {"verdict": "PARTIAL", "dimensions_passed": 8, "dimensions": 9,
                              "exceptions": {"C1": "FAIL"}}
    case9 = next(c for c in out["with_skill"]["cases"] if c["case_id"] == 9)
    assert case9["status"] == "PASS" and case9["grader_attempts"] == 2
    assert out["ledger"]["calls"] == 21 and out["models"] == {"agent": "claude-haiku-5-5", "grader": "gpt-grader-1"}
    assert TEST_KEY not in got.stdout + got.stderr


def test_text_and_markdown_with_baseline(tree):
    with FakeAPI() as fake:
        r = CompResponder(lambda cid, a, ans, bs: verdict(cid, ans, bs, fail=set() if "Answer" in ans else {bs[0][0]}))
        load_prompts(r)
        fake.responder = r
        text = cli(fake, tree, "comprehension", "skills/type-safety", "--baseline")
        md = cli(fake, tree, "comprehension", "skills/type-safety/SKILL.md", "--baseline", "--format", "markdown")
        n = len(fake.message_requests)
    assert text.returncode == 0, text.stderr
    assert "type-safety: comprehension PASS (9/9 dimensions pass)" in text.stdout
    assert "C7  Misconception inoculation   PASS         2/2       0/2 → 2/2 (+2)" in text.stdout
    assert "same model family (claude)" in text.stdout  # default models: haiku agent, sonnet grader
    assert "LLM: 40 call(s)" in text.stderr
    assert md.returncode == 0 and n == 40  # the second run came from the cache
    assert "| C7 | Misconception inoculation | PASS | 2/2 | 0/2 → 2/2 (+2) |" in md.stdout
    assert "### Case 1 (C1, near transfer): PASS" in md.stdout


def test_no_eval_file_says_where_it_looked(tmp_path):
    shutil.copytree(SKILL_DIR, tmp_path / "type-safety")
    got = cli(None, tmp_path, "comprehension", "type-safety")
    assert got.returncode == 2
    assert "no eval file for skill 'type-safety'; looked at:" in got.stderr
    assert "type-safety/evals.json" in got.stderr and "_evals/type-safety.json" in got.stderr


def test_eval_file_findings_and_dry_run(tree):
    bad = json.loads(EVALS.read_text())
    bad["evals"][1]["prompt"] = "Where do you parse every I/O boundary with a schema validator, and why?"
    text = json.dumps(bad, indent=2)
    (tree / "evals.json").write_text(text)
    lines = text.splitlines()
    far = [i for i, line in enumerate(lines, 1) if line.strip() == '"transfer": "far",'][0]  # case 2's tag
    got = cli(None, tree, "comprehension", "skills/type-safety", "--evals", "evals.json", "--dry-run", key=None)
    assert got.returncode == 0, got.stderr
    assert f"evals.json:{far}:19: warning EVAL_FAR_TRANSFER_OVERLAP case 2 is tagged `transfer: far`" in got.stderr
    assert "“parse every boundary schema”, “every boundary schema validator”" in got.stderr
    assert "20 call(s)" in got.stdout


def test_syntax_error_and_no_key(tree):
    (tree / "broken.json").write_text('{"evals": [\n  {"id": 1,}\n]}')
    got = cli(None, tree, "comprehension", "skills/type-safety", "--evals", "broken.json")
    assert got.returncode == 2 and "broken.json:2:12: error EVAL_JSON not valid JSON" in got.stderr
    got = cli(None, tree, "comprehension", "skills/type-safety", key=None)
    assert got.returncode == 2 and "No API key" in got.stderr
