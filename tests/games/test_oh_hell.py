"""Oh Hell (games/oh-hell.yaml): hand sizes go up one a deal to the largest and back down to one; a card is
turned up for trumps; the bids never add up to the tricks (the dealer's hook). Worked scoring examples are
tests/scenarios/oh-hell/."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from tests.conftest import game_of


@pytest.mark.parametrize("players,sizes", [
    (3, list(range(1, 11)) + list(range(9, 0, -1))),   # 10 is the largest (51 / 3 = 17)
    (7, list(range(1, 8)) + list(range(6, 0, -1))),    # 51 / 7 = 7
])
def test_hands_grow_to_the_largest_and_shrink_back_and_the_bids_never_add_up(players, sizes):
    game = game_of("games/oh-hell.yaml")
    st = engine.new_match(game, players, 3)
    rng = random.Random(3)
    seen = []
    while True:
        hand = game.zone_id("hand", st.active[0], players)
        seen.append(len(st.zones[hand]))
        assert len(st.zones[game.zone_id("turnup", None, players)]) == 1
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        facts = st.deals[-1]["facts"]
        assert sum(facts["bid"]) != seen[-1]          # the hook
        assert sum(facts["tricks"]) == seen[-1]
        if st.match_over:
            break
        engine.next_deal(st)
    assert seen == sizes
