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
    if "monte_carlo" in c.layers_run:
        lines += _three_layer_table(c)
        lines += _mc_and_elo_lines(report)
    elif "judge" in c.layers_run:
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


def _three_layer_table(c) -> list[str]:
    """Static, judge and Monte Carlo columns with the blend (the seed's table, renormalised over the layers
    that measured each dimension)."""
    from skillgrade.analyzers.scoring import grade

    def cell(v: float | None) -> str:
        return "—" if v is None else f"{_pct(v)} {grade(v)}"

    out = ["| Dimension | Weight | Static | Judge | Monte Carlo | Blend | Grade |",
           "|---|---:|---:|---:|---:|---:|:---:|"]
    for name, d in c.dimensions.items():
        st = d.layers.get("static")
        out.append(f"| {_DIM_TITLES.get(name, name)} | {d.weight:.2f} | {_pct(st) if st is not None else '—'} "
                   f"| {cell(d.layers.get('judge'))} | {cell(d.layers.get('monte_carlo'))} | {_pct(d.score)} "
                   f"| {d.grade or '—'} |")
    return out


def _mc_and_elo_lines(report: Report) -> list[str]:
    """One line each for the Monte Carlo run and the Elo rating (or why it is unmeasured)."""
    out: list[str] = []
    layers = {la.get("name"): la for la in report.extra_layers}
    mc = layers.get("monte_carlo")
    if mc:
        stats = mc.get("statistics") or {}
        bits = [f"{mc.get('n_used')} simulation(s) ({mc.get('stop') or mc.get('stop_reason')})"]
        for key, title in (("activation_rate", "activation"), ("false_activation_rate", "false activation")):
            v = stats.get(key)
            if isinstance(v, dict) and v.get("rate") is not None:
                ci = f" [{100 * v['lower']:.0f}–{100 * v['upper']:.0f}%]" if v.get("lower") is not None else ""
                bits.append(f"{title} {100 * v['rate']:.0f}%{ci} (n={v.get('n')})")
        out += ["", "**Monte Carlo:** " + ", ".join(bits)]
    elo = layers.get("elo")
    if elo is not None:
        if elo.get("rating") is not None:
            ci = (f" (95% CI {elo['ci_low']:.0f}–{elo['ci_high']:.0f})" if elo.get("ci_low") is not None
                  and elo.get("ci_high") is not None else "")
            pct = f", percentile {elo['percentile']:.0f}" if elo.get("percentile") is not None else ""
            closest = (elo.get("closest") or {}).get("name")
            near = f", closest: {closest}" if closest else ""
            bias = elo.get("position_bias_pairs") or 0
            flag = f", position bias in {bias} pair(s)" if bias else ""
            out += ["", f"**Elo:** {elo['rating']:.0f}{ci} over {elo.get('n_pairs')} pair(s){pct}{near}{flag}"]
        else:
            out += ["", f"**Elo:** unmeasured — {elo.get('unmeasured') or elo.get('reason')}"]
    return out


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
