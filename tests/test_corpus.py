"""The engine on real skills: the issue's acceptance checks on ../shared/corpus."""

from __future__ import annotations

import json
import subprocess
import sys

from skillgrade.analyzers.batch import score_paths
from skillgrade.analyzers.config import Config


def _score(path):
    reports, errors = score_paths([path], lambda _p: Config(), cache_dir=None, jobs=1)
    return reports, errors


def test_anthropic_skills_have_no_missing_trigger(corpus) -> None:
    reports, errors = _score(corpus / "anthropics-skills")
    assert not errors
    assert len(reports) == 13
    flagged = [r["skill"]["path"] for r in reports if any(f["code"] == "MISSING_TRIGGER" for f in r["findings"])]
    assert flagged == []


def test_claude_api_description_too_long(corpus) -> None:
    reports, _ = _score(corpus / "anthropics-skills" / "claude-api")
    codes = [(f["code"], f["range"]["start"]["line"]) for f in reports[0]["findings"]]
    assert ("DESCRIPTION_TOO_LONG", 2) in codes


def test_well_written_corpus_has_no_false_link_findings(corpus) -> None:
    reports, _ = _score(corpus / "anthropics-skills")
    bad = [(r["skill"]["path"], f["code"], f["message"]) for r in reports for f in r["findings"]
           if f["code"] in ("ORPHAN_REFERENCE", "DEAD_CROSS_REF", "DEAD_LINK", "YAML_SYNTAX")]
    assert bad == []


def test_cli_json_over_whole_corpus(corpus, tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "skillgrade.server.cli", "score", str(corpus), "--format", "json", "--no-cache"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert data["summary"]["skills"] == len(data["skills"]) >= 200
    for r in data["skills"]:
        assert isinstance(r["composite"]["score"], float)
        assert set(r["composite"]["dimensions"]) == set(r["dimensions"])
        assert isinstance(r["layers"][0]["anti_patterns"], list)
        for f in r["findings"]:
            assert f["range"]["start"]["line"] >= 0


def test_incremental_parse_matches_whole_parse(corpus) -> None:
    """The editor path (markdown parsed per section, cached) finds exactly what the batch path finds."""
    from skillgrade.analyzers.report import analyze

    files = sorted(corpus.rglob("SKILL.md"))[::3]
    assert len(files) > 50
    for f in files:
        text = f.read_text("utf-8")
        a = analyze(text, f, workspace_root=corpus)
        b = analyze(text, f, workspace_root=corpus, incremental=True)
        assert [x.to_dict() for x in a.findings] == [x.to_dict() for x in b.findings], f
        assert a.composite.to_dict() == b.composite.to_dict(), f
        da, db = a.document, b.document
        assert [(h.level, h.text, h.line) for h in da.headings] == [(h.level, h.text, h.line) for h in db.headings]
        assert [(c.language, c.start_line, c.end_line) for c in da.code_blocks] == \
            [(c.language, c.start_line, c.end_line) for c in db.code_blocks], f
        assert [(lk.target, lk.range) for lk in da.links] == [(lk.target, lk.range) for lk in db.links], f


_TABLE_CASES = [
    "| a | b |\n|---|---|\n| [x](references/x.md) | y |\n\nafter",
    "a | b\n--|--\nc | d\n> quote ends it\n",
    "| a \\| b | c |\n|---|---|\n| 1 | 2 |\n",
    "| a | b |\n|---|\n| not | a table |\n",
    "- item\n\n  | a | b |\n  |:-:|--:|\n  | [l](x.md) | 2 |\n- next\n",
    "text\n| a | b |\n| - | - |\n| 1 | 2 |\n",
    "| a |\n|---|\n    | indented four |\n| back |\n## heading ends it\n",
    "|a|b|\n|-|-|\n" + "|1|\n" * 50,
]


def test_lean_table_rule_matches_markdown_it(corpus) -> None:
    """Our one-token-per-row table rule finds the same tables, rows and links as markdown-it's own."""
    import importlib

    stock_table = importlib.import_module("markdown_it.rules_block.table")

    parse = importlib.import_module("skillgrade.analyzers.parse")

    def facts(texts: list[str]) -> list:
        parse._section_facts.cache_clear()
        return [parse.markdown_facts(t) for t in texts]

    texts = [p.read_text("utf-8", errors="replace") for p in sorted(corpus.rglob("SKILL.md"))] + _TABLE_CASES
    ours = facts(texts)
    md = parse.markdown_parser()
    md.block.ruler.at("table", stock_table.table)
    try:
        stock = facts(texts)
    finally:
        md.block.ruler.at("table", parse._lean_table)
    assert sum(len(f.tables) for f in ours) > 500  # the corpus has real tables to compare
    assert sum(len(f.links) for f in ours[-len(_TABLE_CASES):]) == 2
    assert ours == stock
