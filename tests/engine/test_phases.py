"""The phase protocol (interp/engine/phases/base.py): a move made through a phase's own `play` hook leaves the
state the base protocol leaves.

`engine.apply` makes a move through one phase hook, `Phase.play`: the base hook asks the phase's `actor`,
`notation`, `apply` and `done` in turn; the tricks, auction, discard and choose phases override it with one body
that logs the move and makes it. At every move of seeded random deals, a twin state is moved on through the base
hook (`general_apply` below, the engine's steps written out) and must match the engine's: the same move log
(`[deal_no, seat, notation]` entries, what saves and replays read), the same events, the same state as JSON, the
same save digest. The events a call, a choice or a discard logs are those the rules state, and what a phase's
`apply` says of the phase being over is what its `done` says."""
from __future__ import annotations

import collections
import random

import pytest

from interp.engine import match as engine
from interp.engine.phases.auction import AuctionPhase
from interp.engine.phases.base import Phase
from interp.engine.phases.choose import ChoosePhase
from interp.engine.phases.discard import DiscardPhase
from interp.engine.phases.trick_rules import ZONE_SEAT
from interp.engine.phases.tricks import FilteredTricksPhase, LeanTricksPhase, PlainTricksPhase, TricksPhase
from interp.engine.state import Event, Move
from interp.errors import IllegalMoveError, SpecRuntimeError
from interp.runs.replay import position
from tests.conftest import game_of
from tests.engine.test_progress import decisions

CARD_GAMES = [("games/preferans.yaml", 3, 6), ("games/preferans-4.yaml", 4, 3), ("games/oh-hell.yaml", 4, 2),
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


@pytest.mark.parametrize("path,players,deals", CARD_GAMES)
def test_a_card_played_through_the_tricks_phase_leaves_the_state_the_base_protocol_does(path, players, deals):
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


def test_the_tricks_phases_play_cards_through_their_own_hook():
    """The games above play cards through the tricks phase's own `play`, not the base one: the plain phases, those
    with only an `allowed` filter, the lean ones with an escape card and announcements and the general ones (an
    exemption from trumping) alike."""
    kinds = set()
    for path, _players, _deals in CARD_GAMES:
        phase = next(p for p in game_of(path).phases if isinstance(p, TricksPhase))
        assert type(phase).play is TricksPhase.play is not Phase.play
        kinds.add(type(phase))
    assert kinds == {TricksPhase, PlainTricksPhase, FilteredTricksPhase, LeanTricksPhase}


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


def test_phase_apply_plays_a_card_and_leaves_the_log_to_the_caller():
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


def test_a_runaway_deal_stops_at_the_move_limit(monkeypatch):
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


def test_an_announcement_is_logged_and_made_as_the_base_protocol_does():
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


OWN_PLAY = (AuctionPhase, DiscardPhase, ChoosePhase)


ALL_VARIANTS = {"misere_without_talon": True, "jump_bids": True}


BIDDING_GAMES = [("games/preferans.yaml", 3, 12, None), ("games/preferans.yaml", 3, 12, ALL_VARIANTS),
                 ("games/preferans-4.yaml", 4, 6, None), ("games/tarot.yaml", 4, 6, None),
                 ("games/tarot-5.yaml", 5, 4, None), ("games/piquet.yaml", 2, 4, None),
                 ("games/hearts.yaml", 4, 2, None), ("games/belote.yaml", 4, 4, None)]


def play_twins(path: str, players: int, deals: int, options: dict | None, kinds: collections.Counter) -> None:
    """Play `deals` seeded random deals through the engine and a twin through `general_apply`, comparing them
    after every move of a phase of OWN_PLAY (and counting (phase type, move kind) in `kinds`)."""
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
            if not isinstance(phase, OWN_PLAY):
                continue
            kinds[type(phase).__name__, move.kind] += 1
            where = (path, seed, len(st.history))
            assert st.history[-1] == [st.deal_no, seat, phase.notation(twin, move)], where
            assert st.history == twin.history, where
            assert st.events == twin.events, where
            assert st.to_json() == twin.to_json(), where
            assert position(st) == position(twin), where


@pytest.mark.parametrize("path,players,deals,options", BIDDING_GAMES)
def test_a_bid_a_discard_and_a_choice_leave_the_state_the_base_protocol_does(path, players, deals, options):
    kinds: collections.Counter = collections.Counter()
    play_twins(path, players, deals, options, kinds)
    assert kinds  # every game here bids, discards or chooses


def test_every_kind_of_call_discard_and_choice_is_compared():
    """Over the games above, every kind of move of OWN_PLAY is made at least once: a pass, a bid and a hold; a card
    discarded and `done`; an option and an element chosen."""
    kinds: collections.Counter = collections.Counter()
    for path, players, deals, options in BIDDING_GAMES:
        if path in ("games/preferans.yaml", "games/piquet.yaml", "games/tarot-5.yaml"):
            play_twins(path, players, deals, options, kinds)
    for kind in (("AuctionPhase", "pass"), ("AuctionPhase", "bid"), ("AuctionPhase", "hold"),
                 ("DiscardPhase", "card"), ("DiscardPhase", "option"), ("ChoosePhase", "option"),
                 ("ChoosePhase", "choice")):
        assert kinds[kind] > 0, kind


def test_the_auction_discard_and_choose_phases_make_moves_through_their_own_hook():
    for cls in OWN_PLAY:
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


def test_phase_apply_makes_a_call_and_leaves_the_log_to_the_caller():
    """`Phase.apply` keeps working for callers other than the engine: it makes the call, the log is the caller's."""
    game = game_of("games/preferans.yaml")
    st = engine.new_match(game, 3, 4)
    twin = st.copy()
    move = engine.legal_moves(st)[1]
    phase = engine.current_phase(st)
    engine.apply(st, move)
    assert phase.apply(twin, move) is False and twin.history == st.history[:-1]
    assert twin.events == st.events and twin.ph == st.ph


def plain_events(phase, st, move: Move) -> list:
    """The events an auction, discard or choose move logs first, built as the rules state them (not from the
    tables every deal shares): a call is one `bid` event, a choice one `choose` event; a discard shown to all one
    event, else the seat's own and the others' masked one."""
    ph = st.ph
    if phase.type_name == "auction":
        return [Event("bid", ph["order"][ph["turn"]], (), move, None, phase.id)]
    if phase.type_name == "choose":
        return [Event("choose", ph["seat"], (), move, None, phase.id)]
    me = ph["seat"]
    if move == Move("option", "done"):
        return [Event("discard", me, (), move, None, phase.id)]
    if phase.show is not None and phase.show.holds(st, me, move.value):
        return [Event("discard", me, (move.value,), move, None, phase.id)]
    return [Event("discard", me, (move.value,), move, (me,), phase.id),
            Event("discard", me, (), None, tuple(s for s in range(st.n) if s != me), phase.id)]


@pytest.mark.parametrize("path,players", [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4),
                                          ("games/tarot.yaml", 4), ("games/tarot-5.yaml", 5),
                                          ("games/hearts.yaml", 4), ("games/piquet.yaml", 2)])
