"""How often CODE_BLOCK_UNTAGGED's guessed tag agrees with the tag authors gave the same content.

Usage:  python benchmarks/tag_guess.py [ROOT ...] [--show LANG]

Every closed, tagged fenced block of every SKILL.md under the roots (default: ../shared/corpus) is
taken once per distinct (tag, content); `guess_language` is run on its content as if it were untagged.
For each language it guesses (it says `text` when unsure, which is not counted) the report gives how many
of those blocks their authors tagged with the same language (or a compatible one: JSON is valid YAML and
JavaScript; TypeScript and JavaScript count as one). `--show LANG` prints a sample of the disagreements.
The fix CODE_BLOCK_UNTAGGED offers is marked safe, so a guess must be right nearly every time.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import random
import sys
from pathlib import Path

from skillgrade.analyzers.document import CodeBlock
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.rules.code.code_block_untagged import guess_language

FAMILY = {
    "sh": "bash", "shell": "bash", "zsh": "bash", "console": "bash", "shellscript": "bash", "bash": "bash",
    "py": "python", "python3": "python", "python": "python", "jsonc": "json", "json5": "json", "json": "json",
    "yml": "yaml", "ts": "typescript", "tsx": "typescript", "js": "javascript", "jsx": "javascript",
    "mjs": "javascript",
}
COMPATIBLE = {("json", "javascript"), ("json", "typescript"), ("json", "jsonl"), ("json", "yaml")}
MAX_BYTES = 300_000


def blocks(roots: list[Path]) -> dict[tuple[str, str], tuple[CodeBlock, str]]:
    """(tag, content) -> the first block with them, and its SKILL.md."""
    out: dict[tuple[str, str], tuple[CodeBlock, str]] = {}
    for root in roots:
        for path in sorted(root.rglob("SKILL.md")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if len(text) > MAX_BYTES:
                continue
            for b in parse(text, None).code_blocks:
                if b.fenced and b.closed and b.language:
                    out.setdefault((b.language.lower(), b.content), (b, str(path)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="*", type=Path)
    ap.add_argument("--show", metavar="LANG")
    args = ap.parse_args()
    roots = args.roots or [Path(__file__).resolve().parents[1].parent / "shared" / "corpus"]
    found = blocks(roots)
    agree: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    disagree: dict[str, list[tuple[str, str, str]]] = collections.defaultdict(list)
    for (tag, content), (block, src) in found.items():
        guess = guess_language(dataclasses.replace(block, language="", info=""))
        if guess == "text":
            continue
        family = FAMILY.get(tag, tag)
        ok = family == guess or (guess, family) in COMPATIBLE or (guess, tag) in COMPATIBLE
        agree[guess]["agree" if ok else "disagree"] += 1
        if not ok:
            disagree[guess].append((tag, content[:80].replace("\n", "⏎"), src))
    print(f"{len(found)} distinct tagged blocks under {', '.join(map(str, roots))}")
    for guess, c in sorted(agree.items()):
        n = c["agree"] + c["disagree"]
        print(f"{guess:10} {c['agree']:6} / {n:6} = {100 * c['agree'] / n:5.1f}% agree with the author's tag")
    if args.show:
        rows = disagree.get(args.show, [])
        for row in random.Random(1).sample(rows, min(25, len(rows))):
            print(*row, sep="  |  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
