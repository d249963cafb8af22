"""skillgrade's engine: parse a SKILL.md once, run the rules, score the static layer, blend the composite.

Pure Python: no LSP types, no printing, no network.
"""

from .config import Config, ConfigError, config_for, load_config
from .document import SkillDocument
from .findings import Applicability, CreateFile, Edit, Finding, Fix, Pos, Range, Severity
from .parse import parse
from .registry import ALL_RULES, ANTI_PATTERNS, by_code
from .report import Report, UnreadableError, analyze, analyze_file, read_skill
from .scoring import DIMENSIONS, WEIGHTS
from .workspace import Workspace, find_skill_files

__all__ = [
    "ALL_RULES",
    "ANTI_PATTERNS",
    "DIMENSIONS",
    "WEIGHTS",
    "Applicability",
    "Config",
    "ConfigError",
    "CreateFile",
    "Edit",
    "Finding",
    "Fix",
    "Pos",
    "Range",
    "Report",
    "Severity",
    "SkillDocument",
    "UnreadableError",
    "Workspace",
    "analyze",
    "analyze_file",
    "by_code",
    "config_for",
    "find_skill_files",
    "load_config",
    "parse",
    "read_skill",
]
