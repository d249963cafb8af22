"""MISSING_TRIGGER vs WEAK_TRIGGER is decided by a description's shape, not by how its words are spelled; DESCRIPTION_XML_TAG
tells markup from placeholders."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze


def _code(description: str) -> str | None:
    text = f"---\nname: s\ndescription: {description}\n---\n\n# S\n\nBody.\n"
    codes = {f.code for f in analyze(text, None).findings} & {"MISSING_TRIGGER", "WEAK_TRIGGER"}
    assert len(codes) <= 1
    return codes.pop() if codes else None


# each row: descriptions of one shape, which must all get the same code
SAME_SHAPE = [
    ("WEAK_TRIGGER", ["Toolkit for testing local web applications with Playwright.",
                      "Toolkit for web-app tests with Playwright.",
                      "Toolkit for string manipulation in Python.",
                      "Toolkit for PDF form filling and merging.",
                      "Toolkit to test local web applications with Playwright."]),
    ("WEAK_TRIGGER", ["Guidance on visual design when building new UI.",
                      "Guidance on visual design when the page is new.",
                      "Guidance on visual design during deployment reviews.",
                      "Guidance on visual design during reviewing."]),
    ("MISSING_TRIGGER", ["A comprehensive toolkit of utilities around PDF documents.",
                         "A comprehensive toolkit of utilities around testing documents.",
                         "Diagnosing and tuning a specific slow relational query from plan evidence.",
                         "Diagnosis and tuning of a specific slow relational query from plan evidence."]),
    ("MISSING_TRIGGER", ["A toolkit around PDF documents. Do not use when editing Word files.",
                         "A toolkit around PDF documents. Do not use for scanned images.",
                         "A toolkit around PDF documents, for example invoices and receipts."]),
    # "for" + a beneficiary says for whom, not for what: no usage context
    ("MISSING_TRIGGER", ["Generates a thing and writes it to disk for the user.",
                         "Generates a thing and writes it to disk for users.",
                         "Generates a thing and writes it to disk for you.",
                         "Generates a thing and writes it to disk for them.",
                         "Generates a thing and writes it to disk for all users."]),
    # a situation clause in Japanese, Chinese or Korean is the same shape as "when …" in English
    ("WEAK_TRIGGER", ["Troubleshooting steps when Supabase Realtime does not work.",
                      "Supabase Realtimeが動作しない場合のトラブルシューティング手順",
                      "Supabase Realtimeが動作しないときのトラブルシューティング手順",
                      "Supabase Realtimeのデプロイ時に確認するトラブルシューティング手順",
                      "Supabase Realtimeをデプロイする際に確認するトラブルシューティング手順",
                      "当 Supabase Realtime 无法工作时的故障排除步骤与说明",
                      "Supabase Realtime 无法工作的时候的故障排除步骤与说明",
                      "Supabase Realtime가 동작하지 않을 때의 문제 해결 절차 안내"]),
    # CJK words that contain "time" or "case" but say no situation
    ("MISSING_TRIGGER", ["同時に複数のファイルを処理するためのツールキットとスクリプトの一覧です",
                         "実際にデータを変換するユーティリティとスクリプトの一覧です",
                         "一个用于实时的数据同步工具集合与相关脚本说明",
                         "데이터베이스 연결 때문에 생긴 문제의 해결 절차 안내"]),
    # a keyword trigger said of the user or of the prompt is explicit
    (None, ["Binding ultrawork directive. When the user mentions ultrawork or ulw, the hook loads this file.",
            "Binding ultrawork directive. When a prompt contains ultrawork or ulw, the hook loads this file.",
            "Binding ultrawork directive. When the request mentions ultrawork or ulw, the hook loads this file.",
            "Binding ultrawork directive. Whenever a message includes ultrawork or ulw, the hook loads this file."]),
    # a deprecated skill or forwarding shim is exempt, whatever the rest of its description says
    (None, ["Deprecated — forwards to bmad-architecture (create intent)",
            "DEPRECATED: consolidated into bmad-foo; this skill will be removed in v7.",
            "[Deprecated] Superseded by new-report; kept so old invocations keep working.",
            "This skill is deprecated and replaced by pdf-suite for form filling.",
            "Forwards to bmad-review with only the prose lens."]),
    ("MISSING_TRIGGER", ["Finds deprecated API calls in a codebase and lists their replacements.",
                         "A toolkit around deprecated PDF documents and their replacements."]),
    (None, ["A toolkit for PDF documents. Use when the user asks to fill a PDF form.",
            "A toolkit for PDF documents. Use it for filling PDF forms.",
            "A toolkit for PDF documents. This skill should be used when forms are involved."]),
]


@pytest.mark.parametrize(("code", "descriptions"), SAME_SHAPE)
def test_same_shape_same_code(code: str | None, descriptions: list[str]) -> None:
    assert [(_code(d), d) for d in descriptions] == [(code, d) for d in descriptions]


def _xml(description: str, target: str = "claude-code") -> list[str]:
    text = f"---\nname: s\ndescription: {description}\n---\n\n# S\n\nBody.\n"
    cfg = Config(select=("DESCRIPTION_XML_TAG",), target=target)
    return [f.message for f in analyze(text, None, config=cfg).findings if f.code == "DESCRIPTION_XML_TAG"]


@pytest.mark.parametrize("description", [
    "'Invoke with `/review <pr-number>` or ``/review <file-path>`` to review a PR.'",
    "'Routes to references/<language>/README.md per language.'",
    "'Builds an Execute<T> harness and a Map<K, V> cache for activities.'",
    "'Operates clusters: /ssh [cluster] <instruction> runs a command there.'",
    "'Flags files of <5 MB, a < b, a -> b, or <patch|minor|major> bumps.'",
])
def test_placeholders_are_not_tags(description: str) -> None:
    assert _xml(description) == []


@pytest.mark.parametrize(("description", "tag"), [
    ("'Reviews PRs. <example>review PR 42</example>'", "<example>"),
    ("'Ends the reply with </answer> so the parser stops.'", "</answer>"),
    ("'Writes a line break <br/> between items.'", "<br/>"),
    ("'Plans tool calls as <tool name=\"search\"> blocks.'", '<tool name="search">'),
    ("'A stray ` backtick, then <example>x</example>.'", "<example>"),  # an unclosed backtick is literal
])
def test_markup_is_a_tag(description: str, tag: str) -> None:
    assert _xml(description) == [f"`description` contains the XML tag `{tag}`"]


def test_claude_api_rejects_placeholders_too() -> None:
    """The Claude API's validator rejects angle brackets whatever they mean: there a placeholder is reported."""
    for description in ("'Invoke with `/review <pr-number>`.'", "'Routes to references/<language>/README.md.'"):
        assert len(_xml(description, "claude-api")) == 1
        assert _xml(description, "claude-code") == []


