"""Fixtures shared by the language server tests."""

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("ws")
