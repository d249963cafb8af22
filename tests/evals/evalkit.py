"""Helpers for the execution-evaluation tests: skills, suites, a scripted fake and the CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakeapi import FakeAPI, Scripted, json_reply, text_reply

TEST_KEY = "sk-ant-test-SECRET-0123456789abcdef"

SKILL_MD = """---
name: csv-helper
description: Cleans CSV files and reports their columns. Use when the user asks to clean or summarise a CSV.
---

# CSV helper

Always name the delimiter, the header row and the encoding in the answer.
"""


def make_skill(root: Path, name: str = "csv-helper", text: str = SKILL_MD) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(text, encoding="utf-8")
    return d


def write_suite(folder: Path, yaml_text: str, fixtures: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "task_suite.yaml"
    path.write_text(textwrap.dedent(yaml_text).lstrip(), encoding="utf-8")
    for rel, text in (fixtures or {}).items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def contains_suite(n: int, skill_id: str = "csv-helper") -> str:
    """n contains tasks: task-i asks 'question i' and expects 'kw-i'."""
    lines = [f'skill_id: "{skill_id}"', 'version: "1.0"', "tasks:"]
    for i in range(1, n + 1):
        lines += [f'  - id: "task-{i}"', f'    prompt: "question {i}"', "    judge:", '      type: "contains"',
                  f'      expected: ["kw-{i}"]', "    timeout_seconds: 30"]
    return "\n".join(lines) + "\n"


def is_candidate(body: dict[str, Any]) -> bool:
    """A candidate attempt: the SKILL.md arrives as a tool_result."""
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return True
    return False


def is_judge(body: dict[str, Any]) -> bool:
    system = json.dumps(body.get("system") or "")
    return "<rubric>" in system or "<criterion>" in system


def prompt_of(body: dict[str, Any]) -> str:
    first = (body.get("messages") or [{}])[0]
    c = first.get("content")
    return c if isinstance(c, str) else json.dumps(c)


def answering(candidate: set[int], baseline: set[int]) -> Callable[[dict[str, Any]], Scripted | None]:
    """Task i's answer contains kw-i for the candidate when i in `candidate`, for the baseline when in `baseline`."""
    def respond(body: dict[str, Any]) -> Scripted | None:
        i = int(prompt_of(body).rsplit(" ", 1)[-1])
        ok = i in (candidate if is_candidate(body) else baseline)
        return text_reply(f"Answer {i}: " + (f"use kw-{i}." if ok else "something else."))
    return respond


class Counter:
    """Thread-safe per-key call counter (the fake answers from its handler threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.counts: dict[str, int] = {}

    def next(self, key: str) -> int:
        with self._lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]


def cli(fake: FakeAPI | None, cwd: Path, *args: str, key: str | None = TEST_KEY,
        timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["XDG_CACHE_HOME"] = str(cwd / "xdg-cache")
    env["XDG_STATE_HOME"] = str(cwd / "xdg-state")
    env["ANTHROPIC_CONFIG_DIR"] = "/nonexistent-anthropic-config"
    if fake is not None:
        env["ANTHROPIC_BASE_URL"] = fake.url
    if key:
        env["ANTHROPIC_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "skillgrade.server.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


__all__ = ["FakeAPI", "json_reply", "text_reply"]
