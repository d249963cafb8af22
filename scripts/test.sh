#!/usr/bin/env bash
# Install everything the tests need, then run every test (Python, LSP, Neovim, VS Code).
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
# Editor prerequisites (idempotent): Debian's neovim 0.7.2 + PyPI nvim >= 0.11; node deps, code-server, chromium
if [ -x editors/nvim/ci-setup.sh ]; then bash editors/nvim/ci-setup.sh; fi
if [ -x editors/vscode/ci-setup.sh ]; then bash editors/vscode/ci-setup.sh; fi
python3 -m pytest -q "$@"
