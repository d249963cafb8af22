"""The HTML report: one self-contained page (inline CSS, SVG and a small sorting script; nothing fetched) built
from the report dicts that `--format json` emits. Pure: returns a string.

For a tree: a summary, a sortable table of skills (score, badge, confidence, the ten dimension grades as
coloured cells; the table reads without the script), and per skill a <details> with a chart of the ten
dimensions (the blended bar, a marker per layer that measured it, unmeasured drawn hatched and labelled,
never as 0), the LLM layers' confidence intervals when they ran (Monte Carlo rates, Elo), the unmeasured
reasons, its findings linked to the rule pages, and the run's ledger. Every string from a skill is escaped.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from html import escape
from pathlib import Path

from .render import VERSION, display_path, finding_path
from .scoring import DIMENSIONS, GRADE_BANDS

TITLES = {
    "triggering_accuracy": "Triggering accuracy", "orchestration_fitness": "Orchestration fitness",
    "output_quality": "Output quality", "scope_calibration": "Scope calibration",
    "progressive_disclosure": "Progressive disclosure", "token_efficiency": "Token efficiency",
    "robustness": "Robustness", "structural_completeness": "Structural completeness",
    "code_template_quality": "Code/template quality", "ecosystem_coherence": "Ecosystem coherence",
}
SHORT = {
    "triggering_accuracy": "Trig", "orchestration_fitness": "Orch", "output_quality": "OutQ",
    "scope_calibration": "Scope", "progressive_disclosure": "Discl", "token_efficiency": "Tok",
    "robustness": "Rob", "structural_completeness": "Struct", "code_template_quality": "Code",
    "ecosystem_coherence": "Eco",
}
LAYER_NAMES = {"static": "static", "judge": "judge", "monte_carlo": "Monte Carlo"}
LAYER_ORDER = ("static", "judge", "monte_carlo")
OPEN_ALL_UP_TO = 3  # skills whose details start open (a single skill's report: open)
_DATA = Path(__file__).parent / "data"

# the dimension chart's geometry (px)
_LABEL_W, _BAR_X, _BAR_W, _ROW_H, _TOP = 160, 168, 300, 22, 8


def e(value: object) -> str:
    """Escape any value for HTML text and attributes (quotes included)."""
    return escape("" if value is None else str(value), quote=True)


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str]:
    return (_DATA / "report.css").read_text("utf-8"), (_DATA / "report.js").read_text("utf-8")


def script_hash(js: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(js.encode("utf-8")).digest()).decode("ascii")


def safe_base(url: str | None) -> str | None:
    """The docs base URL if links to it are safe (http(s) or a relative path); None for javascript: and the like."""
    if not url:
        return None
    head = url.split("/", 1)[0].lower()
    if ":" in head and head not in ("http:", "https:"):
        return None
    return url


def _pct(x: float | None, digits: int = 0) -> str:
    return "n/a" if x is None else f"{100 * x:.{digits}f}"


def _skill_name(r: dict) -> str:
    skill = r.get("skill") or {}
    path = skill.get("path")
    return skill.get("name") or (Path(path).parent.name if path else None) or "<stdin>"


def _layer(r: dict, name: str) -> dict | None:
    return next((la for la in r.get("layers") or [] if la.get("name") == name), None)


def _grade_class(g: str | None) -> str:
    return f"g-{g}" if g in ("A", "B", "C", "D", "F") else "g-none"


# ---------------------------------------------------------------- page

def to_html(reports: list[dict], errors: list[str] | None = None, *, ledger: dict | None = None,
            docs_base: str | None = None, title: str = "skillgrade report", open_all: bool | None = None) -> str:
    """The whole page. `reports` are report dicts (Report.to_dict(), as `--format json` writes them)."""
    css, js = _assets()
    base = safe_base(docs_base)
    opened = len(reports) <= OPEN_ALL_UP_TO if open_all is None else open_all
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '{script_hash(js)}'")
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title><style>{css}</style></head><body>",
        _DEFS,
        f"<h1>{e(title)}</h1>",
        f'<p class="muted">skillgrade {e(VERSION)} · {len(reports)} skill{"s" if len(reports) != 1 else ""}'
        " · one self-contained file: nothing is fetched</p>",
        _summary(reports),
    ]
    if errors:
        parts.append('<h2>Errors</h2><ul class="errors">' + "".join(f"<li>{e(x)}</li>" for x in errors) + "</ul>")
    if ledger:
        parts.append("<h2>Ledger (LLM layers)</h2>" + _ledger(ledger))
    parts.append("<h2>Skills</h2>" + _table(reports))
    parts.append(f"<h2>Details</h2>{_LEGEND}")
    for i, r in enumerate(reports):
        parts.append(_details(i, r, base, opened))
    parts.append(f"<script>{js}</script></body></html>\n")
    return "".join(parts)


_DEFS = ('<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
         '<pattern id="sg-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
         '<rect width="6" height="6" fill="#f6f8fa"/><line x1="0" y1="0" x2="0" y2="6" stroke="#8c959f" '
         'stroke-width="2"/></pattern></defs></svg>')

_LEGEND = ('<p class="legend muted"><span><i style="background:var(--A)"></i>bar: blended score, coloured by '
           'grade</span><span><i style="background:var(--static)"></i>static</span><span><i style="background:'
           'var(--judge);border-radius:5px"></i>judge</span><span><i style="background:var(--mc);transform:'
           'rotate(45deg) scale(.8)"></i>Monte Carlo</span><span><i style="background:repeating-linear-gradient'
           '(45deg,#8c959f 0 2px,#f6f8fa 2px 5px)"></i>unmeasured (no layer produced a number)</span>'
           '<span>letters after a score: the layers that measured it (S static, J judge, M Monte Carlo)</span>'
           '<span>a line through the judge marker: the range of several judges</span></p>')


def _summary(reports: list[dict]) -> str:
    scores = [r["composite"]["score"] for r in reports if r["composite"]["score"] is not None]
    mean = f"{sum(scores) / len(scores):.1f}" if scores else "n/a"
    badges: dict[str, int] = {}
    conf: dict[str, int] = {}
    sev: dict[str, int] = {}
    for r in reports:
        b = r["composite"].get("badge") or "no badge"
        badges[b] = badges.get(b, 0) + 1
        c = r["composite"].get("confidence") or "?"
        conf[c] = conf.get(c, 0) + 1
        for f in r.get("findings") or []:
            sev[f["severity"]] = sev.get(f["severity"], 0) + 1
    unscored = len(reports) - len(scores)

    def card(label: str, value: str) -> str:
        return f'<div class="card"><small>{e(label)}</small><b>{value}</b></div>'

    order = ("Platinum", "Gold", "Silver", "Bronze", "no badge")
    cards = [card("skills", str(len(reports))), card("mean score", mean)]
    if unscored:
        cards.append(card("unmeasured score", str(unscored)))
    cards.append(card("badges", " ".join(f"{e(k)}&nbsp;{badges[k]}" for k in order if k in badges) or "—"))
    cards.append(card("confidence", " ".join(f"{e(k)}&nbsp;{v}" for k, v in sorted(conf.items())) or "—"))
    cards.append(card("findings", " ".join(f'<span class="sev-{e(k)}">{e(k)}&nbsp;{sev[k]}</span>'
                                           for k in ("error", "warning", "info", "hint") if k in sev) or "0"))
    hist = _histogram(scores) if len(scores) > 1 else ""
    return f'<div class="cards">{"".join(cards)}</div>{hist}'


def _histogram(scores: list[float]) -> str:
    """Scores in ten bins of 10 points: where the library stands at a glance."""
    bins = [0] * 10
    for s in scores:
        bins[min(9, int(s // 10))] += 1
    top = max(bins) or 1
    w, h, bw, y0 = 420, 70, 38, 18
    out = [f'<svg class="chart hist-chart" role="img" aria-label="score distribution" width="{w}" height="{h + y0 + 16}" '
           f'viewBox="0 0 {w} {h + y0 + 16}"><title>Composite scores of {len(scores)} skills, in bins of 10</title>']
    for i, n in enumerate(bins):
        bh = round(h * n / top)
        x = 10 + i * (bw + 2)
        out.append(f'<rect class="hist" x="{x}" y="{y0 + h - bh}" width="{bw}" height="{bh}">'
                   f"<title>{i * 10}–{i * 10 + 9 if i < 9 else 100}: {n} skill{'s' if n != 1 else ''}</title></rect>")
        if n:
            out.append(f'<text class="val" x="{x + bw / 2}" y="{y0 + h - bh - 4}" text-anchor="middle">{n}</text>')
        out.append(f'<text class="um" x="{x}" y="{y0 + h + 13}" text-anchor="middle">{i * 10}</text>')
    out.append(f'<text class="um" x="{10 + 10 * (bw + 2)}" y="{y0 + h + 13}" text-anchor="middle">100</text></svg>')
    return '<p class="muted" style="margin:0">Composite scores</p>' + "".join(out)


def _ledger(ledger: dict) -> str:
    cost = ledger.get("cost_usd")
    rows = [("calls", ledger.get("calls", 0)), ("cached replies (no call)", ledger.get("cached_calls", 0)),
            ("input tokens", ledger.get("input_tokens", 0)), ("output tokens", ledger.get("output_tokens", 0)),
            ("cache write tokens", ledger.get("cache_creation_input_tokens", 0)),
            ("cache read tokens", ledger.get("cache_read_input_tokens", 0)),
            ("cost", "unknown (no price for a model)" if cost is None else f"${cost:.4f}")]
    if ledger.get("unpriced_calls"):
        rows.append(("calls without a known price", ledger["unpriced_calls"]))
    out = ['<table class="grid ledger" style="width:auto">']
    out += [f"<tr><th>{e(k)}</th><td class=\"num\">{e(f'{v:,}' if isinstance(v, int) else v)}</td></tr>"
            for k, v in rows]
    out.append("</table>")
    kinds = ledger.get("by_kind") or {}
    if kinds:
        out.append('<h3>By kind of call</h3><table class="grid" style="width:auto"><thead><tr><th>kind</th>'
                   "<th>calls</th><th>cached</th><th>input tokens</th><th>output tokens</th></tr></thead><tbody>")
        for k, v in sorted(kinds.items()):
            out.append(f"<tr><td>{e(k)}</td>" + "".join(
                f'<td class="num">{int(v.get(f, 0) or 0):,}</td>'
                for f in ("calls", "cached_calls", "input_tokens", "output_tokens")) + "</tr>")
        out.append("</tbody></table>")
    return "".join(out)


# ---------------------------------------------------------------- the table

def _table(reports: list[dict]) -> str:
    heads = [("#", "num"), ("Skill", "text"), ("Score", "num"), ("Badge", "text"), ("Confidence", "text"),
             ("Findings", "num")] + [(SHORT[d], "num") for d in DIMENSIONS]
    th = []
    for k, (label, kind) in enumerate(heads):
        tip = f' title="{e(TITLES[DIMENSIONS[k - 6]])}"' if k >= 6 else ""
        th.append(f'<th data-type="{kind}"{tip} scope="col"><button type="button">{e(label)}</button></th>')
    order = sorted(range(len(reports)), key=lambda i: _score_key(reports[i]))  # weakest first
    rows = [_row(i, reports[i]) for i in order]
    return (f'<table class="grid" id="skills"><thead><tr>{"".join(th)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            '<p class="muted">Weakest first. Cells: grade and score (0–100); hatched = unmeasured. '
            "Click a header to sort; click a skill for its chart and findings.</p>")


def _score_key(r: dict) -> tuple:
    s = r["composite"]["score"]
    return (s is None, s if s is not None else 0.0, _skill_name(r))


def _row(i: int, r: dict) -> str:
    comp = r["composite"]
    score = comp["score"]
    badge = comp.get("badge")
    name = _skill_name(r)
    path = display_path((r.get("skill") or {}).get("path"))
    cells = [
        f'<td class="num" data-v="{i}">{i + 1}</td>',
        f'<td data-v="{e(name.lower())}"><a href="#skill-{i}" title="{e(path)}">{e(name)}</a></td>',
        f'<td class="num" data-v="{"" if score is None else score}">{"unmeasured" if score is None else f"{score:.1f}"}</td>',
        f'<td data-v="{_badge_rank(badge)}">' + (f'<span class="badge badge-{e(badge)}">{e(badge)}</span>'
                                                  if badge else '<span class="muted">—</span>') + "</td>",
        f"<td>{e(comp.get('confidence'))}</td>",
        f'<td class="num">{len(r.get("findings") or [])}</td>',
    ]
    for d in DIMENSIONS:
        dim = comp["dimensions"].get(d) or {}
        s, g = dim.get("score"), dim.get("grade")
        if s is None:
            cells.append(f'<td class="g g-none" data-v="" title="{e(TITLES[d])}: unmeasured">—</td>')
        else:
            by = ", ".join(LAYER_NAMES.get(x, x) for x in dim.get("measured_by") or [])
            cells.append(f'<td class="g {_grade_class(g)}" data-v="{s}" title="{e(TITLES[d])}: {_pct(s)} '
                         f'({e(g)}), measured by {e(by)}">{e(g)}<small>{_pct(s)}</small></td>')
    return f"<tr>{''.join(cells)}</tr>"


def _badge_rank(badge: str | None) -> int:
    return {"Platinum": 4, "Gold": 3, "Silver": 2, "Bronze": 1}.get(badge or "", 0)


# ---------------------------------------------------------------- one skill

def _details(i: int, r: dict, base: str | None, opened: bool) -> str:
    comp = r["composite"]
    name = _skill_name(r)
    score = comp["score"]
    badge = comp.get("badge")
    head = (f"<b>{e(name)}</b> · {'unmeasured' if score is None else f'{score:.1f}'}"
            + (f' <span class="badge badge-{e(badge)}">{e(badge)}</span>' if badge else "")
            + f" · {e(comp.get('confidence'))} · {len(r.get('findings') or [])} finding"
            + ("s" if len(r.get("findings") or []) != 1 else ""))
    body = [f'<p class="muted"><code>{e(display_path((r.get("skill") or {}).get("path")))}</code> · layers run: '
            f"{e(', '.join(LAYER_NAMES.get(x, x) for x in comp.get('layers_run') or []) or 'none')}"
            f" · anti-patterns: {int(comp.get('anti_pattern_count') or 0)} (penalty ×"
            f"{float(comp.get('anti_pattern_penalty') or 1.0):.2f})</p>"]
    charts = [_dimension_chart(comp, _judge_spreads(r))]
    ci = _ci_chart(r)
    if ci:
        charts.append(ci)
    body.append(f'<div class="charts">{"".join(charts)}</div>')
    body.append(_unmeasured(r))
    body.append(_llm_notes(r))
    body.append(_findings(r, base))
    return (f'<details class="skill" id="skill-{i}"{" open" if opened else ""}><summary>{head}</summary>'
            f'<div class="body">{"".join(body)}</div></details>')


def _judge_spreads(r: dict) -> dict[str, tuple[float, float]]:
    """Per dimension, the lowest and highest of several judges' scores (`--judges N`, N > 1)."""
    jd = _layer(r, "judge")
    out: dict[str, tuple[float, float]] = {}
    for d, v in ((jd or {}).get("dimensions") or {}).items():
        xs = [x for x in (v or {}).get("per_judge") or [] if isinstance(x, int | float)]
        if len(xs) > 1:
            out[d] = (min(xs), max(xs))
    return out


