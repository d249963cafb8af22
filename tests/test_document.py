"""SkillDocument positions: frontmatter ranges, line endings, BOM, code points, markdown structure,
links, prose and inline suppression. Positions are 0-based lines and code-point columns."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from skillgrade.analyzers.config import Config
from skillgrade.analyzers.document import LineIndex
from skillgrade.analyzers.findings import Pos, Range
from skillgrade.analyzers.parse import parse
from skillgrade.analyzers.report import analyze, analyze_file, read_skill

FM = "---\nname: pdf-tools\ndescription: Use when filling PDF forms.\n---\n"


def R(l1: int, c1: int, l2: int, c2: int) -> Range:  # noqa: N802 - reads like a literal
    return Range(Pos(l1, c1), Pos(l2, c2))


def src(doc, rng: Range) -> str:
    return doc.text[doc.index.offset(rng.start):doc.index.offset(rng.end)]


# ------------------------------------------------------------------ frontmatter


def test_field_key_and_value_ranges() -> None:
    text = (
        "---\n"
        "name: pdf-tools\n"
        "description: \"Use when filling PDF forms.\"\n"
        "license:   'MIT'   # trailing comment\n"
        "allowed-tools:\n"
        "  - Read\n"
        "  - Bash\n"
        "metadata: {author: me}\n"
        "---\n"
    )
    doc = parse(text)
    fm = doc.frontmatter
    assert fm.present and fm.terminated and fm.ok and fm.close_line == 8 and doc.body_start_line == 9
    name = fm.get("name")
    assert name.key_range == R(1, 0, 1, 4) and name.value_range == R(1, 6, 1, 15)
    assert src(doc, name.value_range) == "pdf-tools" and name.style is None and name.is_plain_scalar
    desc = fm.get("description")
    assert desc.value_range == R(2, 13, 2, 42) and desc.style == '"'
    assert src(doc, desc.value_range) == '"Use when filling PDF forms."' and desc.value == "Use when filling PDF forms."
    lic = fm.get("license")
    assert src(doc, lic.value_range) == "'MIT'" and lic.key_range == R(3, 0, 3, 7)
    tools = fm.get("allowed-tools")
    assert tools.value == ["Read", "Bash"] and tools.value_range.start == Pos(5, 2)
    assert tools.value_range.end == Pos(6, 8)
    meta = fm.get("metadata")
    assert src(doc, meta.value_range) == "{author: me}" and meta.value == {"author": "me"}


def test_block_scalar_value_range() -> None:
    doc = parse("---\nname: x\ndescription: >\n  Use when filling\n  PDF forms.\n---\n")
    desc = doc.frontmatter.get("description")
    assert desc.style == ">" and desc.value.rstrip("\n") == "Use when filling PDF forms."
    assert desc.value_range.start == Pos(2, 13)
    assert desc.value_range.end.line == 4  # ends on the last content line, not on the `---`


def test_empty_value_and_duplicate_keys() -> None:
    doc = parse("---\nname:\nname: b\ndescription: Use when filling PDF forms.\n---\n")
    fm = doc.frontmatter
    assert fm.get("name").value == "b"  # last wins, as PyYAML does
    dup = [p for p in fm.problems if p.kind == "duplicate"]
    assert len(dup) == 1 and dup[0].range == R(2, 0, 2, 4) and dup[0].first_range == R(1, 0, 1, 4)


def test_yaml_syntax_error_position() -> None:
    doc = parse("---\nname: x\ndescription: Use when: filling forms\n---\n")
    (p,) = doc.frontmatter.problems
    assert p.kind == "syntax" and p.range.start == Pos(2, 21)
    assert not doc.frontmatter.ok


def test_frontmatter_not_at_top_is_absent() -> None:
    doc = parse("\n---\nname: x\n---\n")
    assert not doc.frontmatter.present and doc.body_start_line == 0


@pytest.mark.parametrize("body,kind", [("- a\n- b\n", "sequence"), ("just text\n", "scalar"), ("", "empty"),
                                       ("# only a comment\n", "empty")])
def test_root_kinds(body: str, kind: str) -> None:
    doc = parse("---\n" + body + "---\n")
    assert doc.frontmatter.root_kind == kind and not doc.frontmatter.fields


# ------------------------------------------------------------------ line endings, BOM, code points


def _structure(doc) -> tuple:
    return (
        {k: (f.key_range, f.value_range, f.value) for k, f in doc.frontmatter.fields.items()},
        [(h.level, h.text, h.range) for h in doc.headings],
        [(b.language, b.start_line, b.end_line) for b in doc.code_blocks],
        [(lk.target, lk.range, lk.full_range, lk.kind) for lk in doc.links],
        doc.body_start_line,
        doc.lines,
    )


SAMPLE = FM + "\n# Title\n\nSee [the form](references/forms.md) and ![logo](assets/logo.png).\n\n```bash\nls\n```\n"


@pytest.mark.parametrize("eol", ["\r\n", "\r"])
def test_other_line_endings_give_the_same_positions(eol: str) -> None:
    lf = parse(SAMPLE)
    other = parse(SAMPLE.replace("\n", eol))
    assert _structure(other) == _structure(lf)
    assert all("\r" not in line for line in other.lines)
    link = other.links[0]
    assert link.range == R(7, 15, 7, 34) and src(other, link.range) == "references/forms.md"


def test_crlf_findings_positions() -> None:
    text = ("---\nname: Bad_Name\ndescription: Use when filling PDF forms.\nversion: 1.10\n---\n"
            "\n[x](references/missing.md)\n").replace("\n", "\r\n")
    rep = analyze(text, None, config=Config(select=("NAME_FORMAT", "YAML_AMBIGUOUS_VALUE", "ORPHAN_REFERENCE")))
    got = {(f.code, f.range.start.line, f.range.start.character, f.range.end.character) for f in rep.findings}
    assert ("NAME_FORMAT", 1, 6, 14) in got and ("YAML_AMBIGUOUS_VALUE", 3, 9, 13) in got


def test_line_index_round_trip() -> None:
    text = "a\r\nbé\rc😀d\n\nlast"
    idx = LineIndex(text)
    assert idx.lines == ["a", "bé", "c😀d", "", "last"]
    for off in range(len(text) + 1):
        p = idx.pos(off)
        if text[off - 1:off + 1] != "\r\n" or off == 0:  # inside a CRLF pair maps to the line end
            assert idx.offset(p) == off, (off, p)
    assert idx.pos(text.index("d")) == Pos(2, 2)  # the emoji is one code point
    assert idx.offset(Pos(99, 99)) == len(text) and idx.pos(10_000) == Pos(4, 4)


def test_bom_in_text_still_parses() -> None:
    doc = parse("\ufeff" + FM + "# T\n")
    assert doc.frontmatter.present and doc.frontmatter.ok
    assert doc.frontmatter.get("name").value == "pdf-tools"
    assert doc.frontmatter.get("name").value_range == R(1, 6, 1, 15)
    rep = analyze("\ufeff" + FM + "# T\n", None, config=Config(select=("FRONTMATTER_MISSING", "NAME_MISSING")))
    assert not rep.findings


def test_bom_through_read_skill_and_analyze_file(tmp_path: Path) -> None:
    skill = tmp_path / "pdf-tools" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_bytes(b"\xef\xbb\xbf" + (FM + "# T\n").encode())
    text, binary = read_skill(skill)
    assert not binary and text.startswith("\ufeff---")  # the file as it is; parse() drops the mark
    rep = analyze_file(skill, config=Config(select=("FRONTMATTER_MISSING", "NAME_MISSING", "NAME_DIR_MISMATCH",
                                                     "BINARY_CONTENT", "YAML_SYNTAX", "UTF8_BOM")))
    assert [(f.code, f.range.start.line, f.range.start.character) for f in rep.findings] == [("UTF8_BOM", 0, 0)]
    assert rep.name == "pdf-tools" and rep.document is not None and rep.document.lines[0] == "---"


def test_non_ascii_columns_are_code_points() -> None:
    text = "---\nname: café-😀\ndescription: Use when filling PDF forms.\n---\nÉté 😀 [x](references/ü.md)\n"
    doc = parse(text)
    assert doc.frontmatter.get("name").value_range == R(1, 6, 1, 12)
    (link,) = doc.links
    assert link.range == R(4, 10, 4, 25) and src(doc, link.range) == "references/ü.md"
    rep = analyze(text, None, config=Config(select=("NAME_FORMAT",)))
    assert rep.findings[0].range == R(1, 6, 1, 12)


# ------------------------------------------------------------------ markdown structure


def test_headings_skip_code_fences_and_record_sections() -> None:
    text = FM + "# Top\n\n```markdown\n# Not a heading\n## Nor this\n```\n\n## Usage\n\ntext\n\nSetext\n======\n\n### Deep\n"
    doc = parse(text)
    assert [(h.level, h.text, h.line) for h in doc.headings] == [
        (1, "Top", 4), (2, "Usage", 11), (1, "Setext", 15), (3, "Deep", 18)]
    top, usage, setext, deep = doc.headings
    assert top.end_line == 15 and usage.end_line == 15 and setext.end_line == len(doc.lines)
    assert usage.range == R(11, 0, 11, 8)


def test_code_blocks() -> None:
    text = FM + (
        "\n```python title=x.py\nprint(1)\n```\n"  # 5..7
        "\n~~~{.json}\n{}\n~~~\n"  # 9..11
        "\n```\nplain\n```\n"  # 13..15
        "\nText:\n\n    indented code\n"  # 19
        "\n  ```yaml\n  a: 1\n  ```\n"  # 21..23
        "\n````markdown\n```bash\nls\n```\n````\n"  # 25..29
    )
    doc = parse(text)
    got = [(b.language, b.info, b.fenced, b.start_line, b.end_line, b.content_start_line) for b in doc.code_blocks]
    assert got == [
        ("python", "python title=x.py", True, 5, 8, 6),
        ("json", "{.json}", True, 9, 12, 10),
        ("", "", True, 13, 16, 14),
        ("", "", False, 19, 20, 19),
        ("yaml", "yaml", True, 21, 24, 22),
        ("markdown", "markdown", True, 25, 30, 26),
    ]
    assert doc.code_blocks[4].open_range == R(21, 2, 21, 9)
    assert doc.code_blocks[5].content == "```bash\nls\n```\n"
    assert {5, 6, 7, 19, 25, 29} <= doc.code_lines and 8 not in doc.code_lines


def test_unclosed_fence_runs_to_the_end() -> None:
    doc = parse(FM + "\n```python\nx = 1\n# Not a heading\n")
    (b,) = doc.code_blocks
    assert b.start_line == 5 and b.end_line >= 7 and not doc.headings


def test_tables() -> None:
    doc = parse(FM + "\n| a | b |\n|---|---|\n| 1 | 2 |\n\nnot | a table\n")
    assert doc.tables == [(5, 8)] and doc.table_lines == {5, 6, 7}


# ------------------------------------------------------------------ links


def test_link_ranges_and_kinds() -> None:
    body = (
        "See [forms](references/forms.md) and [forms](references/forms.md).\n"  # 5: same target twice
        "![logo](assets/logo.png \"Logo\") [api](<references/api v2.md> 'API')\n"  # 6
        "<https://example.com/references/x.md> https://example.com/skills/a\n"  # 7: autolinks, bare URL
        "`[code](references/code.md)` <!-- [c](references/comment.md) -->\n"  # 8
        "[sect](#usage) [ext](https://example.com/a.md)\n"  # 9
        "\n[def]: ./references/def.md \"Title\"\n"  # 11
        "\n```markdown\n[in code](references/in-code.md)\n```\n"
    )
    doc = parse(FM + "\n" + body)
    got = [(lk.kind, lk.target, lk.range, src(doc, lk.range)) for lk in doc.links]
    assert got == [
        ("link", "references/forms.md", R(5, 12, 5, 31), "references/forms.md"),
        ("link", "references/forms.md", R(5, 45, 5, 64), "references/forms.md"),
        ("image", "assets/logo.png", R(6, 8, 6, 23), "assets/logo.png"),
        ("link", "references/api v2.md", R(6, 39, 6, 59), "references/api v2.md"),
        ("link", "#usage", R(9, 7, 9, 13), "#usage"),
        ("link", "https://example.com/a.md", R(9, 21, 9, 45), "https://example.com/a.md"),
        ("definition", "./references/def.md", R(11, 7, 11, 26), "./references/def.md"),
    ]
    first, _, image, *_ = doc.links
    assert first.text == "forms" and src(doc, first.full_range) == "[forms](references/forms.md)"
    assert image.is_image and src(doc, image.full_range) == '![logo](assets/logo.png "Logo")'
    assert doc.links[5].is_url and not first.is_url
    assert doc.links[6].path_part == "./references/def.md"


def test_link_path_part_drops_anchor_and_query() -> None:
    doc = parse(FM + "\n[a](references/a.md#part?x=1) [b](scripts/b.py?raw=1)\n")
    assert [lk.path_part for lk in doc.links] == ["references/a.md", "scripts/b.py"]


def test_multiline_link() -> None:
    doc = parse(FM + "\nSee the [long\nlabel](references/a.md) here.\n")
    (lk,) = doc.links
    assert lk.range == R(6, 7, 6, 22) and lk.full_range.start == Pos(5, 8)


def test_reference_style_link_range() -> None:
    doc = parse(FM + "\nSee [the guide][g] now.\n\n[g]: references/guide.md\n")
    usage = [lk for lk in doc.links if lk.kind == "link"]
    assert not usage or usage[0].range == R(5, 4, 5, 18)


# ------------------------------------------------------------------ prose


def test_prose_excludes_code_comments_and_frontmatter() -> None:
    text = FM + (
        "\nUse `MUST` here and ``a `b` c`` there. <!-- hidden MUST --> visible\n"  # 5
        "<!--\nMUST a\nMUST b\n-->\n"  # 6..9
        "after <!-- start\nMUST\nend --> tail\n"  # 10..12
        "\n```text\nMUST\n```\n"  # 14..16
        "> quoted MUST\n"  # 17
    )
    doc = parse(text)
    lines = {p.line: p for p in doc.prose}
    assert min(lines) == doc.body_start_line == 4
    five = lines[5].text
    assert len(five) == len(doc.lines[5])
    assert "MUST" not in five and "visible" in five and "Use" in five and "there." in five
    assert five.index("visible") == doc.lines[5].index("visible")  # columns are preserved
    assert not {6, 7, 8, 9} & set(lines) or all("MUST" not in lines[i].text for i in (6, 7, 8, 9) if i in lines)
    assert lines[10].text.rstrip() == "after" and 11 not in lines and lines[12].text.strip() == "tail"
    assert not {14, 15, 16} & set(lines)
    assert lines[17].quoted and not lines[5].quoted


# ------------------------------------------------------------------ suppression

BAD = "---\nname: Bad_Name\ndescription: PDF toolkit.\nversion: 1.10\n---\n"


def _codes(text: str, *select: str) -> tuple[list[tuple[str, int]], int]:
    # a path on disk (with no references/ folder), so link findings are checkable
    with tempfile.TemporaryDirectory() as tmp:
        rep = analyze(text, Path(tmp) / "skill" / "SKILL.md", config=Config(select=select or ()),
                      workspace_root=tmp)
    return [(f.code, f.range.start.line) for f in rep.findings], rep.suppressed


def test_disable_whole_file() -> None:
    found, n = _codes(BAD + "<!-- skillgrade-disable NAME_FORMAT -->\n", "NAME_FORMAT", "EMPTY_DESCRIPTION")
    assert found == [("EMPTY_DESCRIPTION", 2)] and n == 1


def test_disable_several_codes_and_all() -> None:
    found, n = _codes(BAD + "<!-- skillgrade-disable NAME_FORMAT, EMPTY_DESCRIPTION -->\n",
                      "NAME_FORMAT", "EMPTY_DESCRIPTION", "YAML_AMBIGUOUS_VALUE")
    assert found == [("YAML_AMBIGUOUS_VALUE", 3)] and n == 2
    found, n = _codes(BAD + "<!-- skillgrade-disable -->\n", "NAME_FORMAT", "EMPTY_DESCRIPTION")
    assert found == [] and n == 2


def test_disable_next_line() -> None:
    body = (
        "\n<!-- skillgrade-disable-next-line ORPHAN_REFERENCE -->\n\n"  # 5, then a blank line 6
        "[a](references/a.md)\n"  # 7: suppressed (next non-blank line)
        "[b](references/b.md)\n"  # 8: reported
    )
    found, n = _codes(FM + body, "ORPHAN_REFERENCE")
    assert found == [("ORPHAN_REFERENCE", 8)] and n == 1


def test_disable_next_line_hides_the_next_line() -> None:
    body = "\n<!-- skillgrade-disable-next-line ORPHAN_REFERENCE -->\n[a](references/a.md)\n"
    found, n = _codes(FM + body, "ORPHAN_REFERENCE")
    assert found == [] and n == 1


def test_disable_comment_in_code_block_is_ignored() -> None:
    found, n = _codes(BAD + "\n```markdown\n<!-- skillgrade-disable NAME_FORMAT -->\n```\n", "NAME_FORMAT")
    assert found == [("NAME_FORMAT", 1)] and n == 0


def test_disable_next_line_does_not_hide_other_lines() -> None:
    found, _ = _codes(BAD + "<!-- skillgrade-disable-next-line NAME_FORMAT -->\n", "NAME_FORMAT")
    assert found == [("NAME_FORMAT", 1)]


# ------------------------------------------------------------------ counts


@pytest.mark.parametrize("text,total,body", [
    (FM + "a\nb\n", 6, 2),
    (FM + "a\nb", 6, 2),
    (FM, 4, 0),
    ("", 1, 1),
])
def test_line_counts(text: str, total: int, body: int) -> None:
    doc = parse(text)
    assert doc.line_count == total and doc.body_line_count == body


def test_buffer_without_a_file_reports_nothing_it_cannot_check() -> None:
    """An unsaved buffer (no path): links, bundled files and names cannot be checked, so nothing fires."""
    text = FM + "\n[a](references/missing.md) [b](scripts/missing.py) [c](../other/SKILL.md) skills/some-skill\n"
    rep = analyze(text, None)
    disk = {"ORPHAN_REFERENCE", "DEAD_LINK", "DEAD_CROSS_REF", "UNREFERENCED_FILE", "LINK_ESCAPES_WORKSPACE",
            "NAME_DIR_MISMATCH", "DUPLICATE_SKILL_NAME"}
    assert [f.code for f in rep.findings if f.code in disk] == []
