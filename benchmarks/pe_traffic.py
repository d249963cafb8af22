"""What PluginEval's deep run really sends: its Agent SDK calls, through the bundled Claude Code CLI, against the
fake Messages API.

Usage:  /work/pe-venv/bin/python benchmarks/pe_traffic.py [--corpus ../shared/corpus] [--n 50]
                                                           [--out benchmarks/pe_traffic.json] [--nonessential]

Run it from a SEPARATE venv holding `claude-agent-sdk` (the wheel bundles the CLI; never a project dependency):
    python3 -m venv /work/pe-venv && /work/pe-venv/bin/pip install claude_agent_sdk-*.whl
Exits 2 when `claude_agent_sdk` is not importable.

For each of mc_bench's four corpus skills (`SKILLS`), on a fresh fake with mc_bench's cache rules
(`FAKE_CACHE_RULES`: the fake bills input / cache write / cache read, ceil(chars / 4), 5-minute TTL), one
PluginEval deep run, sequentially and each call a fresh `query()`:
  - its 4 judge calls: `query(prompt=system + "\\n\\n" + prompt, options=ClaudeAgentOptions(model=..., allowed_tools=[]))`
    (triggering on Haiku from the description; orchestration, output quality and scope on Sonnet from the first
    3,000 characters of SKILL.md; prompts reconstructed from the notes, plugineval-reference.md §4);
  - its prompt-generation call (Haiku: 15 prompts from name + description; the fake returns 15 prompts);
  - N simulations: `query(prompt="You are evaluating a skill. Apply the skill if appropriate.\\n\\n{SKILL.md}\\n\\n{prompt}",
    options=ClaudeAgentOptions(allowed_tools=[]))`, no model (the CLI's default), the 15 prompts cycled (§5).
The CLI runs with ANTHROPIC_BASE_URL=<fake>, a fake ANTHROPIC_API_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1,
DISABLE_TELEMETRY=1, DISABLE_AUTOUPDATER=1, a temporary HOME and working directory (no user config), and no other
ANTHROPIC_* / CLAUDE_* variables (`--nonessential`: without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, as most users
run it; the CLI then adds a session-title call per query). Every request it makes is recorded (path, model, body size, the fake's usage,
which part of the prompt is the CLI's own: tools, system blocks, injected messages, and which is the skill).

The fake answers every model call with a text reply (no tool use), so each query is the CLI's minimum: one turn.
A real model that reached for a tool (they are defined, only not pre-approved) would add turns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests" / "llm"))
sys.path.insert(0, str(HERE / "benchmarks"))

from fakeapi import FakeAPI, Recorded, _text_len, json_reply, text_reply  # noqa: E402
from mc_bench import FAKE_CACHE_RULES, PE_PREAMBLE, SKILLS, billed  # noqa: E402
from mc_script import NEGATIVE, POSITIVE  # noqa: E402

FAKE_KEY = "sk-ant-fake-pe-traffic-0000"
HAIKU = "claude-haiku-4-5-20251001"  # PluginEval's _MODEL_MAP (notes §4)
SONNET = "claude-sonnet-5"
PROMPTS = [*POSITIVE, *NEGATIVE][:15]  # what the scripted generator returns (mc_bench's prompts, first 15)
USAGE_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")

# PluginEval's judge and generator prompts, reconstructed from the notes (§4, §5): same inputs and asks
JUDGE_SYSTEM = ("You are an expert evaluator of Claude Code skills. Respond ONLY with valid JSON, with no "
                "explanation and no markdown fences.")
GEN_SYSTEM = ("You are generating test prompts for a Claude Code skill. Respond ONLY with a JSON array of "
              "strings, with no explanation and no markdown fences.")
ORCH_RUBRIC = """Score 0.0 - Poor: the skill acts as a standalone agent and runs its own tool calls and sub-tasks.
Score 0.25 - Below average: some orchestration logic is mixed in with the worker tasks.
Score 0.5 - Average: it delegates some tasks but still coordinates multi-step flows itself.
Score 0.75 - Good: mostly a worker; inputs and outputs documented, little coordination.
Score 1.0 - Excellent: a pure worker; composable, clear contracts, no orchestration logic."""
SCOPE_RUBRIC = """Score 0.0 - Too thin: a stub or trivial wrapper with almost no unique value.
Score 0.25 - Under-scoped: covers a narrow slice and misses obvious related tasks.
Score 0.5 - Average: a reasonable scope, but too broad or somewhat narrow.
Score 0.75 - Well-scoped: one coherent domain, neither bloated nor sparse.
Score 1.0 - Perfectly calibrated: minimal surface, maximum cohesion, ideal composability."""


def frontmatter_field(text: str, key: str) -> str:
    """A one-line scalar of the frontmatter (the four corpus skills' name and description are one line)."""
    head = text.split("---", 2)[1] if text.startswith("---") else ""
    for line in head.splitlines():
        if line.startswith(f"{key}:"):
            value = line.split(":", 1)[1].strip()
            return json.loads(value) if value.startswith('"') else value.strip("'")
    return ""


def judge_prompts(text: str) -> list[tuple[str, str, str]]:
    """(assessment, model, prompt) of PluginEval's 4 judge calls: system + "\\n\\n" + prompt."""
    head, desc = text[:3000], frontmatter_field(text, "description")
    triggering = (f"Here is a skill description:\n\n<description>\n{desc}\n</description>\n\nWrite 10 synthetic "
                  "user prompts: 5 that SHOULD trigger this skill and 5 that should NOT. For each one, also "
                  "predict whether a typical Claude model would trigger the skill.\n\nReturn JSON of this shape:\n"
                  '{\n  "predictions": [\n    {"prompt": "...", "should_trigger": true, "would_trigger": true},\n'
                  '    ...\n  ],\n  "precision": <float 0-1>,\n  "recall": <float 0-1>,\n  "f1": <float 0-1>\n}')
    orchestration = ("Evaluate the orchestration fitness of this skill.\n\nA skill should be a pure WORKER: it "
                     "should NOT orchestrate other tools or agents. It should take clear inputs and produce clear "
                     f"outputs.\n\nRubric:\n{ORCH_RUBRIC}\n\nSkill content:\n<skill>\n{head}\n</skill>\n\nReturn "
                     'JSON:\n{\n  "score": <float 0.0-1.0 matching the rubric>,\n  "reasoning": "<one sentence>",\n'
                     '  "evidence": ["<quote or observation>", ...]\n}')
    quality = ("Simulate 3 realistic tasks this skill would handle, then evaluate the expected output quality "
               f"from the skill's instructions.\n\nSkill content:\n<skill>\n{head}\n</skill>\n\nReturn JSON:\n"
               '{\n  "score": <float 0.0-1.0>,\n  "simulations": [\n    {"task": "...", "expected_output": "...", '
               '"quality_notes": "..."}\n  ]\n}')
    scope = (f"Evaluate the scope calibration of this skill.\n\nRubric:\n{SCOPE_RUBRIC}\n\nSkill content:\n<skill>\n"
             f'{head}\n</skill>\n\nReturn JSON:\n{{\n  "score": <float 0.0-1.0 matching the rubric>,\n'
             '  "assessment": "<one sentence>"\n}')
    return [(name, model, f"{JUDGE_SYSTEM}\n\n{p}") for name, model, p in (
        ("triggering", HAIKU, triggering), ("orchestration", SONNET, orchestration),
        ("output_quality", SONNET, quality), ("scope", SONNET, scope))]


def generator_prompt(text: str) -> str:
    return (f"{GEN_SYSTEM}\n\nGenerate 15 varied user prompts that would trigger this skill:\n\n"
            f"Name: {frontmatter_field(text, 'name')}\nDescription: {frontmatter_field(text, 'description')}\n\n"
            'Return a JSON array of 15 strings. Example: ["prompt 1", "prompt 2", ...]')


def simulation_prompt(text: str, prompt: str) -> str:
    return f"{PE_PREAMBLE}{text}\n\n{prompt}"


SIM_ANSWER = "Run the documented command, check its output, then report the result in Markdown. " * 28


def respond(body: dict[str, Any]):
    """The fake's reply by what was asked (the CLI's session-title call a title, other extra calls a short text)."""
    asked = json.dumps(body.get("messages") or [])
    if "title" in json.dumps((body.get("output_config") or {}).get("format") or {}):
        return json_reply({"title": "Skill evaluation"})
    if json.dumps(PE_PREAMBLE)[1:-1] in asked:
        return text_reply(SIM_ANSWER)
    if "Generate 15 varied user prompts" in asked:
        return json_reply(PROMPTS)
    if "5 that SHOULD trigger" in asked:
        return json_reply({"predictions": [], "precision": 0.8, "recall": 0.8, "f1": 0.8})
    if "Simulate 3 realistic tasks" in asked:
        return json_reply({"score": 0.8, "simulations": [{"task": "t", "expected_output": "o", "quality_notes": "n"}]})
    if "<skill>" in asked:
        return json_reply({"score": 0.75, "reasoning": "A worker with clear inputs.", "evidence": ["x"],
                           "assessment": "Well scoped."})
    return text_reply("ok")


def parts_of(body: dict[str, Any], prompt: str, skill: str) -> dict[str, int]:
    """Characters of one request by origin, counted as the fake counts them (its _text_len): the CLI's tool
    definitions, its system blocks, the messages it injects around the prompt, the skill inside PluginEval's
    prompt, and the rest of that prompt (preamble / instructions + user prompt). A block that holds the whole
    prompt inside more text (the CLI's session-title call wraps it) counts the wrapping as the CLI's."""
    out = {"tools": _text_len(body.get("tools") or []), "system": _text_len(body.get("system") or []),
           "cli_messages": 0, "skill": 0, "pe_prompt_rest": 0}
    for message in body.get("messages") or []:
        blocks = message.get("content")
        for block in blocks if isinstance(blocks, list) else [blocks]:
            n = _text_len(block)
            text = block if isinstance(block, str) else block.get("text") if isinstance(block, dict) else None
            if isinstance(text, str) and prompt in text:
                own = len(skill) if skill in prompt else 0
                out["skill"] += own
                out["pe_prompt_rest"] += len(prompt) - own
                out["cli_messages"] += n - len(prompt)
            else:
                out["cli_messages"] += n
    return out


def billed_by_origin(body: dict[str, Any], usage: dict[str, int], prompt: str, skill: str) -> dict[str, float]:
    """One request's billed-equivalent input split by origin (the CLI's, the skill's, the rest of PluginEval's
    prompt). The cache covers the request from its start (tools, system, messages in order): the first
    cache_read tokens are billed 0.1x, the next cache_creation 1.25x, the rest 1x; each part is billed at the
    rates of the positions it holds (characters scaled to the fake's token count)."""
    segments: list[tuple[str, int]] = [("cli", _text_len(body.get("tools") or [])),
                                       ("cli", _text_len(body.get("system") or []))]
    for message in body.get("messages") or []:
        blocks = message.get("content")
        for block in blocks if isinstance(blocks, list) else [blocks]:
            n = _text_len(block)
            text = block if isinstance(block, str) else block.get("text") if isinstance(block, dict) else None
            if not (isinstance(text, str) and prompt in text):
                segments.append(("cli", n))
                continue
            at, own = text.index(prompt), prompt.find(skill) if skill else -1
            inner = [("prompt_rest", own), ("skill", len(skill)), ("prompt_rest", len(prompt) - own - len(skill))] \
                if own >= 0 else [("prompt_rest", len(prompt))]
            segments += [("cli", at), *inner, ("cli", n - at - len(prompt))]
    read, write = usage["cache_read_input_tokens"], usage["cache_creation_input_tokens"]
    tokens = read + write + usage["input_tokens"]
    scale = tokens / max(sum(n for _, n in segments), 1)
    out = {"cli": 0.0, "skill": 0.0, "prompt_rest": 0.0}
    pos = 0.0
    for origin, n in segments:
        lo, hi = pos, pos + n * scale
        pos = hi
        out[origin] += (0.1 * max(0.0, min(hi, read) - lo) + 1.25 * max(0.0, min(hi, read + write) - max(lo, read))
                        + max(0.0, hi - max(lo, read + write)))
    return out


def request_row(rec: Recorded, query: str, prompt: str, skill: str) -> dict[str, Any]:
    body = rec.body if isinstance(rec.body, dict) else {}
    system = body.get("system") if isinstance(body.get("system"), list) else []
    blocks = [*system, *(body.get("tools") or []),
              *(b for m in body.get("messages") or [] if isinstance(m.get("content"), list) for b in m["content"])]
    ttls = sorted({json.dumps(b.get("cache_control"), sort_keys=True)
                   for b in blocks if isinstance(b, dict) and b.get("cache_control")})
    return {"query": query, "path": rec.path, "status": rec.status, "model": body.get("model"),
            "stream": body.get("stream"), "body_chars": len(json.dumps(rec.body)) if rec.body is not None else 0,
            "usage": rec.usage, "parts": parts_of(body, prompt, skill) if rec.path == "/v1/messages" else None,
            "billed_by_origin": billed_by_origin(body, rec.usage, prompt, skill) if rec.usage else None,
            "cache_control": [json.loads(t) for t in ttls],
            "tools": [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]}


async def run_query(prompt: str, model: str | None, errors: list[str]) -> dict[str, Any]:
    """One PluginEval call: a fresh query() with PluginEval's options."""
    from claude_agent_sdk import AssistantMessage, ClaudeAgentOptions, ResultMessage, TextBlock, query

    opts = ClaudeAgentOptions(allowed_tools=[]) if model is None else ClaudeAgentOptions(model=model, allowed_tools=[])
    opts.stderr = errors.append  # pipes the CLI's stderr to us; no change to its arguments
    out: dict[str, Any] = {"text_chars": 0, "is_error": None, "cli_usage": None, "cli_cost_usd": None}
    t0 = time.perf_counter()
    try:
        async for m in query(prompt=prompt, options=opts):
            if isinstance(m, AssistantMessage):
                out["text_chars"] += sum(len(b.text) for b in m.content if isinstance(b, TextBlock))
            elif isinstance(m, ResultMessage):
                out.update(is_error=m.is_error, cli_usage=m.usage, cli_cost_usd=m.total_cost_usd)
    except Exception as e:  # noqa: BLE001 - a failed query is a result: recorded with its error text
        out["exception"] = f"{type(e).__name__}: {e}"
    out["wall_s"] = round(time.perf_counter() - t0, 3)
    return out


def total(rows: list[dict[str, Any]]) -> dict[str, Any]:
    usage = [r["usage"] for r in rows if r["usage"]]
    t: dict[str, Any] = {k: sum(u[k] for u in usage) for k in USAGE_KEYS}
    t["calls"] = sum(1 for r in rows if r["path"] == "/v1/messages")
    t["requests"] = len(rows)
    t["billed"] = round(billed(t), 1)
    return t


async def measure_skill(label: str, rel: str, path: Path, n: int) -> dict[str, Any]:
    text = (path / "SKILL.md").read_text(encoding="utf-8")
    calls: list[tuple[str, str | None, str, str]] = [
        (f"judge:{name}", model, prompt, text[:3000]) for name, model, prompt in judge_prompts(text)]
    calls.append(("generator", HAIKU, generator_prompt(text), ""))
    calls += [(f"sim:{i + 1}", None, simulation_prompt(text, PROMPTS[i % len(PROMPTS)]), text) for i in range(n)]
    rows: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    with FakeAPI(**FAKE_CACHE_RULES) as fake:
        fake.responder = respond
        os.environ["ANTHROPIC_BASE_URL"] = fake.url
        for name, model, prompt, skill in calls:
            before, errors = len(fake.requests), []
            q = await run_query(prompt, model, errors)
            new = [request_row(r, name, prompt, skill) for r in fake.requests[before:]]
            rows += new
            queries.append({"query": name, "requests": len(new), **q,
                            "stderr": errors[-5:] if (q.get("is_error") or q.get("exception")) else []})
            print(f"  {label:>10} {name:<22} {len(new)} request(s) {q['wall_s']:6.2f} s"
                  + (f"  ERROR {q.get('exception') or errors[-3:]}" if q.get("exception") or q["is_error"] else ""),
                  file=sys.stderr, flush=True)
        time.sleep(1.0)  # a request the CLI sent after its last query ended still counts (to that query)
        rows += [request_row(r, name, prompt, skill) for r in fake.requests[before + queries[-1]["requests"]:]]
    sims = [r for r in rows if r["query"].startswith("sim:")]
    sim_msgs = [r for r in sims if r["path"] == "/v1/messages" and r["parts"]]
    parts = {k: round(sum(math.ceil(r["parts"][k] / 4) for r in sim_msgs) / max(n, 1), 1)
             for k in ("tools", "system", "cli_messages", "skill", "pe_prompt_rest")}
    first = [r for r in sims if r["query"] == "sim:1"]
    sims_billed = {k: round(sum(r["billed_by_origin"][k] for r in sims if r["billed_by_origin"]), 1)
                   for k in ("cli", "skill", "prompt_rest")}
    return {"label": label, "skill": rel, "skill_chars": len(text), "n": n,
            "judges": total([r for r in rows if r["query"].startswith("judge:")]),
            "generator": total([r for r in rows if r["query"] == "generator"]),
            "sims": total(sims), "first_sim": total(first),
            "later_sims_mean": {k: round(v / max(n - 1, 1), 1) for k, v in total(
                [r for r in sims if r["query"] != "sim:1"]).items()},
            "all": total(rows), "sim_parts_tokens_per_sim": parts, "sims_billed_by_origin": sims_billed,
            "errors": sum(1 for q in queries if q.get("exception") or q.get("is_error")),
            "queries": queries, "requests": rows}


def isolate_environment(home: Path, nonessential: bool) -> None:
    """No user configuration or real credential reaches the CLI. `nonessential`: leave the CLI's nonessential
    traffic on, as a PluginEval user who has not set CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC has it (telemetry,
    error reporting and the autoupdater stay off)."""
    for k in list(os.environ):
        if k.startswith(("ANTHROPIC_", "CLAUDE_", "CLAUDECODE", "OTEL_")):
            del os.environ[k]
    os.environ.update({"ANTHROPIC_API_KEY": FAKE_KEY, "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1",
                       "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                       "XDG_CACHE_HOME": str(home / ".cache")})
    if nonessential:
        os.environ["DISABLE_ERROR_REPORTING"] = "1"
    else:
        os.environ["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"


def print_tables(results: list[dict[str, Any]]) -> None:
    print("## PluginEval's deep run through the Claude Code CLI (fake API; tokens = ceil(chars / 4))")
    print("| skill | SKILL.md | requests / simulation | per simulation: uncached | write | read | billed-eq. "
          "| 50 simulations: uncached | write | read | billed-eq. | judges + generator billed-eq. | whole run (55 calls) "
          "billed-eq. |")
    print("|" + "---|" * 13)
    for r in results:
        s, n = r["sims"], r["n"]
        per = {k: s[k] / n for k in (*USAGE_KEYS, "billed")}
        scale = 50 / n
        jg = r["judges"]["billed"] + r["generator"]["billed"]
        print(f"| {r['skill']} | {r['skill_chars'] / 1024:.1f} KB | {s['requests'] / n:.2f} | "
              f"{per['input_tokens']:,.0f} | {per['cache_creation_input_tokens']:,.0f} | "
              f"{per['cache_read_input_tokens']:,.0f} | {per['billed']:,.0f} | {s['input_tokens'] * scale:,.0f} | "
              f"{s['cache_creation_input_tokens'] * scale:,.0f} | {s['cache_read_input_tokens'] * scale:,.0f} | "
              f"{s['billed'] * scale:,.0f} | {jg:,.0f} | {jg + s['billed'] * scale:,.0f} |")
    print()
    print("## Where a simulation's prompt comes from (tokens per simulation, mean)")
    print("| skill | CLI tools | CLI system blocks | CLI-injected messages | the skill | preamble + user prompt "
          "| CLI's own share | billed-eq. of the simulations: CLI's | skill's | rest | CLI's share |")
    print("|" + "---|" * 11)
    for r in results:
        p, b = r["sim_parts_tokens_per_sim"], r["sims_billed_by_origin"]
        cli = p["tools"] + p["system"] + p["cli_messages"]
        whole = cli + p["skill"] + p["pe_prompt_rest"]
        print(f"| {r['skill']} | {p['tools']:,.0f} | {p['system']:,.0f} | {p['cli_messages']:,.0f} | "
              f"{p['skill']:,.0f} | {p['pe_prompt_rest']:,.0f} | {100 * cli / whole:.0f}% | {b['cli']:,.0f} | "
              f"{b['skill']:,.0f} | {b['prompt_rest']:,.0f} | {100 * b['cli'] / max(sum(b.values()), 1):.0f}% |")


async def main_async(args: argparse.Namespace) -> int:
    import claude_agent_sdk
    from claude_agent_sdk._cli_version import __cli_version__

    corpus = Path(args.corpus)
    with tempfile.TemporaryDirectory(prefix="pe-traffic-") as tmp:
        home, work = Path(tmp) / "home", Path(tmp) / "work"
        home.mkdir()
        work.mkdir()
        isolate_environment(home, args.nonessential)
        os.chdir(work)  # PluginEval passes no cwd: the CLI works in the caller's directory
        results = []
        for label, rel in SKILLS:
            if args.skills and label not in args.skills.split(","):
                continue
            path = corpus / rel
            if not (path / "SKILL.md").is_file():
                print(f"missing: {path / 'SKILL.md'}", file=sys.stderr)
                return 1
            results.append(await measure_skill(label, rel, path, args.n))
    paths = Counter(f"{r['path']} {r['status']}" for res in results for r in res["requests"])
    models = Counter(str(r["model"]) for res in results for r in res["requests"])
    controls = Counter(json.dumps(c, sort_keys=True) for res in results for r in res["requests"]
                       for c in r["cache_control"])
    out = {"cli_version": __cli_version__, "sdk_version": claude_agent_sdk.__version__,
           "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "n": args.n,
           "nonessential_traffic": args.nonessential,
           "fake_cache_rules": FAKE_CACHE_RULES, "paths": dict(paths), "models": dict(models),
           "cache_control": dict(controls), "skills": results}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"Claude Code CLI {__cli_version__} (claude-agent-sdk {claude_agent_sdk.__version__}); "
          f"requests by path and status: {dict(paths)}; models: {dict(models)}; cache_control seen: {dict(controls)}")
    print()
    print_tables(results)
    print(f"\nwritten: {args.out}")
    return 1 if any(r["errors"] for r in results) else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(HERE.parent / "shared" / "corpus"))
    ap.add_argument("--n", type=int, default=50, help="simulations per skill (PluginEval's deep: 50)")
    ap.add_argument("--skills", default="", help="comma-separated labels of SKILLS to run (default: all four)")
    ap.add_argument("--out", default=str(HERE / "benchmarks" / "pe_traffic.json"))
    ap.add_argument("--nonessential", action="store_true",
                    help="leave CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC unset (the CLI then also names each session "
                         "with a model call)")
    args = ap.parse_args()
    try:
        import claude_agent_sdk  # noqa: F401
    except ImportError as e:
        print(f"pe_traffic: claude_agent_sdk is not importable from {sys.executable} ({e}).\n"
              "Run this from a separate venv that has it, e.g.\n"
              "  python3 -m venv /work/pe-venv && /work/pe-venv/bin/pip install claude-agent-sdk\n"
              "  /work/pe-venv/bin/python benchmarks/pe_traffic.py", file=sys.stderr)
        return 2
    args.out = str(Path(args.out).resolve())
    args.corpus = str(Path(args.corpus).resolve())
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
