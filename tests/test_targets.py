"""Targets: the config key, the CLI flag and the LSP setting choose the rules that run and the fields known."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config, ConfigError, load_config
from skillgrade.analyzers.engine import run_rules
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.registry import ALL_RULES, by_code
from skillgrade.analyzers.rule import Severity, rule
from skillgrade.analyzers.targets import ALL_TARGETS, DEFAULT_TARGET, known_fields
from skillgrade.server.lsp.settings import parse_settings

SKILL = """---
name: claude-helper
description: Reviews designs. Use when the user asks for a design review.
model: gpt-4
allowed-tools: Read Bash
---

# Review

Read the design.
"""


def _codes(cfg: Config) -> set[str]:
    findings, _ = run_rules(parse(SKILL), cfg)
    return {f.code for f in findings}


def test_default_target_is_claude_code() -> None:
    assert Config().target == DEFAULT_TARGET == "claude-code"
    codes = _codes(Config())
    assert {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"} <= codes
    assert "NAME_RESERVED_WORD" not in codes and "UNKNOWN_FIELD" not in codes


def test_claude_api_target_runs_upload_rules_and_drops_claude_code_fields() -> None:
    codes = _codes(Config(target="claude-api"))
    assert "NAME_RESERVED_WORD" in codes
    assert "UNKNOWN_FIELD" in codes  # `model` is a Claude Code field
    assert not codes & {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"}


def test_agentskills_target_runs_no_platform_rule() -> None:
    codes = _codes(Config(target="agentskills"))
    assert not codes & {"NAME_RESERVED_WORD", "UNKNOWN_MODEL", "UNRESTRICTED_BASH", "DESCRIPTION_XML_TAG"}


def test_known_fields_per_target() -> None:
    assert {"model", "argument-hint", "name"} <= known_fields("claude-code")
    assert "model" not in known_fields("claude-api") and "allowed-tools" in known_fields("agentskills")


def test_engine_skips_rules_of_other_targets() -> None:
    @rule("ONLY_API", family="test", severity=Severity.INFO, targets=("claude-api",))
    def only_api(doc, ctx):
        """Test rule."""
        yield ctx.finding(doc.frontmatter_range(), "fired")

    doc = parse(SKILL)
    assert run_rules(doc, Config(), rules=(only_api,))[0] == []
    assert [f.code for f in run_rules(doc, Config(target="claude-api"), rules=(only_api,))[0]] == ["ONLY_API"]


def test_rule_targets_are_checked_at_declaration() -> None:
    with pytest.raises(ValueError):
        rule("BAD_TARGET", family="test", severity=Severity.INFO, targets=("vscode",))(lambda d, c: iter(()))
    assert all(r.targets and r.targets <= ALL_TARGETS for r in ALL_RULES)
    assert by_code("NAME_RESERVED_WORD").targets == {"claude-api"}


def test_config_key(tmp_path: Path) -> None:
    f = tmp_path / ".skillgrade.toml"
    f.write_text('target = "Claude-API"\n', encoding="utf-8")
    assert load_config(f).target == "claude-api"
    f.write_text('target = "cursor"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="claude-code, claude-api, agentskills"):
        load_config(f)
    py = tmp_path / "pyproject.toml"
    py.write_text('[tool.skillgrade]\ntarget = "agentskills"\n', encoding="utf-8")
    assert load_config(py).target == "agentskills"


def test_lsp_setting() -> None:
    s, errors = parse_settings({"target": "claude-api"})
    assert not errors and s.config().target == "claude-api"
    s, errors = parse_settings({"target": "cursor"})
    assert errors and s.config().target == "claude-code"
    s, errors = parse_settings({"target": None})  # unset: the file config decides
    assert not errors and s.config(Config(target="agentskills")).target == "agentskills"


def test_vscode_manifest_lists_the_setting() -> None:
    manifest = Path(__file__).resolve().parent.parent / "editors" / "vscode" / "package.json"
    props = json.loads(manifest.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    assert set(props["skillgrade.target"]["enum"]) == {None, *ALL_TARGETS}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_cli_target_flag_wins_over_config(tmp_path: Path) -> None:
    skill = tmp_path / "claude-helper" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(SKILL, encoding="utf-8")
    (tmp_path / ".skillgrade.toml").write_text('target = "agentskills"\n', encoding="utf-8")

    def codes(*extra: str) -> set[str]:
        out = _cli("score", str(skill.parent), "--format", "json", "--no-cache", *extra, cwd=tmp_path)
        assert out.returncode in (0, 1), out.stderr
        data = json.loads(out.stdout)
        return {f["code"] for s in data.get("skills", [data]) for f in s["findings"]}

    assert "UNKNOWN_MODEL" not in codes()  # the config's agentskills
    assert "UNKNOWN_MODEL" in codes("--target", "claude-code")
    assert "NAME_RESERVED_WORD" in codes("--target", "claude-api")
    bad = _cli("score", str(skill.parent), "--target", "cursor", cwd=tmp_path)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_rules_listing_names_targets(tmp_path: Path) -> None:
    out = _cli("rules", cwd=tmp_path).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("NAME_RESERVED_WORD"))
    assert line.endswith("[claude-api]")
    assert not next(ln for ln in out.splitlines() if ln.startswith("MISSING_TRIGGER")).endswith("]")
    data = json.loads(_cli("rules", "--format", "json", cwd=tmp_path).stdout)
    assert {r["code"]: r["targets"] for r in data}["UNRESTRICTED_BASH"] == ["claude-code"]


OPENCLAW_TEXT = SKILL.replace("allowed-tools: Read Bash\n", """allowed-tools: Read Bash\nmetadata: '{"clawdbot": {"emoji": "x"}}'\n""")
OPENCLAW = SKILL.replace("allowed-tools: Read Bash\n", 'allowed-tools: Read Bash\nmetadata: {"openclaw": {"emoji": "x"}}\n')
# an OpenClaw fork's own key (elizaOS: otto), known by OpenClaw's keys; a look-alike with other keys is not
OTTO = SKILL.replace("allowed-tools: Read Bash\n",
                     'allowed-tools: Read Bash\nmetadata: {"otto": {"requires": {"bins": ["jq"]}}}\n')
LOOKALIKE = SKILL.replace("allowed-tools: Read Bash\n",
                          'allowed-tools: Read Bash\nmetadata: {"owner": {"requires": "x", "team": "y"}}\n')


@pytest.mark.parametrize(("text", "folder", "silent"), [
    (SKILL, "skills/claude-helper", False),                       # no evidence: Claude Code
    (OPENCLAW, "skills/claude-helper", True),                     # metadata.openclaw: an OpenClaw skill
    (OPENCLAW_TEXT, "skills/claude-helper", True),                # ... or its JSON text, as OpenClaw documents
    (SKILL, ".opencode/skills/claude-helper", True),              # another agent's project folder
    (SKILL, ".codex/skills/claude-helper", True),
    (SKILL, ".agent/skills/claude-helper", True),                 # Antigravity, Codex packs (oh-my-codex)
    (OTTO, "skills/claude-helper", True),
    (LOOKALIKE, "skills/claude-helper", False),
    (SKILL, ".claude/skills/claude-helper", False),               # Claude Code's own folder
    (SKILL, ".claude/worktrees/.agents/skills/claude-helper", False),  # .claude anywhere above wins
    (SKILL, "codex-plugin/skills/claude-helper", True),           # a Codex plugin's skill
    (SKILL, "both-plugin/skills/claude-helper", False),           # a plugin for both: Claude Code too
    (SKILL, "datus-plugin/skills/claude-helper", True),           # `datus-plugin.yml` at its root: a Datus plugin
    (SKILL, "notes-plugin/skills/claude-helper", False),          # a `plugin-notes.yml` names no agent
])
def test_a_skill_for_another_agent_gets_no_claude_code_only_rules(tmp_path: Path, text: str, folder: str,
                                                                  silent: bool) -> None:
    """Unless the target was chosen, Claude Code's own semantics (model names, Bash approval, `$N`) are not
    applied to a skill that shows it is written for another agent; rules for every target still run."""
    path = tmp_path / folder / "SKILL.md"
    for plugin, marks in (("codex-plugin", (".codex-plugin",)), ("both-plugin", (".codex-plugin", ".claude-plugin"))):
        for m in marks:
            (tmp_path / plugin / m).mkdir(parents=True, exist_ok=True)
    (tmp_path / "datus-plugin").mkdir(exist_ok=True)
    (tmp_path / "datus-plugin" / "datus-plugin.yml").write_text("manifest_version: 1\nskills: skills\n")
    (tmp_path / "notes-plugin").mkdir(exist_ok=True)
    (tmp_path / "notes-plugin" / "plugin-notes.yml").write_text("notes: []\n")
    cc_only = {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"}
    codes = {f.code for f in run_rules(parse(text, path), Config())[0]}
    assert (not codes & cc_only) if silent else cc_only <= codes
    chosen = Config().merged({"target": "claude-code"})
    assert chosen.target_explicit and not Config().target_explicit
    assert cc_only <= {f.code for f in run_rules(parse(text, path), chosen)[0]}


@pytest.mark.parametrize(("repo", "folder", "text", "silent"), [
    # held-out set 45: a repository of skills named for Cursor installs them into `.cursor/skills/`
    ("cursor-skills", "skills/claude-helper", SKILL, True),
    ("ade-cursor-skills", "skills/ops/claude-helper", SKILL, True),
    ("koaedo__codex-rules", "claude-helper", SKILL, True),
    ("claude-cursor-skills", "skills/claude-helper", SKILL, False),  # named for Claude too
    ("cursor-tools", "skills/claude-helper", SKILL, False),  # an agent's name, no collection word after it
    ("skills-for-cursor", "skills/claude-helper", SKILL, False),
    ("my-skills", "skills/claude-helper", SKILL, False),
    ("cursor-skills", ".claude/skills/claude-helper", SKILL, False),  # Claude Code's own folder on the way up
    ("cursor-skills", "skills/claude-helper", SKILL + "\nInstall into `~/.claude/skills/` too.\n", False),
    ("cursor-skills", "skills/claude-helper", SKILL + "\nWorks in Claude Code as well.\n", False),
])
def test_a_repository_named_for_another_agent(tmp_path: Path, repo: str, folder: str, text: str,
                                              silent: bool) -> None:
    """A repository of skills that names itself for another agent (`cursor-skills`) is that agent's: Claude Code's
    own semantics are not applied unless the skill or the path says Claude Code."""
    (tmp_path / repo / ".git").mkdir(parents=True)
    path = tmp_path / repo / folder / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    cc_only = {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"}
    codes = {f.code for f in run_rules(parse(text, path), Config())[0]}
    assert (not codes & cc_only) if silent else cc_only <= codes


def test_a_repository_named_for_another_agent_inside_a_claude_plugin(tmp_path: Path) -> None:
    """A Claude Code plugin kept in such a repository is Claude Code's."""
    (tmp_path / "cursor-skills" / ".git").mkdir(parents=True)
    (tmp_path / "cursor-skills" / "plugin" / ".claude-plugin").mkdir(parents=True)
    path = tmp_path / "cursor-skills" / "plugin" / "skills" / "claude-helper" / "SKILL.md"
    path.parent.mkdir(parents=True)
    assert {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"} <= {f.code for f in run_rules(parse(SKILL, path), Config())[0]}


def test_a_manifest_added_later_is_seen(tmp_path: Path) -> None:
    """The manifest lookup is kept per folder while the folder is unchanged: a long-lived server that saw the
    folder without a manifest sees the one added afterwards (and stops seeing it once it is removed)."""
    path = tmp_path / "tool" / "skills" / "claude-helper" / "SKILL.md"
    path.parent.mkdir(parents=True)
    cc_only = {"UNKNOWN_MODEL", "UNRESTRICTED_BASH"}

    def codes() -> set[str]:
        return {f.code for f in run_rules(parse(SKILL, path), Config())[0]}

    assert cc_only <= codes()
    manifest = tmp_path / "tool" / "datus-plugin.yml"
    manifest.write_text("manifest_version: 1\nskills: skills\n")
    os.utime(tmp_path / "tool", ns=(1, 1))  # a different modification time, however coarse the clock
    assert not codes() & cc_only
    manifest.unlink()
    os.utime(tmp_path / "tool", ns=(2, 2))
    assert cc_only <= codes()
