"""Packaging: every Python package folder under analyzers/ and server/ ships in the distribution."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_every_package_dir_is_listed() -> None:
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    mapping = cfg["package-dir"]
    found = set()
    for pkg, folder in mapping.items():
        base = REPO / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join((pkg, *rel)) if rel else pkg)
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def test_cli_never_imports_the_server_stack_for_static_work() -> None:
    """Nor hashlib, which loads OpenSSL (~6 ms of every start; package_code's digest uses the builtin _blake2)."""
    import subprocess
    import sys

    code = ("import sys; from skillgrade.server import cli; "
            "cli.main(['score', sys.argv[1], '--no-cache', '--format', 'json']); "
            "bad = [m for m in ('pygls', 'lsprotocol', 'anthropic', 'hashlib') if m in sys.modules]; "
            "print('BAD', bad) if bad else print('OK')")
    p = subprocess.run([sys.executable, "-c", code, str(REPO / "examples" / "skills" / "release-notes")],
                       capture_output=True, text=True, timeout=60)
    assert p.stdout.strip().endswith("OK"), p.stdout[-300:] + p.stderr[-300:]
