"""Summarise a CSV file: row count and totals per group."""

import csv
import sys
from collections import Counter


def summarise(path: str, group_by: str | None = None) -> str:
    counts: Counter[str] = Counter()
    rows = 0
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            rows += 1
            if group_by:
                counts[row.get(group_by) or "(blank)"] += 1
    lines = [f"{rows} rows"]
    lines += [f"{k}: {v}" for k, v in counts.most_common()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summarise(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None))
