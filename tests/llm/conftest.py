"""Fixtures for the LLM layer tests: no real credentials, a fresh fake Messages API per test."""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Iterator

import pytest
from fakeapi import FakeAPI

TEST_KEY = "sk-ant-test-SECRET-0123456789abcdef"

_SCRUB = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE",
          "ANTHROPIC_CONFIG_DIR", "ANTHROPIC_IDENTITY_TOKEN", "ANTHROPIC_IDENTITY_TOKEN_FILE",
          "ANTHROPIC_FEDERATION_RULE_ID", "ANTHROPIC_ORGANIZATION_ID", "ANTHROPIC_CUSTOM_HEADERS")


@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    for k in {*_SCRUB, *(k for k in os.environ if k.startswith("ANTHROPIC_"))}:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", "/nonexistent-anthropic-config")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    with FakeAPI() as fake:
        host = urllib.parse.urlparse(fake.url).hostname
        assert host is not None and ipaddress.ip_address(host).is_loopback
        yield fake


@pytest.fixture(autouse=True)
def _forget_prompt_only_endpoints() -> Iterator[None]:
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider

    AnthropicProvider._prompt_only_endpoints.clear()
    yield
    AnthropicProvider._prompt_only_endpoints.clear()


@pytest.fixture
async def fake_gateway(fake_api: FakeAPI, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A Gateway on the real SDK pointed at `fake_api`, with a fresh on-disk cache and a 10 s deadline."""
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    gw = Gateway(AnthropicProvider(TEST_KEY, fake_api.url, max_retries=2),
                 cache=Cache(tmp_path_factory.mktemp("llm-cache")), timeout_s=10.0, concurrency=4)
    yield gw
    await gw.aclose()


async def wait_for_requests(fake: FakeAPI, n: int, timeout: float = 30.0) -> None:
    """Wait until the fake has received `n` requests (so a cancel lands mid-call, not before sending)."""
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while len(fake.requests) < n:
        assert time.monotonic() < deadline, "the fake API never received the request"
        await asyncio.sleep(0.01)
