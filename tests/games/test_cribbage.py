"""Cribbage (games/cribbage.yaml) on `turns` phases and the counting built-ins: the stacked scenarios worked by
hand from pagat's rules (tests/scenarios/cribbage/: the 29 hand, pegging, a double run), the game ending as soon
as a player reaches the target in the play, and random deals whose count never passes 31."""
from __future__ import annotations

import glob
import os
import random

import pytest

from interp.engine import match as engine
from interp.runs.scenario import run_scenario
from tests.conftest import ROOT, game_of
from tests.scenario_helpers import Scenarios
from tests.table.test_play import screen

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "cribbage", "*.yaml")))
CRIB = Scenarios("cribbage")


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario_expectations_hold(path):
    assert run_scenario(path)["mismatches"] == []


def test_the_log_tells_the_count_and_the_pegs():
    events = CRIB.play("play")["events"]
    assert "South: play 6♦ — 21: pegs 3" in events and "North: one for the go" in events
    # the 29 hand's eight fifteens: the jack with each five, and each three of the four fives
    assert "South: shows J♠ 5♥ 5♣ 5♦ with 5♠: 29 (fifteens: J♠ 5♥, J♠ 5♣, J♠ 5♦, J♠ 5♠, 5♥ 5♣ 5♦, 5♥ 5♣ 5♠, " \
           "5♥ 5♦ 5♠, 5♣ 5♦ 5♠)" in CRIB.play("show-29")["events"]


def test_a_player_reaching_the_target_in_the_play_ends_the_game_before_the_show(tmp_path):
    # play.yaml with a target of 5: North's run of four (15 for 2, then 4) brings him to 6 at his second card
    moves = CRIB.data("play")["moves"][:6]
    result = CRIB.play_with(tmp_path, "play", moves=moves, options={"target": 5}, expect={
        "match_over": True, "facts": {"pts": {"South": 3, "North": 6}}})
    assert result["mismatches"] == []
    assert not any("shows" in e for e in result["events"])


def test_random_deals_keep_the_count_within_31_and_every_card():
    game = game_of("games/cribbage.yaml")
    for seed in range(4):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
            assert 0 <= st.vars["count"] <= 31
        assert sum(len(z) for z in st.zones) == 52
        played = [len(st.zones[game.zone_id("played", s, 2)]) for s in range(2)]
        assert played == [4, 4] and len(st.zones[game.zone_id("crib", None, 2)]) == 4


def test_the_screen_shows_the_count_and_what_each_pegged(tmp_path):
    """Seed 3, the person South typing the first listed move. North leads 4♥, South 2♥, North 3♦: 9, a run of
    three (4-2-3), 3. At the show North's 4♥ 3♦ 2♦ 2♣ with 10♣: fifteens 10+3+2 twice (4), the pair of twos (2),
    the run 2-3-4 twice (6): 12."""
    _, text, _ = screen("games/cribbage.yaml", ["1"] * 4, tmp_path, n=2, seed=3)
    assert "North: play 3♦ — 9: pegs 3" in text
    assert "count 9: 4♥ 2♥ 3♦\npegged this deal: you 0, North 3; game: you 0, North 0" in text
    assert "South's played: ♥ 2\n" in text  # his own played cards: no "(you play it)"
    assert "North: shows 4♥ 3♦ 2♦ 2♣ with 10♣: 12" in text
