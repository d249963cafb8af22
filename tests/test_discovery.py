"""Which SKILL.md files a tree holds (workspace.find_skill_files), as the CLI and the server walk it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillgrade.analyzers.fastmd import may_define
from skillgrade.analyzers.workspace import find_skill_files


def _skill(d: Path) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text("---\nname: x\n---\n")
    return d / "SKILL.md"


def test_walk_order_and_skipped_folders(tmp_path: Path) -> None:
    a = _skill(tmp_path / "a")
    nested = _skill(tmp_path / "a" / "nested")
    b = _skill(tmp_path / "b")
    hidden = _skill(tmp_path / ".hidden" / "x")  # hidden folders are walked (.claude/skills, .curated, ...)
    _skill(tmp_path / "node_modules" / "pkg")
    _skill(tmp_path / "a" / ".git" / "y")
    _skill(tmp_path / ".pytest_cache" / "v")
    _skill(tmp_path / ".skillgrade_cache" / "w")
    venv = tmp_path / "env"
    _skill(venv / "lib" / "z")
    (venv / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "c" / "SKILL.md").mkdir(parents=True)  # a folder named SKILL.md is not a skill
    os.symlink(tmp_path / "b", tmp_path / "link-to-b")  # symlinked folders are not followed
    assert list(find_skill_files([tmp_path])) == [hidden, a, nested, b]


def test_templates_inside_a_skill_are_not_skills(tmp_path: Path) -> None:
    creator = _skill(tmp_path / "skill-manager")
    template = _skill(tmp_path / "skill-manager" / "assets" / "skill-template")
    _skill(tmp_path / "skill-manager" / "templates" / "basic")
    nested = _skill(tmp_path / "skill-manager" / "variants" / "lite")  # a nested skill elsewhere: still found
    loose = _skill(tmp_path / "assets" / "x")  # an assets/ folder that is not inside a skill: walked
    assert list(find_skill_files([tmp_path])) == [loose, creator, nested]
    assert list(find_skill_files([template])) == [template]  # named directly: scored


LAYOUTS = {
    "claude-code": [".claude/skills/pdf", ".claude/skills/review"],
    "agents": [".agents/skills/deploy", ".github/skills/triage"],
    "collection": [".curated/gh-fix-ci", ".system/skill-creator", ".experimental/notes", "skills/plain"],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_skills_in_hidden_folders_are_found(tmp_path: Path, layout: str) -> None:
    want = sorted(_skill(tmp_path / d) for d in LAYOUTS[layout])
    _skill(tmp_path / ".venv" / "lib" / "dep")
    assert sorted(find_skill_files([tmp_path])) == want


def test_cli_scores_a_project_with_claude_code_layout(tmp_path: Path) -> None:
    """`skillgrade score .` in a project whose skills live where Claude Code keeps them."""
    import json
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    for name in ("pdf-tools", "code-review"):
        d = tmp_path / ".claude" / "skills" / name
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}. Use when asked to.\n---\n# T\n")
    proc = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", ".", "--format", "json",
                           "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    names = sorted(r["skill"]["name"] for r in json.loads(proc.stdout)["skills"])
    assert names == ["code-review", "pdf-tools"]


def test_server_index_sees_hidden_skill_folders(tmp_path: Path) -> None:
    from skillgrade.server.lsp.engine import Engine

    a = _skill(tmp_path / ".claude" / "skills" / "a")
    b = _skill(tmp_path / "skills" / "b")
    ws, n = Engine(converter=None).index_roots((tmp_path,), {})
    assert n == 2 and sorted(ws.entries) == sorted([a, b])


def test_files_and_overlapping_paths_are_listed_once(tmp_path: Path) -> None:
    a = _skill(tmp_path / "a")
    found = list(find_skill_files([a, tmp_path, tmp_path / "a"]))
    assert found == [a]


def test_a_virtualenv_given_directly_is_walked(tmp_path: Path) -> None:
    s = _skill(tmp_path / "lib" / "s")
    (tmp_path / "pyvenv.cfg").write_text("home = /usr\n")
    assert list(find_skill_files([tmp_path])) == [s]


@pytest.mark.parametrize(("line", "defines"), [
    ("[a]: b.md", True),
    ("   [a]: <b c>", True),
    ("- [Alternative]: [why]", True),  # may be one inside a list item
    ("> [q]: u", True),
    ("1. [o]: p", True),
    ("label]: dest", True),  # a label opened on an earlier line
    ("see [a]: b", False),
    ("{ [key: string]: T }", False),
    ("x `[x]: y`", False),
])
def test_which_lines_may_define_a_link_reference(line: str, defines: bool) -> None:
    assert may_define([line]) is defines


def test_a_case_variant_of_skill_md_is_found_and_reported(tmp_path: Path) -> None:
    """`skill.md` works on macOS and is silently skipped by Claude Code on Linux: found, scored, and
    reported (SKILL_FILE_NAME) by the CLI; a folder that has SKILL.md is scored by SKILL.md alone."""
    import json
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    lower = tmp_path / ".claude" / "skills" / "lower"
    lower.mkdir(parents=True)
    (lower / "skill.md").write_text("---\nname: lower\ndescription: Does lower. Use when asked to.\n---\n# T\n")
    names = {p.name for p in lower.iterdir()}
    if "SKILL.md" in names or not (lower / "SKILL.md").exists():  # only on a case-sensitive disk can
        both = _skill(tmp_path / "skills" / "both")                 # SKILL.md and skill.md live side by side
        (both.parent / "skill.md").write_text("notes\n")
    else:
        both = None
    found = list(find_skill_files([tmp_path]))
    assert found[0] == lower / "skill.md"
    assert found[1:] == ([both] if both is not None else [])
    proc = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", str(lower / "skill.md"),
                           "--format", "json", "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1, proc.stderr
    rep = json.loads(proc.stdout)
    assert [f["code"] for f in rep["findings"]] == ["SKILL_FILE_NAME"]
    assert rep["findings"][0]["range"]["start"] == {"line": 0, "character": 0}


def test_no_skill_found_names_a_skill_in_a_skipped_folder(tmp_path: Path) -> None:
    """A package that ships its skills under `dist/` (skipped as build output): the error says where the
    skill is and to give its path; a skill only inside node_modules (never a project's own) is not hinted."""
    import subprocess
    import sys

    from skillgrade.analyzers.workspace import skipped_skill_file

    _skill(tmp_path / "pkg" / "dist" / "skills" / "a")
    _skill(tmp_path / "deps" / "node_modules" / "b")
    assert skipped_skill_file(tmp_path / "pkg") == os.path.join("dist", "skills", "a", "SKILL.md")
    assert skipped_skill_file(tmp_path / "deps") is None
    assert skipped_skill_file(tmp_path / "pkg", budget=1) is None  # bounded: gives up rather than walk on
    run = [sys.executable, "-m", "skillgrade.server.cli", "score"]
    proc = subprocess.run([*run, "pkg"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "skillgrade: error: pkg: no SKILL.md found (dist/skills/a/SKILL.md is in a folder skipped as build "
        "output, cache or tool state: give its path to score it)")
    proc = subprocess.run([*run, "deps"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip() == "skillgrade: error: deps: no SKILL.md found"
    proc = subprocess.run([*run, "pkg/dist", "--format", "json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode in (0, 1), proc.stderr


def test_a_skill_named_build_is_found(tmp_path: Path) -> None:
    """`skills/build/SKILL.md` is a skill called build (held-out set 8: dummyindex, ai-sdlc-kit); a `build/`
    or `dist/` folder without its own SKILL.md is still build output and skipped."""
    build = _skill(tmp_path / "skills" / "build")
    deploy = _skill(tmp_path / "skills" / "deploy")
    _skill(tmp_path / "pkg" / "build" / "lib" / "copied")  # output holding a copy of a skill: skipped
    _skill(tmp_path / "pkg" / "dist" / "x")
    assert list(find_skill_files([tmp_path])) == [build, deploy]


def _cli_hits(root: Path, code: str) -> tuple[list[str], str]:
    """`skillgrade score . --select CODE` in `root` (made a repository root): the files it reports, and its
    output."""
    import subprocess
    import sys

    (root / ".git").mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", ".", "--no-cache", "--select",
                           code], cwd=root, capture_output=True, text=True, timeout=120)
    return [ln.split(":", 1)[0] for ln in proc.stdout.splitlines() if code in ln], proc.stdout


def test_skill_file_name_is_silent_on_installer_sources(tmp_path: Path) -> None:
    """A lowercase skill.md that a package's installer copies to SKILL.md (wheel data under *.data/data/,
    a folder of a Python package) or a folder holding other skills is not a skill Claude Code loads
    (held-out set 8); a skill.md in a plain skill folder still gets SKILL_FILE_NAME."""
    head = "---\nname: {n}\ndescription: Does {n}. Use when asked to {n}.\n---\n# T\n"
    cases = {
        "pkg-1.0.data/data/share/pkg/docs/protocol/skill.md": "desk",
        "pypkg/skills_src/skill.md": "remember",
        "container/skill.md": "container",
        "container/inner/SKILL.md": "inner",
        "plain/release-notes/skill.md": "release-notes",
    }
    for rel, n in cases.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(head.format(n=n), encoding="utf-8")
    (tmp_path / "pypkg" / "__init__.py").write_text("", encoding="utf-8")
    hits, out = _cli_hits(tmp_path, "SKILL_FILE_NAME")
    assert hits == ["plain/release-notes/skill.md"], out


def test_name_dir_mismatch_is_silent_on_python_package_data(tmp_path: Path) -> None:
    """A skill folder inside a Python package (`__init__.py` in its parent or grandparent) is data the
    package's installer deploys as <skills>/<name>/ (held-out set 8: dummyindex installs skills/memory as
    dummyindex-remember); an `__init__.py` in the skill folder itself only makes its scripts importable,
    so a mismatch there is still reported (held-out set 7: jira-assistant-skills)."""
    head = "---\nname: {n}\ndescription: Does {n}. Use when asked to {n}.\n---\n# T\n"
    for rel, n in {"pypkg/skills/memory": "dummyindex-remember", "plain/skills/jira-admin": "jira-administration"}.items():
        d = tmp_path / rel
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(head.format(n=n), encoding="utf-8")
    (tmp_path / "pypkg" / "skills" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "plain" / "skills" / "jira-admin" / "__init__.py").write_text("", encoding="utf-8")
    hits, out = _cli_hits(tmp_path, "NAME_DIR_MISMATCH")
    assert hits == ["plain/skills/jira-admin/SKILL.md"], out


def test_name_dir_mismatch_is_silent_under_a_packages_underscored_data_folder(tmp_path: Path) -> None:
    """Set 39s: xhr_assistant_mcp ships `xhr_assistant_mcp/_bundled/agent_scripts/skills/documents/<skill>/`, five
    folders below the import package, and its server reads each SKILL.md by that path. The same tree with a plain
    `bundled/` folder, with no `__init__.py` above, or below an agent's `.claude/` folder that the package copies
    into projects as it is (set 39q agentic_testari), is still reported."""
    head = "---\nname: {n}\ndescription: Does {n}. Use when asked to {n}.\n---\n# T\n"
    for top in ("pkg_a/_bundled", "pkg_b/bundled", "plain/_bundled", "pkg_c/_resources/.claude"):
        d = tmp_path / top / "agent_scripts" / "skills" / "documents" / "search_company_document"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(head.format(n="search-company-document"), encoding="utf-8")
    for pkg in ("pkg_a", "pkg_b", "pkg_c"):
        (tmp_path / pkg / "__init__.py").write_text("", encoding="utf-8")
    hits, out = _cli_hits(tmp_path, "NAME_DIR_MISMATCH")
    assert hits == ["pkg_b/bundled/agent_scripts/skills/documents/search_company_document/SKILL.md",
                    "pkg_c/_resources/.claude/agent_scripts/skills/documents/search_company_document/SKILL.md",
                    "plain/_bundled/agent_scripts/skills/documents/search_company_document/SKILL.md"], out


def test_case_variant_counts_only_when_it_reads_as_a_skill(tmp_path: Path) -> None:
    """Set 11: oh-my-pi's `prompts/internal-urls/skill.md` is a one-line prompt among `agent.md`, `rule.md`;
    agent-code's `skills/browser/skill.md` is the metadata of a Python plugin beside `skill.py`. Neither is a
    skill; a `skill.md` with frontmatter, or alone in its folder (a starter pack's `templates/skills/panel/`),
    and no plugin code beside it still is (SKILL_FILE_NAME and FRONTMATTER_MISSING report it)."""
    from skillgrade.analyzers.workspace import find_skill_files

    head = "---\nname: x\ndescription: Use when x.\n---\n"
    files = {"prompts/internal-urls/skill.md": "Read the skill at skill://name.\n",
             "prompts/internal-urls/agent.md": "Agent prompt.\n", "prompts/internal-urls/rule.md": "Rule.\n",
             "prompts/internal-urls/docs.md": "Docs.\n",
             "templates/skills/panel/skill.md": "# Panel\n\nLaunch the panel.\n",
             "templates/skills/panel/skill.json": "{}\n",
             "plugins/browser/skill.md": head, "plugins/browser/skill.py": "print(1)\n",
             "skills/lower/skill.md": head,
             # set 47b: agentpick's `public/skill.md`, the page its site serves at /skill.md for agents to read (no
             # frontmatter); a web root's `skill.md` with frontmatter is still a skill
             "web/public/skill.md": "# AgentPick\n\nCall GET /api/tools to rank tools.\n",
             "site/static/skill.md": head}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    found = sorted(p.relative_to(tmp_path).as_posix() for p in find_skill_files([tmp_path]))
    assert found == ["site/static/skill.md", "skills/lower/skill.md", "templates/skills/panel/skill.md"]



def test_a_web_roots_skill_md_with_frontmatter_keeps_its_name(tmp_path: Path) -> None:
    """Set 53: agent-skills-hub's `frontend/public/skill.md` (frontmatter; "save it as SKILL.md") is the page the
    site serves at `/skill.md`: scored, but its name is its address, not a skill folder's misnamed manifest. The same
    file in a skill folder is reported."""
    from skillgrade.analyzers.config import Config
    from skillgrade.analyzers.report import analyze

    text = "---\nname: hub\ndescription: Use when installing skills from the hub.\n---\n\n# Hub\n\nSave this page.\n"
    got = {}
    for rel in ("frontend/public/skill.md", "skills/hub/skill.md"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        rep = analyze(text, path, config=Config(select=("SKILL_FILE_NAME",)), workspace_root=tmp_path)
        got[rel] = [f.code for f in rep.findings]
    assert got == {"frontend/public/skill.md": [], "skills/hub/skill.md": ["SKILL_FILE_NAME"]}
