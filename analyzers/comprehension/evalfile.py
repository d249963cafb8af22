"""Eval files (seed 004 §6.1): the model, and validation with file/line/column.

An eval file is a JSON object with an `evals` array of cases (`skill_name`, `subject`, `adjacent_concepts`,
`grounding_note` beside it). A case has `id` and `prompt` (required), the de-facto fields (`dimension`,
`substance`, `calibration`, `truth_mode`, `skill_type`, `criticality`, `truth_sources`), optional
`expected_reasoning`, and the comprehension extensions: `comprehension_dimension` (C1–C9), `concept_field`,
`transfer` (near/far) and `expected_behaviors[{id, kind: positive|negative, description}]`.

`validate_text(text, skill_body=None)` -> (EvalFile | None, findings). `claims(text)` says whether a JSON
text is an eval file at all (a top-level object with an `evals` key), so the editor only reports on those.
Codes (docs/comprehension.md#codes):

- EVAL_JSON (error): not JSON; EVAL_SHAPE (error): a value of the wrong type or a required field missing;
- EVAL_DUPLICATE_ID (error): two cases, or two behaviors of a case, with the same id;
- EVAL_DUPLICATE_KEY (warning): a key repeated in one object (the last one wins, the others are lost);
- EVAL_UNKNOWN_VALUE (error for the comprehension extensions, warning for the de-facto enums): a value
  outside the documented set;
- EVAL_MISSING_FIELD (warning): a de-facto field absent;
- EVAL_INCOMPLETE_CASE (warning): a case with a comprehension dimension and no behaviors, or the reverse
  (the runner cannot grade it);
- EVAL_FIELD_MISMATCH (warning): `concept_field` not the one the rubric ties to the dimension (§5.1);
- EVAL_FAR_TRANSFER_OVERLAP (warning, R4): a `transfer: far` prompt shares a 4-gram with the skill body.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..findings import Finding, Range, Severity
from . import jsonpos
from .overlap import FAR_TRANSFER_N, far_transfer_overlap

DIMENSIONS = ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9")
DIMENSION_TITLES = {
    "C1": "Definitional precision", "C2": "Mental-model fidelity", "C3": "Purpose articulation",
    "C4": "Boundary discrimination", "C5": "Taxonomy navigation", "C6": "Analogy reuse with limit",
    "C7": "Misconception inoculation", "C8": "Verification application", "C9": "Negative-boundary refusal",
}
# §5.1: the concept field each dimension is measured against (C8, C9: body sections, no concept field)
CONCEPT_FIELD_OF = {"C1": "definition", "C2": "mental_model", "C3": "purpose", "C4": "boundary",
                    "C5": "taxonomy", "C6": "analogy", "C7": "misconception", "C8": None, "C9": None}
CONCEPT_FIELDS = ("definition", "mental_model", "purpose", "boundary", "taxonomy", "analogy", "misconception")
TRANSFERS = ("near", "far")
KINDS = ("positive", "negative")
# de-facto enums observed in the reference repository (§2.1, §6.1)
DEFACTO_ENUMS: dict[str, tuple[str, ...]] = {
    "dimension": ("definition", "mental_model", "purpose", "boundary", "application", "rule_conflict",
                  "anti_pattern"),
    "substance": ("domain", "contradiction-check"),
    "calibration": ("semantic", "process"),
    "truth_mode": ("code_verification", "conceptual_correctness_plus_repo_application", "process_correctness"),
    "skill_type": ("concept", "workflow"),
    "criticality": ("normal", "high", "critical"),
}
DEFACTO_FIELDS = (*DEFACTO_ENUMS, "truth_sources")


@dataclass(frozen=True, slots=True)
class Behavior:
    id: str
    kind: str  # "positive" | "negative"
    description: str


@dataclass(frozen=True, slots=True)
class EvalCase:
    id: int | str
    prompt: str
    index: int  # position in `evals`
    line: int  # 0-based line of the case object
    comprehension_dimension: str | None = None
    concept_field: str | None = None
    transfer: str | None = None
    expected_behaviors: tuple[Behavior, ...] = ()
    expected_reasoning: str | None = None
    criticality: str | None = None
    dimension: str | None = None

    @property
    def gradable(self) -> bool:
        """The comprehension runner grades a case with a C1–C9 dimension and at least one behavior."""
        return self.comprehension_dimension in DIMENSIONS and bool(self.expected_behaviors)


@dataclass(slots=True)
class EvalFile:
    skill_name: str | None
    subject: str | None
    cases: list[EvalCase] = field(default_factory=list)

    @property
    def comprehension_cases(self) -> list[EvalCase]:
        return [c for c in self.cases if c.gradable]


def claims(text: str) -> bool:
    """An eval file: a top-level JSON object with an `evals` key (cheap test before a full validation).
    Files with invalid JSON are claimed when their text names `"evals"` so their syntax error is shown."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting too deep for json (jsonpos reports it)
        return '"evals"' in text
    return isinstance(value, dict) and "evals" in value


