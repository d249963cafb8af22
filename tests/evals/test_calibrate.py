"""`skillgrade calibrate`: TPR / TNR with Wilson intervals on a labelled set with known answers, flags,
disagreements with critiques, unmeasured examples, and file errors with line numbers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from evalkit import TEST_KEY, cli
from fakeapi import FakeAPI, Scripted, json_reply, text_reply

from skillgrade.analyzers.evals.calibrate import load_calibration
from skillgrade.analyzers.evals.suite import SuiteInvalid

JUDGES = """
version: "1.0"
judges:
  - id: flags-breaking
    criterion: "Does the output flag breaking changes?"
    examples:
      - {output: "## Breaking\\n- x", result: PASS, critique: "flagged"}
  - id: cites-prs
    criterion: "Does every item cite its PR?"
"""


def labels() -> list[dict[str, Any]]:
    rows = []
    # flags-breaking: 4 FAIL-labelled (the judge catches 3), 6 PASS-labelled (the judge passes all 6)
    for i, said in enumerate(["FAIL", "FAIL", "FAIL", "PASS"]):
        rows.append({"id": f"f{i}", "judge": "flags-breaking", "output": f"out f{i} says:{said}", "label": "FAIL"})
    for i in range(6):
        rows.append({"id": f"p{i}", "judge": "flags-breaking", "output": f"out p{i} says:PASS", "label": "PASS"})
    # cites-prs: 2 FAIL, 2 PASS, all agreed; one more whose judge reply is never valid
    rows += [{"id": "c1", "judge": "cites-prs", "output": "c1 says:FAIL", "label": "FAIL"},
             {"id": "c2", "judge": "cites-prs", "output": "c2 says:FAIL", "label": "FAIL", "input": "notes"},
             {"id": "c3", "judge": "cites-prs", "output": "c3 says:PASS", "label": "PASS"},
             {"id": "c4", "judge": "cites-prs", "output": "c4 says:PASS", "label": "pass"},
             {"id": "c5", "judge": "cites-prs", "output": "c5 says:GARBAGE", "label": "PASS"}]
    return rows


def respond(body: dict[str, Any]) -> Scripted:
    user = body["messages"][0]["content"]
    said = user.split("says:")[1].split()[0]
    if said == "GARBAGE":
        return text_reply("I refuse to use JSON")
    return json_reply({"critique": f"critique of {user.split('<agent_answer')[1][:40].split(chr(10))[1]}",
                       "result": said})


def write(tmp_path: Path, judges: str = JUDGES, rows: list[dict[str, Any]] | None = None) -> tuple[Path, Path]:
    j = tmp_path / "judges.yaml"
    j.write_text(judges)
    lab = tmp_path / "labelled.jsonl"
    lab.write_text("\n".join(json.dumps(r) for r in (labels() if rows is None else rows)) + "\n")
    return j, lab


def test_calibration_figures(fake_api: FakeAPI, tmp_path: Path) -> None:
    j, lab = write(tmp_path)
    fake_api.responder = respond
    p = cli(fake_api, tmp_path, "calibrate", "--judges", str(j), "--labels", str(lab), "--format", "json")
    assert p.returncode == 1, p.stderr  # a judge is flagged
    out = json.loads(p.stdout)
    fb, cp = out["judges"]
    assert (fb["tp"], fb["fn"], fb["tn"], fb["fp"]) == (3, 1, 6, 0)
    assert fb["tpr"]["rate"] == 0.75 and fb["tnr"]["rate"] == 1.0
    assert fb["tpr"]["lower"] == pytest.approx(0.300642, abs=1e-6) and fb["tpr"]["upper"] == pytest.approx(
        0.954413, abs=1e-6)
    assert fb["tnr"]["lower"] == pytest.approx(0.609666, abs=1e-6) and fb["tnr"]["upper"] == 1.0
    assert fb["flagged"] is True and fb["problems"] == ["TPR 75% is under 90%"]
    assert fb["disagreements"] == [{"id": "f3", "label": "FAIL", "judge": "PASS", "critique": "critique of out f3 says:PASS",
                                    "output": "out f3 says:PASS"}]
    assert (cp["tp"], cp["fn"], cp["tn"], cp["fp"]) == (2, 0, 2, 0) and cp["flagged"] is False
    assert [u["id"] for u in cp["unmeasured"]] == ["c5"] and "invalid reply" in cp["unmeasured"][0]["reason"]
    assert out["flagged"] == ["flags-breaking"]
    # 15 examples + one re-ask for the garbage reply; the system prompt carries the few-shot example
    assert len(fake_api.message_requests) == 16
    systems = [r.body["system"][0]["text"] for r in fake_api.message_requests]
    assert any("RESULT: PASS" in s and "Does the output flag breaking changes?" in s for s in systems)


async def _calibrate(fake: FakeAPI, tmp_path: Path, rows: list[dict[str, Any]] | None = None):  # noqa: ANN202
    from skillgrade.analyzers.evals.calibrate import calibrate
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.gateway import Gateway

    j, lab = write(tmp_path, rows=rows)
    judges, labelled = load_calibration(j, lab)
    fake.responder = respond
    gw = Gateway(AnthropicProvider(TEST_KEY, fake.url, max_retries=0), cache=None, timeout_s=10.0)
    try:
        return await calibrate(judges, labelled, gw, model="claude-sonnet-5-5")
    finally:
        await gw.aclose()


async def test_calibration_text_lists_disagreements(fake_api: FakeAPI, tmp_path: Path) -> None:
    from skillgrade.analyzers.evals.calibrate import calibration_text

    text = calibration_text(await _calibrate(fake_api, tmp_path))
    assert "flags-breaking: TPR 75% [30%, 95%] (3/4), TNR 100% [61%, 100%] (6/6) — FLAGGED: TPR 75% is under 90%" \
        in text
    assert "  disagreement f3: labelled FAIL, judge said PASS: critique of out f3 says:PASS" in text
    assert "cites-prs: TPR 100% [34%, 100%] (2/2), TNR 100% [34%, 100%] (2/2) — ok" in text
    assert "  unmeasured c5: the binary judge gave no result: invalid reply after one re-ask" in text
    assert "2 judge(s), 1 flagged" in text


async def test_a_judge_without_fail_examples_is_flagged(fake_api: FakeAPI, tmp_path: Path) -> None:
    rows = [{"judge": "cites-prs", "output": "x says:PASS", "label": "PASS"}]
    results = await _calibrate(fake_api, tmp_path, rows)
    cp = results[1].to_dict()
    assert cp["problems"] == ["TPR unmeasured: no FAIL-labelled example was judged"]
    assert cp["tpr"]["rate"] is None and cp["tnr"]["rate"] == 1.0 and results[0].problems == [
        "TPR unmeasured: no FAIL-labelled example was judged", "TNR unmeasured: no PASS-labelled example was judged"]


def test_file_errors_are_all_reported_with_lines(tmp_path: Path) -> None:
    bad_judges = 'version: "1.0"\njudges:\n  - id: a\n  - id: a\n    criterion: c\n    examples: [{output: o, result: MAYBE}]\n'
    j, lab = write(tmp_path, judges=bad_judges)
    with pytest.raises(SuiteInvalid) as info:
        load_calibration(j, lab)
    assert [(e.line, e.column) for e in info.value.errors] == [(3, 5), (4, 9), (6, 36)]
    j, _ = write(tmp_path)
    lab.write_text('{"judge": "nope", "output": "o", "label": "PASS"}\nnot json\n{"judge": "cites-prs", "output": 3, '
                   '"label": "MAYBE"}\n')
    p = cli(None, tmp_path, "calibrate", "--judges", str(j), "--labels", str(lab))
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert lines[0].startswith(f"{lab}:1:1: `judge` must name a judge of the judges file (cites-prs, flags-breaking)")
    assert lines[1].startswith(f"{lab}:2:1: not JSON")
    assert lines[2] == f"{lab}:3:1: `output` must be a string" and lines[3] == f"{lab}:3:1: `label` must be PASS or FAIL, got 'MAYBE'"
    assert lines[-1] == "skillgrade: error: 4 error(s) in the calibration files; nothing was run"


def test_the_example_calibration_files_load() -> None:
    root = Path(__file__).resolve().parents[2] / "examples" / "evals" / "release-notes"
    judges, labelled = load_calibration(root / "judges.yaml", root / "labelled.jsonl")
    assert [j.id for j in judges] == ["breaking-flagged", "prs-cited"] and len(labelled) == 6
