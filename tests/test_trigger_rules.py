"""MISSING_TRIGGER vs WEAK_TRIGGER is decided by a description's shape, not by how its words are spelled; DESCRIPTION_XML_TAG
tells markup from placeholders."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules._helpers import english, explicit_trigger, usage_context


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
    # set 19: "Invoke after …" is "Invoke when …"; "on every PR" says the occasion (a context, not a trigger)
    (None, ["Initialises the memory store. Invoke after running `marm-memory init` in a new project.",
            "Initialises the memory store. Invoke when a new project is created."]),
    ("WEAK_TRIGGER", ["Checks the blast radius of a change. Run RepoCodex impact on every PR before merge.",
                      "Checks the blast radius of a change. Run RepoCodex impact before merging a PR."]),
    ("MISSING_TRIGGER", ["Checks the blast radius of a change. Run RepoCodex impact on the PR diff."]),
    # set 20: an adverb before the request ("when the user explicitly asks to …")
    (None, ["Repairs the environment lock. Only when the user explicitly asks to repair the environment.",
            "Repairs the environment lock. Only when the user asks to repair the environment."]),
    # set 21: more ways to say when
    (None, ["Cleans up feature flags. Use this once the rollout has reached every user.",
            "Coding standards for the API. Required reading when changing any endpoint.",
            "Release checklist. ALWAYS read and follow this skill before tagging a release.",
            "Reviews pull requests for the team members, when they request a review of a change."]),
    ("WEAK_TRIGGER", ["Cleans up feature flags once they are stale, for teams with many flags."]),
    # set 22: "Spawned ONLY when PM sends BAZINGA" (an orchestrator's verbs)
    (None, ["Validates the final result. Spawned ONLY when PM sends BAZINGA.",
            "Validates the final result. Invoked ONLY when PM sends BAZINGA."]),
    # set 24: "ALWAYS use `bl` FIRST" says when: every time, before anything else
    (None, ["Alibaba Cloud Model Studio CLI. `bl` is the PRIMARY tool for ALL AI tasks. ALWAYS use `bl` FIRST.",
            "Model Studio CLI for all AI tasks. Always use this skill first."]),
    ("WEAK_TRIGGER", ["Model Studio CLI for all AI tasks. Always use descriptive prompts."]),
]


@pytest.mark.parametrize(("code", "descriptions"), SAME_SHAPE)
def test_same_shape_same_code(code: str | None, descriptions: list[str]) -> None:
    assert [(_code(d), d) for d in descriptions] == [(code, d) for d in descriptions]


def _shape(description: str) -> str:
    """The decision the triggering score reads, in any language: explicit, context or none."""
    return "explicit" if explicit_trigger(description) else "context" if usage_context(description) else "none"


# the triggering score reads the same shape in Japanese, Chinese and Korean as in English
SAME_SHAPE_ANY_LANGUAGE = [
    ("context", ["Troubleshooting steps when Supabase Realtime does not work.",
                 "Supabase Realtimeが動作しない場合のトラブルシューティング手順",
                 "Supabase Realtimeが動作しないときのトラブルシューティング手順",
                 "Supabase Realtimeのデプロイ時に確認するトラブルシューティング手順",
                 "Supabase Realtimeをデプロイする際に確認するトラブルシューティング手順",
                 "当 Supabase Realtime 无法工作时的故障排除步骤与说明",
                 "Supabase Realtime 无法工作的时候的故障排除步骤与说明",
                 "Supabase Realtime가 동작하지 않을 때의 문제 해결 절차 안내"]),
    # CJK words that contain "time" or "case" but say no situation
    ("none", ["同時に複数のファイルを処理するためのツールキットとスクリプトの一覧です",
              "実際にデータを変換するユーティリティとスクリプトの一覧です",
              "一个用于实时的数据同步工具集合与相关脚本说明",
              "데이터베이스 연결 때문에 생긴 문제의 해결 절차 안내"]),
]


@pytest.mark.parametrize(("shape", "descriptions"), SAME_SHAPE_ANY_LANGUAGE)
def test_same_shape_in_any_language(shape: str, descriptions: list[str]) -> None:
    assert [(_shape(d), d) for d in descriptions] == [(shape, d) for d in descriptions]


# Trigger findings only on English descriptions: another language's phrasing is open-ended.
@pytest.mark.parametrize(("description", "is_english"), [
    ("Toolkit for testing local web applications with Playwright.", True),
    ("Creates a PR, e.g. a draft one, for the user's feature branch.", True),  # "e", "g" are no vote
    ("Generates a café menu for la carte restaurants, de facto standard.", True),  # 2 foreign < 4 English
    ("PDF", True),  # nothing to tell by
    ("Use quando revisar um Pull Request PySpark e precisar classificar risco de performance.", False),
    ("Conhecimento base sobre SAP Commerce para auxiliar geração de testes.", False),
    ("Publica la rama de feature y abre una PR en borrador con resumen y capturas.", False),
    ("Erstellt einen Bericht für das Team und prüft die Daten, wenn nötig.", False),
    ("Làm sạch văn phong tiếng Việt dịch sát từ tiếng Anh.", False),
    ("Годовая отчётность НКО для Минюста.", False),
    ("专注讲解如何使用 useXChat Hook，包括自定义 Provider 的集成", False),
    ("마케팅 PDF 문서 제작 및 처리를 위한 종합 도구", False),
])
def test_english(description: str, is_english: bool) -> None:
    assert english(description) is is_english


@pytest.mark.parametrize("description", [
    "Revisa Pull Requests PySpark. NÃO use quando o usuário pedir código novo.",
    "Publica la rama de feature y abre una PR en borrador con resumen y capturas.",
    "长篇小说分段速读：按断点定段、并发子代理读卡撰稿，聚合速读稿并做覆盖率校验。",
    "사내 저장소의 파이썬 코드 리뷰와 보안 점검을 위한 도구입니다.",
    "Supabase Realtimeが動作しない場合のトラブルシューティング手順",
])
def test_other_languages_get_no_trigger_finding(description: str) -> None:
    assert _code(description) is None


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


_DRIVER = """# Coop agent

