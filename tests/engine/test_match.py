"""The Python API of a match (interp/engine/match.py): seeded games, legal moves, views that hide what a seat may
not see, cheap copies, JSON snapshots, replays from the move log, and explained illegal moves.

A new match is the state built field by field (a bare State, every var at its default, a copy of the blank sheet,
the first dealer, the first deal seated and run to its first decision) and shares nothing play changes with
another; the moves listed at a position are checked there only (a move listed before a change is not legal
after it); the move log writes each move as its phase names it; a copy shares nothing play changes."""
from __future__ import annotations

import copy
import os
import random

import pytest

from interp.engine import match as engine
from interp.engine.events import text
from interp.engine.game import SHARED_STARTS
from interp.engine.phases.trick_rules import TrickProgress
from interp.engine.state import Event, Move, State
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError
from interp.runs.replay import record, replay
from interp.spec.compiler import load_game
from tests.conftest import SPECS, game_of
from tests.engine.test_progress import decisions


def advance_to_play(game, seed=3):
    """A 3-player match moved (by always taking the last legal move) to the first card of trick play."""
    st = engine.new_match(game, 3, seed)
    while engine.current_phase(st).type_name != "tricks":
        engine.apply(st, engine.legal_moves(st)[-1])
        if st.deal_over:
            engine.next_deal(st)
    return st


def test_view_shows_own_hand_only(preferans):
    st = engine.new_match(preferans, 3, 1)
    seat = engine.to_move(st)
    view = st.view(seat)
    def hand(s):
        return preferans.zone_id("hand", s, 3)
    assert view.zones[hand(seat)] == st.zones[hand(seat)]
    for other in range(3):
        if other != seat:
            assert view.zones[hand(other)] == []
            assert view.hidden[hand(other)] == 10
    assert view.zones[preferans.zone_id("talon", None, 3)] == []
    assert view.seed is None
    with pytest.raises(RuntimeError):
        preferans.rng(view, "deal")


def test_copy_is_independent(preferans):
    st = advance_to_play(preferans)
    twin = st.copy()
    engine.apply(twin, engine.legal_moves(twin)[0])
    assert twin.to_json() != st.to_json()
    assert len(twin.history) == len(st.history) + 1


def test_seed_and_log_replay_exactly(preferans):
    st = engine.new_match(preferans, 3, 21)
    rng = random.Random(2)
    for _ in range(3):
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        engine.next_deal(st)
    saved = record(st)
    again = replay(preferans, saved["history"], saved["players"], saved["seed"], saved["options"], saved["dealer"],
                   saved["deal_no"])
    assert again.to_json() == st.to_json()
    assert again.deals == st.deals


def test_illegal_card_is_explained(preferans):
    st = advance_to_play(preferans)
    engine.apply(st, engine.legal_moves(st)[0])  # a lead
    seat = engine.actor(st)
    hand = st.zones[preferans.zone_id("hand", seat, 3)]
    legal = {m.value for m in engine.legal_moves(st)}
    illegal = [c for c in hand if c not in legal]
    if illegal:
        with pytest.raises(IllegalMoveError, match="must"):
            parse_move(st, preferans.deck.code(illegal[0]))
    with pytest.raises(IllegalMoveError, match="not a card"):
        parse_move(st, "XYZ")
    absent = next(c for c in range(32) if c not in hand)
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        parse_move(st, preferans.deck.code(absent))


def test_apply_rejects_an_illegal_move(preferans):
    st = engine.new_match(preferans, 3, 4)
    with pytest.raises(IllegalMoveError):
        engine.apply(st, Move("bid", 24))


def test_apply_checks_against_the_moves_listed_at_this_position(preferans):
    """`apply` checks a move against the moves `legal_moves` listed at the same position; a list from an earlier
    position (a card that was legal before the lead) does not make a move legal later."""
    st = advance_to_play(preferans)
    lead = engine.legal_moves(st)[0]
    engine.apply(st, lead)
    seat = engine.actor(st)
    suit_of = preferans.deck.suit_of
    hand = st.zones[preferans.zone_id("hand", seat, 3)]
    follows = [c for c in hand if suit_of[c] == suit_of[lead.value]]
    if not follows:
        pytest.skip("no card of the led suit in this deal")
    off_suit = [c for c in hand if suit_of[c] != suit_of[lead.value]]
    legal = engine.legal_moves(st)
    assert {m.value for m in legal} == set(follows)
    for card in off_suit:  # listed here: rejected by the look-up
        with pytest.raises(IllegalMoveError):
            engine.apply(st, preferans.card_moves[card])
    fresh = st.copy()  # a copy has listed nothing yet: the phase is asked
    for card in off_suit:
        with pytest.raises(IllegalMoveError):
            engine.apply(fresh, preferans.card_moves[card])
    engine.apply(st, legal[0])
    assert lead not in engine.legal_moves(st)
    with pytest.raises(IllegalMoveError):  # a move of the earlier position, not listed again
        engine.apply(st, legal[0])


