"""Scopa (games/scopa.yaml): every card ends in somebody's taken pile; sweeps with the last card of a deal are no
scopa; the match runs to 11. Worked scoring examples are tests/scenarios/scopa/."""
from __future__ import annotations

import random

from interp.engine import match as engine
from tests.conftest import game_of


def test_random_matches_account_for_every_card_and_score_at_most_the_points_there_are():
    game = game_of("games/scopa.yaml")
    for seed in range(2):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while True:
            while not st.deal_over:
                engine.apply(st, rng.choice(engine.legal_moves(st)))
            facts = st.deals[-1]["facts"]
            assert sum(facts["cards"]) == 40 and sum(facts["coins"]) == 10 and facts["settebello"] is not None
            assert len(st.zones[game.zone_id("table", None, 2)]) == 0
            # cards, coins, settebello, primiera: at most 4 points, plus the sweeps
            assert sum(st.deals[-1]["entries"].get("score", {}).values()) <= 4 + sum(facts["scope"])
            if st.match_over:
                break
            engine.next_deal(st)
        assert max(st.sheet["score"]) >= 11 and st.sheet["score"][0] != st.sheet["score"][1]


def test_the_last_card_of_a_deal_makes_no_scopa():
    game = game_of("games/scopa.yaml")
    swept_last = 0
    for seed in range(40):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            last = len(st.zones[game.zone_id("stock", None, 2)]) == 0 and \
                sum(len(st.zones[game.zone_id("hand", s, 2)]) for s in range(2)) == 1
            before = list(st.vars["scope"]) if last else None
            move = rng.choice(engine.legal_moves(st))
            table = len(st.zones[game.zone_id("table", None, 2)])
            engine.apply(st, move)
            if last:
                assert st.vars["scope"] == before
                swept_last += move.value[0] == "take" and len(move.value[2]) == table
    assert swept_last > 0  # the case arose
