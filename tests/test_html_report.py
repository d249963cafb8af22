"""The HTML report (`--format html`, analyzers/html_report.py): one self-contained page from the JSON report dicts;
escaping, unmeasured drawn as unmeasured, the LLM layers' intervals at their exact places, the ledger, speed."""

from __future__ import annotations

import copy
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

from skillgrade.analyzers.html_report import safe_base, script_hash, to_html
from skillgrade.analyzers.report import analyze

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "skills"
HOSTILE = "<script>alert(1)</script>"
SKILL = """---
name: {name}
description: Extracts tables from PDF files. Use when the user asks to pull tables out of a PDF.
---

# PDF tables

1. Open the file.
2. Return the tables as Markdown.
"""


def report_for(name: str = "pdf-tables", path: str = "/tmp/skills/pdf-tables/SKILL.md") -> dict:
    return analyze(SKILL.format(name=name), path).to_dict()


def scripts(page: str) -> list[str]:
    return re.findall(r"<script\b[^>]*>(.*?)</script>", page, flags=re.S)


def test_one_self_contained_page_with_a_strict_csp() -> None:
    page = to_html([report_for()])
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.split("<h2>Skills")[0])  # nothing fetched
    assert "<link" not in page and "@import" not in page
    body = scripts(page)
    assert len(body) == 1  # ours, and it is the one the CSP allows
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert f"script-src '{script_hash(body[0])}'" in csp and "default-src 'none'" in csp


def test_a_hostile_skill_name_and_message_are_text_not_markup() -> None:
    r = report_for(name=json.dumps(HOSTILE))
    assert r["skill"]["name"] == HOSTILE
    r["findings"].append({"code": '"><img src=x onerror=alert(2)>', "severity": "warning",
                          "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
                          "message": "<b>bold</b> & <iframe>", "anti_pattern": False, "fix": None,
                          "file": "references/<x>.md"})
    page = to_html([r], ["<img src=y onerror=alert(3)>"], docs_base="https://docs.example/rules/")
    assert len(scripts(page)) == 1 and "alert(1)" not in scripts(page)[0]
    for raw in (HOSTILE, "<img src=x", "<img src=y", "<b>bold</b>", "<iframe>", "<x>.md"):
        assert raw not in page
    assert html.escape(HOSTILE) in page and "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;iframe&gt;" in page
    assert 'href="https://docs.example/rules/&quot;&gt;&lt;img src=x onerror=alert(2)&gt;.md"' in page


def test_docs_links_use_the_base_and_refuse_script_urls() -> None:
    r = report_for(name="PDF_Tables")  # NAME_... findings
    code = r["findings"][0]["code"]
    page = to_html([r], docs_base="https://example.org/docs/rules/")
    assert f'<a href="https://example.org/docs/rules/{code}.md">{code}</a>' in page
    assert safe_base("javascript:alert(1)//") is None and safe_base("data:text/html,") is None
    assert safe_base("../docs/rules/") == "../docs/rules/" and safe_base("HTTPS://x/") == "HTTPS://x/"
    page = to_html([r], docs_base="javascript:alert(1)//")
    assert "javascript:" not in page and f"<code>{code}</code>" in page


def test_unmeasured_dimensions_are_drawn_hatched_and_never_as_zero() -> None:
    r = report_for()
    comp = r["composite"]
    unmeasured = [d for d, v in comp["dimensions"].items() if v["score"] is None]
    assert unmeasured == ["output_quality", "scope_calibration", "robustness", "code_template_quality"]  # no code
    page = to_html([r])
    chart = page[page.index('class="chart dims"'):]
    chart = chart[:chart.index("</svg>")]
    groups = re.findall(r'<g class="dim" data-dim="(\w+)" data-measured="(\d)">(.*?)</g>', chart, flags=re.S)
    assert len(groups) == 10
    for name, measured, g in groups:
        if name in unmeasured:
            assert measured == "0" and 'class="b-none"' in g and ">unmeasured<" in g and 'width="300"' in g
            assert "m-static" not in g
        else:
            assert measured == "1" and "b-none" not in g and "m-static" in g  # the layer that measured it
    row = re.search(r"<tbody><tr>(.*?)</tr>", page, flags=re.S).group(1)
    cells = re.findall(r'<td class="g ([^"]+)" data-v="([^"]*)"', row)
    assert [c for c, _ in cells].count("g-none") == 4 and all(v == "" for c, v in cells if c == "g-none")
    assert "Output quality</b>: no layer produced a number" in page


