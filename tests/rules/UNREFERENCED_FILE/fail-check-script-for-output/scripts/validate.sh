#!/usr/bin/env bash
for f in SKILL.md references/layout.md references/old-layout.md scripts/render.py; do [ -f "$f" ] || exit 1; done
