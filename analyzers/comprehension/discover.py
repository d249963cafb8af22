"""Where a skill's eval files are: next to the skill, or under an `_evals/` (or `evals/`) folder above it.

Looked at, in order (each only when it exists and its content is an eval file for this skill — a
`skill_name` equal to the skill's name, or no `skill_name` for files inside the skill's own folder):

1. `<skill>/evals.json`, `<skill>/evals/*.json`, `<skill>/*.json`;
2. `<ancestor>/_evals/<name>.json` and `<ancestor>/evals/<name>.json` for the skill's folder's parent and
   up to MAX_UP folders above it (the reference repository keeps them in `examples/evals/`).

`find_eval_files(skill_dir, name)` -> (files found, the places looked), so "none found" can say where.
"""

from __future__ import annotations

import json
from pathlib import Path

from .evalfile import claims

MAX_UP = 4
MAX_BYTES = 8_000_000


def _read(p: Path) -> str | None:
    try:
        if not p.is_file() or p.stat().st_size > MAX_BYTES:
            return None
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _skill_name_of(text: str) -> str | None:
    try:
        v = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return v.get("skill_name") if isinstance(v, dict) and isinstance(v.get("skill_name"), str) else None


_OWNERS: dict[str, tuple[tuple[int, int], tuple[str | None] | None]] = {}  # path -> ((mtime, size), owner)


def _eval_owner(p: Path) -> tuple[str | None] | None:
    """(skill_name or None,) when `p` is an eval file, else None; remembered per (mtime, size), since the
    editor asks on every hover and code-action request."""
    try:
        st = p.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _OWNERS.get(str(p))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    text = _read(p)
    owner = (_skill_name_of(text),) if text is not None and claims(text) else None
    if len(_OWNERS) > 512:
        _OWNERS.clear()
    _OWNERS[str(p)] = (stamp, owner)
    return owner


def find_eval_files(skill_dir: Path, name: str) -> tuple[list[Path], list[str]]:
    found: list[Path] = []
    looked: list[str] = []

    def consider(p: Path, own_folder: bool) -> None:
        if p in found:
            return
        got = _eval_owner(p)
        if got is None:
            return
        owner = got[0]
        if owner == name or (own_folder and owner is None):
            found.append(p)

    looked.append(str(skill_dir / "evals.json"))
    consider(skill_dir / "evals.json", True)
    looked.append(str(skill_dir / "evals" / "*.json"))
    if (skill_dir / "evals").is_dir():
        for p in sorted((skill_dir / "evals").glob("*.json")):
            consider(p, True)
    looked.append(str(skill_dir / "*.json"))
    for p in sorted(skill_dir.glob("*.json")):
        consider(p, True)
    up = skill_dir.resolve().parent
    for _ in range(MAX_UP + 1):
        for folder in ("_evals", "evals"):
            p = up / folder / f"{name}.json"
            looked.append(str(p))
            consider(p, False)
        if up.parent == up:
            break
        up = up.parent
    return found, looked


def find_skill_for(eval_path: Path, skill_name: str | None) -> Path | None:
    """The SKILL.md an eval file belongs to: the folder it sits in (or its parent, for `<skill>/evals/`),
    else `<root>/<name>/SKILL.md`, `<root>/skills/<name>/SKILL.md` for the folder holding `_evals/` or `evals/`
    (`<root>/examples/...` in the reference layout is covered by the first two ancestors)."""
    here = eval_path.parent
    for d in (here, here.parent):
        if (d / "SKILL.md").is_file():
            return d / "SKILL.md"
    if not skill_name or "/" in skill_name or "\\" in skill_name or skill_name in (".", ".."):
        return None
    root = here.parent
    for _ in range(MAX_UP + 1):
        for cand in (root / skill_name / "SKILL.md", root / "skills" / skill_name / "SKILL.md"):
            if cand.is_file():
                return cand
        if root.parent == root:
            break
        root = root.parent
    return None


def validate_eval_document(path: Path | None, text: str) -> list | None:
    """The editor's validator (server/lsp/side_docs.py): None unless `text` is an eval file (a JSON object with
    `evals`); else its findings, with the R4 far-transfer lint when the skill's SKILL.md is found on disk."""
    from ..parse import parse
    from .evalfile import validate_text

    if path is not None and path.suffix.lower() != ".json":
        return None
    if not claims(text):
        return None
    body = None
    if path is not None:
        skill = find_skill_for(path, _skill_name_of(text))
        if skill is not None and (skill_text := _read(skill)) is not None:
            body = parse(skill_text, skill).body_text
    return validate_text(text, skill_body=body)[1]
