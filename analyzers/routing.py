"""The routing simulation: would an agent that sees only skills' names and descriptions load this skill?

1. `write_prompts`: one call writes realistic user prompts about the skill — 5 that should use it, 5 near
   misses that another skill or no skill should handle — as structured output, validated.
2. `route_all`: each prompt goes, alone, to a router call whose system prompt lists the available skills by
   name and description only (this skill, the workspace's other skills, topped up from built-in generic
   distractors) and offers one tool, `Skill` with input `{"skill": "<name>"}`. The skill "activates" when
   the router calls `Skill` with its name. The router never sees the labels or the skill's body.
3. `metrics`: precision, recall and F1 computed by us from the router's decisions, with n.

Used by the judge (triggering accuracy), and built to be reused by Monte Carlo and the description optimiser.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import prompts, rx
from .layers.ask import Asked, CallsModels, Invalid, Tally, ask, reply_json
from .llm.types import LLMError, Reply, Request

N_POSITIVE = 5
N_NEGATIVE = 5
MIN_DECIDED = 3  # routing decisions needed on each side (should / should not trigger) for an F1
MIN_DISTRACTORS = 12  # the skill list holds at least this many other skills (workspace first, then built-ins)
MAX_SKILLS = 60  # at most this many skills in the router's list (bounds its tokens)
MAX_PROMPT_CHARS = 1200
ROUTER_MAX_TOKENS = 512
WRITER_MAX_TOKENS = 3000

SKILL_TOOL: dict[str, Any] = {
    "name": "Skill",
    "description": "Load a skill's instructions into the conversation. Call it with the exact name of one of "
                   "the available skills when that skill applies to the user's request.",
    "input_schema": {
        "type": "object",
        "properties": {"skill": {"type": "string", "description": "The skill's exact name."}},
        "required": ["skill"],
    },
}

PROMPTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prompts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "prompt": {"type": "string"},
                    "should_trigger": {"type": "boolean"},
                    "why": {"type": "string"},
                },
                "required": ["prompt", "should_trigger", "why"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["prompts"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class SkillCard:
    """A skill as a router sees it."""

    name: str
    description: str


@dataclass(frozen=True, slots=True)
class TestPrompt:
    __test__ = False  # not a pytest class

    prompt: str
    should_trigger: bool
    why: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    prompt: TestPrompt
    decided: str | None  # the skill the router loaded; None: no skill
    error: str | None = None  # the router call failed: this prompt is not counted

    def activated(self, skill: str) -> bool:
        return self.error is None and self.decided == skill


@dataclass(frozen=True, slots=True)
class Metrics:
    n: int  # prompts with a decision
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float | None  # None: the skill never activated
    recall: float | None  # None: no should-trigger prompt was decided
    f1: float | None  # None: nothing to measure it on (see reason)
    failed: int = 0  # prompts whose router call failed
    reason: str | None = None

    def to_dict(self) -> dict:
        r = lambda x: None if x is None else round(x, 4)  # noqa: E731
        return {"n": self.n, "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn,
                "precision": r(self.precision), "recall": r(self.recall), "f1": r(self.f1),
                "failed": self.failed, "reason": self.reason}


def metrics(decisions: Sequence[Decision], skill: str) -> Metrics:
    """Precision, recall and F1 of activating `skill`; F1 = 2tp / (2tp + fp + fn)."""
    tp = fp = fn = tn = failed = 0
    for d in decisions:
        if d.error is not None:
            failed += 1
            continue
        act = d.activated(skill)
        if d.prompt.should_trigger:
            tp, fn = (tp + 1, fn) if act else (tp, fn + 1)
        else:
            fp, tn = (fp + 1, tn) if act else (fp, tn + 1)
    n = tp + fp + fn + tn
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    reason = None
    pos, neg = tp + fn, fp + tn
    if pos < MIN_DECIDED or neg < MIN_DECIDED:
        # an F1 from one or two decisions (a budget stop, failed calls) would be a number that measures
        # nothing; without negatives a skill that fires on everything would look perfect
        f1 = None
        reason = (f"too few routing decisions: {pos} on prompts that should use the skill and {neg} on prompts "
                  f"that should not (at least {MIN_DECIDED} of each are needed)"
                  + (f"; {failed} router call(s) failed" if failed else ""))
    else:
        f1 = 2 * tp / (2 * tp + fp + fn)
    return Metrics(n, tp, fp, fn, tn, precision, recall, f1, failed, reason)


# ---- the skill list ---------------------------------------------------------------------------------------

_WORD = rx.compile(r"[a-z][a-z0-9]+")
_STOP = frozenset({"about", "also", "and", "asks", "code", "create", "each", "file", "files", "for",
    "from", "into", "like", "make", "more", "need", "needs", "only", "other", "over", "skill", "skills",
    "such", "than", "that", "the", "their", "them", "they", "this", "under", "use", "used", "user",
    "using", "what", "when", "where", "which", "while", "with", "write", "your"})


def _terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) >= 4 and w not in _STOP}


def _too_close(candidate: SkillCard, target: SkillCard) -> bool:
    """A built-in distractor that does the target's job would make a should-trigger prompt ambiguous."""
    mine = _terms(candidate.name + " " + candidate.description)
    theirs = _terms(target.name + " " + target.description)
    return bool(mine) and len(mine & theirs) / len(mine) >= 0.35


