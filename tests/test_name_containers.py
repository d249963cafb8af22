"""NAME_DIR_MISMATCH / NAME_FORMAT on a package's container folder (`orchestra/skill-assets/SKILL.md`)."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.name.name_dir_mismatch import is_container


def _nested_codes(tmp_path: Path, rel: str, name: str) -> list[str]:
    """NAME_DIR_MISMATCH's codes for a skill at `rel` below the workspace root."""
    skill = tmp_path / rel
    skill.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: Runs the orchestra. Use when the user asks to coordinate agents.\n---\n\n# O\n"
    (skill / "SKILL.md").write_text(text)
    report = analyze(text, skill / "SKILL.md", config=Config(select=("NAME_DIR_MISMATCH",)), workspace_root=tmp_path)
    return [f.code for f in report.findings]


def _codes(tmp_path: Path, folder: str, name: str) -> list[str]:
    return _nested_codes(tmp_path, f"skills/{folder}", name)


def test_a_container_inside_a_folder_named_like_the_skill_is_not_a_mismatch(tmp_path: Path) -> None:
    assert _codes(tmp_path, "orchestra/skill-assets", "orchestra") == []


def test_a_container_inside_another_folder_still_is(tmp_path: Path) -> None:
    assert _codes(tmp_path, "conductor/skill-assets", "orchestra") == ["NAME_DIR_MISMATCH"]


def test_container_names() -> None:
    assert is_container("assets") and is_container("skill-assets") and is_container("Skill_Data")
    assert not is_container("claude-assets") and not is_container("pdf-tools") and not is_container("skills")



def _agent_copies(tmp_path: Path, package: bool) -> list[str]:
    import json
    import subprocess
    import sys

    root = tmp_path / "pkg"
    for agent in (".claude", ".agents"):
        d = root / "assets" / agent / "skills" / "discovery"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: discovery\ndescription: Maps a repository for {agent}. "
                                    "Use when the user starts on a new codebase.\n---\n\n# D\n")
    if package:
        (root / "__init__.py").write_text("")
    run = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", str(tmp_path), "--format", "json",
                          "--no-cache", "--jobs", "1", "--select", "DUPLICATE_SKILL_NAME"],
                         capture_output=True, cwd=tmp_path, check=False)
    assert run.returncode in (0, 1), run.stderr.decode()
    return [f["code"] for s in json.loads(run.stdout)["skills"] for f in s["findings"]]


def test_per_agent_copies_shipped_as_package_data_are_not_duplicates(tmp_path: Path) -> None:
    """agent-harness-kit: `<pkg>/assets/.claude/skills/x` and `<pkg>/assets/.agents/skills/x`, copied by the
    package's installer into one agent's folder each (held-out set 18)."""
    assert _agent_copies(tmp_path, package=True) == []


def test_per_agent_copies_in_a_project_are_still_duplicates(tmp_path: Path) -> None:
    assert _agent_copies(tmp_path, package=False) == ["DUPLICATE_SKILL_NAME", "DUPLICATE_SKILL_NAME"]


def test_name_missing_offers_no_container_name(tmp_path: Path) -> None:
    """Set 21: secondbrain's `data/skill/SKILL.md` is installed as `~/.claude/skills/brain/`; the safe fix
    `name: skill` would rename it. A folder named like a skill still gets the fix."""
    text = "---\ndescription: Keeps notes. Use when the user asks to remember something.\n---\n\n# B\n"
    fixes = {}
    for folder in ("skill", "brain"):
        skill = tmp_path / folder
        skill.mkdir()
        (skill / "SKILL.md").write_text(text)
        (f,) = analyze(text, skill / "SKILL.md", config=Config(select=("NAME_MISSING",)),
                       workspace_root=tmp_path).findings
        fixes[folder] = f.fix.title if f.fix else None
    assert fixes == {"skill": None, "brain": "Add `name: brain`"}


def test_a_vendored_copy_keeps_its_upstream_folder_name(tmp_path: Path) -> None:
    """`my-agent-skills/vendor/Dilaz__security-review-skill/` for `name: security-review` (held-out set 30)."""
    assert _nested_codes(tmp_path, "my-agent-skills/vendor/Dilaz__security-review-skill", "security-review") == []
    assert _nested_codes(tmp_path, "my-agent-skills/third_party/Dilaz__security-review-skill", "security-review") == []


def test_the_same_folder_under_a_category_is_a_mismatch(tmp_path: Path) -> None:
    assert _nested_codes(tmp_path, "my-agent-skills/review/Dilaz__security-review-skill",
                         "security-review") == ["NAME_DIR_MISMATCH"]


