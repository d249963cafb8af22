import sys

with open(sys.argv[1]) as f:
    text = f.read().lstrip("﻿")
print(len(text))
