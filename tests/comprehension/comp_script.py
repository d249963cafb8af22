"""A scripted agent and grader for the comprehension runner on the fake Messages API (tests/llm/fakeapi.py).

The agent's answer per case comes from `answers` (by case id; "baseline" answers when the skill is not
loaded). The grader's reply per (case id, attempt) comes from `grader(case_id, attempt, answer, behaviors)`,
which returns a verdict dict (wrapped in <verdict>…</verdict>) or raw text. Every request is recorded by the
fake; `calls` counts agent and grader calls per case."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakeapi import Scripted, status, text_reply

DATA = Path(__file__).parent / "data"
SKILL_DIR = DATA / "type-safety"
EVALS = DATA / "type-safety.json"
DEFINITION = ("Type safety is the property of a program in which type errors — operations applied to values of "
              "the wrong kind — are detected before they cause incorrect behavior.")
COPIED = "Simply put, " + DEFINITION[0].lower() + DEFINITION[1:]


def answer_for(case_id: int) -> str:
    """A distinct paraphrased answer per case, sharing no 6-gram with the skill."""
    return (f"Answer {case_id}: the compiler rules out a whole class of mistakes before users see them, "
            f"and unverified network data must be checked where it enters. Point {case_id} stands.")


def behaviors_of(user: str) -> list[tuple[str, str]]:
    return re.findall(r'<behavior id="([^"]+)" kind="(positive|negative)">', user)


def verdict(case_id: int, answer: str, behaviors: list[tuple[str, str]], *, fail: set[str] = frozenset(),
            quote: str | None = None, rationale: str = "The quoted span shows it directly.",
            drop: int = 0) -> dict[str, Any]:
    q = quote if quote is not None else answer[:40]
    rows = [{"id": b, "kind": k, "verdict": "FAIL" if b in fail else "PASS", "evidence_quote": q,
             "rationale": rationale if b in fail else "The quoted span shows it."}
            for b, k in behaviors]
    rows = rows[:len(rows) - drop] if drop else rows
    dim_pass = not fail
    return {"case_id": case_id, "dimension": "C?", "behavior_verdicts": rows,
            "dimension_verdict": "PASS" if dim_pass else "FAIL",
            "verbatim_overlap_check": {"passed": True, "overlap_ngrams": []}}


def honest(case_id: int, attempt: int, answer: str, behaviors: list[tuple[str, str]]) -> dict[str, Any]:
    return verdict(case_id, answer, behaviors)


class CompResponder:
    def __init__(self, grader: Callable[[int, int, str, list], Any] = honest, *,
                 answers: dict[int, str] | None = None, baseline_answers: dict[int, str] | None = None,
                 grader_error: set[int] = frozenset()) -> None:
        self.grader = grader
        self.answers = answers or {}
        self.baseline_answers = baseline_answers or {}
        self.grader_error = set(grader_error)
        self.calls: dict[tuple[str, int], int] = {}
        self.prompts: dict[str, int] = {}

    def __call__(self, body: dict[str, Any]) -> Scripted:
        system = " ".join(b.get("text", "") for b in body.get("system") or [])
        msgs = body["messages"]
        if "capable software assistant" in system:
            prompt = msgs[0]["content"]
            case_id = self.prompts[prompt]
            loaded = len(msgs) == 3
            self.calls[("agent" if loaded else "baseline", case_id)] = \
                self.calls.get(("agent" if loaded else "baseline", case_id), 0) + 1
            table = self.answers if loaded else self.baseline_answers
            return text_reply(table.get(case_id, answer_for(case_id) if loaded else f"I am not sure ({case_id})."))
        if "comprehension grader" in system:
            user = msgs[0]["content"]
            case_id = int(re.search(r"<case-id>(\d+)</case-id>", user).group(1))
            answer = re.search(r"<agent-answer>(.*?)</agent-answer>", user, re.S).group(1)
            attempt = (len(msgs) - 1) // 2 + 1
            self.calls[("grade", case_id)] = self.calls.get(("grade", case_id), 0) + 1
            if case_id in self.grader_error:
                return status(500, message="grader down")
            out = self.grader(case_id, attempt, answer, behaviors_of(user))
            return text_reply(out if isinstance(out, str) else f"<verdict>\n{json.dumps(out)}\n</verdict>")
        return status(500, message="unexpected request")


def load_prompts(responder: CompResponder) -> None:
    data = json.loads(EVALS.read_text())
    responder.prompts = {c["prompt"]: c["id"] for c in data["evals"]}
