"""Settings parsing without a server: the shapes clients really send."""

from __future__ import annotations

from skillgrade.server.lsp.settings import parse_settings


def test_empty_lua_table_is_an_empty_object() -> None:
    # Neovim serialises an empty Lua table as [] ; it must mean "no settings", not an error
    for raw in ([], {}, None, {"skillgrade": []}, {"skillgrade": {}}):
        settings, errors = parse_settings(raw)
        assert errors == [], raw


def test_wrapped_and_bare_settings_agree() -> None:
    a, ea = parse_settings({"skillgrade": {"debounceMs": 50, "ignore": ["ORPHAN_REFERENCE"]}})
    b, eb = parse_settings({"debounceMs": 50, "ignore": ["ORPHAN_REFERENCE"]})
    assert ea == eb == [] and a == b and a.debounce_ms == 50


def test_bad_values_are_reported_and_defaulted() -> None:
    s, errors = parse_settings({"debounceMs": "soon", "severity": {"MISSING_TRIGGER": "loud"}})
    assert any("debounceMs" in e for e in errors) and any("MISSING_TRIGGER" in e for e in errors)
    assert s.debounce_ms == parse_settings({})[0].debounce_ms


def test_known_fields_reach_the_engine_config() -> None:
    s, errors = parse_settings({"knownFields": ["scope", "stability"]})
    assert errors == [] and s.config().known_fields == ("scope", "stability")
    s, errors = parse_settings({"known_fields": 7})
    assert any("known" in e for e in errors) and s.config().known_fields == ()


def test_llm_settings() -> None:
    s, errors = parse_settings({"judgeModel": "claude-opus-5-5", "simulateModel": "qwen3:8b",
                                "baseUrl": "http://127.0.0.1:11434", "budgetUsd": 0.25, "judges": 3})
    assert errors == []
    assert (s.judge_model, s.simulation_model, s.base_url, s.budget_usd, s.judges) == (
        "claude-opus-5-5", "qwen3:8b", "http://127.0.0.1:11434", 0.25, 3)
    assert parse_settings({"simulationModel": "m"})[0].simulation_model == "m"
    d, errors = parse_settings({})
    assert errors == [] and d.judge_model is None and d.budget_usd is None and d.judges == 1
    bad, errors = parse_settings({"baseUrl": "https://user:pw@host", "judges": 0})
    assert any("baseUrl" in e for e in errors) and any("judges" in e for e in errors)
    assert bad.base_url is None and bad.judges == 1


def test_llm_settings_override_the_file_config() -> None:
    from skillgrade.analyzers.llm.config import LLMConfig
    from skillgrade.server.judging import llm_config

    base = LLMConfig(judge_model="from-file", budget_usd=0.5)
    s, _ = parse_settings({"judgeModel": "from-editor"})
    llm = llm_config(base, judge_model=s.judge_model, simulate_model=s.simulation_model, base_url=s.base_url,
                     budget_usd=s.budget_usd)
    assert llm.judge_model == "from-editor" and llm.budget_usd == 0.5 and llm.simulate_model == base.simulate_model


def test_monte_carlo_settings() -> None:
    s, errors = parse_settings({"mcN": 20, "mcCi": 0.05})
    assert errors == [] and (s.mc_n, s.mc_ci) == (20, 0.05)
    d = parse_settings({})[0]
    assert (d.mc_n, d.mc_ci) == (50, 0.10)  # the CLI's --mc-n / --mc-ci defaults
    s, errors = parse_settings({"mc-n": 30.0, "mc_ci": 0})
    assert errors == [] and (s.mc_n, s.mc_ci) == (30, 0.0)
    for bad in ({"mcN": 1}, {"mcN": 1001}, {"mcN": 2.5}, {"mcN": True}, {"mcCi": 0.5}, {"mcCi": -0.1},
                {"mcCi": "0.1"}):
        s, errors = parse_settings(bad)
        assert len(errors) == 1 and (s.mc_n, s.mc_ci) == (50, 0.10), bad


def test_the_vscode_manifest_contributes_every_llm_setting() -> None:
    import json
    from pathlib import Path

    from skillgrade.server.lsp.settings import LLM_KEYS, MC_N_RANGE

    manifest = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"
    props = json.loads(manifest.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    missing = [k for k in LLM_KEYS if f"skillgrade.{k}" not in props]
    assert missing == []
    assert (props["skillgrade.mcN"]["default"], props["skillgrade.mcN"]["minimum"],
            props["skillgrade.mcN"]["maximum"]) == (50, *MC_N_RANGE)
    assert props["skillgrade.mcCi"]["default"] == 0.1
