"""`skillgrade comprehension SKILL_DIR [--evals FILE] [--baseline] [--agent-model M] [--grader-model M]`.

Runs the comprehension evals (rubric C1–C9, analyzers/comprehension) of one skill: the eval file given, or
the one found next to the skill or under an `_evals/` folder above it (analyzers/comprehension/discover.py;
when none is found the error lists where it looked). The eval file's findings (file:line:col, R4
far-transfer warnings included) go to stderr; the report to stdout as text, JSON or markdown.

Exit: 0 when the skill passes all nine dimensions (and for --dry-run), 1 when it does not (PARTIAL, FAIL),
3 when nothing could be measured, 2 for usage errors and a missing API key.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    from skillgrade.server.cli import _usd

    c = sub.add_parser("comprehension", help="run comprehension evals (rubric C1-C9) on a skill with an agent "
                                             "and a grader model")
    c.add_argument("paths", nargs=1, type=Path, metavar="SKILL_DIR")
    c.add_argument("--evals", type=Path, default=None, metavar="FILE",
                   help="the eval file (default: found next to the skill or under _evals/ above it)")
    c.add_argument("--baseline", action="store_true",
                   help="also run every case without the skill loaded and report the per-dimension delta")
    c.add_argument("--agent-model", default=None, metavar="MODEL",
                   help="the model that answers the cases (default: config simulate-model)")
    c.add_argument("--grader-model", default=None, metavar="MODEL",
                   help="the model that grades the answers (default: config grade-model)")
    c.add_argument("--format", "--output", dest="format", choices=("text", "json", "markdown"), default="text")
    c.add_argument("--budget", type=_usd, default=None, metavar="USD", help="stop before a call would exceed it")
    c.add_argument("--dry-run", action="store_true", help="estimate the calls and their cost; send nothing")
    c.add_argument("--base-url", default=None, metavar="URL", help="an Anthropic-compatible endpoint")
    c.add_argument("--no-cache", action="store_true", help="neither read nor write the model reply cache")
    c.add_argument("--config", type=Path, default=None, help="a .skillgrade.toml or pyproject.toml")
    c.set_defaults(verb_module="cli_comprehension", select=None, ignore=None, judge_model=None,
                   simulate_model=None, batch=False)


def load_evals(path: Path, skill_body: str) -> tuple[object, list[str]]:
    """(EvalFile, finding lines 'file:line:col: severity CODE message'); UsageError when unusable."""
    from skillgrade.analyzers.comprehension.evalfile import validate_text
    from skillgrade.server.cli import UsageError

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the eval file ({exc.__class__.__name__})") from None
    model, findings = validate_text(text, skill_body=skill_body)
    lines = [f"{path}:{f.range.start.line + 1}:{f.range.start.character + 1}: {f.severity.label} {f.code} "
             f"{f.message}" for f in findings]
    if model is None:
        raise UsageError(lines[0] if lines else f"{path}: not an eval file")
    return model, lines


def cmd(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.comprehension.discover import find_eval_files
    from skillgrade.analyzers.comprehension.report import render_markdown, render_text
    from skillgrade.analyzers.comprehension.runner import run_comprehension
    from skillgrade.analyzers.llm.gateway import format_plan
    from skillgrade.server.cli import UsageError, _config_loader
    from skillgrade.server.cli_judge import prepare_llm_run, run_closing

    target = args.paths[0]
    if target.is_file() and target.name == "SKILL.md":
        target = target.parent
    if not (target / "SKILL.md").is_file():
        raise UsageError(f"{args.paths[0]}: no SKILL.md in this folder")
    args.paths = [target / "SKILL.md"]
    prepared = prepare_llm_run(args, _config_loader(args), static_fallback=False)
    if prepared is None:
        return 2
    llm, gateway, _files, reports, _errors = prepared
    doc = reports[0].document
    name = reports[0].name or target.name
    if args.evals is not None:
        evals_path = args.evals
    else:
        found, looked = find_eval_files(target, name)
        if not found:
            raise UsageError(f"no eval file for skill {name!r}; looked at: {', '.join(looked)} "
                             "(give one with --evals FILE)")
        evals_path = found[0]
        if len(found) > 1:
            print(f"skillgrade: using {found[0]}; also found {', '.join(map(str, found[1:]))}", file=sys.stderr)
    evals, finding_lines = load_evals(evals_path, doc.body_text)
    for line in finding_lines:
        print(line, file=sys.stderr)
    if not evals.comprehension_cases:
        raise UsageError(f"{evals_path}: no case with a comprehension_dimension and expected_behaviors to grade")

    models = {"agent": args.agent_model or llm.simulate_model, "grader": args.grader_model or llm.grade_model}
    show = sys.stderr.isatty() and not args.dry_run

    def progress(label: str, done: int, planned: int) -> None:
        if show:
            print(f"\rcomprehension {name}: {done}/{planned} {label}\x1b[K", end="", file=sys.stderr, flush=True)

    result = run_closing(run_comprehension(doc, evals, gateway, models=models, baseline=args.baseline,
                                           eval_path=str(evals_path), progress=progress), gateway, show)
    if args.dry_run:
        plan = gateway.plan()
        if args.format == "json":
            import json

            sys.stdout.write(json.dumps({"dry_run": plan, "cases": len(evals.comprehension_cases)}, indent=2) + "\n")
        else:
            print(format_plan(plan) + " (grader re-asks after a compliance violation are not included.)")
        return 0
    out = result.to_dict()
    out["ledger"] = gateway.ledger.to_json()
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    elif args.format == "markdown":
        sys.stdout.write(render_markdown(out))
    else:
        sys.stdout.write(render_text(out))
        print(gateway.ledger.summary(), file=sys.stderr)
    verdict = out["verdict"]["verdict"]
    return 0 if verdict == "PASS" else 3 if verdict == "unmeasured" else 1
