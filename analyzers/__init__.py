"""skillgrade's engine: parse a SKILL.md once, run the rules, score the static layer, blend the composite.

Pure Python: no LSP types, no printing, no network. Names are loaded lazily (PEP 562) so that a
cached CLI run never imports YAML or markdown-it.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Config": "config", "ConfigError": "config", "config_for": "config", "load_config": "config",
    "SkillDocument": "document",
    "Applicability": "findings", "CreateFile": "findings", "Edit": "findings", "Finding": "findings",
    "Fix": "findings", "Pos": "findings", "Range": "findings", "Severity": "findings",
    "parse": "parse",
    "ALL_RULES": "registry", "ANTI_PATTERNS": "registry", "by_code": "registry",
    "Report": "report", "UnreadableError": "report", "analyze": "report", "analyze_file": "report",
    "read_skill": "report",
    "DIMENSIONS": "scoring", "WEIGHTS": "scoring",
    "Workspace": "workspace", "find_skill_files": "workspace",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value
