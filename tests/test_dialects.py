"""Other agents' frontmatter: OpenClaw's keys and nested metadata in a skill written for OpenClaw, Qwen Code's
`allowedTools` (reported, never renamed)."""

from __future__ import annotations

import time

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.fields import OPENCLAW, dialect_of, metadata_namespace
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.targets import known_fields

CODES = ("UNKNOWN_FIELD", "FIELD_TYPE")
CLAWDEMO = """---
name: clawdemo
description: Use when demoing.
homepage: https://example.com
metadata: {"clawdbot":{"emoji":"x","requires":{"bins":["jq"]}}}
---
"""
QWENDEMO = """---
name: qwendemo
description: Use when demoing qwen.
allowedTools:
  - read_file
---
"""


def _findings(text: str, target: str = "claude-code"):
    findings, _ = run_rules(parse(text), Config(select=CODES, target=target))
    return findings


@pytest.mark.parametrize("target", ["claude-code", "claude-api", "agentskills"])
def test_openclaw_skill_is_clean_for_every_target(target: str) -> None:
    """J2 group B's repro: `homepage` and nested `metadata.clawdbot` are OpenClaw's documented format."""
    assert _findings(CLAWDEMO, target) == []
    text = CLAWDEMO.replace("homepage:", "user-invocable: false\ndisable-model-invocation: true\nhomepage:")
    assert _findings(text, target) == []


def test_openclaw_keys_without_openclaw_metadata_are_unknown() -> None:
    text = CLAWDEMO.replace('{"clawdbot":{"emoji":"x","requires":{"bins":["jq"]}}}', '{"author":{"n":"me"}}')
    got = sorted((f.code, f.message) for f in _findings(text))
    assert got == [("FIELD_TYPE", "`metadata.author` must be text, not a mapping"),
                   ("UNKNOWN_FIELD", "Unknown frontmatter field `homepage`; custom data belongs under `metadata` "
                                     "(a key your own tools read: list it in `known-fields`)")]


def test_allowed_tools_of_qwen_code_is_never_renamed() -> None:
    (f,) = _findings(QWENDEMO)
    assert f.code == "UNKNOWN_FIELD" and f.fix is None
    assert "Claude Code reads `allowed-tools` and Qwen Code `allowedTools`" in f.message
    both = QWENDEMO.replace("allowedTools:", "allowed-tools: Read\nallowedTools:")
    assert _findings(both) == []
    typo = QWENDEMO.replace("allowedTools:", "allowed-tool:")  # a real typo still gets its rename
    (t,) = _findings(typo)
    assert t.fix is not None and t.fix.edits[0].new_text == "allowed-tools"


@pytest.mark.parametrize("value,ns", [
    ({"openclaw": {"emoji": "x"}}, "openclaw"),
    ({"author": "me", "moltbot": {}}, "moltbot"),
    ({"clawdis": "x"}, "clawdis"),
    ('{"clawdbot": {"requires": {}}}', "clawdbot"),
    ({"author": "me"}, None),
    ('{"author": "me"}', None),
    ("openclaw", None),
    ("{not json", None),
    (None, None),
    (["openclaw"], None),
])
def test_metadata_namespace(value: object, ns: str | None) -> None:
    assert metadata_namespace(value) == ns
    assert dialect_of(value) == (OPENCLAW if ns else None)


def test_known_fields_of_the_dialect() -> None:
    assert "homepage" in known_fields("claude-api", OPENCLAW) and "homepage" not in known_fields("claude-api")
    assert known_fields("claude-code", None) == known_fields("claude-code")


def test_hostile_metadata_text_is_fast() -> None:
    t0 = time.perf_counter()
    for text in ("{" + "[" * 99_000, "{" * 99_999, '{"a":' * 20_000):
        assert metadata_namespace(text) is None
    assert time.perf_counter() - t0 < 2


def test_other_host_reads_the_folders_above_the_skill_not_its_own() -> None:
    """A skill folder named like an agent's folder (`skills/.codex/`) is not that agent's project folder."""
    from pathlib import Path

    from skillgrade.analyzers.hosts import other_host
    from skillgrade.analyzers.parse import parse

    text = "---\nname: x\ndescription: Use when x.\n---\n"
    assert other_host(parse(text, Path("proj/.codex/skills/x/SKILL.md"))) == "codex"
    assert other_host(parse(text, Path("proj/skills/.codex/SKILL.md"))) is None


