"""Rule fixtures: one folder per code, one folder per case (ruff's fixtures, sqlfluff's pass/fail cases).

Layout::

    tests/rules/<CODE>/<case>/SKILL.md      the case folder doubles as the skill folder
    tests/rules/<CODE>/<case>/references/…  bundled files the rule looks at (optional)
    tests/rules/<CODE>/fail-*/expected.txt   `LINE:COL CODE [message substring]`, 1-based, this code only
                                             (`references/x.md:LINE:COL CODE …` for a bundled file's finding)
    tests/rules/<CODE>/<case>/case.toml      optional: `filler_chars = N` (append N filler characters),
                                             `skills_folder = true` (the case's folder lies in a
                                             `skills/` folder), `workspace_files = [...]` (files created at the workspace
                                             root; a SKILL.md among them is also indexed), `[config]` (skillgrade settings for this case)

Each case runs with only its rule enabled (`Config(select=(CODE,))`), on a copy of the code's folder in a
temporary workspace (`workspace_root` = the copy's parent), so paths that leave the skill resolve the
same way on every machine. Rules that need the workspace index get one built from the sibling cases.
`pytest tests/rules --update-expected` rewrites the expected files; review the diff.
"""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from skillgrade.analyzers import fixes
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.findings import Finding
from skillgrade.analyzers.registry import ALL_RULES, by_code
from skillgrade.analyzers.report import Report, analyze, read_skill
from skillgrade.analyzers.workspace import Workspace

HERE = Path(__file__).resolve().parent
CODES = {r.code for r in ALL_RULES}
FILLER_LINE = "Filler text that pads this file to the size under test.\n"
# Fixes must not break the frontmatter they edit.
STRUCTURAL = ("YAML_SYNTAX", "FRONTMATTER_UNTERMINATED", "FRONTMATTER_NOT_MAPPING", "YAML_DUPLICATE_KEY",
              "FRONTMATTER_MISSING", "BINARY_CONTENT")


def _code_dirs() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def _cases() -> list[Path]:
    return [c for d in _code_dirs() for c in sorted(d.iterdir()) if c.is_dir() and c.name.startswith(("pass-", "fail-"))]


CASES = _cases()


# ------------------------------------------------------------------ running a case


@dataclass
class Run:
    code: str
    case: Path  # the case folder inside the temporary workspace
    report: Report
    text: str

    @property
    def own(self) -> list[Finding]:
        return [f for f in self.report.findings if f.code == self.code]

    @property
    def internal(self) -> list[Finding]:
        return [f for f in self.report.findings if f.code == "INTERNAL_ERROR"]


def _options(case: Path) -> dict:
    f = case / "case.toml"
    return tomllib.loads(f.read_text(encoding="utf-8")) if f.is_file() else {}


def workspace_copy(src_case: Path, tmp_path: Path) -> Path:
    """Copy the case's code folder to tmp_path/ws/<CODE>/ (tmp_path/ws/skills/<CODE>/ with `skills_folder =
    true`: the case sits in a skills folder) and return the copied case folder."""
    ws = tmp_path / "ws"
    code_dir = ws / src_case.parent.name
    if _options(src_case).get("skills_folder"):
        code_dir = ws / "skills" / src_case.parent.name
    shutil.copytree(src_case.parent, code_dir, symlinks=True)
    for rel in _options(src_case).get("workspace_files", []):
        p = ws / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists():
            name = p.parent.name if p.name == "SKILL.md" else p.stem
            p.write_text(f"---\nname: {name}\ndescription: Use when testing cross references.\n---\n",
                         encoding="utf-8")
    return code_dir / src_case.name


def manifest(case: Path) -> Path:
    """The case's skill file: SKILL.md, or the case variant (`skill.md`) a SKILL_FILE_NAME case holds. The
    name is taken from the listing, so a case-insensitive disk does not turn `skill.md` into SKILL.md."""
    names = sorted(p.name for p in case.iterdir() if p.name.lower() == "skill.md")
    return case / ("SKILL.md" if "SKILL.md" in names else names[0] if names else "SKILL.md")


