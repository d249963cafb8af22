"""Depth `standard` for the CLI and the language server: a skill's static report blended with a judge run.

Thin glue over analyzers.layers.judge (run_judge, CacheOnly), analyzers.report.with_judge and
analyzers.llm.setup.build_gateway; nothing here prints. The LLM modules load only when these functions run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any


def llm_config(base: Any, **overrides: Any) -> Any:
    """The LLMConfig with the non-empty overrides (judge_model, simulate_model, base_url, budget_usd) applied."""
    values = {k: v for k, v in overrides.items() if v is not None and v != ""}
    return replace(base, **values) if values else base


def models_of(llm: Any) -> dict[str, str]:
    return {"judge": llm.judge_model, "simulate": llm.simulate_model}


def workspace_cards(skill: Path, roots: Sequence[Path] = ()) -> list:
    """Name + description of the other skills an agent would see (the skills under `roots`, this one excluded)."""
    from skillgrade.analyzers.routing import cards_from_files
    from skillgrade.analyzers.workspace import find_skill_files

    files = list(find_skill_files(list(roots))) if roots else []
    return cards_from_files(files, exclude=skill)


async def judge_report(report: Any, gateway: Any, *, models: Mapping[str, str], judges: int = 1,
                       workspace_skills: Sequence = (),
                       progress: Callable[[str, int, int], None] | None = None) -> tuple[Any, Any]:
    """(report blended with the judge, JudgeResult). Model failures leave dimensions unmeasured; cancellation
    propagates."""
    from skillgrade.analyzers.layers.judge import run_judge
    from skillgrade.analyzers.report import with_judge

    result = await run_judge(report.document, gateway, models=models, judges=judges,
                             workspace_skills=workspace_skills, progress=progress)
    return with_judge(report, result), result


def from_cache(result: Any) -> bool:
    """True when every reply of the run came from the cache (and there was at least one)."""
    u = result.usage.to_dict()
    return u.get("calls", 0) == 0 and u.get("cached", 0) > 0 and not u.get("failed_calls", 0)
