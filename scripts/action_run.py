#!/usr/bin/env python3
"""The run step of the skillgrade GitHub Action (action.yml): inputs from INPUT_* variables, results to
$GITHUB_OUTPUT.

- format `github` (the default): annotations on the pull request's diff, and each skill's score line in the log;
- upload-sarif `true` (or format `sarif`): SARIF written to `sarif-file` for github/codeql-action/upload-sarif,
  and a one-line count in the log;
- any other format (text, json, markdown, gitlab): printed to the log.

Outputs: `exit-code` (skillgrade's: 0 pass, 1 findings/threshold, 2 usage error) and `sarif-file` (when written).
This script exits with skillgrade's exit code; the SARIF upload step runs unless the job was cancelled.
Run it locally: INPUT_PATHS=skills GITHUB_OUTPUT=/tmp/out python3 scripts/action_run.py
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

FORMATS = ("github", "sarif", "text", "json", "markdown", "gitlab")


def _input(name: str, default: str = "") -> str:
    return os.environ.get(f"INPUT_{name.upper().replace('-', '_')}", default).strip()


def _flag(name: str) -> bool:
    value = _input(name, "false").lower()
    if value not in ("true", "false", ""):
        raise ValueError(f"input `{name}` must be true or false, got {value!r}")
    return value == "true"


def command() -> tuple[list[str], str | None]:
    """(the skillgrade command line, the SARIF file it writes to or None)."""
    paths = shlex.split(_input("paths", ".")) or ["."]
    fmt = _input("format", "github") or "github"
    if fmt not in FORMATS:
        raise ValueError(f"input `format` must be one of {', '.join(FORMATS)}, got {fmt!r}")
    sarif = _flag("upload-sarif") or fmt == "sarif"
    cmd = ["skillgrade", "score", *paths, "--format", "sarif" if sarif else fmt, "--color", "never"]
    threshold = _input("threshold")
    if threshold:
        try:
            float(threshold)
        except ValueError:
            raise ValueError(f"input `threshold` must be a number, got {threshold!r}") from None
        cmd += ["--threshold", threshold]
    if _input("target"):
        cmd += ["--target", _input("target")]
    if _input("baseline"):
        cmd += ["--baseline", _input("baseline")]
    if _flag("strict"):
        cmd.append("--strict")
    cmd += shlex.split(_input("args"))
    return cmd, (_input("sarif-file", "skillgrade.sarif") or "skillgrade.sarif") if sarif else None


def _set_output(name: str, value: str) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{name}={value}\n")


def main() -> int:
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace:
        os.chdir(workspace)
    try:
        cmd, sarif = command()
    except ValueError as exc:
        print(f"::error title=skillgrade action::{exc}")
        _set_output("exit-code", "2")
        return 2
    print("$ " + shlex.join(cmd), flush=True)
    cmd = [sys.executable, "-m", "skillgrade.server.cli", *cmd[1:]]  # the python the action installed into
    if sarif is None:
        code = subprocess.run(cmd).returncode
    else:
        os.makedirs(os.path.dirname(os.path.abspath(sarif)), exist_ok=True)
        with open(sarif, "w", encoding="utf-8") as out:
            code = subprocess.run(cmd, stdout=out).returncode
        try:
            with open(sarif, encoding="utf-8") as fh:
                run = json.load(fh)["runs"][0]
            n = len(run["results"])
            hidden = run.get("properties", {}).get("baselined")
            extra = f", {hidden} baselined" if hidden else ""
            print(f"skillgrade: {n} result{'s' if n != 1 else ''} in {sarif}{extra}")
            _set_output("sarif-file", sarif)
        except (OSError, ValueError, KeyError, IndexError):
            print(f"skillgrade: no SARIF written to {sarif} (exit code {code})")
    _set_output("exit-code", str(code))
    return code


if __name__ == "__main__":
    sys.exit(main())
