"""`certify --format html` and `judge --format html` end to end: the real CLI, the real anthropic SDK against the
fake Messages API; the page carries the LLM layers (markers, intervals, ledger) from the same report dicts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mc_script import deep_responder
from test_cli_certify import cli, skill  # noqa: F401 - the fixture

from conftest import TEST_KEY


def test_certify_html_has_the_llm_layers_intervals_and_ledger(fake_api, tmp_path: Path, skill: Path) -> None:  # noqa: F811
    fake_api.responder = deep_responder()
    out = cli(fake_api, tmp_path, "certify", str(skill), "--format", "html", "--mc-n", "20")
    assert out.returncode == 0, out.stderr
    page = out.stdout
    again = cli(fake_api, tmp_path, "certify", str(skill), "--format", "json", "--mc-n", "20")  # from the cache
    report = json.loads(again.stdout)
    assert "Certified" in page and "Ledger (LLM layers)" in page
    assert f">{report['ledger']['input_tokens']:,}<" in page
    act = report["layers"][2]["statistics"]["activation_rate"]
    ci = re.search(r'<line class="ci" x1="([\d.]+)" y1="\d+" x2="([\d.]+)"', page).groups()
    assert ci == (f"{190 + act['lower'] * 240:.1f}", f"{190 + act['upper'] * 240:.1f}")
    trig = re.search(r'data-dim="triggering_accuracy".*?</g>', page, flags=re.S).group(0)
    assert "m-static" in trig and "m-judge" in trig and "m-monte_carlo" in trig  # all three measured it
    assert "Elo rating: no reference corpus index" in page
    assert TEST_KEY not in page + out.stderr


def test_judge_html_without_a_key_is_the_static_page(fake_api, tmp_path: Path, skill: Path) -> None:  # noqa: F811
    out = cli(fake_api, tmp_path, "judge", str(skill), "--format", "html", key=None)
    assert out.stdout.startswith("<!DOCTYPE html>") and "ANTHROPIC_API_KEY" in out.stderr
    assert "Ledger" not in out.stdout and 'class="m-judge"' not in out.stdout and len(fake_api.requests) == 0
