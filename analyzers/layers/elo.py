"""Elo against a reference corpus: pairwise comparisons with the K nearest references, in both orders, rated
by a Bradley-Terry fit on the Elo scale (analyzers/ranking.py). See docs/llm.md and docs/scoring.md, "Elo".

- References: `corpus_index.nearest(index, skill, k)` from the index `skillgrade init` wrote; a reference whose
  file is gone or changed since then is left out with the reason (no call).
- One pair = two calls: the skill as Skill A with the reference as Skill B, then the reference as A and the
  skill as B. The system prompt (prompts/pairwise_system.md) and the skill's own material are the two cached
  system blocks, identical in every call of the run; the user turn is the reference's material (a third cache
  breakpoint, read back by the pair's second call) and then the task with the slot labels (prompts/pairwise.md),
  the only text that differs between the two orders.
  Reply: {"reason": one sentence, "winner": "A" | "B" | "tie"}, validated, re-asked once (layers/ask.py).
- Both orders name the same winner (or both "tie"): that result. Both pick the same slot (A and A, or B and
  B): position bias, flagged on the pair and counted as a draw. One order says tie, the other a winner: the
  two orders are averaged (0.75 / 0.25 for the skill). A failed order leaves the pair out with the reason.
- Fewer than MIN_PAIRS completed pairs: Elo is unmeasured with the reason. Otherwise: the skill's MAP rating
  against the references' anchored ratings, a 500-sample seeded bootstrap 95% CI over pairs, the corpus
  percentile and the corpus skill with the nearest rating.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import prompts
from ..corpus_index import DEFAULT_K, CorpusEntry, CorpusIndex, SkillQuery, content_hash, nearest, query_of
from ..document import SkillDocument
from ..llm.types import Request
from ..ranking import bootstrap_ci, mid_rank, rate_against
from .ask import CallsModels, Invalid, Tally, ask, reply_json
from .material import SkillMaterial, build_material

NO_INDEX = "no reference corpus index: run `skillgrade init CORPUS_DIR`"
MIN_PAIRS = 3  # completed pairs needed for a rating
PAIR_MAX_TOKENS = 400
SKILL_TOKEN_BUDGET = 24_000  # tokens of the skill's own material (cached: sent once per run at full price)
REFERENCE_TOKEN_BUDGET = 12_000  # tokens of each reference's material (uncached, in two calls)
MAX_REASON = 600
ORDERS = ("skill_first", "reference_first")  # skill as Skill A; reference as Skill A
KIND = "elo"

ProgressFn = Callable[[str, int, int], None]  # (what just finished, calls done, calls planned)


def pair_schema() -> dict[str, Any]:
    return {"type": "object",
            "properties": {"reason": {"type": "string"}, "winner": {"type": "string", "enum": ["A", "B", "tie"]}},
            "required": ["reason", "winner"], "additionalProperties": False}


def system_blocks(material: SkillMaterial) -> tuple[dict[str, Any], ...]:
    """[pairwise instructions (identical for every skill), this skill's data]: both cached."""
    return (
        {"type": "text", "text": prompts.text("pairwise_system.md").strip(), "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": material.block, "cache_control": {"type": "ephemeral"}},
    )


def reference_block(reference: SkillMaterial) -> dict[str, Any]:
    """The first user block: the reference's data, cached, so the second order of a pair reads it from the
    prompt cache (the prefix instructions + skill + reference is the same in both orders)."""
    return {"type": "text", "text": "The other skill:\n" + reference.block, "cache_control": {"type": "ephemeral"}}


def pair_request(material: SkillMaterial, reference: SkillMaterial, order: str, *, model: str) -> Request:
    """One order of one pair. order "skill_first": the skill is Skill A; "reference_first": the reference is.
    Only the task block (slot labels) differs between the two orders of a pair."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}")
    here = f'the skill in the system block (<skill_data id="{material.nonce}">)'
    there = f'the other skill, at the start of this message (<skill_data id="{reference.nonce}">)'
    slot_a, slot_b = (here, there) if order == "skill_first" else (there, here)
    task = {"type": "text", "text": prompts.render("pairwise.md", slot_a=slot_a, slot_b=slot_b)}
    return Request(kind=KIND, model=model, system=system_blocks(material),
                   messages=({"role": "user", "content": [reference_block(reference), task]},),
                   max_tokens=PAIR_MAX_TOKENS, json_schema=pair_schema(), prompt_version=prompts.prompt_version())


@dataclass(frozen=True, slots=True)
class Verdict:
    winner: str  # "A" | "B" | "tie"
    reason: str


def validate_pair(value: Any) -> Verdict:
    if not isinstance(value, dict):
        raise Invalid("expected one JSON object")
    missing = [k for k in ("reason", "winner") if k not in value]
    if missing:
        raise Invalid(f"missing required field(s): {', '.join(missing)}")
    winner, reason = value["winner"], value["reason"]
    if winner not in ("A", "B", "tie"):
        raise Invalid(f'winner must be "A", "B" or "tie"; got {winner!r}')
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid("reason must be a non-empty string")
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON:
        raise Invalid(f"reason is longer than {MAX_REASON} characters; give one sentence")
    return Verdict(winner, reason)


def side_of(order: str, slot: str) -> str:
    """Who won: "skill", "reference" or "tie", from the slot the model chose in this order."""
    if slot == "tie":
        return "tie"
    skill_slot = "A" if order == "skill_first" else "B"
    return "skill" if slot == skill_slot else "reference"


_SCORE = {"skill": 1.0, "tie": 0.5, "reference": 0.0}


def combine(first: Verdict, second: Verdict) -> tuple[str, float, bool]:
    """(winner, the skill's score, position bias) from the skill-first and reference-first verdicts."""
    a, b = side_of(ORDERS[0], first.winner), side_of(ORDERS[1], second.winner)
    if a == b:
        return a, _SCORE[a], False
    if first.winner == second.winner:  # the same slot both times: the position decided, not the skills
        return "tie", 0.5, True
    score = (_SCORE[a] + _SCORE[b]) / 2  # a winner and a tie
    return ("skill" if score > 0.5 else "reference"), score, False


@dataclass(frozen=True, slots=True)
class OrderResult:
    order: str
    slot: str | None  # "A" | "B" | "tie"; None: no valid reply
    winner: str | None  # "skill" | "reference" | "tie"
    reason: str | None  # the model's one-line reason
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"order": self.order, "slot": self.slot, "winner": self.winner, "reason": self.reason}
        if self.error is not None:
            d["error"] = self.error
        return d


@dataclass(frozen=True, slots=True)
class PairResult:
    reference: CorpusEntry
    reference_rating: float
    orders: tuple[OrderResult, ...]
    winner: str | None  # "skill" | "reference" | "tie"; None: the pair is left out
    score: float | None  # the skill's score in this pair (1, 0.75, 0.5, 0.25, 0); None: left out
    position_bias: bool = False
    error: str | None = None  # why the pair is left out

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "reference": {"name": self.reference.name, "path": self.reference.path,
                          "category": self.reference.category, "rating": round(self.reference_rating, 1)},
            "orders": [o.to_dict() for o in self.orders],
            "winner": self.winner, "score": self.score, "position_bias": self.position_bias,
        }
        if self.error is not None:
            d["error"] = self.error
        return d