def skill_list(target: SkillCard, workspace: Sequence[SkillCard] = (), *, seed: str = "",
               min_distractors: int = MIN_DISTRACTORS, max_skills: int = MAX_SKILLS) -> list[SkillCard]:
    """This skill, the workspace's other skills (by distinct name), then built-in distractors until there are
    `min_distractors` others; shuffled with `seed` so the skill's position does not favour it, and identical
    for every prompt of a run (the list is a cached prefix)."""
    names = {target.name}
    others: list[SkillCard] = []
    for card in workspace:
        if card.name and card.name not in names and len(others) < max_skills - 1:
            names.add(card.name)
            others.append(SkillCard(card.name, card.description or ""))
    for name, desc in prompts.distractors():
        if len(others) >= min_distractors:
            break
        card = SkillCard(name, desc)
        if name not in names and not _too_close(card, target):
            names.add(name)
            others.append(card)
    cards = [target, *others]
    random.Random(seed or target.name).shuffle(cards)
    return cards


def cards_from_files(paths: Iterable[Path], *, exclude: Path | None = None,
                     limit: int = MAX_SKILLS) -> list[SkillCard]:
    """Skill cards (name, description) of SKILL.md files, e.g. the workspace's other skills; unreadable files
    and files without a name are skipped; `exclude` (the skill being judged) is left out."""
    from .parse import parse

    out: list[SkillCard] = []
    skip = exclude.resolve() if exclude is not None else None
    for path in paths:
        if len(out) >= limit:
            break
        try:
            if skip is not None and path.resolve() == skip:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")[:200_000]
        except OSError:
            continue
        doc = parse(text, path)
        name = doc.field_text("name")
        if name and name.strip():
            out.append(SkillCard(name.strip(), " ".join((doc.field_text("description") or "").split())))
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


def router_system(cards: Sequence[SkillCard]) -> str:
    listing = "\n".join(f"- {c.name}: {_one_line(c.description)}" for c in cards)
    return prompts.render("router.md", skills=listing)


