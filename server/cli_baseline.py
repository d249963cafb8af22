"""`skillgrade baseline write [PATHS] [--output FILE]`, and `score --baseline FILE` (apply_baseline).

The baseline records today's findings by fingerprint (analyzers/baseline.py) so that a team adopting
skillgrade fails only on findings added after it; `score` reports how many findings it hid.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from skillgrade.analyzers.baseline import (
    DEFAULT_NAME,
    BaselineError,
    fingerprint_findings,
    parse,
    split,
    to_json,
)


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    b = sub.add_parser("baseline", help="record today's findings so that `score --baseline` fails only on new ones")
    bsub = b.add_subparsers(dest="baseline_action", metavar="write")
    w = bsub.add_parser("write", help="write the baseline file of the findings under PATHS")
    w.add_argument("paths", nargs="*", type=Path, default=None, help="skills or trees (default: .)")
    w.add_argument("--output", "-o", type=Path, default=None, metavar="FILE",
                   help=f"the baseline file (default: config `baseline`, else ./{DEFAULT_NAME})")
    w.add_argument("--config", type=Path, default=None, help="a .skillgrade.toml or pyproject.toml")
    w.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    b.set_defaults(verb_module="cli_baseline", select=None, ignore=None)


def lines_of_file(path: str) -> list[str] | None:
    """A file's lines as the analyzers number them (LSP line breaks); None when it cannot be read."""
    from skillgrade.analyzers.document import LineIndex

    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    return LineIndex(text.removeprefix("\ufeff")).lines


def _cached_lines():
    cache: dict[str, list[str] | None] = {}

    def get(path: str) -> list[str] | None:
        key = os.path.abspath(path)
        if key not in cache:
            cache[key] = lines_of_file(key)
        return cache[key]

    return get


def configured_baseline(config) -> Path | None:  # noqa: ANN001 - analyzers.config.Config
    value = getattr(config, "baseline", None)
    return Path(value) if value else None


def cmd(args: argparse.Namespace) -> int:
    from skillgrade.server.cli import UsageError, _config_loader

    if args.baseline_action != "write":
        raise UsageError("usage: skillgrade baseline write [PATHS] [--output FILE]")
    paths = list(args.paths or [Path(".")])
    for p in paths:
        if not p.exists():
            raise UsageError(f"{p}: no such file or directory")
    config_for = _config_loader(args)
    from skillgrade.analyzers.batch import score_paths

    cache_dir = None if args.no_cache else Path(".skillgrade_cache")
    reports, errors = score_paths(skill_paths(paths), config_for, cache_dir=cache_dir)
    if not reports and errors:
        raise UsageError(errors[0])
    out = args.output or configured_baseline(config_for(Path.cwd() / "SKILL.md")) or Path(DEFAULT_NAME)
    base_dir = str(out.resolve().parent)
    entries = fingerprint_findings(((r["skill"]["path"], f) for r in reports for f in r["findings"]),
                                   base_dir, _cached_lines())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(to_json(entries), "utf-8")
    for e in errors:
        print(f"skillgrade: {e}", file=sys.stderr)
    n = len(entries)
    print(f"skillgrade: wrote {n} finding{'s' if n != 1 else ''} of {len(reports)} "
          f"skill{'s' if len(reports) != 1 else ''} to {out}")
    return 0


def skill_paths(paths: list[Path]) -> list[Path]:
    """The paths with bundled files replaced by their skill's SKILL.md (see cli.resolve_paths)."""
    from skillgrade.server.cli import resolve_paths

    return resolve_paths(paths, outside_ok=False)


def load_baseline(path: Path) -> dict[str, int]:
    from skillgrade.server.cli import UsageError

    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: baseline file not found (write it with `skillgrade baseline write "
                         f"--output {path}`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the baseline: {exc}") from None
    try:
        return parse(text, str(path))
    except BaselineError as exc:
        raise UsageError(str(exc)) from None


def apply_baseline(reports: list[dict], args: argparse.Namespace, config_for) -> int | None:  # noqa: ANN001
    """Drop the baselined findings from the reports (in place; each report gets `baselined`: how many).

    The baseline is --baseline FILE, else each skill's config `baseline`; --no-baseline turns it off.
    Returns the number hidden, or None when no baseline applies."""
    if getattr(args, "no_baseline", False):
        return None
    given: Path | None = getattr(args, "baseline", None)
    groups: dict[Path, list[dict]] = {}
    for r in reports:
        where = given
        if where is None and r["skill"]["path"]:
            where = configured_baseline(config_for(Path(r["skill"]["path"])))
        if where is not None:
            groups.setdefault(where, []).append(r)
    if not groups:
        return None
    lines = _cached_lines()
    hidden = 0
    for where, group in groups.items():
        known = load_baseline(where)
        pairs = [(r["skill"]["path"], f) for r in group for f in r["findings"]]
        entries = fingerprint_findings(pairs, str(where.resolve().parent), lines)
        flags = iter(split(entries, known))
        for r in group:
            kept = []
            n = 0
            for f in r["findings"]:
                if next(flags):
                    n += 1
                else:
                    kept.append(f)
            r["findings"] = kept
            r["baselined"] = n
            hidden += n
    for r in reports:
        r.setdefault("baselined", 0)
    return hidden


def baselined_line(n: int) -> str:
    return f"{n} finding{'s' if n != 1 else ''} baselined (not reported)"


def gitlab_fingerprints(reports: list[dict]) -> list[str]:
    """A fingerprint per finding (report order) for GitLab Code Quality: the baseline's fingerprint with
    paths relative to the working directory, so GitLab matches an issue across commits that move it."""
    pairs = [(r["skill"]["path"], f) for r in reports for f in r["findings"]]
    return [e.fingerprint for e in fingerprint_findings(pairs, os.getcwd(), _cached_lines())]