@pytest.mark.parametrize(("description", "host"), [
    ("Complete setup guide for running an AI-controlled Minecraft server with OpenClaw on Paper", OPENCLAW),
    ("Daily briefings, powered by OpenClaw.", OPENCLAW),
    ("Manage OpenClaw skills: find, audit and update them.", None),  # about OpenClaw: it may run anywhere
    ("Works with OpenClaw and Claude Code alike.", None),  # names Claude too
    ("Use with openclaw-gateway to route messages.", None),  # another tool's name
])
def test_a_description_that_runs_with_openclaw(description: str, host: str | None) -> None:
    """set 23's MineAI: no OpenClaw metadata, but its description says it runs with OpenClaw (Claude Code's `$1`
    substitution does not apply: ARGUMENT_IN_CODE was judged wrong twice)."""
    from pathlib import Path

    from skillgrade.analyzers.hosts import other_host

    text = f"---\nname: x\ndescription: {description}\n---\n"
    assert other_host(parse(text, Path("proj/skills/x/SKILL.md"))) == host


def test_a_hostile_description_naming_openclaw_is_fast() -> None:
    from skillgrade.analyzers.fields import frontmatter_dialect

    t0 = time.perf_counter()
    for desc in ("with " * 50_000 + "openclaw", "openclaw" + " with" * 50_000, "\t" * 100_000 + "openclaw"):
        frontmatter_dialect({"description": desc})
    assert time.perf_counter() - t0 < 1


HERMES_BODY = "Write files with Hermes's tools; Hermes reads `{` as a template."
FORK_BODY = "source: internal (hermes agent)"


@pytest.mark.parametrize(("platforms", "body", "host"), [
    ("[macos, linux]", HERMES_BODY, "hermes"),  # Hermes Agent's operating-system filter, in a skill for Hermes
    ("\n  - Linux\n  - windows", HERMES_BODY, "hermes"),
    ("[macos, linux]", FORK_BODY, None),  # a fork's skill keeping the keys, which its loader ignores
    ("\n  telegram:\n    enabled: true", HERMES_BODY, None),  # a mapping: some tool's configuration
    ("[web, mobile]", HERMES_BODY, None),  # not operating systems
])
def test_a_platforms_list_of_operating_systems_is_hermes(platforms: str, body: str, host: str | None) -> None:
    """Set 35's pocketbase: `platforms: [macos, linux]` without `metadata.hermes` (which Hermes makes optional);
    set 13's ethan skills (a fork's loader reads neither `platforms` nor `author`: judged right twice)."""
    from pathlib import Path

    from skillgrade.analyzers.hosts import other_host

    text = f"---\nname: x\ndescription: Use when x.\nauthor: A\nplatforms: {platforms}\n---\n\n{body}\n"
    assert other_host(parse(text, Path("proj/skills/x/SKILL.md"))) == host
    codes = [f.code for f in _findings(text)]
    assert ("UNKNOWN_FIELD" in codes) == (host is None)


@pytest.mark.parametrize(("body", "host"), [
    ("Read `.github/skills/sprint-retro/config.md` in the workspace.", "github"),
    ("Install to `.opencode/skills/sprint-retro/`.", "opencode"),
    ("Read `.github/skills/other-skill/config.md`.", None),  # another skill's folder
    ("Copy to `.github/skills/sprint-retro/` or `.claude/skills/sprint-retro/`.", None),  # names Claude's too
])
def test_a_skill_whose_text_places_it_in_an_agent_folder(body: str, host: str | None) -> None:
    """Set 35's sprint-retro: `mcp_github_…` tool names are VS Code's, and its text reads its own config from
    `.github/skills/sprint-retro/` (GitHub Copilot's project folder)."""
    from pathlib import Path

    from skillgrade.analyzers.hosts import other_host

    text = f"---\nname: sprint-retro\ndescription: Use when x.\n---\n\n{body}\n"
    assert other_host(parse(text, Path("proj/skills/sprint-retro/SKILL.md"))) == host


