"""The keys a skill's shipping package reads with its own code (set 21: taskboy's `profile`, teotl's
`triggers`, connectonion-studio's `category`): that package's format, not unknown fields; a key no code of
the package reads, or a skill with no package around it, is still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.package_code import loader_keys
from skillgrade.analyzers.report import analyze
from skillgrade.analyzers.rules.description.missing_trigger import unread_trigger_key

LOADER = '''import yaml

def load(path):
    text = (path / "SKILL.md").read_text()
    meta = yaml.safe_load(text.split("---")[1])
    return meta.get("priority", 50), meta["triggers"], meta.get("domains", [])
'''


def _skill(root: Path, fm: str) -> Path:
    skill = root / "advisor" / "skills" / "react"
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(f"---\nname: react\n{fm}---\n\n# React\n\nPrefer hooks.\n", encoding="utf-8")
    return skill / "SKILL.md"


def _codes(path: Path, root: Path, *codes: str) -> list[tuple[str, str]]:
    rep = analyze(path.read_text(), path, config=Config(select=codes), workspace_root=root)
    return sorted((f.code, f.message.split(";")[0]) for f in rep.findings)


def _package(root: Path, name: str, source: str, code: str, skill: str) -> Path:
    """A package `name` (a pyproject.toml at `root`) whose source file `source` holds `code`; returns the folder `skill`
    made for a skill (relative to `root`)."""
    loader_keys.cache_clear()
    (root / "pyproject.toml").write_text(f"[project]\nname = '{name}'\n")
    (root / source).parent.mkdir(parents=True, exist_ok=True)
    (root / source).write_text(code)
    (root / skill).mkdir(parents=True)
    return root / skill


FM = "description: React component design, hooks and state.\npriority: 80\ntriggers: [react, useState]\nowner: web\n"
REGISTRY = 'def meta(fm):  # SKILL.md frontmatter\n    return fm.get("triggers", []), fm.get("auth")\n'


def _python_package(root: Path, registry: str) -> None:
    """`advisor`, a Python package whose `registry.py` reads the skills' frontmatter."""
    loader_keys.cache_clear()
    (root / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (root / "advisor").mkdir()
    (root / "advisor" / "registry.py").write_text(registry)


def test_keys_the_package_reads_are_its_format(tmp_path: Path) -> None:
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "loader.py").write_text(LOADER)
    (tmp_path / "advisor" / "cli.py").write_text('print("owner")\n')  # names no SKILL.md: not a loader
    path = _skill(tmp_path, FM)
    assert _codes(path, tmp_path, "UNKNOWN_FIELD", "MISSING_TRIGGER") == [
        ("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


def test_without_package_code_every_key_is_reported(tmp_path: Path) -> None:
    loader_keys.cache_clear()
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "loader.py").write_text(LOADER)  # no manifest: not a package's code
    path = _skill(tmp_path, FM)
    assert _codes(path, tmp_path, "UNKNOWN_FIELD", "MISSING_TRIGGER") == [
        ("MISSING_TRIGGER", "`description` has no trigger clause (e.g. \"Use when …\")"),
        ("UNKNOWN_FIELD", "Unknown frontmatter field `owner`"),
        ("UNKNOWN_FIELD", "Unknown frontmatter field `priority`"),
        ("UNKNOWN_FIELD", "Unknown frontmatter field `triggers`")]


def test_an_import_package_without_a_manifest_is_the_package(tmp_path: Path) -> None:
    """A project run from its source tree (no pyproject.toml, no wheel): the outermost import package that
    holds the skill (`advisor/__init__.py`) is its package, and its loader's keys are its format."""
    loader_keys.cache_clear()
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "__init__.py").write_text("")
    (tmp_path / "advisor" / "loader.py").write_text(LOADER)
    path = _skill(tmp_path, FM)
    assert _codes(path, tmp_path, "UNKNOWN_FIELD", "MISSING_TRIGGER") == [
        ("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


def test_a_trigger_mode_is_no_keyword_list(tmp_path: Path) -> None:
    """Set 19: aegis reads `trigger: user_request` (a mode), and routes on the description: still reported."""
    loader_keys.cache_clear()
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "sync.py").write_text('def mode(fm):  # SKILL.md frontmatter\n    return fm["trigger"]\n')
    path = _skill(tmp_path, "description: React component design, hooks and state.\ntrigger: user_request\n")
    assert [c for c, _m in _codes(path, tmp_path, "UNKNOWN_FIELD", "MISSING_TRIGGER")] == ["MISSING_TRIGGER"]


def test_a_list_of_names_is_not_a_read(tmp_path: Path) -> None:
    """A repository's own validator naming keys as bare strings (skillgrade's repository and its examples:
    `ALLOWED = {"name", "author"}`) reads none of them: `author` is still reported."""
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'lint'\n")
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "lint.py").write_text('ALLOWED = {"name", "description", "author"}  # SKILL.md keys\n')
    path = _skill(tmp_path, "description: React component design. Use when the user writes React.\nauthor: me\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `author`")]


def test_the_result_cache_sees_the_package_code_change(tmp_path: Path) -> None:
    """A cached result that leaned on the package's code is not served once that code reads other keys
    (each run is a new process, as a user's are: the per-process key cache is no help here)."""
    import json
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (tmp_path / "advisor").mkdir()
    loader = tmp_path / "advisor" / "loader.py"
    loader.write_text(LOADER)
    _skill(tmp_path, FM)

    def unknown() -> list[str]:
        p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", str(tmp_path / "advisor"),
                            "--format", "json", "--select", "UNKNOWN_FIELD"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert p.returncode in (0, 1), p.stderr
        return sorted(f["message"].split("`")[1] for f in json.loads(p.stdout)["findings"])  # (one skill: one report)

    assert unknown() == ["owner"]
    assert unknown() == ["owner"]  # served from the cache
    assert (tmp_path / ".skillgrade_cache").is_dir()
    loader.write_text(LOADER.replace('meta.get("priority", 50), ', ""))  # the loader stops reading `priority`
    assert unknown() == ["owner", "priority"]


def test_nested_metadata_the_package_reads_is_its_format(tmp_path: Path) -> None:
    """elements-mcp (set 20) reads `metadata.routing.kind` with its own line parser by the dotted name: the
    nested block is that package's format; a nested key it does not read is still reported."""
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "registry.py").write_text(
        'def kind(fm):  # parsed from SKILL.md\n    return fm.get("routing.kind", [])\n')
    fm = ("description: React component design. Use when the user writes React.\n"
          "metadata:\n  routing:\n    kind: specialized\n  requires:\n    bins: [node]\n")
    path = _skill(tmp_path, fm)
    assert _codes(path, tmp_path, "FIELD_TYPE") == [("FIELD_TYPE", "`metadata.requires` must be text, not a mapping")]
    (tmp_path / "pyproject.toml").unlink()  # no package: both are the spec's string map
    loader_keys.cache_clear()
    assert len(_codes(path, tmp_path, "FIELD_TYPE")) == 2


@pytest.mark.parametrize(("runner", "target"), [
    ("", 'TARGET = "~/.claude/skills"\n'),
    # devops_agent_adapter (set 42p): a dotted module name holding `.claude` is no folder of Claude Code's
    ("from advisor.claude_runner import run_claude_agent\n", 'TARGET = Path.home() / ".claude" / "skills"\n'),
])
def test_a_package_runtime_that_reads_its_own_keys_is_not_claude_code(tmp_path: Path, runner: str, target: str) -> None:
    """teotl (set 21) loads its skills with its own registry, which reads `triggers` and `auth` and hands the
    body over as it is: Claude Code's `$N` substitution does not apply there. A package whose code also names
    `.claude` as a folder (an adapter that copies the skills where Claude Code looks, vibesop in set 20) is still
    read as Claude Code's."""
    _python_package(tmp_path, REGISTRY)
    if runner:
        (tmp_path / "advisor" / "runner.py").write_text(runner)
    fm = "description: Reads files. Use when the user asks about a file.\nauth: none\ntriggers: [file]\n"
    path = _skill(tmp_path, fm)
    path.write_text(path.read_text() + "\n```bash\nawk '{print $1}' data.txt\n```\n")
    assert _codes(path, tmp_path, "ARGUMENT_IN_CODE") == []
    (tmp_path / "advisor" / "sync.py").write_text(target)
    loader_keys.cache_clear()
    assert [c for c, _ in _codes(path, tmp_path, "ARGUMENT_IN_CODE")] == ["ARGUMENT_IN_CODE"]


