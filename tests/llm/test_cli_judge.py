"""`skillgrade score --depth standard` / `skillgrade judge` end to end: the real CLI in a subprocess, the real
anthropic SDK, pointed (ANTHROPIC_BASE_URL) at the fake Messages API on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fakeapi import FakeAPI, json_reply, status
from judge_script import NEGATIVE, POSITIVE, make_skill, verdict
from test_judge_sdk import responder

from conftest import TEST_KEY

# the seed's blend table (static, judge) and dimension weights, written out here on purpose
SEED = {
    "triggering_accuracy": (0.25, 0.15, 0.25), "orchestration_fitness": (0.20, 0.10, 0.70),
    "output_quality": (0.15, 0.00, 0.40), "scope_calibration": (0.12, 0.30, 0.55),
    "progressive_disclosure": (0.10, 0.80, 0.20), "token_efficiency": (0.06, 0.40, 0.10),
    "robustness": (0.05, 0.00, 0.20), "structural_completeness": (0.03, 0.90, 0.10),
    "code_template_quality": (0.02, 0.30, 0.70), "ecosystem_coherence": (0.02, 0.85, 0.15),
}
SCRIPTED = {"orchestration_fitness": 0.85, "output_quality": 0.7, "scope_calibration": 0.6,
            "progressive_disclosure": 0.45, "token_efficiency": 0.9, "robustness": 0.3,
            "structural_completeness": 0.8, "code_template_quality": 0.65, "ecosystem_coherence": 0.5}
F1 = 0.8  # one should-trigger prompt missed, one near miss activates: tp 4, fp 1, fn 1


def route(p: str) -> str | None:
    if p == POSITIVE[0]:
        return None
    return "pdf-tools" if "pdf" in p or p == NEGATIVE[1] else None


def judge_by_table(dim: str, body: dict) -> Any:
    if dim == "triggering_accuracy":
        return None
    tasks = {"tasks": [{"task": f"t{i}", "outcome": "ok"} for i in range(3)]} if dim == "output_quality" else {}
    return json_reply(verdict(SCRIPTED[dim], **tasks))


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
def skill(tmp_path: Path) -> Path:
    make_skill(tmp_path)
    return tmp_path / "pdf-tools"


def test_standard_json_is_the_seed_blend_and_a_rerun_is_cached(fake_api: FakeAPI, skill: Path, tmp_path: Path) -> None:
    fake_api.responder = responder(route, judge_by_table)
    quick = json.loads(cli(None, tmp_path, "score", str(skill), "--format", "json", "--no-cache").stdout)
    p = cli(fake_api, tmp_path, "score", str(skill), "--depth", "standard", "--format", "json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert len(fake_api.message_requests) == 21
    judge = rep["layers"][1]
    assert judge["name"] == "judge" and judge["unmeasured"] == {}
    assert judge["dimensions"]["triggering_accuracy"]["score"] == pytest.approx(F1)
    expected_judge = {**SCRIPTED, "triggering_accuracy": F1}
    total_w = acc = 0.0
    for dim, (w, ws, wj) in SEED.items():
        s = quick["dimensions"][dim]["score"]
        j = expected_judge[dim]
        e = j if s is None or ws == 0 else (ws * s + wj * j) / (ws + wj)
        assert rep["dimensions"][dim]["score"] == pytest.approx(e, abs=1e-4), dim
        total_w += w
        acc += w * e
    expected = round(100 * quick["composite"]["anti_pattern_penalty"] * acc / total_w, 2)
    assert rep["composite"]["score"] == pytest.approx(expected, abs=0.01)
    assert rep["composite"]["confidence"] == "Assessed"
    # the ledger is what the fake reported
    led = rep["ledger"]
    rep_usage = fake_api.reported
    assert led["calls"] == 21 and led["cached_calls"] == 0
    for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
        assert led[k] == sum(u[k] for u in rep_usage), k
    assert led["cost_usd"] > 0
    # a second run: no request, "cached" in the text output, the same numbers
    n = len(fake_api.requests)
    again = cli(fake_api, tmp_path, "judge", str(skill))
    assert again.returncode == 0 and len(fake_api.requests) == n
    assert "cached: every reply from the cache" in again.stdout
    assert f"{rep['composite']['score']:.1f}" in again.stdout and "(Assessed)" in again.stdout
    assert again.stderr.strip().splitlines()[-1].startswith("LLM: 0 call(s), 21 cached")
    # the key is nowhere: outputs, the cache directory
    for text in (p.stdout, p.stderr, again.stdout, again.stderr):
        assert TEST_KEY not in text
    for f in (tmp_path / "xdg").rglob("*"):
        if f.is_file():
            assert TEST_KEY.encode() not in f.read_bytes()


def test_a_failing_rubric_call_is_unmeasured_with_its_reason(fake_api: FakeAPI, skill: Path, tmp_path: Path) -> None:
    def judge(dim: str, body: dict) -> Any:
        return status(500, message="boom") if dim == "robustness" else judge_by_table(dim, body)

    fake_api.responder = responder(route, judge)
    p = cli(fake_api, tmp_path, "judge", str(skill), "--format", "json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    reason = rep["layers"][1]["unmeasured"]["robustness"]
    assert "500" in reason
    assert rep["dimensions"]["robustness"]["score"] is None  # no static value, no judge value: unmeasured
    assert rep["dimensions"]["orchestration_fitness"]["measured_by"] == ["judge", "static"]
    assert rep["composite"]["confidence"] == "Assessed"
    text = cli(fake_api, tmp_path, "judge", str(skill))
    assert "unmeasured Robustness" in text.stdout and "500" in text.stdout


def test_no_key_dry_run_and_budget(fake_api: FakeAPI, skill: Path, tmp_path: Path) -> None:
    fake_api.responder = responder(route, judge_by_table)
    static = cli(None, tmp_path, "score", str(skill), "--no-cache")
    p = cli(fake_api, tmp_path, "judge", str(skill), "--no-cache", key=None)
    assert p.stdout == static.stdout and p.returncode == static.returncode
    assert p.stderr.startswith("skillgrade: No API key") and len(p.stderr.strip().splitlines()) == 1
    dry = cli(fake_api, tmp_path, "judge", str(skill), "--dry-run", key=None)
    assert dry.returncode == 0 and dry.stdout.startswith("Dry run: 21 call(s) would be made")
    assert "$" in dry.stdout
    assert fake_api.requests == []
    tiny = cli(fake_api, tmp_path, "judge", str(skill), "--budget", "0.001", "--format", "json")
    assert tiny.returncode == 0, tiny.stderr
    rep = json.loads(tiny.stdout)
    reasons = rep["layers"][1]["unmeasured"]
    assert reasons and all("budget" in r.lower() for r in reasons.values())
    assert rep["ledger"]["cost_usd"] <= 0.001
    assert len(fake_api.message_requests) == rep["ledger"]["calls"]


def test_two_judges(fake_api: FakeAPI, skill: Path, tmp_path: Path) -> None:
    fake_api.responder = responder(route, judge_by_table)
    p = cli(fake_api, tmp_path, "judge", str(skill), "--judges", "2", "--format", "json")
    assert p.returncode == 0, p.stderr
    layer = json.loads(p.stdout)["layers"][1]
    assert len(fake_api.message_requests) == 41  # one prompt writer, then 20 calls per judge
    assert layer["judges"] == 2 and layer["kappa"]["grades"]["n"] == 10
    assert layer["dimensions"]["robustness"]["per_judge"] == [0.3, 0.3]
    text = cli(fake_api, tmp_path, "judge", str(skill), "--judges", "2")
    assert "agreement of 2 judges on routing: cohen kappa" in text.stdout
