"""The general mechanisms French Tarot needed, each on a small spec of its own (no Tarot in it): escape cards and
announcements in trick play, tiered discards, extras forming suits, `show_cards`, the `display.result` breakdown,
exact numbers in facts, and a session that ends on a redeal."""
from __future__ import annotations

import pytest

from interp.bots.agents import HeuristicAgent
from interp.engine import match as engine
from interp.engine.events import lines, text
from interp.engine.state import Move
from interp.engine.wording import parse_move
from interp.errors import SpecError
from interp.spec.compiler import load_game
from interp.table import render

# 3 players, 7 cards each: spades and hearts 7..A, trumps T1..T4 (suit T) and an escape card EX (suit X).
MINI = """
name: mini
players: {default: 3}
seat_names: [P1, P2, P3]
deck:
  suits: [S, H]
  ranks: ["7", "8", "9", "10", J, Q, K, A]
  extras: [{code: EX, suit: X, rank: 0}, {code: T1, suit: T, rank: 1}, {code: T2, suit: T, rank: 2},
           {code: T3, suit: T, rank: 3}, {code: T4, suit: T, rank: 4}]
  points: {A: 4, EX: 4, other: 1}
zones:
  hand: {per_seat: true, visible: owner}
  won: {per_seat: true}
vars:
  rang: {type: bool, per_seat: true}
  taken: {type: num}
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 7}]}
  - id: play
    type: tricks
    leader: "seats[0]"
    trump: "'T'"
    must_trump: true
    overtrump: true
    escape: "card == card('EX') or (escape_t3 and card == card('T3'))"
    won: won
"""


def mini(tmp_path, extra: str = "", before_play: str = "") -> object:
    """MINI with `extra` appended and `before_play` phases inserted before the trick play."""
    text = MINI.replace("phases:", "options:\n  escape_t3: {default: false}\nphases:")
    text = text.replace("  - id: play\n", before_play + "  - id: play\n")
    path = tmp_path / "mini.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return load_game(str(path))


def stacked(game, hands: list, options: dict | None = None):
    n = len(hands)
    stack = {game.zone_id("hand", s, n): [game.deck.parse(c) for c in h] for s, h in enumerate(hands)}
    return engine.new_match(game, n, 0, options or {}, dealer=n - 1, stack=stack)


def codes(st) -> list:
    return sorted(engine.notation(st, m) for m in engine.legal_moves(st))


def play(st, *moves: str) -> None:
    for said in moves:
        engine.apply(st, parse_move(st, said))


HANDS = [["7S", "AS", "7H", "8H", "9H", "T4", "QS"],       # P1 leads
         ["8S", "EX", "T1", "10H", "JH", "QH", "KH"],      # P2: one spade, the escape card, one trump
         ["T2", "T3", "9S", "AH", "10S", "JS", "KS"]]      # P3


# -- escape cards ---------------------------------------------------------------------------------------------------
def test_the_escape_card_is_always_playable(tmp_path):
    st = stacked(mini(tmp_path), HANDS)
    play(st, "7S")
    assert codes(st) == ["8S", "EX"]                       # must follow spades, but the escape card may go
    play(st, "EX")
    assert codes(st) == ["10S", "9S", "JS", "KS"]          # the escape card does not change the suit to follow


def test_the_escape_card_never_wins(tmp_path):
    st = stacked(mini(tmp_path), HANDS)
    play(st, "7S", "EX", "9S")
    assert "P3 wins trick 1" in lines(st, st.events)
    assert engine.to_move(st) == 2


def test_a_led_escape_card_lets_the_next_card_set_the_suit(tmp_path):
    st = stacked(mini(tmp_path), [HANDS[1], HANDS[2], HANDS[0]])    # P1 holds the escape card and leads
    play(st, "EX")
    assert codes(st) == sorted(HANDS[2])                   # anything
    play(st, "T2")                                         # a trump sets the suit
    assert codes(st) == ["T4"]                             # P3 must follow trumps and beat T2
    play(st, "T4")
    assert "P3 wins trick 1" in lines(st, st.events)


def test_an_escape_trump_is_not_the_trump_to_beat(tmp_path):
    """With T3 an escape card, P3's overtrump is measured against T1, not T3."""
    hands = [["T3", "7S", "8S", "9S", "10S", "JS", "QS"],
             ["T1", "KS", "AS", "7H", "8H", "9H", "10H"],
             ["T2", "T4", "JH", "QH", "KH", "AH", "EX"]]
    st = stacked(mini(tmp_path), hands, {"escape_t3": True})
    play(st, "T3", "T1")
    assert codes(st) == ["EX", "T2", "T4"]                 # both beat T1; T3 does not count
    play(st, "T2")
    assert "P3 wins trick 1" in lines(st, st.events)


# -- announcements --------------------------------------------------------------------------------------------------
ANNOUNCE = """
    announcements:
      - name: bell
        label: ring the bell
        when: "trick_no == 1 and not rang[me]"
        do: "rang[me] = true; show_cards(me, of_suit(hand[me], 'S'))"
        bots: "if me == seats[0] then 1 else 0"
"""


