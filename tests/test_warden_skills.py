"""A skill Sentry Warden runs from `warden.toml` (set 70: django-micboard's `.warden/skills/`) is started on files and
events, not routed by its description: MISSING_TRIGGER and WEAK_TRIGGER stay silent; without the entry they report."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

TEXT = "---\nname: migration-safety\ndescription: Reviews Django migrations for unsafe operations.\n---\n\n# Review\n"
CONFIG = """version = 1

[[skills]]
name = "{name}"
paths = ["micboard/migrations/*.py"]

[[skills.triggers]]
type = "pull_request"
"""


def _codes(tmp_path: Path, config: str | None) -> list[str]:
    skill = tmp_path / ".warden" / "skills" / "migration-safety"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(TEXT, encoding="utf-8")
    if config is not None:
        (tmp_path / "warden.toml").write_text(config, encoding="utf-8")
    rep = analyze(TEXT, skill / "SKILL.md", config=Config(select=("MISSING_TRIGGER", "WEAK_TRIGGER")),
                  workspace_root=tmp_path)
    return [f.code for f in rep.findings]


@pytest.mark.parametrize("name", ["./.warden/skills/migration-safety", "migration-safety"])
def test_a_skill_warden_runs_is_not_asked_for_a_trigger(tmp_path: Path, name: str) -> None:
    assert _codes(tmp_path, CONFIG.format(name=name)) == []


@pytest.mark.parametrize("config", [None, CONFIG.format(name="./.warden/skills/django-architecture"),
                                    "version = 1\n\n[[skills]]\nname = \"migration-safety\"\n", "not toml = [\n"])
def test_without_an_entry_that_runs_it_the_finding_stays(tmp_path: Path, config: str | None) -> None:
    assert _codes(tmp_path, config) == ["WEAK_TRIGGER"]