class _Findings:
    def __init__(self, text: str, loc: jsonpos.Located | None) -> None:
        self.index = jsonpos.LineIndex(text)
        self.loc = loc
        self.items: list[Finding] = []

    def range_of(self, start: int, end: int) -> Range:
        sl, sc = self.index.pos(start)
        el, ec = self.index.pos(max(end, start))
        return Range.of(sl, sc, el, ec)

    def add(self, code: str, severity: Severity, path: jsonpos.Path, message: str, *, key: bool = False) -> None:
        assert self.loc is not None
        start, end = self.loc.key_span(path) if key else self.loc.span(path)
        if not key and end - start > 200:  # a long object or string: point at its first line only
            end = start + 1
        self.items.append(Finding(code, severity, self.range_of(start, end), message))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def validate_text(text: str, skill_body: str | None = None) -> tuple[EvalFile | None, list[Finding]]:
    """Parse and check an eval file. `skill_body` (the SKILL.md body, when known) enables the R4 lint."""
    try:
        loc = jsonpos.load(text)
    except jsonpos.JSONPosError as exc:
        f = _Findings(text, None)
        return None, [Finding("EVAL_JSON", Severity.ERROR, f.range_of(exc.offset, exc.offset + 1),
                              f"not valid JSON: {exc.message}")]
    out = _Findings(text, loc)
    for path, _span in loc.duplicates:
        out.add("EVAL_DUPLICATE_KEY", Severity.WARNING, path,
                f"key {path[-1]!r} appears more than once in this object; only the last value is read", key=True)
    root = loc.value
    if not isinstance(root, dict):
        out.add("EVAL_SHAPE", Severity.ERROR, (), f"an eval file is a JSON object, found {_type_name(root)}")
        return None, out.items
    for key in ("skill_name", "subject", "grounding_note"):
        if key in root and not isinstance(root[key], str):
            out.add("EVAL_SHAPE", Severity.ERROR, (key,), f"`{key}` must be a string, found {_type_name(root[key])}")
    if "adjacent_concepts" in root and not (isinstance(root["adjacent_concepts"], list)
                                            and all(isinstance(x, str) for x in root["adjacent_concepts"])):
        out.add("EVAL_SHAPE", Severity.ERROR, ("adjacent_concepts",), "`adjacent_concepts` must be an array of skill names")
    if "skill_name" not in root:
        out.add("EVAL_MISSING_FIELD", Severity.WARNING, (), "no `skill_name`: the file cannot be tied to its skill")
    evals = root.get("evals")
    model = EvalFile(root.get("skill_name") if isinstance(root.get("skill_name"), str) else None,
                     root.get("subject") if isinstance(root.get("subject"), str) else None)
    if not isinstance(evals, list):
        if "evals" not in root:
            out.add("EVAL_SHAPE", Severity.ERROR, (), "no `evals` array")
        else:
            out.add("EVAL_SHAPE", Severity.ERROR, ("evals",), f"`evals` must be an array, found {_type_name(evals)}")
        return model, out.items
    seen_ids: dict[Any, int] = {}
    for i, case in enumerate(evals):
        got = _case(out, case, i, seen_ids, skill_body)
        if got is not None:
            model.cases.append(got)
    return model, out.items


