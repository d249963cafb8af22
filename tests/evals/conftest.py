"""Fixtures for the execution-evaluation tests: no real credentials, a fresh fake Messages API per test."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_LLM_TESTS = str(Path(__file__).resolve().parent.parent / "llm")
if _LLM_TESTS not in sys.path:
    sys.path.append(_LLM_TESTS)  # fakeapi.py (appended: never shadows this folder's modules)

from fakeapi import FakeAPI  # noqa: E402


@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for k in [k for k in os.environ if k.startswith("ANTHROPIC_")]:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", "/nonexistent-anthropic-config")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


@pytest.fixture(autouse=True)
def _forget_prompt_only_endpoints() -> Iterator[None]:
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider

    AnthropicProvider._prompt_only_endpoints.clear()
    yield
    AnthropicProvider._prompt_only_endpoints.clear()


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    with FakeAPI() as fake:
        yield fake
