"""Certify for the CLI and the language server: the Elo step plugged into `analyzers.certify.run_deep`.

Thin glue over analyzers.layers.elo (run_elo) and analyzers.corpus_index (the index `skillgrade init`
builds); nothing here prints. Without an index, or when it cannot be read, Elo is unmeasured with the
reason, and the badge uses the composite alone (the seed's rule when Elo is not computed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def load_corpus_index(env: Mapping[str, str], data_dir: str | Path | None = None) -> tuple[Any, str | None]:
    """(index or None, why it could not be read): the reference corpus index `skillgrade init` built in
    `data_dir` (the `data-dir` config key; default $XDG_DATA_HOME/skillgrade)."""
    from skillgrade.analyzers.corpus_index import CorpusIndexError, find_index

    try:
        index = find_index(env, Path(data_dir) if data_dir else None)
    except CorpusIndexError as exc:
        return None, str(exc)
    return index, None


def elo_step(index: Any, *, model: str, k: int | None = None, reason: str | None = None) -> Callable:
    """The certify Elo step over `index` (analyzers.certify.EloStep); with no index, Elo unmeasured + why."""

    async def step(report: Any, gateway: Any, progress: Callable[[str, int, int], None] | None = None):
        from skillgrade.analyzers.certify import EloOutcome, no_elo_index
        from skillgrade.analyzers.layers.elo import run_elo

        if index is None and reason is None:
            return await no_elo_index(report, gateway, progress)
        kw = {"k": k} if k else {}
        res = await run_elo(report, gateway, index, model=model, progress=None if progress is None else (
            lambda _label, done, planned: progress("elo", done, planned)), **kw)
        why = res.reason if index is not None else reason
        layer = {"name": "elo", "layer": "elo", **res.to_dict()}
        if why:
            layer["unmeasured"] = why
        return EloOutcome(res.elo, layer, why)

    return step
