#!/usr/bin/env bash
# Fills bundled/libs with the Python server the extension falls back to (run by `npm run bundle-python`).
# - pure-Python wheels from bundled/requirements.txt
# - pyyaml built from its sdist WITHOUT the libyaml C extension (PYYAML_FORCE_LIBYAML=0), so the
#   bundle stays platform independent; yaml then uses its pure-Python loader
# - skillgrade itself, built from a copy of the repository root (a copy, so setuptools' build/ and
#   *.egg-info never land in the work tree)
# Needs python3 >= 3.11 with pip and access to PyPI. PYTHON=... picks another interpreter.
set -euo pipefail
export PIP_ROOT_USER_ACTION=ignore
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-python3}
LIBS=$HERE/bundled/libs
PIP=("$PY" -m pip install --quiet --disable-pip-version-check --no-warn-script-location --no-deps --target "$LIBS")

rm -rf "$LIBS"
mkdir -p "$LIBS"
"${PIP[@]}" --only-binary=:all: --implementation py -r "$HERE/bundled/requirements.txt"
PYYAML_FORCE_LIBYAML=0 "${PIP[@]}" --no-binary pyyaml "pyyaml==6.0.3"

SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
for f in pyproject.toml README.md LICENSE analyzers server; do
  [ -e "$ROOT/$f" ] && cp -r "$ROOT/$f" "$SRC/"
done
[ -e "$SRC/README.md" ] || echo "# skillgrade" > "$SRC/README.md"
"${PIP[@]}" "$SRC"

# Nothing platform specific may remain.
find "$LIBS" -name '__pycache__' -type d -prune -exec rm -rf {} +
rm -rf "$LIBS/bin"
if find "$LIBS" \( -name '*.so' -o -name '*.pyd' \) | grep -q .; then
  echo "bundle-python: native extension found in bundled/libs:" >&2
  find "$LIBS" \( -name '*.so' -o -name '*.pyd' \) >&2
  exit 1
fi
"$PY" - "$LIBS" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import yaml, pygls, lsprotocol, markdown_it  # noqa: F401
assert not getattr(yaml, "__with_libyaml__", False)
print("bundle-python: ok,", sum(1 for _ in __import__("pathlib").Path(sys.argv[1]).rglob("*.py")), "python files")
PY

# Every package of the source tree must be in the built wheel (pyproject's explicit package list).
missing=()
while IFS= read -r init; do
  rel=${init#"$ROOT"/}; rel=${rel%/__init__.py}
  top=${rel%%/*}; rest=${rel#"$top"}
  [ -d "$LIBS/skillgrade/$top$rest" ] || missing+=("skillgrade.$top${rest//\//.}")
done < <(find "$ROOT/analyzers" "$ROOT/server" -name __init__.py -not -path '*/__pycache__/*' | sort)
if ((${#missing[@]})); then
  echo "bundle-python: the skillgrade wheel lacks these packages (add them to [tool.setuptools] packages in pyproject.toml):" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 1
fi
