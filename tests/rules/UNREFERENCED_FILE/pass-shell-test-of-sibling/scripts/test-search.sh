#!/usr/bin/env bash
# Deterministic test for search.sh, with a temporary notes folder.
set -euo pipefail
bash "$(dirname "$0")/search.sh" topic
