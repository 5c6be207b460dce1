"""Schnapsen (games/schnapsen.yaml): the screen and the bots around marriages, closing, the strict play and going
out. The scoring rules' worked examples are tests/scenarios/schnapsen/."""
from __future__ import annotations

from interp.bots.agents import HeuristicAgent
from interp.engine import match as engine
from interp.engine.events import lines
from interp.engine.wording import menu, parse_move
from interp.table import render, rules_text
from tests.conftest import game_of

SCHNAPSEN = "games/schnapsen.yaml"
# the deal of tests/scenarios/schnapsen/going-out.yaml: South deals, clubs are trumps (J♣ turned up)
HANDS = [["AH", "10H", "KS", "QS", "AS"], ["JH", "QH", "KD", "QD", "JD"]]
TALON = ["KC", "QC", "10C", "AC", "10D", "AD", "KH", "JS", "10S"]       # bottom to top
GOING_OUT = ["marriage S", "QS", "JD", "AH", "QH", "KS", "JS", "10D", "AD", "AC", "QC", "KD", "JC", "AS", "KC",
             "10C", "10S"]


def stacked():
    game = game_of(SCHNAPSEN)
    stack = {game.zone_id("hand", s, 2): [game.deck.parse(c) for c in h] for s, h in enumerate(HANDS)}
    stack[game.zone_id("trumpcard", None, 2)] = [game.deck.parse("JC")]
    stack[game.zone_id("talon", None, 2)] = [game.deck.parse(c) for c in TALON]
    return engine.new_match(game, 2, 0, {}, dealer=1, stack=stack)


def play(st, *moves: str) -> None:
    for said in moves:
        engine.apply(st, parse_move(st, said))


def labels(st) -> list:
    return [c.label for c in menu(st, engine.legal_moves(st))]


def test_the_first_lead_offers_the_marriage_closing_and_going_out_before_the_cards():
    st = stacked()
    assert labels(st)[:3] == ["marriage in ♠", "close the talon", "66 — I go out"]
    play(st, "marriage s")
    assert labels(st) == ["close the talon", "66 — I go out", "K♠", "Q♠"]    # he must lead one of the couple
    assert "North shows K♠ Q♠" in lines(st, st.events) and "North announces marriage in ♠" in lines(st, st.events)


def test_closing_is_logged_with_the_strict_rules_it_brings():
    st = stacked()
    play(st, "close")
    log = lines(st, st.events)
    assert log[-2:] == ["North announces close the talon",
                        "rules from now on: follow suit, beat the trick in the suit led, trump when void"]


def test_the_bots_go_out_with_66_and_not_before():
    st = stacked()
    play(st, *GOING_OUT)                                                 # South leads trick 9 with 70
    move = HeuristicAgent(seed=3).choose(st.view(1), engine.legal_moves(st))
    assert engine.notation(st, move) == "claim"
    st = stacked()
    play(st, "marriage S", "QS", "JD")                                   # North leads trick 2 with 25
    move = HeuristicAgent(seed=3).choose(st.view(0), engine.legal_moves(st))
    assert engine.notation(st, move) != "claim"


def test_the_screen_shows_the_trump_card_then_the_strict_lead():
    st = stacked()
    assert render.table_lines(st.view(0), 0) == ["your hand: ♠ A K Q   ♥ A 10", "trump card: ♣ J"]
    play(st, *GOING_OUT[:11])                                            # trick 6: the talon is used up
    assert render.table_lines(st.view(1), 1) == ["tricks North 3, South 2", "your hand: ♥ J   ♦ K Q   ♣ 10 K"]
    assert engine.to_move(st) == 1 and engine.current_phase(st).prompt(st) == "trick 6 (trumps: ♣): your lead"


def test_the_rules_summary_says_when_the_strict_rules_apply_and_when_the_play_stops():
    game = game_of(SCHNAPSEN)
    play = next(p for p in game.phases if p.id == "play")
    assert rules_text.phase_detail(game, play) == (
        "tricks: follow suit (when strict), beat the best card of the suit led when you can (when strict), "
        "trump when you cannot follow (when strict), the play stops when claimed != none")
