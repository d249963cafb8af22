#!/usr/bin/env python3
"""Build the install bundles."""
if __name__ == "__main__":
    print("built")
