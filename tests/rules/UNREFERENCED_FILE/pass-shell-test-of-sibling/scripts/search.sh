#!/usr/bin/env bash
set -euo pipefail
grep -rn "$1" ~/notes
