"""Baselines: today's findings, recorded by fingerprints that survive line shifts (pure; no file access).

A finding's fingerprint is a hash of its code, its file (posix path relative to the baseline file's folder),
the text of the line it starts on with whitespace normalised, and an occurrence index among findings with
the same code, file and line text (ordered by position). Messages are not part of it (they often carry
counts that change), nor line numbers (lines move when text is added above). A finding whose fingerprint
is in the baseline is "baselined": reported as a count, not as a failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

FORMAT = "skillgrade-baseline"
FORMAT_VERSION = 1
DEFAULT_NAME = ".skillgrade-baseline.json"


class BaselineError(ValueError):
    """A baseline file that cannot be used (one line for the user)."""


def normalise_line(line: str) -> str:
    """The line's text with runs of whitespace made one space, and no BOM or leading/trailing blanks."""
    return " ".join(line.replace("\ufeff", "").split())


def finding_file(skill_path: str, finding: dict) -> str:
    """The absolute-or-relative path of the file a finding is on (its SKILL.md or the bundled `file`)."""
    rel = finding.get("file")
    if not rel:
        return skill_path
    return os.path.join(os.path.dirname(skill_path), *rel.split("/"))


def relative_key(path: str, base_dir: str) -> str:
    """`path` relative to `base_dir` as a posix path (absolute paths are resolved without the disk)."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base_dir))
    return rel.replace(os.sep, "/")


def fingerprint(code: str, file_key: str, line_text: str, occurrence: int) -> str:
    raw = "\0".join((code, file_key, normalise_line(line_text), str(occurrence)))
    import hashlib  # loads OpenSSL (~4 ms): only when a baseline is written or applied

    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True, slots=True)
class Entry:
    fingerprint: str
    code: str
    file: str  # relative to the baseline's folder, posix
    line: int  # 1-based, informational (where it was when recorded)
    message: str  # informational

    def to_dict(self) -> dict:
        return {"fingerprint": self.fingerprint, "code": self.code, "file": self.file, "line": self.line,
                "message": self.message}


def fingerprint_findings(findings: Iterable[tuple[str, dict]], base_dir: str,
                         lines_of: Callable[[str], list[str] | None]) -> list[Entry]:
    """One entry per (skill path, finding dict) pair, in the order given.

    `lines_of(path)` gives the lines of a file (None when it cannot be read: the line text is then empty,
    so such findings are told apart by code, file and occurrence only)."""
    items = list(findings)
    keyed: list[tuple[str, str, str, int, int, dict]] = []
    for skill_path, f in items:
        path = finding_file(skill_path, f)
        start = f["range"]["start"]
        lines = lines_of(path)
        ln = int(start["line"])
        text = lines[ln] if lines is not None and 0 <= ln < len(lines) else ""
        keyed.append((f["code"], relative_key(path, base_dir), normalise_line(text), ln,
                      int(start["character"]), f))
    order = sorted(range(len(keyed)), key=lambda i: (keyed[i][0], keyed[i][1], keyed[i][2], keyed[i][3],
                                                     keyed[i][4], keyed[i][5]["message"]))
    seen: dict[tuple[str, str, str], int] = {}
    out: list[Entry | None] = [None] * len(keyed)
    for i in order:
        code, file_key, text, ln, _col, f = keyed[i]
        k = (code, file_key, text)
        n = seen.get(k, 0)
        seen[k] = n + 1
        out[i] = Entry(fingerprint(code, file_key, text, n), code, file_key, ln + 1, f["message"])
    return [e for e in out if e is not None]


def to_json(entries: Iterable[Entry]) -> str:
    """The baseline file's text: entries sorted by file, line and code, so it diffs well in review."""
    rows = sorted(entries, key=lambda e: (e.file, e.line, e.code, e.fingerprint))
    doc = {"format": FORMAT, "version": FORMAT_VERSION, "findings": [e.to_dict() for e in rows]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def parse(text: str, source: str = "baseline") -> dict[str, int]:
    """The fingerprints of a baseline file's text, each with how many times it is recorded."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{source}: not a baseline file (invalid JSON: {exc.msg}, line {exc.lineno})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BaselineError(f"{source}: not a skillgrade baseline file (write one with `skillgrade baseline write`)")
    if doc.get("version") != FORMAT_VERSION:
        raise BaselineError(f"{source}: baseline version {doc.get('version')!r} is not supported "
                            f"(this skillgrade writes version {FORMAT_VERSION}); write it again")
    rows = doc.get("findings")
    if not isinstance(rows, list):
        raise BaselineError(f"{source}: `findings` must be a list")
    counts: dict[str, int] = {}
    for row in rows:
        fp = row.get("fingerprint") if isinstance(row, dict) else None
        if not isinstance(fp, str) or not fp:
            raise BaselineError(f"{source}: every finding needs a `fingerprint` string")
        counts[fp] = counts.get(fp, 0) + 1
    return counts


def split(entries: list[Entry], known: dict[str, int]) -> list[bool]:
    """For each entry (same order), whether it is baselined. A fingerprint recorded n times covers n
    findings."""
    left = dict(known)
    out = []
    for e in entries:
        n = left.get(e.fingerprint, 0)
        if n > 0:
            left[e.fingerprint] = n - 1
            out.append(True)
        else:
            out.append(False)
    return out
