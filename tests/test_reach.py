"""Reachability from SKILL.md (analyzers/reach.py): what counts as reaching a file, determinism, laziness."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.reach import python_imports, reach, reached_paths
from skillgrade.analyzers.report import analyze

FM = "---\nname: {name}\ndescription: Use when testing which bundled files SKILL.md reaches.\n---\n\n"


def make_skill(root: Path, name: str, body: str, files: dict[str, str]) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(FM.format(name=name) + body, encoding="utf-8")
    for rel, text in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return d / "SKILL.md"


def doc_for(tmp_path: Path, body: str, files: dict[str, str]):
    p = make_skill(tmp_path, "reach-skill", body, files)
    return parse(p.read_text(encoding="utf-8"), p, workspace_root=tmp_path)


def unreached(tmp_path: Path, body: str, files: dict[str, str]) -> list[str]:
    doc = doc_for(tmp_path, body, files)
    return sorted(set(doc.files.files) - doc.mentioned)


@pytest.mark.parametrize(("body", "files", "left"), [
    # paths in prose, inline code and code blocks; a full stop after the path
    ("See references/a.md.\n\n```bash\npython scripts/b.py\n```\n",
     {"references/a.md": "", "scripts/b.py": "", "scripts/c.py": ""}, ["scripts/c.py"]),
    # placeholders and roots before the path
    ("Run `{baseDir}/scripts/a.py` and `${CLAUDE_PLUGIN_ROOT}/x/y/scripts/b.sh` and $SKILL_DIR/scripts/c.js\n",
     {"scripts/a.py": "", "scripts/b.sh": "", "scripts/c.js": "", "scripts/d.py": ""}, ["scripts/d.py"]),
    # a folder covers its files; a path cut by a placeholder names its folder
    ("Templates live in `assets/templates/<name>.html`; see `references/`.\n",
     {"assets/templates/a.html": "", "references/x/y.md": "", "scripts/z.py": ""}, ["scripts/z.py"]),
    # a bare word in prose is not a folder mention
    ("Check the schemas first.\n", {"scripts/schemas/a.json": ""}, ["scripts/schemas/a.json"]),
    # python -m, dotted and bare
    ("Run `python -m scripts.tool` and `python -m helper`.\n",
     {"scripts/tool.py": "", "helper.py": "", "scripts/other.py": ""}, ["scripts/other.py"]),
    # a link with a percent-encoded space and one in angle brackets
    ("[a](references/my%20notes.md) and [b](<references/more notes.md>)\n",
     {"references/my notes.md": "", "references/more notes.md": "", "references/c.md": ""}, ["references/c.md"]),
    # a path in angle brackets, as a table cell says it (`<references/billing.md>`); a placeholder inside a
    # path still cuts it (`references/<topic>.md` names the folder only)
    ("| Billing | <references/billing.md> |\n\nSee `scripts/<tool>.py`.\n",
     {"references/billing.md": "", "references/tax.md": "", "scripts/a.py": "", "assets/b.txt": ""}, ["assets/b.txt",
                                                                                                      "references/tax.md"]),
    # `./` and `.//x` in a script are not a mention of its own folder
    ("Run `scripts/a.py`.\n", {"scripts/a.py": "x = root.findall('.//item')\nopen('./')\n", "scripts/b.py": ""},
     ["scripts/b.py"]),
])
def test_what_reaches(tmp_path: Path, body: str, files: dict[str, str], left: list[str]) -> None:
    assert unreached(tmp_path, body, files) == left


def test_python_imports_resolve_from_script_package_and_root(tmp_path: Path) -> None:
    files = {
        "scripts/main.py": "import util\nfrom pkg import thing\nfrom .rel import z\nfrom scripts.shared import (\n  a,\n  b,\n)\n",
        "scripts/util.py": "",
        "scripts/pkg/__init__.py": "",
        "scripts/pkg/thing.py": "",
        "scripts/pkg/other.py": "",  # the package folder is reached as a whole
        "scripts/rel.py": "",
        "scripts/shared.py": "",
        "scripts/unused.py": "",
    }
    assert unreached(tmp_path, "Run `scripts/main.py`.\n", files) == ["scripts/unused.py"]


def test_a_script_names_data_by_quoted_name(tmp_path: Path) -> None:
    files = {
        "scripts/run.py": 'BASE = Path(__file__).parent / "schemas"\nT = open("templates/x.html")\nD = "fields.json"\n',
        "scripts/schemas/a.json": "",
        "scripts/templates/x.html": "",
        "scripts/fields.json": "",
        "scripts/templates/y.html": "",
    }
    assert unreached(tmp_path, "Run `scripts/run.py`.\n", files) == ["scripts/templates/y.html"]


def test_chains_are_followed_and_unreached_files_are_not_read(tmp_path: Path) -> None:
    files = {
        "references/guide.md": "Run `scripts/a.sh`.\n",
        "scripts/a.sh": ". ./lib.sh\n",
        "scripts/lib.sh": "node helpers/x.js\n",
        "scripts/helpers/x.js": "require('./y')\n",
        "scripts/helpers/y.js": "",
        "references/orphan.md": "Run `scripts/z.py`.\n",  # never reached, so it reaches nothing
        "scripts/z.py": "",
    }
    assert unreached(tmp_path, "Read [the guide](references/guide.md).\n", files) == [
        "references/orphan.md", "scripts/z.py"]


def test_python_imports_parser() -> None:
    text = "import a.b as c, d\nfrom ..pkg import (x,\n  y)  # comment\nfrom . import m\n  from q import *\n"
    assert python_imports(text) == [(0, "a.b", []), (0, "d", []), (2, "pkg", ["x", "y"]), (1, "", ["m"]),
                                    (0, "q", [])]


def test_reach_is_lazy(tmp_path: Path) -> None:
    p = make_skill(tmp_path, "lazy-skill", "See `scripts/` and `references/`.\n",
                   {"scripts/a.py": "", "references/b.md": "", "references/c.md": ""})
    text = p.read_text(encoding="utf-8")
    rep = analyze(text, p, config=Config(select=("DEAD_LINK",)), workspace_root=tmp_path)
    assert rep.document is not None and rep.document._reach is None  # a rule that does not ask never pays
    rep = analyze(text, p, config=Config(select=("UNREFERENCED_FILE",)), workspace_root=tmp_path)
    r = rep.document._reach
    assert r is not None and r.read == 1  # SKILL.md alone settled it: no bundled file was opened


def test_hostile_bundled_file_is_linear(tmp_path: Path) -> None:
    line = "a/" * 300_000 + " " + "../" * 100_000 + " " + "x." * 200_000 + "\n"
    doc = doc_for(tmp_path, "Read references/big.md.\n", {"references/big.md": line, "scripts/x.py": ""})
    t0 = time.perf_counter()
    reached_paths(doc)
    assert time.perf_counter() - t0 < 1.0
    assert reach(doc).complete


def _tree(root: Path) -> None:
    """Skills where files are reached only through other reached files, in many shapes."""
    for i in range(6):
        files = {f"references/r{j}.md": f"See `scripts/s{j}.py` and r{j + 1}.md\n" for j in range(8)}
        files.update({f"scripts/s{j}.py": f'import s{j + 1}\nDATA = "d{j}.json"\n' for j in range(8)})
        files.update({f"scripts/d{j}.json": "{}" for j in range(0, 8, 2)})
        files.update({f"scripts/extra{j}.py": "#!/usr/bin/env python3\n" for j in range(3)})  # programs
        files["references/lost.md"] = "scripts/extra0.py\n"
        make_skill(root, f"skill-{i}", f"Start with [r{i % 3}](references/r{i % 3}.md).\n", files)


def test_same_bytes_under_any_hash_seed(tmp_path: Path) -> None:
    _tree(tmp_path)
    env = dict(os.environ)
    outs = []
    for seed in ("0", "1", "2", "3"):
        env["PYTHONHASHSEED"] = seed
        run = subprocess.run(
            [sys.executable, "-m", "skillgrade.server.cli", "score", str(tmp_path), "--format", "json",
             "--no-cache", "--jobs", "1", "--select", "UNREFERENCED_FILE"],
            capture_output=True, env=env, cwd=tmp_path)
        assert run.returncode in (0, 1), run.stderr.decode()
        outs.append(run.stdout)
    assert outs[0] and all(o == outs[0] for o in outs[1:])
    found = [f["message"] for s in json.loads(outs[0])["skills"] for f in s["findings"]]
    # skill-i starts at r(i % 3): extra0-2 and lost.md, plus the r, s and d files before its start; an unreached
    # s{j}.py module (6 in all) or d{j}.json data file (4) is one every sibling skill holds at that path (a
    # host's or a tool's convention: not reported)
    assert len(found) == 2 * (4 + 7 + 9) - 6 - 4


def test_npm_scripts_of_the_skills_package_json_are_used(tmp_path: Path) -> None:
    """npm runs what the skill's own package.json names in `scripts`, `bin` and `main` (a `postinstall`
    hook: held-out set 7, tlon-skill); its `files` list, read too when a script loads package.json for its
    version, says what is published, not what runs."""
    pkg = json.dumps({"name": "x", "bin": {"x": "./bin/x.js"}, "files": ["references/", "scripts/"],
                      "scripts": {"postinstall": "node scripts/postinstall.js"}})
    doc = doc_for(tmp_path, "Run `bin/x.js` to start.\n", {
        "package.json": pkg,
        "bin/x.js": "const v = require('../package.json').version;\n",
        "scripts/postinstall.js": "console.log('installed');\n",
        "scripts/unused.js": "console.log('nobody runs me');\n",
        "references/api.md": "# API\n",
    })
    r = reach(doc).run()
    assert r.is_reached("scripts/postinstall.js") and r.is_reached("bin/x.js")
    assert not r.is_reached("scripts/unused.js") and not r.is_reached("references/api.md")
