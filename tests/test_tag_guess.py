"""CODE_BLOCK_UNTAGGED's guessed tag (its safe fix): only a tag the content surely has, else `text`.

Each "text" case below was guessed `python` or `bash` before (held-out blocks whose authors tagged them
`typescript`, `powershell`, `bash`, `elixir`): `benchmarks/tag_guess.py` measured the guesses against the
authors' own tags over the corpus and held-out sets 6-31: python 63.0% -> 99.4%, bash 95.7% -> 98.5%.
"""

from __future__ import annotations

import time

import pytest

from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.rules.code.code_block_untagged import guess_language


def _guess(content: str) -> str:
    (block,) = parse(f"# T\n\n```\n{content}\n```\n", None).code_blocks
    return guess_language(block)


@pytest.mark.parametrize(("content", "lang"), [
    ("def greet(name: str) -> str:\n    return f'hi {name}'", "python"),
    ("from pathlib import Path\nprint(Path.cwd())", "python"),
    ("import os, sys\nprint(sys.argv)", "python"),
    ("class Config(BaseModel):\n    name: str", "python"),
    ("npm install\nnpm test", "bash"),
    # set 48r: tmux commands after a comment (hermes_tmux_suite tags its other tmux blocks `bash`)
    ("# Task 1: PS commit\ntmux new-window -t agora-code -n ps-commit\ntmux send-keys -t agora-code:ps-commit 'make' Enter",
     "bash"),
    ("#!/usr/bin/env bash\nset -e", "bash"),
    ("# Install the tools\npip install pypdf\n# Run\npython3 fill.py", "bash"),  # comments before the command
    ("# read the config\nimport os\nprint(os.environ)", "python"),
    ("./scripts/setup.sh --force", "bash"),
    # a flow drawn with arrows that starts with a command (set 38r): a diagram; arrows in `#` comments are not
    ("git push origin v1.0.4\n        ↓\nGitHub Actions builds the wheel", "text"),
    ("git diff HEAD~1 HEAD --name-only\n→ find the changed source file", "text"),
    ("node land.mjs start <slug>\n# → ephemeral worktree from origin/main\nnode land.mjs finish <slug>  # → done", "bash"),
    ("ROUTEMARK_HOME=/tmp/rm routemark build", "bash"),
    ("terraform {\n  required_version = \">= 1.5\"\n}", "text"),  # HCL, not the terraform command
    ("# AGENTS.md\n\n## Setup\nuv sync && npm install", "text"),  # markdown headings, not comments
    ('{"name": "x"}', "json"),
    # TypeScript / JavaScript that reads like Python to a first-line test
    ("import { z } from 'zod'\nexport const User = z.object({})", "text"),
    ("import React from 'react';\nclass App extends React.Component {\n}", "text"),
    ("export class UserService {\n  constructor(private repo: Repo) {}\n}", "text"),
    ("export const runtime = 'nodejs'", "text"),
    # a shell script that runs Python, and a PowerShell command line
    ("python3 - <<'PY'\nimport json\nprint(json.dumps({}))\nPY", "bash"),
    ("cat data.json | python3 -c '\nimport json, sys\nprint(json.load(sys.stdin))'", "bash"),
    ("# in your agent\nfrom x import y\nTOKEN=$(python3 -c 'import uuid; print(uuid.uuid4())')", "text"),
    ('python "<skill-dir>\\core.py" `\n  --project-root "<root>"', "text"),
    ("cd C:\\work\\app\n.venv\\Scripts\\activate", "text"),
    # Elixir / Ruby `def … do` is no Python `def …:`
    ("def calc(x, y) do\n  x * y\nend", "text"),
    ("plain words, nothing to run", "text"),
    # set 60: a command, then what it returns, labelled: a prompt for a tool, not a script
    ("node ${ROOT}/scripts/cli.js providers\n반환: reviewStrategy, gemini 상태, meta\nROOT: {ROOT}", "text"),
    # … but such a line inside a quoted string (a commit message, `python -c "…"`) is the command's
    ('git commit -m "fix: x\n\nCo-Authored-By: Devin <d@x.com>"', "bash"),
    ("python3 -c \"\ntry: import x\nexcept: print('none')\n\"", "bash"),
    # sets 66 and 68: PHP and Perl tool chains, run by path or by name
    ("vendor/bin/pint --test\nvendor/bin/pest\ncomposer audit --no-dev", "bash"),
    ("perl -0777 -ne 'print \"$1\\n\"' audit.sexp | sort > pid_E\nawk -F, '{print $20}' trades.csv", "bash"),
    ("php artisan migrate --force", "bash"),
    ("vendor/bin\n  pint", "text"),  # the folder named, not a command run
])
def test_guess(content: str, lang: str) -> None:
    assert _guess(content) == lang


@pytest.mark.parametrize("content", [
    "def a(" + ")->" * 50_000,
    "import " + "a from " * 20_000,
    "x;" * 50_000,
    "class A" + "(" * 100_000,
], ids=["def-arrows", "import-from", "semicolons", "class-parens"])
def test_guess_is_linear_on_hostile_lines(content: str) -> None:
    start = time.perf_counter()
    assert _guess(content) == "text"
    assert time.perf_counter() - start < 0.5