def test_a_hermes_skill_may_keep_the_top_level_keys_hermes_reads() -> None:
    """Set 35d's judge, checked in hermes-agent 0.19.0: `tags` and `related_skills` are read at the top level when
    `metadata.hermes` lacks them, `category` by its learning graph; moving them under plain `metadata` would hide
    them from Hermes. A key Hermes does not read is still reported, and so are these in a skill not for Hermes."""
    text = "---\nname: x\ndescription: Use when x.\ntags: [a]\nlabels: [b]\nmetadata:\n  hermes:\n    category: y\n---\n"
    assert [f.message.split(";")[0] for f in _findings(text)] == ["Unknown frontmatter field `labels`"]
    plain = "---\nname: x\ndescription: Use when x.\ntags: [a]\n---\n"
    assert [f.message.split(";")[0] for f in _findings(plain)] == ["Unknown frontmatter field `tags`"]


@pytest.mark.parametrize(("keys", "body", "host"), [
    ("category: reasonix\ntags: [tdd]", "## Hermes 适配说明\n在 Hermes 中使用时，用 `delegate_task`。", "hermes"),
    ("tags: [routing]", "Hermes reads this skill from `~/.hermes/skills/`.", "hermes"),
    ("tags: [tdd]", "A workflow for test-driven development.", None),  # no word of Hermes
    ("owner: me", "Post to X from Hermes; Hermes keeps the token.", None),  # about Hermes, no key it reads
    ("tags: [x]", "Mentions hermes once.", None),  # in passing
    ("tags: [lint]\nauthor: Hermes Labs", "From hermes-labs-ai/lintlang; Hermes Labs keeps it.", None),  # a company
])
def test_hermes_keys_and_text_naming_hermes_make_a_hermes_skill(keys: str, body: str, host: str | None) -> None:
    """Set 36's reasonix-superpower: `category` and `tags` at the top level, which Hermes reads, and a section on
    using the skill in Hermes, without `metadata.hermes` or `platforms`. A skill only about Hermes (set 36's
    hermes-tweet, 19 mentions) keeps none of those keys and stays Claude Code's."""
    from pathlib import Path

    from skillgrade.analyzers.hosts import other_host

    text = f"---\nname: x\ndescription: Use when x.\n{keys}\n---\n\n{body}\n"
    assert other_host(parse(text, Path("pack/reasonix/x/SKILL.md"))) == host
    unknown = [f for f in _findings(text) if f.code == "UNKNOWN_FIELD"]
    assert (not unknown) == (host is not None)


UAC = """---
name: report-feature-changes
description: Validates the generator's assumptions. Use when the user asks for a drift report.
userInvocable: true
argumentHint: "[--tool <name>]"
allowedTools:
  claude: ["Read", "Grep"]
descripton: typo
---

# Report
"""


def test_universal_ai_config_template_keys(tmp_path) -> None:
    """set 38c: a skill under `.universal-ai-config/` is that generator's template; its camelCase keys and per-agent
    blocks become each agent's own keys. A typo there, and the same keys in an ordinary skill, are still reported."""
    from skillgrade.analyzers.report import analyze

    def keys(folder: str) -> list[str]:
        skill = tmp_path / folder / "skills" / "report-feature-changes"
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(UAC, encoding="utf-8")
        rep = analyze(UAC, skill / "SKILL.md", config=Config(select=("UNKNOWN_FIELD",)), workspace_root=tmp_path)
        return sorted(f.message.split("`")[1] for f in rep.findings)

    assert keys(".universal-ai-config") == ["descripton"]
    assert keys(".claude") == ["allowedTools", "argumentHint", "descripton", "userInvocable"]


