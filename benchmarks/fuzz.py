"""Fuzz the engine with mutated real skills: documents per second, crashes, the slowest document.

Usage:  python benchmarks/fuzz.py [--docs 100000] [--seed 8] [--corpus DIR] [--crashes DIR] [--only N]

Each document is a SKILL.md of the shared corpus with 1-4 mutations (fixed seed; document N is rebuilt
alone with `--only N`): byte flips (decoded as the CLI decodes files, so invalid UTF-8 becomes a
binary document), line duplication, deletion and splicing between skills, hostile runs (backticks,
`../`, brackets, parentheses, `<`, emphasis, link and comment runs, …), truncation, random Unicode
(bidi controls, zero-width characters, combining marks, lone surrogates, emoji) and CRLF/CR line ends.
Every document runs through `analyze()` in this process, at the skill's real path (so link and file
rules look at its real bundled files), with a per-document timer.

A crash is an exception out of `analyze()`, an INTERNAL_ERROR finding (a rule or the static layer
failed), a report that does not serialise, or a document that takes over --hang seconds; each is written
to the crash folder as a reproducer (`<n>.md`, the exact text; `<n>.txt`, what happened). The slowest
document (by seconds per MB, sizes below 1 MB counted as 1 MB) is written there too.

Exit status 1 when there is a crash or a document over --limit seconds per MB (default 1.0).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
import traceback
from pathlib import Path

HOSTILE_RUNS = ("`", "``", "```", "../", "[", "]", "(", ")", "<", ">", "*", "_", "*_", "\\", "[a](b)", "![a](b)",
                "<!--", "-->", "---", "|", "> ", "- ", "1. ", "#", "~~~", "\t", " ", "&amp;", "[^1]: ", "http://",
                "references/", "scripts.", "<a b=c ", "skillgrade-disable ", "sk-ant-api01-", "output ", "{{",
                "\x00", "'", '"', ": ", "key: ", "&a ", "*a ", "!!python/object ")
UNICODE = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b",
           "\u200c", "\u200d", "\u2060", "\ufeff", "\u0301", "\u0336", "\ud800", "\udfff", "\U0001f600",
           "\u00a0", "\u3000", "\u0085", "\u2028", "\u2029", "\r", "\x0b", "\x0c", "é", "ß", "中", "\uffff")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def byte_flips(rng: random.Random, text: str, corpus: list[str]) -> str:
    from skillgrade.analyzers.parse import decode

    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if not data:
        return text
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    return decode(bytes(data))[0]


def duplicate_lines(rng: random.Random, text: str, corpus: list[str]) -> str:
    lines = _lines(text)
    a = rng.randrange(len(lines))
    b = min(len(lines), a + rng.randint(1, 20))
    lines[b:b] = lines[a:b] * rng.randint(1, 5)
    return "\n".join(lines)


def delete_lines(rng: random.Random, text: str, corpus: list[str]) -> str:
    lines = _lines(text)
    a = rng.randrange(len(lines))
    del lines[a:a + rng.randint(1, 30)]
    return "\n".join(lines)


def splice(rng: random.Random, text: str, corpus: list[str]) -> str:
    lines = _lines(text)
    other = _lines(rng.choice(corpus))
    a = rng.randrange(len(other))
    piece = other[a:a + rng.randint(1, 60)]
    at = rng.randrange(len(lines) + 1)
    lines[at:at] = piece
    return "\n".join(lines)


def hostile_run(rng: random.Random, text: str, corpus: list[str]) -> str:
    run = rng.choice(HOSTILE_RUNS) * rng.choice((3, 30, 300, 3000, 10_000))
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.3:  # at a line start: block constructs
        at = text.rfind("\n", 0, at) + 1
    return text[:at] + run + text[at:]


def truncate(rng: random.Random, text: str, corpus: list[str]) -> str:
    return text[:rng.randrange(len(text) + 1)]


def random_unicode(rng: random.Random, text: str, corpus: list[str]) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 30)):
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(UNICODE) * rng.choice((1, 1, 2, 50)))
    return "".join(chars)


def line_ends(rng: random.Random, text: str, corpus: list[str]) -> str:
    kind = rng.choice(("\r\n", "\r", "mixed"))
    if kind != "mixed":
        return text.replace("\n", kind)
    return "".join(c if c != "\n" else rng.choice(("\n", "\r\n", "\r")) for c in text)


MUTATORS = (byte_flips, duplicate_lines, delete_lines, splice, hostile_run, truncate, random_unicode, line_ends)


def mutate(seed: int, n: int, corpus: list[tuple[Path, str]]) -> tuple[int, str, list[str]]:
    """Document n: (index of the skill it came from, its text, the mutations applied)."""
    rng = random.Random(seed * 1_000_003 + n)
    k = rng.randrange(len(corpus))
    text = corpus[k][1]
    texts = [t for _, t in corpus]
    applied = []
    for _ in range(rng.randint(1, 4)):
        m = rng.choice(MUTATORS)
        text = m(rng, text, texts)
        applied.append(m.__name__)
    return k, text, applied


class Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise Hang()


_STATE: dict = {}


def _init(root: Path, seed: int, hang: float) -> None:
    """Load the corpus once per process (and each skill's file listing, so documents share it)."""
    from skillgrade.analyzers.parse import scan_skill_files
    from skillgrade.analyzers.workspace import find_skill_files

    paths = sorted(find_skill_files([root]))
    _STATE.update(root=root, seed=seed, hang=hang,
                  corpus=[(p, p.read_text("utf-8", errors="replace")) for p in paths],
                  files={p: scan_skill_files(p.parent, root) for p in paths})
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _alarm)