def test_calls_choices_and_discards_log_the_events_the_rules_state(path, players):
    """The `bid`, `choose` (of an option) and `discard` events come from tables shared by every deal: at each
    call, choice and discard of seeded deals they must equal those built afresh (the events the move's own
    statements log follow)."""
    game = game_of(path)
    seen = 0
    for seed in range(4):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = st.game.phases[st.phase]
            move = rng.choice(engine.legal_moves(st))
            want = plain_events(phase, st, move) if phase.type_name in ("auction", "discard", "choose") else None
            mark = len(st.events)
            engine.apply(st, move)
            if want is not None:
                seen += 1
                assert st.events[mark:mark + len(want)] == want, (path, seed, move)
    assert seen >= 8


@pytest.mark.parametrize("path,players", [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4),
                                          ("games/tarot.yaml", 4), ("games/oh-hell.yaml", 4),
                                          ("games/hearts.yaml", 4), ("games/belote.yaml", 4),
                                          ("games/piquet.yaml", 2), ("games/mitten.yaml", 2),
                                          ("tests/specs/take-or-give.yaml", None)])
def test_what_apply_says_of_a_phase_being_over_is_what_done_says(path, players):
    """A phase's `apply` may say whether the phase is over, sparing the engine its `done`: at every move of seeded
    deals (on a copy) the answer must be None or what `done` says after the move."""
    game = game_of(path)
    for seed in range(3):
        for st in decisions(game, players or game.default_players, seed):
            move = random.Random(seed).choice(engine.legal_moves(st))
            probe = st.copy()
            phase = game.phases[probe.phase]
            over = phase.apply(probe, move)
            assert over is None or over is phase.done(probe), (path, seed, phase.id, move)
