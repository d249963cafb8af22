"""Shared bits of the task-suite language-server tests: a suite with known errors and a valid one."""

from __future__ import annotations

BAD_SUITE = """skill_id: csv-helper
version: "2.0"
tasks:
  - id: a
    prompt: ""
    judge: {type: regex}
  - id: b
    prompt: p
    judge: {type: pytest, test_file: "../secret.py"}
"""
GOOD_SUITE = """skill_id: csv-helper
version: "1.0"
tasks:
  - {id: t1, prompt: "question 1", judge: {type: contains, expected: [kw-1]}}
  - {id: t2, prompt: "question 2", judge: {type: contains, expected: [kw-2]}}
"""
# (line, character) of each error of BAD_SUITE, 0-based as LSP positions
BAD_AT = [(1, 9), (4, 12), (5, 18), (8, 37)]
