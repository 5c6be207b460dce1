"""The Python API: seeded games, legal moves, views that hide what a seat may not see, cheap copies,
JSON snapshots, replays from the move log, and explained illegal moves."""
from __future__ import annotations

import os
import random

import pytest

from interp.engine import match as engine
from interp.engine.events import text
from interp.engine.phases.tricks import TrickProgress
from interp.engine.state import Move
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError
from interp.runs.replay import record, replay
from interp.spec.compiler import load_game
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
    hand = lambda s: preferans.zone_id("hand", s, 3)
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
    from interp.spec.compiler import load_game
    from interp.errors import SpecError
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
