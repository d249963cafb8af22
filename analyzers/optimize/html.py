"""The self-contained HTML report of an optimisation run (no scripts, no external resources; every text
escaped): the attempts, a grid of iterations x prompts with train and test marked, the winning diff."""

from __future__ import annotations

from html import escape
from typing import Any

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1d1d1f}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
th{background:#f3f3f3;text-align:left}td.pass{background:#d9f2dc}td.fail{background:#f8d4d4}
td.none{background:#eee;color:#777}tr.test td.prompt{font-style:italic}.tag{font-size:11px;padding:1px 4px;
border-radius:3px;background:#ddd}.test .tag{background:#ffe7a3}.win{outline:2px solid #2a7}
pre{background:#f7f7f7;padding:8px;overflow:auto}pre .add{color:#070}pre .del{color:#a00}.small{color:#666}
"""


def _pct(x: Any) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _ci(iv: dict | None) -> str:
    if not iv or iv.get("rate") is None:
        return "—"
    return f"{_pct(iv['rate'])} [{_pct(iv['lower'])}–{_pct(iv['upper'])}]"


def _score(s: dict | None) -> str:
    if not s:
        return "<td colspan=4 class=none>no holdout</td>"
    f1 = "—" if s.get("f1") is None else f"{s['f1']:.2f}"
    if s.get("f1_ci"):
        f1 += f" [{s['f1_ci']['lower']:.2f}–{s['f1_ci']['upper']:.2f}]"
    return (f"<td>{s['passed']}/{s['n']}</td><td>{escape(_ci(s.get('precision')))}</td>"
            f"<td>{escape(_ci(s.get('recall')))}</td><td>{escape(f1)}</td>")


def _diff(diff: str) -> str:
    out = []
    for line in diff.splitlines():
        cls = "add" if line.startswith("+") and not line.startswith("+++") else \
            "del" if line.startswith("-") and not line.startswith("---") else ""
        out.append(f'<span class="{cls}">{escape(line)}</span>' if cls else escape(line))
    return "\n".join(out)


def render_html(result: dict, diff: str = "", path: str = "") -> str:
    """`result`: OptimizeResult.to_dict(); `diff`: the winner's unified diff ('' when the original is kept)."""
    attempts = result.get("attempts") or []
    winner = result.get("winner")
    h: list[str] = ["<!DOCTYPE html>", "<html lang=en><head><meta charset=utf-8>",
                    f"<title>skillgrade optimize: {escape(result.get('skill') or '')}</title>",
                    f"<style>{_CSS}</style></head><body>",
                    f"<h1>Description optimiser: {escape(result.get('skill') or '')}</h1>"]
    if path:
        h.append(f"<p class=small>{escape(path)}</p>")
    split = result.get("split") or {}
    h.append(f"<p>{len(split.get('train') or [])} train and {len(split.get('test') or [])} held-out test prompts "
             f"(seed {escape(str(split.get('seed')))}, holdout {escape(str(split.get('holdout')))}), each routed "
             f"{escape(str(result.get('runs')))} time(s); a prompt passes when most runs are right. Winner chosen by "
             f"the <b>{escape(str(result.get('chosen_by')))}</b> split. Stopped: {escape(str(result.get('stop')))}"
             f"{': ' + escape(str(result['stop_detail'])) if result.get('stop_detail') else ''}.</p>")
    h.append(f"<p><b>Result:</b> {escape(str(result.get('winner_reason') or ''))}</p>")
    pt = result.get("paired_test")
    if pt:
        h.append(f"<p><b>Paired test</b> ({escape(pt['test'])}, {escape(pt['split'])} prompts): "
                 f"{pt['gained']} gained, {pt['lost']} lost, p = {pt['p_value']:.4g} — "
                 f"{'larger than the noise' if pt['significant'] else 'within the noise'}.</p>")
    h.append("<h2>Attempts</h2><table><tr><th>#</th><th>description</th><th>chars</th>"
             "<th>train pass</th><th>train precision</th><th>train recall</th><th>train F1</th>"
             "<th>test pass</th><th>test precision</th><th>test recall</th><th>test F1</th></tr>")
    for a in attempts:
        cls = " class=win" if winner == a["iteration"] else ""
        label = f"{a['iteration']}{' (original)' if a.get('original') else ''}{' ★' if cls else ''}"
        h.append(f"<tr{cls}><td>{escape(label)}</td><td>{escape(a['description'])}"
                 f"{'<br><span class=small>' + escape(a['why']) + '</span>' if a.get('why') else ''}</td>"
                 f"<td>{a['chars']}</td>{_score(a.get('train'))}{_score(a.get('test'))}</tr>")
    h.append("</table>")
    h.append("<h2>Prompts × iterations</h2><table><tr><th>split</th><th>should use</th><th>prompt</th>"
             + "".join(f"<th>{a['iteration']}</th>" for a in attempts) + "</tr>")
    rows = attempts[0]["prompts"] if attempts else []
    for i, row in enumerate(rows):
        cells = []
        for a in attempts:
            r = a["prompts"][i]
            ok = r.get("passed")
            cls = "none" if ok is None else ("pass" if ok else "fail")
            text = "—" if ok is None else f"{r['activations']}/{r['runs_decided']}"
            cells.append(f"<td class={cls} title='activations / runs'>{escape(text)}</td>")
        h.append(f"<tr class={escape(row['split'])}><td><span class=tag>{escape(row['split'])}</span></td>"
                 f"<td>{'yes' if row['should_trigger'] else 'no'}</td><td class=prompt>{escape(row['prompt'])}</td>"
                 + "".join(cells) + "</tr>")
    h.append("</table><p class=small>Cells: runs that loaded the skill / runs decided; green = passes.</p>")
    h.append("<h2>Winning change</h2>")
    h.append(f"<pre>{_diff(diff)}</pre>" if diff else "<p>No change: the original description is kept.</p>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
