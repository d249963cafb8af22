"""Calibrate binary judges (seed 003) on labelled examples: TPR and TNR with Wilson 95% intervals.

A judge's job is to catch failures, so a *positive* is an output labelled FAIL:

- TPR (true positive rate) = labelled-FAIL outputs the judge fails / all labelled-FAIL outputs ("catches real
  failures");
- TNR (true negative rate) = labelled-PASS outputs the judge passes / all labelled-PASS outputs ("doesn't flag
  good outputs").

A judge is flagged when either point estimate is under 90% or cannot be computed (no example of that label).
Every disagreement is listed with the judge's critique, for the author to revise the criterion or add
examples (the seed's "criteria drift" loop). An example the judge could not answer is listed as unmeasured
and left out of both rates.

Files: `judges.yaml` = {version: "1.0", judges: [{id, criterion, examples: [{output, result, critique,
input}]}]}; `labelled.jsonl` = one JSON object per line: {"judge": id, "output": str, "label": "PASS"|"FAIL",
"input": str (optional), "id": str (optional)}.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import SequenceNode

from ..stats import Interval, wilson
from .judges import judge_binary
from .suite import VERSION, Example, SuiteError, SuiteInvalid, _Checker, _yaml_error

TARGET = 0.9
MAX_EXCERPT = 300


@dataclass(frozen=True, slots=True)
class BinaryJudge:
    id: str
    criterion: str
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True, slots=True)
class Labelled:
    id: str
    judge: str
    output: str
    label: str  # PASS / FAIL
    input: str = ""


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SuiteInvalid([SuiteError(str(path), 1, 1, "file not found")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteInvalid([SuiteError(str(path), 1, 1, f"cannot read it: {exc}")]) from None


def parse_judges(text: str, file: str) -> list[BinaryJudge]:
    """The judges of a judges.yaml, or SuiteInvalid with every error (file:line:col)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise SuiteInvalid([_yaml_error(file, exc)]) from None
    if node is None:
        raise SuiteInvalid([SuiteError(file, 1, 1, "the judges file is empty")])
    c = _Checker(file, None)
    out: list[BinaryJudge] = []
    top = c.mapping(node, "the judges file")
    if top is not None:
        if "version" in top and getattr(top["version"][1], "value", None) != VERSION:
            c.err(top["version"][1], f'the judges file: `version` must be "{VERSION}"')
        if "judges" not in top:
            c.err(node, "the judges file: missing `judges` (a non-empty list)")
        else:
            jnode = top["judges"][1]
            if not isinstance(jnode, SequenceNode) or not jnode.value:
                c.err(jnode, "the judges file: `judges` must be a non-empty list")
            else:
                seen: set[str] = set()
                for i, item in enumerate(jnode.value, 1):
                    m = c.mapping(item, f"judge {i}")
                    if m is None:
                        continue
                    jid = c.text(m, "id", item, f"judge {i}")
                    what = f"judge {jid!r}" if jid else f"judge {i}"
                    if jid is not None and jid in seen:
                        c.err(m["id"][1], f"{what}: duplicate judge id")
                    criterion = c.text(m, "criterion", item, what)
                    examples = c.examples(m, what)
                    if jid is not None and criterion is not None and examples is not None and jid not in seen:
                        out.append(BinaryJudge(jid, criterion, examples))
                    if jid is not None:
                        seen.add(jid)
    if c.errors:
        raise SuiteInvalid(sorted(c.errors, key=lambda e: (e.line, e.column)))
    return out


def parse_labels(text: str, file: str, judge_ids: set[str]) -> list[Labelled]:
    """The labelled examples of a .jsonl file, or SuiteInvalid with every error (file:line:1)."""
    errors: list[SuiteError] = []
    out: list[Labelled] = []
    ids: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            errors.append(SuiteError(file, n, getattr(exc, "colno", 1), f"not JSON: {getattr(exc, 'msg', exc)}"))
            continue
        if not isinstance(item, dict):
            errors.append(SuiteError(file, n, 1, "each line must be a JSON object"))
            continue
        judge, output, label = item.get("judge"), item.get("output"), item.get("label")
        bad = []
        if not isinstance(judge, str) or judge not in judge_ids:
            bad.append(f"`judge` must name a judge of the judges file ({', '.join(sorted(judge_ids))}), "
                       f"got {judge!r}")
        if not isinstance(output, str):
            bad.append("`output` must be a string")
        if not isinstance(label, str) or label.strip().upper() not in ("PASS", "FAIL"):
            bad.append(f"`label` must be PASS or FAIL, got {label!r}")
        inp = item.get("input", "")
        if not isinstance(inp, str):
            bad.append("`input` must be a string")
        eid = item.get("id", f"line {n}")
        if not isinstance(eid, str | int) or str(eid) in ids:
            bad.append(f"`id` must be unique, got {eid!r}")
        for b in bad:
            errors.append(SuiteError(file, n, 1, b))
        if not bad:
            ids.add(str(eid))
            out.append(Labelled(str(eid), judge, output, label.strip().upper(), inp))
    if not out and not errors:
        errors.append(SuiteError(file, 1, 1, "no labelled examples"))
    if errors:
        raise SuiteInvalid(errors)
    return out


