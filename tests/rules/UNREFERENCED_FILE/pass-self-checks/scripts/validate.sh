#!/usr/bin/env bash
# lint the skill package before publishing
set -e
for f in SKILL.md references/taxonomy.md; do [ -f "$f" ] || { echo "missing $f"; exit 1; }; done
