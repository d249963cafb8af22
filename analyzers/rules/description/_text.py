"""The description as the agent sees it."""

from __future__ import annotations

from ...document import Field, SkillDocument
from ...findings import Edit, Pos, Range


def description(doc: SkillDocument) -> tuple[Field | None, str | None]:
    """(field, text). text is None when the description is not text (a list, a mapping)."""
    fld = doc.frontmatter.get("description")
    if fld is None:
        return None, ""
    v = fld.value
    if isinstance(v, str):
        return fld, v
    if v is None:
        return fld, ""
    if fld.node is not None and fld.node.__class__.__name__ == "ScalarNode":
        return fld, str(fld.node.value)  # `description: yes` is still these characters
    return fld, None


def append_sentence(doc: SkillDocument, fld: Field, sentence: str) -> Edit:
    """An edit that adds `sentence` at the end of the description, whatever its YAML style."""
    end = fld.value_range.end
    addition = " " + sentence
    if fld.style in ('"', "'"):
        at = Pos(end.line, max(0, end.character - 1))  # before the closing quote
    elif fld.style in ("|", ">"):
        line = doc.lines[end.line] if end.line < len(doc.lines) else ""
        indent = line[: len(line) - len(line.lstrip())] or "  "
        at = end
        addition = "\n" + indent + sentence
    else:
        at = end
    return Edit(Range(at, at), addition)
