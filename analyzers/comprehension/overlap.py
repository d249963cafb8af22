"""Verbatim overlap (seed 004, Appendix A.3) and the far-transfer lint (R4): pure, exact, linear.

Tokenisation is the seed's: lower-case, every character outside [a-z0-9] and whitespace becomes a space,
split on whitespace, keep tokens longer than 3 characters that are not stopwords. An n-gram is n
consecutive kept tokens joined by one space.

- `verbatim_overlap(answer, body, concept_field, n=6)`: the agent's answer shares an n-gram with the skill
  body + concept field (the seed joins them with one space, so an n-gram may span the junction, exactly as
  its pseudocode does). The C1 hard fail; computed here, given to the grader, never overruled by it.
- `far_transfer_overlap(prompt, body, n=4)`: a case tagged `transfer: far` whose prompt shares an n-gram
  (n >= 4) with the skill body is near transfer in disguise (R4). Any longer shared span contains a shared
  4-gram, so checking n = 4 finds every "4-gram or longer" overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import rx

# The seed's starting list (A.3), verbatim. Words of 3 characters or fewer are dropped by length anyway.
STOPWORDS = frozenset((
    "this", "that", "they", "them", "with", "from", "have", "will", "would", "could", "should", "their",
    "there", "where", "when", "what", "which", "while", "about", "after", "before", "between", "into",
    "than", "then",
))
VERBATIM_N = 6
FAR_TRANSFER_N = 4
_NON_ALNUM = rx.compile(r"[^a-z0-9\s]")


def tokenize(text: str) -> list[str]:
    """The seed's tokenizer: `s.toLowerCase().replace(/[^a-z0-9\\s]/g, ' ').split(/\\s+/)` then the filter."""
    return [t for t in _NON_ALNUM.sub(" ", text.lower()).split() if len(t) > 3 and t not in STOPWORDS]


def ngrams(tokens: list[str], n: int) -> list[str]:
    """The n-grams in order of first appearance, without repeats."""
    if n < 1:
        raise ValueError("n must be >= 1")
    seen: dict[str, None] = {}
    for i in range(len(tokens) - n + 1):
        seen.setdefault(" ".join(tokens[i:i + n]), None)
    return list(seen)


@dataclass(frozen=True, slots=True)
class Overlap:
    passed: bool
    n: int
    overlap_ngrams: tuple[str, ...]  # in the order they occur in the checked text

    def to_dict(self) -> dict:
        return {"passed": self.passed, "n": self.n, "overlap_ngrams": list(self.overlap_ngrams)}


def shared_ngrams(text: str, reference: str, n: int) -> tuple[str, ...]:
    ref = set(ngrams(tokenize(reference), n))
    return tuple(g for g in ngrams(tokenize(text), n) if g in ref)


def verbatim_overlap(answer: str, skill_body: str, concept_field: str = "", n: int = VERBATIM_N) -> Overlap:
    """Seed A.3 `checkVerbatimOverlap`: the answer's n-grams also found in `skill_body + ' ' + concept_field`."""
    found = shared_ngrams(answer, skill_body + " " + concept_field, n)
    return Overlap(not found, n, found)


def far_transfer_overlap(prompt: str, skill_body: str, n: int = FAR_TRANSFER_N) -> Overlap:
    """R4: the prompt's n-grams (stopwords and tokens of <= 3 characters dropped) found in the skill body."""
    found = shared_ngrams(prompt, skill_body, n)
    return Overlap(not found, n, found)
