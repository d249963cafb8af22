"""Links in bundled markdown files (references/*.md): engine, suppression, score, CLI output, --fix, cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillgrade.analyzers import bundle
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.findings import Fix, Pos, Range, Severity
from skillgrade.analyzers.registry import ALL_RULES
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rule import rule

CLI = [sys.executable, "-m", "skillgrade.server.cli"]
SKILL = """---
name: forms
description: Fills PDF forms. Use when the user asks to fill a PDF form.
---

# Forms

Read [the guide](references/guide.md) and run [the filler](scripts/fill.py).
"""
GUIDE = "# Guide\n\nSee [fields](fields.md) and [the API](api.md).\n"


def make_skill(root: Path, guide: str = GUIDE) -> Path:
    skill = root / "forms"
    (skill / "references").mkdir(parents=True)
    (skill / "scripts").mkdir()
    (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (skill / "references" / "guide.md").write_text(guide, encoding="utf-8")
    (skill / "references" / "fields.md").write_text("# Fields\n", encoding="utf-8")
    (skill / "scripts" / "fill.py").write_text("print('fill')\n", encoding="utf-8")
    return skill


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def findings(skill: Path, text: str | None = None, overrides: dict | None = None, cfg: Config | None = None):
    from skillgrade.analyzers import parse as parse_mod
    from skillgrade.analyzers.engine import run_rules

    doc = parse_mod.parse(text if text is not None else (skill / "SKILL.md").read_text(encoding="utf-8"),
                          skill / "SKILL.md", workspace_root=skill.parent)
    doc.bundle_overrides = overrides or {}
    return run_rules(doc, cfg or Config(select=("DEAD_LINK", "LINK_ESCAPES_WORKSPACE")))[0]


# ------------------------------------------------------------------ engine


def test_dead_link_in_reference_is_on_that_file(tmp_path: Path) -> None:
    skill = make_skill(tmp_path)
    got = [(f.file, f.range.start.line, f.range.start.character, f.message) for f in findings(skill)]
    assert got == [("references/guide.md", 2, 38, "Link target `api.md` does not exist")]


def test_links_resolve_from_the_files_folder(tmp_path: Path) -> None:
    guide = ("# Guide\n\n[up](../scripts/fill.py) [sib](fields.md) [skill](../SKILL.md) "
             "[from root](scripts/fill.py) [wrong up](../fields.md) [deep](../../forms/scripts/nope.py)\n")
    skill = make_skill(tmp_path, guide)
    msgs = [(f.file, f.message) for f in findings(skill)]
    assert msgs == [("references/guide.md", "Link target `../fields.md` does not exist"),
                    ("references/guide.md", "Link target `../../forms/scripts/nope.py` does not exist")]


def test_nested_reference_folder_and_anchors(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "# Guide\n\n## Setup steps\n\n[ok](#setup-steps) [bad](#teardown)\n")
    (skill / "references" / "api").mkdir()
    (skill / "references" / "api" / "v1.md").write_text("[g](../guide.md#x) [n](../nope.md)\n", encoding="utf-8")
    got = sorted((f.file, f.range.start.line, f.message) for f in findings(skill))
    assert got == [("references/api/v1.md", 0, "Link target `../nope.md` does not exist"),
                   ("references/guide.md", 4, "No heading matches the anchor `#teardown`")]


def test_open_buffer_wins_over_disk(tmp_path: Path) -> None:
    skill = make_skill(tmp_path)
    assert findings(skill)
    fixed = GUIDE.replace("api.md", "fields.md")
    assert findings(skill, overrides={"references/guide.md": fixed}) == []
    broken = "# Guide\n\n[new](missing.md)\n"
    got = findings(skill, overrides={"references/guide.md": broken})
    assert [(f.file, f.range.start.line, f.range.start.character) for f in got] == [("references/guide.md", 2, 6)]


def test_inline_disable_is_per_file(tmp_path: Path) -> None:
    guide = "# Guide\n\n<!-- skillgrade-disable-next-line DEAD_LINK -->\n[a](a.md)\n\n[b](b.md)\n"
    skill = make_skill(tmp_path, guide)
    assert [f.range.start.line for f in findings(skill)] == [5]
    # the same comment in SKILL.md does not silence the reference file, and vice versa
    text = SKILL + "\n<!-- skillgrade-disable DEAD_LINK -->\n"
    assert [f.range.start.line for f in findings(skill, text=text)] == [5]
    whole = "<!-- skillgrade-disable DEAD_LINK -->\n" + guide
    assert findings(skill, overrides={"references/guide.md": whole}) == []


def test_per_path_ignores_match_the_bundled_file(tmp_path: Path) -> None:
    skill = make_skill(tmp_path)
    cfg = Config(select=("DEAD_LINK",), per_path_ignores={"references/*.md": ("DEAD_LINK",)})
    assert findings(skill, cfg=cfg) == []


def test_suppression_comments_in_other_text_files() -> None:
    lines = ["x = 1  # skillgrade-disable-next-line HARDCODED_SECRET, OTHER_CODE", "", "key = 'x'",
             "// skillgrade-disable UTF8_BOM */", "# skillgrade-disable-next-line please review", "y"]
    got = bundle._disabled_any(lines)
    assert got == {"HARDCODED_SECRET": {2}, "OTHER_CODE": {2}, "UTF8_BOM": None, "ALL": {5}}


def test_each_bundled_markdown_file_is_parsed_once(tmp_path: Path, monkeypatch) -> None:
    from skillgrade.analyzers import parse as parse_mod

    skill = make_skill(tmp_path)
    calls: list[object] = []
    real = parse_mod.parse

    def counting(text, path=None, **kw):
        calls.append(path)
        return real(text, path, **kw)

    monkeypatch.setattr(parse_mod, "parse", counting)
    doc = real((skill / "SKILL.md").read_text(encoding="utf-8"), skill / "SKILL.md", workspace_root=tmp_path)
    from skillgrade.analyzers.engine import run_rules

    run_rules(doc, Config())
    assert calls == [None]  # guide.md once, whatever the number of rules; fields.md has no link: never parsed


def test_hostile_reference_is_linear(tmp_path: Path) -> None:
    # (the markdown parser's own worst cases, such as runs of backticks, are tests/test_robustness.py's)
    hostile = "[" * 100_000 + "\n\n" + "../" * 100_000 + "\n\n" + "[a](b.md) " * 10_000
    skill = make_skill(tmp_path, hostile)
    t = time.perf_counter()
    got = findings(skill)
    assert time.perf_counter() - t < 3.0
    assert len(got) == 10_000  # every `b.md` is reported, on its own column


@rule("TEST_BUNDLED_ANTI", family="links", severity=Severity.ERROR, anti_pattern=True)
def _bundled_anti(doc, ctx):
    """Test only: an anti-pattern found on a bundled file.

    ## What it does
    Test.
    """
    for bf in bundle.bundled_markdown_files(doc):
        if "TODO" in bf.text:
            line = next(i for i, x in enumerate(bf.lines) if "TODO" in x)
            col = bf.lines[line].index("TODO")
            rng = Range(Pos(line, col), Pos(line, col + 4))
            edit = bundle.bundled_edit(doc, bf.rel, rng, "DONE")
            yield ctx.finding(rng, "TODO left in a reference", Fix.safe("Mark done", edit), file=bf.rel)


def test_bundled_findings_do_not_change_the_score(tmp_path: Path, monkeypatch) -> None:
    from skillgrade.analyzers import report

    skill = make_skill(tmp_path, GUIDE + "\nTODO: finish\n")
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    clean = analyze(text, skill / "SKILL.md", workspace_root=tmp_path, config=Config(select=("NAME_FORMAT",)))
    real = report.run_rules
    monkeypatch.setattr(report, "run_rules", lambda d, c, w: real(d, c, w, rules=(*ALL_RULES, _bundled_anti)))
    rep = analyze(text, skill / "SKILL.md", workspace_root=tmp_path, config=Config(select=("TEST_BUNDLED_ANTI",)))
    f = next(f for f in rep.findings if f.code == "TEST_BUNDLED_ANTI")
    assert f.file == "references/guide.md" and not f.anti_pattern and f.severity is Severity.ERROR
    assert rep.anti_patterns == [] and rep.composite.anti_pattern_count == 0
    assert rep.composite.score == clean.composite.score
    assert rep.has_errors  # still an error: the CLI exits 1 on it


# ------------------------------------------------------------------ CLI


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    make_skill(tmp_path)
    return tmp_path


def test_cli_text_json_sarif_github_markdown_name_the_file(repo: Path) -> None:
    p = run_cli("score", "forms", "--no-cache", cwd=repo)
    assert "forms/references/guide.md:3:39: DEAD_LINK Link target `api.md` does not exist" in p.stdout.splitlines()
    assert p.returncode == 0  # a warning
    assert run_cli("score", "forms", "--no-cache", "--strict", cwd=repo).returncode == 1
    data = json.loads(run_cli("score", "forms", "--no-cache", "--format", "json", cwd=repo).stdout)
    dl = next(f for f in data["findings"] if f["code"] == "DEAD_LINK")
    assert dl["file"] == "references/guide.md" and dl["range"]["start"] == {"line": 2, "character": 38}
    assert all("file" not in f for f in data["findings"] if f["code"] != "DEAD_LINK")
    sarif = json.loads(run_cli("score", "forms", "--no-cache", "--format", "sarif", cwd=repo).stdout)
    res = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "DEAD_LINK")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "forms/references/guide.md"
    assert loc["region"]["startLine"] == 3 and loc["region"]["startColumn"] == 39
    gh = run_cli("score", "forms", "--no-cache", "--format", "github", cwd=repo).stdout
    assert "::warning file=forms/references/guide.md,line=3,col=39,endColumn=44,title=skillgrade DEAD_LINK::" in gh
    md = run_cli("score", "forms", "--no-cache", "--format", "markdown", cwd=repo).stdout
    assert "| `references/guide.md`:3 | `DEAD_LINK` | warning | Link target `api.md` does not exist |" in md


def test_cli_cache_sees_an_edited_reference(repo: Path) -> None:
    first = run_cli("score", "forms", cwd=repo).stdout
    assert "api.md" in first
    guide = repo / "forms" / "references" / "guide.md"
    guide.write_text(GUIDE.replace("api.md", "fld.md"), encoding="utf-8")  # same size: only the stat times differ
    assert guide.stat().st_size == len(GUIDE)
    second = run_cli("score", "forms", cwd=repo).stdout
    assert "api.md" not in second and "fld.md" in second
    guide.write_text(GUIDE.replace("api.md", "fields.md"), encoding="utf-8")
    assert "DEAD_LINK" not in run_cli("score", "forms", cwd=repo).stdout


def test_fix_edits_the_bundled_file(tmp_path: Path, monkeypatch, capsys) -> None:
    from skillgrade.analyzers import report
    from skillgrade.server import cli

    skill = make_skill(tmp_path, "\ufeff# Guide\n\nTODO: finish [fields](fields.md)\n")
    real = report.run_rules
    monkeypatch.setattr(report, "run_rules", lambda d, c, w: real(d, c, w, rules=(*ALL_RULES, _bundled_anti)))
    before = (skill / "SKILL.md").read_bytes()
    rc = cli.main(["score", str(skill), "--fix", "--no-cache", "--select", "TEST_BUNDLED_ANTI"])
    assert rc == 0
    assert (skill / "references" / "guide.md").read_text(encoding="utf-8") == \
        "\ufeff# Guide\n\nDONE: finish [fields](fields.md)\n"
    assert (skill / "SKILL.md").read_bytes() == before
    assert "applied 1 fix" in capsys.readouterr().err


def test_fix_never_writes_outside_the_skill(tmp_path: Path) -> None:
    from skillgrade.analyzers.findings import Edit
    from skillgrade.server.cli import _edit_file

    skill = make_skill(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("TODO\n", encoding="utf-8")
    assert _edit_file(skill, outside, [Edit(Range(Pos(0, 0), Pos(0, 4)), "DONE")]) == 0
    assert outside.read_text(encoding="utf-8") == "TODO\n"


def test_a_file_of_a_skill_linked_on_the_same_sentence_is_not_missing(tmp_path: Path) -> None:
    """'Use the [cloud](../cloud/SKILL.md) skill and its `references/payments.md`' names the cloud skill's
    file (held-out set 6, elizaOS); the same path with no such link, or one the linked skill lacks, is
    reported."""
    (tmp_path / "cloud" / "references").mkdir(parents=True)
    (tmp_path / "cloud" / "SKILL.md").write_text("---\nname: cloud\n---\n# Cloud\n", encoding="utf-8")
    (tmp_path / "cloud" / "references" / "payments.md").write_text("# Payments\n", encoding="utf-8")
    app = tmp_path / "app"
    app.mkdir()
    head = "---\nname: app\ndescription: Builds a paid app. Use when the user wants to charge.\n---\n\n# App\n\n"
    cfg = Config(select=("MISSING_MENTIONED_FILE",))
    wrapped = head + "Use the [`cloud`](../cloud/SKILL.md) skill and its\n`references/payments.md` details.\n"
    assert findings(app, wrapped, cfg=cfg) == []
    other = head + "Use the [`cloud`](../cloud/SKILL.md) skill and its\n`references/refunds.md` details.\n"
    unlinked = head + "Use the cloud skill and its\n`references/payments.md` details.\n"
    for text in (other, unlinked):
        assert [f.code for f in findings(app, text, cfg=cfg)] == ["MISSING_MENTIONED_FILE"]


def test_cross_ref_to_a_skill_installed_side_by_side(tmp_path: Path) -> None:
    """`../workflow/SKILL.md` from profiles/api/ names the skill `workflow` that the package keeps under
    skills/php/: installed side by side it resolves (held-out set 7, reposeed). With no such skill in the
    workspace the link is reported."""
    (tmp_path / ".git").mkdir()
    api = tmp_path / "profiles" / "api"
    api.mkdir(parents=True)
    (api / "SKILL.md").write_text("---\nname: api\ndescription: Builds APIs. Use when building an API.\n---\n"
                                  "# API\n\nFollow [the workflow](../workflow/SKILL.md) and [deploy](../deploy/SKILL.md).\n",
                                  encoding="utf-8")
    wf = tmp_path / "skills" / "php" / "workflow"
    wf.mkdir(parents=True)
    (wf / "SKILL.md").write_text("---\nname: workflow\ndescription: Runs the workflow. Use when asked.\n---\n# W\n",
                                 encoding="utf-8")
    proc = run_cli("score", ".", "--select", "DEAD_CROSS_REF", "--no-cache", cwd=tmp_path)
    lines = [ln for ln in proc.stdout.splitlines() if "DEAD_CROSS_REF" in ln]
    assert lines == ["profiles/api/SKILL.md:7:58: DEAD_CROSS_REF Cross reference `../deploy/SKILL.md` does not "
                     "resolve to a skill or agent"], proc.stdout


def test_a_nested_skills_files_are_reported_once_by_that_skill(tmp_path: Path) -> None:
    """A skill folder holding another skill (`parent/child/SKILL.md`): the child's bundled files are linted
    for the child only, not a second time for the parent (held-out set 7: each invisible character was
    reported twice), and the parent's link to child/SKILL.md does not make the child's links nested
    references of the parent."""
    (tmp_path / ".git").mkdir()
    parent = tmp_path / "parent"
    (parent / "child" / "references").mkdir(parents=True)
    (parent / "SKILL.md").write_text("---\nname: parent\ndescription: Parent. Use when nesting.\n---\n# P\n\n"
                                     "See [child](child/SKILL.md).\n", encoding="utf-8")
    (parent / "child" / "SKILL.md").write_text("---\nname: child\ndescription: Child. Use when nesting.\n---\n"
                                               "# C\n\nSee [guide](references/guide.md).\n", encoding="utf-8")
    (parent / "child" / "references" / "guide.md").write_text("# Guide\n\nzero\u200bwidth, [dead](nope.md)\n",
                                                              encoding="utf-8")
    proc = run_cli("score", ".", "--no-cache", "--select", "INVISIBLE_UNICODE,DEAD_LINK,NESTED_REFERENCE",
                   cwd=tmp_path)
    lines = sorted(ln.split(" [*]")[0].split(": ", 1)[0] + " " + ln.split(": ", 1)[1].split(" ", 1)[0]
                   for ln in proc.stdout.splitlines() if "references/guide.md:" in ln or "NESTED_REFERENCE" in ln)
    assert lines == ["parent/child/references/guide.md:3:20 DEAD_LINK",
                     "parent/child/references/guide.md:3:5 INVISIBLE_UNICODE"], proc.stdout


def test_link_to_a_lowercase_manifest_resolves(tmp_path: Path) -> None:
    """the-mill: `models/README.md` links `../skill.md`, the skill's own manifest spelled in lowercase."""
    skill = tmp_path / "office"
    (skill / "models").mkdir(parents=True)
    text = SKILL.replace("name: forms", "name: office").replace("Read [the guide](references/guide.md) and run "
                                                                "[the filler](scripts/fill.py).", "See [models](models/README.md).")
    (skill / "skill.md").write_text(text, encoding="utf-8")
    (skill / "models" / "README.md").write_text("# Models\n\nBack to [the office](../skill.md); [gone](../gone.md).\n",
                                                encoding="utf-8")
    rep = analyze(text, skill / "skill.md", config=Config(select=("DEAD_LINK",)), workspace_root=tmp_path)
    assert [(f.file, f.message) for f in rep.findings] == [("models/README.md", "Link target `../gone.md` does not exist")]


