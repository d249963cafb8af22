"""The LLM judge's benchmark: calls, tokens and dollars per judge run, our own overhead, and the static path.

Usage:  PYTHONPATH=.pkg python benchmarks/judge_bench.py [--corpus ../shared/corpus] [--rounds 3] [--baseline TREE]

Everything runs offline against the fake Messages API (tests/llm/fakeapi.py), started in a child process so
its threads do not compete with the judge for our interpreter lock. The judge runs as the CLI runs it: the
real anthropic SDK through `analyzers/llm/setup.build_gateway` and `analyzers/layers/judge.run_judge`.

1. Per skill (4 corpus skills of different sizes), calls / input / output / cache-write / cache-read tokens
   and dollars at the packaged price table, by call kind, in three variants: the `cache_control` markers as
   the layers place them; the same under a stricter cache model (the prefix also keyed on tools and the
   structured-output format, and unreadable by requests sent before its first response started; replies
   take 0.2 s so concurrent calls overlap); the markers stripped (a provider wrapper removes them before
   the SDK sees the request). Then a second run on the same on-disk cache, which must make 0 calls, and a
   check that the gateway's ledger equals the usage the fake reported. The fake's token counts
   are ceil(chars / 4) of what we send; output tokens come from the replies scripted here, sized like concise
   real critiques (so input and cache figures are ours, output figures an assumption).
2. Our overhead for one full judge run at zero model latency: wall time minus the time the fake server was
   busy answering (best of --rounds, the SDK already imported), and the pure-Python time of the same run with
   an in-process ScriptedProvider (tests/llm/scripted.py) behind the real Gateway and on-disk cache.
3. The static path: single-skill `skillgrade score --no-cache` wall (alternating with `--baseline TREE`, an
   older source tree, when given), and the modules a static run imports (anthropic, httpx, pydantic must be
   absent). Exit status 1 when any check fails (a dimension unmeasured, a ledger mismatch, a second run that
   calls, a heavy import). Figures and how to read them: docs/benchmarks.md, "LLM judge".
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
TESTS_LLM = HERE / "tests" / "llm"
SKILLS = (  # (label, path under the corpus): ~2 KB, ~8 KB, 33 KB + 12 KB of references/, 110 KB
    ("small", "anthropics-skills/brand-guidelines"),
    ("medium", "anthropics-skills/frontend-design"),
    ("large+refs", "anthropics-skills/skill-creator"),
    ("very large", "skill-graph/eval-driven-development"),
)
KINDS = ("prompts", "route", "judge")
STRICT_DELAY = 0.2  # s per reply in the strict variant, so that concurrent requests overlap as they do for real
VARIANTS = (  # (label, strip the cache_control markers, fake options)
    ("cached", False, {}),
    ("strict cache", False, {"strict": True, "delay": STRICT_DELAY}),
    ("no markers", True, {}),
)
TOKEN_KEYS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
MIN_CACHEABLE = 512  # tokens: the 5.5 models' minimum cacheable prefix (notes/anthropic-sdk-and-llm-layers.md 1.9)
HEAVY = ("anthropic", "httpx", "pydantic", "httpcore", "anyio")

# ---- the fake server in a child process -------------------------------------------------------------------

RATIONALE = ("The skill states its purpose and its trigger conditions in the description, and the body walks "
             "through the main procedure in order. The steps name concrete commands and files, which an agent "
             "can follow without guessing. Two things hold it back: the edge cases are described in prose "
             "rather than as explicit checks, and the output format is implied rather than shown with an "
             "example, so an agent may return something close to but not exactly what the user expects. "
             "Adding one worked example of the final output and a short list of failure modes would move it "
             "into the top band.")  # ~700 characters, ~175 tokens: a concise critique


def serve(config_json: str) -> None:
    """Child process: a FakeAPI answering like a well-behaved model; prints its URL, then on 'stats' prints
    JSON {requests, busy_s, handler_s, reported} and exits."""
    sys.path.insert(0, str(TESTS_LLM))
    import threading

    from fakeapi import FakeAPI, json_reply, text_reply, tool_use

    cfg = json.loads(config_json)
    name, quote, positives = cfg["name"], cfg["quote"], set(cfg["positives"])
    delay = float(cfg.get("delay", 0.0))
    titles: dict[str, str] = cfg["titles"]
    lock = threading.Lock()
    state = {"active": 0, "since": 0.0, "busy": 0.0, "handler": 0.0}

    def verdict(dim: str) -> dict[str, Any]:
        v: dict[str, Any] = {"rationale": RATIONALE}
        if dim == "output_quality":
            v["tasks"] = [{"task": f"A {k} request a user would bring to this skill, in one sentence.",
                           "outcome": "The agent follows the steps and returns the expected result, with one "
                                      "gap: the format of the final answer is not pinned down."}
                          for k in ("typical", "harder", "edge-case")]
        v.update({"evidence": [{"quote": quote}], "band": "0.60-0.79", "score": 0.7})
        return v

    def timed(item: Any) -> Any:
        item.delay = delay
        return item

    def answer(body: dict[str, Any]):
        if body.get("tools"):
            prompt = body["messages"][0]["content"]
            return timed(tool_use("Skill", {"skill": name}) if prompt in positives else text_reply("I can help."))
        first = body["messages"][0]["content"]
        text = first if isinstance(first, str) else json.dumps(first)
        for dim, title in titles.items():
            if f"**{title}**" in text:
                return timed(json_reply(verdict(dim)))
        return timed(json_reply({"prompts": [{"prompt": p, "should_trigger": p in positives,
                                        "why": "A realistic request; the label follows from the description."}
                                       for p in cfg["prompts"]]}))

    strict = bool(cfg.get("strict"))
    arrival = threading.local()
    readable: dict[str, float] = {}  # strict: prefix key -> when its first response started

    class TimedFake(FakeAPI):
        def _usage(self, body: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, int]:
            usage = super()._usage(body, content)
            if not strict:
                return usage
            # stricter than the fake: the prefix covers tools and the structured-output format too, and a
            # request sent before the first response with that prefix started cannot read it
            system = body.get("system") or []
            marked = [i for i, b in enumerate(system) if isinstance(b, dict) and b.get("cache_control")]
            if not marked:
                return usage
            key = json.dumps([body.get("model"), body.get("tools"), body.get("output_config"),
                              system[:marked[-1] + 1]], sort_keys=True)
            cached = usage["cache_creation_input_tokens"] + usage["cache_read_input_tokens"]
            with lock:
                hit = key in readable and readable[key] < arrival.t
                readable.setdefault(key, time.perf_counter())
            return {**usage, "cache_creation_input_tokens": 0 if hit else cached,
                    "cache_read_input_tokens": cached if hit else 0}

        def _handle(self, h: Any) -> None:
            t = time.perf_counter()
            arrival.t = t
            with lock:
                if state["active"] == 0:
                    state["since"] = t
                state["active"] += 1
            try:
                super()._handle(h)
            finally:
                e = time.perf_counter()
                with lock:
                    state["handler"] += e - t
                    state["active"] -= 1
                    if state["active"] == 0:
                        state["busy"] += e - state["since"]

    fake = TimedFake()
    fake.responder = answer
    with fake:
        print(fake.url, flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                out = {"requests": len(fake.message_requests), "busy_s": state["busy"],
                       "handler_s": state["handler"], "reported": fake.reported}
                print(json.dumps(out), flush=True)
            elif line.strip() == "quit":
                break


class FakeProcess:
    def __init__(self, cfg: dict[str, Any]) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", json.dumps(cfg)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=os.environ.copy())
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"the fake server did not start: {self.url!r}")

    def stats(self) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ---- the judge side ---------------------------------------------------------------------------------------

class StripMarkers:
    """A provider wrapper that removes every `cache_control` marker before the request reaches the SDK."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def complete(self, request: Any, *, timeout_s: float) -> Any:
        system = tuple({k: v for k, v in b.items() if k != "cache_control"} for b in request.system)
        return await self.inner.complete(dataclasses.replace(request, system=system), timeout_s=timeout_s)


