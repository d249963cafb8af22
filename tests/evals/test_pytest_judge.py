"""The pytest judge: a passing and a failing fixture, a fixture hunting for the API key (it finds none), one
that sleeps past its timeout (killed with its process group), and a fixture that collects nothing."""

from __future__ import annotations

import os
import time
from pathlib import Path

from evalkit import TEST_KEY

from skillgrade.analyzers.evals.judges import judge_pytest, sandbox_env


def suite_dir(tmp_path: Path, name: str, code: str) -> Path:
    (tmp_path / "fixtures").mkdir(parents=True, exist_ok=True)
    (tmp_path / "fixtures" / name).write_text(code, encoding="utf-8")
    return tmp_path


CHECK_JSON = """
import json, os
def test_is_json_with_name():
    data = json.loads(open(os.environ["AI_OUTPUT_FILE"]).read())
    assert data["name"] == "csv-helper"
"""


async def test_passing_and_failing_fixture(tmp_path: Path) -> None:
    root = suite_dir(tmp_path, "test_json.py", CHECK_JSON)
    ok = await judge_pytest(root, "fixtures/test_json.py", '{"name": "csv-helper"}', 30)
    assert ok.passed is True and ok.score == 1.0 and "1 passed" in ok.detail
    bad = await judge_pytest(root, "fixtures/test_json.py", '{"name": "other"}', 30)
    assert bad.passed is False and bad.score == 0.0 and "1 failed" in bad.detail


async def test_the_fixture_sees_no_api_key_or_secret(tmp_path: Path) -> None:
    code = f"""
import os
def test_no_secrets():
    assert "ANTHROPIC_API_KEY" not in os.environ
    assert "ANTHROPIC_AUTH_TOKEN" not in os.environ
    assert "GITHUB_TOKEN" not in os.environ
    assert not any("{TEST_KEY}" in v for v in os.environ.values())
    assert os.environ["HOME"] == os.getcwd()
    assert os.path.exists(os.environ["AI_OUTPUT_FILE"])
"""
    root = suite_dir(tmp_path, "test_env.py", code)
    env = {"PATH": os.environ.get("PATH", ""), "ANTHROPIC_API_KEY": TEST_KEY, "ANTHROPIC_AUTH_TOKEN": TEST_KEY,
           "GITHUB_TOKEN": "ghp_x", "MY_SECRET": TEST_KEY}
    got = await judge_pytest(root, "fixtures/test_env.py", "answer", 30, env_source=env)
    assert got.passed is True, got.detail
    # and the environment itself is a whitelist
    made = sandbox_env(tmp_path, tmp_path / "o.txt", env)
    assert set(made) == {"PATH", "AI_OUTPUT_FILE", "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED",
                         "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "NO_COLOR"}


async def test_a_fixture_that_sleeps_past_its_timeout_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    code = f"""
import subprocess, sys, time
def test_sleeps():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    open({str(pidfile)!r}, "w").write(str(child.pid))
    time.sleep(60)
"""
    root = suite_dir(tmp_path, "test_sleep.py", code)
    start = time.monotonic()
    got = await judge_pytest(root, "fixtures/test_sleep.py", "answer", 1.5)
    elapsed = time.monotonic() - start
    assert got.passed is False and "timed out after 1.5 s" in got.detail
    assert elapsed < 10
    pid = int(pidfile.read_text())
    for _ in range(100):  # the grandchild went with the process group
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the fixture's child process survived the timeout")


async def test_a_fixture_without_tests_is_not_a_failure(tmp_path: Path) -> None:
    root = suite_dir(tmp_path, "test_empty.py", "x = 1\n")
    got = await judge_pytest(root, "fixtures/test_empty.py", "answer", 30)
    assert got.passed is None and "collected no tests" in (got.error or "")


async def test_the_scratch_copy_leaves_out_symlinks_escaping_fixtures(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret")
    root = tmp_path / "suite"
    code = """
import os
def test_no_link():
    assert not os.path.exists(os.path.join(os.path.dirname(__file__), "leak.txt"))
    assert os.path.exists(os.path.join(os.path.dirname(__file__), "data.txt"))
"""
    suite_dir(root, "test_copy.py", code)
    (root / "fixtures" / "data.txt").write_text("ok")
    os.symlink(outside / "secret.txt", root / "fixtures" / "leak.txt")
    got = await judge_pytest(root, "fixtures/test_copy.py", "answer", 30)
    assert got.passed is True, got.detail
