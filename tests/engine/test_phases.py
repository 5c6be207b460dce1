"""A move's lean path keeps every behaviour of the general one.

`engine.apply` makes a move through one phase hook, `Phase.play`: the base hook asks the phase's `actor`,
`notation`, `apply` and `done` in turn (what the engine did itself before); a tricks phase overrides it with one
body that logs the card and plays it. At every move of seeded random deals, a twin state is moved on through the
base hook (`general_apply` below, the engine's steps written out) and must match the engine's: the same move log
(`[deal_no, seat, notation]` entries, what saves and replays read), the same events, the same state as JSON."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.errors import IllegalMoveError, SpecRuntimeError
from interp.engine.phases.base import Phase
from interp.engine.phases.tricks import ZONE_SEAT, PlainTricksPhase, TricksPhase
from tests.conftest import game_of

GAMES = [("games/preferans.yaml", 3, 6), ("games/preferans-4.yaml", 4, 3), ("games/oh-hell.yaml", 4, 2),
         ("games/hearts.yaml", 4, 1), ("games/belote.yaml", 4, 3), ("games/tarot.yaml", 4, 3)]


def general_apply(st, move) -> None:
    """`engine.apply(st, move, check=False)` with the base `Phase.play` (actor, notation, apply, done) for every
    phase, the tricks phases' own `play` bypassed."""
    phase = engine.current_phase(st)
    st.legal = None
    if Phase.play(phase, st, move, st.history):
        engine.finish_phase(st, phase)
    elif not st.abandon:
        return
    engine.advance(st)


@pytest.mark.parametrize("path,players,deals", GAMES)
def test_the_lean_card_play_leaves_the_state_the_general_one_does(path, players, deals):
    game = game_of(path)
    cards = zone_led = 0
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        twin = st.copy()
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            moves = engine.legal_moves(st)
            assert engine.legal_moves(twin) == moves
            move = moves[rng.randrange(len(moves))]
            engine.apply(st, move, check=bool(seed % 2))
            general_apply(twin, move)
            where = (path, seed, len(st.history))
            assert st.history == twin.history and st.history[-1][2] == phase.notation(twin, move), where
            assert st.events == twin.events, where
            assert st.to_json() == twin.to_json(), where
            cards += isinstance(phase, TricksPhase) and move.kind == "card"
            zone_led += isinstance(phase, TricksPhase) and st.ph is not None and st.ph.get("by") == [ZONE_SEAT]
    assert zone_led > 0 or path != "games/preferans.yaml"  # an all-pass deal, its tricks led from the talon
    assert cards >= players * deals  # every deal reached the card play (an Oh Hell match starts with one card)


def test_the_plain_phases_take_the_lean_path_of_their_own():
    """The games above play cards through the tricks phase's own `play`, not the base one: the plain phases and
    the general ones (an escape card, `allowed`, announcements) alike."""
    kinds = set()
    for path, _players, _deals in GAMES:
        phase = next(p for p in game_of(path).phases if isinstance(p, TricksPhase))
        assert type(phase).play is TricksPhase.play is not Phase.play
        kinds.add(type(phase))
    assert kinds == {TricksPhase, PlainTricksPhase}


def test_a_card_logs_its_seat_and_code():
    """Worked example: Preferans seed 0 played to its first card; the log entry names the deal, the seat that was
    to move and the card's code, as a player types it."""
    game = game_of("games/preferans.yaml")
    st = engine.new_match(game, 3, 0)
    rng = random.Random(0)
    while not isinstance(engine.current_phase(st), TricksPhase):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    seat, move = engine.actor(st), engine.legal_moves(st)[0]
    engine.apply(st, move)
    assert st.history[-1] == [st.deal_no, seat, game.deck.codes[move.value]]
    assert st.events[-1].kind == "play" and st.events[-1].seat == seat and st.events[-1].cards == (move.value,)