def skill_setup(skill_dir: Path) -> tuple[Any, dict[str, Any]]:
    """The parsed skill and the fake's script for it: a quote that occurs in it, 5 + 5 test prompts."""
    from skillgrade.analyzers.layers.judge import TITLES, target_card
    from skillgrade.analyzers.layers.material import build_material
    from skillgrade.analyzers.parse import parse

    path = skill_dir / "SKILL.md"
    doc = parse(path.read_text("utf-8"), path)
    material = build_material(doc)
    quote = next(ln.strip() for ln in doc.text.splitlines()[5:]
                 if 30 <= len(ln.strip()) <= 200 and material.locate(ln.strip()) is not None)
    name = target_card(doc).name
    pos = [f"I need help with something {name} covers, case {i}: here are the details of my project and what "
           f"I want the result to look like." for i in range(5)]
    neg = [f"Unrelated request {i}: convert my spreadsheet of expenses into a chart and summarise the trend "
           f"for the last quarter." for i in range(5)]
    return doc, {"name": name, "quote": quote, "positives": pos, "prompts": pos + neg, "titles": TITLES}


def llm_config(cache_dir: Path) -> Any:
    from skillgrade.analyzers.llm.config import LLMConfig

    return LLMConfig(cache_dir=str(cache_dir), concurrency=4, timeout_s=30.0)


