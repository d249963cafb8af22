"""Language server benchmark over stdio (not a test): prints latency, start-up and memory figures.

    python benchmarks/lsp_bench.py [--edits 200] [--skills 500] [--starts 5]

1. edit -> textDocument/publishDiagnostics on an 800-line SKILL.md, debounceMs 0 (target p95 <= 30 ms)
2. process start -> `initialize` answered -> `initialized` sent (target <= 1 s)
3. resident memory after indexing N skills, and after workspace/diagnostic over all of them (target <= 120 MB)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

SERVER = [sys.executable, "-m", "skillgrade.server"]


class Client:
    """A minimal JSON-RPC client: no pygls on this side, so the figures are the server's."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.waiters: dict[int, asyncio.Future] = {}
        self.notes: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, env: dict | None = None) -> Client:
        proc = await asyncio.create_subprocess_exec(
            *SERVER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, env={**os.environ, **(env or {})})
        return cls(proc)

    def _send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params) -> object:
        self.next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.waiters[self.next_id] = fut
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await fut

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def _read(self) -> None:
        out = self.proc.stdout
        while True:
            header = await out.readuntil(b"\r\n\r\n")
            length = int(next(h for h in header.split(b"\r\n") if h.lower().startswith(b"content-length"))
                         .split(b":")[1])
            msg = json.loads(await out.readexactly(length))
            if "id" in msg and "method" in msg:  # a request from the server: answer null
                result = [None] * len(msg["params"]["items"]) if msg["method"] == "workspace/configuration" else None
                self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif "id" in msg:
                fut = self.waiters.pop(msg["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(msg.get("result", msg.get("error")))
            else:
                await self.notes.put((time.perf_counter(), msg))

    async def wait_note(self, pred, timeout: float = 60.0):
        deadline = time.perf_counter() + timeout
        while True:
            t, msg = await asyncio.wait_for(self.notes.get(), max(0.01, deadline - time.perf_counter()))
            if pred(msg):
                return t, msg

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.request("shutdown", None), 10)
            self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 10)
        except (TimeoutError, ConnectionError):
            self.proc.kill()
        self.reader.cancel()

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")


def caps(pull: bool) -> dict:
    c = {"window": {"workDoneProgress": True}, "workspace": {"workspaceFolders": True},
         "textDocument": {"synchronization": {"didSave": True}, "publishDiagnostics": {"versionSupport": True}}}
    if pull:
        c["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
    return c


async def initialize(client: Client, root: Path, pull: bool = False, options: dict | None = None) -> None:
    await client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                        "workspaceFolders": [{"uri": root.as_uri(), "name": "bench"}],
                                        "capabilities": caps(pull), "initializationOptions": options or {}})
    client.notify("initialized", {})


def skill_800(name: str) -> str:
    out = ["---", f"name: {name}", "description: Builds and checks PDF reports from CSV data. Use when the user asks "
           "for a PDF report, a chart in a PDF, or to validate report tables.", "license: MIT", "---",
           f"# {name.replace('-', ' ').title()}", "", "Read [the data guide](references/data.md) first.", ""]
    i = 0
    while len(out) < 800:
        i += 1
        out += [f"## Step {i}: section title", ""]
        out += [f"Paragraph {i}.{k}: the report builder reads the CSV, checks column types and writes one page "
                f"per group; keep totals in the footer and 😀 中文 text intact." for k in range(6)]
        out += ["", "```python", f"def step_{i}(rows):", "    return [r for r in rows if r]", "```", ""]
        out += ["| column | type |", "|---|---|", "| id | int |", "| total | float |", ""]
        out += [f"- item {k} of step {i}, see [the API notes](references/api.md)" for k in range(4)] + [""]
    return "\n".join(out[:800]) + "\n"


def write_skill(root: Path, name: str, text: str) -> Path:
    d = root / name
    (d / "references").mkdir(parents=True, exist_ok=True)
    (d / "references/data.md").write_text("# Data\n\nColumns and types.\n")
    (d / "references/api.md").write_text("# API\n\nCalls.\n")
    p = d / "SKILL.md"
    p.write_text(text)
    return p


