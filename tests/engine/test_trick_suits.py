"""A card's suit as an expression of the trump (`suit:` in a `tricks` phase): a jack counted in the trump suit, a
trump made of the jacks alone, no trumps at all. Following, trumping, overtrumping, the winner, the bots'
knowledge, the menu and the hand shown all read the effective suit; the card keeps its code. On a small spec of
its own: 3 players, 6 cards each from 9 10 J Q K A in four suits (the rest stays in the talon)."""
from __future__ import annotations

from interp.bots.knowledge import knowledge
from interp.engine import match as engine
from interp.engine.events import lines
from interp.engine.wording import menu, parse_move
from interp.spec.compiler import load_game
from interp.table import render

MINI = """
name: mini
players: {default: 3}
seat_names: [P1, P2, P3]
deck:
  suits:
    - {code: S, name: spades, symbol: "♠"}
    - {code: H, name: hearts, symbol: "♥"}
    - {code: D, name: diamonds, symbol: "♦"}
    - {code: C, name: clubs, symbol: "♣"}
  ranks: ["9", "10", J, Q, K, A]
zones:
  hand: {per_seat: true, visible: owner}
  talon: {}
  won: {per_seat: true}
options:
  trumps: {default: "H"}
define:
  same_colour(s): "if s == 'H' then 'D' else if s == 'D' then 'H' else if s == 'S' then 'C' else 'S'"
  jack_order(s): "if s == 'C' then 3 else if s == 'S' then 2 else if s == 'H' then 1 else 0"
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 6}], rest: talon}
  - id: play
    type: tricks
    leader: "seats[0]"
    trump: "if trumps == 'none' then none else trumps"
    won: won
"""

# the jack of trumps highest, the jack of the same colour next (it is a trump), then A K Q 10 9
BOWERS = """
    must_trump: true
    suit: "if rank_name(card) == 'J' and trump != none and suit(card) == same_colour(trump) then trump else suit(card)"
    strength: "if rank_name(card) == 'J' and suit(card) == trump then 20 else if rank_name(card) == 'J' and trump != none and suit(card) == same_colour(trump) then 19 else rank(card)"
"""

# every jack a trump, above the trump suit's own cards (J♣ J♠ J♥ J♦); with the trump 'jacks', only the jacks
JACKS = """
    suit: "if rank_name(card) == 'J' and trump != none then trump else suit(card)"
    strength: "if rank_name(card) == 'J' then 20 + jack_order(suit(card)) else rank(card)"
"""


def mini(tmp_path, rules: str) -> object:
    path = tmp_path / "mini.yaml"
    path.write_text(MINI + rules, encoding="utf-8")
    return load_game(str(path))


def stacked(game, hands: list, trumps: str = "H"):
    n = len(hands)
    stack = {game.zone_id("hand", s, n): [game.deck.parse(c) for c in h] for s, h in enumerate(hands)}
    return engine.new_match(game, n, 0, {"trumps": trumps}, dealer=n - 1, stack=stack)


def codes(st) -> list:
    return [engine.notation(st, m) for m in engine.legal_moves(st)]


def play(st, *moves: str) -> None:
    for said in moves:
        engine.apply(st, parse_move(st, said))


HANDS = [["9D", "AS", "KS", "9C", "10C", "QC"],      # P1 leads
         ["JD", "AD", "9S", "10S", "JS", "QS"],      # P2: the jack of diamonds, a trump when hearts are
         ["9H", "KD", "AH", "JH", "KC", "AC"]]       # P3: the jack of trumps and two more hearts


def test_the_same_colour_jack_does_not_follow_its_printed_suit(tmp_path):
    st = stacked(mini(tmp_path, BOWERS), HANDS)
    play(st, "9D")
    assert codes(st) == ["AD"]                           # J♦ is a heart here: only A♦ follows diamonds
    assert "J♦ counts as ♥ here" in engine.current_phase(st).explain(st, "JD")


def test_the_same_colour_jack_follows_a_trump_lead_and_is_the_second_best_trump(tmp_path):
    hands = [["AH", "9S", "KS", "9C", "10C", "QC"],
             ["JD", "AD", "9D", "10S", "JS", "QS"],
             ["9H", "KD", "QH", "JC", "KC", "AC"]]
    st = stacked(mini(tmp_path, BOWERS), hands)
    play(st, "AH")
    assert codes(st) == ["JD"]                           # its only heart
    play(st, "JD")
    assert codes(st) == ["QH", "9H"]                     # strongest first
    play(st, "QH")
    assert "P2 wins trick 1" in lines(st, st.events)     # J♦ (19) beats A♥ (6)


