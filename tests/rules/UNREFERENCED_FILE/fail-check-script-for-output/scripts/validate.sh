#!/usr/bin/env bash
for f in SKILL.md references/layout.md references/old-layout.md; do [ -f "$f" ] || exit 1; done
