#!/usr/bin/env python3
"""Compatibility entrypoint for the interactive HTML exporter."""

from interactive_html import main

if __name__ == "__main__":
    raise SystemExit(main())
