"""Mechanical compliance checks on a grader's verdict (seed 004, Appendix A.4 "Compliance is mechanically
checkable") — pure: the parsed verdict, the case's behaviors and the agent's answer -> violations.

- RULE-1: count(behavior_verdicts) == count(expected_behaviors)
- RULE-9: set(behavior_verdict.id) == set(expected_behavior.id)
- RULE-2: every evidence_quote non-empty and an exact substring of the agent's answer
- RULE-6: no hedge word in the rationale (or any other text the grader wrote) of a FAIL
plus: every verdict PASS or FAIL. Violations trigger a re-ask. Departures that do not make the verdict
unusable — a `kind` other than the input's, a `dimension_verdict` that is not the aggregate of the behavior
verdicts (we compute the aggregate ourselves), a missing `dimension_verdict` — are kept as notes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .. import rx
from .evalfile import Behavior

# the seed's list (A.4, RULE-6) and a few unambiguous softeners, matched case-insensitively on word boundaries
HEDGE_WORDS = ("could be improved", "worth reviewing", "could be strengthened", "might be", "perhaps",
               "possibly", "arguably", "somewhat", "worth considering", "could be better")
_HEDGE = rx.compile(r"\b(" + "|".join(re.escape(h) for h in HEDGE_WORDS) + r")\b", re.I)
_VERDICT_BLOCK = rx.compile(r"<verdict>(.*?)</verdict>", re.S)


class Unparsable(ValueError):
    """The grader's reply holds no JSON verdict object."""


def parse_verdict(text: str) -> dict[str, Any]:
    """The JSON object in a <verdict>…</verdict> block, else a ```json fence, else the outermost {…}."""
    m = _VERDICT_BLOCK.search(text or "")
    candidate = (m.group(1) if m else text or "").strip()
    if candidate.startswith("```"):
        candidate = candidate.split("\n", 1)[1] if "\n" in candidate else ""
        candidate = candidate.rstrip().removesuffix("```")
    try:
        value = json.loads(candidate)
    except (ValueError, RecursionError):
        a, b = candidate.find("{"), candidate.rfind("}")
        if a < 0 or b <= a:
            raise Unparsable("the reply holds no <verdict> JSON object") from None
        try:
            value = json.loads(candidate[a:b + 1])
        except (ValueError, RecursionError) as exc:
            raise Unparsable(f"the verdict is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise Unparsable("the verdict is not a JSON object")
    return value


@dataclass(frozen=True, slots=True)
class BehaviorVerdict:
    id: str
    kind: str
    verdict: str  # "PASS" | "FAIL"
    evidence_quote: str
    rationale: str

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "verdict": self.verdict, "evidence_quote": self.evidence_quote,
                "rationale": self.rationale}


def hedges(text: str) -> list[str]:
    return [m.group(1).lower() for m in _HEDGE.finditer(text or "")]


_OWN_FIELDS = ("id", "kind", "verdict", "evidence_quote")


def check(value: dict[str, Any], behaviors: tuple[Behavior, ...],
          answer: str) -> tuple[list[str], list[BehaviorVerdict], list[str]]:
    """(violations, the well-formed behavior verdicts, notes). No violations: one verdict per behavior, in input
    order."""
    problems: list[str] = []
    notes: list[str] = []
    raw = value.get("behavior_verdicts")
    if not isinstance(raw, list):
        return ["`behavior_verdicts` is missing or not an array"], [], []
    expected = {b.id: b for b in behaviors}
    if len(raw) != len(behaviors):
        problems.append(f"RULE-1: {len(raw)} behavior verdict(s) for {len(behaviors)} expected behavior(s)")
    got: dict[str, BehaviorVerdict] = {}
    ids: list[str] = []
    for i, v in enumerate(raw):
        if not isinstance(v, dict):
            problems.append(f"behavior verdict {i + 1} is not an object")
            continue
        bid = v.get("id")
        if not isinstance(bid, str):
            problems.append(f"behavior verdict {i + 1} has no string `id`")
            continue
        ids.append(bid)
        verdict, quote, why, kind = v.get("verdict"), v.get("evidence_quote"), v.get("rationale"), v.get("kind")
        ok = True
        if verdict not in ("PASS", "FAIL"):
            problems.append(f"{bid}: verdict must be PASS or FAIL, got {verdict!r}")
            ok = False
        if not isinstance(quote, str) or not quote.strip():
            problems.append(f"RULE-2: {bid}: empty evidence_quote")
            ok = False
        elif quote not in answer:
            problems.append(f"RULE-2: {bid}: evidence_quote is not an exact substring of the agent's answer: "
                            f"{quote[:120]!r}")
            ok = False
        if not isinstance(why, str):
            why = ""
        if verdict == "FAIL":
            texts = [why] + [x for k, x in v.items() if k not in _OWN_FIELDS and k != "rationale" and isinstance(x, str)]
            found = [h for t in texts for h in hedges(t)]
            if found:
                problems.append(f"RULE-6: {bid}: hedge word(s) on a FAIL: {', '.join(sorted(set(found)))}")
                ok = False
        if bid in expected and kind is not None and kind != expected[bid].kind:
            notes.append(f"{bid}: the grader wrote kind {kind!r}, the input says {expected[bid].kind!r}")
        if bid in got:
            problems.append(f"RULE-1: {bid} has more than one verdict")
            ok = False
        if ok and bid in expected:
            got[bid] = BehaviorVerdict(bid, expected[bid].kind, verdict, quote, why)
    missing = [b.id for b in behaviors if b.id not in ids]
    extra = sorted({i for i in ids if i not in expected})
    if missing:
        problems.append(f"RULE-9: no verdict for {', '.join(missing)}")
    if extra:
        problems.append(f"RULE-9: verdicts for ids that are not expected behaviors: {', '.join(extra)}")
    dv = value.get("dimension_verdict")
    if not problems:
        want = "PASS" if all(got[b.id].verdict == "PASS" for b in behaviors) else "FAIL"
        if dv != want:
            notes.append(f"the grader's dimension_verdict {dv!r} is not the aggregate of its behavior verdicts "
                         f"({want}); the aggregate is used")
    return problems, [got[b.id] for b in behaviors if b.id in got], notes
