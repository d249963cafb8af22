#!/usr/bin/env python3
"""Smoke-test the examples in references/taxonomy.md.

Usage: validate_examples.py --examples ../references/taxonomy.md --runner "python mock_runner.py"
"""
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--examples")
parser.add_argument("--runner")
args = parser.parse_args()
subprocess.run(args.runner.split() + [args.examples], check=True)
