"""rewrite_description: only the description's value changes; the YAML reads back the same elsewhere."""

from __future__ import annotations

import pytest
import yaml

from skillgrade.analyzers.optimize.rewrite import RewriteError, plain_safe, rewrite_description, unified_diff

NEW = "Extract text and tables from PDF files. Use when the user mentions a PDF, a form, or a scanned document."
BODY = "\n# PDF tools\n\nRun `pdftotext`.\n"


def fm(text: str) -> dict:
    return yaml.safe_load(text.replace("\r\n", "\n").split("---")[1])


def check(before: str, after: str, new: str = NEW) -> None:
    a, b = fm(before), fm(after)
    assert {k: v for k, v in a.items() if k != "description"} == {k: v for k, v in b.items() if k != "description"}
    assert list(a) == list(b)
    got = b["description"]
    assert got.rstrip("\n") == new
    # everything before the description line and after its value is byte-identical
    head = before[:before.index("description:")]
    assert after.startswith(head)
    assert after.endswith(before[before.index("\nlicense:"):] if "\nlicense:" in before else BODY)


@pytest.mark.parametrize("value,style", [
    ("Extract PDFs.", "plain"),
    ('"Extract PDFs: text and tables."', "double"),
    ("'Extract the user''s PDFs.'", "single"),
])
def test_flow_styles_kept(value: str, style: str):
    before = f"---\nname: pdf-tools\ndescription: {value}\nlicense: MIT\n---{BODY}"
    after = rewrite_description(before, NEW)
    check(before, after)
    line = after.splitlines()[2]
    if style == "plain":
        assert line == f"description: {NEW}"
    elif style == "double":
        assert line == f'description: "{NEW}"'
    else:
        assert line == f"description: '{NEW}'"


def test_plain_becomes_double_quoted_when_unsafe():
    before = f"---\nname: pdf-tools\ndescription: Extract PDFs.\nlicense: MIT\n---{BODY}"
    for new in ("Extract PDFs: use when asked.", "yes", "# not a comment", "PDFs #1 tool", "- a list?", "1.5",
                'say "hi" to \\ PDFs', "tab\tand: colon"):
        after = rewrite_description(before, new)
        check(before, after, " ".join(new.split()))
        assert '"' in after.splitlines()[2]
    assert plain_safe(NEW) and not plain_safe("null") and not plain_safe("a: b") and not plain_safe("@x")


def test_single_quoted_escapes_quotes():
    before = f"---\nname: pdf-tools\ndescription: 'Old one.'\nlicense: MIT\n---{BODY}"
    after = rewrite_description(before, "The user's PDFs. Use when it's a PDF.")
    assert "description: 'The user''s PDFs. Use when it''s a PDF.'" in after
    check(before, after, "The user's PDFs. Use when it's a PDF.")


@pytest.mark.parametrize("header", [">", "|", ">-", "|-", ">+", "|2", ">  # folded, keep this comment"])
def test_block_scalars_keep_header_and_indentation(header: str):
    before = (f"---\nname: pdf-tools\ndescription: {header}\n    Old text that spans\n    two lines.\n\n"
              f"# a comment after the block\nlicense: MIT\n---{BODY}")
    after = rewrite_description(before, NEW)
    check(before, after)
    lines = after.splitlines()
    assert lines[2] == f"description: {header}"
    indent = "  " if header == "|2" else "    "
    assert lines[3].startswith(indent) and not lines[3].startswith(indent + " ")
    assert "\n\n# a comment after the block\nlicense: MIT\n" in after
    if header.startswith(">"):
        assert all(len(x) <= 80 for x in lines[3:5])
        assert len([x for x in lines if x.startswith(indent)]) >= 2  # wrapped at spaces
    else:
        assert lines[3] == indent + NEW


def test_crlf_file_keeps_its_line_breaks():
    before = ("---\r\nname: pdf-tools\r\ndescription: >-\r\n  Old text\r\n  here.\r\nlicense: MIT\r\n---\r\n"
              "\r\n# PDF tools\r\n")
    after = rewrite_description(before, NEW)
    assert "\n" not in after.replace("\r\n", "")
    assert after.endswith("license: MIT\r\n---\r\n\r\n# PDF tools\r\n")
    assert fm(after)["description"] == NEW
    plain = "---\r\nname: pdf-tools\r\ndescription: Old.\r\nlicense: MIT\r\n---\r\nbody\r\n"
    assert rewrite_description(plain, NEW) == plain.replace("Old.", NEW)


def test_comment_after_the_value_is_kept():
    before = f"---\nname: pdf-tools\ndescription: Old text.  # keep me\nlicense: MIT\n---{BODY}"
    after = rewrite_description(before, NEW)
    assert f"description: {NEW}  # keep me\n" in after
    before = f'---\nname: pdf-tools\ndescription: "Old: text."   # keep me\nlicense: MIT\n---{BODY}'
    after = rewrite_description(before, NEW)
    assert f'description: "{NEW}"   # keep me\n' in after


def test_multiline_plain_value_and_bom():
    before = f"\ufeff---\nname: pdf-tools\ndescription: Old text\n  on two lines.\nlicense: MIT\n---{BODY}"
    after = rewrite_description(before, NEW)
    assert after.startswith("\ufeff---\nname: pdf-tools\n") and f"description: {NEW}\nlicense: MIT\n" in after


def test_refuses_what_it_cannot_rewrite():
    with pytest.raises(RewriteError):
        rewrite_description("# no frontmatter\n", NEW)
    with pytest.raises(RewriteError):
        rewrite_description("---\nname: x\n---\nbody\n", NEW)
    with pytest.raises(RewriteError):
        rewrite_description("---\nname: x\ndescription: [a, b]\n---\n", NEW)
    with pytest.raises(RewriteError):
        rewrite_description("---\nname: x\ndescription: old\n---\n", "   ")


def test_unified_diff():
    before = f"---\nname: pdf-tools\ndescription: Old.\n---{BODY}"
    d = unified_diff(before, rewrite_description(before, NEW), "pdf-tools/SKILL.md")
    assert d.startswith("--- a/pdf-tools/SKILL.md\n+++ b/pdf-tools/SKILL.md\n")
    assert "-description: Old.\n" in d and f"+description: {NEW}\n" in d
