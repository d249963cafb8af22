"""The description as the agent sees it."""

from __future__ import annotations

from ...document import Field, SkillDocument


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
