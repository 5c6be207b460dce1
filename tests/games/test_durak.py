"""Durak (games/durak.yaml): in random deals of 2 to 4 players, every bout keeps pagat's limits (six attacking
cards at most, never more unbeaten ones than the defender holds, thrown-in cards of the ranks on the table),
hands are drawn back to six while the stock lasts, the fool is the one player left holding cards, and he deals
the next deal. Worked examples of each rule are tests/scenarios/durak/."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from tests.conftest import game_of

DURAK = "games/durak.yaml"


def zone(st, name, seat=None):
    ids = st.zone_ids[name]
    return st.zones[ids[0] if seat is None else ids[seat]]


@pytest.mark.parametrize("players, transfers", [(2, False), (3, True), (4, False), (4, True)])
def test_random_deals_keep_the_limits_and_the_fool_deals_next(players, transfers):
    game = game_of(DURAK)
    st = engine.new_match(game, players, 11, {"transfers": transfers})
    rng = random.Random(players)
    moved = set()
    for _ in range(4):
        while not st.deal_over:
            if st.phase == 2 and st.ph is not None:  # the bouts
                v = st.vars
                attack, beaten = zone(st, "attack"), zone(st, "beaten")
                assert v["attacks"] <= 6 and len(attack) <= len(zone(st, "hand", v["defender"]))
                assert len(beaten) % 2 == 0
                if not attack and not beaten and len(zone(st, "stock")) > 0:
                    assert all(len(zone(st, "hand", s)) >= 6 for s in st.active)  # drawn back to six
            move = rng.choice(engine.legal_moves(st))
            moved.add(move.value[0])
            if move.value[0] == "throw":
                ranks = {game.deck.rank_name[c] for c in zone(st, "attack") + zone(st, "beaten")}
                assert game.deck.rank_name[move.value[1]] in ranks
            engine.apply(st, move)
        record = st.deals[-1]
        holding = [s for s in st.active if zone(st, "hand", s)]
        assert len(holding) <= 1
        loser = None if record["facts"]["drawn"] else record["facts"]["loser"]
        assert loser == (holding[0] if holding else None)
        if st.match_over:
            break
        engine.next_deal(st)
        assert st.dealer == (loser if loser is not None else (record["dealer"] + 1) % players)
    assert ("transfer" in moved) == transfers


def test_the_first_attacker_holds_the_lowest_trump():
    game = game_of(DURAK)
    for seed in range(20):
        st = engine.new_match(game, 3, seed)
        trump = st.vars["trump"]
        held = {s: [game.deck.rank_of[c] for c in zone(st, "hand", s) if game.deck.suit_of[c] == trump]
                for s in st.active}
        if any(held.values()):
            lowest = min((min(r), s) for s, r in held.items() if r)[1]
            assert engine.to_move(st) == st.vars["attacker"] == lowest


def test_the_screen_shows_the_trump_under_the_stock_the_roles_and_the_cards_to_beat(tmp_path):
    from tests.table.test_play import screen
    _, text, code = screen(DURAK, ["1", "1"], tmp_path, n=2, seed=3)
    assert code == 0
    assert "South: trumps: ♠ (the bottom card of the stock)" in text
    assert "trumps ♠ · attacker South · defender West" in text and "(24 cards, top last): … K♠" in text
    assert "moves: [1] attack with Q♥" in text and "West: beat Q♥ with A♥" in text
    assert "throw in, or done (South attacks West; trumps ♠)" in text and "[3] done" in text
    assert "taking yes" in text and "to beat: ♠ A" in text


def test_typed_deals_pass_the_deal_to_the_fool_or_left_after_a_draw():
    """tests/score_inputs/durak.yaml, worked there: dealers South, West (the fool), North (West's left: drawn)."""
    import os

    from interp.spec.loader import load_spec
    from interp.table.scorekeeper import score_deals
    from tests.conftest import ROOT
    doc = load_spec(os.path.join(ROOT, "tests", "score_inputs", "durak.yaml"))
    st = score_deals(game_of(DURAK), doc.data, doc)
    assert [d["dealer"] for d in st.deals] == [0, 1, 2]
    assert st.sheet["losses"] == [0, 2, 0] and engine.results(st) == [2, -4, 2]
