#!/usr/bin/env bash
set -euo pipefail
read -p "Deploy to production? [y/N] " answer
echo "Enter the tag:"; IFS= read -r tag
if [ "$answer" = y ]; then read -r -s -p "Token: " token; fi
case "$1" in
  ask) read -r -p "Name? " name ;;
esac
