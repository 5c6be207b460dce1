"""Contract Bridge (games/bridge.yaml): the dummy's hand is hidden until the opening lead and then shown to all,
the declarer makes the dummy's plays, vulnerability follows the board number, and an auction in progress saves
and resumes. The scoring table's worked examples are tests/scenarios/bridge/."""
from __future__ import annotations

import random

import pytest

from interp.dsl.compile import compile_expr
from interp.engine import match as engine
from interp.engine.state import State, state_from_json
from interp.spec.compiler import load_game

BRIDGE = "games/bridge.yaml"


def to_play(seed: int) -> State:
    """A seeded deal, bid by random calls until the play starts (deals passed out are skipped)."""
    game = load_game(BRIDGE)
    rng = random.Random(seed)
    while True:
        st = engine.new_match(game, 4, seed)
        while not st.deal_over and engine.current_phase(st).id == "auction":
            moves = engine.legal_moves(st)
            engine.apply(st, moves[0] if rng.random() < 0.6 else rng.choice(moves))
        if not st.deal_over:
            return st
        seed += 100


def hand(st: State, seat: int) -> int:
    return st.game.zone_id("hand", seat, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_dummy_is_hidden_until_the_opening_lead_then_shown_to_all_and_played_by_the_declarer(seed):
    st = to_play(seed)
    declarer = st.vars["declarer"]
    dummy = (declarer + 2) % 4
    leader = (declarer + 1) % 4
    assert engine.to_move(st) == leader
    for seat in (declarer, leader, (declarer + 3) % 4):
        assert st.view(seat).zones[hand(st, dummy)] == []  # nobody sees the dummy before the lead
    engine.apply(st, engine.legal_moves(st)[0])  # the opening lead
    assert engine.actor(st) == dummy and engine.to_move(st) == declarer  # the dummy's card, chosen by the declarer
    for seat in range(4):
        assert sorted(st.view(seat).zones[hand(st, dummy)]) == sorted(st.zones[hand(st, dummy)])
    assert st.view(dummy).zones[hand(st, declarer)] == []  # the dummy does not see the declarer's hand
    for seat in (leader, (declarer + 3) % 4):  # nor do the defenders see each other's
        assert st.view(seat).zones[hand(st, (seat + 2) % 4)] == []


def test_vulnerability_follows_the_board_number_as_law_2_lists_it():
    game = load_game(BRIDGE)
    st = engine.new_match(game, 4, 5)
    expected = ["none", "NS", "EW", "both", "NS", "EW", "both", "none", "EW", "both", "none", "NS", "both", "none",
                "NS", "EW", "none"]
    seen = []
    vul = compile_expr("board_vulnerability", game.scope, "str")[0]
    for board in range(1, 18):
        st.deal_no = board
        seen.append(vul(st))
    assert seen == expected


def test_an_auction_in_progress_saves_and_resumes_with_its_doubles():
    game = load_game(BRIDGE)
    st = engine.new_match(game, 4, 9)
    for call in ("1H", "double", "redouble", "pass"):
        engine.apply(st, next(m for m in engine.legal_moves(st) if engine.notation(st, m) == call))
    again = state_from_json(game, st.to_json())
    assert dict(again.ph) == dict(st.ph) and again.ph.doubled == 2 and again.ph.run == 1
    assert engine.legal_moves(again) == engine.legal_moves(st)
