"""A scripted stand-in for the gateway (anything with `async call(Request) -> Reply`), for the judge's unit
tests. End-to-end tests drive the real anthropic SDK against the fake Messages API instead."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillgrade.analyzers.layers.judge import TITLES
from skillgrade.analyzers.llm.types import LLMError, Reply, Request, ToolCall, Usage
from skillgrade.analyzers.parse import parse

SKILL = """---
name: pdf-tools
description: Extract text and tables from PDF files and merge or split PDFs. Use when the user mentions PDFs, forms or document extraction; not for Word files.
---

# PDF tools

## Steps

1. Run `pdftotext input.pdf out.txt` to extract the text.
2. Merge files with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.

## Output

Return the extracted text as Markdown.

See [the guide](references/guide.md) for scanned files.
"""
GUIDE = "# Guide\n\nScanned PDFs need OCR first: run `ocrmypdf in.pdf out.pdf`.\n"

POSITIVE = [f"please pull the tables out of report{i}.pdf" for i in range(5)]
NEGATIVE = [f"convert notes{i}.docx to markdown" for i in range(5)]


def make_skill(tmp: Path, text: str = SKILL, guide: str | None = GUIDE):
    d = tmp / "pdf-tools"
    (d / "references").mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(text)
    if guide is not None:
        (d / "references" / "guide.md").write_text(guide)
    return parse(text, d / "SKILL.md")


def dimension_of(request: Request) -> str:
    user = request.messages[0]["content"]
    for dim, title in TITLES.items():
        if f"**{title}**" in user:
            return dim
    raise AssertionError("no dimension in the judge request")


def verdict(score: float = 0.85, band: str | None = None, quotes=("Return the extracted text as Markdown.",),
            **extra: Any) -> dict:
    if band is None:
        band = next(b for b, lo in (("0.80-1.00", 0.8), ("0.60-0.79", 0.6), ("0.40-0.59", 0.4),
                                    ("0.20-0.39", 0.2), ("0.00-0.19", 0.0)) if score >= lo)
    v = {"rationale": "Clear steps and a stated output.", "evidence": [{"quote": q} for q in quotes],
         "band": band, "score": score}
    v.update(extra)
    return v


def oq(score: float = 0.7, **kw: Any) -> dict:
    tasks = [{"task": f"t{i}", "outcome": "fine"} for i in range(3)]
    return verdict(score, tasks=tasks, **kw)


def prompts_value(pos=POSITIVE, neg=NEGATIVE) -> dict:
    return {"prompts": [{"prompt": p, "should_trigger": True, "why": ""} for p in pos]
            + [{"prompt": p, "should_trigger": False, "why": ""} for p in neg]}


def _reply(*, parsed: Any = None, text: str | None = None, tools=(), cached=False) -> Reply:
    if text is None:
        text = json.dumps(parsed) if parsed is not None else ""
    return Reply(text, parsed, tuple(tools), Usage(100, 20, 0, 50), "claude-test-1", "end_turn", 0.01, cached)


class Scripted:
    """kind -> answer. `verdicts[dim]` is a dict, an LLMError, raw text, or a list consumed one per call;
    `route(prompt, salt)` names the skill the router loads (None: none)."""

    def __init__(self, *, verdicts: dict[str, Any] | None = None, prompts: Any = None,
                 route: Callable[[str, str], str | None] | None = None) -> None:
        self.verdicts = {k: (list(v) if isinstance(v, list) else v) for k, v in (verdicts or {}).items()}
        self.prompts = prompts_value() if prompts is None else prompts
        self.route = route or (lambda p, salt: "pdf-tools" if "pdf" in p else None)
        self.requests: list[Request] = []

    async def call(self, request: Request) -> Reply:
        self.requests.append(request)
        return self.reply_for(request)

    def reply_for(self, request: Request) -> Reply:
        if request.kind == "prompts":
            return self._answer(self.prompts)
        if request.kind == "route":
            name = self.route(request.messages[0]["content"], request.cache_salt)
            if isinstance(name, LLMError):
                raise name
            return _reply(tools=[ToolCall("Skill", {"skill": name})] if name else [])
        dim = dimension_of(request)
        default = oq() if dim == "output_quality" else verdict()
        return self._answer(self.verdicts.get(dim, default), dim)

    def _answer(self, spec: Any, dim: str = "") -> Reply:
        if isinstance(spec, list):
            spec = spec.pop(0) if len(spec) > 1 else spec[0]
        if callable(spec) and not isinstance(spec, LLMError):
            spec = spec(self)
        if isinstance(spec, LLMError):
            raise spec
        if isinstance(spec, str):
            return _reply(text=spec)
        return _reply(parsed=spec)

    def kinds(self) -> list[str]:
        return [r.kind for r in self.requests]
