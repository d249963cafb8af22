"""NAME_FORMAT offers the folder's name when it is a valid name; NAME_DIR_MISMATCH skips a package's source
folder (`_skill/`, `.skill/`), which an installer renames to the skill's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrade.analyzers import fixes
from skillgrade.analyzers.config import Config
from skillgrade.analyzers.report import analyze

NAME_CODES = ("NAME_FORMAT", "NAME_DIR_MISMATCH")


def _skill(tmp_path: Path, folder: str, name: str) -> tuple[Path, str]:
    p = tmp_path / folder / "SKILL.md"
    p.parent.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: Use when testing names.\n---\n\n# Names\n"
    p.write_text(text)
    return p, text


def _findings(path: Path, text: str):
    return analyze(text, path, config=Config(select=NAME_CODES), workspace_root=path.parent.parent).findings


def test_name_format_fix_is_the_folder_name(tmp_path: Path) -> None:
    """J2's note on ids 183-191: the slug (`reasoningbank-with-agentdb`) would leave NAME_DIR_MISMATCH."""
    path, text = _skill(tmp_path, "reasoningbank-agentdb", "ReasoningBank with AgentDB")
    fmt = next(f for f in _findings(path, text) if f.code == "NAME_FORMAT")
    assert fmt.fix is not None and fmt.fix.title == "Rename to `reasoningbank-agentdb` (the folder's name)"
    fixed, applied = fixes.apply_edits(text, list(fmt.fix.edits))
    assert applied == 1 and "name: reasoningbank-agentdb\n" in fixed
    assert _findings(path, fixed) == []


def test_name_format_fix_is_a_slug_when_the_folder_name_is_not_valid(tmp_path: Path) -> None:
    path, text = _skill(tmp_path, "PDF_Tools", "PDF Tools")
    fmt = next(f for f in _findings(path, text) if f.code == "NAME_FORMAT")
    assert fmt.fix is not None and fmt.fix.title == "Rename to `pdf-tools`"


def test_name_format_without_a_path_offers_the_slug() -> None:
    text = "---\nname: PDF Tools\ndescription: Use when testing names.\n---\n"
    (f,) = analyze(text, None, config=Config(select=("NAME_FORMAT",))).findings
    assert f.fix is not None and f.fix.title == "Rename to `pdf-tools`"


@pytest.mark.parametrize(("name", "slug"), [("ApiFetcher", "api-fetcher"), ("MuseSparkInit", "muse-spark-init"),
                                            ("HTMLParser", "html-parser"), ("OAuth2Client", "oauth2-client"),
                                            ("Telos", "telos"), ("PDF Tools", "pdf-tools")])
def test_name_format_slug_splits_a_camel_case_word(tmp_path: Path, name: str, slug: str) -> None:
    """Set 37's judges: `ApiFetcher` in `ApiFetcher/` was offered `apifetcher`."""
    path, text = _skill(tmp_path, name, name)
    fmt = next(f for f in _findings(path, text) if f.code == "NAME_FORMAT")
    assert fmt.fix is not None and fmt.fix.title == f"Rename to `{slug}`"


@pytest.mark.parametrize("folder", ["pkg/_skill", "pkg/.skill", "pkg/__skill__"])
def test_source_folder_is_not_a_mismatch(tmp_path: Path, folder: str) -> None:
    """J2 group D: nshskill installs `nshskill/_skill/` as `.claude/skills/<name>/`."""
    path, text = _skill(tmp_path, folder, "init-skill")
    assert _findings(path, text) == []


@pytest.mark.parametrize("folder,fixable", [("context_doctor", False), ("skill", False), ("init", True)])
def test_other_folders_still_mismatch(tmp_path: Path, folder: str, fixable: bool) -> None:
    """Reported; the fix sets `name` to the folder's name when that is valid and no container's (set 28: never
    `name: files`, `name: skill`)."""
    path, text = _skill(tmp_path, f"pkg/skills/{folder}", "init-skill")
    (f,) = _findings(path, text)
    assert f.code == "NAME_DIR_MISMATCH" and f"directory name `{folder}`" in f.message
    assert (f.fix is not None) == fixable


@pytest.mark.parametrize("folder", ["pkg/skills/assets", "pkg/skills/payload", "pkg/skills/home"])
def test_container_folder_of_a_package_is_not_a_mismatch(tmp_path: Path, folder: str) -> None:
    """mobile-best-practices ships `assets/SKILL.md` beside package.json; its installer links the folder as
    `.claude/skills/<name>`. The same folder without a package root around it is still a mismatch."""
    path, text = _skill(tmp_path, folder, "mobile-best-practices")
    assert [f.code for f in _findings(path, text)] == ["NAME_DIR_MISMATCH"]
    (tmp_path / "pkg" / "skills" / "package.json").write_text("{}")
    assert _findings(path, text) == []


