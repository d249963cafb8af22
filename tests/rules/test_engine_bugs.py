"""Known engine bugs outside analyzers/rules/ (parse.py, static_layer.py), seen through the rules.

Open bugs are `xfail(strict=True)`: when the engine is fixed the test XPASSes, the suite fails, and the marker
must be removed (the test then guards the fix)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers import static_layer
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.findings import Severity
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rule import RuleContext, rule

FM = "---\nname: {name}\ndescription: Use when filling PDF forms.\n---\n"


def _skill(tmp_path: Path, name: str, body: str, files: dict[str, str]) -> Path:
    d = tmp_path / name
    for rel, content in files.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(content, encoding="utf-8")
    d.mkdir(exist_ok=True)
    (d / "SKILL.md").write_text(FM.format(name=name) + body, encoding="utf-8")
    return d / "SKILL.md"


def _findings(path: Path, code: str) -> list:
    rep = analyze(path.read_text(encoding="utf-8"), path, config=Config(select=(code,)),
                  workspace_root=path.parent.parent)
    return [f for f in rep.findings if f.code == code]


def test_yaml_error_past_the_last_line_keeps_a_useful_column() -> None:
    rep = analyze("---\nname: x\ndescription: Use when filling PDF forms.\nallowed-tools: [Read, Bash\n---\n",
                  None, config=Config(select=("YAML_SYNTAX",)))
    (f,) = rep.findings
    assert f.range.start.line == 3 and f.range.start.character in (15, 26)


def test_folder_mention_covers_its_files(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "folder-mention", "\nThe `scripts/` folder holds the tools; references/ holds specs.\n",
                   {"scripts/tool.py": "print(1)\n", "references/spec.md": "# Spec\n"})
    assert _findings(skill, "UNREFERENCED_FILE") == []


def test_package_style_import_reaches_sibling_module(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "package-import", "\nRun `python -m scripts.tool`.\n",
                   {"scripts/tool.py": "from scripts import helper\n\nhelper.run()\n",
                    "scripts/helper.py": "def run():\n    return 1\n"})
    assert _findings(skill, "UNREFERENCED_FILE") == []


def test_reference_style_link_reported_once(tmp_path: Path) -> None:
    """Fixed in b91384e: the usage no longer gets a whole-line range of its own."""
    skill = _skill(tmp_path, "ref-style", "\nSee [the guide][g] first.\n\n[g]: references/guide.md\n", {})
    assert len(_findings(skill, "ORPHAN_REFERENCE")) == 1


def test_static_layer_survives_a_failing_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(doc):
        raise RuntimeError("helper bug")
        yield  # pragma: no cover

    monkeypatch.setattr(static_layer, "invalid_blocks", broken)
    analyze(FM.format(name="x") + "\n```json\n{}\n```\n", None)


def test_failing_rule_becomes_internal_error() -> None:
    """The documented INTERNAL_ERROR path (docs/rules/INTERNAL_ERROR.md) works for rules."""
    from skillgrade.analyzers.engine import run_rules

    @rule("EXPLODING_RULE", family="test", severity=Severity.WARNING)
    def exploding(doc, ctx: RuleContext):
        """Always fails.

        ## What it does
        Raises.
        """
        raise ValueError("boom")
        yield  # pragma: no cover

    findings, _ = run_rules(parse(FM.format(name="x")), Config(), None, rules=(exploding,))
    (f,) = findings
    assert f.code == "INTERNAL_ERROR" and f.severity == Severity.ERROR
    assert "EXPLODING_RULE" in f.message and "boom" in f.message
