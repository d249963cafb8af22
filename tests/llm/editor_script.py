"""Scripted judge replies for the editor tests (Neovim, VS Code): a full judge run against FakeAPI.

Every dimension's judge answers 0.85 with one evidence quote (which must be a line of the skill, so it
becomes a `skillgrade judge` diagnostic); the prompt writer proposes 5 prompts that should trigger the
skill and 5 that should not; the router picks the skill for prompts that mention PDFs.
"""

from __future__ import annotations

from typing import Any

from fakeapi import Scripted, json_reply, text_reply, tool_use

from skillgrade.analyzers.layers.judge import TITLES


def judge_responder(skill_name: str, quote: str):
    def answer(body: dict[str, Any]) -> Scripted:
        if body.get("tools"):  # the router: call the skill's tool for PDF prompts, answer in text otherwise
            first = str(body["messages"][0]["content"])
            return tool_use("Skill", {"skill": skill_name}) if "pdf" in first else text_reply("Sure.")
        user = str(body["messages"][0]["content"])
        dim = next((d for d, t in TITLES.items() if f"**{t}**" in user), None)
        if dim is None:  # the prompt writer
            return json_reply({"prompts": [{"prompt": f"extract the tables from report{i}.pdf",
                                            "should_trigger": True, "why": ""} for i in range(5)]
                               + [{"prompt": f"convert notes{i}.docx to markdown", "should_trigger": False,
                                   "why": ""} for i in range(5)]})
        v: dict[str, Any] = {"rationale": "Steps are concrete.", "evidence": [{"quote": quote}],
                             "band": "0.80-1.00", "score": 0.85}
        if dim == "output_quality":
            v["tasks"] = [{"task": f"t{i}", "outcome": "ok"} for i in range(3)]
        return json_reply(v)

    return answer


def certify_responder(skill_name: str, quote: str):
    """judge_responder plus the Monte Carlo calls: the agent's task turn (the SKILL.md as the Skill tool's
    result) and the grader (tests/llm/mc_script.py); routing and the prompt writer are shared with the judge."""
    from mc_script import MCResponder

    judge = judge_responder(skill_name, quote)
    mc = MCResponder(route=lambda p: skill_name if "pdf" in p else None)

    def answer(body: dict[str, Any]) -> Scripted:
        user = str(body["messages"][0]["content"])
        if len(body["messages"]) == 3 or "grade one simulated run" in user:
            return mc(body)
        return judge(body)

    return answer