def test_phase_apply_still_plays_a_card_without_logging_it():
    """`Phase.apply` keeps working for callers other than the engine: it plays the card, the log is the caller's."""
    game = game_of("games/oh-hell.yaml")
    st = engine.new_match(game, 4, 1)
    rng = random.Random(1)
    while not isinstance(engine.current_phase(st), TricksPhase):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    twin = st.copy()
    move = engine.legal_moves(st)[-1]
    phase = engine.current_phase(st)
    engine.apply(st, move)
    assert phase.apply(twin, move) is False and twin.history == st.history[:-1]
    assert twin.events == st.events and twin.zones == st.zones and dict(twin.ph) == dict(st.ph)


def at_card_play(path: str, players: int, seed: int):
    game = game_of(path)
    st = engine.new_match(game, players, seed)
    rng = random.Random(seed)
    while not isinstance(engine.current_phase(st), TricksPhase):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    return st


def test_an_illegal_card_is_refused_and_changes_nothing():
    st = at_card_play("games/preferans.yaml", 3, 2)
    hand = st.zones[st.zone_ids[engine.current_phase(st).hand][engine.actor(st)]]
    legal = engine.legal_moves(st)
    outside = next(m for m in st.game.card_moves if m not in legal)
    before = st.to_json()
    with pytest.raises(IllegalMoveError, match="is not legal now"):
        engine.apply(st, outside)
    assert st.to_json() == before and len(hand) > 0


def test_the_listed_moves_are_the_callers_to_change():
    """`legal_moves` hands out a fresh list: emptying it changes neither the next listing nor the check."""
    st = at_card_play("games/hearts.yaml", 4, 0)
    moves = engine.legal_moves(st)
    kept = list(moves)
    moves.clear()
    assert engine.legal_moves(st) == kept
    engine.apply(st, kept[0])  # the check still finds it


def test_a_python_error_while_a_card_is_played_is_a_located_phase_failure():
    st = at_card_play("games/preferans.yaml", 3, 0)
    phase = engine.current_phase(st)
    move = engine.legal_moves(st)[0]
    st.ph.turn = 7  # no such seat in the order of play: the card's play fails inside the phase
    with pytest.raises(SpecRuntimeError, match=r"phase 'play' failed while the game ran \(IndexError") as info:
        engine.apply(st, move, check=False)
    assert info.value.location == phase.location


def test_a_runaway_deal_still_stops_at_the_move_limit(monkeypatch):
    """The limit counts the deal's logged moves (lowered here to two cards beyond those made, so that the card
    play reaches it): the third card is refused, naming the phase."""
    st = at_card_play("games/oh-hell.yaml", 4, 0)
    monkeypatch.setattr(engine, "MAX_DEAL_MOVES", len(st.history) + 2)
    for _ in range(2):
        engine.apply(st, engine.legal_moves(st)[0])
    before = len(st.history)
    with pytest.raises(SpecRuntimeError, match=r"has gone on for \d+ moves without ending \(now in phase '"):
        engine.apply(st, engine.legal_moves(st)[0])
    assert len(st.history) == before


def test_an_announcement_is_logged_and_made_as_the_general_path_does():
    """Belote's "belote" (king and queen of trumps held) is an announcement a player may make before a card: the
    first one offered in seeded deals is made on the state and its twin, the log entry naming the announcement;
    the same player then plays a card."""
    game = game_of("games/belote.yaml")
    made = 0
    for seed in range(20):
        st = engine.new_match(game, 4, seed)
        twin, rng = st.copy(), random.Random(seed)
        while not st.deal_over and not made:
            moves = engine.legal_moves(st)
            calls = [m for m in moves if m.kind == "option" and isinstance(engine.current_phase(st), TricksPhase)]
            move = calls[0] if calls else moves[rng.randrange(len(moves))]
            seat = engine.actor(st)
            engine.apply(st, move)
            general_apply(twin, move)
            assert st.history == twin.history and st.events == twin.events and st.to_json() == twin.to_json()
            if calls:
                made += 1
                assert st.history[-1] == [st.deal_no, seat, move.value] and engine.actor(st) == seat
        if made:
            break
    assert made == 1