async def judge_once(doc: Any, url: str, cache_dir: Path, *, strip: bool) -> tuple[Any, Any, float]:
    """(JudgeResult, Gateway, wall seconds) of one run through build_gateway and run_judge."""
    from skillgrade.analyzers.layers.judge import run_judge
    from skillgrade.analyzers.llm.setup import build_gateway

    llm = llm_config(cache_dir)
    gw = build_gateway(llm, {"ANTHROPIC_API_KEY": "sk-bench-not-a-key", "ANTHROPIC_BASE_URL": url})
    assert not isinstance(gw, Exception), gw
    if strip:
        gw.provider = StripMarkers(gw.provider)
    gw.provider.prepare()  # the SDK import is a one-time cost, reported separately
    t = time.perf_counter()
    res = await run_judge(doc, gw, models={"judge": llm.judge_model, "simulate": llm.simulate_model})
    wall = time.perf_counter() - t
    await gw.aclose()
    return res, gw, wall


def by_kind(gw: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for e in gw.ledger.entries:
        if e.cached:
            continue
        k = out.setdefault(e.kind, {"calls": 0, **dict.fromkeys(TOKEN_KEYS, 0), "cost_usd": 0.0})
        k["calls"] += 1
        for t in TOKEN_KEYS:
            k[t] += getattr(e.usage, t)
        k["cost_usd"] += e.cost_usd
    total = {"calls": 0, **dict.fromkeys(TOKEN_KEYS, 0), "cost_usd": 0.0}
    for k in out.values():
        for f in total:
            total[f] += k[f]
    out["total"] = total
    return out


def prefix_sizes(doc: Any) -> dict[str, int]:
    """Estimated tokens (chars / 4, the fake's rule) of each cached prefix: instructions, skill data, router."""
    from skillgrade.analyzers.layers.judge import target_card
    from skillgrade.analyzers.layers.material import build_material
    from skillgrade.analyzers.routing import router_system, seed_of, skill_list

    m = build_material(doc)
    me = target_card(doc)
    blocks = m.system_blocks()
    cards = skill_list(me, [], seed=seed_of(f"{me.name}\n{me.description}"))
    return {"instructions": len(blocks[0]["text"]) // 4, "instructions+skill": (len(blocks[0]["text"])
            + len(blocks[1]["text"])) // 4, "router list": len(router_system(cards)) // 4}


async def scripted_run(doc: Any, cfg: dict[str, Any], cache_dir: Path) -> float:
    """Pure-Python time of one full judge run: ScriptedProvider behind the real Gateway and on-disk cache."""
    sys.path.insert(0, str(TESTS_LLM))
    from scripted import ScriptedProvider
    from scripted import reply as make_reply

    from skillgrade.analyzers.layers.judge import TITLES, run_judge
    from skillgrade.analyzers.llm.cache import Cache
    from skillgrade.analyzers.llm.gateway import Gateway
    from skillgrade.analyzers.llm.types import ToolCall, Usage

    positives = set(cfg["positives"])

    def fn(request: Any) -> Any:
        usage = Usage(1000, 150, 0, 800)
        if request.kind == "route":
            hit = request.messages[0]["content"] in positives
            return make_reply(tool_calls=(ToolCall("Skill", {"skill": cfg["name"]}),) if hit else (), usage=usage)
        user = request.messages[0]["content"]
        dim = next((d for d, t in TITLES.items() if f"**{t}**" in user), None)
        if dim is None:
            value: Any = {"prompts": [{"prompt": p, "should_trigger": p in positives, "why": "w"}
                                      for p in cfg["prompts"]]}
        else:
            value = {"rationale": RATIONALE, "evidence": [{"quote": cfg["quote"]}], "band": "0.60-0.79",
                     "score": 0.7}
            if dim == "output_quality":
                value = {"rationale": RATIONALE, "tasks": [{"task": f"t{i}", "outcome": "ok"} for i in range(3)],
                         "evidence": value["evidence"], "band": "0.60-0.79", "score": 0.7}
        return make_reply(json.dumps(value), value, usage=usage)

    gw = Gateway(ScriptedProvider(fn), cache=Cache(cache_dir), concurrency=4, timeout_s=30.0)
    t = time.perf_counter()
    res = await run_judge(doc, gw, models={"judge": "claude-sonnet-5-5", "simulate": "claude-haiku-5-5"})
    wall = time.perf_counter() - t
    assert not res.unmeasured, res.unmeasured
    return wall


# ---- the static path --------------------------------------------------------------------------------------

STATIC_PROBE = """
import sys
from skillgrade.server.cli import main
code = main(["score", sys.argv[1], "--no-cache"])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r})
sys.stderr.write("HEAVY=" + ",".join(heavy) + "\\n")
"""


CLI = "import sys; from skillgrade.server.cli import main; sys.exit(main())"


def _pkg_shim(tree: Path, into: Path) -> str:
    """A PYTHONPATH entry under which `skillgrade.analyzers` / `skillgrade.server` are `tree`'s."""
    pkg = into / "skillgrade"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").touch()
    for sub in ("analyzers", "server"):
        link = pkg / sub
        if not link.exists():
            link.symlink_to(tree.resolve() / sub)
    return str(into)


def static_walls(skill: Path, rounds: int, trees: dict[str, str | None]) -> dict[str, list[float]]:
    """Single-skill `skillgrade score --no-cache` walls per PYTHONPATH (None: this interpreter's default),
    alternating between them round by round (the machine is shared: noise hits all alike)."""
    out: dict[str, list[float]] = {k: [] for k in trees}
    out["python -c pass"] = []
    for _ in range(rounds):
        for label, pythonpath in trees.items():
            env = os.environ.copy()
            if pythonpath is not None:
                env["PYTHONPATH"] = pythonpath
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", CLI, "score", str(skill), "--no-cache"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            out[label].append(time.perf_counter() - t)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=False)
        out["python -c pass"].append(time.perf_counter() - t)
    return out


def static_imports(skill: Path) -> tuple[list[str], int]:
    """Heavy modules in sys.modules after a static `score` run, and `-X importtime` lines naming them."""
    probe = STATIC_PROBE.replace("{heavy!r}", repr(set(HEAVY)))
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", probe, str(skill)], capture_output=True,
                       text=True, check=False)
    line = next((ln for ln in r.stderr.splitlines() if ln.startswith("HEAVY=")), "HEAVY=?")
    heavy = [m for m in line[len("HEAVY="):].split(",") if m]
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("import time:")
             and ln.rsplit("|", 1)[-1].strip().split(".")[0] in HEAVY]
    return heavy, len(lines)


