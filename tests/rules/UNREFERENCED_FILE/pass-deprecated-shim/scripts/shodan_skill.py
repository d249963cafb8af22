#!/usr/bin/env python3
"""Deprecated checkout-local shim for the installed shodan-skill command."""
import sys

print(sys.argv)
