"""render.dumps writes what json.dumps(indent=…) writes, byte for byte (it only writes it faster)."""

from __future__ import annotations

import enum
import json
from pathlib import Path

import pytest

from skillgrade.analyzers import render
from skillgrade.analyzers.report import analyze

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


class Level(enum.IntEnum):
    LOW = 1


SHAPES = [
    {},
    [],
    {"a": {}, "b": [], "c": [{}], "d": [[]]},
    {"s": "plain", "u": "café ✓ 日本 \U0001f600", "ctl": "tab\tnl\nnul\x00 del\x7f quote\" back\\ slash/"},
    {"lone surrogate": "\ud800"},
    {"n": [0, -1, 2**70, 1.0, -0.0, 1e-7, 1e22, 3.141592653589793, 0.1 + 0.2]},
    {"t": True, "f": False, "z": None, "nested": {"deep": [{"x": [1, [2, [3, {}]]]}]}},
    [1, "two", None, [True, {"k": "v"}]],
    "a bare string",
    42,
    None,
    # shapes json.dumps takes that the fast writer hands back to it whole
    {"tuple": (1, 2)},
    {1: "int key"},
    {"nan": float("nan"), "inf": float("inf")},
    {"enum": Level.LOW},
    {"k": 1, None: 2},
]


@pytest.mark.parametrize("obj", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
@pytest.mark.parametrize("indent", [None, 1, 2, 4])
def test_dumps_matches_json(obj: object, indent: int | None) -> None:
    assert render.dumps(obj, indent=indent) == json.dumps(obj, indent=indent)


def test_dumps_matches_json_on_real_reports() -> None:
    skills = sorted(CORPUS.rglob("SKILL.md"))[:40]
    assert len(skills) == 40
    for p in skills:
        rep = analyze(p.read_text("utf-8", errors="replace"), p, workspace_root=CORPUS).to_dict()
        assert render.dumps(rep) == json.dumps(rep, indent=2), p
        doc = json.loads(render.to_json([rep, rep], single=False))
        assert render.to_json([rep, rep], single=False) == json.dumps(doc, indent=2) + "\n"
