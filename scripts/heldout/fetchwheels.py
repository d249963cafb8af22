"""fetchwheels.py NAMES OUTDIR [THREADS] [SINCE]: latest wheel of each name via the PyPI JSON API (pure-Python wheels
first); with SINCE (`2025-10-01`), only wheels uploaded on or after that day (older packages predate skills)."""
import concurrent.futures as cf
import json
import os
import sys
import urllib.request
from pathlib import Path

names = [n.strip() for n in Path(sys.argv[1]).read_text().splitlines() if n.strip()]
out = sys.argv[2]
since = sys.argv[4] if len(sys.argv) > 4 else ""
os.makedirs(out, exist_ok=True)
done = {f.split("-")[0].lower().replace("_", "-") for f in os.listdir(out)}


def one(n):
    if n.lower().replace("_", "-").replace(".", "-") in done:
        return "have"
    try:
        with urllib.request.urlopen(f"https://pypi.org/pypi/{n}/json", timeout=30) as r:
            d = json.load(r)
        wheels = [u for u in d.get("urls", []) if u["filename"].endswith(".whl")]
        if not wheels:
            return "nowheel"
        wheels.sort(key=lambda u: ("none-any" not in u["filename"], u["size"]))
        u = wheels[0]
        if since and u.get("upload_time_iso_8601", "")[:10] < since:
            return "old"
        if u["size"] > 30_000_000:
            return "big"
        dest = os.path.join(out, u["filename"])
        with urllib.request.urlopen(u["url"], timeout=60) as r, open(dest + ".part", "wb") as f:
            f.write(r.read())
        os.replace(dest + ".part", dest)
        return "ok"
    except Exception as e:  # noqa: BLE001
        return "err " + type(e).__name__


with cf.ThreadPoolExecutor(int(sys.argv[3]) if len(sys.argv) > 3 else 16) as ex:
    res = list(ex.map(one, names))
import collections  # noqa: E402

print(collections.Counter(r.split()[0] for r in res))
