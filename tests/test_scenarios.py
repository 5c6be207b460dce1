"""Every scenario file in tests/scenarios/ is a test by itself: `interp run` replays it and its `expect:` holds.

The numbers in each `expect:` are those the file's header works out by hand from the rules (and seed passage) it
names; a scenario without `expect:` is an error here, so no file can drift into merely running.
"""
from __future__ import annotations

import glob
import os

import pytest

from interpreter.scenario import run_scenario

from .conftest import ROOT

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "**", "*.yaml"), recursive=True))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.relpath(p, os.path.join(ROOT, "tests", "scenarios")))
def test_scenario_meets_its_expectations(path):
    result = run_scenario(path)
    assert "mismatches" in result, "the scenario has no expect: block"
    assert result["mismatches"] == [], "\n".join(result["mismatches"])


def test_every_game_family_has_scenarios():
    folders = {os.path.basename(os.path.dirname(p)) for p in SCENARIOS}
    assert {"tarot", "preferans", "piquet", "mitten"} <= folders
