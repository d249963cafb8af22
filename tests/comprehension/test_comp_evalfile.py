"""Eval files: the position-keeping JSON reader, validation with line/column, and the 35 real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillgrade.analyzers.comprehension import jsonpos
from skillgrade.analyzers.comprehension.evalfile import claims, validate_text

DATA = Path(__file__).parent / "data"


def where(findings):
    return [(f.code, f.range.start.line + 1, f.range.start.character + 1) for f in findings]


# ---- jsonpos --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ['{"a": [1, 2.5, -3e2, true, false, null, "x\\u00e9\\n"]}', "[]", "{}", '"s"',
                                  '{"a": {"b": {"c": []}}}', "\ufeff[1]", '{"a": 1, "a": 2}'])
def test_reader_agrees_with_json_loads(text):
    assert jsonpos.load(text).value == json.loads(text.lstrip("\ufeff"))


@pytest.mark.parametrize(("text", "offset", "msg"), [
    ('{"a":1,}', 7, "property name"), ("[1 2]", 3, "',' or ']'"), ('{"a" 1}', 5, "':'"),
    ('"abc', 0, "unterminated"), ("tru", 0, "expected a value"), ("[1]x", 3, "extra data"),
    ("[01]", 2, "',' or ']'"), ("", 0, "end of the file"), ("[" * 300, 257, "nesting"),
])
def test_reader_errors_carry_offsets(text, offset, msg):
    with pytest.raises(jsonpos.JSONPosError) as exc:
        jsonpos.load(text)
    assert exc.value.offset == offset and msg in exc.value.message


def test_spans_keys_and_duplicates():
    text = '{\n  "evals": [\n    {"id": 1, "prompt": "p"},\n    {"id": 1}\n  ],\n  "x": 1, "x": 2\n}'
    loc = jsonpos.load(text)
    idx = jsonpos.LineIndex(text)
    assert idx.pos(loc.span(("evals", 1, "id"))[0]) == (3, 11)
    assert text[slice(*loc.key_span(("evals", 0, "prompt")))] == '"prompt"'
    assert loc.span(("evals", 1, "prompt")) == loc.span(("evals", 1))  # missing -> the enclosing object
    assert [p for p, _ in loc.duplicates] == [("x",)]
    assert loc.value["x"] == 2


def test_reader_is_linear_on_a_large_file():
    """Four times the cases take about four times as long (best of three, so a busy machine does not decide)."""
    import time

    def best(n: int) -> float:
        text = json.dumps({"evals": [{"id": i, "prompt": "word " * 50, "truth_sources": ["a", "b"]}
                                     for i in range(n)]})
        times = []
        for _ in range(3):
            t = time.perf_counter()
            assert len(jsonpos.load(text).value["evals"]) == n
            times.append(time.perf_counter() - t)
        return min(times)

    small, large = best(1000), best(4000)
    assert large / small < 10, (small, large)


# ---- validation -----------------------------------------------------------------------------------------------

CASE = {"id": 1, "prompt": "Explain it.", "dimension": "definition", "substance": "domain",
        "calibration": "semantic", "truth_mode": "code_verification", "skill_type": "concept",
        "criticality": "high", "truth_sources": ["SKILL.md:1"]}


def doc(*cases, **top):
    return json.dumps({"skill_name": "s", "subject": "x", **top, "evals": list(cases)}, indent=2)


def test_worked_example_is_clean_and_modelled():
    model, findings = validate_text((DATA / "type-safety.json").read_text())
    assert findings == []
    assert model is not None and model.skill_name == "type-safety" and len(model.cases) == 10
    assert [c.comprehension_dimension for c in model.comprehension_cases] == \
        ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C7"]
    assert sum(len(c.expected_behaviors) for c in model.cases) == 45
    c5 = model.cases[4]
    assert (c5.transfer, c5.concept_field, c5.line) == ("far", "taxonomy", 175)


def test_syntax_error_position():
    text = '{\n  "evals": [\n    {"id": 1,}\n  ]\n}'
    model, findings = validate_text(text)
    assert model is None and where(findings) == [("EVAL_JSON", 3, 14)]
    assert claims(text)


def test_each_error_at_its_value():
    bad = [
        {**CASE, "id": 1, "comprehension_dimension": "C10", "transfer": "farther",
         "expected_behaviors": [{"id": "a", "kind": "neutral", "description": "d"}, {"id": "a", "kind": "positive",
                                                                                      "description": ""}]},
        {**CASE, "id": 1, "criticality": "extreme", "concept_field": "purpose", "comprehension_dimension": "C1",
         "expected_behaviors": [{"id": "b", "kind": "positive"}]},
        {"prompt": 3},
        "not a case",
    ]
    text = doc(*bad)
    _, findings = validate_text(text)
    got = sorted((f.code, f.message.split(":")[0][:40]) for f in findings)
    codes = [f.code for f in findings]
    assert codes.count("EVAL_UNKNOWN_VALUE") == 4  # C10, farther, neutral, extreme
    assert codes.count("EVAL_DUPLICATE_ID") == 2  # case id 1 twice, behavior id "a" twice
    assert "EVAL_FIELD_MISMATCH" in codes
    assert sum(1 for f in findings if f.code == "EVAL_SHAPE") == 5, got  # empty description, no description,
    # no id, prompt not a string, "not a case"
    lines = text.splitlines()
    for f in findings:  # every finding points at text that names what it is about
        line = lines[f.range.start.line]
        assert line.strip(), f
    c10 = next(f for f in findings if "C10" in f.message)
    assert '"C10"' in lines[c10.range.start.line][c10.range.start.character:]
    extreme = next(f for f in findings if "extreme" in f.message)
    assert extreme.severity.label == "warning"
    assert c10.severity.label == "error"


def test_incomplete_and_missing_fields():
    _, findings = validate_text(doc({"id": 1, "prompt": "p", "comprehension_dimension": "C3"},
                                    {**CASE, "id": 2, "expected_behaviors": [{"id": "a", "kind": "positive",
                                                                              "description": "d"}]}))
    assert sorted(f.code for f in findings) == ["EVAL_INCOMPLETE_CASE", "EVAL_INCOMPLETE_CASE", "EVAL_MISSING_FIELD"]


def test_not_an_eval_file_is_not_claimed():
    assert not claims('{"queries": []}') and not claims("[1, 2]") and not claims('{"skill_name": "x"}')
    assert claims('{"evals": 3}')
    assert [f.code for f in validate_text('{"evals": 3}')[1]] == ["EVAL_MISSING_FIELD", "EVAL_SHAPE"]


def test_far_transfer_lint_needs_the_body():
    case = {**CASE, "transfer": "far", "prompt": "Walk through the runtime boundary problem for parsed JSON payloads."}
    body = "The runtime boundary problem for parsed JSON payloads is where types stop."
    _, without = validate_text(doc(case))
    _, with_body = validate_text(doc(case), skill_body=body)
    assert without == []
    assert [f.code for f in with_body] == ["EVAL_FAR_TRANSFER_OVERLAP"]
    assert "“runtime boundary problem parsed”" in with_body[0].message
    _, near = validate_text(doc({**case, "transfer": "near"}), skill_body=body)
    assert near == []


def test_real_eval_files(corpus):
    """Every JSON file of the reference repository's _evals (36 here: 34 eval files and 2 files of other kinds):
    no crash; the only findings are the two real deviations from the documented values."""
    files = sorted((corpus / "skill-graph-examples" / "_evals").glob("*.json"))
    assert len(files) >= 35
    found, unclaimed = [], []
    for f in files:
        text = f.read_text(encoding="utf-8")
        if not claims(text):
            unclaimed.append(f.name)
            continue
        model, findings = validate_text(text)
        assert model is not None and model.cases
        found += [(f.name, *w) for w in where(findings)]
    assert unclaimed == ["retrieval-baseline-v2.json", "skill-router.routing.json"]  # other kinds of file
    assert found == [("graph-audit.json", "EVAL_UNKNOWN_VALUE", 121, 21),  # truth_mode "output_correctness"
                     ("pattern-recognition.json", "EVAL_UNKNOWN_VALUE", 95, 20)]  # dimension "taxonomy"


def test_json_nested_thousands_deep_is_a_finding_not_a_crash() -> None:
    # json.loads (used to claim the file) raises RecursionError here, not ValueError
    text = '{"evals": ' + "[" * 5000 + "]" * 5000 + "}"
    assert claims(text)
    _model, found = validate_text(text)
    assert [(f.code, f.message) for f in found] == [("EVAL_JSON", "not valid JSON: nesting deeper than 256 levels")]
