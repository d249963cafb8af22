#!/usr/bin/env bash
set -euo pipefail

cmd_remove() {
	local force=false
	local target=""
	for arg in "$@"; do
		if [[ "$arg" == "--force" ]]; then
			force=true
		else
			target="$arg"
		fi
	done
	if [[ "$force" != true ]]; then
		echo "This will remove worktree: $target"
		if [[ -n "$target" ]]; then
			echo "The branch will also be deleted"
		fi
		read -p "Proceed? [y/N] " -n 1 -r
		echo ""
	fi
	git worktree remove --force "$target"
	read -p "Prune the others too? [y/N] " -n 1 -r
}

cmd_remove "$@"