## Skills

Skills live in `coop_os/agent/skills/`. Invoke the relevant skill when the user's request matches.

| Skill | When to use |
|-------|-------------|
| `check-in` | User wants to start their day, review priorities, or get a morning briefing |
| `scan-notes` | User wants to process raw notes into tasks |
"""


@pytest.mark.parametrize(("driver", "folder", "silent"), [
    # set 48p: coop_os's `agent/AGENT.md` routes its skills by a "When to use" table
    (_DRIVER, "check-in", True),
    (_DRIVER.replace("AGENT", "AGENTS"), "scan-notes", True),
    # a skill the table does not name, or a table with no "when" column, routes nothing
    (_DRIVER, "weekly-review", False),
    (_DRIVER.replace("When to use", "Owner"), "check-in", False),
])
def test_a_driver_files_when_table_routes_the_skill(tmp_path, driver: str, folder: str, silent: bool) -> None:
    agent = tmp_path / "coop_os" / "agent"
    skill = agent / "skills" / folder / "SKILL.md"
    skill.parent.mkdir(parents=True)
    (agent / "AGENT.md").write_text(driver, encoding="utf-8")
    text = f"---\nname: {folder}\ndescription: Morning planning session that reviews tasks and calendar.\n---\n\n# {folder}\n"
    skill.write_text(text, encoding="utf-8")
    rep = analyze(text, skill, config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")), workspace_root=tmp_path)
    assert (rep.findings == []) is silent, rep.findings


_PROFILE = """# Priority ERP Accounting Agent

## Use the three knowledge layers together

- At the start of supplier-invoice work, load
  `priority-erp:priority-workflows`, `priority-erp:israeli-bookkeeping`, and the
  deployment's one customer skill.
- Load `canon-hermes:rich-cards` only for a generic card with no Priority tool.

## Skills shipped

The `ledger-notes` skill documents the chart of accounts.
"""


@pytest.mark.parametrize(("folder", "silent"), [
    # set 85p: priority-erp-hermes-plugin's `profile/AGENTS.md` (the persona the plugin installs) loads its skills
    ("priority-workflows", True),
    ("israeli-bookkeeping", True),
    # named in the profile without a verb that loads it, or not named: no route
    ("ledger-notes", False),
    ("payroll", False),
])
def test_a_hermes_profile_loading_the_skill_routes_it(tmp_path, folder: str, silent: bool) -> None:
    pkg = tmp_path / "priority_hermes_plugin"
    skill = pkg / "skills" / folder / "SKILL.md"
    skill.parent.mkdir(parents=True)
    (pkg / "profile").mkdir()
    (pkg / "profile" / "AGENTS.md").write_text(_PROFILE, encoding="utf-8")
    text = f"---\nname: {folder}\ndescription: Reason about Israeli bookkeeping and tax.\n---\n\n# {folder}\n"
    skill.write_text(text, encoding="utf-8")
    rep = analyze(text, skill, config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")), workspace_root=tmp_path)
    assert (rep.findings == []) is silent, rep.findings
