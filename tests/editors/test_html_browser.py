"""The HTML report (`skillgrade score --format html`) in a real browser: headless Chromium (the one the VS Code
e2e uses, from editors/vscode/ci-setup.sh) loads the file, a probe script measures the laid-out page (the table,
a dimension chart's bars, the hatched unmeasured bars, the sort on a header click, that a hostile skill name
ran no script), and a screenshot is taken.

Cheap: three skills plus a hostile one, two Chromium runs (~1 s each). A missing Chromium skips locally and
FAILS when $CI is set. The same check on ../shared/corpus (SKILLGRADE_CORPUS; ~200 real skills); with
SKILLGRADE_UPDATE_SCREENSHOT=1 it writes docs/html-report.png.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "skills"
CHROMIUM = os.environ.get("SKILLGRADE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-extensions", "--allow-file-access-from-files"]
HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'

# Runs after the page's own script; writes what the browser laid out into <pre id="probe"> for --dump-dom.
PROBE = """
(function () {
  var t = document.getElementById("skills"), tr = t.getBoundingClientRect();
  var charts = document.querySelectorAll("svg.chart.dims");
  var d = document.querySelectorAll("details.skill")[0];
  d.open = true;
  var svg = d.querySelector("svg.chart.dims"), sr = svg.getBoundingClientRect();
  var bars = [].map.call(svg.querySelectorAll("g.dim"), function (g) {
    var r = g.querySelector("rect[class^=b-]"), b = r.getBBox();
    return {dim: g.getAttribute("data-dim"), measured: g.getAttribute("data-measured"), cls: r.getAttribute("class"),
            w: Math.round(b.width * 10) / 10, fill: getComputedStyle(r).fill};
  });
  var before = t.tBodies[0].rows[0].cells[1].textContent;
  var btn = t.tHead.rows[0].cells[2].querySelector("button");
  btn.click(); btn.click();  // Score: ascending, then descending
  var after = [].map.call(t.tBodies[0].rows, function (r) { return parseFloat(r.cells[2].textContent); });
  var links = [].map.call(t.querySelectorAll("tbody a"), function (a) { return a.textContent; });
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify({table: [tr.width, tr.height], rows: t.tBodies[0].rows.length,
    charts: charts.length, chart: [sr.width, sr.height], bars: bars, first: before, scores: after,
    sort: btn.parentNode.getAttribute("aria-sort"), links: links, pwned: window.__pwned || 0,
    images: document.images.length});
  document.body.appendChild(pre);
})();
"""


def require_chromium() -> str:
    if CHROMIUM and Path(CHROMIUM).exists():
        return CHROMIUM
    message = "chromium missing (run `bash editors/vscode/ci-setup.sh`, or set SKILLGRADE_CHROMIUM)"
    if os.environ.get("CI"):
        pytest.fail(f"prerequisite {message}")
    pytest.skip(message)


def cli_html(*paths: Path, cwd: Path) -> str:
    p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", *map(str, paths), "--format",
                        "html", "--no-cache"], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert p.stdout.startswith("<!DOCTYPE html>"), p.stderr
    return p.stdout


def chromium(browser: str, *args: str, timeout: int = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([browser, *FLAGS, *args], capture_output=True, text=True, timeout=timeout)


def with_probe(page: str) -> str:
    """The page with the probe appended. Its CSP lets inline scripts run here ('unsafe-inline' instead of the hash
    of ours), so an unescaped hostile name WOULD execute: that it does not is then the escaping, not the CSP."""
    page = re.sub(r"script-src '[^']+'", "script-src 'unsafe-inline'", page, count=1)
    return page.replace("</body>", f"<script>{PROBE}</script></body>")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def probe(browser: str, page: str, tmp_path: Path) -> tuple[dict, Path]:
    report = tmp_path / "report.html"
    report.write_text(with_probe(page), "utf-8")
    dom = chromium(browser, "--dump-dom", report.as_uri())
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, flags=re.S)
    assert m, f"the probe did not run: {dom.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1))), report


def check_chart(got: dict) -> None:
    bars = {b["dim"]: b for b in got["bars"]}
    assert len(bars) == 10
    for b in bars.values():
        if b["measured"] == "0":  # unmeasured: the full-width hatched bar, not a zero-width one
            assert b["cls"] == "b-none" and b["w"] == 300 and b["fill"].startswith("url("), b
        else:
            assert b["cls"].startswith("b-") and b["cls"] != "b-none" and b["fill"].startswith("rgb"), b
    assert got["chart"][0] > 400 and got["chart"][1] > 200
    assert got["sort"] == "descending" and got["scores"] == sorted(got["scores"], reverse=True)


def test_report_renders_in_chromium(tmp_path: Path) -> None:
    browser = require_chromium()
    skills = tmp_path / "skills"
    shutil.copytree(EXAMPLES, skills)
    hostile = skills / "hostile"
    hostile.mkdir()
    (hostile / "SKILL.md").write_text(f"---\nname: {json.dumps(HOSTILE)}\ndescription: Does x. Use when y.\n---\n\n"
                                      "# X\n\nDo it.\n")
    page = cli_html(skills, cwd=tmp_path)
    t0 = time.perf_counter()
    got, report = probe(browser, page, tmp_path)
    assert got["pwned"] == 0 and got["images"] == 0  # the hostile name is text, not an <img> or a script
    assert HOSTILE in got["links"]
    assert got["rows"] == 4 and got["charts"] == 4
    assert got["table"][0] > 600 and got["table"][1] > 4 * 18  # the table is laid out, one line per skill
    check_chart(got)
    assert any(b["measured"] == "0" for b in got["bars"]) and any(b["measured"] == "1" for b in got["bars"])

    shot = tmp_path / "report.png"
    out = chromium(browser, "--window-size=1300,1000", f"--screenshot={shot}", report.as_uri())
    assert shot.is_file(), out.stderr[-2000:]
    assert png_size(shot) == (1300, 1000) and shot.stat().st_size > 30_000  # not a blank page
    assert time.perf_counter() - t0 < 30


def test_corpus_report_in_chromium(tmp_path: Path, corpus: Path) -> None:
    """The issue's check: the report of the real skills of ../shared/corpus opens in Chromium with the table and
    the charts. SKILLGRADE_UPDATE_SCREENSHOT=1 also writes the README's picture, docs/html-report.png."""
    browser = require_chromium()
    t0 = time.perf_counter()
    page = cli_html(corpus, cwd=tmp_path)
    took = time.perf_counter() - t0
    n = page.count('<details class="skill"')
    assert n > 150
    got, report = probe(browser, page, tmp_path)
    assert got["rows"] == n and got["charts"] == n and got["pwned"] == 0
    assert got["table"][1] > n * 18
    check_chart(got)
    if os.environ.get("SKILLGRADE_UPDATE_SCREENSHOT"):
        shot = REPO / "docs" / "html-report.png"
        plain = tmp_path / "corpus.html"
        plain.write_text(page, "utf-8")
        chromium(browser, "--window-size=1300,900", f"--screenshot={shot}", plain.as_uri())
        assert png_size(shot) == (1300, 900)
    print(f"corpus report: {n} skills, {len(page):,} bytes, generated in {took:.2f} s")
