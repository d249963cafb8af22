"""Sample skills: a skill kept as an input for its package's own tests, checker or tutorial, not for an agent."""

from __future__ import annotations

import re

from ..document import SkillDocument
from ..lazy_re import lazy_compile
from ..measures import sibling_skills, text_recorded
from .description._text import description

_SAMPLE_DIRS = frozenset({"examples", "example", "fixtures", "fixture", "samples", "testdata", "test-data", "tests",
                          "test", "__tests__", "_template", "_templates"})  # (`plugins/_template/skills/example-skill`)
_SAMPLE_PREFIXES = ("example_", "example-", "examples_", "examples-", "sample_", "sample-", "fixture_", "fixtures_",
                    "fixtures-")  # `example_suite/`, `samples-basic/` (dataagent's demo suite)
# "an example skill", "a test skill"; a description that opens "This is a test …" (mcp-scan's test client's skill)
# ("Fixture for workflow guidance.", "Held-out fixture with …": the word fixture alone, under a sample folder)
# a skill saying it is broken on purpose: "This example intentionally omits YAML frontmatter so validation tests …"
_DELIBERATELY_BROKEN = (r"\b(?:intentionally|deliberately|purposely|on\s+purpose)\s+(?:omits|lacks|breaks|violates"
                        r"|invalid|malformed|broken|missing|left\s+out)\b")
_SAMPLE_WORDS = lazy_compile(r"\b(?:example|sample|fixture|demo|test|dummy)\s+skill\b|\bfixture\b|^\W{0,3}this\s+is\s+a\s+"
                           r"(?:test|dummy|sample)\b"
                           # "This example intentionally omits YAML frontmatter so validation tests can assert …"
                           r"|" + _DELIBERATELY_BROKEN, re.I)
# what marks a sibling as a test input (an "example skill" beside it may sit among real ones; a deliberately broken
# fixture does not)
_TEST_INPUT_WORDS = lazy_compile(r"\b(?:fixture|test\s+skill|validation\s+tests?)\b|^\W{0,3}this\s+is\s+a\s+test\b"
                                 r"|" + _DELIBERATELY_BROKEN, re.I | re.M)
SIBLING_HEAD = 1500  # characters of a sibling skill's SKILL.md read for the sample words
SIBLINGS = 20  # sibling folders looked at, at most
SAMPLE_DEPTH = 6  # folders above a skill looked at for `examples/` when there is no workspace root
OPENING_LINES = 3  # prose lines of the body read for "Fixture skill for …"
OPENING_CHARS = 400


def sample_skill(doc: SkillDocument, text: str | None = None) -> bool:
    """A skill kept under `examples/` (`fixtures/`, `samples/`, `testdata/`, `tests/`, `example_suite/`, Unity's
    `Fixtures~/`, a plugin scaffold's `_template/`) whose description (`text`, else the frontmatter's) or the body's opening lines call it an example,
    sample, fixture, demo or test skill (or open "This is a test", or say it "intentionally omits" / is "deliberately
    invalid"), or beside a skill in the same folder that says it is a test input: an input for the package's own checker, tests or
    tutorial, which no agent routes to."""
    if doc.skill_dir is None or not _in_sample_folder(doc):
        return False
    if text is None:
        text = description(doc)[1]
    return bool(text and _SAMPLE_WORDS.search(text)) or _SAMPLE_WORDS.search(_opening(doc)) is not None \
        or _sibling_sample(doc)


def _sibling_sample(doc: SkillDocument) -> bool:
    """A skill beside it in the same sample folder says it is a test input ("This example intentionally omits YAML
    frontmatter so validation tests can assert …" in `examples/skills/invalid-bad-frontmatter/` beside
    `review-helper-v1/`; a fixture, a test skill): the folder holds the package's test inputs. (A sibling that says only
    "example skill" does not: real skills may sit beside one.)"""
    return any(_TEST_INPUT_WORDS.search(text_recorded(doc, f + "SKILL.md")[:SIBLING_HEAD]) is not None
               for f in sibling_skills(doc, SIBLINGS))


def _in_sample_folder(doc: SkillDocument) -> bool:
    assert doc.skill_dir is not None
    parts = doc.skill_dir.parts[-SAMPLE_DEPTH - 1:-1]  # the folders above the skill, up to the workspace root
    if doc.workspace_root is not None and doc.skill_dir.is_relative_to(doc.workspace_root):
        parts = doc.skill_dir.relative_to(doc.workspace_root).parts[:-1]  # (`fixtures/fx-01/native-root/skills/x`)
    for part in parts:
        key = part.lower().rstrip("~")  # `Fixtures~/`: a folder Unity's asset import skips
        if key in _SAMPLE_DIRS or key.startswith(_SAMPLE_PREFIXES):
            return True
    return False


def _opening(doc: SkillDocument) -> str:
    """The body's first prose lines after its title ("# minimal" / "Fixture skill for computedHash tests.")."""
    out: list[str] = []
    for pl in doc.prose:
        text = pl.text.strip()
        if not text or text.startswith("#"):
            continue
        out.append(text)
        if len(out) >= OPENING_LINES:
            break
    return " ".join(out)[:OPENING_CHARS]
