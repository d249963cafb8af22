"""`skillgrade score --depth deep` (static + judge + Monte Carlo) and `skillgrade certify` (= deep + Elo).

One asyncio.run, one gateway (one cache, one budget, one ledger). Progress per phase on stderr: a live line on
a terminal (judge k/N, simulations k/N), plain lines when piped. Ctrl-C during Monte Carlo keeps the finished
simulations (printed, exit 130); every finished call is in the cache, so a re-run resumes without paying for
it again. Without an API key: the one-sentence message and None (the caller prints the static result).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

SKILLS_AT_ONCE = 2
PLAIN_EVERY = 10  # piped: one progress line per this many simulations

_TITLES = {
    "triggering_accuracy": "Triggering accuracy", "output_quality": "Output quality",
    "robustness": "Robustness", "token_efficiency": "Token efficiency",
}
STOPS = {"ci_target": "CI target reached", "max_reached": "maximum reached", "budget": "budget",
         "cancelled": "cancelled", "dry_run": "dry run", "no_prompts": "no test prompts"}


def add_mc_args(parser: argparse.ArgumentParser) -> None:
    from skillgrade.server.cli import float_below, int_in

    g = parser.add_argument_group("Monte Carlo (--depth deep, `certify`)")
    g.add_argument("--mc-n", type=int_in("--mc-n", 2, 1000), default=50, metavar="N",
                   help="maximum simulations per skill (default 50; fewer when the CI target is reached)")
    g.add_argument("--mc-ci", type=float_below("--mc-ci", 0.0, 0.5), default=0.10, metavar="W",
                   help="stop once the activation rates' 95%% CI half-widths are under W (default 0.10)")
    g.add_argument("--prompts", type=Path, default=None, metavar="FILE",
                   help="test prompts: YAML, JSON or JSONL rows {prompt, should_trigger}")


class Progress:
    """Per-skill, per-phase progress on stderr: a live line on a terminal, plain lines when piped."""

    def __init__(self, live: bool, enabled: bool = True) -> None:
        self.live, self.enabled = live, enabled
        self.last: dict[tuple[str, str], int] = {}

    def __call__(self, skill: str, phase: str, done: int, planned: int) -> None:
        if not self.enabled:
            return
        if self.live:
            print(f"\r{skill}: {phase} {done}/{planned}\x1b[K", end="", file=sys.stderr, flush=True)
            return
        key = (skill, phase)
        prev = self.last.get(key, 0)
        step = PLAIN_EVERY if phase == "simulations" else planned
        if done >= planned or done // step > prev // step or prev == 0 and done == 1 and phase != "judge":
            print(f"{skill}: {phase} {done}/{planned}", file=sys.stderr, flush=True)
        self.last[key] = done

    def clear(self) -> None:
        if self.enabled and self.live:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def score_deep(args: argparse.Namespace, config_for, color: bool, *, certify: bool) -> int | None:
    import asyncio  # here, not at the top: the CLI imports this module to build its parser

    from skillgrade.analyzers.certify import run_deep
    from skillgrade.analyzers.mc_prompts import PromptsFileError, load_prompts_file
    from skillgrade.analyzers.routing import cards_from_files
    from skillgrade.server.certifying import elo_step, load_corpus_index
    from skillgrade.server.cli import UsageError, emit, exit_code, strictest_threshold
    from skillgrade.server.cli_judge import prepare_llm_run
    from skillgrade.server.estimating import combine, models_for, plan

    prompt_set = None
    if args.prompts is not None:  # a bad file is a usage error before anything is spent
        try:
            prompt_set = load_prompts_file(args.prompts)
        except PromptsFileError as exc:
            raise UsageError(f"--prompts: {exc}") from None
    prepared = prepare_llm_run(args, config_for)
    if prepared is None:
        return None
    llm, gateway, files, reports, errors = prepared
    batch = bool(getattr(args, "batch", False))
    models = models_for(llm)
    step = index = None
    if certify:  # Elo against the `skillgrade init` index (unmeasured, with the reason, without one)
        index, why = load_corpus_index(os.environ, getattr(llm, "data_dir", None))
        step = elo_step(index, model=llm.judge_model, reason=why)

    def cards_for(rep) -> list:
        return cards_from_files(files, exclude=Path(rep.path)) if len(files) > 1 else []

    if args.dry_run:  # the editor's estimate, per skill (server/estimating.py): one function, one answer
        plans = [plan(gateway, rep.document, "certify" if certify else "deep", models=models, judges=args.judges,
                      workspace_skills=cards_for(rep), mc_n=args.mc_n, index=index, prompt_set=prompt_set)
                 for rep in reports]
        asyncio.run(gateway.aclose())
        return _print_plan(combine(plans), args, len(reports))
    progress = Progress(live=sys.stderr.isatty())
    finished: dict[int, object] = {}
    interrupted = False

    async def run_all() -> None:
        nonlocal interrupted
        # --batch: every skill at once, so each round of the skills' waves (routes, tasks, grades) is one batch
        sem = asyncio.Semaphore(max(len(reports), 1) if batch else SKILLS_AT_ONCE)

        async def one(i: int, rep) -> None:
            async with sem:
                name = rep.name or Path(rep.path or "").parent.name
                run = await run_deep(rep, gateway, models=models, judges=args.judges, workspace_skills=cards_for(rep),
                                     mc_n=args.mc_n, mc_ci=args.mc_ci, prompt_set=prompt_set,
                                     elo=step if certify else None, keep_on_cancel=True,
                                     progress=lambda phase, d, n: progress(name, phase, d, n))
                finished[i] = run.report
                if run.cancelled:
                    raise asyncio.CancelledError

        try:
            await asyncio.gather(*(one(i, r) for i, r in enumerate(reports)))
        except asyncio.CancelledError:  # Ctrl-C: keep what finished
            interrupted = True
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        finally:
            progress.clear()
            await gateway.aclose()

    asyncio.run(run_all())
    running = gateway.batches.state.batches if gateway.batches is not None and gateway.batches.state else {}
    if interrupted and running:
        print(f"skillgrade: {len(running)} batch(es) keep running on the server ({', '.join(sorted(running))}); "
              "run the same command again to collect their results: nothing is submitted twice.", file=sys.stderr)
    dicts = [finished[i].to_dict() for i in sorted(finished)]  # type: ignore[attr-defined]
    if not dicts:
        print("skillgrade: interrupted before any skill finished; finished calls are cached, a re-run resumes",
              file=sys.stderr)
        return 130
    tty = sys.stdout.isatty()
    emit(dicts, errors, args, config_for, tty=tty, ledger=gateway.ledger.to_json())
    if args.format == "text":
        print(gateway.ledger.summary(), file=sys.stderr)
    if interrupted:
        print("skillgrade: interrupted; finished simulations are shown and cached, a re-run resumes",
              file=sys.stderr)
        return 130
    return exit_code(dicts, errors, args, strictest_threshold(dicts, args, config_for))


def _print_plan(plan: dict, args: argparse.Namespace, skills: int) -> int:
    """--dry-run: what the run would send (server/estimating.py's plan, the editor's estimate), no call."""
    from skillgrade.analyzers.llm.gateway import format_plan

    if args.format == "json":
        import json

        sys.stdout.write(json.dumps({"dry_run": plan, "skills": skills}, indent=2) + "\n")
        return 0
    cached = plan.get("cached_calls") or 0
    line = format_plan(plan)
    if getattr(args, "batch", False) and line.endswith("."):
        line = line[:-1] + ", at the Message Batches price."
    print(line + (f" {cached} cached repl{'y' if cached == 1 else 'ies'} need no call." if cached else "")
          + f" (upper bound: every positive activates, no early stop, --mc-n {args.mc_n})")
    return 0


def _layer(report: dict, name: str) -> dict | None:
    return next((la for la in report.get("layers", []) if la.get("name") == name), None)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci(iv: dict) -> str:
    if iv.get("rate") is None:
        return f"n/a ({iv.get('reason') or 'no trials'})"
    return f"{_pct(iv['rate'])} [{_pct(iv['lower'])}, {_pct(iv['upper'])}] ({iv['x']}/{iv['n']})"


def mc_text(reports: list[dict], style) -> str:
    """The Monte Carlo (and Elo) section of a text report: the statistics, readably."""
    from skillgrade.analyzers.render import display_path

    out: list[str] = []
    for r in reports:
        layer = _layer(r, "monte_carlo")
        if layer is None:
            continue
        st = layer["statistics"]
        ps = layer.get("prompts") or {}
        src = (f"prompts: {ps.get('source')} ({ps.get('positives')} + {ps.get('negatives')} near misses)" if ps
               else f"prompts: none ({layer.get('prompts_reason')})")
        out.append("")
        out.append(style.bold(f"{display_path(r['skill']['path'])}: Monte Carlo {layer['model']}, "
                              f"{layer['n_used']}/{layer['n_max']} simulations, stopped: "
                              f"{STOPS.get(layer['stop_reason'], layer['stop_reason'])}; {src}"))
        out.append(f"  activation on positives    {_ci(st['activation_rate'])}")
        out.append(f"  false activation (misses)  {_ci(st['false_activation_rate'])}")
        f1, j = st.get("f1"), st.get("triggering_j")
        out.append(f"  precision {_pct(st.get('precision'))}, recall {_pct(st.get('recall'))}, "
                   f"F1 {'n/a' if f1 is None else f'{f1:.2f}'}; triggering (recall - false activation) "
                   f"{'n/a' if j is None else f'{j:.2f}'}")
        q = st["quality"]
        if q.get("mean") is not None:
            cv = q.get("cv")
            hw = q.get("ci_half_width")
            out.append(f"  output quality  mean {q['mean']:.2f}{'' if hw is None else f' ± {hw:.2f}'}, median "
                       f"{q['median']:.2f}, IQR {q['iqr']:.2f}, CV {'n/a' if cv is None else f'{cv:.2f}'} "
                       f"(n={q['n']} graded of {st.get('tp', 0)} activated positives)")
        out.append(f"  failure rate    {_ci(st['failure_rate'])}")
        t = st["tokens"]
        if t.get("median") is not None:
            out.append(f"  tokens/run      median {t['median']:,.0f}, IQR {t['iqr']:,.0f}, "
                       f"{t['outlier_count']} outlier(s); efficiency_norm {st['efficiency_norm']:.2f}")
        if st.get("mc_score") is not None:
            out.append(style.dim(f"  mc_score (seed formula, display only) {st['mc_score']:.2f}"))
        for name, reason in (layer.get("unmeasured") or {}).items():
            if name in _TITLES:
                out.append(f"  {style.yellow('unmeasured')} {_TITLES[name]}: {reason}")
        elo = _layer(r, "elo")
        if elo is not None:
            rating = elo.get("rating")
            if rating is None:
                out.append(f"  {style.yellow('unmeasured')} Elo: {elo.get('reason') or elo.get('unmeasured')}")
            else:
                ci = (f" [{elo['ci_low']:.0f}, {elo['ci_high']:.0f}]" if elo.get("ci_low") is not None
                      and elo.get("ci_high") is not None else "")
                pct = f", percentile {elo['percentile']:.0f}" if elo.get("percentile") is not None else ""
                bias = elo.get("position_bias_pairs") or 0
                out.append(f"  Elo {rating:.0f}{ci}{pct} ({elo.get('n_pairs', 0)} pairs"
                           + (f", {bias} with position bias" if bias else "") + ")")
        comp = r["composite"]
        out.append(style.bold(f"  composite {comp['score']}, badge {comp['badge'] or 'none'}, "
                              f"confidence {comp['confidence']}"))
    return "\n".join(out) + ("\n" if out else "")
