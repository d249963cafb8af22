"""Model prices as data (analyzers/data/prices.toml, optionally overlaid by a user file) and cost arithmetic.

A model without a price has an unknown cost (None) — never a made-up number.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .types import Usage

_DATA = Path(__file__).resolve().parent.parent / "data" / "prices.toml"
_MTOK = 1_000_000


class PricesError(ValueError):
    """A prices file that cannot be used."""


@dataclass(frozen=True, slots=True)
class ModelPrice:
    model: str
    as_of: str
    input: float  # $ per million tokens
    output: float
    cache_write: float
    cache_read: float
    long_context_threshold: int | None = None
    long_context_input: float | None = None
    long_context_output: float | None = None
    batch_factor: float = 0.5  # Message Batches: every token class (input, output, cache write/read) at this x

    def cost(self, usage: Usage, *, batch: bool = False) -> float:
        prompt = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
        inp, out, write, read = self.input, self.output, self.cache_write, self.cache_read
        if self.long_context_threshold is not None and prompt > self.long_context_threshold:
            long_in = self.long_context_input if self.long_context_input is not None else inp
            scale = long_in / inp if inp else 1.0
            inp, write, read = long_in, write * scale, read * scale
            out = self.long_context_output if self.long_context_output is not None else out
        total = (usage.input_tokens * inp + usage.output_tokens * out
                 + usage.cache_creation_input_tokens * write + usage.cache_read_input_tokens * read) / _MTOK
        return total * self.batch_factor if batch else total


@dataclass(frozen=True, slots=True)
class Prices:
    models: dict[str, ModelPrice]

    def get(self, model: str) -> ModelPrice | None:
        """The price of `model`; a dated id ("claude-x-5-5-20260928") falls back to its undated alias."""
        if model in self.models:
            return self.models[model]
        base, _, date = model.rpartition("-")
        if base and len(date) == 8 and date.isdigit():
            return self.models.get(base)
        return None

    def cost(self, model: str, usage: Usage, *, batch: bool = False) -> float | None:
        price = self.get(model)
        return None if price is None else price.cost(usage, batch=batch)


def _number(entry: dict[str, Any], key: str, where: str, required: bool) -> float | None:
    value = entry.get(key)
    if value is None:
        if required:
            raise PricesError(f"{where}: `{key}` is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise PricesError(f"{where}: `{key}` must be a non-negative number")
    return float(value)


def _batch_factor(entry: dict[str, Any], where: str) -> float:
    factor = _number(entry, "batch_factor", where, False)
    if factor is not None and factor > 1:
        raise PricesError(f"{where}: `batch_factor` must be at most 1 (a discount)")
    return 0.5 if factor is None else factor


def parse_prices(data: dict[str, Any], source: str = "prices") -> dict[str, ModelPrice]:
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise PricesError(f"{source}: [models] must be a table")
    out: dict[str, ModelPrice] = {}
    for name, entry in models.items():
        where = f"{source}: models.{name}"
        if not isinstance(entry, dict):
            raise PricesError(f"{where} must be a table")
        inp = _number(entry, "input", where, True)
        outp = _number(entry, "output", where, True)
        assert inp is not None and outp is not None
        write = _number(entry, "cache_write", where, False)
        read = _number(entry, "cache_read", where, False)
        threshold = _number(entry, "long_context_threshold", where, False)
        out[str(name)] = ModelPrice(
            model=str(name), as_of=str(entry.get("as_of", "")), input=inp, output=outp,
            cache_write=write if write is not None else inp * 1.25,
            cache_read=read if read is not None else inp * 0.1,
            long_context_threshold=int(threshold) if threshold is not None else None,
            long_context_input=_number(entry, "long_context_input", where, False),
            long_context_output=_number(entry, "long_context_output", where, False),
            batch_factor=_batch_factor(entry, where),
        )
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise PricesError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise PricesError(f"{path}: cannot read: {exc.strerror}") from None


@functools.lru_cache(maxsize=8)
def load_prices(extra_file: str | None = None) -> Prices:
    """The packaged prices, with `extra_file` (a user's prices.toml) merged over them model by model."""
    models = parse_prices(_read_toml(_DATA), str(_DATA))
    if extra_file:
        path = Path(extra_file).expanduser()
        models.update(parse_prices(_read_toml(path), str(path)))
    return Prices(models)