def _dimension_chart(comp: dict, spreads: dict[str, tuple[float, float]] | None = None) -> str:
    """Ten rows: the blended score as a bar coloured by grade (hatched and labelled when unmeasured), a marker
    per layer at that layer's score, and the spread of several judges when there were."""
    w = _BAR_X + _BAR_W + 120
    h = _TOP + _ROW_H * len(DIMENSIONS) + 18
    out = [f'<svg class="chart dims" role="img" aria-label="ten dimensions" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}">']
    bottom = _TOP + _ROW_H * len(DIMENSIONS)
    for lo, g in GRADE_BANDS:  # grade band lines (60, 70, 80, 90)
        x = _BAR_X + lo * _BAR_W
        out.append(f'<line class="band" x1="{x:.1f}" y1="{_TOP - 4}" x2="{x:.1f}" y2="{bottom}"/>'
                   f'<text class="um" x="{x:.1f}" y="{bottom + 12}" text-anchor="middle">{g} {round(lo * 100)}</text>')
    out.append(f'<line class="axis" x1="{_BAR_X}" y1="{_TOP - 4}" x2="{_BAR_X}" y2="{bottom}"/>')
    for k, d in enumerate(DIMENSIONS):
        dim = comp["dimensions"].get(d) or {}
        y = _TOP + k * _ROW_H
        cy = y + _ROW_H / 2 - 2
        out.append(f'<g class="dim" data-dim="{d}" data-measured="{"0" if dim.get("score") is None else "1"}">')
        out.append(f'<text class="lbl" x="{_LABEL_W}" y="{cy + 4:.1f}" text-anchor="end">{e(TITLES[d])}</text>')
        s = dim.get("score")
        layers = dim.get("layers") or {}
        if s is None:
            out.append(f'<rect class="b-none" x="{_BAR_X}" y="{y + 3}" width="{_BAR_W}" height="{_ROW_H - 8}">'
                       f"<title>{e(TITLES[d])}: unmeasured (no layer produced a number)</title></rect>"
                       f'<text class="um" x="{_BAR_X + _BAR_W + 14}" y="{cy + 4:.1f}">unmeasured</text>')
        else:
            by = ", ".join(f"{LAYER_NAMES.get(la, la)} {_pct(v)}" for la, v in sorted(layers.items()))
            out.append(f'<rect class="b-{e(dim.get("grade") or "none")}" x="{_BAR_X}" y="{y + 3}" '
                       f'width="{max(s * _BAR_W, 1):.1f}" height="{_ROW_H - 8}" opacity=".85">'
                       f"<title>{e(TITLES[d])}: {_pct(s)} ({e(dim.get('grade'))}); {e(by)}</title></rect>"
                       f'<text class="val" x="{_BAR_X + _BAR_W + 14}" y="{cy + 4:.1f}">{_pct(s)} {e(dim.get("grade"))}'
                       f'<tspan class="um"> {e(_layer_tags(layers))}</tspan></text>')
            if d in (spreads or {}) and "judge" in layers:
                lo, hi = spreads[d]  # type: ignore[index]
                out.append(f'<line class="whisker" x1="{_BAR_X + lo * _BAR_W:.1f}" y1="{cy:.1f}" '
                           f'x2="{_BAR_X + hi * _BAR_W:.1f}" y2="{cy:.1f}"><title>{e(TITLES[d])}: the judges '
                           f"ranged {_pct(lo)}–{_pct(hi)}</title></line>")
            for la in LAYER_ORDER:
                if la in layers and layers[la] is not None:
                    out.append(_marker(la, _BAR_X + layers[la] * _BAR_W, cy, f"{TITLES[d]}: {LAYER_NAMES[la]} "
                                                                             f"{_pct(layers[la])}"))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _layer_tags(layers: dict) -> str:
    return "".join({"static": "S", "judge": "J", "monte_carlo": "M"}.get(la, "?") for la in LAYER_ORDER
                   if la in layers)


