#!/bin/bash
## --force  Force shutdown without confirmation
if [[ "$1" != --force ]]; then read -p "Continue? " -n 1 -r; fi