def load_calibration(judges_path: Path, labels_path: Path) -> tuple[list[BinaryJudge], list[Labelled]]:
    """Both files, or SuiteInvalid with every error of the first file that has any."""
    judges = parse_judges(_read(judges_path), str(judges_path))
    labels = parse_labels(_read(labels_path), str(labels_path), {j.id for j in judges})
    return judges, labels


@dataclass(slots=True)
class JudgeCalibration:
    judge: str
    tp: int = 0  # labelled FAIL, judged FAIL
    fn: int = 0  # labelled FAIL, judged PASS
    tn: int = 0  # labelled PASS, judged PASS
    fp: int = 0  # labelled PASS, judged FAIL
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    unmeasured: list[dict[str, Any]] = field(default_factory=list)

    @property
    def tpr(self) -> Interval:
        return wilson(self.tp, self.tp + self.fn)

    @property
    def tnr(self) -> Interval:
        return wilson(self.tn, self.tn + self.fp)

    @property
    def problems(self) -> list[str]:
        out = []
        for name, iv, what in (("TPR", self.tpr, "FAIL"), ("TNR", self.tnr, "PASS")):
            if iv.rate is None:
                out.append(f"{name} unmeasured: no {what}-labelled example was judged")
            elif iv.rate < TARGET:
                out.append(f"{name} {100 * iv.rate:.0f}% is under {100 * TARGET:.0f}%")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"judge": self.judge, "tp": self.tp, "fn": self.fn, "tn": self.tn, "fp": self.fp,
                "tpr": self.tpr.to_dict(), "tnr": self.tnr.to_dict(), "flagged": bool(self.problems),
                "problems": self.problems, "disagreements": self.disagreements, "unmeasured": self.unmeasured}


async def calibrate(judges: list[BinaryJudge], labels: list[Labelled], gateway: Any, *, model: str,
                    progress: Callable[[int, int], None] | None = None) -> list[JudgeCalibration]:
    """Run every judge on its labelled examples (through the gateway: cached, counted, bounded)."""
    by_id = {j.id: j for j in judges}
    results = {j.id: JudgeCalibration(j.id) for j in judges}
    done = 0

    async def one(ex: Labelled) -> None:
        nonlocal done
        j = by_id[ex.judge]
        v = await judge_binary(gateway, j.criterion, j.examples, ex.input, ex.output, model=model)
        cal = results[ex.judge]
        if v.passed is None:
            cal.unmeasured.append({"id": ex.id, "label": ex.label, "reason": v.error})
        else:
            said = "PASS" if v.passed else "FAIL"
            if ex.label == "FAIL":
                if said == "FAIL":
                    cal.tp += 1
                else:
                    cal.fn += 1
            elif said == "PASS":
                cal.tn += 1
            else:
                cal.fp += 1
            if said != ex.label:
                cal.disagreements.append({"id": ex.id, "label": ex.label, "judge": said, "critique": v.detail,
                                          "output": ex.output[:MAX_EXCERPT]})
        done += 1
        if progress is not None:
            progress(done, len(labels))

    await asyncio.gather(*(one(ex) for ex in labels))
    order = {ex.id: i for i, ex in enumerate(labels)}
    for cal in results.values():
        cal.disagreements.sort(key=lambda d: order[d["id"]])
        cal.unmeasured.sort(key=lambda d: order[d["id"]])
    return [results[j.id] for j in judges]


def _iv(iv: Interval) -> str:
    if iv.rate is None:
        return "—"
    return f"{100 * iv.rate:.0f}% [{100 * (iv.lower or 0):.0f}%, {100 * (iv.upper or 0):.0f}%] ({iv.x}/{iv.n})"


def calibration_text(results: list[JudgeCalibration]) -> str:
    out = []
    for cal in results:
        flag = "FLAGGED: " + "; ".join(cal.problems) if cal.problems else "ok"
        out.append(f"{cal.judge}: TPR {_iv(cal.tpr)}, TNR {_iv(cal.tnr)} — {flag}")
        for d in cal.disagreements:
            out.append(f"  disagreement {d['id']}: labelled {d['label']}, judge said {d['judge']}: {d['critique']}")
        for u in cal.unmeasured:
            out.append(f"  unmeasured {u['id']}: {u['reason']}")
    flagged = sum(1 for c in results if c.problems)
    out.append(f"{len(results)} judge(s), {flagged} flagged (target: TPR and TNR >= {100 * TARGET:.0f}%; TPR = "
               "FAIL-labelled outputs caught, TNR = PASS-labelled outputs passed; Wilson 95% intervals)")
    return "\n".join(out) + "\n"
