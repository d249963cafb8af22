"""Interleaved before/after comparison of two skillgrade trees (ABAB... rounds) on a loaded machine.

Usage:  python benchmarks/abab.py BEFORE_PKG AFTER_PKG [--corpus ../shared/corpus] [--rounds 5]

BEFORE_PKG / AFTER_PKG are directories holding a `skillgrade` package (the `.pkg` shim of a worktree).
Each measurement runs in a fresh subprocess with PYTHONPATH set to one side's directory (the module path
each side imports is printed first), alternating A, B, A, B, ... so background load hits both alike.
Reported: medians per side (wall seconds, and CPU seconds: user + system of the measured process,
much less sensitive to the load than wall time) and after/before ratios for
- in-process analysis of every SKILL.md of the corpus (one subprocess per round; caches cleared);
- cold `skillgrade score TREE` (cache removed first) over a copy of the corpus that is its own
  workspace root;
- warm `skillgrade score TREE` (cache filled by the preceding cold run of the same side);
- a single skill `skillgrade score SKILL_DIR --no-cache`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INPROC = r"""
import sys, time
from pathlib import Path
from skillgrade.analyzers.workspace import find_skill_files
from skillgrade.analyzers.report import analyze
root = Path(sys.argv[1])
files = sorted(find_skill_files([root]))
texts = [f.read_text("utf-8", errors="replace") for f in files]
t0 = time.perf_counter()
c0 = time.process_time()
for f, text in zip(files, texts):
    analyze(text, f, workspace_root=root)
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def _env(pkg: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = pkg
    env["PYTHONHASHSEED"] = "0"
    return env


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _wall(cmd: list[str], env: dict[str, str], cpu: list[float]) -> float:
    """Wall seconds of one run; appends its CPU seconds (user + system) to `cpu`."""
    c = _cpu()
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - t
    cpu.append(_cpu() - c)
    return wall


def main() -> int:
    ap = argparse.ArgumentParser()
    here = Path(__file__).resolve().parent.parent
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--corpus", type=Path, default=here.parent / "shared" / "corpus")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sides = {"before": str(Path(args.before).resolve()), "after": str(Path(args.after).resolve())}
    py = sys.executable
    for name, pkg in sides.items():
        out = subprocess.run([py, "-c", "import skillgrade.analyzers as a, skillgrade.server.cli as c; "
                              "print(a.__file__, c.__file__)"], env=_env(pkg), capture_output=True, text=True)
        print(f"{name}: {out.stdout.strip()}")
        subprocess.run([py, "-m", "compileall", "-q", pkg + "/skillgrade/"], env=_env(pkg), check=False,
                       stdout=subprocess.DEVNULL)
    tmp = Path(tempfile.mkdtemp(prefix="skillgrade-abab-"))
    try:
        tree = tmp / "tree"
        shutil.copytree(args.corpus, tree, symlinks=True)
        (tree / ".git").mkdir()
        cache = tree / ".skillgrade_cache"
        one = str(sorted(tree.rglob("SKILL.md"))[0].parent)
        cli = ["-m", "skillgrade.server.cli", "score"]
        kinds = ("inproc", "cold", "warm", "single")
        res: dict[str, dict[str, list[float]]] = {s: {k: [] for k in kinds} for s in sides}
        cpu: dict[str, dict[str, list[float]]] = {s: {k: [] for k in kinds} for s in sides}
        for r in range(args.rounds):
            for name, pkg in sides.items():
                env = _env(pkg)
                out = subprocess.run([py, "-c", INPROC, str(args.corpus)], env=env, capture_output=True,
                                     text=True)
                wall, proc = out.stdout.strip().splitlines()[-1].split()
                res[name]["inproc"].append(float(wall))
                cpu[name]["inproc"].append(float(proc))
                shutil.rmtree(cache, ignore_errors=True)
                res[name]["cold"].append(_wall([py, *cli, str(tree)], env, cpu[name]["cold"]))
                res[name]["warm"].append(_wall([py, *cli, str(tree)], env, cpu[name]["warm"]))
                res[name]["single"].append(_wall([py, *cli, one, "--no-cache"], env, cpu[name]["single"]))
            print(f"round {r + 1}: " + "  ".join(f"{n} " + " ".join(f"{k}={v[-1]:.2f}" for k, v in d.items())
                                                 for n, d in res.items()), flush=True)
        print(f"\nmedians of {args.rounds} interleaved rounds (s); ratio = after / before")
        for k in kinds:
            b, a = statistics.median(res["before"][k]), statistics.median(res["after"][k])
            cb, ca = statistics.median(cpu["before"][k]), statistics.median(cpu["after"][k])
            print(f"{k:<7} wall before {b:.3f} after {a:.3f} ratio {a / b:.2f} | "
                  f"cpu before {cb:.3f} after {ca:.3f} ratio {ca / cb:.2f}")
        print(f"cores: {os.cpu_count()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
