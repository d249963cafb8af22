"""The workspace index: every skill's name and location, for cross-skill rules."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .findings import Pos, Range

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".tox", "site-packages", ".mypy_cache",
             ".ruff_cache", "dist", "build", ".idea", ".vscode"}
_NAME_LINE = re.compile(r"^name:[ \t]*['\"]?([^'\"\r\n#]*?)['\"]?[ \t]*(?:#.*)?$", re.M)


@dataclass(frozen=True, slots=True)
class SkillEntry:
    path: Path  # the SKILL.md
    name: str
    name_range: Range


@dataclass(slots=True)
class Workspace:
    roots: tuple[Path, ...] = ()
    entries: dict[Path, SkillEntry] = field(default_factory=dict)

    def add(self, path: Path, name: str | None, name_range: Range | None = None) -> None:
        if name:
            self.entries[path] = SkillEntry(path, name, name_range or Range(Pos(0, 0), Pos(0, 0)))
        else:
            self.entries.pop(path, None)

    def remove(self, path: Path) -> None:
        self.entries.pop(path, None)

    def skills_named(self, name: str) -> list[SkillEntry]:
        return sorted((e for e in self.entries.values() if e.name == name), key=lambda e: str(e.path))

    def add_text(self, path: Path, text: str) -> None:
        """Index a SKILL.md from its text without a full parse (the `name:` line of the frontmatter)."""
        name, rng = quick_name(text)
        self.add(path, name, rng)


def quick_name(text: str) -> tuple[str | None, Range | None]:
    if not text.startswith(("---", "\ufeff---")):
        return None, None
    end = text.find("\n---", 3)
    head = text[: end if end > 0 else min(len(text), 4096)]
    m = _NAME_LINE.search(head)
    if not m or not m.group(1).strip():
        return None, None
    line = head.count("\n", 0, m.start(1))
    line_start = head.rfind("\n", 0, m.start(1)) + 1
    col = m.start(1) - line_start
    return m.group(1).strip(), Range(Pos(line, col), Pos(line, col + len(m.group(1))))


def find_skill_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every SKILL.md at or under the given paths, skipping VCS, dependency and virtualenv folders."""
    seen: set[str] = set()
    for p in paths:
        if p.is_file():
            rp = os.path.realpath(p)
            if rp not in seen:
                seen.add(rp)
                yield p
            continue
        for dirpath, dirnames, filenames in os.walk(p, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
                                 and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg")))
            if "SKILL.md" in filenames:
                f = Path(dirpath) / "SKILL.md"
                rp = os.path.abspath(f)
                if rp not in seen:
                    seen.add(rp)
                    yield f
