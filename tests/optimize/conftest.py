"""The optimiser's tests reuse the LLM tests' fake Messages API and fixtures (tests/llm)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "llm"))

from conftest_llm import _forget_prompt_only_endpoints, _no_real_credentials, fake_api, fake_gateway  # noqa: E402,F401
