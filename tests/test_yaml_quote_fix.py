"""YAML_SYNTAX on a `: ` inside an unquoted one-line value names the key and offers a safe fix that quotes the value
(held-out set 37: eight of ten YAML_SYNTAX findings were `description: … Keywords: …`); a value continued on the
next lines, or an unclosed quote, gets no fix."""

from __future__ import annotations

import time

import yaml

from skillgrade.analyzers.fixes import apply_edits
from skillgrade.analyzers.report import analyze


def _yaml_findings(text: str) -> list:
    return [f for f in analyze(text, None).findings if f.code == "YAML_SYNTAX"]


def _frontmatter(text: str) -> dict:
    return yaml.safe_load(text.split("---\n")[1])


def test_the_quoted_value_keeps_its_text() -> None:
    for value in ("Use when: filling PDF forms", 'Tunes Ghostty. Keywords: "ghostty", terminal \\ config',
                  "Bug: it fails; fix: retry # not a comment"):
        text = f"---\nname: pdf\ndescription: {value}\n---\n\n# PDF\n\nBody.\n"
        (f,) = _yaml_findings(text)
        assert "the value of `description` holds `: `" in f.message
        assert f.fix is not None and f.fix.applicability.value == "safe"
        fixed, _ = apply_edits(text, f.fix.edits)
        assert _frontmatter(fixed) == {"name": "pdf", "description": value}
        assert not _yaml_findings(fixed)


def test_no_fix_where_quoting_one_line_is_not_enough() -> None:
    for text in ("---\nname: pdf\ndescription: Use when: filling\n- merging files\n---\n\nBody.\n",  # continued
                 "---\nname: pdf\ndescription: Use when: filling\n  and merging\n---\n\nBody.\n",
                 "---\nname: pdf\n  description: Use when: x\n---\n\nBody.\n"):  # not a top-level key
        for f in _yaml_findings(text):
            assert f.fix is None, text


def test_a_long_value_is_one_pass() -> None:
    text = "---\nname: pdf\ndescription: " + "a: " * 300_000 + "\n---\n\nBody.\n"
    t0 = time.perf_counter()
    _yaml_findings(text)
    assert time.perf_counter() - t0 < 5
