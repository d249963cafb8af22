"""`python -m skillgrade.server`: the language server on stdio (same as `skillgrade server`)."""

import sys

from skillgrade.server.lsp import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
