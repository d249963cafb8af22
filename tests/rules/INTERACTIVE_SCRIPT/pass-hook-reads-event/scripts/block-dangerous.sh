#!/bin/bash
# PreToolUse hook: reads the event JSON on stdin
set -euo pipefail

read -r input

command=$(echo "$input" | jq -r '.tool_input.command // ""')
if [[ "$command" == *"rm -rf /"* ]]; then
  echo "blocked" >&2
  exit 2
fi