def test_dimension_bars_are_to_scale() -> None:
    r = report_for()
    trig = r["composite"]["dimensions"]["triggering_accuracy"]["score"]
    page = to_html([r])
    g = re.search(r'data-dim="triggering_accuracy".*?</g>', page, flags=re.S).group(0)
    assert f'width="{trig * 300:.1f}"' in g and f"{100 * trig:.0f} {trig and r['composite']['dimensions']['triggering_accuracy']['grade']}" in g


def llm_report() -> dict:
    """A static report with Monte Carlo and Elo layers as certify writes them (the fields the page reads)."""
    r = report_for()
    iv = {"method": "clopper-pearson", "x": 10, "n": 10, "rate": 1.0, "lower": 0.691503, "upper": 1.0}
    fa = {"method": "clopper-pearson", "x": 1, "n": 10, "rate": 0.1, "lower": 0.002529, "upper": 0.445016}
    none = {"method": "clopper-pearson", "x": 0, "n": 0, "rate": None, "lower": None, "upper": None,
            "reason": "no runs"}
    r["layers"].append({"name": "monte_carlo", "layer": "monte_carlo", "model": "m", "n_used": 20, "n_max": 50,
                        "stop_reason": "ci_target", "stop": "CI target reached", "prompts": None,
                        "prompts_reason": "x",
                        "statistics": {"activation_rate": iv, "false_activation_rate": fa, "failure_rate": none,
                                       "quality": {}},
                        "unmeasured": {"orchestration_fitness": "no method for it"}})
    r["layers"].append({"name": "elo", "layer": "elo", "rating": 1550.0, "ci_low": 1500.0, "ci_high": 1600.0,
                        "percentile": 72.0, "n_pairs": 8})
    return r


def test_monte_carlo_and_elo_intervals_are_drawn_where_they_are() -> None:
    page = to_html([llm_report()])
    svg = page[page.index('class="chart ci-chart"'):]
    svg = svg[:svg.index("</svg>")]
    x0, bw = 190, 240
    lines = re.findall(r'<line class="ci" x1="([\d.]+)" y1="(\d+)" x2="([\d.]+)"', svg)
    assert (f"{x0 + 0.691503 * bw:.1f}", f"{x0 + 1.0 * bw:.1f}") == (lines[0][0], lines[0][2])
    assert (f"{x0 + 0.002529 * bw:.1f}", f"{x0 + 0.445016 * bw:.1f}") == (lines[3][0], lines[3][2])
    assert len(lines) == 6  # two intervals (with their end ticks); the failure rate has no trials
    assert "unmeasured: no runs" in svg  # not a zero-width interval at 0
    elo = re.search(r'<line class="ci-elo" x1="([\d.]+)" y1="\d+" x2="([\d.]+)"', svg)
    assert elo.groups() == (f"{x0 + 0.5 * bw:.1f}", f"{x0 + 0.6 * bw:.1f}")
    assert "1550" in svg and "percentile 72" in svg
    assert "Monte Carlo, Orchestration fitness: no method for it" in page


def test_unmeasured_elo_is_listed_with_its_reason() -> None:
    r = report_for()
    r["layers"].append({"name": "elo", "layer": "elo", "rating": None, "reason": "no reference corpus index"})
    page = to_html([r])
    assert "Elo rating: no reference corpus index" in page and 'class="ci-elo"' not in page


def test_ledger_only_when_llm_layers_ran() -> None:
    assert "Ledger" not in to_html([report_for()])
    ledger = {"calls": 62, "cached_calls": 3, "input_tokens": 12355, "output_tokens": 2493, "cost_usd": 0.036434,
              "by_kind": {"judge": {"calls": 10, "cached_calls": 0, "input_tokens": 5451, "output_tokens": 408}}}
    page = to_html([report_for()], ledger=ledger)
    assert "Ledger (LLM layers)" in page and ">12,355<" in page and "$0.0364" in page and ">5,451<" in page
    assert "unknown (no price" in to_html([report_for()], ledger={**ledger, "cost_usd": None})


