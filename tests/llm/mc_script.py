"""A scripted responder for the fake Messages API (fakeapi.FakeAPI.responder) that plays every Monte Carlo
call: the prompt writer, the router (a policy decides which skill it loads for a prompt), the agent's task
turn and the grader. The real anthropic SDK talks to it through the gateway."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fakeapi import Scripted, json_reply, status, text_reply, tool_use

SKILL = """---
name: pdf-tools
description: Extract text and tables from PDF files and merge or split PDFs. Use when the user mentions PDFs, forms or document extraction; not for Word files.
---

# PDF tools

1. Run `pdftotext input.pdf out.txt` to extract the text.
2. Merge files with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.

Return the extracted text as Markdown.
"""
POSITIVE = [f"please pull the tables out of report{i}.pdf" for i in range(10)]
NEGATIVE = [f"convert notes{i}.docx to markdown" for i in range(10)]
ME = "pdf-tools"


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else json.dumps(content)


def grade_json(score: float) -> dict:
    band = next(b for b, lo in (("0.80-1.00", 0.8), ("0.60-0.79", 0.6), ("0.40-0.59", 0.4),
                                ("0.20-0.39", 0.2), ("0.00-0.19", 0.0)) if score >= lo)
    return {"rationale": "The answer runs pdftotext on the file and returns Markdown.", "band": band, "score": score}


class MCResponder:
    """route(prompt) -> the skill the router loads (None: no tool call); refuse: prompts whose router call is
    refused; grades: a list of scores cycled over grading calls."""

    def __init__(self, route: Callable[[str], str | None] | None = None, *, refuse: set[str] = frozenset(),
                 grades: list[float] | None = None, positives: list[str] = POSITIVE,
                 negatives: list[str] = NEGATIVE) -> None:
        self.route = route or (lambda p: ME if ".pdf" in p else None)
        self.refuse = set(refuse)
        self.grades = grades or [0.8, 0.9]
        self.positives, self.negatives = positives, negatives
        self.counts: dict[str, int] = {}

    def kind(self, body: dict[str, Any]) -> str:
        msgs = body["messages"]
        if len(msgs) == 3 and isinstance(msgs[1]["content"], list) and msgs[1]["content"][0].get("type") == "tool_use":
            return "task"
        if body.get("tools"):
            return "route"
        text = user_text(body)
        if "write realistic test prompts" in text:
            return "prompts"
        if "<agent_answer id=" in text:
            return "grade"
        return "other"

    def __call__(self, body: dict[str, Any]) -> Scripted:
        kind = self.kind(body)
        n = self.counts[kind] = self.counts.get(kind, 0) + 1
        if kind == "prompts":
            wanted = re.search(r"exactly (\d+) user\s+messages.*?exactly (\d+) near\s+misses", user_text(body), re.S)
            n_pos, n_neg = (int(wanted[1]), int(wanted[2])) if wanted else (len(self.positives), len(self.negatives))
            rows = [{"prompt": p, "should_trigger": True, "why": "pdf"} for p in self.positives[:n_pos]]
            rows += [{"prompt": p, "should_trigger": False, "why": "docx"} for p in self.negatives[:n_neg]]
            return json_reply({"prompts": rows})
        if kind == "route":
            prompt = user_text(body)
            if prompt in self.refuse:
                return Scripted(content=[{"type": "text", "text": ""}], stop_reason="refusal")
            choice = self.route(prompt)
            return tool_use("Skill", {"skill": choice}) if choice else text_reply("I can answer that directly.")
        if kind == "task":
            return text_reply("Run `pdftotext report.pdf out.txt`, then convert the tables to Markdown. " * 5)
        if kind == "grade":
            return json_reply(grade_json(self.grades[(n - 1) % len(self.grades)]))
        return status(500, message="unexpected request")


def deep_responder(mc: MCResponder | None = None, judge_score: float = 0.8,
                   pairwise: str = "skill") -> Callable[[dict[str, Any]], Scripted]:
    """MCResponder plus the judge's rubric calls (valid verdicts quoting the skill) and Elo's pairwise calls
    (pairwise="skill": the skill under evaluation wins both orders; "A": the first slot always wins): a whole
    deep/certify run."""
    from judge_script import verdict

    mc = mc or MCResponder()

    def respond(body: dict[str, Any]) -> Scripted:
        if mc.kind(body) != "other":
            return mc(body)
        text = user_text(body)
        if "compare two Agent Skills" in text:
            skill_first = "**Skill A** is the skill in the system block" in text
            winner = "A" if pairwise == "A" or skill_first else "B"
            return json_reply({"reason": "It is more specific.", "winner": winner})
        extra = {"tasks": [{"task": f"t{i}", "outcome": "ok"} for i in range(3)]} \
            if "**Output quality**" in text else {}
        return json_reply(verdict(judge_score, **extra))

    return respond
