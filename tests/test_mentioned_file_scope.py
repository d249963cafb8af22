"""MISSING_MENTIONED_FILE stays silent where the missing path may well be right: a file this skill makes,
and a file another skill of the workspace holds at the same place (rev10 review of sets 6-9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.workspace import Workspace

CFG = Config(select=("MISSING_MENTIONED_FILE",))


def _skill(root: Path, rel: str, body: str, description: str = "Checks data. Use when the user asks.") -> Path:
    path = root / rel / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {path.parent.name}\ndescription: {description}\n---\n\n# T\n\n{body}\n")
    return path


def _missing(path: Path, ws: Workspace | None, root: Path) -> list[str]:
    rep = analyze(path.read_text(), path, config=CFG, workspace=ws, workspace_root=root)
    return [f.message for f in rep.findings]


def test_file_of_another_skill_in_the_workspace(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    other = _skill(tmp_path, "skills/infra/get-resources", "Run `scripts/detect_resources.py`.")
    (other.parent / "scripts").mkdir()
    (other.parent / "scripts/detect_resources.py").write_text("print(1)\n")
    mine = _skill(tmp_path, "skills/data/eda", "Or run `scripts/detect_resources.py` there. Read `references/gone.md`.")
    ws = Workspace(roots=(tmp_path,))
    for p in (other, mine):
        ws.add_text(p, p.read_text())
    assert _missing(mine, ws, tmp_path) == ["`references/gone.md` does not exist in the skill folder"]
    # without the workspace index (a file opened alone) nothing says another skill has it
    assert len(_missing(mine, None, tmp_path)) == 2


@pytest.mark.parametrize(("folder", "silent"), [("_skills", True), (".skills", True), ("skills", True),
                                               ("_tools", False)])
def test_file_of_a_sibling_skill_in_an_underscored_skills_folder(tmp_path: Path, folder: str, silent: bool) -> None:
    """agents_inc keeps its skills in `_skills/`: workerbee names `scripts/watch.sh` of its sibling codex-bridge."""
    (tmp_path / ".git").mkdir()
    other = _skill(tmp_path, f"pkg/{folder}/codex-bridge", "Run `scripts/watch.sh`.")
    (other.parent / "scripts").mkdir()
    (other.parent / "scripts/watch.sh").write_text("echo 1\n")
    mine = _skill(tmp_path, f"pkg/{folder}/workerbee", "Tail the bridge with `scripts/watch.sh`.")
    ws = Workspace(roots=(tmp_path,))
    for p in (other, mine):
        ws.add_text(p, p.read_text())
    assert _missing(mine, ws, tmp_path) == ([] if silent else ["`scripts/watch.sh` does not exist in the skill folder"])


def test_files_the_skill_creates(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    body = ("## Output\n\n- Updated `references/summary.md`\n\nCreate or update `references/notes.md` as you go.\n\n"
            "Writes `assets/report.html`. Output: `assets/chart.png`\n\nRead `references/guide.md` first.\n\n"
            "Before writing code, read `references/style.md`.")
    mine = _skill(tmp_path, "skills/conv", body, "Create or update references/project-conventions.md. Use when asked.")
    (mine.parent / "references").mkdir()
    got = _missing(mine, None, tmp_path)
    assert got == ["`references/guide.md` does not exist in the skill folder",
                   "`references/style.md` does not exist in the skill folder"]
    mine.write_text(mine.read_text() + "\nSee `references/project-conventions.md`.\n")
    assert len(_missing(mine, None, tmp_path)) == 2  # the description names it: the file this skill makes
