"""tools/bench_openspiel.py plays the same game on both sides: OpenSpiel set to the spec's rules asks the same
decisions per deal as interp (Hearts: 12 cards passed and 52 played; Oh Hell's 10-card deal: 4 bids and 40
cards), and the figures it prints are the medians of its rounds."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'")

from tools import bench_openspiel  # noqa: E402


def test_both_sides_make_the_same_decisions_per_deal():
    results = bench_openspiel.measure(rounds=1, seconds=0.02, report=lambda line: None)
    hearts, oh_hell = results["hearts"]["summary"], results["oh-hell"]["summary"]
    assert hearts["interp_decisions_per_deal"]["median"] == hearts["openspiel_decisions_per_deal"]["median"] == 64
    assert oh_hell["interp_decisions_per_deal"]["median"] == oh_hell["openspiel_decisions_per_deal"]["median"] == 44


def test_the_outcomes_driver_plays_the_same_deals_out():
    results = bench_openspiel.measure(rounds=1, seconds=0.02, report=lambda line: None, chance="outcomes")
    assert results["hearts"]["summary"]["openspiel_decisions_per_deal"]["median"] == 64
    assert results["oh-hell"]["openspiel"]["chance"] == "outcomes"