def _marker(layer: str, x: float, cy: float, tip: str) -> str:
    t = f"<title>{e(tip)}</title>"
    if layer == "static":
        return f'<rect class="m-static" x="{x - 2:.1f}" y="{cy - 6:.1f}" width="4" height="12">{t}</rect>'
    if layer == "judge":
        return f'<circle class="m-judge" cx="{x:.1f}" cy="{cy:.1f}" r="4">{t}</circle>'
    return (f'<rect class="m-monte_carlo" x="{x - 3.5:.1f}" y="{cy - 3.5:.1f}" width="7" height="7" '
            f'transform="rotate(45 {x:.1f} {cy:.1f})">{t}</rect>')


def _ci_chart(r: dict) -> str:
    """The LLM layers' intervals: Monte Carlo's rates (exact 95% CIs on a 0–100% axis) and the Elo rating's CI."""
    rows: list[tuple[str, dict]] = []
    mc = _layer(r, "monte_carlo")
    if mc is not None:
        st = mc.get("statistics") or {}
        for key, label in (("activation_rate", "activation on positives"),
                           ("false_activation_rate", "false activation (near misses)"),
                           ("failure_rate", "failed runs")):
            iv = st.get(key)
            if isinstance(iv, dict):
                rows.append((label, iv))
    elo = _layer(r, "elo")
    if elo is not None and elo.get("rating") is None:
        elo = None  # unmeasured: its reason is in the list of unmeasured things, not drawn
    if not rows and elo is None:
        return ""
    x0, bw, rh = 190, 240, 24
    h = 26 + rh * len(rows) + (44 if elo is not None else 0)
    w = x0 + bw + 210
    out = [f'<svg class="chart ci-chart" role="img" aria-label="confidence intervals" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}"><text class="val" x="0" y="12">95% confidence intervals</text>']
    for k, (label, iv) in enumerate(rows):
        y = 26 + k * rh + 8
        out.append(f'<text class="lbl" x="{x0 - 8}" y="{y + 4}" text-anchor="end">{e(label)}</text>'
                   f'<line class="axis" x1="{x0}" y1="{y}" x2="{x0 + bw}" y2="{y}"/>')
        if iv.get("rate") is None:
            out.append(f'<text class="um" x="{x0 + bw + 6}" y="{y + 4}">unmeasured: {e(iv.get("reason") or "no trials")}'
                       "</text>")
            continue
        lo, hi, rate = iv.get("lower") or 0.0, iv.get("upper") or 0.0, iv["rate"]
        tip = (f"{label}: {_pct(rate, 1)}% [{_pct(lo, 1)}, {_pct(hi, 1)}] ({iv.get('x')}/{iv.get('n')}, "
               f"{iv.get('method')})")
        out.append(f'<g class="interval"><title>{e(tip)}</title>'
                   f'<line class="ci" x1="{x0 + lo * bw:.1f}" y1="{y}" x2="{x0 + hi * bw:.1f}" y2="{y}"/>'
                   f'<line class="ci" x1="{x0 + lo * bw:.1f}" y1="{y - 5}" x2="{x0 + lo * bw:.1f}" y2="{y + 5}"/>'
                   f'<line class="ci" x1="{x0 + hi * bw:.1f}" y1="{y - 5}" x2="{x0 + hi * bw:.1f}" y2="{y + 5}"/>'
                   f'<circle class="m-monte_carlo" cx="{x0 + rate * bw:.1f}" cy="{y}" r="4"/></g>'
                   f'<text class="val" x="{x0 + bw + 6}" y="{y + 4}">{_pct(rate, 1)}% '
                   f'<tspan class="um">[{_pct(lo, 1)}, {_pct(hi, 1)}] {e(iv.get("x"))}/{e(iv.get("n"))}</tspan></text>')
    if rows:
        yb = 26 + rh * len(rows)
        out.append("".join(f'<text class="um" x="{x0 + f * bw:.1f}" y="{yb}" text-anchor="middle">{round(f * 100)}%'
                           "</text>" for f in (0, 0.5, 1)))
    if elo is not None:
        y = 26 + rh * len(rows) + 26
        out.append(_elo_row(elo, x0, bw, y))
    out.append("</svg>")
    return "".join(out)


