"""Text and markdown renderings of a comprehension result (the dict of `ComprehensionResult.to_dict()`)."""

from __future__ import annotations

from typing import Any

from .evalfile import DIMENSION_TITLES, DIMENSIONS


def _counts(d: dict[str, Any]) -> str:
    if not d["cases"]:
        return "—"
    s = f"{d['passed']}/{d['cases']}"
    return s + (f" ({d['unmeasured']} unmeasured)" if d["unmeasured"] else "")


def _delta(result: dict[str, Any], dim: str) -> str:
    delta = (result.get("baseline_delta") or {}).get(dim)
    if not delta:
        return "—"
    if not delta["n"]:
        return "n/a"
    return f"{delta['baseline_passed']}/{delta['n']} → {delta['with_skill_passed']}/{delta['n']} ({delta['delta']:+d})"


def headline(result: dict[str, Any]) -> str:
    v = result["verdict"]
    return f"comprehension {v['verdict']} ({v['dimensions_passed']}/{v['dimensions']} dimensions pass)"


def render_text(result: dict[str, Any]) -> str:
    ws = result["with_skill"]
    baseline = result.get("baseline") is not None
    out = [f"{result['skill']}: {headline(result)}",
           f"  evals {result.get('eval_file') or '(given)'}; agent {result['models']['agent']}, "
           f"grader {result['models']['grader']}"]
    head = f"  {'':3} {'dimension':<27} {'verdict':<12} {'passed':<8}"
    out.append(head + ("  baseline → with skill" if baseline else ""))
    for dim in DIMENSIONS:
        d = ws["dimensions"][dim]
        line = f"  {dim:<3} {DIMENSION_TITLES[dim]:<27} {d['verdict']:<12} {_counts(d):<8}"
        out.append(line + (f"  {_delta(result, dim)}" if baseline else ""))
    for dim in DIMENSIONS:
        for r in ws["dimensions"][dim]["reasons"]:
            out.append(f"  {dim} {r}")
    for w in result.get("warnings") or []:
        out.append(f"  warning: {w}")
    for s in result.get("skipped") or []:
        out.append(f"  not graded: {s}")
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(result: dict[str, Any]) -> str:
    ws = result["with_skill"]
    baseline = result.get("baseline") is not None
    out = [f"# Comprehension: {result['skill']}", "",
           f"**Verdict: {result['verdict']['verdict']}** — {result['verdict']['dimensions_passed']} of 9 "
           "dimensions pass (strict: all nine must pass; the others are listed below).", "",
           f"- eval file: `{result.get('eval_file') or '(given)'}`",
           f"- agent: `{result['models']['agent']}`, grader: `{result['models']['grader']}`",
           f"- prompt version: `{result['prompt_version']}`", ""]
    cols = "| Dim | Dimension | Verdict | Cases passed |" + (" Baseline → with skill |" if baseline else "")
    out += [cols, "|---|---|---|---|" + ("---|" if baseline else "")]
    for dim in DIMENSIONS:
        d = ws["dimensions"][dim]
        row = f"| {dim} | {DIMENSION_TITLES[dim]} | {d['verdict']} | {_counts(d)} |"
        out.append(row + (f" {_delta(result, dim)} |" if baseline else ""))
    out.append("")
    out += ["## Cases", ""]
    for c in ws["cases"]:
        out.append(f"### Case {c['case_id']} ({c['dimension']}{', ' + c['transfer'] + ' transfer' if c['transfer'] else ''}): "
                   f"{c['status']}")
        if c.get("reason"):
            out.append(f"\n{_md(c['reason'])}")
        if c["behaviors"]:
            out += ["", "| Behavior | Kind | Verdict | Evidence | Rationale |", "|---|---|---|---|---|"]
            for b in c["behaviors"]:
                out.append(f"| `{b['id']}` | {b['kind']} | {b['verdict']} | “{_md(b['evidence_quote'])}” | "
                           f"{_md(b['rationale'])} |")
        if c.get("violations") or c.get("notes"):
            out.append("")
            for i, v in enumerate(c.get("violations") or [], 1):
                out.append(f"- grader attempt {i} rejected: {_md('; '.join(v))}")
            for n in c.get("notes") or []:
                out.append(f"- note: {_md(n)}")
        out.append("")
    if result.get("warnings"):
        out += ["## Warnings", ""] + [f"- {_md(w)}" for w in result["warnings"]] + [""]
    if result.get("skipped"):
        out += ["## Not graded", ""] + [f"- {_md(s)}" for s in result["skipped"]] + [""]
    return "\n".join(out)
