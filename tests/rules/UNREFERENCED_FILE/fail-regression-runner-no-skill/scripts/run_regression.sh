#!/usr/bin/env bash
set -euo pipefail
curl -s "$API/health"
