"""A fill-in template is recognised by its empty fields: placeholders, and (held-out set 45) empty bold labels of
a form (`- **Recommendation:**`); a label with text after it is a filled-in line, not a field."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.rules._helpers import MIN_FIELDS, _blank_label, fill_in_template


@pytest.mark.parametrize(("line", "blank"), [
    ("- **Recommendation:**", True),
    ("* **Repo type**:", True),
    ("**What to cut:**", False),  # a label alone on its line leads in the list below it
    ("  * **Confidence (0–100%):**  ", True),
    ("- **Format**: {service}_{action}", False),  # a gloss after the label
    ("- **Setup** — install the CLI", False),
    ("**Note:** read the guide first.", False),
    ("- **:**", False),  # no label
    ("- ****:", False),
    ("**a ** b:**", False),  # emphasis inside: not one label
    ("plain: text", False),
])
def test_blank_label(line: str, blank: bool) -> None:
    assert _blank_label(line) is blank


FORM = "# Brief\n\n" + "".join(f"- **Field {i}:**\n" for i in range(MIN_FIELDS))


def test_a_form_named_as_a_template_is_one() -> None:
    lines = FORM.split("\n")
    assert fill_in_template("references/brief-template.md", lines)
    assert not fill_in_template("references/brief.md", lines)  # not named or kept as a template
    fewer = ("# Brief\n\n" + "".join(f"- **Field {i}:**\n" for i in range(MIN_FIELDS - 1))).split("\n")
    assert not fill_in_template("references/brief-template.md", fewer)
    fenced = ("```\n" + FORM + "```\n").split("\n")  # fields inside code are an example, not the form
    assert not fill_in_template("references/brief-template.md", fenced)
    nested = ("# Rules\n\n" + "".join(f"- **Rule {i}:**\n  - keep it\n" for i in range(MIN_FIELDS))).split("\n")
    assert not fill_in_template("references/rules-template.md", nested)  # labels over nested items lead them in