def test_an_announcement_is_offered_before_the_card_and_the_same_player_plays_on(tmp_path):
    st = stacked(mini(tmp_path, ANNOUNCE), HANDS)
    moves = engine.legal_moves(st)
    assert moves[0] == Move("option", "bell") and engine.describe(st, moves[0]) == "ring the bell"
    play(st, "bell")
    assert st.vars["rang"] == [True, False, False] and engine.to_move(st) == 0
    assert "bell" not in codes(st)                          # once per trick (and `when` says once per deal)
    texts = lines(st, st.events)
    assert "P1 announces ring the bell" in texts and "P1 shows 7S AS QS" in texts
    play(st, "7S")
    assert codes(st) == ["8S", "EX", "bell"]                # P2 may ring too, before his card
    play(st, "8S", "9S")                                    # P3's 9S wins trick 1
    assert "bell" not in codes(st)                          # trick 2: `when` no longer holds


def test_bots_make_the_announcements_their_expression_likes(tmp_path):
    st = stacked(mini(tmp_path, ANNOUNCE), HANDS)
    bot = HeuristicAgent(seed=0)
    assert bot.choose(st.view(0), engine.legal_moves(st)) == Move("option", "bell")
    play(st, "7S")
    assert bot.choose(st.view(1), engine.legal_moves(st)).kind == "card"   # P2 scores it 0


# -- tiered discards ------------------------------------------------------------------------------------------------
DISCARD = """  - id: shed
    type: discard
    who: "seats[0]"
    from: hand
    to: won
    count: 3
    allowed: ["suit(card) == 'S'", "suit(card) == 'H' or suit(card) == 'T'"]
    show: "suit(card) == 'T'"
"""


def test_discard_tiers_open_only_when_the_first_is_empty(tmp_path):
    game = mini(tmp_path, "", DISCARD)
    hands = [["7S", "8S", "T1", "7H", "EX", "T4", "AH"], ["8H", "AS", "T2", "10H", "JH", "QH", "KH"],
             ["T3", "9S", "9H", "10S", "JS", "KS", "QS"]]
    st = stacked(game, hands)
    assert engine.current_phase(st).id == "shed"
    assert codes(st) == ["7S", "8S"]                         # spades first
    play(st, "7S", "8S")
    assert codes(st) == ["7H", "AH", "T1", "T4"]             # then hearts and trumps, never the escape card
    play(st, "T1")
    assert any(text(st, e) == "P1 discards T1" and e.audience is None for e in st.events)  # `show`: public
    assert any(text(st, e) == "P1 discards 8S" and e.audience == (0,) for e in st.events)  # otherwise private


# -- extras, show_cards, hand text -----------------------------------------------------------------------------------
def test_suit_knows_the_extras_suits(tmp_path):
    game = mini(tmp_path, "stats:\n  trumps: \"count(suit(c) == 'T' for c in hand[seats[0]])\"\n")
    assert "trumps" in game.stats
    with pytest.raises(SpecError, match="'Q'"):
        mini(tmp_path, "stats:\n  trumps: \"count(suit(c) == 'Q' for c in hand[seats[0]])\"\n")


def test_hands_list_extras_by_suit_high_first(tmp_path):
    game = mini(tmp_path)
    cards = [game.deck.parse(c) for c in ["T1", "EX", "7S", "T4", "AH"]]
    assert render.hand_text(game, cards) == "S 7   H A   T4 T1 EX"


# -- display.result, facts, sessions ---------------------------------------------------------------------------------
RESULT = """
  - id: count
    type: effects
    do: "taken = sum(points(c) for c in won[seats[0]]) / 2"
facts:
  taken: {ask: "Half P1's points"}
scoring: "for s in seats: score[s] += if s == seats[0] then taken else 0"
sheet:
  score: {}
display:
  result:
    half: "taken"
    doubled: "2 * taken"
"""


def test_display_result_is_recorded_with_each_deal(tmp_path):
    game = mini(tmp_path, RESULT)
    st = stacked(game, HANDS)
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[-1])
    record = st.deals[-1]
    taken = record["facts"]["taken"]
    assert record["breakdown"] == [f"half: {taken:g}", f"doubled: {2 * taken:g}"]
    assert isinstance(taken, (int, float))                   # exact numbers reach records as JSON numbers


def test_display_result_reads_only_facts(tmp_path):
    with pytest.raises(SpecError, match="display.result may read only facts, and 'hand' is a zone"):
        mini(tmp_path, RESULT.replace('doubled: "2 * taken"', 'doubled: "len(hand[seats[0]])"'))


def test_a_session_may_end_on_a_redeal(tmp_path):
    game = mini(tmp_path, """
  - {id: void, type: effects, do: "if deal_no == 2: redeal()"}
match:
  end: "deal_no >= 2"
""")
    st = stacked(game, HANDS)
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert not st.match_over
    engine.next_deal(st)
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert st.deals[-1].get("redeal") and st.match_over