@pytest.mark.parametrize(("field", "want"), [
    ("description: Draws charts for reports\n", "Draws charts for reports. Use when <the situations this skill is for>."),
    ("description: Draws charts for reports.\n", "Draws charts for reports. Use when <the situations this skill is for>."),
    ('description: "Draws charts for reports"\n', "Draws charts for reports. Use when <the situations this skill is for>."),
    ("description: >\n  Draws charts\n  for reports\n", "Draws charts for reports. Use when <the situations this skill is for>.\n"),
    ("description: |\n  Draws charts\n  for reports\n", "Draws charts\nfor reports.\nUse when <the situations this skill is for>.\n"),
])
def test_trigger_fix_adds_a_sentence_after_a_full_stop(field: str, want: str) -> None:
    """The display-only "Use when …" fix starts a new sentence, whatever the YAML style: no run-on
    "… for reports Use when …" when the description has no final full stop (held-out sets 7-9)."""
    from pathlib import Path

    import yaml

    from skillgrade.analyzers.engine import run_rules
    from skillgrade.analyzers.fixes import apply_edits
    from skillgrade.analyzers.parse import parse

    text = "---\nname: charts\n" + field + "license: MIT\n---\n# Charts\n"
    found = run_rules(parse(text, Path("/tmp/charts/SKILL.md")), Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")))[0]
    new, applied = apply_edits(text, list(found[0].fix.edits))
    fm = yaml.safe_load(new.split("---")[1])
    assert applied == 1 and fm["description"] == want and fm["license"] == "MIT"
