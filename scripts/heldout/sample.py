"""sample.py REPORT OUTDIR SEED N [GROUPS]: up to N findings per code (seeded), split into GROUPS judge files."""
import collections
import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
from flat import flat  # noqa: E402

rep, outdir, seed, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
groups = int(sys.argv[5]) if len(sys.argv) > 5 else 1
os.makedirs(outdir, exist_ok=True)
rows = flat(rep)
by = collections.defaultdict(list)
for r in rows:
    by[r["code"]].append(r)
rng = random.Random(seed)
picked = []
for code in sorted(by):
    items = by[code]
    picked += items if len(items) <= n else rng.sample(items, n)
for i, p in enumerate(picked):
    p["id"] = f"F{i + 1:03d}"
Path(f"{outdir}/sample.json").write_text(json.dumps({"totals": {c: len(v) for c, v in by.items()}, "sample": picked}, indent=1))
# groups: keep one code's findings together where possible, balance sizes
chunks = [[] for _ in range(groups)]
for code in sorted(by, key=lambda c: -sum(1 for p in picked if p["code"] == c)):
    mine = [p for p in picked if p["code"] == code]
    min(chunks, key=len).extend(mine)
for g, ch in enumerate(chunks):
    with open(f"{outdir}/judge{g + 1}.txt", "w") as fh:
        for p in ch:
            fh.write(f"{p['id']}\t{p['code']}\t{p['file']}:{p['line']}:{p['col']}\t{p['message']}"
                     + (f"\t[fix offered: {p['fix']}]" if p["fix"] else "") + "\n")
print(len(rows), "findings;", len(picked), "sampled;", {c: len(v) for c, v in sorted(by.items())})
print([len(c) for c in chunks])
