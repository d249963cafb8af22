"""Bundled markdown files parsed once (links, headings) with the SKILL.md parser, cached by content."""

from __future__ import annotations

from functools import lru_cache

from ...document import SkillDocument, SkillFiles


@lru_cache(maxsize=64)
def parsed_markdown(text: str) -> SkillDocument:
    """A bundled markdown file's structure (its links, headings and code blocks); no folder context."""
    from ...parse import parse  # the parser imports every rule's dependencies: load it on first use

    return parse(text, None, files=SkillFiles(None))
