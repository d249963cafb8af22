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
