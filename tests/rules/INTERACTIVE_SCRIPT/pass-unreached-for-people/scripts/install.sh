#!/bin/sh
read -p "Install into ~/.codex/skills? [y/N] " answer
