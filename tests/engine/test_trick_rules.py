"""Trick rules worked out at each trick (`follow`, `must_trump`, `must_beat` as expressions, logged when they
change), `must_beat`, `until` (trick play ending on a claim), and announcements made once for many values
(`for:`). On a small spec of its own: 2 players, 3 cards each from spades and hearts 9 10 J Q K A, the other six in
a stock drawn from after each trick until it is closed or used up; hearts are trumps."""
from __future__ import annotations

from interp.bots.knowledge import knowledge
from interp.engine import match as engine
from interp.engine.actions import ActionSpace
from interp.engine.events import lines
from interp.engine.wording import parse_move
from interp.spec.compiler import load_game

MINI = """
name: mini
players: {default: 2}
seat_names: [P1, P2]
deck:
  suits:
    - {code: S, name: spades, symbol: "♠"}
    - {code: H, name: hearts, symbol: "♥"}
  ranks: ["9", "10", J, Q, K, A]
zones:
  hand: {per_seat: true, visible: owner}
  stock: {}
  won: {per_seat: true}
vars:
  closed: {type: bool}
  claimed: {type: seat}
  married: {type: str, per_seat: true}
define:
  strict: "closed or len(stock) == 0"
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 3}], rest: stock}
  - id: play
    type: tricks
    leader: "seats[0]"
    trump: "'H'"
    follow: "strict"
    must_trump: "strict"
    must_beat: "strict"
    won: won
    until: "claimed != none"
    announcements:
      - {name: close, label: close the stock, when: "len(cards) == 0 and not strict", do: "closed = true"}
      - {name: claim, label: "enough!", when: "len(cards) == 0", do: "claimed = me"}
      - name: marriage
        for: "s in suits"
        label: "marriage in {suit_symbol(s)}"
        when: "len(cards) == 0 and married[me] == none and any(rank_name(c) == 'K' for c in of_suit(hand[me], s)) and any(rank_name(c) == 'Q' for c in of_suit(hand[me], s))"
        do: "married[me] = s"
    on_trick:
      - "if not strict: move(top(stock), hand[winner])"
      - "if len(stock) > 0 and not closed: move(top(stock), hand[left(winner)])"
"""


def mini(tmp_path) -> object:
    path = tmp_path / "mini.yaml"
    path.write_text(MINI, encoding="utf-8")
    return load_game(str(path))


def stacked(game, hands: list, stock: list):
    stack = {game.zone_id("hand", s, 2): [game.deck.parse(c) for c in h] for s, h in enumerate(hands)}
    stack[game.zone_id("stock", None, 2)] = [game.deck.parse(c) for c in stock]
    return engine.new_match(game, 2, 0, {}, dealer=1, stack=stack)


def codes(st) -> list:
    return [engine.notation(st, m) for m in engine.legal_moves(st)]


def play(st, *moves: str) -> None:
    for said in moves:
        engine.apply(st, parse_move(st, said))


HANDS = [["10S", "KH", "QH"], ["9S", "AS", "JH"]]
STOCK = ["9H", "10H", "JS", "QS", "KS", "AH"]        # bottom to top: the winner of trick 1 draws A♥


def test_while_the_stock_is_open_any_card_may_follow(tmp_path):
    st = stacked(mini(tmp_path), HANDS, STOCK)
    play(st, "10S")
    assert codes(st) == ["9S", "AS", "JH"]
    assert "rules from now on: any card may be played" in lines(st, st.events)


def test_once_closed_a_player_must_follow_and_beat_the_card_led(tmp_path):
    st = stacked(mini(tmp_path), HANDS, STOCK)
    play(st, "close", "10S")
    assert codes(st) == ["AS"]                           # 9♠ follows but does not beat 10♠
    assert "rules from now on: follow suit, beat the trick in the suit led, trump when void" in lines(st, st.events)
    assert engine.current_phase(st).explain(st, "9S") == "you must follow suit (♠) and beat its highest card if you can"