def _one(n: int) -> tuple[int, float, int, str | None, list[str], str]:
    """Analyse document n: (n, seconds, bytes, problem or None, mutations, source skill)."""
    from skillgrade.analyzers.report import analyze

    corpus, hang = _STATE["corpus"], _STATE["hang"]
    k, text, applied = mutate(_STATE["seed"], n, corpus)
    path = corpus[k][0]
    binary = "\x00" in text[:65536] or "\ufffd" in text
    size = len(text.encode("utf-8", "surrogatepass"))
    problem = None
    alarm = hasattr(signal, "setitimer")
    if alarm:
        signal.setitimer(signal.ITIMER_REAL, hang)
    t0 = time.perf_counter()
    try:
        rep = analyze(text, path, files=_STATE["files"][path], workspace_root=_STATE["root"], binary=binary)
        dt = time.perf_counter() - t0
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        internal = [f.message for f in rep.findings if f.code == "INTERNAL_ERROR"]
        if internal:
            problem = "INTERNAL_ERROR: " + "; ".join(internal)
        else:
            json.dumps(rep.to_dict())
    except Hang:
        dt = time.perf_counter() - t0
        problem = f"took longer than {hang} s"
    except Exception:  # noqa: BLE001 - that is what we are looking for
        dt = time.perf_counter() - t0
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        problem = traceback.format_exc()
    return n, dt, size, problem, applied, str(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"))
    ap.add_argument("--limit", type=float, default=1.0, help="seconds per MB (below 1 MB: per document)")
    ap.add_argument("--hang", type=float, default=30.0, help="seconds after which a document counts as a crash")
    ap.add_argument("--only", type=int, default=None, help="run document N alone (reproduce)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (each analyses its documents in-process)")
    args = ap.parse_args(argv)

    root = args.corpus
    if root is None:
        here = Path(__file__).resolve().parent.parent
        root = next((p for p in (here.parent / "shared" / "corpus", Path("/work/shared/corpus")) if p.is_dir()), None)
        if root is None:
            print("corpus not found: pass --corpus", file=sys.stderr)
            return 2
    _init(root, args.seed, args.hang)
    corpus = _STATE["corpus"]
    print(f"corpus: {len(corpus)} skills from {root}; seed {args.seed}; {args.jobs} process(es)", flush=True)

    docs = range(args.docs) if args.only is None else [args.only]
    times: list[float] = []
    total_bytes = 0
    crashes = 0
    worst = (0.0, -1, 0.0, 0, [])  # (seconds per MB floored at 1 MB, n, seconds, bytes, mutations)
    t_start = time.perf_counter()
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(args.jobs, _init, (root, args.seed, args.hang))
        results = pool.imap_unordered(_one, docs, chunksize=64)
    else:
        pool = None
        results = map(_one, docs)
    for i, (n, dt, size, problem, applied, src) in enumerate(results):
        times.append(dt)
        total_bytes += size
        per_mb = dt / max(size / 1e6, 1.0)
        if per_mb > worst[0]:
            worst = (per_mb, n, dt, size, applied)
        if problem is not None:
            crashes += 1
            args.crashes.mkdir(parents=True, exist_ok=True)
            text = mutate(args.seed, n, corpus)[1]
            (args.crashes / f"{n}.md").write_bytes(text.encode("utf-8", "surrogatepass"))
            (args.crashes / f"{n}.txt").write_text(
                f"document {n} (seed {args.seed}) from {src}\nmutations: {applied}\n"
                f"reproduce: python benchmarks/fuzz.py --seed {args.seed} --only {n}\n\n{problem}\n", "utf-8")
            print(f"CRASH document {n} ({Path(src).parent.name}, {applied}): {problem.strip().splitlines()[-1]}",
                  flush=True)
        if (i + 1) % 10_000 == 0:
            el = time.perf_counter() - t_start
            print(f"  {i + 1} documents, {el:.0f} s, {(i + 1) / el:.0f} docs/s, {crashes} crashes, "
                  f"slowest so far {worst[0]:.3f} s/MB (document {worst[1]})", flush=True)
    wall = time.perf_counter() - t_start
    if pool is not None:
        pool.close()
    if worst[1] >= 0:
        args.crashes.mkdir(parents=True, exist_ok=True)
        text = mutate(args.seed, worst[1], corpus)[1]
        (args.crashes / "slowest.md").write_bytes(text.encode("utf-8", "surrogatepass"))
    ordered = sorted(times)
    print(f"documents: {len(times)} in {wall:.1f} s: {len(times) / wall:.0f} documents/s, "
          f"{total_bytes / 1e6 / wall:.2f} MB/s ({total_bytes / 1e6:.1f} MB)")
    print(f"per document: median {statistics.median(ordered) * 1000:.2f} ms, "
          f"p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms")
    print(f"crashes: {crashes}" + (f" (reproducers in {args.crashes}/)" if crashes else ""))
    print(f"slowest: document {worst[1]} ({worst[4]}): {worst[2] * 1000:.1f} ms for {worst[3] / 1e6:.3f} MB = "
          f"{worst[0]:.3f} s per MB (below 1 MB counted as 1 MB); limit {args.limit} s per MB "
          f"(text in {args.crashes}/slowest.md)")
    return 1 if crashes or worst[0] > args.limit else 0


if __name__ == "__main__":
    sys.exit(main())
