"""Hide baselined findings in the editor (setting `hideBaselined`): the findings whose fingerprint is in the
baseline file (setting `baseline`, relative to the workspace folder; else the config's `baseline`) are left
out of the diagnostics. The fingerprints use the buffer's text, so a finding stays hidden while its line is
unchanged and shows again when the line is edited (as it would in `skillgrade score --baseline`)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from skillgrade.analyzers.baseline import BaselineError, fingerprint_findings, parse, split

log = logging.getLogger("skillgrade.server")
_LOCK = threading.Lock()
_CACHE: dict[str, tuple[tuple[int, int], dict[str, int] | None]] = {}  # path -> ((mtime, size), fingerprints)


def baseline_file(settings, config, root: Path) -> Path | None:  # noqa: ANN001 - Settings, Config
    if settings.baseline:
        p = Path(os.path.expanduser(settings.baseline))
        return p if p.is_absolute() else root / p
    value = getattr(config, "baseline", None)
    return Path(value) if value else None


def load(path: Path) -> dict[str, int] | None:
    """The baseline's fingerprints (re-read when the file changes); None when it is missing or bad."""
    try:
        st = path.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    key = str(path)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    try:
        known: dict[str, int] | None = parse(path.read_text("utf-8"), str(path))
    except (OSError, UnicodeDecodeError, BaselineError) as exc:
        log.warning("baseline not used: %s", exc)
        known = None
    with _LOCK:
        _CACHE[key] = (stamp, known)
    return known


def without_baselined(findings: list, skill_path: Path, baseline: Path | None,
                      lines_of: Callable[[str], list[str] | None]) -> list:
    """`findings` (Finding objects, all on one file of the skill) minus the baselined ones."""
    if baseline is None or not findings:
        return findings
    known = load(baseline)
    if not known:
        return findings
    entries = fingerprint_findings([(str(skill_path), f.to_dict()) for f in findings],
                                   str(baseline.parent), lines_of)
    return [f for f, hidden in zip(findings, split(entries, known), strict=True) if not hidden]
