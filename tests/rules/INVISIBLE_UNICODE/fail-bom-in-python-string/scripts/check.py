import sys

text = open(sys.argv[1]).read().lstrip("﻿")
print(len(text))
