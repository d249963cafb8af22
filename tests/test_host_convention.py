"""UNREFERENCED_FILE and a module every sibling skill holds at the same path (a host's convention)."""

from __future__ import annotations

from pathlib import Path

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

HOOK = "async def build_prompt(ctx):\n    return ctx['text']\n"
PROGRAM = "#!/usr/bin/env python3\nprint('validated')\n"


def _unreferenced(tmp_path: Path, script: str, copies: int, others: int = 0,
                  rel: str = "scripts/handler.py") -> list[str]:
    skills = tmp_path / "skills"
    for k in range(copies + others):
        d = skills / f"skill-{k}"
        (d / rel).parent.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: skill-{k}\ndescription: Summarises text. Use when asked.\n---\n\n# S\n")
        if k < copies:
            (d / rel).write_text(script)
    path = skills / "skill-0" / "SKILL.md"
    report = analyze(path.read_text(), path, config=Config(select=("UNREFERENCED_FILE",)), workspace_root=tmp_path)
    return [f.message for f in report.findings]


def test_a_hook_module_in_every_sibling_is_the_hosts_convention(tmp_path: Path) -> None:
    assert _unreferenced(tmp_path, HOOK, copies=3) == []


def test_a_runnable_script_in_every_sibling_is_still_reported(tmp_path: Path) -> None:
    assert len(_unreferenced(tmp_path, PROGRAM, copies=3)) == 1


def test_a_module_in_a_few_of_many_siblings_is_still_reported(tmp_path: Path) -> None:
    assert len(_unreferenced(tmp_path, HOOK, copies=3, others=5)) == 1


PROFILE = '{"rubric_version": "2026-04-10"}\n'


def test_a_data_file_in_every_sibling_is_a_tools_convention(tmp_path: Path) -> None:
    """Set 26: jscraik's `references/task-profile.json`, an evaluation tool's profile in every skill."""
    assert _unreferenced(tmp_path, PROFILE, copies=3, rel="references/task-profile.json") == []


def test_a_data_file_in_one_skill_is_still_reported(tmp_path: Path) -> None:
    assert _unreferenced(tmp_path, PROFILE, copies=1, others=3, rel="references/task-profile.json") == [
        "`references/task-profile.json` is not referenced from SKILL.md"]
