"""`skillgrade calibrate --judges judges.yaml --labels labelled.jsonl`: TPR / TNR of binary judges with Wilson
95% intervals; judges under 90% flagged; every disagreement with the judge's critique (docs/evaluate.md).

Exit codes: 0 every judge at 90% or more on both rates, 1 a judge flagged, 2 usage errors (a file with
errors: every error as file:line:col, nothing run; no API key).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    from skillgrade.server.cli import _usd

    c = sub.add_parser("calibrate", help="check binary judges against labelled examples (TPR / TNR)")
    c.add_argument("--judges", type=Path, required=True, metavar="JUDGES_YAML")
    c.add_argument("--labels", type=Path, required=True, metavar="LABELLED_JSONL")
    c.add_argument("--judge-model", default=None, metavar="MODEL",
                   help="the judges' model (default: config grade-model)")
    c.add_argument("--base-url", default=None, metavar="URL",
                   help="an Anthropic-compatible endpoint (ANTHROPIC_BASE_URL wins)")
    c.add_argument("--budget", type=_usd, default=None, metavar="USD")
    c.add_argument("--no-cache", action="store_true", help="do not read or write the LLM reply cache")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.set_defaults(verb_module="cli_calibrate")


def cmd(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.evals.calibrate import calibrate, calibration_text, load_calibration
    from skillgrade.analyzers.evals.suite import SuiteInvalid
    from skillgrade.server.cli import UsageError
    from skillgrade.server.cli_evaluate import gateway_for, llm_for
    from skillgrade.server.cli_judge import run_closing

    try:
        judges, labels = load_calibration(args.judges, args.labels)
    except SuiteInvalid as exc:
        for e in exc.errors:
            print(str(e), file=sys.stderr)
        raise UsageError(f"{len(exc.errors)} error(s) in the calibration files; nothing was run") from None
    llm = llm_for(args.judges.resolve(), args)
    gateway = gateway_for(llm, args)
    model = args.judge_model or llm.grade_model
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print(f"\rcalibrating: {done}/{total}\x1b[K", end="", file=sys.stderr, flush=True)

    results = run_closing(calibrate(judges, labels, gateway, model=model, progress=progress), gateway, tty)
    flagged = [r.judge for r in results if r.problems]
    if args.format == "json":
        sys.stdout.write(json.dumps({"model": model, "target": 0.9, "judges": [r.to_dict() for r in results],
                                     "flagged": flagged, "ledger": gateway.ledger.to_json()}, indent=2) + "\n")
    else:
        sys.stdout.write(calibration_text(results))
        print(gateway.ledger.summary(), file=sys.stderr)
    return 1 if flagged else 0
