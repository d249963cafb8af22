"""Comprehension tests reuse the LLM tests' fake Messages API and fixtures (tests/llm/conftest.py, loaded under
another module name so the two conftest modules do not collide)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

LLM_TESTS = Path(__file__).resolve().parents[1] / "llm"
sys.path.insert(0, str(LLM_TESTS))

_spec = importlib.util.spec_from_file_location("llm_test_fixtures", LLM_TESTS / "conftest.py")
assert _spec and _spec.loader
llm_fixtures = importlib.util.module_from_spec(_spec)
sys.modules["llm_test_fixtures"] = llm_fixtures
_spec.loader.exec_module(llm_fixtures)

# everything tests/llm/conftest.py offers (fixtures and helpers such as TEST_KEY, wait_for_requests), so a
# test module that imports `conftest` gets the same names whichever conftest module Python found first
globals().update({k: v for k, v in vars(llm_fixtures).items() if not k.startswith("__")})
