"""`skillgrade optimize PATH`: rewrite a skill's description until held-out trigger prompts route correctly
(analyzers/optimize). Text: a table per iteration, the winner, the paired test and the diff (or `--apply`
writes it). JSON: every description and per-prompt decision. HTML: a self-contained report.

Exit codes: 0 done (whether or not a better description was found); 2 usage errors, no API key, a file that
changed during the run or cannot be rewritten.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    from skillgrade.server.cli import _usd, float_below, int_in

    o = sub.add_parser("optimize", aliases=["optimise"],
                       help="rewrite a skill's description until held-out trigger prompts route correctly")
    o.add_argument("path", type=Path, metavar="PATH", help="a skill directory or its SKILL.md")
    o.add_argument("--prompts", type=Path, default=None, metavar="FILE",
                   help="trigger prompts: YAML, JSON or JSONL rows {prompt, should_trigger} (default: the "
                        "skill's routing examples, else written by the model)")
    o.add_argument("--iterations", type=int_in("--iterations", 1, 20), default=5, metavar="N",
                   help="descriptions measured, the original included (default 5)")
    o.add_argument("--holdout", type=float_below("--holdout", 0.0, 1.0), default=0.4, metavar="F",
                   help="share of each class held out for the test split (default 0.4; 0: choose on train)")
    o.add_argument("--runs", type=int_in("--runs", 1, 10), default=3, metavar="N",
                   help="routing runs per prompt; a prompt passes when most are right (default 3)")
    o.add_argument("--seed", type=int, default=42, help="the train/test split's seed (default 42)")
    o.add_argument("--apply", action="store_true", help="write the winning description into the SKILL.md")
    o.add_argument("--format", "--output", dest="format", choices=("text", "json", "html"), default="text")
    o.add_argument("--budget", type=_usd, default=None, metavar="USD",
                   help="stop before a model call that would pass this many dollars")
    o.add_argument("--dry-run", action="store_true", help="print the estimated calls and cost; call nothing")
    o.add_argument("--batch", action="store_true", help="send the calls through the Message Batches API")
    o.add_argument("--base-url", default=None, metavar="URL", help="an Anthropic-compatible endpoint")
    o.add_argument("--judge-model", default=None, metavar="MODEL",
                   help="the prompt writer and improver model (config: judge-model)")
    o.add_argument("--simulate-model", default=None, metavar="MODEL", help="the router model (config: simulate-model)")
    o.add_argument("--no-cache", action="store_true", help="do not read or write the LLM cache")
    o.add_argument("--config", type=Path, default=None, help="a .skillgrade.toml or pyproject.toml")
    o.set_defaults(verb_module="cli_optimize", select=None, ignore=None)


def _skill_file(path: Path) -> Path:
    from skillgrade.server.cli import UsageError

    f = path / "SKILL.md" if path.is_dir() else path
    if not f.is_file():
        raise UsageError(f"{path}: no SKILL.md found")
    return f


def cmd(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.batch import workspace_root_for
    from skillgrade.analyzers.llm.gateway import format_plan
    from skillgrade.analyzers.mc_prompts import PromptsFileError, load_prompts_file
    from skillgrade.analyzers.optimize.loop import run_optimize
    from skillgrade.analyzers.optimize.rewrite import RewriteError, rewrite_description
    from skillgrade.analyzers.parse import decode, parse
    from skillgrade.server.cli import UsageError, _config_loader
    from skillgrade.server.cli_judge import prepare_llm_run, run_closing
    from skillgrade.server.judging import models_of, workspace_cards

    skill = _skill_file(args.path)
    given = None
    if args.prompts is not None:
        try:
            given = load_prompts_file(args.prompts)
        except PromptsFileError as exc:
            raise UsageError(str(exc)) from None
    raw = skill.read_bytes()
    text, _binary = decode(raw)
    doc = parse(text, skill)
    fld = doc.frontmatter.get("description")
    if not doc.frontmatter.ok or fld is None or not isinstance(fld.value, str):
        raise UsageError(f"{skill}: no readable `description` in the frontmatter to optimise")
    if args.apply and args.dry_run:
        raise UsageError("--apply and --dry-run cannot be combined")
    args.paths = [skill]
    prepared = prepare_llm_run(args, _config_loader(args), static_fallback=False)
    if prepared is None:
        return 2
    llm, gateway, _files, _reports, _errors = prepared
    cards = workspace_cards(skill, [workspace_root_for(skill)])
    show = sys.stderr.isatty() and not args.dry_run

    def progress(what: str, done: int, planned: int) -> None:
        if show:
            print(f"\roptimizing {doc.field_text('name') or skill.parent.name}: {done}/{planned} calls ({what})"
                  "\x1b[K", end="", file=sys.stderr, flush=True)

    result = run_closing(run_optimize(doc, gateway, models=models_of(llm), prompt_set=given, workspace_skills=cards,
                                      iterations=args.iterations, holdout=args.holdout, runs=args.runs,
                                      seed=args.seed, progress=progress, keep_on_cancel=True), gateway, show)
    if args.dry_run:
        plan = gateway.plan()
        if args.format == "json":
            sys.stdout.write(json.dumps({"dry_run": plan}, indent=2) + "\n")
        else:
            cached = gateway.ledger.cached_calls
            print(format_plan(plan) + (f" {cached} cached repl{'y' if cached == 1 else 'ies'} need no call."
                                       if cached else ""))
        return 0
    d = result.to_dict()
    d["path"] = str(skill)
    diff, new_text = "", None
    if result.improved is not None:
        from skillgrade.analyzers.optimize.rewrite import unified_diff

        try:
            new_text = rewrite_description(text, result.improved)
        except RewriteError as exc:
            raise UsageError(f"{skill}: the winning description cannot be written: {exc}") from None
        diff = unified_diff(text, new_text, _display(skill))
    d["diff"] = diff
    applied = False
    if args.apply and new_text is not None:
        if skill.read_bytes() != raw:
            raise UsageError(f"{skill} changed during the run; nothing was written (run again)")
        skill.write_bytes(new_text.encode("utf-8"))
        applied = True
    d["applied"] = applied
    d["ledger"] = gateway.ledger.to_json()
    if args.format == "json":
        sys.stdout.write(json.dumps(d, indent=2, ensure_ascii=False) + "\n")
    elif args.format == "html":
        from skillgrade.analyzers.optimize.html import render_html

        sys.stdout.write(render_html(d, diff, _display(skill)))
    else:
        sys.stdout.write(text_report(d, applied=applied, apply_asked=args.apply))
        print(gateway.ledger.summary(), file=sys.stderr)
    return 0


def _display(p: Path) -> str:
    from skillgrade.analyzers.render import display_path

    return display_path(str(p))


def _f(x) -> str:  # type: ignore[no-untyped-def]
    return "  —  " if x is None else f"{x:.2f}"


def _cell(s: dict | None) -> str:
    if s is None:
        return f"{'—':>7} {'':>21}"
    ci = s.get("f1_ci")
    band = f"[{ci['lower']:.2f}-{ci['upper']:.2f}]" if ci else ""
    return f"{s['passed']:>3}/{s['n']:<3} F1 {_f(s.get('f1'))} {band:<11} " \
           f"P {_f((s.get('precision') or {}).get('rate'))} R {_f((s.get('recall') or {}).get('rate'))}"


def text_report(d: dict, *, applied: bool = False, apply_asked: bool = False) -> str:
    """The text report of `OptimizeResult.to_dict()` (+ "diff", "path")."""
    out: list[str] = []
    split = d.get("split") or {}
    src = d.get("prompts") or {}
    out.append(f"{d.get('path', d['skill'])}: optimising the description of {d['skill']} — "
               f"{len(split.get('train') or [])} train / {len(split.get('test') or [])} test prompts "
               f"({src.get('source', 'none')}), {d['runs']} run(s) each, winner by the {d['chosen_by']} split")
    out.append(f"  {'it':>3} {'chars':>5}  {'train (pass, F1 [95% CI], precision, recall)':<55} test")
    for a in d["attempts"]:
        mark = "*" if d.get("winner") == a["iteration"] else " "
        out.append(f"  {a['iteration']:>2}{mark} {a['chars']:>5}  {_cell(a['train']):<55} {_cell(a['test'])}")
    out.append(f"  stopped: {d['stop']}" + (f" ({d['stop_detail']})" if d.get("stop_detail") else ""))
    for r in d.get("rejected_candidates") or []:
        out.append(f"  improver reply refused: {r}")
    if d.get("winner") is None:
        out.append(f"  no winner: {d['winner_reason']}")
    elif not d.get("improved"):
        out.append(f"  the original description is kept: {d['winner_reason']}")
    else:
        out.append(f"  winner: iteration {d['winner']}, {d['winner_reason']}")
        pt = d.get("paired_test")
        if pt:
            verdict = "larger than the noise" if pt["significant"] else "within the noise"
            out.append(f"  paired test ({pt['split']} prompts, exact McNemar): {pt['gained']} gained, {pt['lost']} "
                       f"lost, p = {pt['p_value']:.3g}: {verdict}")
        if applied:
            out.append(f"  applied to {d.get('path')}")
        else:
            out.append("  the change (not applied; --apply writes it):" if not apply_asked else "  the change:")
            out.append(d.get("diff", "").rstrip("\n"))
    return "\n".join(out) + "\n"
