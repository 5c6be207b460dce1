"""Euchre (games/euchre.yaml): the bowers on the screen and in play, making the trump in two rounds, the lone hand.
The scoring rules' worked examples are tests/scenarios/euchre/."""
from __future__ import annotations

from interp.bots.agents import HeuristicAgent
from interp.engine import match as engine
from interp.engine.actions import ActionSpace
from interp.engine.wording import menu, parse_move
from interp.table import render, rules_text
from tests.conftest import game_of

EUCHRE = "games/euchre.yaml"
# East deals; South holds the left bower when hearts are trumps (J♦), West the right bower (J♥)
HANDS = {"South": ["JD", "AH", "KS", "AC", "10C"], "West": ["JH", "QS", "9S", "KD", "QC"],
         "North": ["AS", "10S", "9C", "QH", "10D"], "East": ["10H", "KH", "AD", "9D", "JC"]}


def stacked():
    game = game_of(EUCHRE)
    seats = {name: s for s, name in enumerate(["South", "West", "North", "East"])}
    stack = {game.zone_id("hand", seats[name], 4): [game.deck.parse(c) for c in cards] for name, cards in HANDS.items()}
    stack[game.zone_id("turnup", None, 4)] = [game.deck.parse("9H")]
    stack[game.zone_id("kitty", None, 4)] = [game.deck.parse(c) for c in ["JS", "KC", "QD"]]
    return engine.new_match(game, 4, 0, {}, dealer=3, stack=stack)


def play(st, *moves: str) -> None:
    for said in moves:
        engine.apply(st, parse_move(st, said))


def labels(st) -> list:
    return [c.label for c in menu(st, engine.legal_moves(st))]


def test_making_the_trump_offers_ordering_up_alone_or_not_then_the_other_suits():
    st = stacked()
    assert labels(st) == ["order it up", "order it up alone", "pass"]
    assert engine.current_phase(st).prompt(st) == "order up ♥, or pass?"
    play(st, "pass", "pass", "pass")
    assert labels(st) == ["take it up", "take it up alone", "pass"]        # the dealer takes it up
    play(st, "pass")
    assert engine.current_phase(st).prompt(st) == "name a suit other than ♥, or pass?"
    assert [label for label in labels(st) if "alone" not in label] == ["spades", "diamonds", "clubs", "pass"]


def test_the_hand_on_the_screen_shows_the_left_bower_among_the_trumps():
    st = stacked()
    play(st, "order it up", "9D")                                         # hearts; East discards 9♦
    view = st.view(0)
    lines = render.table_lines(view, 0)
    assert "your hand: ♠ K   ♥ J♦ A   ♣ A 10" in lines
    assert labels(st) == ["K♠", "J♦", "A♥", "A♣", "10♣"]                   # the menu reads like the hand


def test_a_lone_maker_plays_three_handed_and_the_next_player_leads_for_a_sitting_out_eldest():
    st = stacked()
    play(st, "pass", "order it up alone")                                 # West alone: his partner East sits out
    play(st, "9D")                                                        # East, the dealer, still discards
    assert engine.current_phase(st).id == "play" and engine.to_move(st) == 0
    play(st, "AC", "QC", "9C")
    assert engine.to_move(st) == 0 and st.ph["trick"] == [] and st.ph["no"] == 1   # three cards: South won it
    st = stacked()
    play(st, "pass", "pass", "order it up alone", "9D")                   # North alone: South sits out
    assert engine.to_move(st) == 1                                        # West, the next after the eldest, leads


def test_a_lone_maker_counts_in_the_bots_making_decisions():
    """A hand of both bowers and three more trumps orders up alone; a hand without trumps passes."""
    st = stacked()
    game = st.game
    hand = st.zones[st.zone_ids["hand"][0]]
    hand[:] = [game.deck.parse(c) for c in ["JH", "JD", "AH", "KH", "QH"]]
    move = HeuristicAgent(seed=1).choose(st.view(0), engine.legal_moves(st))
    assert engine.describe(st, move) == "order it up alone"
    hand[:] = [game.deck.parse(c) for c in ["9S", "10S", "9C", "10C", "QD"]]
    assert engine.describe(st, HeuristicAgent(seed=1).choose(st.view(0), engine.legal_moves(st))) == "pass"


def test_the_suit_a_maker_names_is_numbered_by_the_suits():
    space = ActionSpace(game_of(EUCHRE), 4)
    block = next(b for b in space.blocks if b.name == "action:name")
    assert block.radices == (("C", "D", "H", "S"), (False, True))


def test_the_rules_summary_says_which_suit_a_card_belongs_to():
    game = game_of(EUCHRE)
    play = next(p for p in game.phases if p.id == "play")
    assert rules_text.phase_detail(game, play) == (
        "tricks: follow suit, a card's suit in the play: if left_bower(card, trump) then trump else suit(card)")
