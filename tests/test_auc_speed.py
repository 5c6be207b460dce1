"""The lean paths of a bid, a discard and a choice keep every behaviour of the general one.

`engine.apply` makes a move through one phase hook, `Phase.play`: the base hook asks the phase's `actor`,
`notation`, `apply` and `done` in turn; the auction, discard and choose phases override it with one body that
logs the move and makes it. At every move of seeded random deals, a twin state is moved on through the base hook
(`general_apply` of test_card_speed, the engine's steps written out) and must match the engine's: the same move log
(`[deal_no, seat, notation]` entries, what saves and replays read), the same events, the same state as JSON, the
same save digest."""
from __future__ import annotations

import collections
import random

import pytest

from interp.engine import match as engine
from interp.engine.phases.auction import AuctionPhase
from interp.engine.phases.base import Phase
from interp.engine.phases.choose import ChoosePhase
from interp.engine.phases.discard import DiscardPhase
from interp.runs.replay import position
from tests.conftest import game_of
from tests.engine.test_phases import general_apply  # the engine's steps with the base `Phase.play` for every phase

LEAN = (AuctionPhase, DiscardPhase, ChoosePhase)
ALL_VARIANTS = {"misere_without_talon": True, "jump_bids": True}
GAMES = [("games/preferans.yaml", 3, 12, None), ("games/preferans.yaml", 3, 12, ALL_VARIANTS),
         ("games/preferans-4.yaml", 4, 6, None), ("games/tarot.yaml", 4, 6, None), ("games/tarot-5.yaml", 5, 4, None),
         ("games/piquet.yaml", 2, 4, None), ("games/hearts.yaml", 4, 2, None), ("games/belote.yaml", 4, 4, None)]


def play_twins(path: str, players: int, deals: int, options: dict | None, kinds: collections.Counter) -> None:
    """Play `deals` seeded random deals through the engine and a twin through `general_apply`, comparing them
    after every move of a lean phase (and counting (phase type, move kind) in `kinds`)."""
    game = game_of(path)
    for seed in range(deals):
        st = engine.new_match(game, players, seed, options)
        twin = st.copy()
        rng = random.Random(seed)
        while not st.deal_over:
            phase, seat, moves = engine.current_phase(st), engine.actor(st), engine.legal_moves(st)
            assert engine.legal_moves(twin) == moves
            move = rng.choice(moves)
            engine.apply(st, move, check=seed % 2 == 0)
            assert game.stretch.token is None  # `advance` leaves no stretch of `when` checks open
            general_apply(twin, move)
            if not isinstance(phase, LEAN):
                continue
            kinds[type(phase).__name__, move.kind] += 1
            where = (path, seed, len(st.history))
            assert st.history[-1] == [st.deal_no, seat, phase.notation(twin, move)], where
            assert st.history == twin.history, where
            assert st.events == twin.events, where
            assert st.to_json() == twin.to_json(), where
            assert position(st) == position(twin), where


@pytest.mark.parametrize("path,players,deals,options", GAMES)
def test_the_lean_bid_discard_and_choice_leave_the_state_the_general_one_does(path, players, deals, options):
    kinds: collections.Counter = collections.Counter()
    play_twins(path, players, deals, options, kinds)
    assert kinds  # every game here bids, discards or chooses


def test_every_kind_of_call_discard_and_choice_is_compared():
    """Over the games above, every kind of lean move is made at least once: a pass, a bid and a hold; a card
    discarded and `done`; an option and an element chosen."""
    kinds: collections.Counter = collections.Counter()
    for path, players, deals, options in GAMES:
        if path in ("games/preferans.yaml", "games/piquet.yaml", "games/tarot-5.yaml"):
            play_twins(path, players, deals, options, kinds)
    for kind in (("AuctionPhase", "pass"), ("AuctionPhase", "bid"), ("AuctionPhase", "hold"),
                 ("DiscardPhase", "card"), ("DiscardPhase", "option"), ("ChoosePhase", "option"),
                 ("ChoosePhase", "choice")):
        assert kinds[kind] > 0, kind


def test_the_bid_discard_and_choose_phases_take_a_lean_path_of_their_own():
    for cls in LEAN:
        assert cls.play is not Phase.play and cls.apply is not Phase.apply


def test_a_call_logs_its_seat_and_name():
    """Worked example: Preferans seed 0, 3 players: the first bidder is the seat after the dealer (seat 1, the
    dealer being seat 0); bidding the ladder's first rung logs `[1, 1, "6S"]`, a pass `[1, 2, "pass"]`."""
    game = game_of("games/preferans.yaml")
    st = engine.new_match(game, 3, 0, dealer=0)
    assert isinstance(engine.current_phase(st), AuctionPhase) and engine.actor(st) == 1
    engine.apply(st, engine.legal_moves(st)[1])  # pass first, then the bids in ladder order
    engine.apply(st, engine.legal_moves(st)[0])
    assert st.history[-2:] == [[1, 1, "6S"], [1, 2, "pass"]]


def test_phase_apply_still_makes_a_call_without_logging_it():
    """`Phase.apply` keeps working for callers other than the engine: it makes the call, the log is the caller's."""
    game = game_of("games/preferans.yaml")
    st = engine.new_match(game, 3, 4)
    twin = st.copy()
    move = engine.legal_moves(st)[1]
    phase = engine.current_phase(st)
    engine.apply(st, move)
    assert phase.apply(twin, move) is False and twin.history == st.history[:-1]
    assert twin.events == st.events and twin.ph == st.ph
