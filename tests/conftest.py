"""Shared test fixtures: paths to the corpus and the examples."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
def _find_corpus() -> Path:
    """The development corpus: $SKILLGRADE_CORPUS, ../shared/corpus next to the clone, or /work/shared/corpus."""
    for cand in (os.environ.get("SKILLGRADE_CORPUS"), REPO.parent / "shared" / "corpus", "/work/shared/corpus"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return REPO.parent / "shared" / "corpus"


CORPUS = _find_corpus()
EXAMPLES = REPO / "examples" / "skills"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"corpus not found at {CORPUS} (set SKILLGRADE_CORPUS)")
        pytest.skip(f"corpus not found at {CORPUS}")
    return CORPUS
