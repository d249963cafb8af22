"""`skillgrade init CORPUS_DIR [--data-dir DIR]`: index reference skills for Elo (analyzers/corpus_index.py).

Prints one line; a folder that cannot be indexed is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    i = sub.add_parser("init", help="index a folder of reference skills for Elo ranking (certify)")
    i.add_argument("corpus", type=Path, metavar="CORPUS_DIR")
    i.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                   help="where skillgrade keeps its data (default: config `data-dir`, else "
                        "$XDG_DATA_HOME/skillgrade, else ~/.local/share/skillgrade); the index is "
                        "DIR/corpus/index.json")
    i.add_argument("--format", "--output", dest="format", choices=("text", "json"), default="text")
    i.set_defaults(verb_module="cli_init")


def data_dir_of(args: argparse.Namespace) -> Path:
    """--data-dir, else `data-dir` of the [tool.skillgrade.llm] / [llm] config found from the current folder,
    else $XDG_DATA_HOME/skillgrade (raises ConfigError for a config file that cannot be used)."""
    from skillgrade.analyzers.config import config_for
    from skillgrade.analyzers.corpus_index import default_data_dir

    if args.data_dir is not None:
        return Path(args.data_dir).expanduser()
    configured = config_for(Path.cwd()).llm.data_dir
    return Path(configured).expanduser() if configured else default_data_dir(os.environ)


def cmd(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.config import ConfigError
    from skillgrade.analyzers.corpus_index import (
        CorpusIndexError,
        build_index,
        index_path,
        load_index,
        save_index,
        summary,
    )

    try:
        where = index_path(data_dir_of(args))
    except ConfigError as exc:
        print(f"skillgrade: error: {exc}", file=sys.stderr)
        return 2
    try:
        try:
            previous = load_index(where)
        except CorpusIndexError:
            previous = None  # a damaged or old index is rebuilt from scratch
        index, stats = build_index(args.corpus, previous=previous)
        save_index(index, where)
    except CorpusIndexError as exc:  # one line, exit 2 (as UsageError would; no import of cli needed)
        print(f"skillgrade: error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps({"index": str(where), "entries": len(index.entries), "added": stats.added,
                                     "changed": stats.changed, "unchanged": stats.unchanged,
                                     "removed": stats.removed, "failed": stats.failed}, indent=2) + "\n")
    else:
        print(summary(stats, index, where))
        for line in stats.failed:
            print(f"skillgrade: skipped {line}", file=sys.stderr)
    return 0
