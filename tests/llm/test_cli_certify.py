"""`skillgrade score --depth deep` and `skillgrade certify` end to end: the real CLI in a subprocess, the real
anthropic SDK pointed at the fake Messages API, a scripted router/agent/grader/judge (mc_script.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakeapi import FakeAPI
from mc_script import ME, SKILL, MCResponder, deep_responder

from conftest import TEST_KEY


def env_for(fake: FakeAPI | None, tmp: Path, key: str | None = TEST_KEY) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["XDG_CACHE_HOME"] = str(tmp / "xdg")
    env["ANTHROPIC_CONFIG_DIR"] = "/nonexistent-anthropic-config"
    if fake is not None:
        env["ANTHROPIC_BASE_URL"] = fake.url
    if key:
        env["ANTHROPIC_API_KEY"] = key
    return env


def cli(fake: FakeAPI | None, tmp: Path, *args: str, key: str | None = TEST_KEY) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], env=env_for(fake, tmp, key),
                          cwd=tmp, capture_output=True, text=True, timeout=120)


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    d = tmp_path / "pdf-tools"
    d.mkdir()
    (d / "SKILL.md").write_text(SKILL)
    return d


def layers(report: dict) -> dict[str, dict]:
    return {la["name"]: la for la in report["layers"]}


def test_certify_json_has_every_layer_and_elo_unmeasured(fake_api, tmp_path, skill):
    fake_api.responder = deep_responder()
    out = cli(fake_api, tmp_path, "certify", str(skill), "--format", "json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [la["name"] for la in report["layers"]] == ["static", "judge", "monte_carlo", "elo"]
    mc = report["layers"][2]
    assert mc["stop_reason"] == "ci_target" and mc["n_used"] == 34 and mc["n_max"] == 50
    assert mc["statistics"]["activation_rate"]["x"] == 17 and mc["statistics"]["false_activation_rate"]["x"] == 0
    assert mc["statistics"]["continued"] == 10  # the quality sample: 10 graded, under the CI target
    assert mc["prompts"]["source"] == "generated" and mc["model"] == "claude-haiku-5-5"
    assert mc["prompt_version"] and mc["duration_s"] >= 0 and mc["usage"]["calls"] > 0
    assert mc["dimensions"]["orchestration_fitness"]["score"] is None
    assert "reason" in mc["dimensions"]["orchestration_fitness"]
    comp = report["composite"]
    assert comp["confidence"] == "Certified" and comp["elo"] is None
    assert comp["layers_run"] == ["static", "judge", "monte_carlo"]
    assert report["layers"][3]["reason"] == "no reference corpus index: run `skillgrade init CORPUS_DIR`"
    trig = comp["dimensions"]["triggering_accuracy"]
    assert trig["layers"]["monte_carlo"] == 1.0 and set(trig["measured_by"]) == {"static", "judge", "monte_carlo"}
    assert report["ledger"]["by_kind"]["route"]["calls"] == 44  # 10 for the judge, 34 simulations
    assert TEST_KEY not in out.stdout + out.stderr


def test_deep_text_and_rerun_from_cache(fake_api, tmp_path, skill):
    fake_api.responder = deep_responder()
    out = cli(fake_api, tmp_path, "score", "--depth", "deep", str(skill), "--mc-n", "20")
    assert out.returncode == 0, out.stderr
    assert "Monte Carlo claude-haiku-5-5, 20/20 simulations, stopped: maximum reached" in out.stdout
    assert "activation on positives    100.0% [" in out.stdout and "(10/10)" in out.stdout
    assert "Elo" not in out.stdout  # deep = no Elo step
    assert "pdf-tools: simulations 20/20" in out.stderr  # plain progress lines when piped
    calls = len(fake_api.requests)
    again = cli(fake_api, tmp_path, "score", "--depth", "deep", str(skill), "--mc-n", "20")
    assert again.returncode == 0 and len(fake_api.requests) == calls
    section = lambda text: text[text.index("Monte Carlo"):]  # noqa: E731
    assert section(again.stdout) == section(out.stdout)
    assert "(cached: every reply from the cache, no call made)" in again.stdout


def test_always_firing_skill_gets_no_high_triggering_score(fake_api, tmp_path, skill):
    fake_api.responder = deep_responder(MCResponder(route=lambda p: ME))
    out = cli(fake_api, tmp_path, "certify", str(skill), "--format", "json", "--mc-n", "20")
    report = json.loads(out.stdout)
    mc = layers(report)["monte_carlo"]
    assert mc["statistics"]["false_activation_rate"]["rate"] == 1.0
    assert mc["dimensions"]["triggering_accuracy"]["score"] == 0.0
    assert report["composite"]["dimensions"]["triggering_accuracy"]["score"] < 0.6


def test_never_winning_skill_low_triggering_and_no_badge(fake_api, tmp_path, skill):
    fake_api.responder = deep_responder(MCResponder(route=lambda p: "other-skill"), judge_score=0.5)
    out = cli(fake_api, tmp_path, "certify", str(skill), "--format", "json", "--mc-n", "20")
    report = json.loads(out.stdout)
    assert layers(report)["monte_carlo"]["dimensions"]["triggering_accuracy"]["score"] == 0.0
    assert report["composite"]["dimensions"]["triggering_accuracy"]["score"] < 0.2
    assert report["composite"]["badge"] is None


def test_prompts_file_and_bad_file(fake_api, tmp_path, skill):
    fake_api.responder = deep_responder()
    good = tmp_path / "p.jsonl"
    good.write_text('{"prompt": "merge a.pdf", "should_trigger": true}\n'
                    '{"prompt": "edit b.docx", "should_trigger": false}\n')
    out = cli(fake_api, tmp_path, "certify", str(skill), "--format", "json", "--mc-n", "4", "--prompts", str(good))
    mc = layers(json.loads(out.stdout))["monte_carlo"]
    assert mc["prompts"] == {"source": "file", "detail": str(good), "positives": 1, "negatives": 1}
    assert [s["prompt"] for s in mc["simulations"]] == ["merge a.pdf", "edit b.docx"] * 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {prompt: x}\n")
    n = len(fake_api.requests)
    out = cli(fake_api, tmp_path, "certify", str(skill), "--prompts", str(bad))
    assert out.returncode == 2 and out.stdout == "" and len(fake_api.requests) == n
    assert out.stderr.strip().count("\n") == 0
    assert out.stderr.startswith("skillgrade: error: --prompts: ") and "should_trigger must be true or false" in out.stderr


def test_dry_run_and_no_key(fake_api, tmp_path, skill):
    out = cli(None, tmp_path, "certify", str(skill), "--dry-run", key=None)
    assert out.returncode == 0 and fake_api.requests == []
    assert out.stdout.startswith("Dry run: 122 call(s) would be made")  # judge 21 + writer 1 + 50 routes + 25 x 2
    out = cli(fake_api, tmp_path, "score", "--depth", "deep", str(skill), key=None)
    assert out.returncode == 0 and fake_api.requests == []
    assert out.stderr.startswith("skillgrade: No API key:") and "(Estimated)" in out.stdout


def test_ctrl_c_keeps_finished_simulations_and_rerun_resumes(tmp_path, skill):
    responder = deep_responder()
    held = {"simulations": 0, "hold": True}  # simulations past the 25th wait until Ctrl-C is sent

    def slow(body):
        item = responder(body)
        simulation = len(body["messages"]) == 1 and bool(body.get("tools"))
        held["simulations"] += simulation  # (one handler thread at a time updates it: a lost count only delays)
        item.delay = 2.0 if simulation and held["hold"] and held["simulations"] > 25 else 0.03
        return item

    with FakeAPI() as fake:
        fake.responder = slow
        proc = subprocess.Popen([sys.executable, "-m", "skillgrade.server.cli", "certify", str(skill), "--format",
                                 "json", "--mc-ci", "0"], env=env_for(fake, tmp_path), cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while sum(1 for r in fake.requests if len(r.body["messages"]) == 1 and r.body.get("tools")) < 25:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        held["hold"] = False  # (the re-run below is not slowed)
        assert proc.returncode == 130, stderr
        first = layers(json.loads(stdout))
        mc = first["monte_carlo"]
        assert mc["stop_reason"] == "cancelled" and 0 < mc["n_used"] < 50
        finished_calls = first["judge"]["usage"]["calls"] + mc["usage"]["calls"]  # the calls the report kept
        assert "a re-run resumes" in stderr
        out = cli(fake, tmp_path, "certify", str(skill), "--format", "json", "--mc-ci", "0")
        assert out.returncode == 0
        report = json.loads(out.stdout)
        assert report["ledger"]["cached_calls"] >= finished_calls  # every kept call is replayed, not paid again
        assert layers(report)["monte_carlo"]["n_used"] == 50


def test_certify_with_a_corpus_index_rates_elo(fake_api, tmp_path, skill):
    corpus = tmp_path / "corpus"
    for i in range(4):
        d = corpus / f"ref-{i}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: ref-{i}\ndescription: Convert PDF files, variant {i}. Use for "
                                    f"PDF conversion.\n---\n\n# Ref {i}\n\nRun `pdftotext` on the file.\n")
    env = env_for(fake_api, tmp_path)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    run = lambda *a: subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *a], env=env,  # noqa: E731
                                    cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run("init", str(corpus)).returncode == 0
    fake_api.responder = deep_responder()
    out = run("certify", str(skill), "--format", "json", "--mc-n", "20")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    elo = layers(report)["elo"]
    assert elo["rating"] is not None and elo["rating"] > 1500 and elo["n_pairs"] >= 3
    assert report["composite"]["elo"] == pytest.approx(elo["rating"], abs=0.1)
    text = run("certify", str(skill), "--mc-n", "20")
    assert f"Elo {elo['rating']:.0f} [" in text.stdout