def router_request(cards: Sequence[SkillCard], prompt: str, *, model: str, cache_salt: str = "") -> Request:
    return Request(
        kind="route",
        model=model,
        system=({"type": "text", "text": router_system(cards), "cache_control": {"type": "ephemeral"}},),
        messages=({"role": "user", "content": prompt},),
        max_tokens=ROUTER_MAX_TOKENS,
        tools=(SKILL_TOOL,),
        tool_choice={"type": "auto"},
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


def decision_of(reply: Reply) -> str | None:
    """The skill the router loaded: the first `Skill` tool call's `skill` (None: no call, no skill)."""
    for call in reply.tool_calls:
        if call.name == SKILL_TOOL["name"]:
            value = call.input.get("skill") if isinstance(call.input, dict) else None
            return value.strip() if isinstance(value, str) else None
    return None


async def route(gateway: CallsModels, cards: Sequence[SkillCard], prompt: TestPrompt, *, model: str,
                cache_salt: str = "", tally: Tally | None = None) -> Decision:
    try:
        reply = await gateway.call(router_request(cards, prompt.prompt, model=model, cache_salt=cache_salt))
    except LLMError as exc:
        if tally is not None:
            tally.failures += 1
        return Decision(prompt, None, exc.reason)
    except Exception as exc:  # noqa: BLE001 - a gateway bug is this prompt's failure, not the run's
        if tally is not None:
            tally.failures += 1
        return Decision(prompt, None, f"internal error in the model gateway: {type(exc).__name__}")
    if tally is not None:
        tally.add("route", reply)
    return Decision(prompt, decision_of(reply))


async def route_all(gateway: CallsModels, cards: Sequence[SkillCard], test_prompts: Sequence[TestPrompt], *,
                    model: str, cache_salt: str = "", tally: Tally | None = None,
                    on_done: Callable[[], None] | None = None) -> list[Decision]:
    async def one(p: TestPrompt) -> Decision:
        d = await route(gateway, cards, p, model=model, cache_salt=cache_salt, tally=tally)
        if on_done is not None:
            on_done()
        return d

    if not test_prompts:
        return []
    # the first call writes the cached skills-list prefix; the others then read it instead of each writing it
    first = await one(test_prompts[0])
    return [first, *await asyncio.gather(*(one(p) for p in test_prompts[1:]))]


# ---- the prompt writer ------------------------------------------------------------------------------------

def validate_prompts(value: Any, *, n_positive: int = N_POSITIVE, n_negative: int = N_NEGATIVE) -> list[TestPrompt]:
    if not isinstance(value, dict) or not isinstance(value.get("prompts"), list):
        raise Invalid('expected an object {"prompts": [...]}')
    out: list[TestPrompt] = []
    seen: set[str] = set()
    for i, item in enumerate(value["prompts"]):
        if not isinstance(item, dict):
            raise Invalid(f"prompts[{i}] is not an object")
        text, label, why = item.get("prompt"), item.get("should_trigger"), item.get("why", "")
        if not isinstance(text, str) or not text.strip():
            raise Invalid(f"prompts[{i}].prompt must be a non-empty string")
        if len(text) > MAX_PROMPT_CHARS:
            raise Invalid(f"prompts[{i}].prompt is longer than {MAX_PROMPT_CHARS} characters")
        if not isinstance(label, bool):
            raise Invalid(f"prompts[{i}].should_trigger must be true or false")
        key = " ".join(text.lower().split())
        if key in seen:
            raise Invalid(f"prompts[{i}] repeats an earlier prompt")
        seen.add(key)
        out.append(TestPrompt(text.strip(), label, why.strip() if isinstance(why, str) else ""))
    pos = sum(p.should_trigger for p in out)
    if pos != n_positive or len(out) - pos != n_negative:
        raise Invalid(f"expected exactly {n_positive} prompts with should_trigger true and {n_negative} with "
                      f"false; got {pos} and {len(out) - pos}")
    return out


def prompts_request(system: tuple[dict[str, Any], ...], *, model: str, n_positive: int = N_POSITIVE,
                    n_negative: int = N_NEGATIVE, cache_salt: str = "") -> Request:
    """system: the skill material's blocks (layers.material.SkillMaterial.system_blocks())."""
    return Request(
        kind="prompts",
        model=model,
        system=system,
        messages=({"role": "user", "content": prompts.render("prompt_writer.md", n_positive=n_positive,
                                                             n_negative=n_negative)},),
        max_tokens=WRITER_MAX_TOKENS,
        json_schema=PROMPTS_SCHEMA,
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


async def write_prompts(gateway: CallsModels, system: tuple[dict[str, Any], ...], *, model: str,
                        n_positive: int = N_POSITIVE, n_negative: int = N_NEGATIVE, cache_salt: str = "",
                        tally: Tally | None = None) -> Asked[list[TestPrompt]]:
    request = prompts_request(system, model=model, n_positive=n_positive, n_negative=n_negative,
                              cache_salt=cache_salt)
    return await ask(gateway, request,
                     lambda r: validate_prompts(reply_json(r), n_positive=n_positive, n_negative=n_negative),
                     tally=tally)


def seed_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