@pytest.mark.parametrize("folder", ["pkg/payload", "pkg/examples/mood", "repo/src/adapters/claude"])
def test_outside_a_skill_tree_is_no_mismatch(tmp_path: Path, folder: str) -> None:
    """Set 10: `examples/mood/SKILL.md`, `src/adapters/claude/SKILL.md`: folders installers rename, not a
    skills folder whose entries are named after their skills."""
    path, text = _skill(tmp_path, folder, "mood-tracker")
    assert [f.code for f in _findings(path, text)] == []


@pytest.mark.parametrize(("folder", "name", "title"), [
    # set 23: the slug of `古法作业.skill` is `skill`, a container's name: the folder's name, made valid, instead
    ("Hand-crafted-Homework.skill", "古法作业.skill", "Rename to `hand-crafted-homework` (from the folder's name)"),
    ("工具", "JEV结构化决策引擎", None),  # `jev` keeps a third of the name, the folder makes none: no fix
    ("My_Tools", "PDF Tools", "Rename to `pdf-tools`"),  # the name's slug keeps it whole
])
def test_name_format_fix_keeps_the_name_or_offers_none(tmp_path: Path, folder: str, name: str,
                                                       title: str | None) -> None:
    path, text = _skill(tmp_path, folder, name)
    found = [f for f in _findings(path, text) if f.code == "NAME_FORMAT"]
    assert len(found) == 1
    assert (found[0].fix.title if found[0].fix is not None else None) == title


@pytest.mark.parametrize(("folder", "name", "codes"), [
    ("srs-skills/01-initialize-srs", "initialize-srs", []),  # set 26: a number ordering the plugin's folders
    ("srs-skills/01-vision/05-system-overview", "system-overview", []),
    ("srs-skills/01-initialize-srs", "initialize", ["NAME_DIR_MISMATCH"]),  # the rest differs: still reported
    ("srs-skills/v2-initialize-srs", "initialize-srs", ["NAME_DIR_MISMATCH"]),  # no number: still reported
])
def test_an_ordering_number_before_the_name_is_no_mismatch(tmp_path: Path, folder: str, name: str,
                                                           codes: list[str]) -> None:
    path, text = _skill(tmp_path, folder, name)
    assert [f.code for f in _findings(path, text)] == codes


@pytest.mark.parametrize(("folder", "name"), [
    ("vibe-browser/skill", "vibe-browser"),  # set 26: a project's `skill/` folder, named by the project
    ("Tools/PDF_Tools", "pdf-tools"),
    ("skill/assets", "my-skill"),  # containers all the way up: a placeholder, never `skill`
    ("claude-skills/3層モデルルーティングによるコスト最適化", "my-skill"),  # set 31: never `3`, nor the repository's
])
def test_frontmatter_missing_fix_names_the_skill_not_its_container(tmp_path: Path, folder: str, name: str) -> None:
    p = tmp_path / folder / "SKILL.md"
    p.parent.mkdir(parents=True)
    text = "# Vibe browser\n\nDrive the browser.\n"
    (f,) = analyze(text, p, config=Config(select=("FRONTMATTER_MISSING",)), workspace_root=tmp_path).findings
    assert f.fix is not None and f"\nname: {name}\n" in f.fix.edits[0].new_text


@pytest.mark.parametrize(("entry", "message"), [
    ("gap-analysis", None),
    ("acme__gap-analysis", "`name: gap-analysis` does not match the directory name `acme__gap-analysis`"),
])
def test_a_container_below_a_skills_folders_entry_is_compared_with_the_entry(tmp_path: Path, entry: str,
                                                                             message: str | None) -> None:
    """Set 28: a hub keeps each skill's files in `data/skills/<owner>__<slug>/files/`: the entry is the skill's
    folder, never `files` (which was offered as the name)."""
    path, text = _skill(tmp_path, f"data/skills/{entry}/files", "gap-analysis")
    got = _findings(path, text)
    assert [f.message for f in got] == ([message] if message else []) and all(f.fix is None for f in got)


