"""Render report dicts as text, JSON, SARIF 2.1.0 or markdown (strings only; the CLI prints them)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .scoring import DIMENSIONS

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2, "hint": 3}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
_SHORT = {
    "triggering_accuracy": "trig",
    "orchestration_fitness": "orch",
    "output_quality": "outq",
    "scope_calibration": "scope",
    "progressive_disclosure": "disc",
    "token_efficiency": "tok",
    "robustness": "rob",
    "structural_completeness": "struct",
    "code_template_quality": "code",
    "ecosystem_coherence": "eco",
}
VERSION = "0.1.0"


def dumps(obj: object, indent: int | None = 2) -> str:
    """json.dumps(obj, indent=indent), byte for byte, about twice as fast for an indent.

    The standard library writes indented JSON with its pure-Python encoder (the C one takes no indent): 1.6 s for a
    report of 60,000 findings. This writer walks the plain dicts, lists and scalars a report holds, escaping strings
    with the C routine json itself uses; anything else (a tuple, a non-string key, an unusual number) goes back to
    json.dumps whole, so the output never differs."""
    if indent is None:
        return json.dumps(obj)
    out: list[str] = []
    try:
        _indented(obj, out, "\n", " " * indent)
    except _Fallback:
        return json.dumps(obj, indent=indent)
    return "".join(out)


class _Fallback(Exception):
    pass


def _indented(o: object, out: list[str], nl: str, step: str) -> None:
    t = type(o)
    if t is str:
        out.append(_escape(o))  # type: ignore[arg-type]
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))  # type: ignore[arg-type]
    elif t is float and o == o and o not in (_INF, -_INF):
        out.append(float.__repr__(o))  # type: ignore[arg-type]
    elif t is dict:
        if not o:
            out.append("{}")
            return
        inner = nl + step
        sep = "{" + inner
        for k, v in o.items():  # type: ignore[attr-defined]
            if type(k) is not str:
                raise _Fallback
            out.append(sep + _escape(k) + ": ")
            sep = "," + inner
            _indented(v, out, inner, step)
        out.append(nl + "}")
    elif t is list:
        if not o:
            out.append("[]")
            return
        inner = nl + step
        sep = "[" + inner
        for v in o:  # type: ignore[attr-defined]
            out.append(sep)
            sep = "," + inner
            _indented(v, out, inner, step)
        out.append(nl + "]")
    else:
        raise _Fallback


_escape = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]
_INF = float("inf")


class Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def _c(self, code: str, s: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if self.color else s

    def bold(self, s: str) -> str:
        return self._c("1", s)

    def red(self, s: str) -> str:
        return self._c("31", s)

    def yellow(self, s: str) -> str:
        return self._c("33", s)

    def cyan(self, s: str) -> str:
        return self._c("36", s)

    def dim(self, s: str) -> str:
        return self._c("2", s)

    def sev(self, severity: str, s: str) -> str:
        return {"error": self.red, "warning": self.yellow}.get(severity, self.cyan)(s)


_CWD: list[str] = []


def display_path(path: str | None, cwd: str | None = None) -> str:
    """The path as the user gave it; absolute paths under the working directory become relative."""
    if not path:
        return "<stdin>"
    if not os.path.isabs(path):
        return path
    if cwd is None:
        if not _CWD:
            _CWD.append(os.getcwd().rstrip(os.sep) + os.sep)
        base = _CWD[0]
    else:
        base = cwd.rstrip(os.sep) + os.sep
    return path[len(base):] if path.startswith(base) else path


def finding_path(skill_path: str | None, finding: dict) -> str:
    """Where a finding is, as displayed: the SKILL.md, or the bundled file it names (`file`)."""
    rel = finding.get("file")
    if not rel:
        return display_path(skill_path)
    if not skill_path:
        return rel
    folder = os.path.dirname(skill_path)
    return display_path(os.path.join(folder, *rel.split("/")) if folder else rel)


def score_line(report: dict, style: Style) -> str:
    comp = report["composite"]
    score = comp["score"]
    s = "unmeasured" if score is None else f"{score:.1f}"
    badge = comp.get("badge") or "no badge"
    grades = []
    for d in DIMENSIONS:
        g = comp["dimensions"][d]["grade"] or "-"
        grades.append(f"{_SHORT[d]} {g}")
    n_ap = comp.get("anti_pattern_count", 0)
    ap = f" · {n_ap} anti-pattern{'s' if n_ap != 1 else ''}" if n_ap else ""
    return (f"{style.bold(display_path(report['skill']['path']))}: {style.bold(s)} {badge} "
            f"({comp['confidence']}){ap} | " + " ".join(grades))


def to_text(reports: list[dict], style: Style, errors: list[str] | None = None) -> str:
    out: list[str] = []
    total = 0
    for r in reports:
        skill_path = r["skill"]["path"]
        path = display_path(skill_path)
        for f in r["findings"]:
            st = f["range"]["start"]
            fix = f.get("fix")
            mark = " [*]" if fix and fix.get("applicability") == "safe" else ""
            out.append(f"{finding_path(skill_path, f) if f.get('file') else path}:{st['line'] + 1}:{st['character'] + 1}: "
                       f"{style.sev(f['severity'], f['code'])}{mark} {f['message']}")
            total += 1
    if reports:
        if out:
            out.append("")
        for r in reports:
            out.append(score_line(r, style))
    if len(reports) > 1:
        scores = [r["composite"]["score"] for r in reports if r["composite"]["score"] is not None]
        mean = sum(scores) / len(scores) if scores else 0.0
        out.append(style.dim(f"{len(reports)} skills, {total} findings, mean score {mean:.1f}"))
    for e in errors or []:
        out.append(f"error: {e}")
    return "\n".join(out) + ("\n" if out else "")


def to_json(reports: list[dict], errors: list[str] | None = None, *, single: bool = True,
            indent: int | None = 2, texts: list[str] | None = None) -> str:
    """One skill: the report object itself (the methodology's shape); several: {skills, summary}.

    indent=None writes compact JSON (the C encoder: ~10x faster on big trees); `texts`, each report
    already in compact JSON (batch.score_paths keeps them in its cache), are spliced in as they are.
    """
    if single and len(reports) == 1 and not errors:
        return dumps(reports[0], indent=indent) + "\n"
    scores = [r["composite"]["score"] for r in reports if r["composite"]["score"] is not None]
    summary = {
        "skills": len(reports),
        "findings": sum(len(r["findings"]) for r in reports),
        "mean_score": round(sum(scores) / len(scores), 2) if scores else None,
        "badges": _count(r["composite"]["badge"] or "none" for r in reports),
        "codes": _count(f["code"] for r in reports for f in r["findings"]),
    }
    if any("baselined" in r for r in reports):  # score --baseline: findings hidden by the baseline
        summary["baselined"] = sum(r.get("baselined", 0) for r in reports)
    doc = {"version": VERSION, "skills": reports, "summary": summary, "errors": errors or []}
    if indent is None:
        compact = (",", ":")
        if texts is not None and len(texts) == len(reports):
            doc["skills"] = []
            head, tail = json.dumps(doc, separators=compact).split('"skills":[]', 1)
            return f'{head}"skills":[{",".join(texts)}]{tail}\n'
        return json.dumps(doc, separators=compact) + "\n"
    return dumps(doc, indent=indent) + "\n"


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return dict(sorted(out.items()))


def to_sarif(reports: list[dict], rules: list[dict], docs_base: str) -> str:
    """SARIF 2.1.0 with one run, every rule described, one result per finding."""
    rule_index = {r["code"]: i for i, r in enumerate(rules)}
    results = []
    for rep in reports:
        path = rep["skill"]["path"] or "SKILL.md"
        skill_uri = Path(display_path(path)).as_posix()
        for f in rep["findings"]:
            uri = Path(finding_path(path, f)).as_posix() if f.get("file") else skill_uri
            st, en = f["range"]["start"], f["range"]["end"]
            region = {"startLine": st["line"] + 1, "startColumn": st["character"] + 1,
                      "endLine": en["line"] + 1, "endColumn": max(en["character"], st["character"]) + 1}
            res = {
                "ruleId": f["code"],
                "level": _SARIF_LEVEL.get(f["severity"], "note"),
                "message": {"text": f["message"]},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}],
                "properties": {"antiPattern": f["anti_pattern"]},
            }
            if f["code"] in rule_index:
                res["ruleIndex"] = rule_index[f["code"]]
            results.append(res)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillgrade",
                "version": VERSION,
                "informationUri": "https://github.com/skillgrade/skillgrade",
                "rules": [{
                    "id": r["code"],
                    "name": r["code"],
                    "shortDescription": {"text": r["summary"]},
                    "fullDescription": {"text": r["summary"]},
                    "help": {"text": r.get("help", r["summary"]), "markdown": r.get("doc", r["summary"])},
                    "helpUri": f"{docs_base}{r['code']}.md",
                    "defaultConfiguration": {"level": _SARIF_LEVEL.get(r["severity"], "note")},
                    "properties": {"antiPattern": r["anti_pattern"], "family": r["family"]},
                } for r in rules],
            }},
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }
    if any("baselined" in r for r in reports):  # score --baseline: how many results were left out
        sarif["runs"][0]["properties"] = {"baselined": sum(r.get("baselined", 0) for r in reports)}
    return dumps(sarif) + "\n"


def to_markdown(reports: list[dict]) -> str:
    out = ["# skillgrade report", ""]
    for r in reports:
        comp = r["composite"]
        score = "unmeasured" if comp["score"] is None else f"{comp['score']:.1f}/100"
        out += [f"## {r['skill']['name'] or display_path(r['skill']['path'])}", "",
                f"`{display_path(r['skill']['path'])}`", "",
                "| Score | Badge | Confidence | Anti-pattern penalty |", "|---|---|---|---|",
                f"| {score} | {comp['badge'] or '—'} | {comp['confidence']} | "
                f"{round((1 - comp['anti_pattern_penalty']) * 100)}% |", "",
                "| Dimension | Weight | Score | Grade | Measured by |", "|---|---|---|---|---|"]
        for name in DIMENSIONS:
            d = comp["dimensions"][name]
            sc = "unmeasured" if d["score"] is None else f"{d['score']:.2f}"
            out.append(f"| {name} | {d['weight']:.2f} | {sc} | {d['grade'] or '—'} | "
                       f"{', '.join(d['measured_by']) or '—'} |")
        out.append("")
        if r["findings"]:
            out += ["| Line | Code | Severity | Message |", "|---|---|---|---|"]
            for f in r["findings"]:
                msg = f["message"].replace("|", "\\|")
                line = f["range"]["start"]["line"] + 1
                where = f"`{f['file']}`:{line}" if f.get("file") else str(line)  # a bundled file: named
                out.append(f"| {where} | `{f['code']}` | {f['severity']} | {msg} |")
        else:
            out.append("No findings.")
        out.append("")
    return "\n".join(out)


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def to_github(reports: list[dict]) -> str:
    """GitHub Actions workflow commands: one annotation per finding (shown on the PR's diff), then
    the plain summary line of each skill for the log."""
    out = []
    for r in reports:
        skill_path = r["skill"]["path"]
        path = _gh_escape(display_path(skill_path), prop=True)
        for f in r["findings"]:
            a, b = f["range"]["start"], f["range"]["end"]
            file = _gh_escape(finding_path(skill_path, f), prop=True) if f.get("file") else path
            where = f"file={file},line={a['line'] + 1},col={a['character'] + 1}"
            if b["line"] == a["line"]:
                where += f",endColumn={max(b['character'], a['character'] + 1)}"
            else:
                where += f",endLine={b['line'] + 1}"
            title = _gh_escape(f"skillgrade {f['code']}", prop=True)
            out.append(f"::{_GITHUB_LEVEL.get(f['severity'], 'notice')} {where},title={title}::"
                       f"{_gh_escape(f['message'])}")
    out += [score_line(r, Style(False)) for r in reports]
    return "\n".join(out) + ("\n" if out else "")


_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info", "hint": "info"}


def to_gitlab(reports: list[dict], fingerprints: list[str]) -> str:
    """GitLab Code Quality (the Code Climate subset GitLab reads): a JSON array of issues with
    description, check_name, fingerprint (one per finding, in report order: stable across line shifts),
    severity and location.path (relative to the working directory: the project folder in a CI job) with
    lines.begin (1-based)."""
    issues = []
    k = 0
    for r in reports:
        skill_path = r["skill"]["path"]
        path = display_path(skill_path)
        for f in r["findings"]:
            where = finding_path(skill_path, f) if f.get("file") else path
            issues.append({
                "type": "issue",
                "check_name": f["code"],
                "description": f"{f['code']}: {f['message']}",
                "severity": _GITLAB_SEVERITY.get(f["severity"], "info"),
                "fingerprint": fingerprints[k],
                "location": {"path": Path(where).as_posix(),
                             "lines": {"begin": f["range"]["start"]["line"] + 1}},
            })
            k += 1
    return json.dumps(issues, indent=2) + "\n"


def compare_text(a: dict, b: dict, style: Style) -> str:
    la, lb = display_path(a["skill"]["path"]), display_path(b["skill"]["path"])
    rows = [("dimension", "A", "B", "winner")]

    def fmt(x):
        return "unmeasured" if x is None else f"{x:.2f}"

    def win(x, y, ndigits=2):
        if x is None or y is None:
            return "n/a"
        rx, ry = round(x, ndigits), round(y, ndigits)
        return "A" if rx > ry else "B" if ry > rx else "tie"

    sa, sb = a["composite"]["score"], b["composite"]["score"]
    rows.append(("composite", "-" if sa is None else f"{sa:.1f}", "-" if sb is None else f"{sb:.1f}",
                 win(sa, sb, 1)))
    for d in DIMENSIONS:
        x, y = a["composite"]["dimensions"][d]["score"], b["composite"]["dimensions"][d]["score"]
        rows.append((d, fmt(x), fmt(y), win(x, y)))
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"A: {la}", f"B: {lb}", ""]
    for k, r in enumerate(rows):
        line = "  ".join(r[i].ljust(w[i]) for i in range(4)).rstrip()
        lines.append(style.bold(line) if k == 0 else line)
    return "\n".join(lines) + "\n"
