"""`score --fix --diff` (or `--diff`): print what --fix (and --unsafe-fixes) would change, write nothing.

Exit 1 when there is something to change, 0 when not (as `ruff check --diff`); the count goes to stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path


def fix_diff(paths: list[Path], config_for, unsafe: bool) -> tuple[str, int, int]:  # noqa: ANN001
    """(the unified diff of every file --fix would change or create, files changed, fixes counted)."""
    from skillgrade.analyzers.render import display_path
    from skillgrade.analyzers.textdiff import unified_diff
    from skillgrade.server.cli import _apply_fixes

    overlay: dict[str, str] = {}
    fixes = _apply_fixes(paths, config_for, unsafe, overlay)
    out: list[str] = []
    changed = 0
    for apath in sorted(overlay):
        try:
            with open(apath, "rb") as fh:
                old: str | None = fh.read().decode("utf-8")
        except FileNotFoundError:
            old = None
        except (OSError, UnicodeDecodeError):
            continue  # --fix would not touch it either
        d = unified_diff(old, overlay[apath], Path(display_path(apath)).as_posix())
        if d:
            out.append(d)
            changed += 1
    return "".join(out), changed, fixes


def print_fix_diff(paths: list[Path], config_for, unsafe: bool) -> int:  # noqa: ANN001
    diff, changed, fixes = fix_diff(paths, config_for, unsafe)
    sys.stdout.write(diff)
    if changed:
        print(f"skillgrade: would apply {fixes} fix{'es' if fixes != 1 else ''} to {changed} "
              f"file{'s' if changed != 1 else ''} (run with --fix to apply)", file=sys.stderr)
        return 1
    print("skillgrade: no fixes to apply", file=sys.stderr)
    return 0