@pytest.mark.parametrize("name,body,bundled,fixable", [
    ("qwen-web-researcher", '```json\n{"entries": {"qwen-web-researcher": {"env": {}}}}\n```\n', {}, False),
    ("kit-audit", "Run the audit.\n", {"agents/openai.yaml": 'default_prompt: "Use $kit-audit"\n'}, False),
    ("pdf", "Run `/pdf` on the file.\n", {}, False),
    ("qwen-web-researcher", "Unlike `qwen-web-researcher-pro`, it reads few sources.\n", {}, True),
    ("pdf", "Fill the pdf form.\n", {}, True),
    ("commit", "Then run `git commit` with the message.\n", {}, True),
    ("seekdb-docs", "Read `seekdb-docs/intro.md` first.\n", {"seekdb-docs/intro.md": "# Intro\n"}, True),
    ("kit-audit", "Run the audit.\n", {"notes.txt": "kit-audit was renamed\n"}, True),
])
def test_no_fix_when_the_skill_uses_its_name(tmp_path: Path, name: str, body: str, bundled: dict[str, str],
                                             fixable: bool) -> None:
    """Set 36 group D (tth37/qwen-skills-pack, zjgulai/skills-library): a new `name` would break the
    configuration key or invocation handle the skill's own files spell with the old one; the folder can be
    renamed instead. Names in prose words, longer names and data files do not count."""
    path, text = _skill(tmp_path, "skills/tool", name)
    text += body
    path.write_text(text)
    for rel, content in bundled.items():
        (path.parent / rel).parent.mkdir(parents=True, exist_ok=True)
        (path.parent / rel).write_text(content)
    (f,) = [f for f in _findings(path, text) if f.code == "NAME_DIR_MISMATCH"]
    assert (f.fix is not None) == fixable
    assert ("rename the folder" in f.message) != fixable


def test_an_import_package_holding_the_skill_is_not_a_mismatch(tmp_path: Path) -> None:
    """set 38q: fengchao's wheel keeps the skill in `fengchao_skill/` (an import package: `__init__.py`, no `-` in its
    name), which its installer copies to `.claude/skills/fengchao-business-memory/`. The same folder without
    `__init__.py`, or an underscore name that could be the folder's, still gets the finding."""
    def codes(folder: str, name: str, package: bool) -> list[str]:
        root = tmp_path / f"{folder}-{name}-{package}"
        path, text = _skill(root, f"skills/{folder}", name)
        if package:
            (path.parent / "__init__.py").write_text("")
        return [f.code for f in _findings(path, text) if f.code == "NAME_DIR_MISMATCH"]

    assert codes("fengchao_skill", "fengchao-business-memory", True) == []
    assert codes("fengchao_skill", "fengchao-business-memory", False) == ["NAME_DIR_MISMATCH"]
    assert codes("memory_pkg", "business_memory", True) == ["NAME_DIR_MISMATCH"]


@pytest.mark.parametrize(("folder", "name", "meta", "codes"), [
    # held-out set 45q: CoPaw's built-ins (qzclaw) are snake_case, keyed by folder
    ("channel_message", "channel_message", "metadata:\n  copaw:\n    emoji: x\n", []),
    ("channel_message", "channel_message", "metadata:\n  qwenpaw:\n    emoji: x\n", []),
    ("cron_task", "cron_task", "metadata:\n  builtin_skill_version: '1.0'\n  sealclaw:\n    emoji: x\n", []),  # a fork
    ("sec_filings", "sec_filings", "", ["NAME_FORMAT"]),  # no CoPaw marker
    ("channel_message", "Channel Message", "metadata:\n  copaw:\n    emoji: x\n", ["NAME_FORMAT"]),  # not its folder
    ("dingtalk_channel", "dingtalk_channel_connect", "metadata:\n  copaw:\n    emoji: x\n", []),  # a label: the folder keys it
])
def test_copaw_snake_case_names(tmp_path: Path, folder: str, name: str, meta: str, codes: list[str]) -> None:
    p = tmp_path / folder / "SKILL.md"
    p.parent.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: Use when testing names.\n{meta}---\n\n# Names\n"
    p.write_text(text)
    assert [f.code for f in _findings(p, text) if f.code == "NAME_FORMAT"] == codes


def test_a_name_written_as_the_folder_path(tmp_path: Path) -> None:
    """set 47b: epost_agent_kit's `.claude/skills/android/accessibility/` holds `name: android/accessibility` (and
    `ios/accessibility` its twin). NAME_FORMAT reports the slash and offers the whole path as one name; the folder's
    name alone would give both one name. NAME_DIR_MISMATCH has nothing to add; another parent folder still differs."""
    path, text = _skill(tmp_path, ".claude/skills/android/accessibility", "android/accessibility")
    found = _findings(path, text)
    assert [f.code for f in found] == ["NAME_FORMAT"], found
    assert found[0].fix is not None and found[0].fix.title == "Rename to `android-accessibility`"
    path, text = _skill(tmp_path, ".claude/skills/web/accessibility", "android/accessibility")
    assert sorted(f.code for f in _findings(path, text)) == ["NAME_DIR_MISMATCH", "NAME_FORMAT"]