def test_moves_are_named_in_the_notation_players_type(preferans):
    st = engine.new_match(preferans, 3, 4)
    names = [engine.notation(st, m) for m in engine.legal_moves(st)]
    assert names == ["pass", "6S", "misere"]
    assert parse_move(st, "6s") == engine.legal_moves(st)[1]
    assert parse_move(st, "2") == engine.legal_moves(st)[1]


def test_unknown_option_and_player_count_are_refused(preferans):
    with pytest.raises(ValueError, match="unknown option"):
        engine.new_match(preferans, 3, 0, {"pool": 5})
    with pytest.raises(ValueError, match="3, 4 players"):
        engine.new_match(preferans, 5, 0)
    with pytest.raises(ValueError, match="whole number"):
        engine.new_match(preferans, 3, 0, {"pool_target": "ten"})


def test_variant_errors_point_into_the_variant_file(tmp_path):
    """A variant merges its phase by id into the base's list; its mistakes are still located in its own file."""
    from interp.errors import SpecError
    from interp.spec.compiler import load_game
    base = os.path.abspath("games/preferans.yaml")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: {base}\nname: v\nphases:\n  - id: play\n    trump: \"trump + 1\"\n")
    with pytest.raises(SpecError) as info:
        load_game(str(variant))
    assert (info.value.location.file, info.value.location.line, info.value.location.column) == \
        (str(variant), 5, 19)


def test_a_view_holds_no_move_log_and_only_this_deals_events(preferans):
    """The move log would name the declarer's discards; a view carries only the events its seat was told."""
    st = engine.new_match(preferans, 3, 2)
    rng = random.Random(1)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    engine.next_deal(st)
    view = st.view(engine.to_move(st))
    assert view.history == [] and st.history
    assert view.events[0].kind == "deal-start" and text(view, view.events[0]).startswith("— deal 2")


def test_done_too_early_in_a_discard_is_explained(preferans):
    """The declarer's discard takes exactly two cards: 'done' is refused with the number still to go."""
    st = engine.new_match(preferans, 3, 0)
    while engine.current_phase(st).type_name != "discard":
        moves = engine.legal_moves(st)
        bids = [m for m in moves if m.kind == "bid"]
        engine.apply(st, bids[0] if bids and not st.ph["passed"][st.ph["turn"]] and st.ph["high"] < 0 else moves[0])
        if st.deal_over:
            engine.next_deal(st)
    with pytest.raises(IllegalMoveError, match="discard 2 more card"):
        parse_move(st, "done")


def test_standings_are_reused_only_when_they_read_nothing_but_the_sheet(preferans):
    """A standing that reads only sheet columns, options and the player count is worked out once per sheet; one
    that reads the state of play (a var, a zone, the dealer) is worked out every time."""
    from interp.dsl.reads import from_sheet_only
    assert preferans.standing_from_sheet()
    assert from_sheet_only("pool[s] - 10 * mountain[s] / n_players + pool_target", preferans)
    assert not from_sheet_only("pool[s] + (if declarer == s then 1 else 0)", preferans)
    assert not from_sheet_only("pool[s] + len(hand[s])", preferans)
    assert not from_sheet_only("pool[s] + (if dealer == s then 1 else 0)", preferans)
    assert not from_sheet_only("pool[s] + sum(tricks[o] for o in seats)", preferans)  # through a var


def test_deal_values_are_the_change_of_the_standings_worked_out_afresh(preferans):
    """Over a match of random deals, each deal's values equal the standings (evaluated directly, no memo) after
    it minus those after the deal before."""
    rng = random.Random(5)
    st = engine.new_match(preferans, 3, 11)
    before = engine.standings(st)
    for _ in range(6):
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        after = engine.standings(st)
        assert engine.deal_values(st) == [a - b for a, b in zip(after, before)]
        before = after
        if st.match_over:
            break
        engine.next_deal(st)


def test_the_result_lines_are_those_of_the_deal_as_it_ended_whenever_they_are_read():
    """`display.result` lines are made when the deal records are first read: read at once, or only after the
    next deal has started, a copy was made or a view taken, they are the same lines (the engine makes them
    before the state moves on)."""
    from interp.spec.compiler import load_game
    game = load_game("games/tarot.yaml")

    def played(seed: int):
        rng = random.Random(seed)
        st = engine.new_match(game, 4, seed)
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        return st

    for seed in range(3):
        at_once = played(seed).deals[-1]["breakdown"]
        assert at_once[0].startswith("taker: ") and any(line.startswith("contract: ") for line in at_once)
        later = played(seed)
        assert later.unsettled  # nothing has read the records yet: the lines are not made
        engine.next_deal(later)
        assert later.deals[0]["breakdown"] == at_once
        copied = played(seed).copy()
        assert copied.deals[-1]["breakdown"] == at_once
        viewed = played(seed)
        viewed.view(0)
        assert viewed.deals[-1]["breakdown"] == at_once


