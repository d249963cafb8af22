"""lostjudged.py OLD NEW SAMPLEDIR: findings of OLD missing from NEW, with their verdict when judged."""
import collections
import glob
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
from flat import flat, key  # noqa: E402

old, new, sd = sys.argv[1], sys.argv[2], sys.argv[3]
s = json.loads(Path(f"{sd}/sample.json").read_text())
v = {}
for f in glob.glob(f"{sd}/verdicts*.jsonl"):
    for line in Path(f).read_text().splitlines():
        if line.strip():
            x = json.loads(line)
            v[x["id"]] = x["verdict"]
judged = {key(p): v.get(p["id"], "?") for p in s["sample"]}
a = collections.Counter(key(x) for x in flat(old))
b = collections.Counter(key(x) for x in flat(new))
lost = a - b
c = collections.Counter()
for k in lost.elements():
    verdict = judged.get(k, "unjudged")
    c[verdict] += 1
    print(f"LOST [{verdict}] {k[1]} {k[0]}:{k[2]} {k[4][:100]}")
for k in (b - a).elements():
    print(f"GAINED {k[1]} {k[0]}:{k[2]} {k[4][:100]}")
print(dict(c), "gained", sum((b - a).values()))