def test_keys_read_off_the_lines_or_declared_in_a_model_are_read(tmp_path: Path) -> None:
    """Re-sample 2: cop-pilot matches `^updated:` on the frontmatter's text; symphony-code declares `args` as a
    field of its pydantic frontmatter model; set 83p: vibe_tester's scaffolder matches `^adapters` and a `\\s*` before the
    colon (the pattern's own blanks before the colon). All are the package's format; `owner` still is reported."""
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "staleness.py").write_text(
        'import re\n\ndef updated(skill_md):\n    """The `updated:` frontmatter field of a SKILL.md."""\n    m = re.search(r"^updated:\\s*(\\S+)\\s*$", skill_md, re.M)\n'
        '    return m and m.group(1)\n')
    (tmp_path / "advisor" / "frontmatter.py").write_text(
        '"""SKILL.md frontmatter, reduced to the keys the catalog reads."""\nfrom pydantic import BaseModel\n\n\n'
        "class _SkillFrontMatter(BaseModel):\n"
        '    """The keys the catalog reads."""\n\n    name: str\n    description: str = ""\n'
        "    args: list[dict] = []\n\n    def label(self) -> str:\n        return self.name\n\n\nclass Other:\n"
        "    owner: str\n")
    (tmp_path / "advisor" / "scaffold.py").write_text(
        'import re\n\n# which adapters a SKILL.md is for\n_ADAPTERS_RE = re.compile(r"^adapters\\s*:\\s*(.+)$", re.MULTILINE)\n')
    path = _skill(tmp_path, "description: React component design. Use when writing React.\n"
                            "updated: 2026-09-02\nargs: [{name: path}]\nadapters: web, ios\nowner: web\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


def test_javascript_property_reads_of_the_frontmatter_are_read(tmp_path: Path) -> None:
    """Re-sample 4: atris's `commands/skill.js` requires `Array.isArray(fm.tags)` of every SKILL.md."""
    loader_keys.cache_clear()
    (tmp_path / "package.json").write_text('{"name": "advisor"}\n')
    (tmp_path / "advisor").mkdir()
    (tmp_path / "advisor" / "skill.js").write_text(
        "// audits every SKILL.md frontmatter\nexport function audit(fm) {\n  return Array.isArray(fm.tags) && fm?.owner;\n}\n")
    path = _skill(tmp_path, "description: React component design. Use when writing React.\ntags: [react]\n"
                            "team: web\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `team`")]


def test_a_package_runtime_that_asks_for_the_name_keeps_it(tmp_path: Path) -> None:
    """teotl (set 21, judged wrong twice): its registry files each skill under its `name` and its code asks for
    `"spec_kit"`; renaming to `spec-kit` would break the lookup. A name the code never asks for is reported."""
    _python_package(tmp_path, REGISTRY + '\ndef planner(skills):\n    return skills.get("spec_kit")\n')
    fm = "description: Formal specifications. Use when planning.\nauth: none\ntriggers: [spec]\n"
    path = _skill(tmp_path, fm)
    path.write_text(path.read_text().replace("name: react", "name: spec_kit"))
    assert _codes(path, tmp_path, "NAME_FORMAT") == []
    path.write_text(path.read_text().replace("name: spec_kit", "name: other_kit"))
    loader_keys.cache_clear()
    assert [c for c, _ in _codes(path, tmp_path, "NAME_FORMAT")] == ["NAME_FORMAT"]


LINT_MJS = """import { readFileSync } from 'node:fs';
// compares SKILL.md with its translation's frontmatter
for (const key of ['name', 'triggers', 'outputArtifacts']) {
  if (JSON.stringify(frontmatter[key]) !== JSON.stringify(koreanFrontmatter[key])) fail(key);
}
for (const file of ['README.md', 'owner.md']) { console.log(file); }
"""


def test_a_loop_over_a_key_list_indexing_the_frontmatter_reads_those_keys(tmp_path: Path) -> None:
    """set 38b: munlucky's lint-skills.mjs walks ['name', 'triggers', 'outputArtifacts'] and indexes the frontmatter
    with each; a list that indexes nothing (file names) reads nothing, and a key outside the list is reported."""
    loader_keys.cache_clear()
    (tmp_path / "package.json").write_text('{"name": "settings"}\n')
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "lint-skills.mjs").write_text(LINT_MJS)
    path = _skill(tmp_path, "description: Explains a diff. Use when the user asks what a diff does.\n"
                            "outputArtifacts: [report.html]\nowner: web\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]
    assert {"outputArtifacts", "triggers"} <= loader_keys(str(tmp_path))
    assert "owner.md" not in loader_keys(str(tmp_path))  # (a list that indexes nothing)


def _bound_skill(root: Path, binder: str) -> Path:
    loader_keys.cache_clear()
    (root / "pyproject.toml").write_text("[project]\nname = 'chain'\n")
    skills = root / "chain" / "skills"
    for name in ("summarize", "classify"):
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Reads ctx['text'] and writes ctx['{name}'] with a model call.\n---\n\n"
            f"# {name}\n\nOne step.\n", encoding="utf-8")
    (skills / "__init__.py").write_text(binder)
    return skills


# how a package's code binds a skill folder: building an object from it by name, or mapping a slash command to it
_BINDERS = [
    # set 83p: gd_specflow reads each listed skill's SKILL.md and serves it as an MCP prompt under its own description
    # (its docstring talks about `.claude/skills/`, which the code never writes to)
    '"""Skills served as MCP prompts. Developer skills live in .claude/skills/ and are not bundled."""\n'
    'import importlib.resources\n\n_ORDER = [\n    "summarize",\n]\n\n\ndef load():\n'
    '    pkg = importlib.resources.files("chain.skills")\n    out = []\n    for name in _ORDER:\n'
    '        out.append((pkg / name / "SKILL.md").read_text(encoding="utf-8"))\n    return out\n',
    # set 38p: skillchain's `summarize = Skill.from_directory(str(_SKILLS_DIR / "summarize"))`, a pipeline step its
    # callers chain in code
    'from pathlib import Path\n_D = Path(__file__).parent\nsummarize = Skill.from_directory(str(_D / "summarize"))\n',
    # set 46q: genomix's `COMMAND_SKILL_MAP = {"/domains": "structural/protein-domains"}`, which picks the folder by
    # command and hands its body to the model (a route mapped to a handler binds no skill)
    'COMMAND_SKILL_MAP = {\n    "/summarize": "steps/summarize",\n    "/api": "handlers",\n}\n',
    # set 47p: alfred's daemons read `skills_dir / "vault-curator" / "SKILL.md"` and send it as the agent's prompt
    'from pathlib import Path\n\ndef prompt(skills_dir: Path) -> str:\n'
    '    skill_path = skills_dir / "summarize" / "SKILL.md"\n    return skill_path.read_text(encoding="utf-8")\n',
    'import os\n\ndef prompt(root):\n    with open(os.path.join(root, "summarize", "SKILL.md")) as f:\n        return f.read()\n',
]


@pytest.mark.parametrize("source", [
    # an installer that copies `<name>/SKILL.md` hands the skill to an agent that routes it
    'import shutil\n\ndef install(src, dest):\n    text = (src / "summarize" / "SKILL.md").read_text()\n'
    '    shutil.copyfile(src / "summarize" / "SKILL.md", dest)\n',
    # set 46p: hermes_local_memory's candidates are tested and the path registered with Hermes, which routes it
    'def path(root):\n    candidates = [root / "summarize" / "SKILL.md"]\n    for c in candidates:\n'
    '        if c.is_file():\n            return c\n\ndef register(ctx, root):\n'
    '    ctx.register_skill("summarize", path(root))\n    VERSION = (root / "VERSION").read_text()\n',
    # a loop over listed names that copies each SKILL.md: an installer's, for an agent that routes it
    '_ORDER = ["summarize"]\n\ndef install(pkg, dest):\n    for name in _ORDER:\n'
    '        shutil.copy(pkg / name / "SKILL.md", dest / name); open(dest / "log").write(name)\n',
    # set 46r: cli-anything's banner finds `skills/SKILL.md` (the container, not a skill's name)
    'def banner():\n    auto = Path(__file__).parent / "skills" / "SKILL.md"\n    print(auto.read_text()[:80])\n',
])
def test_code_that_does_not_read_a_named_skill_binds_nothing(source: str, tmp_path: Path) -> None:
    skills = _bound_skill(tmp_path, source)
    assert _codes(skills / "summarize" / "SKILL.md", tmp_path, "MISSING_TRIGGER") != []


@pytest.mark.parametrize("binder", _BINDERS)
def test_a_skill_the_package_binds_by_folder_name_is_not_routed(binder: str, tmp_path: Path) -> None:
    """A skill folder the package's code binds is picked in code or by command; no model picks it by its
    description. A skill the code does not bind, and any skill of a package that also installs into `.claude`,
    still get the trigger finding."""
    skills = _bound_skill(tmp_path, binder)
    assert _codes(skills / "summarize" / "SKILL.md", tmp_path, "MISSING_TRIGGER") == []
    assert _codes(skills / "classify" / "SKILL.md", tmp_path, "MISSING_TRIGGER") != []
    other = tmp_path / "other"
    other.mkdir()
    skills = _bound_skill(other, binder + 'TARGET = Path.home() / ".claude" / "skills"\n')
    assert _codes(skills / "summarize" / "SKILL.md", other, "MISSING_TRIGGER") != []