def sdk_import_time() -> float:
    out = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import anthropic; "
                            "print(time.perf_counter() - t)"], capture_output=True, text=True, check=False)
        out.append(float(r.stdout.strip() or "nan"))
    return min(out)


# ---- main -------------------------------------------------------------------------------------------------

def fmt_row(label: str, k: dict[str, float]) -> str:
    return (f"  {label:<8} {int(k['calls']):>5} {int(k['input_tokens']):>9,} {int(k['output_tokens']):>8,} "
            f"{int(k['cache_creation_input_tokens']):>10,} {int(k['cache_read_input_tokens']):>10,} "
            f"  ${k['cost_usd']:.4f}")


async def bench(corpus: Path, rounds: int, baseline: Path | None) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="skillgrade-judge-bench-"))
    try:
        return await _bench(corpus, rounds, baseline, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _bench(corpus: Path, rounds: int, baseline: Path | None, tmp: Path) -> int:
    for k in [k for k in os.environ if k.startswith("ANTHROPIC_")]:
        del os.environ[k]  # the SDK must not pick up a real key, profile or endpoint
    os.environ["ANTHROPIC_CONFIG_DIR"] = "/nonexistent-anthropic-config"
    failures = 0
    overhead_rows = []
    summary = []
    header = f"  {'kind':<8} {'calls':>5} {'input':>9} {'output':>8} {'cache wr':>10} {'cache rd':>10}   cost"
    for label, rel in SKILLS:
        skill = corpus / rel
        doc, cfg = skill_setup(skill)
        size = len(doc.text)
        refs = sum(len(t) for f, t in build_texts(doc).items() if f != "SKILL.md")
        pre = prefix_sizes(doc)
        print(f"\n== {label}: {rel} (SKILL.md {size / 1000:.1f} KB, references/ {refs / 1000:.1f} KB; cached "
              f"prefixes ~{pre['instructions']:,} / {pre['instructions+skill']:,} / router {pre['router list']:,} "
              f"tokens)")
        results: dict[str, dict[str, dict[str, float]]] = {}
        for variant, strip, extra in VARIANTS:
            fake = FakeProcess({**cfg, **extra})
            try:
                cache_dir = tmp / f"{label}-{variant}"
                res, gw, wall = await judge_once(doc, fake.url, cache_dir, strip=strip)
                stats = fake.stats()
                if res.unmeasured:
                    failures += 1
                    print(f"  !! unmeasured: {res.unmeasured}")
                kinds = by_kind(gw)
                results[variant] = kinds
                reported = {t: sum(u[t] for u in stats["reported"]) for t in TOKEN_KEYS}
                ledger_ok = all(reported[t] == kinds["total"][t] for t in TOKEN_KEYS)
                _res2, gw2, wall2 = await judge_once(doc, fake.url, cache_dir, strip=strip)
                stats2 = fake.stats()
                second = stats2["requests"] - stats["requests"]
                print(f" {variant}: {gw.ledger.calls} calls in {wall:.2f} s (fake busy {stats['busy_s']:.2f} s); "
                      f"ledger = server's usage: {'yes' if ledger_ok else 'NO'}; second run: {second} calls, "
                      f"{gw2.ledger.cached_calls} cached, {wall2:.3f} s")
                if not ledger_ok or second != 0 or gw2.ledger.calls != 0:
                    failures += 1
                print(header)
                for kind in (*KINDS, *(k for k in kinds if k not in (*KINDS, "total")), "total"):
                    if kind in kinds:
                        print(fmt_row(kind, kinds[kind]))
            finally:
                fake.close()
        c, n, st = results["cached"]["total"], results["no markers"]["total"], results["strict cache"]["total"]
        in_c = sum(c[t] for t in TOKEN_KEYS if t != "output_tokens")
        print(f" caching saves {100 * (1 - c['cost_usd'] / n['cost_usd']):.0f}% of the run's cost "
              f"(${c['cost_usd']:.4f} vs ${n['cost_usd']:.4f}); {100 * c['cache_read_input_tokens'] / in_c:.0f}% "
              f"of prompt tokens read from cache")
        print(f" strict cache: ${st['cost_usd']:.4f} ({100 * (1 - st['cost_usd'] / n['cost_usd']):.0f}% saved), "
              f"{st['cache_creation_input_tokens']:,} tokens written, {st['cache_read_input_tokens']:,} read")
        summary.append((label, size, refs, c, n, st))
        # overhead: best of `rounds` fresh runs (new fake, new cache), SDK already imported
        over, walls, busy = [], [], []
        for _ in range(rounds):
            fake = FakeProcess(cfg)
            try:
                cache_dir = tmp / f"{label}-timing-{time.monotonic_ns()}"
                _r, _g, wall = await judge_once(doc, fake.url, cache_dir, strip=False)
                s = fake.stats()
            finally:
                fake.close()
            walls.append(wall)
            busy.append(s["busy_s"])
            over.append(wall - s["busy_s"])
        pure = [await scripted_run(doc, cfg, tmp / f"{label}-scripted-{i}") for i in range(rounds)]
        overhead_rows.append((label, min(walls), busy[walls.index(min(walls))], min(over), statistics.median(over),
                              min(pure), statistics.median(pure)))

    print("\n== summary per judge run (21 calls: 1 prompt writer + 10 router + 10 rubric)")
    print(f"  {'skill':<11} {'SKILL.md':>8} {'refs':>6} {'prompt tokens':>14} {'output':>7} {'cached':>8} "
          f"{'strict':>8} {'no markers':>11}")
    for label, size, refs, c, n, st in summary:
        prompt_c = sum(c[t] for t in TOKEN_KEYS if t != "output_tokens")
        print(f"  {label:<11} {size / 1000:>6.1f}KB {refs / 1000:>4.1f}KB {prompt_c:>14,} {int(c['output_tokens']):>7,} "
              f"${c['cost_usd']:>7.4f} ${st['cost_usd']:>7.4f} ${n['cost_usd']:>10.4f}")
    print(f"\n== our overhead per full judge run at zero model latency (best of {rounds}; SDK already imported)")
    print(f"  {'skill':<11} {'wall':>7} {'fake busy':>10} {'wall-busy':>10} {'(median)':>9} "
          f"{'scripted provider':>18} {'(median)':>9}")
    for label, wall, b, omin, omed, pmin, pmed in overhead_rows:
        print(f"  {label:<11} {wall:>6.3f}s {b:>9.3f}s {omin:>9.3f}s {omed:>8.3f}s {pmin:>17.3f}s {pmed:>8.3f}s")
    print(f"  one-time `import anthropic` in a fresh process: {sdk_import_time():.2f} s (paid at the first call)")

    trees: dict[str, str | None] = {"this tree": os.environ.get("PYTHONPATH")}
    if baseline is not None:
        trees[f"baseline {baseline.name}"] = _pkg_shim(baseline, tmp / "baseline-pkg")
    import compileall

    for tree in (HERE, baseline):  # byte-compiled as `pip install` leaves them (PYTHONDONTWRITEBYTECODE)
        for sub in ("analyzers", "server") if tree is not None else ():
            compileall.compile_dir(str(tree / sub), quiet=1)
    one = corpus / SKILLS[1][1]
    walls = static_walls(one, max(7, rounds), trees)
    print(f"\n== static path: single-skill `skillgrade score {SKILLS[1][1]} --no-cache` "
          f"(median / min of {len(walls['python -c pass'])}, alternating; target <= 0.25 s)")
    for label, ws in walls.items():
        print(f"  {label:<24} {statistics.median(ws):.3f} s / {min(ws):.3f} s")
    heavy, lines = static_imports(one)
    print(f"  heavy modules after a static run (sys.modules): {', '.join(heavy) if heavy else 'none'}; "
          f"-X importtime lines for {', '.join(HEAVY)}: {lines}")
    if heavy or lines:
        failures += 1
    print(f"cores: {os.cpu_count()}")
    return 1 if failures else 0


def build_texts(doc: Any) -> dict[str, str]:
    from skillgrade.analyzers.layers.material import build_material

    return build_material(doc).texts


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=HERE.parent / "shared" / "corpus")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another source tree (e.g. `git archive` of an older commit) to time the static path against")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    return asyncio.run(bench(args.corpus, args.rounds, args.baseline))


if __name__ == "__main__":
    sys.exit(main())
