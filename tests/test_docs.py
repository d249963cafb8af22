"""Rule documentation: generated pages are current, every docstring has the required sections, and
the examples are executable (the "Example" triggers the rule, the "Use instead" does not)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.registry import ALL_RULES, by_code
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.targets import DEFAULT_TARGET

REPO = Path(__file__).resolve().parent.parent
GEN = REPO / "scripts" / "gen_rule_docs.py"
CODES = [r.code for r in ALL_RULES]
BY_CODE = {r.code: r for r in ALL_RULES}


def _load_gen():
    spec = importlib.util.spec_from_file_location("gen_rule_docs", GEN)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------ generated pages


def test_docs_up_to_date(tmp_path: Path) -> None:
    gen = _load_gen()
    gen.write(tmp_path)
    committed = REPO / "docs" / "rules"
    stale = []
    for page in sorted(tmp_path.glob("*.md")):
        mine = committed / page.name
        if not mine.is_file() or mine.read_text(encoding="utf-8") != page.read_text(encoding="utf-8"):
            stale.append(page.name)
    generated = {p.name for p in tmp_path.glob("*.md")}
    extra = sorted(p.name for p in committed.glob("*.md") if p.name not in generated | gen.HAND_WRITTEN)
    assert not stale and not extra, (
        f"docs/rules is out of date (differs: {stale}, not generated: {extra}); "
        "run `python scripts/gen_rule_docs.py`"
    )


def test_check_mode_reports_command(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, str(GEN), "--check"], capture_output=True, text=True, cwd=REPO)
    assert ok.returncode == 0, ok.stderr
    out = tmp_path / "rules"
    out.mkdir()
    (out / "MISSING_TRIGGER.md").write_text("# stale\n")
    bad = subprocess.run([sys.executable, str(GEN), "--check", "--out", str(out)], capture_output=True,
                         text=True, cwd=REPO)
    assert bad.returncode == 1
    assert "python scripts/gen_rule_docs.py" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_internal_error_page_is_hand_written() -> None:
    page = (REPO / "docs" / "rules" / "INTERNAL_ERROR.md").read_text(encoding="utf-8")
    assert page.startswith("# INTERNAL_ERROR")
    assert "report" in page.lower()
    index = (REPO / "docs" / "rules" / "index.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"[{code}]({code}.md)" in index


def test_page_header_line() -> None:
    gen = _load_gen()
    for r in ALL_RULES:
        page = gen.rule_page(r)
        head, meta = page.splitlines()[0], page.splitlines()[2]
        assert head == f"# {r.code}"
        assert r.severity.label in meta and r.family in meta
        assert ("anti-pattern" in meta) == r.anti_pattern
        assert ("available" in meta) == (r.fix.value != "none")
        assert r.doc.rstrip() in page


# ------------------------------------------------------------------ sections


@pytest.mark.parametrize("code", CODES)
def test_rule_doc_sections(code: str) -> None:
    doc = BY_CODE[code].doc
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Fix"):
        assert re.search(rf"^{re.escape(heading)}\s*$", doc, re.M), f"{code}: missing `{heading}`"
    example = doc.split("## Example", 1)[1]
    assert "Use instead:" in example.split("\n## ", 1)[0], f"{code}: `## Example` needs a `Use instead:`"
    assert "\n" not in BY_CODE[code].summary and BY_CODE[code].summary.endswith((".", ")")), (
        f"{code}: the first docstring line must be a complete one-line summary"
    )


# ------------------------------------------------------------------ executable examples

_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)\s*$", re.M | re.S)

# Examples that cannot be run as written, with the reason.
NOT_EXECUTABLE = {
    "COMPATIBILITY_TOO_LONG": "the example abbreviates a 600-character value in prose",
    "DESCRIPTION_TOO_LONG": "the example abbreviates a 1,100-character description in prose",
    "OVER_CONSTRAINED": "the example abbreviates 16 directives with '(16 or more of these)'",
}
# Examples whose block is not a SKILL.md snippet (a file listing or a size): described, not run.
TEXT_EXAMPLES = {
    "BINARY_CONTENT", "BLOATED_SKILL", "BODY_OVER_BUDGET", "DUPLICATE_SKILL_NAME", "FILE_TOO_LARGE",
    "UNREFERENCED_FILE", "UTF8_BOM",
    "INVISIBLE_UNICODE",  # the characters are invisible: the example names them
    "INTERACTIVE_SCRIPT",  # a bundled script, not SKILL.md
    "NESTED_REFERENCE", "REFERENCE_NO_TOC",  # bundled files: described as a listing
    "SKILL_FILE_NAME",  # a file name, not content: described as a path
}
# Files that exist next to the example skill (the "Use instead" links to them).
EXAMPLE_FILES = {
    "DEAD_LINK": ["scripts/fill_form.py"],
    "ORPHAN_REFERENCE": ["references/form-fields.md"],
    "DEAD_CROSS_REF": ["../chart-builder/SKILL.md"],
    "MISSING_MENTIONED_FILE": ["scripts/fetch_data.py"],
    "LINK_CASE_MISMATCH": ["references/forms.md"],
}


def _first_block(section: str) -> tuple[str, str] | None:
    m = _FENCE.search(section)
    return (m.group("info").strip(), m.group("body")) if m else None


def example_pair(code: str) -> tuple[tuple[str, str], tuple[str, str]] | None:
    doc = BY_CODE[code].doc
    ex = doc.split("## Example", 1)[1].split("\n## ", 1)[0]
    before, after = ex.split("Use instead:", 1)
    bad, good = _first_block(before), _first_block(after)
    if bad is None or good is None:
        return None
    return bad, good


def _run_example(code: str, text: str, root: Path) -> list:
    m = re.search(r"^#\s*in\s+(\S+/SKILL\.md)\s*$", text, re.M)
    rel = m.group(1) if m else "skills/example-skill/SKILL.md"
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    for f in EXAMPLE_FILES.get(code, ()):
        target = path.parent / f
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("# example\n", encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    rule = by_code(code)
    target = DEFAULT_TARGET if rule is None or DEFAULT_TARGET in rule.targets else sorted(rule.targets)[0]
    report = analyze(text, path, config=Config(select=(code,), target=target), workspace_root=root)
    return [f for f in report.findings if f.code in (code, "INTERNAL_ERROR")]


def test_example_kinds_are_declared() -> None:
    """Every rule's example is either a runnable markdown snippet or explicitly listed here."""
    for code in CODES:
        pair = example_pair(code)
        assert pair is not None, f"{code}: no fenced block under `## Example` / `Use instead:`"
        (bad_info, _), (good_info, _) = pair
        runnable = bad_info == "markdown" and good_info == "markdown"
        if code in TEXT_EXAMPLES:
            assert not runnable, f"{code}: example is markdown now; remove it from TEXT_EXAMPLES"
        else:
            assert runnable, f"{code}: example is not ```markdown; make it so or list it in TEXT_EXAMPLES"


def test_not_executable_list_names_real_rules() -> None:
    assert set(NOT_EXECUTABLE) <= set(CODES) and not set(NOT_EXECUTABLE) & set(TEXT_EXAMPLES)


@pytest.mark.parametrize("code", [c for c in CODES if c not in TEXT_EXAMPLES and c not in NOT_EXECUTABLE])
def test_example_triggers_and_use_instead_does_not(code: str, tmp_path: Path) -> None:
    pair = example_pair(code)
    assert pair is not None
    (_, bad), (_, good) = pair
    fired = _run_example(code, bad, tmp_path / "bad")
    assert [f.code for f in fired if f.code == code], f"{code}: the `## Example` does not trigger the rule"
    assert not [f for f in fired if f.code == "INTERNAL_ERROR"], fired
    clean = _run_example(code, good, tmp_path / "good")
    assert not clean, f"{code}: the `Use instead:` example still triggers: {[f.message for f in clean]}"