def test_a_helper_that_indexes_with_its_argument_reads_that_key(tmp_path: Path) -> None:
    """set 38p: abstractskill's `_read("requires_mcp")`, where `def _read(key)` does `meta.metadata.get(key)`, reads
    `metadata.requires_mcp` (a list by the package's convention); a helper that indexes nothing reads nothing."""
    _python_package(tmp_path, 'def requires(meta):  # SKILL.md frontmatter\n'
                              '    def _read(key):\n        raw = meta.metadata.get(key)\n        return raw or ()\n'
                              '    def _say(word):\n        print(word)\n'
                              '    _say("owner")\n    return _read("requires_mcp")\n')
    assert "requires_mcp" in loader_keys(str(tmp_path)) and "owner" not in loader_keys(str(tmp_path))


def test_a_helper_given_several_keys_and_a_dotted_line_read_are_reads(tmp_path: Path) -> None:
    """set 43p: clawagents reads `_fm_get(fm, "when-to-use", "when_to_use")` and `_fm_get(fm, "aliases")` through
    `def _fm_get(data, *keys)` (each key in a loop), and `re.search(r"^requires\\.bins:", yaml_content)`: its own
    skills' `when-to-use`, `aliases` and `requires.bins` are its keys. A helper that indexes nothing with its
    parameters reads nothing, and a key its code never passes is still reported."""
    src = ('import re\n\ndef _fm_get(data: Dict[str, Any], *keys: str):  # SKILL.md frontmatter\n    for key in keys:\n'
           '        if key in data:\n            return data[key]\n    return None\n\n'
           'def _log(msg, *parts):\n    print(msg, parts)\n\n'
           'def load(fm, yaml_content):\n    _log("x", "owner")\n'
           '    bins = re.search(r"^requires\\.bins:\\s*(.+)$", yaml_content, re.MULTILINE)\n'
           '    return _fm_get(fm, "when-to-use", "when_to_use"), _fm_get(fm, "aliases"), bins\n')
    _python_package(tmp_path, src)
    keys = loader_keys(str(tmp_path))
    assert {"when-to-use", "when_to_use", "aliases", "requires.bins"} <= keys and "owner" not in keys
    path = _skill(tmp_path, "description: Use when three builds compete.\nwhen-to-use: builds compete\n"
                            "aliases: [bon]\nrequires.bins: git\nowner: web\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


def test_a_go_parsers_yaml_tags_are_its_keys(tmp_path: Path) -> None:
    """set 43c: kai98k/agent-skills-registry parses SKILL.md in Go into a struct whose fields carry `yaml:"tags"`;
    its test fixture's `tags` is that registry's key. A key no field names, and the same key without the Go
    parser, are still reported. (The skill here is kept in `skills/`: under `tests/` it is a test input, whose keys
    are its test's data whatever the parser reads: set 53.)"""
    parser = ('package skill\n\n// Frontmatter of a SKILL.md file.\ntype Frontmatter struct {\n'
              '\tName string `yaml:"name"`\n\tTags []string `yaml:"tags,omitempty"`\n}\n')
    skill = _package(tmp_path, "registry", "internal/skill/parse.go", parser, "skills/valid-skill")
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "go.mod").write_text("module example.com/registry\n\ngo 1.22\n")
    text = "---\nname: valid-skill\ndescription: Use when testing.\ntags: [a]\nowner: me\n---\n\n# X\n"
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    assert _codes(skill / "SKILL.md", tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]
    (tmp_path / "internal" / "skill" / "parse.go").write_text("package skill\n")
    loader_keys.cache_clear()
    assert [m for _, m in _codes(skill / "SKILL.md", tmp_path, "UNKNOWN_FIELD")] == [
        "Unknown frontmatter field `owner`", "Unknown frontmatter field `tags`"]


def test_a_script_the_package_holds_elsewhere_is_supplied(tmp_path: Path) -> None:
    """set 38q: skill_quality_lab's SKILL.md runs `scripts/audit_skill.py`, which its installer writes from the
    package's own `audit_skill.py`; a script of no source's name is still missing, and so is any script of a skill
    with no package around it."""
    _python_package(tmp_path, REGISTRY)
    (tmp_path / "advisor" / "audit_skill.py").write_text("print('audit')\n")
    skill = tmp_path / "advisor" / "skills" / "lab"
    skill.mkdir(parents=True)
    text = ("---\nname: lab\ndescription: Audits skills. Use when the user asks for a skill audit.\n---\n\n# Lab\n\n"
            "Run `python scripts/audit_skill.py` then `python scripts/compare_runs.py`.\n")
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    rep = analyze(text, skill / "SKILL.md", config=Config(select=("MISSING_MENTIONED_FILE",)), workspace_root=tmp_path)
    assert [f.message.split("`")[1] for f in rep.findings] == ["scripts/compare_runs.py"]


def test_agent_the_package_reads_is_its_key(tmp_path: Path) -> None:
    """set 38q: universal-skills' workflow builder reads `agent` (the orchestrator) from its skills; AGENT_WITHOUT_FORK
    is Claude Code's reading of the key. Without such code the finding stays."""
    path = _skill(tmp_path, "description: Runs the release workflow. Use when the user asks to cut a release.\n"
                            "agent: orchestrator\n")
    assert _codes(path, tmp_path, "AGENT_WITHOUT_FORK") != []
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'advisor'\n")
    (tmp_path / "advisor" / "build.py").write_text('def build(fm):  # SKILL.md frontmatter\n'
                                                   '    return fm.get("agent"), fm.get("team_config")\n')
    assert _codes(path, tmp_path, "AGENT_WITHOUT_FORK") == []


@pytest.mark.parametrize("hostile", [
    "for" + " " * 100_000 + "x",  # the loop pattern once split this run of blanks two ways: 35 s for 20,000
    '["a"].forEach(' + " " * 100_000,
    ("load(/" + " " * 1_000) * 300,
    "def f(\n" * 50_000,
    "_read(" * 100_000,
    # the named-SKILL.md and bound-references patterns: many lines of quoted names, and long lines of them
    ('x = "a" / "b" ' * 30 + '"SKILL" read\n') * 5_000,
    '"a"' * 50_000 + ' / "SKILL.md" read',
    ('refs = d / "x"' + " " * 200 + '"references"\n') * 3_000 + "refs.glob('*.md') read",
])
def test_package_sources_are_read_in_linear_time(hostile: str, tmp_path: Path) -> None:
    """A loader source (it names SKILL.md) made of hostile runs is read in well under a second."""
    import time

    _python_package(tmp_path, "# reads SKILL.md frontmatter\n" + hostile)
    start = time.perf_counter()
    loader_keys(str(tmp_path))
    assert time.perf_counter() - start < 1.0


def _served(root: Path, source: str, folder: str, name: str) -> list[tuple[str, str]]:
    loader_keys.cache_clear()
    (root / "pyproject.toml").write_text("[project]\nname = 'finmcp'\n")
    (root / "finmcp").mkdir()
    (root / "finmcp" / "app.py").write_text(source)
    skill = root / "finmcp" / "skills" / folder
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Builds an extension. Use when the user adds a router command.\n---\n\n# X\n",
        encoding="utf-8")
    return _codes(skill / "SKILL.md", root, "NAME_FORMAT")


SERVER = ("from fastmcp.server.providers.skills import SkillsDirectoryProvider\n\n"
          "mcp.add_provider(SkillsDirectoryProvider(roots=[Path(__file__).parent / 'skills']))\n")


def test_underscored_folder_name_served_over_mcp_by_folder(tmp_path: Path) -> None:
    """openbb-mcp-server (set 39q) serves `skills/develop_extension/` as `skill://develop_extension/SKILL.md`."""
    assert _served(tmp_path, SERVER, "develop_extension", "develop_extension") == []


@pytest.mark.parametrize(("source", "folder", "name"), [
    ("print('serves nothing')\n", "develop_extension", "develop_extension"),  # no provider: reported
    (SERVER, "develop_extension", "Develop_Extension"),  # upper case: reported
    (SERVER, "develop-extension", "develop_extension"),  # not the folder's name: reported
])
def test_names_still_reported_beside_a_folder_server(tmp_path: Path, source: str, folder: str, name: str) -> None:
    assert [c for c, _ in _served(tmp_path, source, folder, name)] == ["NAME_FORMAT"]


