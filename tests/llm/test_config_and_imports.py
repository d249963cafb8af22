"""[tool.skillgrade.llm] configuration, prices data, and the rule that static work never imports anthropic."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config, ConfigError, load_config
from skillgrade.analyzers.llm.cache import default_cache_dir
from skillgrade.analyzers.llm.config import LLMConfig, LLMConfigError, parse_llm_config
from skillgrade.analyzers.llm.prices import PricesError, load_prices
from skillgrade.analyzers.llm.types import Usage

REPO = Path(__file__).resolve().parents[2]


def test_static_analysis_never_imports_anthropic(tmp_path: Path) -> None:
    skill = tmp_path / "demo" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: demo\ndescription: Formats dates. Use when the user asks to format a date.\n---\n"
                     "# Demo\n\nFormat the date.\n")
    code = textwrap.dedent(f"""
        import sys
        import skillgrade.analyzers.report as report
        import skillgrade.analyzers.config, skillgrade.analyzers.llm.setup, skillgrade.analyzers.llm.gateway
        import skillgrade.analyzers.llm.anthropic_provider
        r = report.analyze_file(__import__("pathlib").Path({str(skill)!r}))
        assert r is not None
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("anthropic", "httpx2", "httpx", "pydantic"))
        print("IMPORTED", bad)
        sys.exit(1 if bad else 0)
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_llm_config_defaults() -> None:
    c = Config().llm
    assert (c.judge_model, c.simulate_model, c.grade_model) == ("claude-sonnet-5-5", "claude-haiku-5-5",
                                                                "claude-sonnet-5-5")
    assert c.concurrency == 4 and c.timeout_s == 120.0 and c.budget_usd is None and c.base_url is None


def test_llm_config_from_pyproject_and_skillgrade_toml(tmp_path: Path) -> None:
    py = tmp_path / "pyproject.toml"
    py.write_text(textwrap.dedent("""
        [tool.skillgrade]
        ignore = ["WEAK_TRIGGER"]
        [tool.skillgrade.llm]
        judge-model = "claude-opus-5-5"
        base-url = "http://127.0.0.1:11434/"
        budget-usd = 0.5
        concurrency = 2
        timeout-s = 30
        cache-dir = "~/sgcache"
    """))
    c = load_config(py)
    assert c.ignore == ("WEAK_TRIGGER",)
    assert c.llm == LLMConfig(judge_model="claude-opus-5-5", base_url="http://127.0.0.1:11434", budget_usd=0.5,
                              concurrency=2, timeout_s=30.0, cache_dir="~/sgcache")
    dot = tmp_path / ".skillgrade.toml"
    dot.write_text('[llm]\nsimulate-model = "claude-haiku-4-5"\n')
    assert load_config(dot).llm.simulate_model == "claude-haiku-4-5"
    # LSP settings (camelCase) merge over the file's values
    merged = c.merged({"llm": {"gradeModel": "x-model", "timeoutS": 5}})
    assert merged.llm.grade_model == "x-model" and merged.llm.timeout_s == 5.0
    assert merged.llm.judge_model == "claude-opus-5-5"


@pytest.mark.parametrize("key", ["api-key", "api_key", "apiKey", "anthropic-api-key", "auth-token", "key"])
def test_key_in_config_is_rejected(tmp_path: Path, key: str) -> None:
    py = tmp_path / "pyproject.toml"
    py.write_text(f'[tool.skillgrade.llm]\n{key} = "sk-ant-123"\n')
    with pytest.raises(ConfigError) as err:
        load_config(py)
    assert "ANTHROPIC_API_KEY" in str(err.value) and "sk-ant-123" not in str(err.value)


@pytest.mark.parametrize("data", [
    {"concurrency": 0}, {"concurrency": "4"}, {"timeout-s": -1}, {"budget-usd": "lots"}, {"budget-usd": -2},
    {"base-url": "localhost:11434"}, {"base-url": "https://user:pw@host"}, {"judge-model": ""},
    {"timeout-s": float("inf")},
])
def test_bad_llm_values(data: dict) -> None:
    with pytest.raises(LLMConfigError):
        parse_llm_config(data)


def test_default_cache_dir_honours_xdg(tmp_path: Path) -> None:
    assert default_cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "skillgrade" / "llm"
    assert default_cache_dir({}).parts[-3:] == (".cache", "skillgrade", "llm")


def test_prices() -> None:
    prices = load_prices()
    sonnet, haiku, opus = (prices.get(m) for m in ("claude-sonnet-5-5", "claude-haiku-5-5", "claude-opus-5-5"))
    assert sonnet and haiku and opus
    assert (sonnet.input, sonnet.output, haiku.input, haiku.output, opus.input, opus.output) == (2, 10, 0.1, 0.5, 4, 20)
    assert opus.cache_write == pytest.approx(5.0) and opus.cache_read == pytest.approx(0.4)  # derived 1.25x / 0.1x
    assert sonnet.as_of
    # $2/MTok in, $10 out, $2.50 cache write, $0.20 cache read
    assert sonnet.cost(Usage(1_000_000, 100_000, 200_000, 1_000_000)) == pytest.approx(2 + 1 + 0.5 + 0.2)
    assert prices.get("claude-sonnet-5-5-20260928") is sonnet
    assert prices.get("gpt-oss:20b") is None and prices.cost("gpt-oss:20b", Usage(10, 10)) is None
    # Haiku long-context pricing above 100k prompt tokens
    assert haiku.cost(Usage(200_000, 1000)) == pytest.approx((200_000 * 0.5 + 1000 * 2.5) / 1e6)


def test_user_prices_file_overlays(tmp_path: Path) -> None:
    f = tmp_path / "prices.toml"
    f.write_text('[models."my-local"]\nas_of = "2026-11-23"\ninput = 0\noutput = 0\n'
                 '[models."claude-sonnet-5-5"]\ninput = 3\noutput = 15\n')
    prices = load_prices(str(f))
    assert prices.cost("my-local", Usage(100, 100)) == 0.0
    assert prices.get("claude-sonnet-5-5").input == 3  # type: ignore[union-attr]
    assert prices.get("claude-haiku-5-5") is not None
    bad = tmp_path / "bad.toml"
    bad.write_text('[models."x"]\ninput = "free"\noutput = 1\n')
    with pytest.raises(PricesError):
        load_prices(str(bad))


def test_relative_paths_follow_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    py = tmp_path / "sub" / ".skillgrade.toml"
    py.write_text('[llm]\ncache-dir = "cache"\nprices-file = "../p.toml"\n')
    c = load_config(py).llm
    assert c.cache_dir == str(tmp_path / "sub" / "cache") and c.prices_file == str(tmp_path / "p.toml")
    py.write_text('[llm]\ncache-dir = "~/x"\n')
    assert load_config(py).llm.cache_dir == "~/x"
