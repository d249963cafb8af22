#!/usr/bin/env python3
"""Render the deck to PDF."""
import sys

print(sys.argv[1])
