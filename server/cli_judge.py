"""`skillgrade score --depth standard` / `skillgrade judge`: the static report blended with the LLM judge.

One asyncio.run for the whole run, one gateway (one cache, one budget, one ledger), at most SKILLS_AT_ONCE
skills judged at a time (the gateway bounds the calls in flight). Without an API key: the one-sentence
message on stderr and None (the caller prints the static result and exits as the static run would).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

SKILLS_AT_ONCE = 4

_TITLES = {
    "triggering_accuracy": "Triggering accuracy", "orchestration_fitness": "Orchestration fitness",
    "output_quality": "Output quality", "scope_calibration": "Scope calibration",
    "progressive_disclosure": "Progressive disclosure", "token_efficiency": "Token efficiency",
    "robustness": "Robustness", "structural_completeness": "Structural completeness",
    "code_template_quality": "Code/template quality", "ecosystem_coherence": "Ecosystem coherence",
}


def run_closing(work, gateway, live: bool):  # type: ignore[no-untyped-def]
    """asyncio.run(work) for an LLM verb; afterwards (also on Ctrl-C or an error) clear the live progress line
    when one was drawn, and close the gateway (None: a mock run that has none)."""
    async def run():  # type: ignore[no-untyped-def]
        try:
            return await work
        finally:
            if live:
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)
            if gateway is not None:
                await gateway.aclose()

    return asyncio.run(run())


def _skill_files(paths: list[Path]) -> tuple[list[Path], list[str]]:
    from skillgrade.analyzers.workspace import find_skill_files

    files: dict[str, Path] = {}
    errors: list[str] = []
    for p in paths:
        found = list(find_skill_files([p]))
        if not found:
            errors.append(f"{p}: no SKILL.md found")
        for f in found:
            files.setdefault(os.path.abspath(f), f)
    return list(files.values()), errors


def prepare_llm_run(args: argparse.Namespace, config_for, static_fallback: bool = True):
    """What every LLM depth starts with: the skills of args.paths, the LLM config (file + flags), the gateway
    (--batch, --budget, --dry-run, --no-cache) and the static reports. Returns (llm, gateway, files, reports,
    errors), or None without an API key (one sentence on stderr; the caller prints the static result, or with
    static_fallback=False, for verbs that have none, prints nothing more and exits 2).
    Usage errors (no skill, an unusable config, nothing readable) raise UsageError."""
    from skillgrade.analyzers.batch import workspace_root_for
    from skillgrade.analyzers.llm.config import LLMConfigError
    from skillgrade.analyzers.llm.setup import build_gateway
    from skillgrade.analyzers.llm.types import LLMError
    from skillgrade.analyzers.report import UnreadableError, analyze_file
    from skillgrade.server.cli import UsageError
    from skillgrade.server.judging import llm_config

    files, errors = _skill_files(list(args.paths))
    if not files:
        raise UsageError(errors[0] if errors else "no SKILL.md found")
    llm = llm_config(config_for(files[0]).llm, judge_model=args.judge_model,
                     simulate_model=args.simulate_model, base_url=args.base_url)
    batch = bool(getattr(args, "batch", False))
    try:
        gateway = build_gateway(llm, os.environ, no_cache=args.no_cache, budget=args.budget, dry_run=args.dry_run,
                                batch=batch, batch_progress=batch_progress_printer(sys.stderr) if batch else None)
    except LLMConfigError as exc:
        raise UsageError(str(exc)) from None
    if isinstance(gateway, LLMError):  # no key: one sentence, then the static result
        reason = gateway.reason
        if not static_fallback:
            reason = reason.replace("; showing the static result only.", "; nothing was run.")
        print(f"skillgrade: {reason}", file=sys.stderr)
        return None

    reports = []
    for f in files:
        try:
            reports.append(analyze_file(f, config=config_for(f), workspace_root=workspace_root_for(f)))
        except UnreadableError as exc:
            errors.append(str(exc))
    if not reports:
        raise UsageError(errors[0])
    return llm, gateway, files, reports, errors


def score_standard(args: argparse.Namespace, config_for, color: bool) -> int | None:
    from skillgrade.analyzers.llm.gateway import format_plan
    from skillgrade.server.cli import emit, exit_code, strictest_threshold
    from skillgrade.server.judging import judge_report, models_of

    prepared = prepare_llm_run(args, config_for)
    if prepared is None:
        return None
    llm, gateway, files, reports, errors = prepared
    batch = bool(getattr(args, "batch", False))
    from skillgrade.analyzers.routing import cards_from_files

    show_progress = sys.stderr.isatty() and not args.dry_run

    async def run_all() -> list:
        # --batch: every skill at once, so each round of calls of the whole tree is one batch
        sem = asyncio.Semaphore(max(len(reports), 1) if batch else SKILLS_AT_ONCE)

        async def one(rep):
            async with sem:
                name = rep.name or Path(rep.path or "").parent.name

                def progress(label: str, done: int, planned: int) -> None:
                    if show_progress:
                        print(f"\rjudging {name}: {done}/{planned} {label}\x1b[K", end="", file=sys.stderr,
                              flush=True)

                cards = cards_from_files(files, exclude=Path(rep.path)) if len(files) > 1 else []
                blended, _result = await judge_report(rep, gateway, models=models_of(llm), judges=args.judges,
                                                      workspace_skills=cards, progress=progress)
                return blended

        return await asyncio.gather(*(one(r) for r in reports))

    try:
        blended = run_closing(run_all(), gateway, show_progress)
    except KeyboardInterrupt:
        running = gateway.batches.state.batches if gateway.batches is not None and gateway.batches.state else {}
        if running:
            print(f"\nskillgrade: interrupted; {len(running)} batch(es) keep running on the server "
                  f"({', '.join(sorted(running))}). Run the same command again to collect their results: "
                  "nothing is submitted twice.", file=sys.stderr)
        raise
    if args.dry_run:
        plan = gateway.plan()
        if args.format == "json":
            import json

            sys.stdout.write(json.dumps({"dry_run": plan, "skills": len(blended)}, indent=2) + "\n")
        else:
            cached = gateway.ledger.cached_calls
            line = format_plan(plan)
            if batch and line.endswith("."):
                line = line[:-1] + ", at the Message Batches price."
            print(line + (f" {cached} cached repl{'y' if cached == 1 else 'ies'} need no call." if cached else ""))
        return 0
    dicts = [r.to_dict() for r in blended]
    tty = sys.stdout.isatty()
    emit(dicts, errors, args, config_for, tty=tty, ledger=gateway.ledger.to_json())
    if args.format == "text":
        print(gateway.ledger.summary(), file=sys.stderr)
    return exit_code(dicts, errors, args, strictest_threshold(dicts, args, config_for))


def batch_progress_printer(stream):  # type: ignore[no-untyped-def]
    """BatchProgress -> stderr: on a terminal one updating line per poll; piped, one line at submit / resume /
    end ('batch msgbatch_…: 120/400 done')."""
    tty = stream.isatty()

    def show(p) -> None:  # type: ignore[no-untyped-def]
        if tty:
            end = "\n" if p.status == "ended" else ""
            print(f"\r{p.line()}\x1b[K", end=end, file=stream, flush=True)
        elif p.status in ("submitted", "resumed", "ended"):
            print(p.line(), file=stream, flush=True)

    return show


def _judge_layer(report: dict) -> dict | None:
    return next((la for la in report.get("layers", []) if la.get("name") == "judge"), None)


def judge_text(reports: list[dict], style) -> str:
    """The judge's section of a text report: per dimension static, judge and blended; reasons for the rest."""
    from skillgrade.analyzers.render import display_path

    out: list[str] = []
    for r in reports:
        layer = _judge_layer(r)
        if layer is None:
            continue
        usage = layer.get("usage") or {}
        calls, cached, failed = usage.get("calls", 0), usage.get("cached", 0), usage.get("failed_calls", 0)
        src = ("cached: every reply from the cache, no call made" if calls == 0 and cached and not failed
               else f"{calls} call(s), {cached} cached" + (f", {failed} failed" if failed else ""))
        out.append("")
        out.append(style.bold(f"{display_path(r['skill']['path'])}: judge {layer['model']} ({src})"))
        out.append(style.dim(f"  {'dimension':<24} {'static':>6} {'judge':>9} {'blend':>9}"))
        for name, dim in r["dimensions"].items():
            layers = dim.get("layers") or {}
            st = layers.get("static")
            jd = (layer["dimensions"].get(name) or {})
            js = jd.get("score")
            static = "—" if st is None else f"{100 * st:.0f}"
            judge = "—" if js is None else f"{100 * js:.0f} {jd.get('grade') or ''}"
            blend = "—" if dim["score"] is None else f"{100 * dim['score']:.0f} {dim['grade'] or ''}"
            out.append(f"  {_TITLES.get(name, name):<24} {static:>6} {judge:>9} {blend:>9}")
        for name, reason in (layer.get("unmeasured") or {}).items():
            out.append(f"  {style.yellow('unmeasured')} {_TITLES.get(name, name)}: {reason}")
        for m in layer.get("routing_metrics") or []:
            if m.get("f1") is not None:
                out.append(style.dim(f"  routing simulation: F1 {m['f1']:.2f} (tp {m['tp']}, fp {m['fp']}, "
                                     f"fn {m['fn']}, tn {m['tn']}, n={m['n']})"))
        for what, k in (layer.get("kappa") or {}).items():
            value = f"{k['value']:.2f} (n={k['n']})" if k.get("value") is not None else f"n/a: {k.get('reason')}"
            out.append(style.dim(f"  agreement of {layer['judges']} judges on {what}: {k['method']} kappa {value}"))
        for note in layer.get("notes") or []:
            out.append(style.dim(f"  {note}"))
    return "\n".join(out) + ("\n" if out else "")