def _elo_row(elo: dict, x0: int, bw: int, y: int) -> str:
    rating = elo["rating"]
    label = f'<text class="lbl" x="{x0 - 8}" y="{y + 4}" text-anchor="end">Elo rating</text>'
    lo_r, hi_r = 1000.0, 2000.0  # the axis; the badge bars are 1300–1600

    def x(v: float) -> float:
        return x0 + max(0.0, min(1.0, (v - lo_r) / (hi_r - lo_r))) * bw

    lo, hi = elo.get("ci_low"), elo.get("ci_high")
    tip = f"Elo {rating:.0f}" + (f" [{lo:.0f}, {hi:.0f}]" if lo is not None and hi is not None else "") + \
        f" from {elo.get('n_pairs', 0)} pairs"
    out = [label, f'<line class="axis" x1="{x0}" y1="{y}" x2="{x0 + bw}" y2="{y}"/><g class="interval elo">'
                  f"<title>{e(tip)}</title>"]
    if lo is not None and hi is not None:
        out.append(f'<line class="ci-elo" x1="{x(lo):.1f}" y1="{y}" x2="{x(hi):.1f}" y2="{y}"/>')
    out.append(f'<circle class="m-judge" cx="{x(rating):.1f}" cy="{y}" r="4"/></g>')
    pct = f", percentile {elo['percentile']:.0f}" if elo.get("percentile") is not None else ""
    out.append(f'<text class="val" x="{x0 + bw + 6}" y="{y + 4}">{rating:.0f}<tspan class="um">'
               f"{e(f' [{lo:.0f}, {hi:.0f}]' if lo is not None and hi is not None else '')}{e(pct)}</tspan></text>")
    out.append(f'<text class="um" x="{x0}" y="{y + 16}" text-anchor="middle">1000</text>'
               f'<text class="um" x="{x0 + bw}" y="{y + 16}" text-anchor="middle">2000</text>')
    return "".join(out)


