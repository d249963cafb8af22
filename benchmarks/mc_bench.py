"""Monte Carlo's benchmark: our overhead for a 50-simulation run, and calls / input tokens per certify next to
PluginEval's design.

Usage:  PYTHONPATH=<worktree>/.pkg python benchmarks/mc_bench.py [--corpus ../shared/corpus] [--rounds 3]

Offline. The fake Messages API (tests/llm/fakeapi.py) runs in this process's threads with the scripted
responder of tests/llm/mc_script.py (the prompt writer's 10 + 10 prompts, a router that loads the skill for
every positive and nothing for the near misses, a ~600-token answer, a grade) plus the judge's rubric replies.

1. Overhead at zero model latency for one 50-simulation run (`--mc-ci 0`, so all 50 run): (a) the real
   Gateway and on-disk cache around an in-process provider that answers instantly (pure Python: requests,
   cache keys and files, validation, statistics); (b) the real anthropic SDK against the fake over loopback
   HTTP (the SDK already imported), wall time. Target: <= 1 s.
2. Per certify (judge + Monte Carlo) on corpus skills: calls and prompt tokens as the fake reports them
   (ceil(chars / 4); input, cache write, cache read), at N = 50 without early stop and with the default
   adaptive stop, next to PluginEval's design: 4 judge calls + 1 prompt-generation call + N simulations, each
   simulation sending "You are evaluating a skill. Apply the skill if appropriate." + the whole SKILL.md + the
   prompt, no caching (its judge calls are counted as the skill + 500 tokens of rubric each; the Agent SDK's own
   system prompt, which it also sends, is left out, so PluginEval's figures are a lower bound). "Billed input"
   weighs cache writes 1.25x and reads 0.1x (the API's prices relative to plain input).
   `--pe-measured FILE` (the JSON benchmarks/pe_traffic.py writes: PluginEval's calls as the Claude Code CLI really
   sends them, billed by the same fake) adds "PluginEval measured (CLI)" columns and "ours / PE measured" ratios
   next to the lower-bound ones.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests" / "llm"))

SKILLS = (
    ("small", "anthropics-skills/brand-guidelines"),
    ("medium", "anthropics-skills/frontend-design"),
    ("large+refs", "anthropics-skills/skill-creator"),
    ("very large", "skill-graph/eval-driven-development"),
)
PE_PREAMBLE = "You are evaluating a skill. Apply the skill if appropriate.\n\n"
KEY = "sk-bench-0123456789abcdef"
# the API's caching rules, as the fake applies them (benchmarks/pe_traffic.py bills PluginEval's CLI traffic by the
# same ones): message blocks can end a cached prefix (the SKILL.md tool_result), the tools head every prefix, a
# prefix under 512 tokens (the 5.5 models' minimum) is not cached at all, and a request reads up to the longest
# earlier breakpoint it shares (the grader's system shares the judge's first two blocks)
FAKE_CACHE_RULES: dict[str, Any] = {"message_cache": True, "tools_in_prefix": True, "min_cache_tokens": 512,
                                    "every_breakpoint": True}


def tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def quote_of(text: str) -> str:
    """A plain line of the skill's body for the scripted judge's evidence (a quote that is not in the skill
    would be rejected and re-asked, doubling the judge's calls in the figures)."""
    body = text.split("---", 2)[-1] if text.startswith("---") else text
    for line in body.splitlines():
        line = line.strip()
        if 20 <= len(line) <= 180 and not line.startswith("#") and not any(c in line for c in "`*|[]<>_"):
            return line
    raise ValueError("no plain line to quote")


def responder_for(name: str, doc=None):
    """The router loads the skill for every positive (the writer's, or the skill's own examples); the judge's
    verdicts quote a line of this skill."""
    from fakeapi import json_reply, text_reply
    from judge_script import verdict
    from mc_script import MCResponder, deep_responder

    from skillgrade.analyzers.mc_prompts import examples_from_frontmatter

    own = examples_from_frontmatter(doc.frontmatter.data or {}) if doc is not None else None
    positives = {p.prompt for p in own.positives} if own is not None else set()
    mc = MCResponder(route=lambda p: name if ".pdf" in p or p in positives else None)
    base = deep_responder(mc)
    answer = "Run the documented command, check its output, then report the result in Markdown. " * 28

    quotes = (quote_of(doc.text),) if doc is not None else ("Return the extracted text as Markdown.",)

    def respond(body: dict[str, Any]):
        kind = mc.kind(body)
        if kind == "task":
            return text_reply(answer)
        if kind == "other" and "compare two Agent Skills" not in json.dumps(body["messages"][0]["content"]):
            text = json.dumps(body["messages"][0]["content"])
            extra = {"tasks": [{"task": f"t{i}", "outcome": "ok"} for i in range(3)]} \
                if "**Output quality**" in text else {}
            return json_reply(verdict(0.8, quotes=quotes, **extra))
        return base(body)

    return respond


def load(path: Path):
    from skillgrade.analyzers.report import analyze_file

    return analyze_file(path / "SKILL.md")


async def certify_once(report, cache_dir: Path, *, mc_n: int, mc_ci: float) -> dict[str, Any]:
    """One certify on a fresh fake (so no prompt-cache prefix is already warm from an earlier run)."""
    from fakeapi import FakeAPI

    with FakeAPI(**FAKE_CACHE_RULES) as fake:
        fake.responder = responder_for(report.name, report.document)
        return await _certify(fake, report, cache_dir, mc_n=mc_n, mc_ci=mc_ci)


async def _certify(fake, report, cache_dir: Path, *, mc_n: int, mc_ci: float) -> dict[str, Any]:
    from skillgrade.analyzers.certify import run_deep
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    gw = Gateway(AnthropicProvider(KEY, fake.url, max_retries=0), cache=Cache(cache_dir), timeout_s=30,
                 concurrency=4)
    before = len(fake.reported)
    t0 = time.perf_counter()
    run = await run_deep(report, gw, models={"judge": "claude-sonnet-5-5", "simulate": "claude-haiku-5-5",
                                             "grade": "claude-sonnet-5-5"}, mc_n=mc_n, mc_ci=mc_ci)
    wall = time.perf_counter() - t0
    await gw.aclose()
    usage = fake.reported[before:]
    total = {k: sum(u[k] for u in usage) for k in ("input_tokens", "cache_creation_input_tokens",
                                                     "cache_read_input_tokens")}
    mc_calls = run.mc.usage.to_dict()
    return {"calls": len(usage), "mc_calls": mc_calls["calls"], "n_used": run.mc.n_used,
            "stop": run.mc.stop_reason, "wall": wall, **total, "mc": mc_calls, "ledger_cost": gw.ledger.cost_usd}


def pluginEval_tokens(skill_text: str, prompts: list[str], n: int) -> tuple[int, int]:
    """(calls, input tokens) of PluginEval's deep run for the same N: 4 judges + 1 generator + N sims."""
    sims = sum(tokens(len(PE_PREAMBLE) + len(skill_text) + 2 + len(prompts[i % len(prompts)])) for i in range(n))
    judges = 4 * (tokens(len(skill_text)) + 500)
    generator = tokens(len(skill_text)) + 100
    return 5 + n, sims + judges + generator


def billed(r: dict[str, Any]) -> float:
    return r["input_tokens"] + 1.25 * r["cache_creation_input_tokens"] + 0.1 * r["cache_read_input_tokens"]


def pe_measured(measured: dict[str, Any] | None, rel: str) -> tuple[float, float] | None:
    """(whole deep run, 50 simulations) billed-equivalent input of PluginEval as pe_traffic.py measured it for
    the skill `rel` (its simulations scaled to 50 if it ran another N), or None if it was not measured."""
    entry = next((e for e in (measured or {}).get("skills", []) if e["skill"] == rel), None)
    if entry is None:
        return None
    sims = billed(entry["sims"]) * 50 / entry["n"]
    return billed(entry["judges"]) + billed(entry["generator"]) + sims, sims


async def overhead_inprocess(report, rounds: int) -> list[float]:
    """50 simulations with the real Gateway + cache around an instant in-process provider."""
    from mc_script import MCResponder
    from scripted import ScriptedProvider, reply

    from skillgrade.analyzers.layers.montecarlo import run_montecarlo
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway
    from skillgrade.analyzers.llm.types import ToolCall

    name = report.name
    mc = MCResponder()

    def answer(req):
        if req.kind == "prompts":
            return reply(parsed={"prompts": [{"prompt": p, "should_trigger": True, "why": ""} for p in mc.positives]
                         + [{"prompt": p, "should_trigger": False, "why": ""} for p in mc.negatives]})
        if req.kind == "route":
            p = req.messages[0]["content"]
            return reply(tool_calls=(ToolCall("Skill", {"skill": name}),)) if ".pdf" in p else reply("no skill")
        if req.kind == "task":
            return reply("Run the documented command. " * 80)
        return reply(parsed={"rationale": "ok", "band": "0.80-1.00", "score": 0.85})

    out = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as d:
            gw = Gateway(ScriptedProvider(answer), cache=Cache(Path(d)), timeout_s=30, concurrency=4)
            t0 = time.perf_counter()
            res = await run_montecarlo(report.document, gw, max_n=50, ci_target=0.0)
            out.append(time.perf_counter() - t0)
            assert res.n_used == 50 and res.stop_reason == "max_reached", res.stop_reason
            await gw.aclose()
    return out


async def overhead_sdk(fake, report, rounds: int) -> list[float]:
    from skillgrade.analyzers.layers.montecarlo import run_montecarlo
    from skillgrade.analyzers.llm.anthropic_provider import AnthropicProvider
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway

    out = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as d:
            gw = Gateway(AnthropicProvider(KEY, fake.url, max_retries=0), cache=Cache(Path(d)), timeout_s=30,
                         concurrency=4)
            t0 = time.perf_counter()
            res = await run_montecarlo(report.document, gw, max_n=50, ci_target=0.0)
            out.append(time.perf_counter() - t0)
            assert res.n_used == 50
            await gw.aclose()
    return out


async def main_async(args: argparse.Namespace) -> int:
    import anthropic  # noqa: F401 - imported once, outside the timings
    from fakeapi import FakeAPI

    corpus = Path(args.corpus)
    measured = json.loads(Path(args.pe_measured).read_text(encoding="utf-8")) if args.pe_measured else None
    ok = True
    with FakeAPI() as fake:
        small = load(corpus / SKILLS[0][1])
        fake.responder = responder_for(small.name, small.document)
        inproc = await overhead_inprocess(small, args.rounds)
        sdk = await overhead_sdk(fake, small, args.rounds)
        print("## Overhead of one 50-simulation run at zero model latency (best / median of "
              f"{args.rounds})")
        print(f"in-process provider, real Gateway + cache: {min(inproc):.3f} s / {sorted(inproc)[len(inproc)//2]:.3f} s")
        print(f"real SDK + fake over loopback HTTP:        {min(sdk):.3f} s / {sorted(sdk)[len(sdk)//2]:.3f} s")
        ok &= min(inproc) <= 1.0
        print()
        print("## Per certify (judge + Monte Carlo), prompt tokens as the fake counts them")
        print("| skill | SKILL.md | run | calls (MC) | n used | input sent | uncached | cache write | cache read "
              "| billed-equivalent | PluginEval (55 calls) | ours / PE | MC: uncached | MC: write | MC: read "
              "| MC: billed-eq. | PluginEval: 50 sims | MC ours / PE |"
              + (" PluginEval measured (CLI): 55 calls | ours / PE measured | PE measured: 50 sims "
                 "| MC ours / PE measured |" if measured else ""))
        print("|" + "---|" * (22 if measured else 18))
        for label, rel in SKILLS:
            path = corpus / rel
            if not (path / "SKILL.md").is_file():
                print(f"| {label} | missing: {path} |")
                continue
            report = load(path)
            text = (path / "SKILL.md").read_text(encoding="utf-8")
            from mc_script import NEGATIVE, POSITIVE

            from skillgrade.analyzers.mc_prompts import examples_from_frontmatter

            own = examples_from_frontmatter(report.document.frontmatter.data or {})
            prompts = [p.prompt for p in own.prompts] if own is not None else [*POSITIVE, *NEGATIVE]
            for run_label, n, ci in (("N=50 (--mc-ci 0)", 50, 0.0), ("adaptive (default)", 50, 0.10)):
                with tempfile.TemporaryDirectory() as d:
                    r = await certify_once(report, Path(d), mc_n=n, mc_ci=ci)
                pe_calls, pe_input = pluginEval_tokens(text, prompts, 50)
                pe_mc = pe_input - (4 * (tokens(len(text)) + 500) + tokens(len(text)) + 100)
                m = r["mc"]
                mc_billed = billed(m)
                sent = r["input_tokens"] + r["cache_creation_input_tokens"] + r["cache_read_input_tokens"]
                print(f"| {label} | {len(text) / 1024:.1f} KB | {run_label} | {r['calls']} ({r['mc_calls']}) | "
                      f"{r['n_used']} | {sent:,} | {r['input_tokens']:,} | {r['cache_creation_input_tokens']:,} | "
                      f"{r['cache_read_input_tokens']:,} | {billed(r):,.0f} | {pe_input:,} | "
                      f"{100 * billed(r) / pe_input:.0f}% | {m['input_tokens']:,} | "
                      f"{m['cache_creation_input_tokens']:,} | {m['cache_read_input_tokens']:,} | {mc_billed:,.0f} | "
                      f"{pe_mc:,} | {100 * mc_billed / pe_mc:.0f}% |" + measured_cells(measured, rel, r, mc_billed))
    return 0 if ok else 1


def measured_cells(measured: dict[str, Any] | None, rel: str, r: dict[str, Any], mc_billed: float) -> str:
    if measured is None:
        return ""
    pe = pe_measured(measured, rel)
    if pe is None:
        return " not measured | | | |"
    whole, sims = pe
    return (f" {whole:,.0f} | {100 * billed(r) / whole:.0f}% | {sims:,.0f} | {100 * mc_billed / sims:.0f}% |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(HERE.parent / "shared" / "corpus"))
    ap.add_argument("--pe-measured", metavar="FILE", default="",
                    help="JSON written by benchmarks/pe_traffic.py: adds PluginEval's measured CLI traffic columns")
    ap.add_argument("--rounds", type=int, default=3)
    return asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