def _case(out: _Findings, case: Any, i: int, seen_ids: dict[Any, int], skill_body: str | None) -> EvalCase | None:
    p: jsonpos.Path = ("evals", i)
    if not isinstance(case, dict):
        out.add("EVAL_SHAPE", Severity.ERROR, p, f"case {i + 1} must be an object, found {_type_name(case)}")
        return None
    ok = True
    cid = case.get("id")
    if "id" not in case:
        out.add("EVAL_SHAPE", Severity.ERROR, p, f"case {i + 1} has no `id`")
        ok = False
    elif not (_is_int(cid) or (isinstance(cid, str) and cid.strip())):
        out.add("EVAL_SHAPE", Severity.ERROR, (*p, "id"), f"`id` must be a number or a non-empty string, found {_type_name(cid)}")
        ok = False
    else:
        if cid in seen_ids:
            out.add("EVAL_DUPLICATE_ID", Severity.ERROR, (*p, "id"),
                    f"case id {cid!r} is already used by case {seen_ids[cid] + 1}")
        else:
            seen_ids[cid] = i
    prompt = case.get("prompt")
    if "prompt" not in case:
        out.add("EVAL_SHAPE", Severity.ERROR, p, f"case {cid if ok else i + 1} has no `prompt`")
        ok = False
    elif not isinstance(prompt, str) or not prompt.strip():
        out.add("EVAL_SHAPE", Severity.ERROR, (*p, "prompt"), "`prompt` must be a non-empty string")
        ok = False
    name = f"case {cid}" if "id" in case else f"case {i + 1}"
    missing = [k for k in DEFACTO_FIELDS if k not in case]
    if missing:
        out.add("EVAL_MISSING_FIELD", Severity.WARNING, p, f"{name} has no {', '.join(f'`{k}`' for k in missing)}")
    for key, allowed in DEFACTO_ENUMS.items():
        v = case.get(key)
        if key in case and not isinstance(v, str):
            out.add("EVAL_SHAPE", Severity.ERROR, (*p, key), f"`{key}` must be a string, found {_type_name(v)}")
        elif isinstance(v, str) and v not in allowed:
            out.add("EVAL_UNKNOWN_VALUE", Severity.WARNING, (*p, key),
                    f"`{key}`: {v!r} is not one of the documented values ({', '.join(allowed)})")
    ts = case.get("truth_sources")
    if "truth_sources" in case and not (isinstance(ts, list) and all(isinstance(x, str) for x in ts)):
        out.add("EVAL_SHAPE", Severity.ERROR, (*p, "truth_sources"), "`truth_sources` must be an array of strings")
    er = case.get("expected_reasoning")
    if "expected_reasoning" in case and not isinstance(er, str):
        out.add("EVAL_SHAPE", Severity.ERROR, (*p, "expected_reasoning"), "`expected_reasoning` must be a string")

    dim = _ext(out, case, p, "comprehension_dimension", DIMENSIONS)
    cf = _ext(out, case, p, "concept_field", CONCEPT_FIELDS, nullable=True)
    transfer = _ext(out, case, p, "transfer", TRANSFERS)
    behaviors = _behaviors(out, case, p)
    if dim is not None and "concept_field" in case and cf != CONCEPT_FIELD_OF[dim] and (
            cf is not None or case["concept_field"] is None):
        want = CONCEPT_FIELD_OF[dim]
        out.add("EVAL_FIELD_MISMATCH", Severity.WARNING, (*p, "concept_field"),
                f"{dim} is measured against {f'`{want}`' if want else 'no concept field (null)'} (rubric §5.1), "
                f"not {cf!r}")
    if dim is not None and behaviors == ():
        out.add("EVAL_INCOMPLETE_CASE", Severity.WARNING, (*p, "comprehension_dimension"),
                f"{name} names {dim} but has no `expected_behaviors`: the comprehension runner cannot grade it")
    if "comprehension_dimension" not in case and behaviors:
        out.add("EVAL_INCOMPLETE_CASE", Severity.WARNING, (*p, "expected_behaviors"),
                f"{name} has `expected_behaviors` but no `comprehension_dimension`: it belongs to no C1–C9 dimension")
    if transfer == "far" and skill_body and isinstance(prompt, str):
        ov = far_transfer_overlap(prompt, skill_body)
        if not ov.passed:
            shown = ", ".join(f"“{g}”" for g in ov.overlap_ngrams[:3])
            more = f" and {len(ov.overlap_ngrams) - 3} more" if len(ov.overlap_ngrams) > 3 else ""
            out.add("EVAL_FAR_TRANSFER_OVERLAP", Severity.WARNING, (*p, "transfer"),
                    f"{name} is tagged `transfer: far` but its prompt shares {FAR_TRANSFER_N}-gram(s) with the skill "
                    f"body ({shown}{more}): the scenario is lifted from the body, i.e. near transfer")
    if not ok:
        return None
    span = out.loc.span(p) if out.loc else (0, 0)
    return EvalCase(
        id=cid, prompt=prompt, index=i, line=out.index.pos(span[0])[0],
        comprehension_dimension=dim, concept_field=cf, transfer=transfer,
        expected_behaviors=behaviors or (), expected_reasoning=er if isinstance(er, str) else None,
        criticality=case.get("criticality") if isinstance(case.get("criticality"), str) else None,
        dimension=case.get("dimension") if isinstance(case.get("dimension"), str) else None)