def _unmeasured(r: dict) -> str:
    """Why each unmeasured thing is unmeasured: the composite's dimensions and each LLM layer's reasons."""
    items: list[str] = []
    for d in r["composite"].get("unmeasured") or []:
        items.append(f"<li><b>{e(TITLES.get(d, d))}</b>: no layer produced a number; it is left out of the "
                     "composite (the weights are renormalised), not counted as 0</li>")
    for la in r.get("layers") or []:
        name = la.get("name")
        um = la.get("unmeasured")
        if name in ("judge", "monte_carlo") and isinstance(um, dict):
            for d, why in um.items():
                items.append(f"<li>{e(LAYER_NAMES.get(name, name))}, {e(TITLES.get(d, d))}: {e(why)}</li>")
    elo = _layer(r, "elo")
    if elo is not None and elo.get("rating") is None:
        items.append(f"<li>Elo rating: {e(elo.get('reason') or elo.get('unmeasured') or 'not computed')}</li>")
    if not items:
        return ""
    return f'<h3>Unmeasured</h3><ul class="reasons">{"".join(items)}</ul>'


def _llm_notes(r: dict) -> str:
    out: list[str] = []
    jd = _layer(r, "judge")
    if jd is not None:
        usage = jd.get("usage") or {}
        line = (f"Judge: {e(jd.get('model'))}, {int(jd.get('judges') or 1)} judge(s), "
                f"{int(usage.get('calls', 0) or 0)} call(s), {int(usage.get('cached', 0) or 0)} cached")
        for m in jd.get("routing_metrics") or []:
            if m.get("f1") is not None:
                line += f"; routing F1 {m['f1']:.2f} (n={int(m.get('n') or 0)})"
        for what, k in (jd.get("kappa") or {}).items():
            v = k.get("value")
            line += (f"; agreement on {e(what)}: {e(k.get('method'))} kappa "
                     + (f"{v:.2f} (n={k.get('n')})" if v is not None else f"n/a: {e(k.get('reason'))}"))
        out.append(f"<li>{line}</li>")
    mc = _layer(r, "monte_carlo")
    if mc is not None:
        st = mc.get("statistics") or {}
        q = st.get("quality") or {}
        ps = mc.get("prompts") or {}
        line = (f"Monte Carlo: {e(mc.get('model'))}, {e(mc.get('n_used'))}/{e(mc.get('n_max'))} simulations, "
                f"stopped: {e(mc.get('stop') or mc.get('stop_reason'))}; prompts: "
                + (f"{e(ps.get('source'))} ({e(ps.get('positives'))} + {e(ps.get('negatives'))} near misses)" if ps
                   else f"none ({e(mc.get('prompts_reason'))})"))
        if q.get("median") is not None:
            line += f"; output quality median {q['median']:.2f}, IQR {q.get('iqr', 0):.2f} (n={q.get('n')})"
        if st.get("f1") is not None:
            line += f"; F1 {st['f1']:.2f}"
        out.append(f"<li>{line}</li>")
    if not out:
        return ""
    return f'<h3>LLM layers</h3><ul class="reasons">{"".join(out)}</ul>'


