"""One skill's results: findings, the static layer, the composite; and the API that produces them."""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from .config import Config
from .document import SkillDocument
from .engine import run_rules
from .findings import Finding, Pos, Range, Severity
from .parse import decode, parse
from .scoring import Composite, composite
from .static_layer import STATIC_TO_DIMENSION, StaticResult, analyze_static
from .workspace import Workspace

MAX_FILE_BYTES = 50_000_000  # larger files are not read at all


class UnreadableError(OSError):
    """A path that cannot be read as a skill (missing, a directory without SKILL.md, permissions)."""


@dataclass(slots=True)
class Report:
    path: str | None
    name: str | None
    findings: list[Finding]
    static: StaticResult
    composite: Composite
    suppressed: int = 0
    document: SkillDocument | None = field(default=None, repr=False)
    extra_layers: list[dict] = field(default_factory=list)  # judge / monte_carlo layer records

    @property
    def anti_patterns(self) -> list[str]:
        return [f.code for f in self.findings if f.anti_pattern and f.file is None]

    @property
    def has_errors(self) -> bool:
        return any(f.severity == Severity.ERROR for f in self.findings)

    def to_dict(self) -> dict:
        comp = self.composite.to_dict()
        return {
            "skill": {"path": self.path, "name": self.name},
            "composite": comp,
            "dimensions": comp["dimensions"],
            "layers": [
                {
                    "name": "static",
                    "layer": "static",
                    "sub_scores": dict(self.static.sub_scores),
                    "measurements": dict(self.static.measurements),
                    "anti_patterns": self.anti_patterns,
                },
                *self.extra_layers,
            ],
            "findings": [f.to_dict() for f in self.findings],
            "suppressed": self.suppressed,
        }


def analyze(
    text: str,
    path: str | os.PathLike | None = None,
    *,
    config: Config | None = None,
    workspace: Workspace | None = None,
    workspace_root: str | os.PathLike | None = None,
    files=None,
    binary: bool = False,
    layer_scores: dict[str, dict[str, float]] | None = None,
    incremental: bool = False,
    bundle_overrides: dict[str, str] | None = None,
) -> Report:
    """Parse once, run every enabled rule, compute the static layer and the composite.

    incremental=True caches markdown per section (for editors: an edit re-parses one section);
    bundle_overrides are the editor's unsaved texts of bundled files (rel path -> text).
    """
    config = config or Config()
    # one document's analysis allocates many small acyclic objects (a link run: ~10 per link) and frees
    # them at the end; the cyclic collector's passes over them were a third of such a document's time
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        doc = parse(text, path, files=files, workspace_root=workspace_root, binary=binary,
                    incremental=incremental)
    finally:
        if paused:
            gc.enable()
    if bundle_overrides:  # open editor buffers of bundled files (rel path -> text) win over the disk
        doc.bundle_overrides = dict(bundle_overrides)
    if paused:
        gc.disable()
    try:
        findings, suppressed = run_rules(doc, config, workspace)
    finally:
        if paused:
            gc.enable()
    try:
        static = analyze_static(doc, findings)
    except Exception as exc:  # noqa: BLE001 - a scoring bug must never take the editor or CI down
        static = StaticResult({k: None for k in STATIC_TO_DIMENSION}, {})
        findings.append(Finding("INTERNAL_ERROR", Severity.ERROR, Range(Pos(0, 0), Pos(0, 0)),
                                f"static layer failed: {type(exc).__name__}: {exc}"))
    scores = {"static": static.dimension_scores()}
    for layer, s in (layer_scores or {}).items():
        if layer != "static" and s:
            scores[layer] = s
    # findings on bundled files (f.file) are reported and fail CI, but do not change the score
    comp = composite(scores, sum(1 for f in findings if f.anti_pattern and f.file is None))
    name_field = doc.frontmatter.get("name")
    name = name_field.value if name_field is not None and isinstance(name_field.value, str) else None
    return Report(str(path) if path is not None else None, name, findings, static, comp, suppressed, doc)


def with_judge(report: Report, result) -> Report:
    """The report at depth `standard`: the judge layer (a layers.judge.JudgeResult) blended with the static
    layer by the seed's table renormalised without Monte Carlo, and recorded as `layers[1]`.

    Only dimensions the judge actually measured get a judge column; a dimension the judge could not measure
    keeps its static value (or stays unmeasured) and the composite renormalises over what was measured. The
    confidence label is "Assessed" only when the judge produced at least one number.
    """
    from .layers.judge import judge_layer  # the LLM layers load only when they are used

    scores = {"static": report.static.dimension_scores()}
    judged = result.scores()
    if judged:
        scores["judge"] = judged
    comp = composite(scores, sum(1 for f in report.findings if f.anti_pattern))
    layers = [la for la in report.extra_layers if la.get("name") != "judge"]
    return replace(report, composite=comp, extra_layers=[judge_layer(result), *layers])


def read_skill(path: Path) -> tuple[str, bool]:
    """Read a SKILL.md as text; (text, binary). Raises UnreadableError with a one-line reason."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise UnreadableError(f"{path}: file is {size:,} bytes; skillgrade reads at most {MAX_FILE_BYTES:,}")
        data = path.read_bytes()
    except UnreadableError:
        raise
    except IsADirectoryError:
        raise UnreadableError(f"{path}: is a directory") from None
    except OSError as exc:
        raise UnreadableError(f"{path}: {exc.strerror or exc}") from None
    return decode(data)  # a leading BOM stays: parse() drops it (as editors do) and reports UTF8_BOM


def analyze_file(path: Path, *, config: Config | None = None, workspace: Workspace | None = None,
                 workspace_root: Path | None = None) -> Report:
    text, binary = read_skill(path)
    return analyze(text, path, config=config, workspace=workspace, workspace_root=workspace_root, binary=binary)