def _provided(root: Path, entry_points: str | None) -> list[tuple[str, str]]:
    loader_keys.cache_clear()
    dist = root / "arr_mcp-1.0.1.dist-info"
    dist.mkdir()
    if entry_points is not None:
        (dist / "entry_points.txt").write_text(entry_points)
    skill = root / "arr_mcp" / "skills" / "arr-starter"
    skill.mkdir(parents=True)
    (root / "arr_mcp" / "__init__.py").write_text("")
    (skill / "SKILL.md").write_text(
        "---\nname: arr-starter\ndescription: Manages media. Use when the user asks about downloads.\n"
        "tags: [media]\ncategories: [media]\nmodle: sonnet\n---\n\n# X\n", encoding="utf-8")
    return _codes(skill / "SKILL.md", root, "UNKNOWN_FIELD")


def test_skills_handed_to_another_runtime_keep_its_keys(tmp_path: Path) -> None:
    """set 39r: arr-mcp registers `arr_mcp.skills` under `[agent_utilities.skill_providers]`; agent-utilities reads
    top-level `tags` (and `categories`, in the same filter: set 43p, wger-agent). A typo of a known key is still
    reported."""
    eps = "[agent_utilities.skill_providers]\narr-mcp = arr_mcp.skills\n\n[console_scripts]\narr = arr_mcp.cli:main\n"
    assert _provided(tmp_path, eps) == [("UNKNOWN_FIELD", "Unknown frontmatter field `modle`")]


@pytest.mark.parametrize("eps", [None, "[console_scripts]\narr-mcp = arr_mcp.skills\n",
                                 "[agent_utilities.skill_providers]\narr-mcp = other_pkg.skills\n"])
def test_without_a_skill_provider_entry_point_tags_are_unknown(tmp_path: Path, eps: str | None) -> None:
    assert [m for _, m in _provided(tmp_path, eps)] == [
        "Unknown frontmatter field `categories`", "Unknown frontmatter field `modle`", "Unknown frontmatter field `tags`"]


@pytest.mark.parametrize(("router", "sidecar", "fires"), [
    ('RULES = skill_dir / "triggers.yaml"\n', True, False),  # the package's router reads the sidecar
    ('RULES = skill_dir / "triggers.yaml"\n', False, True),  # no sidecar beside this skill
    ('print("route")\n', True, True),  # no source names the sidecar
])
def test_trigger_sidecar_the_package_reads(tmp_path: Path, router: str, sidecar: bool, fires: bool) -> None:
    """set 39s: crucible keeps each skill's trigger patterns in `triggers.yaml`, which its trigger router reads."""
    skill = _package(tmp_path, "crucible", "crucible/trigger_router.py", router, "crucible/skills/backend-engineer")
    if sidecar:
        (skill / "triggers.yaml").write_text("rules:\n  - type: prompt_match\n    pattern: 'backend|api'\n")
    (skill / "SKILL.md").write_text(
        "---\nname: backend-engineer\ndescription: Backend engineering review persona and checks.\n---\n\n# X\n",
        encoding="utf-8")
    assert bool(_codes(skill / "SKILL.md", tmp_path, "MISSING_TRIGGER")) is fires


@pytest.mark.parametrize(("triggers", "fires"), [
    ("triggers: canvas, ui, dashboard\n", False),  # a comma string the package's parser splits
    ("triggers: [canvas, ui]\n", False),  # a list
    ("triggers: canvas\n", True),  # one word: no keyword list
    ("", True),  # none
])
def test_trigger_keywords_the_package_reads(tmp_path: Path, triggers: str, fires: bool) -> None:
    """set 39t: gobby parses `triggers: canvas, ui, …` into its trigger list; such a skill is routed by keyword."""
    _python_package(tmp_path, 'def load(fm):  # SKILL.md frontmatter\n    return fm.get("triggers", "").split(",")\n')
    path = _skill(tmp_path, "description: Renders a canvas for the dashboard.\n" + triggers)
    got = [c for c, _ in _codes(path, tmp_path, "MISSING_TRIGGER", "WEAK_TRIGGER")]
    assert bool(got) is fires, got


@pytest.mark.parametrize(("key", "value", "fires"), [
    ("when", "places, restaurant, cafe, hotel nearby", False),  # agentkai (set 42p) matches queries against it
    ("search_hint", "playwright browser chromium headless form", False),  # mantis (set 42p): space-separated
    ("search_hint", "browser", True),  # one word: no keyword list
    ("trigger-keywords", "[chart, plot, graph]", False),  # mag_agent (set 42q) reads the hyphenated key
])
def test_keyword_keys_the_package_matches(tmp_path: Path, key: str, value: str, fires: bool) -> None:
    _python_package(tmp_path, f'def hint(fm):  # SKILL.md frontmatter\n    return fm.get("{key}", "").split()\n')
    path = _skill(tmp_path, f"description: Renders a canvas for the dashboard.\n{key}: {value}\n")
    got = [c for c, _ in _codes(path, tmp_path, "MISSING_TRIGGER", "WEAK_TRIGGER")]
    assert bool(got) is fires, got
    if not fires:  # the same list with no code reading it: reported, and the key named
        (tmp_path / "advisor" / "registry.py").write_text("def hint(fm):  # SKILL.md frontmatter\n    return None\n")
        loader_keys.cache_clear()
        assert _codes(path, tmp_path, "MISSING_TRIGGER", "WEAK_TRIGGER")
        assert unread_trigger_key({key: value}) == key  # named in the finding's message


SCHEMA = '''import { z } from "zod";
export const ActivationSchema = z.object({
  "claude-code": z.enum(["model", "user-only"]).optional(),
  cursor: z.enum(["auto", "manual"]).optional(),
});
export const SkillFrontmatterSchema = z.object({
  name: z.string().min(1),
  description: z.string().min(1).max(2000),
  domain: z.string().min(1), tags: z.array(z.string()).optional().default([]),
  author: z.string().optional().default(""),
  activation: ActivationSchema.optional(),
});
export const PluginSchema = z.object({ owner: z.string() });
'''


def test_keys_of_a_frontmatter_schema_object_are_read(tmp_path: Path) -> None:
    """Set 40 (manthanmtg/agent-toolkit, 6 judged wrong): the loader validates every SKILL.md against a zod
    `SkillFrontmatterSchema` in `lib/types.ts`, which names no SKILL.md; its top-level keys are the package's format.
    A nested object's key (`cursor`), a key of another schema (`owner`) and a misspelt key are still reported."""
    loader_keys.cache_clear()
    (tmp_path / "package.json").write_text('{"name": "skill-manager"}\n')
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "types.ts").write_text(SCHEMA)
    path = _skill(tmp_path, "description: React component design. Use when writing React.\ndomain: web\n"
                            "tags: [react]\nauthor: me\nactivation: {claude-code: model}\ncursor: auto\nowner: web\n"
                            "autor: me\n")
    assert [c for _, c in _codes(path, tmp_path, "UNKNOWN_FIELD")] == [
        "Unknown frontmatter field `autor`", "Unknown frontmatter field `cursor`",
        "Unknown frontmatter field `owner`"]


def test_frontmatter_schema_objects_are_read_in_linear_time(tmp_path: Path) -> None:
    import time

    loader_keys.cache_clear()
    (tmp_path / "package.json").write_text('{"name": "x"}\n')
    (tmp_path / "types.ts").write_text("const skillFrontmatter = z.object({" * 10_000 + "a: 1," * 20_000)
    start = time.perf_counter()
    loader_keys(str(tmp_path))
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize(("catalog", "fires"), [
    ('def load(path):  # SKILL.md is the procedure only\n    return json.loads((path / "metadata.json").read_text())\n', False),
    ('def load(path):\n    return (path / "SKILL.md").read_text()\n', True),  # nothing names the sidecar
    ('TARGET = ".claude/skills"\ndef load(path):\n    return json.loads((path / "metadata.json").read_text())\n', True),
])
def test_a_sidecar_manifest_the_package_catalog_reads(tmp_path: Path, catalog: str, fires: bool) -> None:
    """Set 40p (simplicio_prompt, 4 judged wrong): its catalog reads each skill's `metadata.json` (id, name,
    description, …) and SKILL.md is the procedure only, without frontmatter. With no code naming the sidecar, or a
    package that also installs the skills into `.claude/skills` (where an agent finds no frontmatter), it is reported."""
    _python_package(tmp_path, catalog)
    skill = tmp_path / "advisor" / "skills" / "policy-brief"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("# Policy brief\n\n## When to use\n\nWhen a brief is asked for.\n")
    (skill / "metadata.json").write_text('{"id": "policy-brief", "name": "Policy brief",\n "description": "Writes briefs."}\n')
    got = _codes(skill / "SKILL.md", tmp_path, "FRONTMATTER_MISSING")
    assert got == ([("FRONTMATTER_MISSING", "No YAML frontmatter: SKILL.md must start with a `---` line")] if fires else [])


