#!/usr/bin/env bash
set -euo pipefail
echo "[1/2] Contract tests (SKILL.md structure + reference files)"
python3 -m pytest tests/test_skill_contract.py -v