def test_a_card_listed_and_played_is_refused_when_offered_again():
    game = load_game("games/preferans.yaml")
    for st in decisions(game, 3, 4):
        if isinstance(st.ph, TrickProgress) and not st.ph.trick:
            break
    listed = engine.legal_moves(st)
    card = listed[0]
    engine.apply(st, card)
    with pytest.raises(IllegalMoveError):
        engine.apply(st, card)  # listed at the position before: the engine must not take that list now


def test_moves_listed_before_a_new_deal_are_not_legal_after_it():
    """The moves listed mid-deal are forgotten when the deal starts again (start_deal runs `advance`)."""
    game = load_game("games/preferans.yaml")
    for st in decisions(game, 3, 4):
        if isinstance(st.ph, TrickProgress):
            break
    card = engine.legal_moves(st)[0]
    engine.start_deal(st)  # a new deal: its auction takes no card
    assert st.game.phases[st.phase].type_name == "auction"
    with pytest.raises(IllegalMoveError):
        engine.apply(st, card)
    engine.apply(st, Move("pass", None))


def test_check_looks_up_equal_moves_and_ignores_a_changed_list():
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 4)
    listed = engine.legal_moves(st)
    assert [m.kind for m in listed] == ["pass", "bid", "bid"]
    illegal = Move("bid", listed[-1].value + 5)
    listed.append(illegal)  # the caller's list, changed: the engine kept its own
    listed[0] = illegal
    with pytest.raises(IllegalMoveError):
        engine.apply(st, illegal)
    engine.apply(st, Move("pass", None))  # equal to the listed pass, not the same object
    assert st.history[-1][2] == "pass" and len(st.history) == 1


@pytest.mark.parametrize("path", ["games/preferans.yaml", "games/tarot.yaml", "games/piquet.yaml",
                                  "games/mitten.yaml", "games/hearts.yaml", "games/belote.yaml"])
def test_the_move_log_writes_each_move_as_its_phase_names_it(path):
    game = load_game(path)
    rng = random.Random(5)
    for seed in range(2):
        st = engine.new_match(game, seed=seed)
        while not st.deal_over:
            move = rng.choice(engine.legal_moves(st))
            seat, text = engine.actor(st), engine.notation(st, move)
            engine.apply(st, move)
            assert st.history[-1] == [st.deal_no, seat, text]


def test_a_copy_sets_every_field_and_shares_nothing_play_changes():
    """State.copy names its fields one by one (faster than a loop over them): a field added to State and
    forgotten there is caught here, as is a list, dict or set shared with the original."""
    game = load_game("games/tarot.yaml")
    st = engine.new_match(game, 4, 2)
    rng = random.Random(3)
    for _ in range(9):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    other = st.copy()
    for name in State.__slots__:
        mine, theirs = getattr(st, name), getattr(other, name)
        if name in ("loc", "legal", "unsettled"):
            continue  # started afresh in a copy
        assert mine == theirs, name
        if isinstance(mine, (list, dict, set)) and name not in ("options", "zone_ids"):  # never changed
            assert mine is not theirs or not mine, name
    assert all(a is not b for a, b in zip(st.zones, other.zones))
    assert all(st.vars[k] is not v for k, v in other.vars.items() if isinstance(v, list))
    assert all(st.ph[k] is not v for k, v in other.ph.items() if isinstance(v, list))


def _built_field_by_field(game, n: int, seed: int, dealer: int | None = None, stack: dict | None = None) -> State:
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
def test_a_new_match_is_the_state_built_field_by_field(spec):
    game = game_of(spec)
    for n in game.players:
        for seed in (0, 7, 123):
            made, built = engine.new_match(game, n, seed), _built_field_by_field(game, n, seed)
            assert _slots(made) == _slots(built)
            assert made.to_json() == built.to_json()
        made, built = engine.new_match(game, n, 5, dealer=n - 1), _built_field_by_field(game, n, 5, dealer=n - 1)
        assert _slots(made) == _slots(built) and made.dealer == n - 1


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


def test_a_bare_state_holds_nothing_but_its_seats_and_empty_zones():
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
def test_the_shared_deal_start_events_name_each_deals_number_and_dealer(spec, options):
    """The "deal-start" events of the first deals (made once per dealer: `Game.deal_starts`) and the "deal"
    events (`Game.deal_logged`) are those a deal would make itself: its number and dealer, past the shared ones too."""
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