@dataclass(slots=True)
class EloResult:
    skill: str
    model: str
    prompt_version: str
    rating: float | None  # None: unmeasured
    ci_low: float | None
    ci_high: float | None
    percentile: float | None  # 0-100 within the corpus index
    closest: dict[str, Any] | None  # the corpus skill with the nearest rating: name, path, rating
    matches: list[PairResult]
    k: int
    corpus_size: int  # rated corpus skills the percentile is taken over (the skill itself excluded)
    reason: str | None = None  # why unmeasured
    duration_s: float = 0.0
    usage: Tally = field(default_factory=Tally)

    @property
    def n_pairs(self) -> int:
        return sum(1 for m in self.matches if m.score is not None)

    @property
    def position_bias_pairs(self) -> int:
        return sum(1 for m in self.matches if m.position_bias)

    @property
    def measured(self) -> bool:
        return self.rating is not None

    @property
    def elo(self) -> float | None:
        """The value for `scoring.badge(composite, elo)` and `Composite.elo`: the rating, or None (no gate)."""
        return None if self.rating is None else round(self.rating, 1)

    def to_dict(self) -> dict[str, Any]:
        r = lambda x: None if x is None else round(x, 1)  # noqa: E731
        return {
            "rating": r(self.rating), "ci_low": r(self.ci_low), "ci_high": r(self.ci_high),
            "ci_level": 0.95, "percentile": None if self.percentile is None else round(self.percentile, 1),
            "closest": self.closest, "n_pairs": self.n_pairs, "k": self.k,
            "position_bias_pairs": self.position_bias_pairs, "corpus_size": self.corpus_size,
            "model": self.model, "prompt_version": self.prompt_version,
            "matches": [m.to_dict() for m in self.matches],
            "unmeasured": self.reason, "duration_s": self.duration_s, "usage": self.usage.to_dict(),
        }


