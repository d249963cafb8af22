"""fdiff.py OLD NEW: findings lost and gained between two reports."""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from flat import flat, key  # noqa: E402

a = collections.Counter(key(x) for x in flat(sys.argv[1]))
b = collections.Counter(key(x) for x in flat(sys.argv[2]))
lost, gained = a - b, b - a
for k in sorted(lost.elements()):
    print("LOST ", k[1], f"{k[0]}:{k[2]}", k[4][:160])
for k in sorted(gained.elements()):
    print("GAINED", k[1], f"{k[0]}:{k[2]}", k[4][:160])
print(f"lost {sum(lost.values())} gained {sum(gained.values())}")
