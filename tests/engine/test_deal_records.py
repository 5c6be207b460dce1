"""A deal's record and the score sheet (interp/engine/match.py, State.deals): a deal's number and dealer are written
when the deal ends; its facts, sheet entries, values and breakdown lines when the records are first read (a
playout reads none). Whenever they are read (at once, after the next deal has started, after a copy, a view or
an agreed end) they are those of the deal as it ended; each deal's end logs its `deal-end` event. Every match
starts from a copy of the game's blank sheet, which is never written to; a copy of a sheet shares no column or
row; a deal's entries keep the type of the cells they are worked out from."""
from __future__ import annotations

import copy
import os
import random
from fractions import Fraction

import pytest

from interp.engine import match as engine
from interp.engine.state import Event
from interp.spec.compiler import load_game
from tests.conftest import game_of
from tests.engine.test_deal import ALL_SPECS, played_match, to_end, whole_record

GAMES = [("games/preferans.yaml", 3), ("games/preferans.yaml", 4), ("games/tarot.yaml", 4),
         ("games/tarot.yaml", 5), ("games/piquet.yaml", 2), ("docs/examples/tiny.yaml", 2)]


def played(game, n: int, seed: int):
    """A match of `game` whose first deal was played to its end by random moves (seeded)."""
    rng = random.Random(seed)
    st = engine.new_match(game, n, seed)
    while not st.deal_over:
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    return st


def read_after_next_deal(st):
    engine.next_deal(st)
    return st.deals[0]


def read_after_copy(st):
    return st.copy().deals[-1]


def read_after_view(st):
    st.view(0)
    return st.deals[-1]


def read_after_agreed_end(st):
    engine.end_by_agreement(st)  # may write to the sheet (a missing pool goes to the mountain)
    return st.deals[-1]


@pytest.mark.parametrize("path,n", GAMES)
def test_the_record_is_that_of_the_deal_as_it_ended_whenever_it_is_read(path, n):
    game = game_of(path)
    for seed in range(4):
        at_once = copy.deepcopy(played(game, n, seed).deals[-1])
        assert list(at_once) == ["deal", "dealer", "facts", "entries", "values"] + \
            (["breakdown"] if game.breakdown else [])
        st = played(game, n, seed)
        assert engine.deal_values(st) == at_once["values"]  # worked out alone (what a search bot reads)
        assert list(st.deals[-1].items()) == list(at_once.items())  # the same record, in the same order
        if not game.standing_source:  # no match.standing nor result: a seat stands at its first column
            first = next(iter(game.columns))
            assert at_once["values"] == [at_once["entries"].get(first, {}).get(s, 0) for s in range(n)]
        for read in (read_after_next_deal, read_after_copy, read_after_view, read_after_agreed_end):
            st = played(game, n, seed)
            if read is read_after_next_deal and st.match_over:
                continue
            assert set(st._deals[-1]) == {"deal", "dealer"}  # nothing has read the records yet
            assert read(st) == at_once, read.__name__


def test_a_preferans_record_made_after_the_next_deal_started():
    """Preferans, 3 players, seed 0: seat 1 declares 8NT (worth 6), seats 0 and 2 whist, tricks 2, 4, 4. Read only
    once the next deal has started, the record still holds what that deal wrote and was worth. By the rules
    (rules digest, "Sochi scoring of a deal"; the standing is the spec's `match.standing`): 4 undertricks put 4 × 6 = 24 on the declarer's mountain; each defender writes
    24 whists for them against him, plus 6 per trick taken (seat 0: 24 + 12 = 36, seat 2: 24 + 24 = 48). The
    standing is whists written less whists suffered, less 10 × the mountain over the mean mountain (8):
    seat 0: 36 + 80 = 116, seat 1: -84 - 160 = -244, seat 2: 48 + 80 = 128."""
    game = game_of("games/preferans.yaml")
    st = played(game, 3, 0)
    engine.next_deal(st)
    record = st.deals[0]
    assert record["facts"]["contract"] == "8NT" and record["facts"]["declarer"] == 1
    assert record["facts"]["tricks"] == [2, 4, 4]
    assert record["entries"] == {"mountain": {1: 24}, "whists": {(0, 1): 36, (2, 1): 48}}
    assert record["values"] == [116, -244, 128]
    assert record["deal"] == 1 and st.deal_no == 2


def test_lines_and_values_that_read_the_dealer_are_those_of_the_dealer_of_the_deal(tmp_path):
    """A breakdown line and a standing may read the state of play (here the dealer): read after the deal has
    passed on, they still show the dealer of the deal that ended, and the deal's value is its change in standing
    over the deal (the dealer's bonus of 1000 is in both standings, so it cancels)."""
    variant = tmp_path / "dealer.yaml"
    variant.write_text(f"extends: {os.path.abspath('docs/examples/tiny.yaml')}\nname: dealer\n"
                       "match:\n  standing: \"score[s] + (if dealer == s then 1000 else 0)\"\n"
                       "display:\n  result:\n    dealt by: dealer\n")
    game = load_game(str(variant))
    assert not game.standing_from_sheet()
    for seed in range(3):
        st = played(game, 2, seed)
        dealer = st.dealer
        engine.next_deal(st)
        assert st.dealer != dealer
        record = st.deals[0]
        assert record["breakdown"] == [f"dealt by: {game.seat_name(dealer, 2)}"]
        taken = record["facts"]["taken"]
        assert sum(taken) == 120  # tiny's deck has 120 card points
        assert record["values"] == taken  # score[s] += taken[s]; the dealer's 1000 cancels