def load_text(case: Path) -> tuple[str, bool]:
    text, binary = read_skill(manifest(case))
    filler = int(_options(case).get("filler_chars", 0))
    if filler:
        text += (FILLER_LINE * (filler // len(FILLER_LINE) + 1))[:filler]
    return text, binary


def run_case(case: Path, code: str, *, config: Config | None = None, text: str | None = None) -> Run:
    opts = _options(case)
    binary = False
    if text is None:
        text, binary = load_text(case)
    cfg = config or Config(select=(code,)).merged(opts.get("config", {}))
    rule = by_code(code)
    workspace = None
    if rule is not None and rule.workspace:
        workspace = Workspace(roots=(case.parent,))
        for sib in sorted(case.parent.iterdir()):
            if (sib / "SKILL.md").is_file():
                workspace.add_text(sib / "SKILL.md", read_skill(sib / "SKILL.md")[0])
        for rel in opts.get("workspace_files", []):  # skills the case places elsewhere in the workspace
            p = case.parent.parent / rel
            if p.name == "SKILL.md" and p.is_file():
                workspace.add_text(p, read_skill(p)[0])
    report = analyze(text, manifest(case), config=cfg, workspace=workspace,
                     workspace_root=case.parent.parent, binary=binary)
    return Run(code, case, report, text)


def _fmt(f: Finding) -> str:
    where = f"{f.file}:" if f.file is not None else ""  # a finding on a bundled file names it
    return f"{where}{f.range.start.line + 1}:{f.range.start.character + 1} {f.code}"


def _parse_expected(path: Path) -> list[tuple[str, str]]:
    """[(`LINE:COL CODE`, message substring or '')]."""
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        assert len(parts) >= 2, f"{path}: bad line {raw!r} (want `LINE:COL CODE [message substring]`)"
        out.append((f"{parts[0]} {parts[1]}", parts[2] if len(parts) > 2 else ""))
    return out


# ------------------------------------------------------------------ the cases


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_case(case: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    code = case.parent.name
    run = run_case(workspace_copy(case, tmp_path), code)
    assert not run.internal, [f.message for f in run.internal]
    got = [_fmt(f) for f in run.own]
    if case.name.startswith("pass-"):
        assert not got, f"{code}/{case.name} must not fire: {[(g, f.message) for g, f in zip(got, run.own, strict=True)]}"
        return
    expected_file = case / "expected.txt"
    ws = str(run.case.parent.parent)
    messages = [f.message.replace(ws, "<ws>") for f in run.own]  # no temporary paths in expected.txt
    if request.config.getoption("--update-expected", default=False):
        lines = [f"{g} {m}" for g, m in zip(got, messages, strict=True)]
        expected_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert expected_file.is_file(), f"{case}: fail cases need an expected.txt"
    expected = _parse_expected(expected_file)
    assert got, f"{code}/{case.name} must fire"
    assert got == [e for e, _ in expected], "\n".join(f"{g}  {m}" for g, m in zip(got, messages, strict=True))
    for g, m, (_, needle) in zip(got, messages, expected, strict=True):
        assert needle in m, f"{g}: {m!r} does not contain {needle!r}"


# ------------------------------------------------------------------ fixes


def apply_edits(text: str, edits) -> str:
    """Apply the SKILL.md edits with the engine's own applier (the one `--fix` uses); all must apply."""
    edits = [e for e in edits if e.path is None]
    new, applied = fixes.apply_edits(text, edits)
    assert applied == len(edits), "a fix's edits overlap"
    return new


FIX_CASES = [c for c in CASES if c.name.startswith("fail-") and by_code(c.parent.name)
             and by_code(c.parent.name).fix.value != "none"]


@pytest.mark.parametrize("case", FIX_CASES, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_fix_removes_finding(case: Path, tmp_path: Path) -> None:
    code = case.parent.name
    base = run_case(workspace_copy(case, tmp_path / "base"), code)
    fixable = [i for i, f in enumerate(base.own) if f.fix is not None]
    if not fixable:
        # only rules documented as "sometimes fixable" may offer no fix on a failing case
        assert by_code(code).fix.value == "sometimes", f"{code}/{case.name}: an always-fixable rule offered no fix"
        return
    for i in fixable:
        copy = workspace_copy(case, tmp_path / f"fix{i}")
        before = run_case(copy, code)
        f = before.own[i]
        assert f.fix is not None and (f.fix.edits or f.fix.creates), f"{_fmt(f)}: an empty fix"
        for c in f.fix.creates:
            p = Path(c.path)
            assert copy in p.parents, f"{c.path} is outside the skill"
            if not p.exists():
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(c.content, encoding="utf-8")
        for e in f.fix.edits:
            if e.path is not None:
                p = Path(e.path)
                p.write_text(apply_edits(p.read_text(encoding="utf-8"), [type(e)(e.range, e.new_text)]),
                             encoding="utf-8")
        fixed = apply_edits(before.text, f.fix.edits)
        after = run_case(copy, code, text=fixed)
        assert not after.internal
        assert len(after.own) < len(before.own), (
            f"fix {f.fix.title!r} for {_fmt(f)} did not remove the finding:\n{fixed}"
        )
        every = Config()
        broke = {x.code for x in run_case(copy, code, config=every, text=fixed).report.findings} & set(STRUCTURAL)
        had = {x.code for x in run_case(copy, code, config=every, text=before.text).report.findings}
        assert broke <= had, f"fix {f.fix.title!r} introduced {broke - had}:\n{fixed}"


# ------------------------------------------------------------------ meta


def test_every_code_has_pass_and_fail_cases() -> None:
    have: dict[str, set[str]] = {}
    for c in CASES:
        have.setdefault(c.parent.name, set()).add(c.name.split("-", 1)[0])
    missing = {code: sorted({"pass", "fail"} - have.get(code, set())) for code in CODES}
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, f"rules without fixtures: {missing}"


def test_every_fixture_folder_is_a_registered_code() -> None:
    unknown = [d.name for d in _code_dirs() if d.name not in CODES]
    assert not unknown, f"fixture folders for unknown codes: {unknown}"


def test_case_folders_are_well_formed() -> None:
    for d in _code_dirs():
        for c in d.iterdir():
            if c.is_dir():
                assert c.name.startswith(("pass-", "fail-")), f"{c}: case folders start with pass- or fail-"
                assert manifest(c).is_file(), f"{c}: no SKILL.md"
                assert (c / "expected.txt").is_file() == c.name.startswith("fail-"), (
                    f"{c}: expected.txt belongs to fail cases only"
                )