def test_once_closed_a_player_void_in_the_suit_led_must_trump(tmp_path):
    st = stacked(mini(tmp_path), [["KH", "10S", "QH"], ["9H", "AH", "QS"]], STOCK)
    play(st, "close", "10S")
    assert codes(st) == ["QS"]                           # he can follow: the lower spade (nothing beats 10♠ but it)
    st = stacked(mini(tmp_path), [["10S", "KH", "QH"], ["9H", "AH", "JH"]], STOCK)
    play(st, "close", "10S")
    assert codes(st) == ["9H", "JH", "AH"]               # void in spades: any trump (all of them win)


def test_a_used_up_stock_makes_the_rules_strict_by_itself(tmp_path):
    st = stacked(mini(tmp_path), HANDS, ["9H", "10H"])
    play(st, "10S", "AS")                                # P2 wins and draws 10♥, P1 draws 9♥: the stock is used up
    play(st, "10H")                                      # P2 leads a trump: P1 (K♥ Q♥ 9♥) must beat it
    assert codes(st) == ["QH", "KH"]


def test_the_bots_infer_a_void_only_under_the_rules_of_that_trick(tmp_path):
    st = stacked(mini(tmp_path), [["10S", "KH", "QH"], ["9H", "AH", "QS"]], STOCK)
    play(st, "10S", "9H")                                # open stock: a heart on a spade proves nothing
    assert 1 not in knowledge(st.view(0)).voids
    st = stacked(mini(tmp_path), [["10S", "KH", "QH"], ["9H", "AH", "JH"]], STOCK)
    play(st, "close", "10S", "9H")                       # closed: P2 would have had to follow
    assert knowledge(st.view(0)).voids[1] == {"S"}


def test_a_claim_ends_the_trick_play_at_once(tmp_path):
    st = stacked(mini(tmp_path), HANDS, STOCK)
    play(st, "10S", "AS")                                # P2 wins trick 1 and leads
    assert "claim" in codes(st)
    play(st, "claim")
    assert st.vars["claimed"] == 1
    assert engine.current_phase(st) is None or engine.current_phase(st).id != "play"
    assert st.zones[st.zone_ids["hand"][0]]              # cards were left in hand


def test_one_announcement_for_each_suit(tmp_path):
    game = mini(tmp_path)
    st = stacked(game, [["KH", "QH", "10S"], ["9S", "AS", "JH"]], STOCK)
    assert codes(st) == ["close", "claim", "marriage H", "10S", "QH", "KH"]   # no spade marriage: only K♥ Q♥
    assert [engine.describe(st, m) for m in engine.legal_moves(st)][2] == "marriage in ♥"
    play(st, "marriage h")
    assert st.vars["married"] == ["H", None]
    assert "P1 announces marriage in ♥" in lines(st, st.events)
    assert "marriage H" not in codes(st)                 # once per trick (and here once per deal: `married`)


def test_the_action_space_numbers_each_value_of_an_announcement(tmp_path):
    space = ActionSpace(mini(tmp_path), 2)
    options = next(b for b in space.blocks if b.kind == "option").values
    assert options == ("close", "claim", "marriage H", "marriage S")   # the suits, sorted


def test_the_bots_infer_from_must_beat_that_a_lower_card_means_no_higher_one(tmp_path):
    st = stacked(mini(tmp_path), [["10S", "KH", "QH"], ["9S", "JH", "AH"]], STOCK)
    play(st, "close", "10S", "9S")                       # P2 follows with 9♠ under 10♠: he holds no higher spade
    kn = knowledge(st.view(0))
    p2 = st.zone_ids["hand"][1]
    assert kn.caps[(1, "S")] == st.game.deck.rank_of[st.game.deck.parse("10S")]
    assert all(p2 not in kn.places[st.game.deck.parse(c)] for c in ["JS", "QS", "KS", "AS"])
    assert p2 in kn.places[st.game.deck.parse("9H")]