# ---- planning ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Ref:
    entry: CorpusEntry
    rating: float
    material: SkillMaterial | None
    error: str | None


def _document(report_or_doc: Any) -> SkillDocument:
    doc = getattr(report_or_doc, "document", report_or_doc)
    if not isinstance(doc, SkillDocument):
        raise TypeError("run_elo needs a Report with its document or a SkillDocument")
    return doc


def _reference(entry: CorpusEntry, rating: float) -> _Ref:
    from ..parse import decode, parse

    try:
        data = Path(entry.path).read_bytes()
    except OSError as exc:
        return _Ref(entry, rating, None, f"reference {entry.path} cannot be read ({exc.strerror or exc}); "
                                         "run `skillgrade init` again")
    if content_hash(data) != entry.content_hash:
        return _Ref(entry, rating, None, f"reference {entry.path} changed since `skillgrade init`; run it again")
    text, binary = decode(data)
    doc = parse(text, Path(entry.path), binary=binary)
    return _Ref(entry, rating, build_material(doc, token_budget=REFERENCE_TOKEN_BUDGET), None)


def _plan(doc: SkillDocument, index: CorpusIndex, k: int) -> tuple[SkillQuery, SkillMaterial, list[_Ref]]:
    query = query_of(doc)
    ratings = index.ratings()
    refs = [_reference(e, ratings[e.path]) for e in nearest(index, query, k)]
    return query, build_material(doc, token_budget=SKILL_TOKEN_BUDGET), refs


def planned_requests(report_or_doc: Any, index: CorpusIndex | None, *, model: str,
                     k: int = DEFAULT_K) -> list[Request]:
    """The requests an Elo run will send when every reply is valid (for `--dry-run` estimates): two per
    readable nearest reference; none without an index. Re-asks are not included."""
    if index is None:
        return []
    _q, material, refs = _plan(_document(report_or_doc), index, k)
    return [pair_request(material, r.material, order, model=model) for r in refs if r.material is not None
            for order in ORDERS]


# ---- the run ----------------------------------------------------------------------------------------------

def _others(index: CorpusIndex, query: SkillQuery) -> list[tuple[CorpusEntry, float]]:
    """Every rated corpus entry except the skill itself (same content hash or path), with its anchor rating."""
    ratings = index.ratings()
    return [(e, ratings[e.path]) for e in index.entries
            if e.path in ratings and e.content_hash != query.content_hash and e.path != query.path]


def _closest(index: CorpusIndex, query: SkillQuery, rating: float) -> dict[str, Any] | None:
    best = min(_others(index, query), key=lambda er: (abs(er[1] - rating), er[0].name, er[0].path), default=None)
    if best is None:
        return None
    e, r = best
    return {"name": e.name, "path": e.path, "category": e.category, "rating": round(r, 1)}


def _unmeasured(name: str, model: str, k: int, index: CorpusIndex | None, reason: str, t0: float,
                matches: list[PairResult] | None = None, tally: Tally | None = None) -> EloResult:
    return EloResult(name, model, prompts.prompt_version(), None, None, None, None, None, matches or [], k,
                     len(index.entries) if index is not None else 0, reason, round(time.perf_counter() - t0, 3),
                     tally or Tally())


