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
    _skill(tmp_path / ".hidden" / "x")
    _skill(tmp_path / "node_modules" / "pkg")
    _skill(tmp_path / "a" / ".git" / "y")
    venv = tmp_path / "env"
    _skill(venv / "lib" / "z")
    (venv / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "c" / "SKILL.md").mkdir(parents=True)  # a folder named SKILL.md is not a skill
    os.symlink(tmp_path / "b", tmp_path / "link-to-b")  # symlinked folders are not followed
    assert list(find_skill_files([tmp_path])) == [a, nested, b]


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