def test_table_is_weakest_first_and_sortable_without_breaking_when_no_js() -> None:
    a, b = report_for("zeta", "/s/zeta/SKILL.md"), report_for("PDF_Tables", "/s/alpha/SKILL.md")
    assert b["composite"]["score"] < a["composite"]["score"]
    page = to_html([a, b])
    names = re.findall(r'<a href="#skill-(\d+)"[^>]*>([^<]+)</a>', page)
    assert names == [("1", "PDF_Tables"), ("0", "zeta")]
    assert page.count('<details class="skill"') == 2 and 'id="skill-1" open' in page  # few skills: open
    assert len(re.findall(r'<th data-type="(num|text)"', page)) == 16


def test_four_hundred_skills_render_fast() -> None:
    base = [report_for(f"skill-{i}", f"/s/skill-{i}/SKILL.md") for i in range(4)]
    reports = []
    for i in range(400):
        r = copy.deepcopy(base[i % 4])
        r["skill"]["name"] = f"skill-{i}"
        reports.append(r)
    t0 = time.perf_counter()
    page = to_html(reports)
    elapsed = time.perf_counter() - t0
    assert elapsed < 2.0, elapsed
    assert page.count('<details class="skill"') == 400 and " open>" not in page  # many: closed until clicked
    assert page.count('<svg class="chart dims"') == 400


def test_cli_format_html(tmp_path: Path) -> None:
    dst = tmp_path / "repo"
    shutil.copytree(EXAMPLES, dst / "skills")
    (dst / ".git").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", "skills", "--format", "html",
                        "--no-cache"], capture_output=True, text=True, cwd=dst, env=env, timeout=120)
    t = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", "skills", "--no-cache"],
                       capture_output=True, text=True, cwd=dst, env=env, timeout=120)
    assert p.returncode == t.returncode == 1  # the same exit code as the text report
    assert p.stdout.startswith("<!DOCTYPE html>") and p.stderr == ""
    assert p.stdout.count('<details class="skill"') == 3 and p.stdout.count('<svg class="chart dims"') == 3
    assert "https://github.com/skillgrade/skillgrade/blob/main/docs/rules/ORPHAN_REFERENCE.md" in p.stdout
    (dst / ".skillgrade.toml").write_text('docs-base-url = "https://mirror.example/rules/"\n')
    p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", "skills", "--format", "html",
                        "--no-cache"], capture_output=True, text=True, cwd=dst, env=env, timeout=120)
    assert "https://mirror.example/rules/ORPHAN_REFERENCE.md" in p.stdout


@pytest.mark.parametrize("bad", ["javascript:alert(1)//"])
def test_cli_config_cannot_inject_a_script_url(tmp_path: Path, bad: str) -> None:
    dst = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "pdf-tools", dst / "pdf-tools")
    (dst / ".skillgrade.toml").write_text(f'docs-base-url = "{bad}"\n')
    p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", "pdf-tools", "--format", "html",
                        "--no-cache"], capture_output=True, text=True, cwd=dst, timeout=120)
    assert p.stdout.startswith("<!DOCTYPE html>") and "javascript:" not in p.stdout


def test_several_judges_draw_their_range() -> None:
    r = report_for()
    r["composite"]["dimensions"]["scope_calibration"].update(score=0.8, grade="B", measured_by=["judge"],
                                                             layers={"judge": 0.8})
    r["layers"].append({"name": "judge", "layer": "judge", "model": "m", "judges": 3, "dimensions": {
        "scope_calibration": {"score": 0.8, "per_judge": [0.7, 0.8, 0.9]},
        "robustness": {"score": None, "per_judge": []}}})
    page = to_html([r])
    g = re.search(r'data-dim="scope_calibration".*?</g>', page, flags=re.S).group(0)
    assert f'<line class="whisker" x1="{168 + 0.7 * 300:.1f}"' in g and f'x2="{168 + 0.9 * 300:.1f}"' in g
    assert page.count('<line class="whisker"') == 1 and "the judges ranged 70–90" in g