def test_a_sample_skill_under_examples_gets_no_trigger_finding(tmp_path) -> None:
    """set 38t: agentic_paradigm_ladder's `examples/skills/compliant-skill` ("A fully spec-compliant example skill …")
    is an input for the package's checker. The same description elsewhere, and a real skill under `examples/`, still
    get MISSING_TRIGGER."""
    from skillgrade.analyzers.report import analyze

    def codes(folder: str, desc: str) -> list[str]:
        skill = tmp_path / folder
        skill.mkdir(parents=True)
        text = f"---\nname: {skill.name}\ndescription: {desc}\n---\n\n# Skill\n\nBody.\n"
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER",)), workspace_root=tmp_path)
        return [f.code for f in rep.findings]

    sample = "A fully spec-compliant example skill that declares version and dependencies."
    assert codes("pkg/examples/skills/compliant-skill", sample) == []
    assert codes("pkg/skills/compliant-skill", sample) == ["MISSING_TRIGGER"]
    assert codes("pkg/examples/skills/pdf-tools", "Fills PDF forms and merges documents.") == ["MISSING_TRIGGER"]
    # set 39b: shuanzi/agent-config-hub's `fixtures/fx-01/native-root/skills/demo-skill`, four folders below
    fixture = "Demo fixture skill. Copies one file into the target folder."
    assert codes("fixtures/fx-01/native-root/skills/demo-skill", fixture) == []
    assert codes("src/fx-01/native-root/skills/demo-copy", fixture) == ["MISSING_TRIGGER"]  # (`demo-skill/`: set 53)
    # set 42q: dataagent's `builtin_suites/example_suite/skill/demo_skill_extra`, a folder named `example_…`
    assert codes("pkg/builtin_suites/example_suite/skill/demo-extra", fixture) == []
    assert codes("pkg/builtin_suites/exemplary/skill/demo-extra", fixture) == ["MISSING_TRIGGER"]
    # set 40p: mcp-scan's `tests/mcp_servers/.test-client/skills/test-skill` ("This is a test that everythings is
    # correct"), an input of the package's own tests; a testing skill under `shared/` is a skill
    test_input = "This is a test that everythings is correct"
    assert codes("scan/tests/mcp_servers/.test-client/skills/test-skill", test_input) == []
    assert codes("scan/shared/skills/self-check", test_input) == ["MISSING_TRIGGER"]  # (`test-skill/`: set 53)
    assert codes("scan/testing/skills/testing", "Writes unit tests with pytest and reports coverage.") == [
        "MISSING_TRIGGER"]  # (under `tests/` it is a test input whatever it says: set 53, below)
    # set 41r: agent_engineering_toolkit's `fixtures/` skills ("Fixture for workflow guidance.", "Held-out fixture with
    # a mismatched directory name."): the word alone, under a sample folder; elsewhere it is a skill's word
    assert codes("aet/fixtures/skills/wf-guide", "Fixture for workflow guidance.") == []
    assert codes("aet/fixtures/skills/wf-held", "Held-out fixture with a mismatched directory name.") == []
    assert codes("aet/skills/fixture-maker", "Writes pytest fixture files and factories.") == ["MISSING_TRIGGER"]
    # set 43e: a plugin scaffold's placeholder, `plugins/_template/skills/example-skill` ("Example skill …")
    assert codes("cp/plugins/_template/skills/example-skill", "Example skill showing the layout of a skill.") == []
    assert codes("cp/plugins/linear/skills/layout", "Example skill showing the layout of a skill.") == [
        "MISSING_TRIGGER"]  # (in a folder named `example-skill`: set 53)


def test_a_fixture_skill_said_so_in_its_body_gets_no_trigger_or_unreferenced_finding(tmp_path) -> None:
    """set 43: agent-skills-sync-unity's `Tests/Editor/Fixtures~/SkillFolderHash/nested` ("Nested folders and mixed-case
    names.", body "Fixture skill for computedHash tests.") is hashed test data: Unity skips `Fixtures~/` folders. Its
    unreached `scripts/run.sh` is data too. The same skill outside a test folder, and a real skill under `Testing/`
    whose body says nothing of fixtures, are still reported."""
    from skillgrade.analyzers.parse import scan_skill_files
    from skillgrade.analyzers.report import analyze

    def codes(folder: str, body: str) -> list[str]:
        skill = tmp_path / folder
        (skill / "scripts").mkdir(parents=True)
        (skill / "scripts" / "run.sh").write_text("echo hi\n", encoding="utf-8")
        text = f"---\nname: {skill.name}\ndescription: Nested folders and mixed-case names.\n---\n\n# {skill.name}\n\n{body}\n"
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER", "UNREFERENCED_FILE")),
                      files=scan_skill_files(skill, tmp_path), workspace_root=tmp_path)
        return sorted(f.code for f in rep.findings)

    fixture = "Fixture skill for computedHash tests."
    assert codes("pkg/Tests/Editor/Fixtures~/SkillFolderHash/nested", fixture) == []
    assert codes("pkg/Editor/SkillFolderHash/nested", fixture) == ["MISSING_TRIGGER", "UNREFERENCED_FILE"]
    assert codes("pkg/Testing/Editor/hash/nested", "Hashes the folders of a skill.") == ["MISSING_TRIGGER",
                                                                                        "UNREFERENCED_FILE"]
    # MetalbolicX/opencode-agent-skills-md's `tests/fixtures/…/scripted-skill`: "This fixture skill is referenced by …"
    assert codes("tests/fixtures/skills/project/.opencode/skills/scripted", "This fixture skill is referenced by the "
                 "discovery tests.") == []


