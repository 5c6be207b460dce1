"""`choose` from a list with a `legal` condition: a lower bound `choice >= x` in the condition leaves out the
elements below x before the condition is checked, and the choices offered are exactly those the whole condition
allows."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.spec.compiler import load_game
from tests.conftest import game_of


def contract_states(game, deals=40, seed=3):
    """States at the contract choice of random Preferans deals (the declarer picks a contract at least his bid)."""
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        st = engine.new_match(game, 3, d)
        while not st.deal_over:
            phase = engine.current_phase(st)
            if phase.id == "contract":
                out.append(st.copy())
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    return out


def test_the_floor_offers_the_choices_the_whole_condition_allows(preferans):
    """Seed rule (preferans digest: the contract is at least the bid): with the floor, the contracts offered are
    those the `legal` condition allows when checked on every rung."""
    phase = next(p for p in preferans.phases if p.id == "contract")
    assert phase.floor is not None and not phase.floor.strict
    states = contract_states(preferans)
    assert len(states) > 10
    floor, inputs = phase.floor, phase.inputs
    phase.inputs = None  # worked out every time, not remembered
    try:
        for st in states:
            with_floor = phase.legal(st)
            phase.floor = None
            try:
                everything = phase.legal(st)
            finally:
                phase.floor = floor
            assert with_floor == everything
            bid = st.vars["bid"]
            assert all(m.value >= bid for m in with_floor) and with_floor
    finally:
        phase.inputs = inputs


def test_remembered_choices_are_those_worked_out(preferans):
    """The contract choice reads only `bid` (a plain var): its choices are remembered by declarer and bid, and
    the remembered ones are those the condition gives when worked out again, in the same order."""
    phase = next(p for p in preferans.phases if p.id == "contract")
    assert phase.inputs is not None
    phase.memo.clear()
    states = contract_states(preferans, deals=80, seed=5)
    check_remembered_as_worked_out(phase, states)  # (the same declarer and bid came again)


def check_remembered_as_worked_out(phase, states: list) -> list:
    """Ask `phase` for its moves at each of `states` (remembered: some inputs come again), then again with
    nothing remembered: the same moves in the same order. Returns the moves remembered."""
    remembered = [phase.legal(st) for st in states]
    assert 0 < len(phase.memo) < len(states)
    inputs = phase.inputs
    phase.inputs = None
    try:
        for st, moves in zip(states, remembered):
            assert moves == phase.legal(st)
    finally:
        phase.inputs = inputs
    return remembered


def test_remembered_bids_from_a_range_are_those_worked_out():
    """Oh Hell's bid (`from: range(hand_size + 1)`, the dealer barred from making the bids add up) reads plain
    names only and calls pure built-ins (`range`, `min`, `floor`): remembered by bidder, deal number, dealer and
    bids so far, and the remembered bids are those worked out again, in the same order. Worked example: deal 1
    (one card each), the dealer bidding last after bids adding up to 0 may bid 0 only (1 would make 1)."""
    game = game_of("games/oh-hell.yaml")
    phase = next(p for p in game.phases if p.id == "bidding")
    assert phase.inputs is not None
    phase.memo.clear()
    rng = random.Random(2)
    states = []
    for d in range(30):
        st = engine.new_match(game, 4, d)
        while not st.deal_over:
            if engine.current_phase(st) is phase:
                states.append(st.copy())
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    check_remembered_as_worked_out(phase, states)
    last = next(st for st in states if st.ph.seat == st.dealer and st.deal_no == 1
                and st.vars["bid_total"] == 0)
    assert [m.value for m in phase.legal(last)] == [0]


@pytest.mark.parametrize("legal", [
    "choice >= bid and len(hand[me]) > 0",  # a zone
    "choice >= bid and tricks[me] == 0",  # a name with an index
    "choice >= bid and len(others(me)) > 1",  # a built-in that reads the game (who plays)
])
def test_choices_not_remembered_when_they_read_more_than_plain_names(tmp_path, legal):
    game = _with_legal(tmp_path, legal)
    assert next(p for p in game.phases if p.id == "contract").inputs is None


@pytest.mark.parametrize("legal, strict", [
    ("choice >= bid and choice.kind == bid.kind", False),
    ("choice.kind == bid.kind and choice > bid", True),
    ("choice >= bid", False),
])
def test_a_lower_bound_is_found_in_an_and(tmp_path, legal, strict):
    game = _with_legal(tmp_path, legal)
    floor = next(p for p in game.phases if p.id == "contract").floor
    assert floor is not None and floor.strict == strict


@pytest.mark.parametrize("legal", [
    "choice >= bid or choice.kind == 'misere'",  # not a side of an `and`
    "choice >= choice",  # the bound depends on the choice
    "bid <= choice",  # written the other way round: not recognised, still correct
])
def test_no_lower_bound_where_the_condition_has_none(tmp_path, legal):
    game = _with_legal(tmp_path, legal)
    assert next(p for p in game.phases if p.id == "contract").floor is None


def _with_legal(tmp_path, legal: str):
    text = open("games/preferans.yaml", encoding="utf-8").read()
    start = text.index('    legal: "choice >= bid')
    end = text.index("\n", start)
    path = tmp_path / "preferans.yaml"
    path.write_text(text[:start] + f'    legal: "{legal}"' + text[end:], encoding="utf-8")
    return load_game(str(path))


def test_a_choice_filter_keeps_the_choices_its_legal_condition_allows():
    """Oh Hell's bidding: `legal` runs as one filter over the choices (its `me == dealer` asked once); at every bid
    of seeded 4-player deals the bids offered are 0 … hand size, less for the dealer the one that would make
    the bids add up to the hand size — the rule written out here. The moves are made once: a later decision
    offering the same bids offers the same move objects."""
    game = game_of("games/oh-hell.yaml")
    hooked = asked = 0
    seen: dict = {}
    for seed in range(12):
        st = engine.new_match(game, 4, seed, deal=False)
        st.deal_no = seed % 5 + 2  # deals 3 to 7: 3 to 7 cards
        engine.start_deal(st)
        while engine.current_phase(st).id == "bidding":
            me, size, total = st.ph.seat, st.deal_no, st.vars["bid_total"]
            want = [b for b in range(size + 1) if not (me == st.dealer and total + b == size)]
            moves = engine.legal_moves(st)
            assert [m.value for m in moves] == want
            for m in moves:
                assert seen.setdefault(m.value, m) is m
            asked += 1
            hooked += len(want) == size
            engine.apply(st, moves[seed % len(moves)])
    assert asked == 48 and 0 < hooked < asked