async def run_elo(report_or_doc: Any, gateway: CallsModels, index: CorpusIndex | None, *, model: str,
                  k: int = DEFAULT_K, progress: ProgressFn | None = None) -> EloResult:
    """Rate one skill against its k nearest references. Never raises on model failures: pairs that could not
    be judged are left out with the reason, and Elo is unmeasured (rating None, `reason`) when fewer than
    MIN_PAIRS pairs completed or there is no index. Cancellation (asyncio.CancelledError) propagates."""
    t0 = time.perf_counter()
    doc = _document(report_or_doc)
    if index is None:
        return _unmeasured(query_of(doc).name, model, k, None, NO_INDEX, t0)
    query, material, refs = _plan(doc, index, k)
    if not refs:
        return _unmeasured(query.name, model, k, index, "the corpus index holds no reference other than this "
                           "skill: index more reference skills with `skillgrade init CORPUS_DIR`", t0)
    tally = Tally()
    planned = 2 * sum(1 for r in refs if r.material is not None)
    done = 0

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(label, done, max(planned, done))

    async def one_order(ref: _Ref, order: str) -> OrderResult:
        assert ref.material is not None
        asked = await ask(gateway, pair_request(material, ref.material, order, model=model),
                          lambda rep: validate_pair(reply_json(rep)), tally=tally)
        tick(f"compared with {ref.entry.name}")
        if asked.value is None:
            return OrderResult(order, None, None, None, asked.reason or "no reply")
        return OrderResult(order, asked.value.winner, side_of(order, asked.value.winner), asked.value.reason)

    # The first call writes the cached prefix (instructions + this skill); the other pairs start once it has
    # answered. Within a pair the reference-first order follows the skill-first one, so it reads the
    # reference from the prompt cache too.
    warm = asyncio.Event()

    async def one_pair(ref: _Ref, first: bool) -> PairResult:
        if ref.material is None:
            return PairResult(ref.entry, ref.rating, (), None, None, False, ref.error)
        if not first:
            await warm.wait()
        try:
            o1 = await one_order(ref, ORDERS[0])
        finally:
            if first:
                warm.set()
        o2 = await one_order(ref, ORDERS[1])
        orders = (o1, o2)
        failed = [o for o in orders if o.slot is None]
        if failed:
            why = "; ".join(f"{o.order.replace('_', ' ')}: {o.error}" for o in failed)
            return PairResult(ref.entry, ref.rating, orders, None, None, False, why)
        winner, score, bias = combine(Verdict(o1.slot or "", o1.reason or ""), Verdict(o2.slot or "", o2.reason or ""))
        return PairResult(ref.entry, ref.rating, orders, winner, score, bias)

    first_readable = next((i for i, r in enumerate(refs) if r.material is not None), -1)
    tasks = [asyncio.create_task(one_pair(r, i == first_readable)) for i, r in enumerate(refs)]
    try:
        matches: list[PairResult] = [await t for t in tasks]
    finally:
        for t in tasks:
            t.cancel()

    completed = [(m.reference_rating, m.score) for m in matches if m.score is not None]
    if len(completed) < MIN_PAIRS:
        reasons = "; ".join(dict.fromkeys(m.error for m in matches if m.error)) or "no pair completed"
        return _unmeasured(query.name, model, k, index,
                           f"only {len(completed)} of {len(matches)} comparison pair(s) completed (at least "
                           f"{MIN_PAIRS} needed): {reasons}", t0, matches, tally)
    results: list[tuple[float, float]] = [(r, s) for r, s in completed if s is not None]
    rating = rate_against(results)
    lo, hi = bootstrap_ci(results, rate_against)
    corpus = [r for e, r in _others(index, query)]
    return EloResult(
        query.name, model, prompts.prompt_version(), rating, lo, hi, 100.0 * mid_rank(corpus, rating),
        _closest(index, query, rating), matches, k, len(corpus), None,
        round(time.perf_counter() - t0, 3), tally)


def elo_summary(result: EloResult) -> str:
    """One line for a text report."""
    if result.rating is None:
        return f"Elo: unmeasured ({result.reason})"
    bias = f", position bias in {result.position_bias_pairs}" if result.position_bias_pairs else ""
    closest = f"; closest: {result.closest['name']} ({result.closest['rating']:.0f})" if result.closest else ""
    return (f"Elo {result.rating:.0f} (95% CI {result.ci_low:.0f}-{result.ci_high:.0f}), corpus percentile "
            f"{result.percentile:.0f} of {result.corpus_size}, {result.n_pairs} of {len(result.matches)} "
            f"pairs{bias}{closest}")


