"""tally.py OUTDIR: per-code precision from OUTDIR/sample.json and OUTDIR/verdicts*.jsonl (id, verdict, reason)."""
import collections
import glob
import json
import sys
from pathlib import Path

d = sys.argv[1]
s = json.loads(Path(f"{d}/sample.json").read_text())
byid = {p["id"]: p for p in s["sample"]}
v = {}
for f in sorted(glob.glob(f"{d}/verdicts*.jsonl")):
    for line in Path(f).read_text().splitlines():
        line = line.strip()
        if line:
            x = json.loads(line)
            v[x["id"]] = x
c = collections.defaultdict(collections.Counter)
for i, p in byid.items():
    c[p["code"]][v[i]["verdict"] if i in v else "missing"] += 1
R = W = 0
wsum = wtot = 0.0
for code in sorted(c):
    r, w = c[code]["right"], c[code]["wrong"]
    R += r
    W += w
    t = s["totals"][code]
    if r + w:
        wsum += t * r / (r + w)
        wtot += t
    print(f"{code:28} total {t:4}  right {r:3} wrong {w:3} artefact {c[code]['artefact']:3} missing {c[code]['missing']:3}")
print(f"ALL right {R} wrong {W}: {100 * R / max(1, R + W):.1f}%  weighted {100 * wsum / max(1, wtot):.1f}%")
for i, p in byid.items():
    if v.get(i, {}).get("verdict") == "wrong":
        print("WRONG", i, p["code"], p["file"], p["line"], "|", v[i].get("reason", "")[:300])
