"""Markdown and titles shown in the editor: the grade card, rule help, field help, CodeLens titles."""

from __future__ import annotations

import time
from dataclasses import dataclass

from skillgrade.analyzers import Report, by_code
from skillgrade.analyzers.fields import FIELDS

_DIM_TITLES = {
    "triggering_accuracy": "Triggering accuracy",
    "orchestration_fitness": "Orchestration fitness",
    "output_quality": "Output quality",
    "scope_calibration": "Scope calibration",
    "progressive_disclosure": "Progressive disclosure",
    "token_efficiency": "Token efficiency",
    "robustness": "Robustness",
    "structural_completeness": "Structural completeness",
    "code_template_quality": "Code/template quality",
    "ecosystem_coherence": "Ecosystem coherence",
}


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One judge/certify attempt, kept per document version."""

    command: str  # "judge" | "certify"
    version: int
    status: str  # "unavailable" | "cancelled" | "failed" | "ok"
    started: float  # time.time()
    seconds: float
    cost_usd: float
    message: str = ""

    def to_dict(self) -> dict:
        return {"command": self.command, "version": self.version, "status": self.status,
                "started": self.started, "seconds": round(self.seconds, 3), "costUsd": self.cost_usd,
                "message": self.message}


def score_line(report: Report) -> str:
    c = report.composite
    score = "—" if c.score is None else f"{c.score:.1f}"
    return f"skillgrade {score} · {c.badge or 'No badge'} · {c.confidence}"


def _pct(v: float | None) -> str:
    return "unmeasured" if v is None else f"{100 * v:.0f}"


def runs_markdown(runs: list[RunRecord]) -> str:
    if not runs:
        return "**LLM judge / certify:** no run yet for this version (time —, cost $0.00)."
    out = []
    for r in runs[-2:]:
        when = time.strftime("%H:%M:%S", time.localtime(r.started))
        out.append(f"**Last {r.command}** ({when}, v{r.version}): {r.status}, {r.seconds:.2f} s, "
                   f"${r.cost_usd:.2f}" + (f" — {r.message}" if r.message else ""))
    return "  \n".join(out)


def grade_card(report: Report, runs: list[RunRecord], judge_note: str | None = None) -> str:
    """The hover's grade card; with a judge layer, static, judge and blended columns per dimension (the
    blend's shares from the seed's table, renormalised without Monte Carlo)."""
    c = report.composite
    lines = [f"### {score_line(report)}", ""]
    extra = []
    if c.anti_pattern_count:
        extra.append(f"{c.anti_pattern_count} anti-pattern(s), penalty ×{c.penalty:.2f}")
    extra.append("layers run: " + (", ".join(c.layers_run) or "none"))
    lines += [" · ".join(extra), ""]
    if "judge" in c.layers_run:
        from skillgrade.analyzers.scoring import grade, layer_shares

        lines += ["| Dimension | Weight | Static | Judge | Blend | Grade |", "|---|---:|---:|---:|---:|:---:|"]
        for name, d in c.dimensions.items():
            st, jd = d.layers.get("static"), d.layers.get("judge")
            shares = layer_shares(name, d.layers)
            mix = "" if len(shares) < 2 else f" ({100 * shares['static']:.0f}% static)"
            judge = "unmeasured" if jd is None else f"{_pct(jd)} {grade(jd)}"
            lines.append(f"| {_DIM_TITLES.get(name, name)} | {d.weight:.2f} | {_pct(st) if st is not None else '—'} "
                         f"| {judge} | {_pct(d.score)}{mix} | {d.grade or '—'} |")
    else:
        lines += ["| Dimension | Weight | Score | Grade | Measured by |", "|---|---:|---:|:---:|---|"]
        for name, d in c.dimensions.items():
            layers = ", ".join(sorted(d.layers)) or "none"
            lines.append(f"| {_DIM_TITLES.get(name, name)} | {d.weight:.2f} | {_pct(d.score)} | {d.grade or '—'} "
                         f"| {layers} |")
    if judge_note:
        lines += ["", judge_note]
    lines += ["", runs_markdown(runs)]
    return "\n".join(lines)


def rule_help(code: str, message: str, fix_title: str | None) -> str:
    rule = by_code(code)
    out = [f"**{code}**: {message}", ""]
    if rule is None:
        return "\n".join(out)
    out.append(rule.summary)
    why = rule.section("Why is this bad?")
    if why:
        out += ["", why]
    fix = rule.section("Fix")
    if fix_title:
        out += ["", f"**Quick fix:** {fix_title}"]
    if fix:
        out += ["", f"**Fix:** {fix}"]
    return "\n".join(out)


def field_help(key: str) -> str | None:
    spec = FIELDS.get(key)
    if spec is None:
        return None
    bits = [spec.kind]
    if spec.required:
        bits.append("required")
    if spec.limit:
        bits.append(f"at most {spec.limit} characters")
    bits.append("Agent Skills spec" if spec.source == "spec" else "Claude Code extension")
    return f"**`{key}`** ({', '.join(bits)})\n\n{spec.summary}"