def _findings(r: dict, base: str | None) -> str:
    fs = r.get("findings") or []
    if not fs:
        return "<h3>Findings</h3><p class=\"muted\">No findings.</p>"
    order = {"error": 0, "warning": 1, "info": 2, "hint": 3}
    path = (r.get("skill") or {}).get("path")
    rows = []
    for f in sorted(fs, key=lambda f: (order.get(f.get("severity"), 9), f["range"]["start"]["line"])):
        line = f["range"]["start"]["line"] + 1
        where = f"{finding_path(path, f)}:{line}" if f.get("file") else f"line {line}"
        code = e(f.get("code"))
        link = f'<a href="{e(base)}{code}.md">{code}</a>' if base else code
        ap = ' <small title="a methodology anti-pattern: counts toward the penalty">AP</small>' \
            if f.get("anti_pattern") else ""
        sev = e(f.get("severity"))
        rows.append(f'<tr><td class="sev-{sev}">{sev}</td><td>{e(where)}</td><td><code>{link}</code>{ap}</td>'
                    f"<td>{e(f.get('message'))}</td></tr>")
    return (f"<h3>Findings ({len(fs)})</h3><table class=\"grid findings\"><thead><tr><th>severity</th><th>where</th>"
            f"<th>rule</th><th>message</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
