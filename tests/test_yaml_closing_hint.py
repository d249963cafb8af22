"""YAML_SYNTAX asks whether the closing `---` is missing when a markdown heading after a blank line (which YAML
reads as a comment) comes before the error (held-out set 35: orchestrator-mode's frontmatter ran on into its
body); a YAML comment under a key is not a heading."""

from __future__ import annotations

import time

from skillgrade.analyzers.parse import parse

HINT = "is the closing `---` missing"


def _messages(text: str) -> list[str]:
    return [p.message for p in parse(text).frontmatter.problems]


def test_a_heading_after_a_blank_line_is_named() -> None:
    text = "---\nname: x\ndescription: Use when x.\n\n# Orchestrator Mode\n\n**I am an orchestrator.**\n\n---\n\nBody.\n"
    (msg,) = _messages(text)
    assert msg.endswith(f"; {HINT} before line 5 (`# Orchestrator Mode`)?")


def test_a_yaml_comment_is_not_a_heading() -> None:
    for text in ("---\nname: x\n# a YAML comment\ntags: [a, b\n---\n",  # no blank line before it
                 "---\nname: x\n\n#comment\ntags: [a, b\n---\n",  # `#` without a space: not a heading
                 "---\nname: x\ntags: [a, b\n\n# Later\n---\n"):  # after the error
        (msg,) = _messages(text)
        assert HINT not in msg, text


def test_many_heading_lines_are_one_pass() -> None:
    """The hint's scan alone (YAML's own parse of a huge frontmatter is not ours to time)."""
    from skillgrade.analyzers.parse import _body_heading

    lines = ["---", "name: x"] + ["", "# Title", "key: v"] * 100_000 + ["tags: [a"]
    t0 = time.perf_counter()
    assert _body_heading(lines, 0, len(lines) - 1) is None
    assert time.perf_counter() - t0 < 1


def test_a_comment_heading_a_group_of_keys_is_not_the_body() -> None:
    """Set 31's confluence-expert (`# === CORE IDENTITY ===` above `name:`) and set 9's supabuilder (a stray
    `## name: …` line, the body's heading further down)."""
    text = ("---\n\n# === CORE IDENTITY ===\nname: x\n\n# === DISPLAY ===\ndifficulty: easy\n"
            "time-saved: \"\"\"TODO\"\"\"\n---\n")
    (msg,) = _messages(text)
    assert HINT not in msg
    text = ("---\n\n## name: init\ndescription: \"Initialize.\"\nuser-invocable: true\n\n# Init\n\n"
            "Initialize or resume the setup. Idempotent, re-run picks up.\n\n## Quick Overview\n\n- a: b\n  c\n---\n")
    (msg,) = _messages(text)
    assert "before line 7 (`# Init`)" in msg, msg
