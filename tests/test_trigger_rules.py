"""MISSING_TRIGGER vs WEAK_TRIGGER is decided by a description's shape, not by how its words are spelled."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.report import analyze


def _code(description: str) -> str | None:
    text = f"---\nname: s\ndescription: {description}\n---\n\n# S\n\nBody.\n"
    codes = {f.code for f in analyze(text, None).findings} & {"MISSING_TRIGGER", "WEAK_TRIGGER"}
    assert len(codes) <= 1
    return codes.pop() if codes else None


# each row: descriptions of one shape, which must all get the same code
SAME_SHAPE = [
    ("WEAK_TRIGGER", ["Toolkit for testing local web applications with Playwright.",
                      "Toolkit for web-app tests with Playwright.",
                      "Toolkit for string manipulation in Python.",
                      "Toolkit for PDF form filling and merging.",
                      "Toolkit to test local web applications with Playwright."]),
    ("WEAK_TRIGGER", ["Guidance on visual design when building new UI.",
                      "Guidance on visual design when the page is new.",
                      "Guidance on visual design during deployment reviews.",
                      "Guidance on visual design during reviewing."]),
    ("MISSING_TRIGGER", ["A comprehensive toolkit of utilities around PDF documents.",
                         "A comprehensive toolkit of utilities around testing documents.",
                         "Diagnosing and tuning a specific slow relational query from plan evidence.",
                         "Diagnosis and tuning of a specific slow relational query from plan evidence."]),
    ("MISSING_TRIGGER", ["A toolkit around PDF documents. Do not use when editing Word files.",
                         "A toolkit around PDF documents. Do not use for scanned images.",
                         "A toolkit around PDF documents, for example invoices and receipts."]),
    (None, ["A toolkit for PDF documents. Use when the user asks to fill a PDF form.",
            "A toolkit for PDF documents. Use it for filling PDF forms.",
            "A toolkit for PDF documents. This skill should be used when forms are involved."]),
]


@pytest.mark.parametrize(("code", "descriptions"), SAME_SHAPE)
def test_same_shape_same_code(code: str | None, descriptions: list[str]) -> None:
    assert [(_code(d), d) for d in descriptions] == [(code, d) for d in descriptions]