def test_minified_bundle_reports_only_attack_characters(tmp_path: Path) -> None:
    """Set 20: a built dashboard bundle's zero-width space (a line-break point in a price range) is not
    reported; a bidi override in it still is, and a zero-width space in a hand-written script too."""
    skill = make_skill(tmp_path)
    (skill / "assets").mkdir()
    long_line = "var a=" + "1+" * 1500 + "1;"
    (skill / "assets" / "index-Dy_lyfkJ.js").write_text(
        long_line + 'var p="$10\u200b–$20";var q="x\u202ey";\n', encoding="utf-8")
    (skill / "assets" / "app.min.css").write_text(".a:after{content:'\u200b'}\n", encoding="utf-8")
    (skill / "scripts" / "fill.py").write_text('print("a\u200bb")\n', encoding="utf-8")
    got = sorted((f.file, f.message.split(":")[0]) for f in
                 findings(skill, cfg=Config(select=("INVISIBLE_UNICODE",))))
    assert got == [("assets/index-Dy_lyfkJ.js", "Bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE)"),
                   ("scripts/fill.py", "Invisible character (U+200B ZERO WIDTH SPACE)")]


def test_zero_width_space_escaping_an_inner_fence_is_not_removed_safely(tmp_path: Path) -> None:
    """Set 44q (sefrone): a template wrapped in ```` ```markdown ```` escapes its inner fences with a zero-width space.
    Removing the one before a bare fence would close the wrapper there, so that fix is unsafe; the one before a
    tagged opener (```` ```json ````, which closes nothing) keeps its safe fix."""
    skill = make_skill(tmp_path)
    (skill / "references" / "template.md").write_text(
        "# Template\n\n```markdown\n## Example\n\n\u200b```json\n{}\n\u200b```\n```\n", encoding="utf-8")
    got = sorted((f.range.start.line, f.fix.applicability.value) for f in
                 findings(skill, cfg=Config(select=("INVISIBLE_UNICODE",))) if f.file == "references/template.md")
    assert got == [(5, "safe"), (7, "unsafe")]