@pytest.mark.parametrize(("keys", "unknown"), [
    ("category: market-data\ncompatible_with: [claude-code, openclaw, cursor, hermes]", ["compatible_with"]),
    ("category: market-data\ncompatible_with: [claude-code, cursor]", ["category", "compatible_with"]),  # no Hermes
    ("category: market-data\nnames: [hermes, apollo]", ["category", "names"]),  # no agent beside it: a list of names
])
def test_a_list_of_target_agents_naming_hermes_keeps_its_keys(keys: str, unknown: list[str]) -> None:
    """set 43c: Basem7719's skills list `compatible_with: [claude-code, openclaw, cursor, hermes]` and keep Hermes's
    top-level `category`, naming Hermes nowhere else; the list key itself is no agent's and is still reported."""
    text = f"---\nname: x\ndescription: Use when x.\n{keys}\n---\n\nScan the market.\n"
    got = sorted(f.message.split("`")[1] for f in _findings(text) if f.code == "UNKNOWN_FIELD")
    assert got == unknown


def test_a_deliberately_broken_sample_and_its_siblings_are_samples(tmp_path) -> None:
    """set 49: ossianhempel/skill-library's `examples/skills/invalid-bad-frontmatter` ("This example intentionally omits
    YAML frontmatter so validation tests can assert …") and its sibling `review-helper-v1`, inputs of the package's
    validator. The same files outside a sample folder, and a sibling of a real skill under `examples/`, are reported."""
    from skillgrade.analyzers.report import analyze

    broken = "# Bad Frontmatter Example\n\nThis example intentionally omits YAML frontmatter so validation tests can " \
             "assert `skill-md-missing-frontmatter`.\n"
    helper = "---\nname: review-helper-v1\ndescription: Review local code changes for correctness and risk.\n---\n\n" \
             "# Review Helper\n\nReview the diff.\n"

    def codes(folder: str, name: str, text: str, codes: tuple[str, ...]) -> list[str]:
        skill = tmp_path / folder / name
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", config=Config(select=codes), workspace_root=tmp_path)
        return [f.code for f in rep.findings]

    assert codes("lib/examples/skills", "invalid-bad-frontmatter", broken, ("FRONTMATTER_MISSING",)) == []
    assert codes("lib/examples/skills", "review-helper-v1", helper, ("MISSING_TRIGGER", "WEAK_TRIGGER")) == []
    assert codes("lib/skills", "invalid-bad-frontmatter", broken, ("FRONTMATTER_MISSING",)) == ["FRONTMATTER_MISSING"]
    assert codes("lib/skills", "review-helper-v1", helper, ("MISSING_TRIGGER", "WEAK_TRIGGER")) == ["WEAK_TRIGGER"]
    plain = "# Notes\n\nKeep the notes short.\n"
    assert codes("other/examples/skills", "notes", plain, ("FRONTMATTER_MISSING",)) == ["FRONTMATTER_MISSING"]
    assert codes("other/examples/skills", "review-helper-v1", helper, ("MISSING_TRIGGER", "WEAK_TRIGGER")) == [
        "WEAK_TRIGGER"]