async def bench_edits(n_edits: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        p = write_skill(root, "report-builder", skill_800("report-builder"))
        text = p.read_text()
        c = await Client.start()
        await initialize(c, root, options={"debounceMs": 0})
        uri = p.as_uri()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                           "text": text}})
        await c.wait_note(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"].get("version") == 1)
        for _ in range(5):  # warm-up
            await asyncio.sleep(0)
        lat = []
        lines = text.count("\n")
        for v in range(2, n_edits + 2):
            line = 10 + (v * 37) % (lines - 20)
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": v},
                "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                                              "end": {"line": line, "character": 0}}, "text": "x"}]})
            t1, _ = await c.wait_note(lambda m, v=v: m.get("method") == "textDocument/publishDiagnostics"
                                      and m["params"].get("version") == v)
            lat.append((t1 - t0) * 1000)
        await c.close()
    lat.sort()
    return {"edits": n_edits, "p50_ms": statistics.median(lat), "p95_ms": lat[int(0.95 * (len(lat) - 1))],
            "max_ms": lat[-1]}


async def bench_start(n: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        init, ready = [], []
        for _ in range(n):
            t0 = time.perf_counter()
            c = await Client.start()
            await c.request("initialize", {"processId": os.getpid(), "rootUri": Path(tmp).as_uri(),
                                           "capabilities": caps(False)})
            t1 = time.perf_counter()
            c.notify("initialized", {})
            # the first request after `initialized` is answered: the server is serving
            await c.request("textDocument/hover", {"textDocument": {"uri": Path(tmp, "x/SKILL.md").as_uri()},
                                                   "position": {"line": 0, "character": 0}})
            t2 = time.perf_counter()
            init.append((t1 - t0) * 1000)
            ready.append((t2 - t0) * 1000)
            await c.close()
    return {"runs": n, "start_to_initialize_ms_median": statistics.median(init),
            "start_to_initialized_ms_median": statistics.median(ready), "start_to_initialized_ms_max": max(ready)}


async def bench_memory(n_skills: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i in range(n_skills):
            name = f"skill-{i:04d}"
            body = "\n".join(f"Line {k} of {name}: do the thing, then check it. See [data](references/data.md)."
                             for k in range(60))
            write_skill(root, name, f"---\nname: {name}\ndescription: Does task {i}. Use when the user asks for "
                        f"task {i}.\n---\n# {name}\n\n{body}\n")
        c = await Client.start()
        t0 = time.perf_counter()
        await initialize(c, root, pull=True)
        _, msg = await c.wait_note(lambda m: m.get("method") == "window/logMessage" and "indexed" in
                                   m["params"]["message"], timeout=300)
        t_index = (time.perf_counter() - t0) * 1000
        await asyncio.sleep(0.3)
        rss_index = c.rss_mb()
        t1 = time.perf_counter()
        rep = await c.request("workspace/diagnostic", {"previousResultIds": []})
        t_wsdiag = (time.perf_counter() - t1) * 1000
        rss_diag = c.rss_mb()
        await c.close()
    return {"skills": n_skills, "index_message": msg["params"]["message"], "index_ms": t_index,
            "rss_after_index_mb": rss_index, "workspace_diagnostic_items": len(rep.get("items", [])),
            "workspace_diagnostic_ms": t_wsdiag, "rss_after_workspace_diagnostic_mb": rss_diag}


async def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--skills", type=int, default=500)
    ap.add_argument("--starts", type=int, default=5)
    args = ap.parse_args(argv)
    from bench import _compile_package  # benchmarks/ is on sys.path when this script runs

    _compile_package()
    edits = await bench_edits(args.edits)
    print(f"edit -> publishDiagnostics (800-line SKILL.md, debounce 0, {edits['edits']} edits): "
          f"p50 {edits['p50_ms']:.1f} ms, p95 {edits['p95_ms']:.1f} ms, max {edits['max_ms']:.1f} ms "
          f"(target p95 <= 30 ms)")
    start = await bench_start(args.starts)
    print(f"start -> initialize answered: median {start['start_to_initialize_ms_median']:.0f} ms; "
          f"start -> initialized + first request answered: median {start['start_to_initialized_ms_median']:.0f} ms, "
          f"max {start['start_to_initialized_ms_max']:.0f} ms (target <= 1000 ms)")
    mem = await bench_memory(args.skills)
    print(f"memory: {mem['skills']} skills indexed in {mem['index_ms']:.0f} ms ({mem['index_message']}): "
          f"RSS {mem['rss_after_index_mb']:.1f} MB (target <= 120 MB); after workspace/diagnostic over "
          f"{mem['workspace_diagnostic_items']} skills ({mem['workspace_diagnostic_ms']:.0f} ms): "
          f"RSS {mem['rss_after_workspace_diagnostic_mb']:.1f} MB")
    print(json.dumps({"edits": edits, "start": start, "memory": mem}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
