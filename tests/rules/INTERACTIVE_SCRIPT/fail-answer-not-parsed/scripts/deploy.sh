#!/bin/bash
set -euo pipefail

echo '{"target": "prod"}' | jq -r '.target'
read -r answer
if [ "$answer" = "y" ]; then
  ./publish.sh
fi