def _ext(out: _Findings, case: dict, p: jsonpos.Path, key: str, allowed: tuple[str, ...],
         nullable: bool = False) -> str | None:
    if key not in case:
        return None
    v = case[key]
    if v is None and nullable:
        return None
    if not isinstance(v, str) or v not in allowed:
        shown = repr(v) if isinstance(v, str) else _type_name(v)
        out.add("EVAL_UNKNOWN_VALUE", Severity.ERROR, (*p, key),
                f"`{key}` must be one of {', '.join(allowed)}{' or null' if nullable else ''}, found {shown}")
        return None
    return v


def _behaviors(out: _Findings, case: dict, p: jsonpos.Path) -> tuple[Behavior, ...] | None:
    """The behaviors; () when the key is absent or the array empty; None when present but unusable."""
    if "expected_behaviors" not in case:
        return ()
    bp = (*p, "expected_behaviors")
    raw = case["expected_behaviors"]
    if not isinstance(raw, list):
        out.add("EVAL_SHAPE", Severity.ERROR, bp, f"`expected_behaviors` must be an array, found {_type_name(raw)}")
        return None
    got: list[Behavior] = []
    seen: dict[str, int] = {}
    bad = False
    for j, b in enumerate(raw):
        q = (*bp, j)
        if not isinstance(b, dict):
            out.add("EVAL_SHAPE", Severity.ERROR, q, f"behavior {j + 1} must be an object, found {_type_name(b)}")
            bad = True
            continue
        missing = [k for k in ("id", "kind", "description") if k not in b]
        if missing:
            out.add("EVAL_SHAPE", Severity.ERROR, q,
                    f"behavior {j + 1} has no {', '.join(f'`{k}`' for k in missing)}")
            bad = True
            continue
        bid, kind, desc = b["id"], b["kind"], b["description"]
        if not isinstance(bid, str) or not bid.strip():
            out.add("EVAL_SHAPE", Severity.ERROR, (*q, "id"), "a behavior `id` must be a non-empty string")
            bad = True
            continue
        if kind not in KINDS:
            shown = repr(kind) if isinstance(kind, str) else _type_name(kind)
            out.add("EVAL_UNKNOWN_VALUE", Severity.ERROR, (*q, "kind"),
                    f"behavior `kind` must be positive or negative, found {shown}")
            bad = True
        if not isinstance(desc, str) or not desc.strip():
            out.add("EVAL_SHAPE", Severity.ERROR, (*q, "description"), "a behavior `description` must be a non-empty string")
            bad = True
        if bid in seen:
            out.add("EVAL_DUPLICATE_ID", Severity.ERROR, (*q, "id"),
                    f"behavior id {bid!r} is already used by behavior {seen[bid] + 1} of this case")
            bad = True
        else:
            seen[bid] = j
        got.append(Behavior(bid, kind if isinstance(kind, str) else "", desc if isinstance(desc, str) else ""))
    return None if bad else tuple(got)