def test_skill_rules_json_prompt_triggers_route_the_skill(tmp_path) -> None:
    """set 50: Continuous-Claude's `.claude/skills/skill-rules.json` gives `hook-developer` keywords and intent
    patterns that its UserPromptSubmit hook matches against each prompt. A skill the table does not name, or names
    without prompt triggers, is still reported; an edited table is read again on a warm run."""
    import json

    from skillgrade.analyzers.report import analyze

    skills = tmp_path / ".claude" / "skills"

    def codes(name: str, rules: object) -> list[str]:
        skill = skills / name
        skill.mkdir(parents=True, exist_ok=True)
        (skills / "skill-rules.json").write_text(json.dumps(rules), encoding="utf-8")
        text = f"---\nname: {name}\ndescription: Claude Code hooks, the complete reference.\n---\n\n# Hooks\n\nBody.\n"
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")),
                      workspace_root=tmp_path)
        return [f.code for f in rep.findings]

    rules = {"version": "1.0", "skills": {"hook-developer": {
        "type": "domain", "promptTriggers": {"keywords": ["hook", "PreToolUse"], "intentPatterns": ["(create|add).*hook"]}}}}
    assert codes("hook-developer", rules) == []
    assert codes("other-skill", rules) == ["MISSING_TRIGGER"]
    no_prompts = {"skills": {"hook-developer": {"type": "domain", "fileTriggers": {"pathPatterns": ["**/*.ts"]}}}}
    assert codes("hook-developer", no_prompts) == ["MISSING_TRIGGER"]
    empty = {"skills": {"hook-developer": {"promptTriggers": {"keywords": [], "intentPatterns": [" "]}}}}
    assert codes("hook-developer", empty) == ["MISSING_TRIGGER"]
    (skills / "skill-rules.json").write_text("{not json", encoding="utf-8")
    text = "---\nname: hook-developer\ndescription: Claude Code hooks, the complete reference.\n---\n\nBody.\n"
    rep = analyze(text, skills / "hook-developer" / "SKILL.md", config=Config(select=("MISSING_TRIGGER",)),
                  workspace_root=tmp_path)
    assert [f.code for f in rep.findings] == ["MISSING_TRIGGER"]


def test_test_folders_sample_tags_and_sample_folders_mark_sample_skills(tmp_path) -> None:
    """set 53: H4x3rs/skills-hub's `skm-cli/test/add-uint-support` (a real skill's text, the CLI's upload test input:
    `category`, `tags` are the hub's upload fields), TreeTreeDi/skills-hub's `hello` (`tags: [example, greeting]`, a
    website's demo) and AxiomNode's `agent-skills/sample-skill` ("This is a test skill.") are samples. Near-misses: the
    same skills under `testing/`, tagged `greeting` only, and a `sample-skill` folder whose text says nothing of it."""
    from skillgrade.analyzers.report import analyze

    def codes(folder: str, front: str, body: str = "Greet the user.") -> list[str]:
        skill = tmp_path / folder
        skill.mkdir(parents=True)
        text = f"---\nname: {skill.name}\n{front}\n---\n\n# Skill\n\n{body}\n"
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", workspace_root=tmp_path,
                      config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER", "UNKNOWN_FIELD")))
        return sorted(f.code for f in rep.findings)

    upload = "description: Adds uint support to the tensor ops.\ncategory: tools"
    assert codes("a/skm-cli/test/add-uint-support", upload) == []
    assert codes("a/skm-cli/testing/add-uint-support", upload) == ["MISSING_TRIGGER", "UNKNOWN_FIELD"]
    hello = "description: A friendly greeting skill that introduces itself to users\ncategory: utility\ntags:\n  - {}"
    assert codes("b/apps/web/.agents/skills/hello", hello.format("example")) == []
    assert codes("b/apps/web/.agents/skills/hi", hello.format("greeting")) == ["MISSING_TRIGGER", "UNKNOWN_FIELD",
                                                                               "UNKNOWN_FIELD"]
    sample = "description: A sample bundled skill for testing the new local CLI."
    assert codes("c/library/agent-skills/sample-skill", sample, "This is a test skill.") == []
    assert codes("d/library/agent-skills/sample-skill", "description: Review a pull request for testing gaps.",
                 "Review the diff.") == ["WEAK_TRIGGER"]


def test_a_skill_in_an_archive_folder_gets_no_trigger_finding(tmp_path) -> None:
    """set 55: jacobrocks1212/claude-config's `archived/user-skills/implement-phase`, retired: no agent loads it. A
    skill named for archives (`skills/archive-notes`), and one under `archiver/`, are still reported."""
    from skillgrade.analyzers.report import analyze

    def codes(folder: str) -> list[str]:
        skill = tmp_path / folder
        skill.mkdir(parents=True)
        text = f"---\nname: {skill.name}\ndescription: Implements one phase of the plan and reports progress.\n---\n\nGo.\n"
        (skill / "SKILL.md").write_text(text, encoding="utf-8")
        rep = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")),
                      workspace_root=tmp_path)
        return [f.code for f in rep.findings]

    assert codes("cfg/archived/user-skills/implement-phase") == []
    assert codes("cfg2/.archive/skills/implement-phase") == []
    assert codes("cfg3/skills/archive-notes") == ["MISSING_TRIGGER"]
    assert codes("cfg4/archiver/skills/implement-phase") == ["MISSING_TRIGGER"]