def test_the_jack_of_trumps_beats_the_same_colour_jack_and_must_trump_counts_it(tmp_path):
    hands = [["AS", "9S", "KS", "9C", "10C", "QC"],
             ["JD", "AD", "9D", "10D", "KH", "QD"],      # no spade: must trump, J♦ and K♥ are its trumps
             ["JH", "KD", "QH", "JC", "KC", "AC"]]       # no spade either
    st = stacked(mini(tmp_path, BOWERS), hands)
    play(st, "AS")
    assert codes(st) == ["JD", "KH"]
    play(st, "JD")
    assert codes(st) == ["JH", "QH"]                     # J♣ is a club: the jack of the other colour stays put
    play(st, "JH")
    assert "P3 wins trick 1" in lines(st, st.events)


def test_without_trumps_every_jack_keeps_its_suit(tmp_path):
    st = stacked(mini(tmp_path, BOWERS), HANDS, trumps="none")
    play(st, "9D")
    assert codes(st) == ["AD", "JD"]                     # no trump: J♦ is a diamond again (strongest first)


def test_every_jack_a_trump_and_a_trump_of_jacks_alone(tmp_path):
    game = mini(tmp_path, JACKS)
    hands = [["JS", "AS", "KS", "9C", "10C", "QC"],
             ["JD", "AD", "9S", "10S", "AH", "QS"],      # holds spades, but J♠ led is a trump: J♦ follows
             ["9H", "KD", "10H", "JH", "KC", "AC"]]
    st = stacked(game, hands, trumps="jacks")
    play(st, "JS")
    assert codes(st) == ["JD"]
    play(st, "JD")
    assert codes(st) == ["JH"]                           # hearts are a plain suit when only jacks are trumps
    play(st, "JH")
    assert "P1 wins trick 1" in lines(st, st.events)     # J♠ (22) over J♥ (21) and J♦ (20)
    assert "(trumps: jacks)" in engine.current_phase(st).prompt(st)


def test_the_bots_knowledge_reads_the_effective_suit(tmp_path):
    """On a club lead P2 plays a spade: void in clubs and (must_trump) in trumps — J♦, a heart here, included."""
    hands = [["9C", "AS", "KS", "9D", "10C", "QC"],
             ["JS", "AD", "9S", "10S", "KD", "QS"],
             ["9H", "JD", "AH", "JH", "KC", "AC"]]
    st = stacked(mini(tmp_path, BOWERS), hands)
    play(st, "9C", "JS")
    kn = knowledge(st.view(0))
    jd, p2 = st.game.deck.parse("JD"), st.zone_ids["hand"][1]
    assert kn.suits[jd] == "H" and {"C", "H"} <= kn.voids[1]
    assert p2 not in kn.places[jd]
    assert p2 in kn.places[st.game.deck.parse("KD")]   # a diamond P2 may hold


def test_the_hand_and_the_menu_are_grouped_by_effective_suit(tmp_path):
    game = mini(tmp_path, BOWERS)
    st = stacked(game, [HANDS[2], HANDS[0], HANDS[1]])
    view = st.view(0)
    shown = render.hand_text(game, view.zones[view.zone_ids["hand"][0]], *render.present.effective_suits(view))
    assert shown == "♥ J A 9   ♦ K   ♣ A K"
    st = stacked(game, [HANDS[1], HANDS[0], HANDS[2]])
    view = st.view(0)
    shown = render.hand_text(game, view.zones[view.zone_ids["hand"][0]], *render.present.effective_suits(view))
    assert shown == "♠ Q J 10 9   ♥ J♦   ♦ A"             # J♦ among the hearts, written in full
    assert [c.label for c in menu(st, engine.legal_moves(st))] == ["Q♠", "J♠", "10♠", "9♠", "J♦", "A♦"]
    assert "your hand: ♠ Q J 10 9   ♥ J♦   ♦ A" in render.table_lines(view, 0)


def test_a_save_in_mid_trick_keeps_the_effective_suits(tmp_path):
    from interp.engine.state import state_from_json
    game = mini(tmp_path, BOWERS)
    st = stacked(game, HANDS)
    play(st, "9D")
    back = state_from_json(game, st.to_json())
    assert back.ph["suits"] == st.ph["suits"] and codes(back) == ["AD"]


def test_a_phase_without_effective_suits_saves_as_before(tmp_path):
    """No `suits` (nor `rules`) in its progress: saves and their digests are those written before they existed."""
    st = stacked(mini(tmp_path, ""), HANDS)
    assert "suits" not in dict(st.ph) and "rules" not in dict(st.ph) and st.ph["suits"] is None
