"""`skillgrade init` and the reference corpus index (analyzers/corpus_index.py): entries, re-index of changed
entries only, categories, nearest references, bad paths."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrade.analyzers.corpus_index import (
    CorpusIndex,
    CorpusIndexError,
    build_index,
    categorize,
    default_data_dir,
    find_index,
    index_path,
    keyword_bucket,
    load_index,
    nearest,
    query_of,
    save_index,
)
from skillgrade.analyzers.parse import parse

CLI = [sys.executable, "-m", "skillgrade.server.cli"]
SUBSET = ("anthropics-skills/algorithmic-art", "anthropics-skills/canvas-design", "anthropics-skills/mcp-builder",
          "skill-graph/route-handler-design", "skill-graph/server-components-design")


def skill(folder: Path, name: str, description: str, body: str = "# Steps\n\n1. Do it.\n", extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / "SKILL.md"
    f.write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}")
    return f


@pytest.fixture()
def small_corpus(tmp_path: Path, corpus: Path) -> Path:
    dst = tmp_path / "corpus"
    for rel in SUBSET:
        shutil.copytree(corpus / rel, dst / rel)
    return dst


def run(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env={**os.environ, **(env or {})},
                          timeout=120, cwd=cwd)


def test_init_indexes_a_corpus_subset_and_reindexes_changed_entries_only(small_corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    p = run("init", str(small_corpus), "--data-dir", str(data))
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("\n") == 1 and p.stdout.startswith("Indexed 5 reference skill(s) (5 new, 0 changed, "
                                                               "0 unchanged, 0 removed)")
    where = data / "corpus" / "index.json"
    assert str(where) in p.stdout
    index = load_index(where)
    assert index is not None and len(index.entries) == 5
    by_name = {e.name: e for e in index.entries}
    assert set(by_name) == {"algorithmic-art", "canvas-design", "mcp-builder", "route-handler-design",
                            "server-components-design"}
    pdf = by_name["algorithmic-art"]
    raw = (small_corpus / "anthropics-skills/algorithmic-art/SKILL.md").read_bytes()
    assert pdf.size == len(raw) and len(pdf.content_hash) == 64 and pdf.path.endswith("algorithmic-art/SKILL.md")
    assert pdf.category == "design" and pdf.category_source == "keywords"
    assert by_name["route-handler-design"].category == "backend-engineering"
    assert by_name["route-handler-design"].category_source == "metadata.subject"
    assert all(isinstance(e.composite, float) and 0 < e.composite <= 100 for e in index.entries)
    # the composite is the static engine's
    from skillgrade.analyzers.report import analyze_file
    assert pdf.composite == analyze_file(Path(pdf.path), workspace_root=small_corpus).composite.score
    # re-run: nothing re-analysed; then one change and one removal
    p2 = run("init", str(small_corpus), "--data-dir", str(data))
    assert "(0 new, 0 changed, 5 unchanged, 0 removed)" in p2.stdout
    docx = small_corpus / "anthropics-skills/canvas-design/SKILL.md"
    docx.write_text(docx.read_text() + "\nOne more line.\n")
    shutil.rmtree(small_corpus / "anthropics-skills/mcp-builder")
    p3 = run("init", str(small_corpus), "--data-dir", str(data), "--format", "json")
    out = json.loads(p3.stdout)
    assert (out["added"], out["changed"], out["unchanged"], out["removed"], out["entries"]) == (0, 1, 3, 1, 4)
    again = load_index(where)
    assert again is not None
    assert {e.name: e for e in again.entries}["algorithmic-art"] == pdf  # untouched entry kept as it was


def test_reindex_keeps_unchanged_entries_without_analysis(tmp_path: Path):
    root = tmp_path / "c"
    skill(root / "a", "a", "Use when merging PDF files.")
    first, s1 = build_index(root)
    stamped = CorpusIndex([e.__class__(**{**e.to_dict(), "composite": 12.5}) for e in first.entries], first.roots)
    second, s2 = build_index(root, previous=stamped)
    assert (s2.unchanged, s2.added, s2.changed) == (1, 0, 0)
    assert second.entries[0].composite == 12.5  # reused, not recomputed


def test_entries_of_other_corpus_folders_are_kept(tmp_path: Path):
    skill(tmp_path / "one" / "a", "a", "Use when merging PDF files.")
    skill(tmp_path / "two" / "b", "b", "Use when writing SQL queries.")
    idx, _ = build_index(tmp_path / "one")
    idx, stats = build_index(tmp_path / "two", previous=idx)
    assert sorted(e.name for e in idx.entries) == ["a", "b"] and stats.removed == 0
    assert len(idx.roots) == 2


@pytest.mark.parametrize("make, message", [
    (lambda t: t / "missing", "no such folder"),
    (lambda t: skill(t / "x", "x", "Use when x."), "not a folder"),
    (lambda t: (t / "empty").mkdir() or t / "empty", "no SKILL.md found"),
])
def test_bad_corpus_dir_is_one_line_exit_2(tmp_path: Path, make, message):
    target = make(tmp_path)
    with pytest.raises(CorpusIndexError, match=message):
        build_index(target)
    p = run("init", str(target), "--data-dir", str(tmp_path / "data"))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("skillgrade: error:") and message in p.stderr
    assert not (tmp_path / "data" / "corpus" / "index.json").exists()


def test_default_data_dir_follows_xdg(tmp_path: Path):
    assert default_data_dir({"XDG_DATA_HOME": "/x/share"}) == Path("/x/share/skillgrade")
    assert default_data_dir({}) == Path(os.path.expanduser("~")) / ".local" / "share" / "skillgrade"
    assert index_path(Path("/d")) == Path("/d/corpus/index.json")
    p = run("init", str(tmp_path / "nowhere"), env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert p.returncode == 2


def test_init_without_data_dir_writes_to_xdg_data_home(tmp_path: Path):
    skill(tmp_path / "c" / "a", "a", "Use when merging PDF files.")
    assert find_index({"XDG_DATA_HOME": str(tmp_path / "xdg")}) is None
    p = run("init", str(tmp_path / "c"), env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert p.returncode == 0, p.stderr
    assert load_index(tmp_path / "xdg" / "skillgrade" / "corpus" / "index.json") is not None
    found = find_index({"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert found is not None and [e.name for e in found.entries] == ["a"]
    assert find_index({}, tmp_path / "xdg" / "skillgrade") is not None


def test_init_usage_errors():
    p = run("init")
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert "init" in run("--help").stdout


def test_damaged_index_is_an_error_to_load(tmp_path: Path):
    f = tmp_path / "index.json"
    assert load_index(f) is None
    f.write_text("{not json")
    with pytest.raises(CorpusIndexError, match="not JSON"):
        load_index(f)
    f.write_text(json.dumps({"format": 99, "entries": []}))
    with pytest.raises(CorpusIndexError, match="unknown format"):
        load_index(f)


def test_categories():
    assert categorize({"category": "Testing"}, "x", "") == ("testing", "category")
    assert categorize({"metadata": {"category": "Data  Eng"}}, "x", "") == ("data eng", "metadata.category")
    assert categorize({"subject": "design"}, "x", "") == ("design", "subject")
    assert categorize({"tags": ["ops", "ci"]}, "x", "") == ("ops", "tags")
    assert categorize({"metadata": {"tags": '["ml", "ai"]'}}, "x", "") == ("ml", "metadata.tags")
    assert categorize({}, "pdf-tools", "Merge PDF files and fill forms.") == ("documents", "keywords")
    assert keyword_bucket("thing", "nothing matches here") == "general"
    assert keyword_bucket("x", "react api") == "frontend"  # a tie goes to the earlier bucket


def _index(tmp_path: Path, specs) -> CorpusIndex:
    root = tmp_path / "refs"
    for name, desc, body in specs:
        skill(root / name, name, desc, body)
    idx, _ = build_index(root)
    return idx


def test_nearest_same_category_then_overlap_then_size_never_itself(tmp_path: Path):
    specs = [
        ("pdf-merge", "Use when merging PDF files into one document.", "x\n" * 10),
        ("pdf-forms", "Use when filling PDF forms.", "x\n" * 10),
        ("pdf-big", "Use when merging PDF files.", "x\n" * 2000),
        ("pdf-small", "Use when merging PDF files.", "x\n" * 12),
        ("sql-helper", "Use when merging SQL tables in a database.", "x\n" * 10),
    ]
    idx = _index(tmp_path, specs)
    me_text = (tmp_path / "refs" / "pdf-merge" / "SKILL.md").read_text()
    me = query_of(parse(me_text, tmp_path / "elsewhere" / "SKILL.md"))
    assert me.category == "documents"
    got = [e.name for e in nearest(idx, me, k=8)]
    assert "pdf-merge" not in got  # same content hash: the skill itself
    assert got == ["pdf-small", "pdf-big", "pdf-forms", "sql-helper"]
    assert [e.name for e in nearest(idx, me, k=2)] == ["pdf-small", "pdf-big"]
    # same path (edited since init): excluded too
    own = tmp_path / "refs" / "pdf-forms" / "SKILL.md"
    q = query_of(parse(own.read_text() + "\nedited\n", own))
    assert "pdf-forms" not in [e.name for e in nearest(idx, q)]
    # deterministic whatever the index order
    rev = CorpusIndex(list(reversed(idx.entries)), idx.roots)
    assert [e.path for e in nearest(rev, me)] == [e.path for e in nearest(idx, me)]


def test_ratings_anchor_the_corpus_median_at_1500(tmp_path: Path):
    idx = CorpusIndex([])
    from skillgrade.analyzers.corpus_index import CorpusEntry
    for i, c in enumerate((40.0, 60.0, 80.0)):
        idx.entries.append(CorpusEntry(f"/r/{i}", "/r", f"s{i}", "", "general", "keywords", 10, f"h{i}", c))
    r = idx.ratings()
    assert r["/r/1"] == 1500.0 and r["/r/0"] < 1500.0 < r["/r/2"]
    save_index(idx, tmp_path / "i.json")
    loaded = load_index(tmp_path / "i.json")
    assert loaded is not None and loaded.entries == idx.entries


def test_data_dir_from_the_config(tmp_path: Path):
    skill(tmp_path / "c" / "a", "a", "Use when merging PDF files.")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.skillgrade.llm]\ndata-dir = "sg-data"\n')
    xdg = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    p = run("init", str(tmp_path / "c"), cwd=project, env=xdg)
    assert p.returncode == 0, p.stderr
    assert load_index(project / "sg-data" / "corpus" / "index.json") is not None  # relative to the config file
    assert not (tmp_path / "xdg").exists()
    # --data-dir wins over the config
    p = run("init", str(tmp_path / "c"), "--data-dir", str(tmp_path / "cli"), cwd=project, env=xdg)
    assert p.returncode == 0 and load_index(tmp_path / "cli" / "corpus" / "index.json") is not None
    (project / "pyproject.toml").write_text('[tool.skillgrade.llm]\ndata-dir = 3\n')
    p = run("init", str(tmp_path / "c"), cwd=project, env=xdg)
    assert p.returncode == 2 and "data-dir" in p.stderr and p.stderr.count("\n") == 1
