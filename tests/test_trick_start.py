"""The `tricks` event a trick phase logs when it starts is built once per trump and set of escape cards and then
shared by every deal (as the `play` and `trick` events are): each start must still log the event it would have
made itself, naming that deal's trump and escape cards."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.engine.state import Event
from .conftest import game_of


def made(phase, st) -> Event:
    """The event a start makes from the phase's progress, written out plainly."""
    return Event("tricks", None, tuple(st.ph["escape"]), st.ph["trump"], phase=phase.id)


@pytest.mark.parametrize("path,players,deals,trumps", [("games/preferans.yaml", 3, 60, 4),
                                                       ("games/tarot.yaml", 4, 8, 1)])
def test_each_start_logs_the_trump_and_escape_cards_of_its_deal(path, players, deals, trumps):
    """Preferans: the trump is the contract's suit, none in no-trump contracts and all-pass deals (seed:
    contracts by suit); Tarot: the trumps are always T and the Excuse is an escape card (rules digest)."""
    game = game_of(path)
    seen = set()
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        started = None
        while not st.deal_over:
            phase = engine.current_phase(st)
            if phase.type_name == "tricks" and started is not phase:
                started = phase
                logged = [e for e in st.events if e.kind == "tricks"][-1]
                assert logged == made(phase, st) and type(logged) is Event, (path, seed)
                seen.add(logged.value)
                if path.endswith("tarot.yaml"):
                    assert logged.value == "T" and logged.cards == (game.deck.parse("EX"),)
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    assert len(seen) >= trumps  # Preferans: several suits and none


def test_a_start_with_other_escape_cards_logs_them():
    """Tarot, petit sec played on (rules digest): the Petit is an escape card beside the Excuse. Starting the trick
    phase again with and without that flag logs each time the cards it marks, though the trump is the same."""
    game = game_of("games/tarot.yaml")
    st = engine.new_match(game, 4, 5)
    rng = random.Random(5)
    while engine.current_phase(st).type_name != "tricks":
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    phase = engine.current_phase(st)
    excuse, petit = game.deck.parse("EX"), game.deck.parse("T1")
    for flag, cards in [(True, (petit, excuse)), (False, (excuse,)), (True, (petit, excuse))]:
        st.vars["petit_escape"] = flag
        phase.start(st)
        assert st.events[-1] == made(phase, st)
        assert sorted(st.events[-1].cards) == sorted(cards) and st.events[-1].value == "T"
