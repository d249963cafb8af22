"""tests/llm/conftest.py's fixtures under another module name (both folders' conftest.py are 'conftest')."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "skillgrade_llm_conftest", Path(__file__).resolve().parent.parent / "llm" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)

TEST_KEY = _mod.TEST_KEY
_no_real_credentials = _mod._no_real_credentials
fake_api = _mod.fake_api
_forget_prompt_only_endpoints = _mod._forget_prompt_only_endpoints
fake_gateway = _mod.fake_gateway
wait_for_requests = _mod.wait_for_requests