def test_a_key_read_through_a_named_constant_is_read(tmp_path: Path) -> None:
    """Set 40p (prompt_linker, judged wrong): `_STAMP_KEY = "x-prompt-linker"`, then `fm.get(_STAMP_KEY)` in the
    installer that stamps each SKILL.md. A constant that is only a message or an allowed-keys entry reads nothing."""
    _python_package(tmp_path, '# stamps SKILL.md frontmatter\n_STAMP_KEY = "x-prompt-linker"\nOWNER = "owner"\n'
                              'def stamp(fm):\n    old = fm.get(_STAMP_KEY)\n    print(OWNER)\n    return old\n')
    path = _skill(tmp_path, "description: React design. Use when writing React.\nx-prompt-linker: {v: 1}\nowner: web\n")
    assert _codes(path, tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


def test_keys_a_validator_matches_on_the_frontmatter_lines_are_read(tmp_path: Path) -> None:
    """Set 40b: SciAgent-toolkit's `lib/sciagent/validate.sh` checks `tags` with `awk '/^  tags:/'` on every SKILL.md,
    and event4u's `validate-lifecycle-metadata.js` requires `/^lifecycle:\\s*(.+)$/m`. Keys no line pattern names
    (`owner`) are still reported; a shell script that names no SKILL.md reads nothing, and a presence check
    (`grep -q "^audience: "`, set 38q's toucan verify-skill.sh, judged right) only requires the key."""
    loader_keys.cache_clear()
    (tmp_path / "package.json").write_text('{"name": "toolkit"}\n')
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "validate.sh").write_text(
        "#!/bin/sh\nfor f in skills/*/SKILL.md; do\n  awk '/^[ \\t]+requires:/ {print}' \"$f\"\n"
        "  grep -E '^  tags:' \"$f\"\ndone\n")
    (tmp_path / "lib" / "other.sh").write_text("grep -E '^owner:' notes.txt\n")
    (tmp_path / "lib" / "verify.sh").write_text('grep -q "^audience: " "$dir/SKILL.md" || echo missing\n')
    (tmp_path / "lib" / "check.js").write_text(
        "// every SKILL.md needs a lifecycle\nconst m = text.match(/^lifecycle:\\s*(.+)$/m);\n")
    path = _skill(tmp_path, "description: React design. Use when writing React.\nlifecycle: stable\nowner: web\n"
                            "metadata:\n  tags: [react]\n  requires: [hooks]\n  audience: [web]\n")
    assert sorted(_codes(path, tmp_path, "UNKNOWN_FIELD", "FIELD_TYPE")) == [
        ("FIELD_TYPE", "`metadata.audience` must be text, not a list"),
        ("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]


@pytest.mark.parametrize(("server", "init", "fires"), [
    ('_MD = files("silkmcp").joinpath("SKILL.md").read_text()\n\n@mcp.resource("silk://guide")\ndef guide():\n'
     '    return _MD\n', True, False),
    ('_MD = files("silkmcp").joinpath("SKILL.md").read_text()\n', True, True),  # read, but served as no resource
    ('_MD = files("silkmcp").joinpath("SKILL.md").read_text()\n\n@mcp.resource("silk://guide")\ndef guide():\n'
     '    return _MD\n', False, True),  # a skill folder of its own, not among the package's modules
])
def test_skill_md_served_as_an_mcp_resource(tmp_path: Path, server: str, init: bool, fires: bool) -> None:
    """Set 40q (django_silk_mcp, judged wrong): the package's `tools/resources.py` reads its own `SKILL.md` and serves
    it as the MCP resource `silk://guide`; the file has no frontmatter because no agent loads it as a skill."""
    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'silkmcp'\n")
    pkg = tmp_path / "silkmcp"
    (pkg / "tools").mkdir(parents=True)
    (pkg / "tools" / "resources.py").write_text(server)
    skill = pkg if init else pkg / "guide"
    skill.mkdir(exist_ok=True)
    if init:
        (pkg / "__init__.py").write_text("")
    (skill / "SKILL.md").write_text("# Silk Profiler MCP\n\n## Request confirmation before analysis\n")
    got = _codes(skill / "SKILL.md", tmp_path, "FRONTMATTER_MISSING")
    assert got == ([("FRONTMATTER_MISSING", "No YAML frontmatter: SKILL.md must start with a `---` line")] if fires else [])


def test_nested_metadata_named_by_leading_words_of_the_package_folder(tmp_path: Path) -> None:
    """Set 40r (dcc_mcp_gaea, judged wrong; set 39s's dcc_mcp_* too): `metadata.dcc-mcp` (three keys) in
    `dcc_mcp_gaea/skills/gaea-terrain/` is the runtime's own block, named by the folder's leading words `dcc_mcp`; a
    block no folder's leading words name (`requires`, `mcp-gaea`) is still reported."""
    skill = tmp_path / "dcc_mcp_gaea" / "skills" / "gaea-terrain"
    skill.mkdir(parents=True)
    text = ("---\nname: gaea-terrain\ndescription: Builds terrain. Use when the user asks for a heightfield.\nmetadata:\n"
            "  dcc-mcp: {dcc: gaea, layer: domain, tools: tools.yaml}\n  requires: {bins: gaea}\n"
            "  mcp-gaea: {x: y}\n---\n\n# Gaea\n")
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    assert _codes(skill / "SKILL.md", tmp_path, "FIELD_TYPE") == [
        ("FIELD_TYPE", "`metadata.mcp-gaea` must be text, not a mapping"),
        ("FIELD_TYPE", "`metadata.requires` must be text, not a mapping")]


@pytest.mark.parametrize(("emitter", "fires"), [
    ('def ensure_frontmatter(skill_name, content):  # writes <name>/SKILL.md\n'
     '    return f"---\\nname: {skill_name}\\ndescription: x\\n---\\n\\n" + content\n', False),
    ('def emit(name, content):  // SKILL.md\n    return `---\\nname: ${name}\\n---\\n` + content\n', False),
    ('def ensure_frontmatter(skill_name, content):  # writes <name>/SKILL.md\n'
     '    return "---\\nname: fixed\\n---\\n" + content\n', True),  # a fixed name: no generator of these skills
    ('def ensure_frontmatter(skill_name, content):\n'
     '    return f"---\\nname: {skill_name}\\n---\\n" + content\n', True),  # writes no SKILL.md
])
def test_sources_of_a_package_that_writes_the_frontmatter(tmp_path: Path, emitter: str, fires: bool) -> None:
    """Set 41p (prompticorn, judged wrong): `builders/skill_emitter.py` writes every skill's SKILL.md with a frontmatter
    block it builds from the skill's name; its sources `skills/<name>/<variant>/SKILL.md` carry none on purpose."""
    skill = _package(tmp_path, "prompticorn", "prompticorn/builders/skill_emitter.py", emitter,
                     "prompticorn/skills/incident-automation/minimal")
    (skill / "SKILL.md").write_text("# Incident automation\n\nPurpose: automate incident response.\n")
    got = _codes(skill / "SKILL.md", tmp_path, "FRONTMATTER_MISSING")
    assert got == ([("FRONTMATTER_MISSING", "No YAML frontmatter: SKILL.md must start with a `---` line")] if fires else [])


@pytest.mark.parametrize(("installer", "link", "fires"), [
    ('FILES = {\n    ".tact/AGENTS.md": kit.joinpath("AGENTS.md").read_bytes(),\n'
     '    ".agents/skills/tact/SKILL.md": kit.joinpath("skills/tact/SKILL.md").read_bytes(),\n}\n',
     "../../../.tact/AGENTS.md", False),
    ('FILES = {\n    ".tact/AGENTS.md": kit.joinpath("AGENTS.md").read_bytes(),\n'
     '    ".agents/skills/tact/SKILL.md": kit.joinpath("skills/tact/SKILL.md").read_bytes(),\n}\n',
     "../../../.tact/GUIDE.md", True),  # a file no source names
    ('FILES = {\n    ".tact/AGENTS.md": kit.joinpath("AGENTS.md").read_bytes(),\n}\n  # SKILL.md: not installed\n',
     "../../../.tact/AGENTS.md", True),  # the code names no install path for this skill
    ('FILES = {\n    ".tact/AGENTS.md": kit.joinpath("AGENTS.md").read_bytes(),\n'
     '    ".agents/skills/other/SKILL.md": kit.joinpath("skills/other/SKILL.md").read_bytes(),\n}\n',
     "../../../.tact/AGENTS.md", True),  # another skill's install path
])
def test_a_link_the_installer_makes_good(tmp_path: Path, installer: str, link: str, fires: bool) -> None:
    """Set 41q (tact_agent_kit, judged wrong): `tact init` writes `.agents/skills/tact/SKILL.md` and `.tact/AGENTS.md`
    into one project, so the skill's `../../../.tact/AGENTS.md` resolves where it is installed."""
    skill = _package(tmp_path, "tact-agent-kit", "tact/cli.py", installer, "tact_resources/skills/tact")
    (skill / "SKILL.md").write_text(f"---\nname: tact\ndescription: Use when working in a TacT project.\n---\n\n"
                                    f"Read the [TacT entry]({link}) first.\n")
    got = _codes(skill / "SKILL.md", tmp_path, "DEAD_LINK")
    assert got == ([("DEAD_LINK", f"Link target `{link}` does not exist")] if fires else [])


CATALOG = ('def load_skill(path):  # SKILL.md\n    meta = json.loads(path.with_name("skill.json").read_text())\n'
           '    return meta.get("triggers"), meta.get("allowed_tools")\n')


@pytest.mark.parametrize(("catalog", "sidecar", "fires"), [
    (CATALOG, '{"triggers": ["performance", "optimize", "slow"]}', False),
    (CATALOG, '{"allowed_tools": ["read_file"]}', True),  # no trigger list in the sidecar
    (CATALOG.replace('meta.get("triggers"), ', ""), '{"triggers": ["performance"]}', True),  # nothing reads it
    (CATALOG.replace("skill.json", "other.json"), '{"triggers": ["performance"]}', True),  # the code names no skill.json
])
def test_trigger_list_in_a_sidecar_the_package_reads(tmp_path: Path, catalog: str, sidecar: str, fires: bool) -> None:
    """Set 41r (agent47, judged wrong): `code_agent/skills.py` reads `triggers` from the `skill.json` beside each
    SKILL.md and loads the skill when a keyword appears in the task: the description decides nothing."""
    skill = _package(tmp_path, "agent47", "code_agent/skills.py", catalog, "code_agent/builtin_skills/perf")
    (skill / "skill.json").write_text(sidecar)
    (skill / "SKILL.md").write_text("---\nname: perf\ndescription: Profiles hot paths and removes waste.\n---\n\n# Perf\n")
    got = _codes(skill / "SKILL.md", tmp_path, "MISSING_TRIGGER")
    assert [c for c, _ in got] == (["MISSING_TRIGGER"] if fires else [])


@pytest.mark.parametrize(("loader", "reported"), [
    # leaper (set 42p): the name from the `# ` title, the description from the `> ` line
    ('def parse(path):  # SKILL.md\n    for line in open(path):\n        if line.startswith("# "):\n'
     '            name = line[2:]\n        elif line.startswith("> "):\n            desc = line[2:]\n', False),
    # legal_draft_agent (set 42p): a fenced ```yaml block opens its SKILL.md files
    ('def meta(path):  # skills/<type>/SKILL.md\n    text = open(path).read()\n    if text.startswith("```yaml"):\n'
     '        return yaml.safe_load(text.split("```")[1][4:])\n', False),
    # the same title reader in a package that also installs its skills into `.claude/skills`
    ('TARGET = "~/.claude/skills"\ndef parse(path):  # SKILL.md\n    for line in open(path):\n'
     '        if line.startswith("# "):\n            name = line[2:]\n', True),
    # a loader that reads SKILL.md but no format of its own
    ('def parse(path):  # SKILL.md\n    return open(path).read()\n', True),
])
def test_a_package_that_reads_skills_in_its_own_format_needs_no_frontmatter(tmp_path: Path, loader: str,
                                                                          reported: bool) -> None:
    skill = _package(tmp_path, "leaper", "leaper/loader.py", loader, "leaper/skills/file-read")
    path = skill / "SKILL.md"
    path.write_text("# file-read\n> Reads a local file and returns its text.\n\n## Triggers\n- read file\n")
    assert bool(_codes(path, tmp_path, "FRONTMATTER_MISSING")) is reported
    if not reported:  # a title with no `> ` description line under it (leaper pro's coach skill) is still reported
        path.write_text("# coach — evening review\n\n## Triggers\n- every night at 21:00\n")
        assert _codes(path, tmp_path, "FRONTMATTER_MISSING")


@pytest.mark.parametrize(("loader", "reported"), [
    # ecode (set 42p): "simple YAML parsing, no PyYAML dependency"
    ('def parse_frontmatter(text):  # SKILL.md\n    meta = {}\n    for line in text.splitlines():\n'
     '        key, _, value = line.partition(":")\n        meta[key.strip()] = value.strip()\n    return meta\n', False),
    # a loader that parses the frontmatter with YAML: `[file]` is a list there
    ('import yaml\ndef parse(text):  # SKILL.md\n    head, _, body = text[4:].partition("---")\n'
     '    return yaml.safe_load(head)\n', True),
])
def test_a_package_that_reads_frontmatter_lines_keeps_a_bracketed_hint_as_text(tmp_path: Path, loader: str,
                                                                              reported: bool) -> None:
    skill = _package(tmp_path, "ecode", "ecode/skills/loader.py", loader, "ecode/skills/builtin/review")
    path = skill / "SKILL.md"
    path.write_text("---\nname: review\ndescription: Reviews a file. Use when the user asks for a review.\n"
                    "argument-hint: [file_or_code]\n---\n\n# Review\n\nRead $ARGUMENTS.\n")
    assert bool(_codes(path, tmp_path, "FIELD_TYPE")) is reported


@pytest.mark.parametrize(("source", "reported"), [
    ('BUILTIN_SKILL_NAMES = ("code_review", "test_writing")\n', False),  # aihi (set 42p): its runtime loads by name
    ('BUILTIN_SKILL_NAMES = ("code_review",)\nSKILLS_DIR = "~/.claude/skills"\n', True),  # installed for Claude Code
    ('BUILTIN_SKILL_NAMES = ("test_writing",)\n', True),  # another skill's name quoted, not this one's
    # agentclaw (set 42p): `.claude` only in a list of folders to skip does not install for Claude Code
    ('SKIP = ("dist", "build", ".next", ".nuxt", "backup", ".claude")\nIMPORTANT = ["code_review"]\n', False),
])
def test_a_snake_case_name_the_package_quotes_is_its_runtime_key(tmp_path: Path, source: str, reported: bool) -> None:
    skill = _package(tmp_path, "aihi", "aihi/skills/__init__.py", source, "aihi/skills/builtin/code_review")
    path = skill / "SKILL.md"
    path.write_text("---\nname: code_review\ndescription: Reviews code. Use when the user asks for a review.\n---\n\n"
                    "# Review\n\nRead the diff.\n")
    assert bool(_codes(path, tmp_path, "NAME_FORMAT")) is reported


def test_the_result_cache_sees_the_quoted_name_go(tmp_path: Path) -> None:
    """A cached result that leaned on a source quoting the skill's name (no NAME_FORMAT) is not served once no
    source quotes it (a new process each run, as a user's)."""
    import json
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    names = tmp_path / "aihi" / "skills" / "__init__.py"
    skill = _package(tmp_path, "aihi", "aihi/skills/__init__.py", 'BUILTIN = ("code_review",)\n',
                     "aihi/skills/builtin/code_review")
    (skill / "SKILL.md").write_text("---\nname: code_review\ndescription: Reviews code. Use when the user asks for a "
                                    "review.\n---\n\n# Review\n\nRead the diff.\n")

    def codes() -> list[str]:
        p = subprocess.run([sys.executable, "-m", "skillgrade.server.cli", "score", str(tmp_path / "aihi"),
                            "--format", "json", "--select", "NAME_FORMAT"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert p.returncode in (0, 1), p.stderr
        return [f["code"] for f in json.loads(p.stdout)["findings"]]

    assert codes() == []
    assert codes() == []  # served from the cache
    names.write_text('BUILTIN = ("test_writing",)\n')
    assert codes() == ["NAME_FORMAT"]


def test_a_name_quoted_only_by_the_package_tests_is_no_runtime_key(tmp_path: Path) -> None:
    """agentclaw's `skill_creator` (set 42p, judged right): only a test module quotes it; nothing loads it by it."""
    skill = _package(tmp_path, "agentclaw", "agentclaw/test/test_prompt.py", 'assert names == ["code_review"]\n',
                     "agentclaw/skills/builtin/code_review")
    (skill / "SKILL.md").write_text("---\nname: code_review\ndescription: Reviews code. Use when the user asks for a "
                                    "review.\n---\n\n# Review\n\nRead the diff.\n")
    assert _codes(skill / "SKILL.md", tmp_path, "NAME_FORMAT")


@pytest.mark.parametrize(("cli", "reported"), [
    # agent_devex (set 42q): its CLI imports `lint`, which imports `_footer` and runs `_worker` by its dotted name;
    # `orphan` nothing imports (astro's unused modules, set 38p, judged right) is still reported
    ("from devex.commands.pr.scripts import lint as lint_script\n", ["orphan.py"]),
    ("from devex.commands.other.scripts import lint as lint_script\n", ["_footer.py", "_worker.py", "lint.py",
                                                                        "orphan.py"]),  # another command's scripts
])
def test_scripts_the_package_imports_are_in_use(tmp_path: Path, cli: str, reported: list[str]) -> None:
    skill = _package(tmp_path, "devex", "devex/cli.py", cli, "devex/commands/pr")
    for init in ("devex", "devex/commands", "devex/commands/pr"):
        (tmp_path / init / "__init__.py").write_text("")
    (skill / "scripts").mkdir()
    (skill / "scripts" / "__init__.py").write_text("")
    (skill / "scripts" / "lint.py").write_text("from devex.commands.pr.scripts import _footer\n"
                                                'WORKER = "devex.commands.pr.scripts._worker"\n')
    (skill / "scripts" / "_footer.py").write_text("FOOTER = 'checked'\n")
    (skill / "scripts" / "_worker.py").write_text("def main():\n    pass\n")
    (skill / "scripts" / "orphan.py").write_text("def unused():\n    pass\n")
    (skill / "SKILL.md").write_text("---\nname: pr\ndescription: Opens pull requests. Use when the user asks to open a "
                                    "PR.\n---\n\n# PR\n\nRun `devex pr open`.\n")
    rep = analyze((skill / "SKILL.md").read_text(), skill / "SKILL.md", config=Config(select=("UNREFERENCED_FILE",)),
                  workspace_root=tmp_path)
    got = sorted(f.message.split("`")[1].rsplit("/", 1)[-1] for f in rep.findings)
    assert got == reported, got


@pytest.mark.parametrize(("loader", "silent"), [
    # set 46s: html-gen's `refs = sorted(target['dir'].glob('references/*.md'))`, appended after SKILL.md
    ("def prompt(d):\n    print((d / 'SKILL.md').read_text())\n    refs = sorted(d.glob('references/*.md'))\n"
     "    for r in refs:\n        print(r.read_text(encoding='utf-8'))\n", True),
    ('def prompt(d):\n    print((d / "SKILL.md").read_text())\n    for r in (d / "references").glob("*.md"):\n'
     '        print(open(r).read())\n', True),
    # schift's `list` command counts the installed references (`len(refs)`) and reads none; a glob of another
    # folder, or one in code that never names SKILL.md (a docs builder), reaches nothing
    ("def list_skills(d):\n    refs = list((d / 'references').glob('*.md')) if (d / 'SKILL.md').exists() else []\n"
     "    print(len(refs))\n", False),
    ("def prompt(d):\n    print((d / 'SKILL.md').read_text())\n    for r in sorted(d.glob('assets/*.md')):\n"
     "        print(r.read_text())\n", False),
    ("def build(d):\n    for r in sorted(d.glob('references/*.md')):\n        print(r.read_text())\n", False),
    # set 47p: alfred's `refs_dir = skills_dir / "vault-curator" / "references"`, then `refs_dir.glob("*.md")`
    ('def load(skills_dir):\n    parts = [(skills_dir / "slide" / "SKILL.md").read_text()]\n'
     '    refs_dir = skills_dir / "slide" / "references"\n    if refs_dir.is_dir():\n'
     '        for ref_file in sorted(refs_dir.glob("*.md")):\n            parts.append(ref_file.read_text())\n', True),
    ('def load(root: Path):\n    text = (root / "SKILL.md").read_text()\n    refs: Path = root.joinpath("references")\n'
     '    for r in refs.rglob("*.md"):\n        text += r.read_text()\n    return text\n', True),
    # a name bound to another folder, or a bound name whose files are only counted
    ('def load(skills_dir):\n    parts = [(skills_dir / "slide" / "SKILL.md").read_text()]\n'
     '    refs_dir = skills_dir / "slide" / "templates"\n    for ref_file in sorted(refs_dir.glob("*.md")):\n'
     '        parts.append(ref_file.read_text())\n', False),
    ('def count(skills_dir):\n    ok = (skills_dir / "SKILL.md").exists()\n    refs_dir = skills_dir / "references"\n'
     '    return ok, len(list(refs_dir.glob("*.md")))\n', False),
])
def test_reference_files_a_loader_globs_are_reached(loader: str, silent: bool, tmp_path: Path) -> None:
    """A SKILL.md loader that gathers every `references/*.md` of a skill and reads them hands them all to the model:
    none is unreferenced. A script in `scripts/` is still reported."""
    skill = _package(tmp_path, "htmlgen", "htmlgen/cli.py", loader, "htmlgen/skills/slide")
    (skill / "SKILL.md").write_text("---\nname: slide\ndescription: Builds slides. Use when the user asks for a deck.\n"
                                    "---\n\n# Slides\n\nWrite the deck.\n")
    (skill / "references").mkdir()
    (skill / "references" / "toggles.md").write_text("# Toggles\n\nHow to test toggles.\n")
    (skill / "scripts").mkdir()
    (skill / "scripts" / "build.py").write_text("print('build')\n")
    got = {m.split("`")[1] for _, m in _codes(skill / "SKILL.md", tmp_path, "UNREFERENCED_FILE")}
    assert got == ({"scripts/build.py"} if silent else {"references/toggles.md", "scripts/build.py"}), got


@pytest.mark.parametrize(("loader", "reported"), [
    # flopro_nexus (set 51p): each SKILL.md read whole, named after its folder, pasted into the system prompt
    ('def load(skills_dir):\n    for path in sorted(skills_dir.rglob("SKILL.md")):\n'
     '        content = path.read_text(encoding="utf-8").strip()\n        name = path.parent.name\n', False),
    # the same loader in a package that also parses a frontmatter somewhere
    ('import yaml\ndef load(skills_dir):\n    for path in sorted(skills_dir.rglob("SKILL.md")):\n'
     '        content = path.read_text(encoding="utf-8")\n        name = path.parent.name\n'
     '        meta = yaml.safe_load(content.split("---")[1])\n', True),
    # read whole, but not named after its folder
    ('def load(path):  # SKILL.md\n    return path.read_text()\n', True),
    # the same loader in a package that installs its skills for Claude Code
    ('TARGET = "~/.claude/skills"\ndef load(skills_dir):\n    for path in skills_dir.rglob("SKILL.md"):\n'
     '        content = path.read_text()\n        name = path.parent.name\n', True),
])
def test_a_package_that_pastes_skills_whole_needs_no_frontmatter(tmp_path: Path, loader: str, reported: bool) -> None:
    skill = _package(tmp_path, "flopro_nexus", "nexus/skills/loader.py", loader, "nexus/skills/calendar")
    path = skill / "SKILL.md"
    path.write_text("# Calendar\n\nRead the user's calendar and list today's meetings.\n")
    assert bool(_codes(path, tmp_path, "FRONTMATTER_MISSING")) is reported


@pytest.mark.parametrize(("loader", "reported"), [
    # emdash_core (set 51p): its loader reads `user_invocable`, and nothing of it names `.claude`
    ('def parse(frontmatter):  # SKILL.md\n    return frontmatter.get("user_invocable", False)\n', False),
    # the same loader in a package that installs its skills into `.claude/skills`: Claude Code reads them too
    ('TARGET = "~/.claude/skills"\ndef parse(frontmatter):  # SKILL.md\n'
     '    return frontmatter.get("user_invocable", False)\n', True),
    # a package whose code does not read the key: a typo
    ('def parse(frontmatter):  # SKILL.md\n    return frontmatter.get("name")\n', True),
])
def test_a_near_miss_the_package_alone_reads_is_its_spelling(tmp_path: Path, loader: str, reported: bool) -> None:
    skill = _package(tmp_path, "emdash_core", "emdash_core/agent/skills.py", loader, "emdash_core/skills/telegram")
    path = skill / "SKILL.md"
    path.write_text("---\nname: telegram\ndescription: Manage the Telegram channel. Use when the user asks to connect "
                    "Telegram.\nuser_invocable: true\n---\n\n# Telegram\n\nConnect it.\n")
    assert bool(_codes(path, tmp_path, "UNKNOWN_FIELD")) is reported


@pytest.mark.parametrize(("reads", "events", "fires"), [
    ('fm.get("events", [])', "events:\n  - lunch.upcoming\n", False),  # tend (set 58p): dispatched on the event
    ('fm.get("events", [])', "", True),  # no events listed
    ('fm.get("tags", [])', "events:\n  - lunch.upcoming\n", True),  # a key the package does not read
])
def test_an_event_list_the_package_reads_dispatches_the_skill(tmp_path: Path, reads: str, events: str,
                                                              fires: bool) -> None:
    """set 58p: tend's `lunch-prep` lists `events: [lunch.upcoming]`, which the package's schedule-watcher reads and
    dispatches the skill on; its description needs no trigger clause."""
    _python_package(tmp_path, f"def load(fm):  # SKILL.md frontmatter\n    return {reads}\n")
    path = _skill(tmp_path, "description: Suggest a meal an hour before a lunch event.\n" + events)
    got = [c for c, _ in _codes(path, tmp_path, "MISSING_TRIGGER", "WEAK_TRIGGER")]
    assert bool(got) is fires, got


@pytest.mark.parametrize(("reads", "always", "fires"), [
    ('meta.get("always")', "always: true\n", False),  # nanobot (set 59p): the body is in every prompt
    ('meta.get("always")', "always: false\n", True),  # not always loaded: chosen by its description
    ('meta.get("tags")', "always: true\n", True),  # a key the package does not read
])
def test_an_always_flag_the_package_reads_needs_no_trigger(tmp_path: Path, reads: str, always: str,
                                                           fires: bool) -> None:
    """set 59p: nanobot's `memory` skill says `always: true`, which the package's skill loader reads
    (`get_always_skills`) to put the body into every system prompt; no description decides when it loads."""
    _python_package(tmp_path, f"def load(meta):  # SKILL.md frontmatter\n    return {reads}\n")
    path = _skill(tmp_path, "description: Two-layer memory system with grep-based recall.\n" + always)
    got = [c for c, _ in _codes(path, tmp_path, "MISSING_TRIGGER", "WEAK_TRIGGER")]
    assert bool(got) is fires, got


@pytest.mark.parametrize(("manifest", "init", "reported"), [
    ("name: github-app\n", 'def register(ctx):\n    ctx.register_skill("react", SKILL_DIR)\n', False),  # set 59p
    ("", 'def register(ctx):\n    ctx.register_skill("react", SKILL_DIR)\n', True),  # no plugin.yaml
    ("name: github-app\n", "def register(ctx):\n    ctx.register_tool('x', run)\n", True),  # registers no skill
])
def test_a_skill_a_hermes_plugin_registers_may_use_hermes_keys(tmp_path: Path, manifest: str, init: str,
                                                               reported: bool) -> None:
    """set 59p: hermes_github_app_plugin's `__init__.py` calls `ctx.register_skill(…)` beside its `plugin.yaml`:
    Hermes loads the skill and reads its top-level `author`."""
    path = _skill(tmp_path, "description: Mint app tokens. Use when the agent needs a GitHub identity.\n"
                            "author: Plugin Contributors\n")
    plugin = tmp_path / "advisor"
    (plugin / "__init__.py").write_text(init)
    if manifest:
        (plugin / "plugin.yaml").write_text(manifest)
    assert bool(_codes(path, tmp_path, "UNKNOWN_FIELD")) is reported


def test_a_dart_parsers_indexed_keys_are_its_keys(tmp_path: Path) -> None:
    """set 67: NovelAgentFlutter's Dart `SkillMarkdownPackageParserService` reads `activation_hints`, `inputs`, … off
    the parsed frontmatter map by index; a `pubspec.yaml` marks the package. A key it does not read, and the same keys
    once the parser is gone, are still reported."""
    parser = ("import 'frontmatter_metadata_reader_service.dart';\n\nclass SkillMarkdownPackageParserService {\n"
              "  Map<String, Object?> parse(Map<String, Object?> rawSkill) => <String, Object?>{\n"
              "    'activation_hints': ValueReaders.stringList(rawSkill['activation_hints']),\n"
              "    'inputs': ValueReaders.stringList(rawSkill['inputs']),\n  };\n}\n")
    skill = _package(tmp_path, "novel", "lib/src/packages/skill_parser.dart", parser, "builtin_packages/skills/control")
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "pubspec.yaml").write_text("name: novel_agent\nenvironment:\n  sdk: ^3.4.0\n")
    text = ("---\nname: control\ndescription: Use when steering the novel.\nactivation_hints: [plot]\ninputs: [outline]\n"
            "owner: me\n---\n\n# X\n")
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    assert _codes(skill / "SKILL.md", tmp_path, "UNKNOWN_FIELD") == [("UNKNOWN_FIELD", "Unknown frontmatter field `owner`")]
    (tmp_path / "lib" / "src" / "packages" / "skill_parser.dart").write_text("class SkillMarkdownPackageParserService {}\n")
    loader_keys.cache_clear()
    assert [m for _, m in _codes(skill / "SKILL.md", tmp_path, "UNKNOWN_FIELD")] == [
        "Unknown frontmatter field `activation_hints`", "Unknown frontmatter field `inputs`",
        "Unknown frontmatter field `owner`"]


def test_a_skill_the_package_invokes_by_name_is_not_routed(tmp_path: Path) -> None:
    """set 78p: Foreman builds its headless prompts with `use_skill('foreman-debug')` and vendors the skills into
    `.claude/skills` for that: its pipeline runs the skill by name, so its description routes nothing. A skill the code
    only lists (`SKILLS = ["classify"]`), or names outside a skill call, still gets the trigger finding; so does a
    call in a test module."""
    from skillgrade.analyzers.package_code import _invoked_names

    _invoked_names.cache_clear()
    skills = _bound_skill(tmp_path, "")
    (tmp_path / "chain" / "prompts.py").write_text(
        'from pathlib import Path\nTARGET = Path.home() / ".claude" / "skills"\nSKILLS = ["summarize", "classify"]\n\n'
        'def use_skill(skill):\n    return f"Use the Skill tool to run the {skill} skill."\n\n'
        'def debug_prompt():\n    return f"Something failed. {use_skill(\'summarize\')} Find the root cause."\n'
        'NOTE = "classify"\n')
    (tmp_path / "chain" / "test_prompts.py").write_text('assert use_skill("classify")\n')
    assert _codes(skills / "summarize" / "SKILL.md", tmp_path, "MISSING_TRIGGER") == []
    assert _codes(skills / "classify" / "SKILL.md", tmp_path, "MISSING_TRIGGER") != []


@pytest.mark.parametrize("hostile", ['"summarize"' * 50_000, "use_skill(" * 50_000 + "'x'", "skill" * 100_000])
def test_skill_calls_are_found_in_linear_time(hostile: str, tmp_path: Path) -> None:
    """`package_invokes` reads the package's skill calls in one linear pass per package (a bounded argument each)."""
    import time

    from skillgrade.analyzers.package_code import _invoked_names

    _invoked_names.cache_clear()
    skills = _bound_skill(tmp_path, "")
    (tmp_path / "chain" / "hostile.py").write_text(hostile)
    t = time.process_time()
    _codes(skills / "summarize" / "SKILL.md", tmp_path, "MISSING_TRIGGER")
    assert time.process_time() - t < 1.0


def test_listed_skill_reads_and_claude_mentions_in_comments_stay_linear(tmp_path: Path) -> None:
    """Hostile sources: 20,000 loops each reading a listed SKILL.md (only the first few lists are looked up) and
    100,000 `.claude` mentions in comments (only the first 50 are looked past) are read in well under a second."""
    import time

    loader_keys.cache_clear()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'chain'\n")
    (tmp_path / "chain").mkdir()
    loops = "".join(f'L{k} = ["a{k}"]\nfor n in L{k}:\n    t = (p / n / "SKILL.md").read_text()\n'
                    for k in range(20_000))
    (tmp_path / "chain" / "loops.py").write_text(loops)
    (tmp_path / "chain" / "notes.py").write_text("# see .claude/skills\n" * 100_000 + "x = 1\n")
    t = time.process_time()
    keys = loader_keys(str(tmp_path))
    assert time.process_time() - t < 1.0
    assert keys is not None


def test_a_package_prompt_that_says_to_load_a_skill_by_name_routes_it(tmp_path: Path) -> None:
    """Set 84p: openpaw's framework prompt says "load the channel-awareness skill via read_file(…)" and openbot's tool
    description "First read the built-in **long-goal** skill": the package's own prompt says when the skill is loaded.
    A skill the prompt does not name still gets the trigger finding."""
    skills = _bound_skill(tmp_path, "")
    (tmp_path / "chain" / "prompts.py").write_text(
        'SECTION = """For log search patterns, load the summarize skill via read_file(\'skills/summarize/SKILL.md\')."""\n'
        'TOOL = "First read the built-in **other** skill, then call this."\n'
        'WEB = ("For the full workflow, load the "\n    "classify skill via read_file(...)")\n')
    (skills / "extract").mkdir()
    (skills / "extract" / "SKILL.md").write_text(
        "---\nname: extract\ndescription: Reads ctx['text'] and writes ctx['extract'] with a model call.\n---\n\n# x\n")
    loader_keys.cache_clear()
    assert _codes(skills / "summarize" / "SKILL.md", tmp_path, "MISSING_TRIGGER") == []
    assert _codes(skills / "classify" / "SKILL.md", tmp_path, "MISSING_TRIGGER") == []  # (split over two literals)
    assert _codes(skills / "extract" / "SKILL.md", tmp_path, "MISSING_TRIGGER") != []