@pytest.mark.parametrize("path", ALL_SPECS)
def test_the_shared_blank_sheet_is_never_written_to(path):
    """Every new match starts from a copy of the game's blank sheet: after matches of every player count are
    played, the blank sheet is still all zeros, the same object each time asked, and a second run of the same
    matches records the same deals."""
    game = game_of(path)
    ours = {(players, seed): whole_record(played_match(game, players, seed, 3))
            for players in game.players for seed in range(4)}
    for (players, seed), record in ours.items():
        assert record == whole_record(played_match(game, players, seed, 3))
    for players in game.players:
        blank = game.blank_sheet(players)
        assert blank == game._blank_sheet(players) and blank is game.blank_sheet(players)


@pytest.mark.parametrize("path", ALL_SPECS)
def test_a_new_sheet_is_the_blank_sheet_sharing_no_list(path):
    """`Game.new_sheets[n]()` (a new match's sheet, written out) equals the blank sheet column by column in the
    same order, and two of them share no column or row with each other or the blank sheet."""
    game = game_of(path)
    for players in game.players:
        blank, a, b = game.blank_sheet(players), game.new_sheets[players](), game.new_sheets[players]()
        assert list(a.items()) == list(blank.items()) and list(engine.new_match(game, players, 1).sheet) == list(blank)
        lists = [col for sheet in (blank, a, b) for col in sheet.values()]
        lists += [row for sheet in (blank, a, b) for name in game.pair_columns for row in sheet[name]]
        assert len({id(x) for x in lists}) == len(lists)
        assert repr(a) == repr(blank)  # cells of the same type (an int 0, not 0.0)


@pytest.mark.parametrize("zero", [0, Fraction(0), 0.0])
def test_a_sheet_equal_to_a_blank_one_but_not_of_ints_keeps_its_type(zero, monkeypatch):
    """A cell equal to 0 that is a Fraction or float makes differences of its own type (scoring here writes 5
    over the pool's first cell)."""
    game = game_of("games/preferans.yaml")
    monkeypatch.setattr(game, "scoring", lambda st: st.sheet["pool"].__setitem__(0, 5))

    def entries():
        st = engine.new_match(game, 3, 4)
        st.sheet["pool"][0] = zero
        to_end(st, random.Random(4))
        return st.deals[-1]["entries"]

    ours = entries()
    assert ours == {"pool": {0: 5}} and type(ours["pool"][0]) is type(zero)


@pytest.mark.parametrize("path,n", [("games/preferans.yaml", 3), ("games/tarot.yaml", 4)])
def test_the_sheets_copy_is_equal_in_order_and_shares_no_column_or_row(path, n):
    game = game_of(path)
    st = engine.new_match(game, n, 3)
    for i, (name, col) in enumerate(st.sheet.items()):  # distinct values everywhere
        if name in game.pair_columns:
            col[:] = [[10 * i + 3 * r + c for c in range(n)] for r in range(n)]
        else:
            col[:] = [10 * i + s for s in range(n)]
    copied = game.copy_sheet(st.sheet)
    assert list(copied.items()) == list(st.sheet.items())
    for name, col in copied.items():
        assert col is not st.sheet[name]
        rows = col if name in game.pair_columns else []
        assert all(row is not old for row, old in zip(rows, st.sheet[name]))
        if rows:
            rows[0][0] += 1
        col.append(None)
    assert all(len(col) == n for col in st.sheet.values()) and st.sheet != copied


def test_each_deals_end_logs_its_deal_end_event():
    """Deals 0 to 15 log an event shared by every match (events are never changed); later ones a new one; all
    are equal to the record made fresh."""
    game = game_of("games/tarot.yaml")  # rounds 0: no end
    rng = random.Random(5)
    st = engine.new_match(game, 4, 5, {"rounds": 0})
    seen = []
    while st.deal_no < 20:
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        ends = [e for e in st.events[st.deal_events:] if e.kind == "deal-end"]  # none for a redeal
        assert ends == ([] if st.deals[-1].get("redeal") else [Event("deal-end", None, (), st.deal_no)])
        seen += [(st.deal_no, e) for e in ends]
        engine.next_deal(st)
    assert len(seen) > 16
    for no, event in seen:
        shared = [e for e in engine.DEAL_ENDS if e is event]
        assert shared == ([engine.DEAL_ENDS[no]] if no < len(engine.DEAL_ENDS) else [])
