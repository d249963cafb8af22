"""`skillgrade optimize` end to end: the real CLI in a subprocess, the real SDK against the fake Messages API."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest_llm import TEST_KEY
from opt_script import GOOD, ORIGINAL, SKILL, OptResponder, Overfit, rows


def env_for(fake, tmp: Path, key: str | None = TEST_KEY) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["XDG_CACHE_HOME"] = str(tmp / "xdg")
    env["ANTHROPIC_CONFIG_DIR"] = "/nonexistent-anthropic-config"
    env["NO_COLOR"] = "1"
    if fake is not None:
        env["ANTHROPIC_BASE_URL"] = fake.url
    if key:
        env["ANTHROPIC_API_KEY"] = key
    return env


def subprocess_cli(fake, tmp: Path, *args: str, key: str | None = TEST_KEY) -> subprocess.CompletedProcess:
    """The real entry point in a subprocess (one test; the others run main() in-process: faster)."""
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "optimize", *args],
                          env=env_for(fake, tmp, key), cwd=tmp, capture_output=True, text=True, timeout=120)


@pytest.fixture
def cli(monkeypatch, capsys):  # type: ignore[no-untyped-def]
    """main(["optimize", ...]) in this process with the subprocess's environment; a CompletedProcess."""
    import os as _os

    from skillgrade.server import cli as cli_module

    def run(fake, tmp: Path, *args: str, key: str | None = TEST_KEY) -> subprocess.CompletedProcess:
        env = env_for(fake, tmp, key)
        for k in [k for k in _os.environ if k.startswith("ANTHROPIC_") and k not in env]:
            monkeypatch.delenv(k)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        monkeypatch.chdir(tmp)
        capsys.readouterr()
        code = cli_module.main(["optimize", *args])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out.out, out.err)

    return run


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    d = tmp_path / "skills" / "pdf-tools"
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(SKILL)
    (tmp_path / "prompts.json").write_text(json.dumps(rows()))
    return d


def test_text_report_prints_the_diff_without_applying(fake_api, tmp_path, skill, cli):
    fake_api.responder = OptResponder()
    out = subprocess_cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--runs", "1")
    assert out.returncode == 0, out.stderr
    assert "winner: iteration 2, held-out score" in out.stdout
    assert "paired test (test prompts, exact McNemar)" in out.stdout
    assert f"-description: {ORIGINAL}" in out.stdout and f'+description: "{GOOD}"' in out.stdout
    assert "not applied" in out.stdout
    assert (skill / "SKILL.md").read_text() == SKILL
    assert out.stderr.startswith("LLM: ") and TEST_KEY not in out.stdout + out.stderr
    calls = len(fake_api.requests)
    again = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--runs", "1")  # the cache answers everything
    assert again.returncode == 0 and len(fake_api.requests) == calls and "LLM: 0 call(s)" in again.stderr


def test_json_has_every_description_and_decision(fake_api, tmp_path, skill, cli):
    fake_api.responder = OptResponder()
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--format", "json", "--runs", "1")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert [a["description"] for a in d["attempts"]] == [ORIGINAL, GOOD]
    assert d["winner"] == 2 and d["improved"] and d["chosen_by"] == "test" and not d["applied"]
    assert all(len(p["decisions"]) == 1 for a in d["attempts"] for p in a["prompts"])
    assert {p["split"] for p in d["attempts"][0]["prompts"]} == {"train", "test"}
    assert d["paired_test"]["test"].startswith("exact McNemar") and d["ledger"]["by_kind"]["route"]["calls"] == 44
    assert d["diff"].startswith("--- a/")


def test_overfit_rewrite_keeps_the_original(fake_api, tmp_path, skill, cli):
    fake_api.responder = OptResponder(Overfit())
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--apply", "--runs", "1",
              "--iterations", "3")
    assert out.returncode == 0, out.stderr
    assert "the original description is kept" in out.stdout
    assert (skill / "SKILL.md").read_text() == SKILL


BLOCK = SKILL.replace(f"description: {ORIGINAL}\n", "description: >-  # folded\n  Work with PDF tables and\n"
                      "  documents. Use when the user mentions a PDF.\n\n# routing\nmetadata:\n  owner: docs\n")
QUOTED = SKILL.replace(f"description: {ORIGINAL}", f'description: "{ORIGINAL}"  # quoted').replace("\n", "\r\n")


@pytest.mark.parametrize("text", [BLOCK, QUOTED], ids=["block", "quoted-crlf"])
def test_apply_changes_only_the_description(fake_api, tmp_path, skill, cli, text):
    (skill / "SKILL.md").write_bytes(text.encode())
    fake_api.responder = OptResponder()
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--apply", "--runs", "1")
    assert out.returncode == 0, out.stderr
    assert "applied to" in out.stdout
    after = (skill / "SKILL.md").read_bytes().decode()
    before_fm = yaml.safe_load(text.replace("\r\n", "\n").split("---")[1])
    after_fm = yaml.safe_load(after.replace("\r\n", "\n").split("---")[1])
    assert after_fm["description"] == GOOD
    assert {k: v for k, v in after_fm.items() if k != "description"} == \
        {k: v for k, v in before_fm.items() if k != "description"}
    start = text.index("description:")
    assert after[:start] == text[:start]
    tail = text[text.index("license: MIT"):]
    assert after.endswith(tail)
    if text is BLOCK:
        assert "description: >-  # folded\n  Work with PDF files" in after and "\n\n# routing\nmetadata:" in after
    else:
        assert f'description: "{GOOD}"  # quoted\r\n' in after


def test_html_report_is_self_contained_and_escaped(fake_api, tmp_path, skill, cli):
    rs = rows() + [{"prompt": "<script>alert(1)</script> open the pdf tables", "should_trigger": True}]
    (tmp_path / "prompts.json").write_text(json.dumps(rs))
    fake_api.responder = OptResponder()
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--format", "html", "--runs", "1")
    assert out.returncode == 0, out.stderr
    h = out.stdout
    assert h.startswith("<!DOCTYPE html>") and "<script>" not in h and "&lt;script&gt;" in h
    assert "http" not in h.replace("http://", "").lower() or "src=" not in h
    assert 'class=test' in h and 'class=train' in h and 'class="add"' in h


def test_dry_run_budget_and_usage_errors(fake_api, tmp_path, skill, cli):
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--dry-run", key=None)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Dry run: ") and not fake_api.requests
    fake_api.responder = OptResponder()
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--budget", "0.004", "--format", "json",
              "--runs", "2")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["stop_reason"] == "budget" and d["ledger"]["cost_usd"] <= 0.004
    no_key = cli(fake_api, tmp_path, str(skill), key=None)
    assert no_key.returncode == 2 and "No API key" in no_key.stderr and "nothing was run" in no_key.stderr
    assert "static result" not in no_key.stderr and no_key.stdout == ""
    bad = cli(fake_api, tmp_path, str(tmp_path / "nowhere"))
    assert bad.returncode == 2 and "no SKILL.md" in bad.stderr and "Traceback" not in bad.stderr
    bad = cli(fake_api, tmp_path, str(skill), "--holdout", "1.5")
    assert bad.returncode == 2 and "--holdout" in bad.stderr


def test_batch_sends_measurements_as_batches(fake_api, tmp_path, skill, cli):
    fake_api.responder = OptResponder()
    fake_api.batch_polls = 0
    out = cli(fake_api, tmp_path, str(skill), "--prompts", "prompts.json", "--batch", "--runs", "1",
              "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["improved"] and d["ledger"]["batch"]["batch_calls"] >= 44
    assert len(fake_api.batch_creates) >= 2
