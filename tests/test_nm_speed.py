"""A new match, built in fewer steps (State made with the match's vars, sheet and stack at once, the seats
copied from the game's table), is the state the straightforward way makes: a bare State, then every var at its
default, a copy of the blank sheet, the first dealer, and the first deal seated and run to its first decision."""
from __future__ import annotations

import copy
import random

import pytest

from interp.engine import match as engine
from interp.engine.game import SHARED_STARTS
from interp.engine.state import Event, State

from tests.conftest import SPECS, game_of


def _straightforward(game, n: int, seed: int, dealer: int | None = None, stack: dict | None = None) -> State:
    st = State(game, n, dict(game.option_defaults), seed)
    engine._start_vars(st, "match")
    engine._start_vars(st, "deal")
    st.sheet = copy.deepcopy(game.blank_sheet(n))
    st.dealer = game.first_dealer_seat(st) if dealer is None else dealer
    st.stack = stack
    engine._seat_deal(st, True)
    return st


def _slots(st: State) -> dict:
    """Every field of a state but its game, its phase's progress as the dict it reads as."""
    out = {name: getattr(st, name) for name in State.__slots__ if name not in ("game", "ph", "unsettled")}
    out["ph"] = None if st.ph is None else dict(st.ph)
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_a_new_match_is_the_straightforward_one(spec):
    game = game_of(spec)
    for n in game.players:
        for seed in (0, 7, 123):
            fast, plain = engine.new_match(game, n, seed), _straightforward(game, n, seed)
            assert _slots(fast) == _slots(plain)
            assert fast.to_json() == plain.to_json()
        fast, plain = engine.new_match(game, n, 5, dealer=n - 1), _straightforward(game, n, 5, dealer=n - 1)
        assert _slots(fast) == _slots(plain) and fast.dealer == n - 1


def test_a_new_match_shares_nothing_it_changes_with_another():
    """Two matches (and the game's tables) share no list, dict or set play changes in place: the sheet's columns
    and rows, the per-seat vars (one list per var), the seats, the zones."""
    game = game_of("games/preferans.yaml")
    a, b = engine.new_match(game, 3, 1), engine.new_match(game, 3, 1)
    blank = game.blank_sheet(3)
    for name, column in a.sheet.items():
        assert column is not b.sheet[name] and column is not blank[name]
        if name in game.pair_columns:
            assert all(row is not other for row, other in zip(column, b.sheet[name]))
            assert all(row is not other for row, other in zip(column, blank[name]))
    per_seat = [value for value in a.vars.values() if isinstance(value, list)]
    assert per_seat and len({id(v) for v in per_seat}) == len(per_seat)
    assert all(a.vars[k] is not b.vars[k] for k, v in a.vars.items() if isinstance(v, list))
    for name in ("active", "controller", "zones", "vars", "sheet", "history", "events", "revealed", "shown",
                 "loc", "hidden", "_deals"):
        assert getattr(a, name) is not getattr(b, name), name
    assert a.active is not a.controller and type(a.controller) is list and a.controller == [0, 1, 2]
    a.controller[0] = 2
    assert b.controller == [0, 1, 2] and engine.new_match(game, 3, 2).controller == [0, 1, 2]


def test_a_bare_state_is_as_before():
    """`State(game, n, options, seed)`, as a save's loading makes it: no vars, no sheet, seat 0 dealing,
    nothing dealt."""
    game = game_of("games/tarot.yaml")
    st = State(game, 4, {}, 3)
    assert (st.vars, st.sheet, st.dealer, st.deal_no, st.stack, st.ph, st.phase) == ({}, {}, 0, 0, None, None, 0)
    assert st.active == st.controller == [0, 1, 2, 3] and st.active is not st.controller
    assert st.active is not State(game, 4, {}, 3).active and st.zones == [[] for _ in range(game.zone_count(4))]
    assert not (st.deal_over or st.match_over or st.abandon) and st.viewer is None and st.legal is None
    assert (st.deal_events, st.events, st.history, st.revealed, st.shown) == (0, [], [], set(), set())
    assert st.zone_ids == game.zone_table(4) and st.zone_ids["hand"] == (0, 1, 2, 3)
    assert State(game, 3, {}, 3).zones == [[] for _ in range(game.zone_count(3))] != st.zones


@pytest.mark.parametrize("spec, options", [("games/preferans.yaml", None), ("games/tarot.yaml", {"rounds": 9})])
def test_shared_start_events_read_as_made_ones(spec, options):
    """The "deal-start" events of the first deals (made once per dealer: `Game.deal_starts`) and the "deal"
    events (`Game.deal_logged`) are those a deal made before: its number and dealer, past the shared ones too."""
    game = game_of(spec)
    st = engine.new_match(game, game.default_players, 4, options)
    rng = random.Random(4)
    for no in range(1, SHARED_STARTS + 4):
        assert st.deal_no == no
        start, opened = st.events[st.deal_events:st.deal_events + 2]
        assert start == Event("deal-start", st.dealer, (), no) and type(start) is Event
        assert opened == Event("deal", st.dealer) and type(opened) is Event
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        assert not st.match_over
        engine.next_deal(st)
