"""The static sub-scores: each defect of the reference implementation that issue #2 names as fixed.

Every test compares two documents that differ only in the defect's trigger, so a regression to the
reference's behaviour flips the comparison.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers import static_layer as sl
from skillgrade.analyzers.parse import parse

FM = "---\nname: {name}\ndescription: Builds CSV reports. Use when the user asks for a CSV summary report.\n---\n"


def _doc(tmp_path: Path, body: str, *, name: str = "demo", dirname: str = "demo", files: dict | None = None):
    skill = tmp_path / "skills" / dirname
    skill.mkdir(parents=True, exist_ok=True)
    for rel, content in (files or {}).items():
        (skill / rel).parent.mkdir(parents=True, exist_ok=True)
        (skill / rel).write_text(content)
    text = FM.format(name=name) + body
    (skill / "SKILL.md").write_text(text)
    return parse(text, skill / "SKILL.md", workspace_root=tmp_path)


def test_name_equal_to_directory_never_scores_lower(tmp_path: Path) -> None:
    same = sl.frontmatter_quality(_doc(tmp_path, "# T\n", name="demo", dirname="demo"))
    other = sl.frontmatter_quality(_doc(tmp_path, "# T\n", name="demo-x", dirname="demo2"))
    assert same > other


def test_code_blocks_are_counted_as_blocks_not_fences(tmp_path: Path) -> None:
    one = _doc(tmp_path, "# T\n\n```python\nx = 1\n```\n")
    assert len(one.code_blocks) == 1  # the reference counts two fences
    two = _doc(tmp_path, "# T\n\n```python\nx = 1\n```\n\n```bash\nls\n```\n", dirname="d2", name="d2")
    assert sl.structural_completeness(two) > sl.structural_completeness(one)


def test_headings_inside_code_are_not_headings(tmp_path: Path) -> None:
    body = "# T\n\n```markdown\n## Example\n## Troubleshooting\n```\n"
    doc = _doc(tmp_path, body)
    assert [h.text for h in doc.headings] == ["T"]
    real = _doc(tmp_path, "# T\n\n## Example\n\n## Troubleshooting\n", dirname="d2", name="d2")
    assert sl.structural_completeness(real) > sl.structural_completeness(doc)


def test_directives_inside_code_and_quotes_are_not_counted(tmp_path: Path) -> None:
    body = "# T\n\n```text\nMUST ALWAYS NEVER\n```\n\nThe error says \"you MUST login\".\n\nYou MUST run tests.\n"
    _, _, n = sl.token_efficiency(_doc(tmp_path, body))
    assert n == 1


def test_closing_fences_and_table_separators_are_not_repetition(tmp_path: Path) -> None:
    blocks = "".join(f"```bash\necho {i}\n```\n\n" for i in range(6))
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| c | d |\n|---|---|\n| 3 | 4 |\n"
    _, ratio, _ = sl.token_efficiency(_doc(tmp_path, "# T\n\n" + blocks + table))
    assert ratio == 0.0
    _, repeated, _ = sl.token_efficiency(_doc(tmp_path, "# T\n\nSame line here.\n\nSame line here.\n",
                                              dirname="d2", name="d2"))
    assert repeated > 0


def test_dead_cross_references_earn_no_ecosystem_bonus(tmp_path: Path) -> None:
    dead, live_n = sl.ecosystem_coherence(_doc(tmp_path, "# T\n\nSee [other](../missing/SKILL.md).\n"))
    assert live_n == 0
    _doc(tmp_path, "# Other\n", dirname="other", name="other")
    live, live_n2 = sl.ecosystem_coherence(_doc(tmp_path, "# T\n\nSee [other](../other/SKILL.md).\n",
                                                dirname="d2", name="d2"))
    assert live_n2 == 1 and live > dead


def test_urls_and_home_paths_are_not_cross_references(tmp_path: Path) -> None:
    body = "# T\n\nSee https://example.com/skills/x and ~/.claude/skills/y and [u](https://x.io/agents/z.md).\n"
    assert sl.ecosystem_coherence(_doc(tmp_path, body)) == (0.5, 0)


def test_related_section_earns_the_bonus_as_a_word_only(tmp_path: Path) -> None:
    plain, _ = sl.ecosystem_coherence(_doc(tmp_path, "# T\n\nUnrelated text.\n"))
    related, _ = sl.ecosystem_coherence(_doc(tmp_path, "# T\n\nSee also the companion skill.\n",
                                             dirname="d2", name="d2"))
    assert related == plain + 0.25


def test_orchestration_penalty_only_for_orchestrating_agents(tmp_path: Path) -> None:
    gps = _doc(tmp_path, "# T\n\nConvert GPS coordinates and coordinate the colour palette.\n")
    agents = _doc(tmp_path, "# T\n\nThis skill will dispatch sub-agents to coordinate the workers.\n",
                  dirname="d2", name="d2")
    assert sl.orchestration_wiring(gps) - sl.orchestration_wiring(agents) == pytest.approx(0.15)


def test_code_template_quality_is_unmeasured_without_code(tmp_path: Path) -> None:
    assert sl.code_template_quality(_doc(tmp_path, "# T\n\nNo code.\n")) is None
    bad = _doc(tmp_path, "# T\n\n```python\ndef broken(:\n```\n\n```\nuntagged\n```\n", dirname="d2", name="d2")
    good = _doc(tmp_path, "# T\n\n```python\ndef ok():\n    pass\n```\n", dirname="d3", name="d3")
    assert sl.code_template_quality(good) == 1.0
    assert sl.code_template_quality(bad) < 0.5


def test_use_own_name_to_scores_as_use_this_skill_to(tmp_path: Path) -> None:
    """The triggering score reads "Use <own name> to …" as MISSING_TRIGGER does: an explicit trigger."""
    def doc(desc: str, name: str):
        skill = tmp_path / name
        skill.mkdir(exist_ok=True)
        text = f"---\nname: {name}\ndescription: {desc}\n---\n# T\n"
        (skill / "SKILL.md").write_text(text)
        return parse(text, skill / "SKILL.md", workspace_root=tmp_path)

    named = doc("Use table-fmt to format markdown tables in reports.", "table-fmt")
    this = doc("Use this skill to format markdown tables in reports.", "table-fmt")
    other = doc("Use pandoc to format markdown tables in reports.", "table-fmt")  # another tool's name
    assert sl.pushiness(named.frontmatter.data["description"], named) == \
        sl.pushiness(this.frontmatter.data["description"], this)
    assert sl.pushiness(other.frontmatter.data["description"], other) < \
        sl.pushiness(this.frontmatter.data["description"], this)
