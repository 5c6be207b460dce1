"""Golden seeded playthroughs (as OpenSpiel keeps them): a whole match per spec and player count, played by
the heuristic bots from a fixed seed, must replay move for move with the same facts, sheet entries and results.
An intended change of rules or bots regenerates them with `python tools/golden.py` (and the diff is reviewed)."""
from __future__ import annotations

import json
import os

import pytest

from tools.golden import cases, golden_path, playthrough

CASES = cases()


@pytest.mark.parametrize("path,players", CASES, ids=[f"{os.path.basename(p)}-{n}" for p, n in CASES])
def test_golden_playthrough(path, players):
    target = golden_path(path, players)
    assert os.path.exists(target), f"no golden file: run python tools/golden.py ({target})"
    expected = json.load(open(target))
    actual = json.loads(json.dumps(playthrough(path, players)))
    assert actual["history"] == expected["history"]
    assert actual["deals"] == expected["deals"]
    assert actual["results"] == expected["results"]
