#!/usr/bin/env python3
"""Entry point for the interactive HTML exporter."""

print("export")
