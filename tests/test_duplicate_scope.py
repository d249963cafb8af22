"""DUPLICATE_SKILL_NAME compares only skills that an agent loads side by side (one skills folder, or the
project skill folders one agent reads together), never two copies in different folders of one repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.name.duplicate_skill_name import load_scope, loaded_together
from skillgrade.analyzers.workspace import Workspace

TEXT = "---\nname: foo\ndescription: Use when testing foo.\n---\n\n# Foo\n"


def _dups(root: Path, rels: list[str]) -> dict[str, list[str]]:
    """Each skill's DUPLICATE_SKILL_NAME related paths (relative to root), all skills named `foo`."""
    ws = Workspace(roots=(root,))
    for rel in rels:
        ws.add_text(root / rel, TEXT)
    out = {}
    for rel in rels:
        rep = analyze(TEXT, root / rel, config=Config(select=("DUPLICATE_SKILL_NAME",)), workspace=ws,
                      workspace_root=root)
        out[rel] = sorted(str(Path(r.path).relative_to(root)) for f in rep.findings for r in f.related)
    return out


def test_build_copy_in_another_package_is_no_collision(tmp_path: Path) -> None:
    """J2 group A: oh-my-opencode's sync script copies packages/shared-skills/skills/* into the Codex
    plugin's skills folder; a plugin component's skill is copied the same way."""
    rels = ["packages/shared/skills/foo/SKILL.md", "packages/plugin/skills/foo/SKILL.md",
            "packages/plugin/components/x/skills/foo/SKILL.md"]
    (tmp_path / ".git").mkdir()
    assert _dups(tmp_path, rels) == {r: [] for r in rels}


def test_marketplace_plugins_are_namespaced(tmp_path: Path) -> None:
    rels = ["plugins/a/skills/foo/SKILL.md", "plugins/b/skills/foo/SKILL.md"]
    assert _dups(tmp_path, rels) == {r: [] for r in rels}


def test_one_skills_folder_collides_and_points_at_the_other(tmp_path: Path) -> None:
    rels = ["skills/foo/SKILL.md", "skills/foo-old/SKILL.md"]
    assert _dups(tmp_path, rels) == {rels[0]: [rels[1]], rels[1]: [rels[0]]}


def test_project_folders_read_together(tmp_path: Path) -> None:
    """OpenCode loads .opencode/skills and .agents/skills of one project (J2 id 89); Copilot .github and
    .claude; a skill nested deeper in a project folder counts too (OpenCode searches at any depth)."""
    rels = [".agents/skills/foo/SKILL.md", ".opencode/skills/foo/SKILL.md", ".github/skills/group/foo/SKILL.md"]
    got = _dups(tmp_path, rels)
    assert got[".agents/skills/foo/SKILL.md"] == [".github/skills/group/foo/SKILL.md", ".opencode/skills/foo/SKILL.md"]
    assert got[".opencode/skills/foo/SKILL.md"] == [".agents/skills/foo/SKILL.md"]  # no agent reads .opencode and .github
    assert got[".github/skills/group/foo/SKILL.md"] == [".agents/skills/foo/SKILL.md"]


def test_project_folders_of_different_projects_or_agents(tmp_path: Path) -> None:
    rels = ["a/.claude/skills/foo/SKILL.md", "b/.claude/skills/foo/SKILL.md",  # two projects
            "c/.windsurf/skills/foo/SKILL.md", "c/.cursor/skills/foo/SKILL.md",  # no agent reads both
            "d/.claude/skills/foo/SKILL.md", "d/foo/SKILL.md"]  # a project skill and a loose folder
    assert _dups(tmp_path, rels) == {r: [] for r in rels}


@pytest.mark.parametrize("path,scope", [
    ("/r/skills/foo/SKILL.md", ("/r/skills", None)),
    ("/r/.claude/skills/foo/SKILL.md", ("/r", ".claude")),
    ("/r/.opencode/skill/foo/SKILL.md", ("/r", ".opencode")),
    ("/r/.agents/skills/cat/foo/SKILL.md", ("/r", ".agents")),
    ("/r/.claude/skills/plugin/skills/foo/SKILL.md", ("/r/.claude/skills/plugin/skills", None)),  # nearest `skills`
    ("/r/docs/skills/foo/SKILL.md", ("/r/docs/skills", None)),
    ("/SKILL.md", ("/", None)),
])
def test_load_scope(path: str, scope: tuple[str, str | None]) -> None:
    assert load_scope(path) == scope


def test_loaded_together_pairs() -> None:
    assert loaded_together(("/r", ".claude"), ("/r", ".agents"))
    assert loaded_together(("/r", ".codex"), ("/r", ".agents"))
    assert not loaded_together(("/r", ".claude"), ("/q", ".claude"))
    assert not loaded_together(("/r", ".cursor"), ("/r", ".github"))
    assert not loaded_together(("/r", ".claude"), ("/r", None))
    assert loaded_together(("/r/skills", None), ("/r/skills", None))


def test_stale_copy_inside_the_skill_collides(tmp_path: Path) -> None:
    """heldout3's youcom-web-search ships a nested copy of itself inside its own folder (judged right)."""
    rels = ["repo/foo/SKILL.md", "repo/foo/foo/SKILL.md", "elsewhere/foo/SKILL.md"]
    got = _dups(tmp_path, rels)
    assert got == {rels[0]: [rels[1]], rels[1]: [rels[0]], rels[2]: []}


def test_generated_per_agent_copies_inside_a_skill_are_no_collision(tmp_path: Path) -> None:
    """Set 22: shodan-skill's root SKILL.md and its generated `platforms/<agent>/…` copies, installed one at a
    time by its installer; a stale copy kept elsewhere inside the skill is still reported."""
    (tmp_path / ".git").mkdir()
    rels = ["foo/SKILL.md", "foo/platforms/codex/SKILL.md", "foo/old/SKILL.md"]
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    got = _dups(tmp_path, rels)
    assert got["foo/platforms/codex/SKILL.md"] == []
    assert got["foo/old/SKILL.md"] == ["foo/SKILL.md"]


def test_a_skill_an_npm_package_inside_the_repository_skill_ships_is_no_collision(tmp_path: Path) -> None:
    """Set 53: AIMFllyYS/Tmp-Skills-Hub's repository-root SKILL.md and `packages/cli/self-skill/SKILL.md`, the same
    skill bundled by the npm CLI (`packages/cli/package.json`), which installs it alone. Without the package, the inner
    copy is a stale one inside the skill."""
    (tmp_path / ".git").mkdir()
    rels = ["hub/SKILL.md", "hub/packages/cli/self-skill/SKILL.md", "hub/packages/old/self-skill/SKILL.md"]
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "hub/packages/cli/package.json").write_text('{"name": "hub-cli"}\n', encoding="utf-8")
    got = _dups(tmp_path, rels)
    assert got["hub/packages/cli/self-skill/SKILL.md"] == []
    assert got["hub/SKILL.md"] == ["hub/packages/old/self-skill/SKILL.md"]
