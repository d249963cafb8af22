"""The GitHub Action (action.yml, composite): its manifest is consistent, and its run step, taken from
action.yml with the `${{ }}` expressions filled in, runs locally against a fixture checkout with the GITHUB_*
variables a runner sets. The install step (pip install of the action's folder) is not run here: skillgrade is
already importable (tests/test_packaging.py checks the package builds); `uses:` steps are GitHub's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.test_cli import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def test_manifest_is_consistent() -> None:
    assert ACTION["runs"]["using"] == "composite"
    inputs = ACTION["inputs"]
    text = (ROOT / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([a-z0-9-]+)", text))
    assert used == set(inputs), used ^ set(inputs)  # every input used, every use declared
    steps = {s["name"]: s for s in ACTION["runs"]["steps"]}
    run = steps["Run skillgrade"]
    env_inputs = {k[len("INPUT_"):].lower().replace("_", "-") for k in run["env"] if k.startswith("INPUT_")}
    assert env_inputs == set(inputs) - {"python-version"}
    for k, v in run["env"].items():  # each INPUT_X carries inputs.x (no cross-wiring)
        if k.startswith("INPUT_"):
            assert v == "${{ inputs." + k[6:].lower().replace("_", "-") + " }}"
    assert "$ACTION_PATH/scripts/action_run.py" in run["run"] and (ROOT / "scripts" / "action_run.py").is_file()
    assert '"$ACTION_PATH"' in steps["Install skillgrade"]["run"]  # pip install of the action's own checkout
    upload = steps["Upload SARIF to code scanning"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.run.outputs.sarif-file }}"
    assert "inputs.upload-sarif == 'true'" in upload["if"] and "!cancelled()" in upload["if"]
    assert set(ACTION["outputs"]) == {"exit-code", "sarif-file"}
    for s in ACTION["runs"]["steps"]:  # inputs reach shell code only through env (no script injection)
        assert "${{" not in s.get("run", "")


def _fill(value: str, inputs: dict[str, str]) -> str:
    def one(m: re.Match) -> str:
        expr = m.group(1)
        if expr == "github.action_path":
            return str(ROOT)
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        raise AssertionError(f"unexpected expression {expr}")

    return EXPR.sub(one, value)


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    dst = tmp_path / "checkout"
    shutil.copytree(EXAMPLES, dst / "skills")
    (dst / ".git").mkdir()
    return dst


def run_step(checkout: Path, tmp_path: Path, **given: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """Run the action's `Run skillgrade` step as the runner would (bash, step env, GITHUB_* variables)."""
    inputs = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    inputs.update({k.replace("_", "-"): v for k, v in given.items()})
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "run")
    shim = tmp_path / "bin"
    shim.mkdir(exist_ok=True)
    if not (shim / "python").exists():  # `python` as on a runner after setup-python
        (shim / "python").symlink_to(sys.executable)
    out = tmp_path / "github_output"
    out.write_text("")
    env = {**os.environ, **{k: _fill(v, inputs) for k, v in step["env"].items()},
           "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}", "GITHUB_WORKSPACE": str(checkout),
           "GITHUB_OUTPUT": str(out), "GITHUB_ACTIONS": "true", "RUNNER_TEMP": str(tmp_path)}
    p = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return p, outputs


def test_default_prints_annotations_and_fails_on_errors(checkout: Path, tmp_path: Path) -> None:
    p, outputs = run_step(checkout, tmp_path, paths="skills")
    assert p.returncode == 1 and outputs == {"exit-code": "1"}, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "$ skillgrade score skills --format github --color never"
    assert ("::error file=skills/pdf-tools/SKILL.md,line=12,col=26,endColumn=44,title=skillgrade ORPHAN_REFERENCE::"
            "Link target `references/forms.md` does not exist in `references/`") in lines
    assert sum(x.startswith("::") for x in lines) == 10


def test_sarif_upload_writes_the_file_and_sets_the_output(checkout: Path, tmp_path: Path) -> None:
    p, outputs = run_step(checkout, tmp_path, paths="skills/csv-report-builder skills/release-notes",
                          upload_sarif="true", sarif_file="out/skillgrade.sarif")
    assert p.returncode == 0, p.stdout + p.stderr  # release-notes has a warning only
    assert outputs == {"sarif-file": "out/skillgrade.sarif", "exit-code": "0"}
    sarif = json.loads((checkout / "out" / "skillgrade.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["MISSING_TRIGGER"]
    assert "skillgrade: 1 result in out/skillgrade.sarif" in p.stdout
    assert "::" not in p.stdout  # code scanning shows them; no duplicate annotations


def test_baseline_threshold_strict_and_bad_inputs(checkout: Path, tmp_path: Path) -> None:
    w = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "baseline", "write", "skills", "--no-cache"],
                       cwd=checkout, capture_output=True, text=True, timeout=120)
    assert w.returncode == 0, w.stderr
    p, outputs = run_step(checkout, tmp_path, paths="skills", baseline=".skillgrade-baseline.json", strict="true")
    assert p.returncode == 0 and outputs["exit-code"] == "0", p.stdout + p.stderr
    assert "--baseline .skillgrade-baseline.json --strict" in p.stdout.splitlines()[0]
    assert p.stdout.splitlines()[-1] == "skillgrade: 10 findings baselined (not reported)"
    p, outputs = run_step(checkout, tmp_path, paths="skills", baseline=".skillgrade-baseline.json",
                          threshold="90")
    assert p.returncode == 1 and outputs["exit-code"] == "1"  # every skill scores below 90
    p, outputs = run_step(checkout, tmp_path, format="xml")
    assert p.returncode == 2 and outputs == {"exit-code": "2"}
    assert "::error title=skillgrade action::input `format` must be one of" in p.stdout
    p, outputs = run_step(checkout, tmp_path, paths="nope")
    assert p.returncode == 2 and "nope: no such file or directory" in p.stderr


def _command(monkeypatch: pytest.MonkeyPatch, **given: str) -> tuple[list[str], str | None]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("action_run", ROOT / "scripts" / "action_run.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for k in list(os.environ):
        if k.startswith("INPUT_"):
            monkeypatch.delenv(k)
    for k, v in given.items():
        monkeypatch.setenv(f"INPUT_{k.upper()}", v)
    return mod.command()


def test_command_line_from_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _command(monkeypatch) == (["skillgrade", "score", ".", "--format", "github", "--color", "never"], None)
    cmd, sarif = _command(monkeypatch, paths="'my skills' other\nthird", target="claude-code", threshold="70.5",
                          args="--select NAME_FORMAT,NAME_DIR_MISMATCH --jobs 1", format="sarif")
    assert cmd == ["skillgrade", "score", "my skills", "other", "third", "--format", "sarif", "--color", "never",
                   "--threshold", "70.5", "--target", "claude-code", "--select", "NAME_FORMAT,NAME_DIR_MISMATCH",
                   "--jobs", "1"]
    assert sarif == "skillgrade.sarif"
    with pytest.raises(ValueError, match="`threshold` must be a number"):
        _command(monkeypatch, threshold="high")
    with pytest.raises(ValueError, match="`upload-sarif` must be true or false"):
        _command(monkeypatch, upload_sarif="yes")
