"""`skillgrade evaluate`: run a task suite with the candidate skill and the baseline (docs/evaluate.md).

Standalone: `--standalone --task-suite FILE --skill-path PATH`. Pipeline: `--input ranking.json --candidate-id
ID --task-suite FILE` (verdict `skipped` below `--eval-threshold`). An invalid suite prints every error as
`file:line:col: message` and exits 2 with nothing run. Exit codes: 0 pass / skipped / mock, 1 fail / error,
2 usage errors (an invalid suite, a missing skill or candidate, no API key).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DEFAULT_EVAL_THRESHOLD = 6.0
SCORE_KEYS = ("score", "discriminator_score", "total_score", "weighted_score")  # first present wins
PATH_KEYS = ("skill_path", "path", "candidate_path")
MAX_ATTEMPTS = 20


def _number(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if x != x or x in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("expected a finite number")
    return x


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    from skillgrade.server.cli import _usd, count_upto

    _count = count_upto(MAX_ATTEMPTS)

    e = sub.add_parser("evaluate", help="run a task suite with and without the skill: pass rates, delta, verdict")
    mode = e.add_argument_group("mode (one of)")
    mode.add_argument("--standalone", action="store_true", help="evaluate --skill-path directly")
    mode.add_argument("--input", type=Path, default=None, metavar="RANKING_JSON",
                      help="pipeline mode: the ranking artifact (docs/evaluate.md#pipeline-mode)")
    e.add_argument("--candidate-id", default=None, metavar="ID", help="pipeline mode: the candidate to evaluate")
    e.add_argument("--task-suite", type=Path, required=True, metavar="FILE", help="the task suite YAML")
    e.add_argument("--skill-path", type=Path, default=None, metavar="PATH",
                   help="standalone mode: the candidate's SKILL.md or skill folder")
    e.add_argument("--baseline-skill", type=Path, default=None, metavar="PATH",
                   help="the baseline's SKILL.md or folder (default: the same model with no skill)")
    e.add_argument("--state-root", type=Path, default=None, metavar="DIR",
                   help="artifacts go to DIR/evaluations/<run-id>.json (default: $XDG_STATE_HOME/skillgrade)")
    e.add_argument("--output", type=Path, default=None, metavar="FILE", help="write the artifact here instead")
    e.add_argument("--pass-k", type=_count, default=1, metavar="K",
                   help="a task passes if any of its first K attempts passes (default 1)")
    e.add_argument("--attempts", type=_count, default=None, metavar="N",
                   help="attempts per task (default K); with N > K the unbiased pass@K estimate is reported too")
    e.add_argument("--baseline-cache-dir", type=Path, default=None, metavar="DIR",
                   help="reuse baseline results for 7 days (keyed by suite, baseline skill and models)")
    e.add_argument("--eval-threshold", type=_number, default=DEFAULT_EVAL_THRESHOLD, metavar="SCORE",
                   help=f"pipeline mode: skip candidates whose discriminator score is below this "
                        f"(default {DEFAULT_EVAL_THRESHOLD})")
    e.add_argument("--mock", action="store_true",
                   help="canned answers and fixed LLM-judge passes: checks the wiring, no key, no cost; the "
                        "artifact says mock and its verdict is `mock`")
    e.add_argument("--model", default=None, metavar="MODEL",
                   help="the model that does the tasks (default: config simulate-model)")
    e.add_argument("--judge-model", default=None, metavar="MODEL",
                   help="the model behind llm-rubric / llm-binary (default: config grade-model)")
    e.add_argument("--base-url", default=None, metavar="URL",
                   help="an Anthropic-compatible endpoint (ANTHROPIC_BASE_URL wins)")
    e.add_argument("--budget", type=_usd, default=None, metavar="USD", help="stop before passing this many dollars")
    e.add_argument("--no-cache", action="store_true", help="do not read or write the LLM reply cache")
    e.add_argument("--concurrency", type=_count, default=4, metavar="N", help="attempts in flight at once (default 4)")
    e.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the summary; json: the artifact on stdout")
    e.set_defaults(verb_module="cli_evaluate")


# ---- helpers shared with calibrate and the editor --------------------------------------------------------

def now_iso(t: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_run_id(mock: bool) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    import secrets  # loads OpenSSL: only when a run is recorded, not at every start of the CLI

    return f"{'mock-' if mock else ''}{stamp}-{secrets.token_hex(4)}"


def default_state_root(env: dict[str, str] | os._Environ) -> Path:
    base = env.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "skillgrade"


def llm_for(path: Path, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The LLM config for a run from the config found next to `path`, with the command-line overrides."""
    from skillgrade.analyzers.config import ConfigError, config_for
    from skillgrade.server.cli import UsageError
    from skillgrade.server.judging import llm_config

    try:
        base = config_for(path).llm
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return llm_config(base, base_url=getattr(args, "base_url", None))


