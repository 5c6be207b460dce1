"""Hearts (games/hearts.yaml): the pass rotates left, right, across, none; the passes move together; the match
ends at 100 and the lowest total wins. The scoring rules' worked examples are tests/scenarios/hearts/."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from tests.conftest import game_of

HEARTS = "games/hearts.yaml"


def play_to_phase(st, phase_id, rng):
    while not st.deal_over and engine.current_phase(st).id != phase_id:
        engine.apply(st, rng.choice(engine.legal_moves(st)))


@pytest.mark.parametrize("deal,offset", [(1, 1), (2, 3), (3, 2), (4, 0), (5, 1)])
def test_the_pass_goes_left_right_across_then_none(deal, offset):
    game = game_of(HEARTS)
    st = engine.new_match(game, 4, 11)
    rng = random.Random(0)
    for _ in range(deal - 1):
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        engine.next_deal(st)
    before = {s: set(st.zones[game.zone_id("hand", s, 4)]) for s in range(4)}
    if offset == 0:
        assert engine.current_phase(st).id == "play"  # no pass on the 4th deal
        return
    passed = {}
    while engine.current_phase(st).id == "pass":
        seat = engine.to_move(st)
        move = rng.choice(engine.legal_moves(st))
        passed.setdefault(seat, set()).add(move.value)
        engine.apply(st, move)
    assert engine.current_phase(st).id == "play"
    for s in range(4):
        giver = (s - offset) % 4
        assert set(st.zones[game.zone_id("hand", s, 4)]) == (before[s] - passed[s]) | passed[giver]


def test_the_match_ends_at_100_and_the_lowest_total_leads():
    game = game_of(HEARTS)
    st = engine.new_match(game, 4, 5)
    rng = random.Random(5)
    while not st.match_over:
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        if not st.match_over:
            engine.next_deal(st)
    scores = st.sheet["score"]
    assert max(scores) >= 100 and all(sum(d["entries"]["score"].values()) in (26, 78) for d in st.deals)
    results = engine.results(st)
    assert results == [min(scores) - x for x in scores] and max(results) == 0
