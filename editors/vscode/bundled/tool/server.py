"""Entry point of the server bundled in the skillgrade VS Code extension.

Run as ``<python> bundled/tool/server.py``. Puts ``bundled/libs`` (pure-Python wheels and the
skillgrade package, see scripts/bundle-python.sh) on ``sys.path`` and runs
``skillgrade.server.cli:main`` as ``skillgrade server``.

SKILLGRADE_IMPORT_STRATEGY:
  useBundled (default)  bundled/libs first: the extension's own copy wins.
  fromEnvironment       bundled/libs last: the interpreter's installed packages win, the bundle
                        only fills what is missing.
"""

import os
import sys

_LIBS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "libs"))


def _setup_path() -> None:
    if not os.path.isdir(_LIBS):
        return
    if os.environ.get("SKILLGRADE_IMPORT_STRATEGY", "useBundled") == "fromEnvironment":
        sys.path.append(_LIBS)
    else:
        sys.path.insert(0, _LIBS)


def run() -> None:
    _setup_path()
    from skillgrade.server.cli import main

    # vscode-languageclient appends --stdio when a transport is set; the server speaks stdio anyway.
    sys.argv = [sys.argv[0], "server", *[a for a in sys.argv[1:] if a != "--stdio"]]
    sys.exit(main())


if __name__ == "__main__":
    run()
