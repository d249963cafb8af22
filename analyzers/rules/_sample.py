"""Sample skills: a skill kept as an input for its package's own tests, checker or tutorial, not for an agent."""

from __future__ import annotations

import re

from ..document import SkillDocument
from ..lazy_re import lazy_compile
from ..measures import sibling_skills, text_recorded
from ._helpers import folders_above, opening_prose
from .description._text import description

_SAMPLE_DIRS = frozenset({"examples", "example", "fixtures", "fixture", "samples", "testdata", "test-data", "tests",
                          "test", "__tests__", "_template", "_templates"})  # (`plugins/_template/skills/example-skill`)
# folders that hold a package's test inputs and nothing else: a skill under one is an input, whatever it says
_TEST_DIRS = frozenset({"tests", "test", "__tests__", "testdata", "test-data", "fixtures", "fixture"})
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
# the skill's own folder named for what it is: `capabilities-library/agent-skills/sample-skill/`
_SAMPLE_OWN_DIR = lazy_compile(r"(?:example|sample|demo|test|dummy)[-_]skill", re.I)
# the frontmatter's tags say it: `tags: [example, greeting]` (a skills hub's `hello` demo)
_SAMPLE_TAGS = frozenset({"example", "sample", "demo"})
OPENING_LINES = 3  # prose lines of the body read for "Fixture skill for …"
OPENING_CHARS = 400


def sample_skill(doc: SkillDocument, text: str | None = None) -> bool:
    """A skill kept under a test folder (`tests/`, `test/`, `__tests__/`, `testdata/`, `fixtures/`, Unity's
    `Fixtures~/`), tagged `example`, `sample` or `demo`, or kept under `examples/` (`samples/`, `example_suite/`, a
    plugin scaffold's `_template/`) or in a folder named `sample-skill` (`example-skill`, …) whose description (`text`,
    else the frontmatter's) or the body's opening lines call it an example, sample, fixture, demo or test skill (or open
    "This is a test", or say it "intentionally omits" / is "deliberately invalid"), or beside a skill in the same folder
    that says it is a test input: an input for the package's own checker, tests or tutorial, which no agent routes to."""
    if doc.skill_dir is None:
        return False
    if _tagged_sample(doc):
        return True
    folder = _sample_folder(doc)
    if folder is None:
        return False
    if folder in _TEST_DIRS:
        return True  # `skm-cli/test/add-uint-support/`: the CLI's upload test input (a real skill's text, copied)
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


def _sample_folder(doc: SkillDocument) -> str | None:
    """The sample folder the skill is kept in (its key: `tests`, `examples`, `example_suite`, …), the test folders
    first; `sample` for a skill folder named `sample-skill`; else None."""
    assert doc.skill_dir is not None
    keys = [part.lower().rstrip("~") for part in folders_above(doc)]  # `Fixtures~/`: a folder Unity's import skips
    found = [k for k in keys if k in _SAMPLE_DIRS or k.startswith(_SAMPLE_PREFIXES)]
    if found:
        return next((k for k in found if k in _TEST_DIRS), found[0])
    return "sample" if _SAMPLE_OWN_DIR.fullmatch(doc.skill_dir.name) else None


def _tagged_sample(doc: SkillDocument) -> bool:
    """The frontmatter's `tags` (or `keywords`, also under `metadata`) hold `example`, `sample` or `demo`."""
    data = doc.frontmatter.data if doc.frontmatter.ok else None
    if not isinstance(data, dict):
        return False
    meta = data.get("metadata")
    for holder in (data, meta if isinstance(meta, dict) else {}):
        for key in ("tags", "keywords"):
            tags = holder.get(key)
            if isinstance(tags, str):
                tags = tags.replace(",", " ").split()
            if isinstance(tags, list) and any(isinstance(t, str) and t.strip().lower() in _SAMPLE_TAGS for t in tags):
                return True
    return False


def _opening(doc: SkillDocument) -> str:
    """The body's first prose lines after its title ("# minimal" / "Fixture skill for computedHash tests.")."""
    return " ".join(pl.text.strip() for pl in opening_prose(doc, OPENING_LINES))[:OPENING_CHARS]