def gateway_for(llm, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The run's gateway; no key: UsageError (exit 2) naming --mock as the way to check a suite's wiring."""
    from skillgrade.analyzers.llm.config import LLMConfigError
    from skillgrade.analyzers.llm.setup import build_gateway
    from skillgrade.analyzers.llm.types import LLMError
    from skillgrade.server.cli import UsageError

    try:
        gw = build_gateway(llm, os.environ, no_cache=args.no_cache, budget=args.budget)
    except LLMConfigError as exc:
        raise UsageError(str(exc)) from None
    if isinstance(gw, LLMError):
        raise UsageError(gw.reason.replace("; showing the static result only.", "") +
                         " (or use --mock to check the suite's wiring without a model)")
    return gw


def progress_printer(stream) -> Any:  # type: ignore[no-untyped-def]
    """(side, done, total) -> one updating line on a terminal; nothing when piped."""
    if not stream.isatty():
        return None

    def show(side: str, done: int, total: int) -> None:
        width = 24
        filled = round(width * done / total) if total else width
        print(f"\r{side:<9} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}\x1b[K", end="", file=stream,
              flush=True)

    return show


def load_suite_or_exit(path: Path):  # type: ignore[no-untyped-def]
    """The suite, or every error on stderr and UsageError (exit 2, nothing run)."""
    from skillgrade.analyzers.evals.suite import SuiteInvalid, load_suite
    from skillgrade.server.cli import UsageError

    try:
        return load_suite(path)
    except SuiteInvalid as exc:
        for e in exc.errors:
            print(str(e), file=sys.stderr)
        n = len(exc.errors)
        if n == 1 and exc.errors[0].message == "Task suite not found":
            raise UsageError(f"{path}: Task suite not found") from None
        raise UsageError(f"the task suite has {n} error(s); nothing was run") from None


# ---- pipeline mode -------------------------------------------------------------------------------------

def read_ranking(path: Path, candidate_id: str) -> dict[str, Any]:
    """{"score": float | None, "skill_path": Path, "baseline_skill": Path | None} of one candidate of a ranking
    file (docs/evaluate.md#pipeline-mode); UsageError when the file or the candidate cannot be used."""
    from skillgrade.server.cli import UsageError

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: ranking file not found") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: not a readable JSON ranking ({exc})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: the ranking must be a JSON object with a `candidates` list")
    items = data.get("candidates", data.get("ranking"))
    if not isinstance(items, list):
        raise UsageError(f"{path}: the ranking must have a `candidates` (or `ranking`) list")
    found = None
    for item in items:
        if isinstance(item, dict) and str(item.get("id", item.get("candidate_id"))) == candidate_id:
            found = item
            break
    if found is None:
        known = [str(i.get("id", i.get("candidate_id"))) for i in items if isinstance(i, dict)]
        raise UsageError(f"{path}: no candidate {candidate_id!r} (candidates: {', '.join(known) or 'none'})")
    score = next((found[k] for k in SCORE_KEYS if k in found), None)
    if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
        raise UsageError(f"{path}: candidate {candidate_id!r} has a non-numeric score {score!r}")
    raw = next((found[k] for k in PATH_KEYS if isinstance(found.get(k), str) and found[k]), None)
    base = path.resolve().parent
    skill = (base / raw) if isinstance(raw, str) and raw else None
    braw = data.get("baseline_skill_path", data.get("original_skill_path"))
    baseline = (base / braw) if isinstance(braw, str) and braw else None
    return {"score": None if score is None else float(score), "skill_path": skill, "baseline_skill": baseline}


# ---- the verb ------------------------------------------------------------------------------------------

def cmd(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.evals.baseline_cache import BaselineCache
    from skillgrade.analyzers.evals.runner import (
        Settings,
        SkillNotFound,
        build_artifact,
        evaluate,
        load_skill,
        skipped_artifact,
    )
    from skillgrade.server.cli import UsageError
    from skillgrade.server.cli_judge import run_closing

    if args.standalone == (args.input is not None):
        raise UsageError("choose one mode: --standalone (with --skill-path) or --input RANKING_JSON "
                         "(with --candidate-id)")
    if args.standalone and args.skill_path is None:
        raise UsageError("--standalone needs --skill-path")
    if args.input is not None and not args.candidate_id:
        raise UsageError("--input needs --candidate-id")
    if args.attempts is not None and args.attempts < args.pass_k:
        raise UsageError(f"--attempts {args.attempts} is fewer than --pass-k {args.pass_k}")

    suite = load_suite_or_exit(args.task_suite)  # every error, exit 2, before anything else happens
    started = time.time()
    run_id = new_run_id(args.mock)
    state_root = args.state_root if args.state_root is not None else default_state_root(os.environ)
    out_path = (args.output if args.output is not None
                else state_root / "evaluations" / f"{run_id}.json").expanduser().resolve()

    llm = llm_for(suite.path, args)
    settings = Settings(model=args.model or llm.simulate_model, judge_model=args.judge_model or llm.grade_model,
                        pass_k=args.pass_k, attempts=args.attempts, concurrency=args.concurrency, mock=args.mock,
                        env=dict(os.environ))

    candidate_id = score = None
    skill_path, baseline_path = args.skill_path, args.baseline_skill
    if args.input is not None:
        ranking = read_ranking(args.input, args.candidate_id)
        candidate_id, score = args.candidate_id, ranking["score"]
        if score is None:
            raise UsageError(f"{args.input}: candidate {candidate_id!r} has no `score`")
        if score < args.eval_threshold:
            art = skipped_artifact(run_id=run_id, suite=suite, truth_anchor=out_path, candidate_id=candidate_id,
                                   discriminator_score=score, settings=settings, started_at=now_iso(started),
                                   reason=f"discriminator score {score:g} < --eval-threshold {args.eval_threshold:g}")
            return _finish(art, out_path, args, None)
        skill_path = args.skill_path or ranking["skill_path"]
        if skill_path is None:
            raise UsageError(f"{args.input}: candidate {candidate_id!r} has no `skill_path` (or give --skill-path)")
        baseline_path = baseline_path or ranking["baseline_skill"]
    try:
        candidate = load_skill(skill_path)
        baseline = load_skill(baseline_path) if baseline_path is not None else None
    except SkillNotFound as exc:
        raise UsageError(str(exc)) from None

    gateway = None if args.mock else gateway_for(llm, args)
    cache = BaselineCache(args.baseline_cache_dir.expanduser()) if args.baseline_cache_dir else None
    progress = progress_printer(sys.stderr)

    ev = run_closing(evaluate(suite, candidate, baseline, gateway, settings, baseline_cache=cache,
                              progress=progress), gateway, progress is not None)
    finished = time.time()
    art = build_artifact(ev, run_id=run_id, mode="pipeline" if args.input is not None else "standalone",
                         suite=suite, candidate=candidate, baseline=baseline, settings=settings,
                         truth_anchor=out_path, started_at=now_iso(started), finished_at=now_iso(finished),
                         duration_ms=round(1000 * (finished - started)),
                         ledger=gateway.ledger.to_json() if gateway is not None else None,
                         candidate_id=candidate_id, discriminator_score=score)
    return _finish(art, out_path, args, gateway)


def write_artifact(art: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(art, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def exit_code_of(verdict: str) -> int:
    return 0 if verdict in ("pass", "skipped", "mock") else 1


def _finish(art: dict[str, Any], out_path: Path, args: argparse.Namespace, gateway) -> int:  # noqa: ANN001
    from skillgrade.analyzers.evals.runner import summary_text

    write_artifact(art, out_path)
    if args.format == "json":
        sys.stdout.write(json.dumps(art, indent=2) + "\n")
    else:
        sys.stdout.write(summary_text(art))
    if gateway is not None and args.format == "text":
        print(gateway.ledger.summary(), file=sys.stderr)
    return exit_code_of(art["verdict"])
