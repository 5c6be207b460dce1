"""Random playouts of every spec in games/, for every player count it allows, checking invariants.

- every card of the deck is in exactly one place (a zone, or a trick in play) at every step;
- a legal move exists whenever the deal is not over, and the seat to move is a real seat;
- every deal ends; seeded playouts are reproducible; whole matches end;
- where the spec declares `zero_sum`, the results sum to zero up to the rounding (at most one unit per seat).
"""
from __future__ import annotations

import random

import pytest

from interp.bots.agents import HeuristicAgent
from interp.engine import match as engine
from interp.engine.state import state_from_json
from interp.runs.simulate import play_deal

from .conftest import SPECS, game_of

CASES = [(path, n) for path in SPECS for n in game_of(path).players]
MAX_MOVES = 5000


def check_census(st) -> None:
    cards = engine.card_census(st)
    assert sorted(cards) == list(range(len(st.game.deck))), "a card is missing or in two places"


def random_deal(st, rng: random.Random) -> int:
    moves_made = 0
    while not st.deal_over:
        check_census(st)
        moves = engine.legal_moves(st)
        assert moves, f"no legal move in phase {engine.current_phase(st).id}"
        assert engine.to_move(st) in range(st.n)
        engine.apply(st, rng.choice(moves))
        moves_made += 1
        assert moves_made < MAX_MOVES, "the deal never ends"
    check_census(st)
    return moves_made


@pytest.mark.parametrize("path,n", CASES)
def test_random_deals_keep_every_card_and_always_offer_a_move(path, n):
    game = game_of(path)
    for seed in range(12):
        st = engine.new_match(game, n, seed)
        random_deal(st, random.Random(seed))


@pytest.mark.parametrize("path,n", CASES)
def test_seeded_playout_is_reproducible(path, n):
    game = game_of(path)
    logs = []
    for _ in range(2):
        st = engine.new_match(game, n, 99)
        random_deal(st, random.Random(5))
        logs.append((st.history, st.to_json()))
    assert logs[0] == logs[1]


@pytest.mark.parametrize("path,n", CASES)
def test_bot_matches_end_and_balance(path, n):
    game = game_of(path)
    for seed in range(2):
        st = engine.new_match(game, n, seed)
        agents = {s: HeuristicAgent(seed + s) for s in range(n)}
        for _ in range(400):
            play_deal(st, agents)
            if game.value_range is not None:
                low, high = game.value_range
                assert all(low <= v <= high for v in engine.deal_values(st)), engine.deal_values(st)
            if st.match_over:
                break
            engine.next_deal(st)
        assert st.match_over or game.match_end is None, "the match did not end in 400 deals"
        if game.zero_sum:
            assert abs(sum(engine.results(st))) <= n, engine.results(st)


@pytest.mark.parametrize("path,n", CASES)
def test_json_snapshot_round_trips_mid_deal(path, n):
    """A state saved to JSON in the middle of a deal reads back equal, and plays on identically."""
    game = game_of(path)
    st = engine.new_match(game, n, 6)
    rng = random.Random(6)
    for _ in range(9):
        if st.deal_over:
            break
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    again = state_from_json(game, st.to_json())
    assert again.to_json() == st.to_json()
    if not st.deal_over:
        move = engine.legal_moves(st)[0]
        engine.apply(st, move)
        engine.apply(again, move)
        assert again.to_json() == st.to_json()
