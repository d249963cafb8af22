"""The improver's request and the checks every candidate description passes before it is measured.

The request holds the skill's body (frontmatter removed), the current description, the TRAIN prompts it got
wrong, the earlier attempts with their TRAIN results and the other skills in the router's list. Test prompts
never reach it: any text that would carry one (the body, a train prompt that contains it, a description) has
it replaced by `WITHHELD` before the request is built, and `leaks` re-checks the finished request.

A candidate must: be 1-1024 characters on one line, differ from every earlier attempt, rewrite into the
SKILL.md as valid YAML (rewrite.py), and pass the static description rules (EMPTY_DESCRIPTION,
DESCRIPTION_TOO_LONG, DESCRIPTION_XML_TAG, MISSING_TRIGGER, … at warning or error); otherwise the reply is
Invalid and the model is asked once more with the reason (layers/ask.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import prompts, rx
from ..document import SkillDocument
from ..findings import Severity
from ..layers.ask import Invalid, reply_json
from ..llm.types import Reply, Request
from ..parse import parse
from ..routing import SkillCard, TestPrompt
from .measure import PromptResult
from .rewrite import RewriteError, one_line, rewrite_description

LIMIT = 1024
MAX_BODY_CHARS = 16_000
MAX_OTHERS = 20
IMPROVER_MAX_TOKENS = 1500
WITHHELD = "[withheld]"

IMPROVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"description": {"type": "string"}, "why": {"type": "string"}},
    "required": ["description", "why"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Candidate:
    description: str
    why: str


# ---- keeping test prompts out ------------------------------------------------------------------------------

def _pattern(prompt: str) -> re.Pattern[str] | None:
    words = prompt.split()
    if not words:
        return None
    return rx.compile(r"\s+".join(re.escape(w) for w in words), re.I)


class Redactor:
    """Replaces every occurrence of a held-out prompt (any case, any whitespace) with WITHHELD."""

    def __init__(self, held_out: Iterable[TestPrompt]) -> None:
        pats = [_pattern(p.prompt) for p in held_out]
        self.patterns = sorted((p for p in pats if p is not None), key=lambda p: -len(p.pattern))

    def __call__(self, text: str) -> str:
        for p in self.patterns:
            text = p.sub(WITHHELD, text)
        return text

    def leaks(self, request: Request) -> bool:
        """True when any text of `request` still holds a held-out prompt."""
        blob = json.dumps([list(request.system), list(request.messages)], ensure_ascii=False)
        texts = [b.get("text", "") for b in request.system] + [
            m["content"] if isinstance(m.get("content"), str) else json.dumps(m.get("content"), ensure_ascii=False)
            for m in request.messages]
        return any(p.search(t) for p in self.patterns for t in [*texts, blob])


def skill_body(doc: SkillDocument) -> str:
    """The SKILL.md without its frontmatter (which may hold routing examples, i.e. test prompts)."""
    lines = doc.lines
    close = doc.frontmatter.close_line
    start = close + 1 if doc.frontmatter.present and close is not None else 0
    return "\n".join(lines[start:]).strip()[:MAX_BODY_CHARS]


# ---- the request -------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tried:
    """An earlier attempt as the improver sees it: train results only."""

    description: str
    train_passed: int
    train_n: int


def _failure_line(r: PromptResult, redact: Redactor) -> str:
    runs = len(r.decisions)
    others = sorted({d or "no skill" for d in r.decisions if d != r.skill})
    if r.prompt.should_trigger:
        tail = f"loaded it in {r.activations} of {runs} runs" + (f"; chose instead: {', '.join(others)}" if others else "")
    else:
        tail = f"loaded it in {r.activations} of {runs} runs"
    return f'- "{redact(one_line(r.prompt.prompt))}" ({tail})'


def improve_request(doc: SkillDocument, *, name: str, current: str, train: Sequence[PromptResult],
                    tried: Sequence[Tried], others: Sequence[SkillCard], runs: int, redact: Redactor,
                    model: str, cache_salt: str = "optimize") -> Request:
    """The improver's call; `train` must hold train results only (the caller's split)."""
    if any(r.split != "train" for r in train):
        raise ValueError("the improver sees train results only")
    body = redact(skill_body(doc)) or "(the skill has no body)"
    system = prompts.render("improver.md", body=body)
    misses = [r for r in train if r.passed is False and r.prompt.should_trigger]
    false_triggers = [r for r in train if r.passed is False and not r.prompt.should_trigger]
    passed = sum(1 for r in train if r.passed)
    parts = [f"Skill name: {name}", "", f"Current description ({len(current)} characters):", redact(current), "",
             f"Training messages: {passed} of {len(train)} route correctly (each sent {runs} time(s); a message "
             "counts as correct when most of its runs are right)."]
    if misses:
        parts += ["", "Missed (should have loaded the skill, did not):", *(_failure_line(r, redact) for r in misses)]
    if false_triggers:
        parts += ["", "False triggers (loaded the skill, should not have):",
                  *(_failure_line(r, redact) for r in false_triggers)]
    if tried:
        parts += ["", "Earlier descriptions (training results):"]
        parts += [f'{i}. {t.train_passed}/{t.train_n} correct: "{redact(t.description)}"' for i, t in enumerate(tried, 1)]
    if others:
        parts += ["", "The other skills the agent chooses from:"]
        parts += [f"- {c.name}: {redact(one_line(c.description))}" for c in others[:MAX_OTHERS]]
    parts += ["", "Write the new description."]
    return Request(
        kind="improve",
        model=model,
        system=({"type": "text", "text": system, "cache_control": {"type": "ephemeral"}},),
        messages=({"role": "user", "content": "\n".join(parts)},),
        max_tokens=IMPROVER_MAX_TOKENS,
        json_schema=IMPROVE_SCHEMA,
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


# ---- checking a candidate ----------------------------------------------------------------------------------

def description_problems(text: str) -> list[str]:
    """What the static description rules say about a SKILL.md text (warnings and errors), as 'CODE: message'."""
    from ..engine import run_rules
    from ..registry import ALL_RULES

    doc = parse(text)
    rules = tuple(r for r in ALL_RULES if r.family == "description")
    findings, _ = run_rules(doc, rules=rules)
    return [f"{f.code}: {f.message}" for f in findings if f.severity <= Severity.WARNING]


def check_candidate(value: Any, *, skill_text: str, tried: Iterable[str]) -> Candidate:
    """The improver's reply -> a Candidate, or Invalid with the reason (sent back to the model once)."""
    if not isinstance(value, dict) or not isinstance(value.get("description"), str):
        raise Invalid('expected an object {"description": "...", "why": "..."}')
    desc = one_line(value["description"])
    why = value.get("why") if isinstance(value.get("why"), str) else ""
    if not desc:
        raise Invalid("the description is empty")
    if len(desc) > LIMIT:
        raise Invalid(f"the description is {len(desc)} characters; the limit is {LIMIT}")
    if desc in {one_line(t) for t in tried}:
        raise Invalid("this description was already tried; write a different one")
    try:
        new_text = rewrite_description(skill_text, desc)
    except RewriteError as exc:
        raise Invalid(f"the description cannot be written into the frontmatter: {exc}") from None
    problems = description_problems(new_text)
    if problems:
        raise Invalid("the description breaks the Agent Skills rules: " + "; ".join(problems))
    return Candidate(desc, one_line(why))


_WRAPPER = rx.compile(r"^\s*<(new_description|description)>(.*)</\1>\s*$", re.S | re.I)


def reply_value(reply: Reply) -> Any:
    """The improver's JSON object; a reply that is not JSON but plain text (or one string, or the text
    wrapped in <new_description> as skill-creator's improver writes it) is taken as the description."""
    try:
        value = reply_json(reply)
    except Invalid:
        text = (reply.text or "").strip()
        if not text or text.startswith(("{", "[", "```")):
            raise
        m = _WRAPPER.match(text)
        return {"description": m.group(2) if m else text, "why": ""}
    if isinstance(value, str):
        return {"description": value, "why": ""}
    return value


def validator(skill_text: str, tried: Iterable[str]):  # type: ignore[no-untyped-def]
    frozen = tuple(tried)
    return lambda reply: check_candidate(reply_value(reply), skill_text=skill_text, tried=frozen)

