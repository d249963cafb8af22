"""unpack.py DLDIR OUTDIR SEED [KEEP]: unzip wheels holding SKILL.md; keep at most KEEP skills per package (seeded);
drop skills whose SKILL.md content duplicates one already kept or one in the shared corpus."""
import hashlib
import os
import random
import shutil
import sys
import zipfile
from pathlib import Path

dl, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
keep = int(sys.argv[4]) if len(sys.argv) > 4 else 4
rng = random.Random(seed)
seen = set()
for root, _, files in os.walk("/work/shared/corpus"):
    for f in files:
        if f.lower() == "skill.md":
            seen.add(hashlib.sha256(Path(root, f).read_bytes()).hexdigest())
os.makedirs(out, exist_ok=True)
n_pk = n_sk = 0
for whl in sorted(os.listdir(dl)):
    if not whl.endswith(".whl"):
        continue
    try:
        z = zipfile.ZipFile(os.path.join(dl, whl))
        names = z.namelist()
    except Exception:
        continue
    skills = [n for n in names if os.path.basename(n).lower() == "skill.md"]
    if not skills:
        continue
    dest = os.path.join(out, whl.split("-")[0])
    if os.path.exists(dest):
        continue
    try:
        z.extractall(dest)
    except Exception:
        shutil.rmtree(dest, ignore_errors=True)
        continue
    skills.sort()
    rng.shuffle(skills)
    kept = []
    dropped = []
    for s in skills:
        h = hashlib.sha256(z.read(s)).hexdigest()
        if h in seen or len(kept) >= keep:
            dropped.append(s)
            continue
        seen.add(h)
        kept.append(s)
    for s in dropped:  # the whole folder goes, unless a kept skill lies inside it
        d = os.path.dirname(s)
        if any(k.startswith(d + "/") or d == "" for k in kept):
            p = os.path.join(dest, s)
            if os.path.exists(p):
                os.remove(p)
        else:
            shutil.rmtree(os.path.join(dest, d), ignore_errors=True)
    if not kept:
        shutil.rmtree(dest)
        continue
    n_pk += 1
    n_sk += len(kept)
print(n_pk, "packages,", n_sk, "skills")