def test_a_retired_copy_in_an_archive_folder_is_not_compared(tmp_path: Path) -> None:
    """`claude-skills/.archive/adjutant-add-phase-v2/` for `name: adjutant-add-phase` (held-out set 31)."""
    for folder in (".archive", "_archive", "archive", "deprecated"):
        assert _nested_codes(tmp_path, f"claude-skills/{folder}/adjutant-add-phase-v2", "adjutant-add-phase") == []
    assert _nested_codes(tmp_path, "claude-skills/phases/adjutant-add-phase-v2",
                         "adjutant-add-phase") == ["NAME_DIR_MISMATCH"]


def _write(tmp_path: Path, rel: str, text: str) -> Path:
    skill = tmp_path / rel
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(text)
    return skill / "SKILL.md"


def test_another_runtimes_record_is_not_compared(tmp_path: Path) -> None:
    """`name: Notion CLI`, `slug: notion-cli`, `type:`, `install:` and no description in `skills/notion-cli/`
    (held-out set 32): the runtime's label, not an agent skill's name. With a description it is compared."""
    record = "---\nname: Notion CLI\nslug: notion-cli\ntype: external_cli\ninstall:\n  linux: npm i -g notion-cli\n---\n\n# N\n"
    path = _write(tmp_path, "skills/notion-cli", record)
    cfg = Config(select=("NAME_DIR_MISMATCH", "NAME_FORMAT"))
    assert analyze(record, path, config=cfg, workspace_root=tmp_path).findings == []
    skill = record.replace("type: external_cli\n", "description: Drives Notion. Use when the user asks about Notion.\n")
    path = _write(tmp_path, "skills2/notion-cli", skill)
    codes = sorted(f.code for f in analyze(skill, path, config=cfg, workspace_root=tmp_path).findings)
    assert codes == ["NAME_DIR_MISMATCH", "NAME_FORMAT"]


def test_a_platform_copy_is_not_renamed_after_its_platform(tmp_path: Path) -> None:
    """`skills/<Skill>/platforms/antigravity/SKILL.md` (held-out set 32): the fix slugs the skill's own name."""
    text = "---\nname: Agent Coordination\ndescription: Coordinates agents. Use when agents must share work.\n---\n\n# A\n"
    path = _write(tmp_path, "skills/Agent Coordination/platforms/antigravity", text)
    report = analyze(text, path, config=Config(select=("NAME_FORMAT",)), workspace_root=tmp_path)
    assert [f.fix.title for f in report.findings if f.fix] == ["Rename to `agent-coordination`"]
    path = _write(tmp_path, "skills/agent-coordination/antigravity", text)
    report = analyze(text, path, config=Config(select=("NAME_FORMAT",)), workspace_root=tmp_path)
    assert [f.fix.title for f in report.findings if f.fix] == ["Rename to `antigravity` (the folder's name)"]


def test_a_repository_named_skills_two_levels_up_is_not_a_skills_folder(tmp_path: Path) -> None:
    """Set 35's draco-skills-collection: `<repo>/Ark Agent Plan Version/cover/` holds a variant named
    `cover-ark-plan` on purpose; only the repository's own name says "skills"."""
    (tmp_path / "draco-skills").mkdir()
    (tmp_path / "draco-skills" / ".git").mkdir()
    assert _nested_codes(tmp_path, "draco-skills/Ark Version/cover", "cover-ark-plan") == []


def test_a_skills_folder_two_levels_up_still_is(tmp_path: Path) -> None:
    """`skills/<category>/<skill>/` (not a repository's root) keeps the check, as does a repository named
    `*-skills` holding the skill directly."""
    assert _nested_codes(tmp_path, "skills/devops/cover", "cover-ark-plan") == ["NAME_DIR_MISMATCH"]
    (tmp_path / "my-skills").mkdir()
    (tmp_path / "my-skills" / ".git").mkdir()
    assert _nested_codes(tmp_path, "my-skills/cover", "cover-ark") == ["NAME_DIR_MISMATCH"]


def test_a_laravel_boost_package_skill_installs_under_its_name(tmp_path: Path) -> None:
    # set 68: laravel/ai's `resources/boost/skills/ai-sdk-development/` holds `name: developing-with-ai-sdk`; Boost's
    # SkillWriter copies it to `<agent skills path>/developing-with-ai-sdk`
    assert _nested_codes(tmp_path, "resources/boost/skills/ai-sdk-development", "developing-with-ai-sdk") == []
    assert _nested_codes(tmp_path, "resources/skills/ai-sdk-development", "developing-with-ai-sdk") == [
        "NAME_DIR_MISMATCH"]
    assert _nested_codes(tmp_path, "boost/skills/ai-sdk-development", "developing-with-ai-sdk") == ["NAME_DIR_MISMATCH"]
