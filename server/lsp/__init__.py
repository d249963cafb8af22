"""skillgrade's language server (pygls 2): `main(argv)` is what `skillgrade server` runs."""

from __future__ import annotations

import argparse
import logging
import os
import sys

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="skillgrade server", description="Run the skillgrade language server.")
    p.add_argument("--stdio", action="store_true", help="use stdin/stdout (the default; accepted and ignored)")
    p.add_argument("--tcp", type=int, metavar="PORT", help="listen on TCP PORT instead of stdio (debugging)")
    p.add_argument("--host", default="127.0.0.1", help="host for --tcp (default 127.0.0.1)")
    p.add_argument("--log-level", default=None, help="log level for stderr (default: $SKILLGRADE_LOG or WARNING)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Start the server; returns the exit status. Logs go to stderr only (stdout is the JSON-RPC channel)."""
    args, unknown = _parser().parse_known_args(list(sys.argv[1:] if argv is None else argv))
    if unknown:
        print(f"skillgrade server: ignoring unknown arguments: {' '.join(unknown)}", file=sys.stderr)
    level = (args.log_level or os.environ.get("SKILLGRADE_LOG") or "WARNING").upper()
    logging.basicConfig(stream=sys.stderr, level="WARNING", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("skillgrade").setLevel(level if level in logging._nameToLevel else "WARNING")
    # pygls logs every JSON-RPC body at INFO: keep it at WARNING unless asked for explicitly
    logging.getLogger("pygls").setLevel(os.environ.get("SKILLGRADE_PYGLS_LOG", "WARNING").upper())

    from . import features  # noqa: F401 - registers the handlers
    from .server import server

    if args.tcp is not None:
        server.start_tcp(args.host, args.tcp)
    else:
        server.start_io(stdin=_LenientStdin(sys.stdin.buffer))
    _exit_past_stuck_analysis()
    return 0


def _exit_past_stuck_analysis() -> None:
    """An analysis stopped by the time limit may still hold its worker thread (code that holds the
    interpreter cannot be interrupted); the interpreter would join that thread at exit and the editor
    would wait for it. Nothing it computes is needed any more, so leave without joining."""
    import threading

    if any(t.name.startswith("skillgrade-analysis") and t.is_alive() for t in threading.enumerate()):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(0)


class _LenientStdin:
    """Message bodies that are not valid UTF-8 are repaired, not dropped.

    A Neovim buffer may hold any bytes and Neovim sends them as they are; pygls would fail to decode
    such a didChange, drop it, and leave its copy of the document out of step with the editor for
    good. Each invalid byte becomes one lone surrogate (json.loads reads them with 'surrogatepass'),
    which counts as one code unit, as Neovim counts an invalid byte; the engine then shows it as U+FFFD.
    """

    def __init__(self, raw) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline()

    def read(self, n: int) -> bytes:
        data = self.raw.read(n)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            data = data.decode("utf-8", "surrogateescape").encode("utf-8", "surrogatepass")
        return data
