"""Flatten a `skillgrade score --format json` report into finding records."""
import json
import os
from pathlib import Path


def flat(report_path):
    d = json.loads(Path(report_path).read_text())
    out = []
    for s in d["skills"]:
        sp = s["skill"]["path"]
        for f in s["findings"]:
            fp = os.path.join(os.path.dirname(sp), f["file"]) if f.get("file") else sp
            r = f["range"]["start"]
            out.append({"skill": sp, "file": fp, "code": f["code"], "line": r["line"] + 1,
                        "col": r["character"] + 1, "message": f["message"],
                        "fix": (f.get("fix") or {}).get("title")})
    return out


def key(x):
    return (x["file"], x["code"], x["line"], x["col"], x["message"])
