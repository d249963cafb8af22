"""Instructions executed by a cold `skillgrade score TREE`, before vs after: a load-independent benchmark.

Usage:  python benchmarks/instructions.py BEFORE_PKG AFTER_PKG [--corpus ../shared/corpus]

BEFORE_PKG / AFTER_PKG are directories holding a `skillgrade` package (the `.pkg` shim of a worktree, as
for `abab.py`). Each side runs `skillgrade score TREE --no-cache --format json` once under
`valgrind --tool=callgrind` (forked workers included), over a copy of the corpus that is its own workspace
root, with PYTHONHASHSEED=0. Callgrind counts instructions, not seconds, so the figures repeat run to run
whatever else the machine is doing (wall and CPU time on a shared machine move by 1.5x). Reported per side:
the instructions of the parent process and of each worker, their sum (all CPU work) and parent + the
busiest worker (the critical path of a two-core run), and the after / before ratios. A worker's count is its own
work: callgrind dumps and zeroes the parent's counts right before each fork (`--dump-before=os_fork*`); until
2026-11-29 it did not, and every worker's count also held the parent's work up to the fork.

Compile both trees first (`python -m compileall`): with PYTHONDONTWRITEBYTECODE set, a side without
bytecode would count its own compilation.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_TOTAL = re.compile(rb"^(?:summary|totals):\s+(\d+)", re.M)


def _count(pkg: str, tree: Path, out: Path) -> list[int]:
    out.mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=pkg, PYTHONHASHSEED="0")
    code = "import sys; from skillgrade.server.cli import main; sys.exit(main())"
    # --dump-before the fork: callgrind writes the parent's counts so far and zeroes them, so a forked worker's
    # counts are its own work (without it, each worker's counts began at the parent's count at the fork, and the
    # parent's start-up was counted once more in every worker)
    cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--dump-before=os_fork*",
           f"--callgrind-out-file={out}/cg.%p",
           os.path.realpath(sys.executable), "-c", code, "score", str(tree), "--no-cache", "--format", "json"]
    proc = subprocess.Popen(cmd, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    proc.wait()
    # per process (a file per pid, and `cg.<pid>.<n>` for each dump before a fork, in the parent): the parent first,
    # the process we started (valgrind keeps its pid); then the workers. (Sorting by pid put a worker first once the
    # pid counter wrapped around.)
    per_pid: dict[int, int] = {}
    for f in out.glob("cg.*"):
        m = _TOTAL.search(f.read_bytes())
        if m:
            pid = int(f.name.split(".")[1])
            per_pid[pid] = per_pid.get(pid, 0) + int(m.group(1))
    counts = [per_pid[pid] for pid in sorted(per_pid, key=lambda p: (p != proc.pid, p))]
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    a = ap.parse_args()
    if not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(a.corpus, tree)
        (tree / ".git").mkdir(exist_ok=True)
        rows = {}
        for side, pkg in (("before", a.before), ("after", a.after)):
            counts = _count(pkg, tree, Path(tmp) / side)
            if len(counts) < 1:
                print(f"{side}: callgrind wrote no counts", file=sys.stderr)
                return 2
            parent, workers = counts[0], counts[1:]
            rows[side] = (sum(counts), parent + max(workers, default=0))
            print(f"{side}: parent {parent / 1e6:,.0f} M, workers "
                  f"{', '.join(f'{w / 1e6:,.0f} M' for w in workers) or '-'}; all {sum(counts) / 1e6:,.0f} M, "
                  f"critical path {rows[side][1] / 1e6:,.0f} M instructions")
    b, f = rows["before"], rows["after"]
    print(f"after / before: all work {f[0] / b[0]:.3f}, critical path {f[1] / b[1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
