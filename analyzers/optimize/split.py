"""The train/test split: stratified by label, with a fixed seed, at least one of each class held out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..routing import TestPrompt

DEFAULT_SEED = 42


@dataclass(frozen=True, slots=True)
class Split:
    train: tuple[TestPrompt, ...]
    test: tuple[TestPrompt, ...]

    def split_of(self, prompt: TestPrompt) -> str:
        return "test" if prompt in self.test else "train"


class SplitError(ValueError):
    """The prompts cannot be split as asked (one line for the user)."""


def _take(items: list[TestPrompt], holdout: float) -> int:
    """How many of one class go to test: round(holdout * n), at least 1, and at least one left for train
    when the class has two or more."""
    if holdout <= 0:
        return 0
    k = max(1, round(holdout * len(items)))
    return min(k, len(items) - 1) if len(items) >= 2 else len(items)


def stratified_split(prompts: Sequence[TestPrompt], holdout: float, *, seed: int = DEFAULT_SEED) -> Split:
    """Positives and near misses shuffled separately (in a canonical order first, so the split does not
    depend on the file's row order) and `holdout` of each held out for test. holdout 0: everything is
    train. Raises SplitError without both classes when a holdout is asked."""
    if not 0 <= holdout < 1:
        raise SplitError(f"--holdout must be at least 0 and below 1, got {holdout:g}")
    pos = sorted((p for p in prompts if p.should_trigger), key=lambda p: p.prompt)
    neg = sorted((p for p in prompts if not p.should_trigger), key=lambda p: p.prompt)
    if holdout > 0 and (not pos or not neg):
        raise SplitError(f"a held-out split needs prompts that should trigger the skill and near misses; got "
                         f"{len(pos)} and {len(neg)}")
    rng = random.Random(seed)
    train: list[TestPrompt] = []
    test: list[TestPrompt] = []
    for items in (pos, neg):
        rng.shuffle(items)
        k = _take(items, holdout)
        test += items[:k]
        train += items[k:]
    if not train:
        raise SplitError("no prompt is left for training; lower --holdout or give more prompts")
    order = {p: i for i, p in enumerate(prompts)}
    return Split(tuple(sorted(train, key=order.__getitem__)), tuple(sorted(test, key=order.__getitem__)))
