"""A deal whose counts are all numbers, or expressions of nothing but game constants (Tarot's `repeat` and chien
size read only `n_players`), remembers its packets by the player count, the receivers and the cards there are; what
a seed deals is the same as when they are worked out at every deal."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.spec.compiler import load_game

from tests.conftest import game_of


def _deal_phase(game):
    return next(p for p in game.phases if p.type_name == "deal")


def _dealt(game, players: int, seeds) -> list:
    """Every zone's cards right after the deal and the moves of a random deal played on, for each seed."""
    out = []
    for seed in seeds:
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        dealt = [list(z) for z in st.zones]
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        out.append((dealt, st.history, [list(z) for z in st.zones]))
    return out


@pytest.mark.parametrize("path, players", [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4),
                                           ("games/belote.yaml", 4), ("games/mitten.yaml", 2),
                                           ("games/tarot.yaml", 4), ("games/tarot-3.yaml", 3),
                                           ("games/tarot-5.yaml", 5)])
def test_remembered_packets_deal_what_worked_out_packets_deal(path, players):
    game = game_of(path)
    phase = _deal_phase(game)
    assert phase.memo is not None
    remembered = _dealt(game, players, range(30))
    assert phase.memo  # the packets were remembered
    fresh = load_game(path)
    for deal in (p for p in fresh.phases if p.type_name == "deal"):
        deal.memo = None  # worked out at every deal
    assert remembered == _dealt(fresh, players, range(30))


@pytest.mark.parametrize("path", ["games/oh-hell.yaml", "games/piquet.yaml"])
def test_packets_with_a_count_reading_the_deal_or_an_option_are_not_remembered(path):
    assert _deal_phase(game_of(path)).memo is None
