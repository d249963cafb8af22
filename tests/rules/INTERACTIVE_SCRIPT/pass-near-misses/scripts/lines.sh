#!/bin/sh
# read -p "commented out" x
while read -r line; do echo "$line"; done < list.txt
cat list.txt | while IFS= read -r line; do
  echo "$line"
done
read -t 5 -p "Continue? " answer || answer=y
read -r first rest <<< "$answer"
read -r -d '' usage <<'EOF2' || true
Usage: run it; then read -p "this is text" x
it's fine
EOF2
echo read the docs
printf '%s\n' "$usage" | read -r header
grep -q x list.txt && echo "read -p x"
