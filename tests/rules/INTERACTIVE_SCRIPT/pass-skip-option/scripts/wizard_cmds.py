"""Set up a document template.

People: `wizard` asks each question in turn. Agents: `wizard --answers a.json` reads every answer from
the file and never asks.
"""
import argparse
import json
from pathlib import Path


def _ask(question: str, default: str) -> str:
    try:
        return input(f"{question} [{default}] ") or default
    except EOFError:
        return default


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers")
    args = parser.parse_args()
    answers = json.loads(Path(args.answers).read_text()) if args.answers else {}
    title = answers.get("title") or _ask("Title", "Untitled")
    print(title)


if __name__ == "__main__":
    main()
