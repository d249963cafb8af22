"""Build the run's `Gateway` from configuration and the environment.

    gw = build_gateway(config.llm, os.environ, no_cache=False, budget=None, dry_run=False)
    if isinstance(gw, LLMError):   # ErrorKind.NO_KEY: print gw.reason, show the static result
        ...

Key: ANTHROPIC_API_KEY, else ANTHROPIC_AUTH_TOKEN (both sent as `Authorization: Bearer`); never from a
config file. Endpoint: ANTHROPIC_BASE_URL, else `base-url`, else api.anthropic.com. A dry run needs no
key (it never calls). `anthropic` itself is imported only at the first real call.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .batches import BatchRunner, BatchState, ProgressFn
from .cache import Cache, default_cache_dir
from .config import LLMConfig, LLMConfigError
from .gateway import Gateway
from .prices import PricesError, load_prices
from .types import ErrorKind, LLMError, Reply, Request

STATE_FILE = "batches.json"  # in the cache dir: request key -> batch id, for resuming an interrupted --batch run
NO_KEY_MESSAGE = ("No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) to run the LLM layers; "
                  "showing the static result only.")


class _NoCallProvider:
    """Stands in for the provider in a dry run without a key: it is never asked to call."""

    name = "none"

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    async def complete(self, request: Request, *, timeout_s: float) -> Reply:
        raise LLMError(ErrorKind.NO_KEY, NO_KEY_MESSAGE)


def api_key_from(env: Mapping[str, str]) -> str | None:
    return (env.get("ANTHROPIC_API_KEY") or "").strip() or (env.get("ANTHROPIC_AUTH_TOKEN") or "").strip() or None


def base_url_from(llm: LLMConfig, env: Mapping[str, str]) -> str:
    from .anthropic_provider import DEFAULT_BASE_URL  # no SDK import: the module imports it lazily

    return ((env.get("ANTHROPIC_BASE_URL") or "").strip() or llm.base_url or DEFAULT_BASE_URL).rstrip("/")


def cache_dir_from(llm: LLMConfig, env: Mapping[str, str]) -> Path:
    return Path(llm.cache_dir).expanduser() if llm.cache_dir else default_cache_dir(env)


def build_gateway(llm: LLMConfig, env: Mapping[str, str], *, no_cache: bool = False, budget: float | None = None,
                  dry_run: bool = False, max_retries: int = 2, batch: bool = False,
                  batch_progress: ProgressFn | None = None) -> Gateway | LLMError:
    """The gateway for one run, or LLMError(NO_KEY) (one sentence) when there is no key and this is not a
    dry run. `budget` (--budget) overrides `budget-usd`; `no_cache` (--no-cache) neither reads nor writes
    the cache. A `prices-file` that cannot be used raises LLMConfigError (a configuration error).
    batch (--batch): calls that miss the cache go out as Message Batches at the batch price, with the
    resume state in `<cache dir>/batches.json` (kept even with no_cache, so nothing is paid twice);
    batch_progress(BatchProgress) is called at submit, at each poll and at the end."""
    from .anthropic_provider import AnthropicProvider

    base_url = base_url_from(llm, env)
    key = api_key_from(env)
    try:
        prices = load_prices(llm.prices_file)
    except PricesError as exc:
        raise LLMConfigError(str(exc)) from None
    provider: AnthropicProvider | _NoCallProvider
    if key:
        provider = AnthropicProvider(key, base_url, max_retries=max_retries)
    elif dry_run:
        provider = _NoCallProvider(base_url)
    else:
        return LLMError(ErrorKind.NO_KEY, NO_KEY_MESSAGE)
    cache = None if no_cache else Cache(cache_dir_from(llm, env))
    runner = None
    if batch:
        runner = BatchRunner(provider, state=BatchState(cache_dir_from(llm, env) / STATE_FILE),
                             poll_s=llm.batch_poll_s, poll_max_s=4 * llm.batch_poll_s,
                             deadline_s=llm.batch_timeout_s, request_timeout_s=llm.timeout_s,
                             progress=batch_progress)
    return Gateway(provider, cache=cache, budget_usd=budget if budget is not None else llm.budget_usd,
                   concurrency=llm.concurrency, timeout_s=llm.timeout_s, prices=prices, dry_run=dry_run,
                   batches=runner)
