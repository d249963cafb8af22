"""The on-disk result cache (analyzers.batch.ResultCache): stat memo, invalidation, pruning."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillgrade.analyzers import batch


def test_pruning_keeps_this_runs_results_and_the_newest_others(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(batch, "KEEP_UNUSED", 1)
    c = batch.ResultCache(str(tmp_path), "fp")
    for k in "abcde":
        c.put(k, {"k": k}, {})
    c.save()
    c = batch.ResultCache(str(tmp_path), "fp")
    assert sorted(c.results) == list("abcde")  # all were used by the run that wrote them
    assert c.get("a") == {"k": "a"} and c.get("c") == {"k": "c"}
    c.put("f", {"k": "f"}, {})
    c.save()
    kept = batch.ResultCache(str(tmp_path), "fp").results
    assert sorted(kept) == ["a", "c", "e", "f"]  # used (a, c, f) + the newest unused (e)


def test_external_paths_invalidate(tmp_path: Path) -> None:
    c = batch.ResultCache(str(tmp_path), "fp")
    target = tmp_path / "sibling" / "SKILL.md"
    c.put("k", {"r": 1}, {str(target): False})
    assert c.get("k") == {"r": 1}
    target.parent.mkdir()
    target.write_text("x")
    assert c.get("k") is None


def test_recent_files_are_not_trusted_by_stat(tmp_path: Path) -> None:
    f = tmp_path / "SKILL.md"
    f.write_text("---\nname: x\n---\n")
    c = batch.ResultCache(str(tmp_path), "fp")
    c.record_file(str(f), os.stat(f), ("digest", ("x", (1, 6, 7))))
    assert c.known_file(str(f), os.stat(f)) is None  # written just now: racy, not recorded
    old = os.stat(f).st_mtime_ns - 10_000_000_000
    os.utime(f, ns=(old, old))
    assert c.known_file(str(f), os.stat(f)) is None  # ctime is still fresh


@pytest.mark.parametrize("garbage", [b"", b"\x00\x01garbage", b"\xe3" * 100])
def test_a_corrupt_cache_file_is_ignored(tmp_path: Path, garbage: bytes) -> None:
    (tmp_path / "results-fp.bin").write_bytes(garbage)
    c = batch.ResultCache(str(tmp_path), "fp")
    assert c.results == {} and c.files == {}
    c.put("k", {"r": 1}, {})
    c.save()
    assert batch.ResultCache(str(tmp_path), "fp").get("k") == {"r": 1}


def test_json_texts_are_a_separate_file_read_only_for_json(tmp_path: Path) -> None:
    c = batch.ResultCache(str(tmp_path), "fp")
    c.put("k", {"r": 1.5}, {})
    c.save()
    assert not (tmp_path / "results-fp.json-texts.bin").exists()  # a text run never writes texts
    c = batch.ResultCache(str(tmp_path), "fp")
    assert c.get("k") == {"r": 1.5}
    assert c.json_text("k", {"r": 1.5}) == '{"r":1.5}'
    c.save()
    assert (tmp_path / "results-fp.json-texts.bin").exists()
    c = batch.ResultCache(str(tmp_path), "fp")
    c.get("k")
    assert c.json_text("k", {"ignored": True}) == '{"r":1.5}'  # read back, not re-encoded
    assert not c.texts_dirty
