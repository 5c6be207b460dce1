"""Gin Rummy (games/gin-rummy.yaml) on the `turns` phase and the meld built-ins: the stacked scenarios worked by
hand from pagat's rules (tests/scenarios/gin-rummy/), the hand cancelled when the stock runs down to two cards,
and random playouts whose knocks respect the knock limit and whose cards are all accounted for."""
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

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "gin-rummy", "*.yaml")))
GIN = Scenarios("gin-rummy")


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario_expectations_hold(path):
    assert run_scenario(path)["mismatches"] == []


def test_the_log_shows_the_melds_the_lay_offs_and_the_deadwood():
    events = "\n".join(GIN.play("knock")["events"])
    assert "South: knocks: 7♠ 7♦ 7♣, 5♥ 4♥ 3♥, J♣ 10♣ 9♣; deadwood A♠ = 1" in events
    assert "North: lays off 2♥ 6♥ 8♣ Q♣" in events
    assert "North: melds K♠ K♥ K♣; deadwood 5♠ 4♦ 9♦ = 18" in events


def test_the_upcard_is_offered_to_the_dealer_after_the_non_dealer_passes(tmp_path):
    result = GIN.play_with(tmp_path, "first-turn", moves=["pass"], expect={"to_move": "North", "legal": [
        "pass", "take KD"]})
    assert result["mismatches"] == []


def test_a_discard_leaving_two_cards_in_the_stock_cancels_the_hand(tmp_path):
    # the stock holds three cards: South draws the A♠ and discards without knocking: no score, a void hand
    result = GIN.play_with(tmp_path, "knock", moves=["pass", "pass", "draw", "discard AS"], expect=None)
    assert result["finished"] and result["redeal"] and result["entries"] == {}


def test_random_hands_knock_within_the_limit_and_keep_every_card():
    game = game_of("games/gin-rummy.yaml")
    knocks = 0
    for seed in range(6):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            moves = engine.legal_moves(st)
            knock = [m for m in moves if m.value[0] == "knock"]  # random play, but knocking when it may
            engine.apply(st, rng.choice(knock or moves))
        assert sum(len(z) for z in st.zones) == 52
        facts = st.deals[-1].get("facts")
        if facts and facts["knocker"] is not None:
            knocks += 1
            assert facts["dead"][facts["knocker"]] <= 10
    assert knocks > 0


def test_the_screen_shows_the_persons_melds_and_the_knock(tmp_path):
    """Seed 3, the person South typing the first listed move: after drawing 4♣ he sees his run 6-5-4♣; North
    later knocks with 2♥ 2♦ 2♣, 3♥ 3♦ 3♣, 7-6-5♦ and 4♥ (4); South lays off 4♦ below the 5♦ and keeps A♠ 5♥ Q♥
    10♦ 8♣ K♣ (deadwood is listed in deck order): 1 + 5 + 10 + 10 + 8 + 10 = 44; North scores 44 − 4 = 40."""
    _, text, _ = screen("games/gin-rummy.yaml", ["1"] * 40, tmp_path, n=2, seed=3)
    assert "your melds: 6♣ 5♣ 4♣\nyour deadwood: A♠ 2♥ 3♥ 5♥ 4♦ 10♦ 8♣ Q♣ = 43" in text
    assert "North: knocks: 2♥ 2♦ 2♣, 3♥ 3♦ 3♣, 7♦ 6♦ 5♦; deadwood 4♥ = 4\nSouth: lays off 4♦" in text
    assert "South: melds 6♣ 5♣ 4♣; deadwood A♠ 5♥ Q♥ 10♦ 8♣ K♣ = 44" in text and "North: points +40" in text
