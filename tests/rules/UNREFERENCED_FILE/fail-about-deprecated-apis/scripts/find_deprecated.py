#!/usr/bin/env python3
"""Checks source files for deprecated APIs."""
import sys

print(sys.argv)
