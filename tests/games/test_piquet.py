"""Piquet (games/piquet*.yaml) as data: stacked deals with every number computed by hand from the rules (the seeds;
docs/seed-notes/piquet.md), the declarations' comparisons and protocol, carte blanche's special order, the talon
peeks, the game end mid-deal, the variants (old rules, 36 cards, Rubicon, Parlett), and the score keeper."""
from __future__ import annotations

import glob
import json
import os
import random
import subprocess
import sys

import pytest

from interp.engine import match as engine
from interp.engine.events import lines
from interp.engine.phases.base import with_locals
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError
from interp.runs.scenario import run_scenario
from interp.spec.loader import load_spec
from interp.table.scorekeeper import score_deals
from tests.conftest import ROOT, game_of

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "piquet", "*.yaml")))
PIQUET = "games/piquet.yaml"
FILES = ["games/piquet.yaml", "games/piquet-old.yaml", "games/piquet-17c.yaml", "games/piquet-rubicon.yaml",
         "games/piquet-parlett.yaml", "games/piquet-rubicon-parlett.yaml"]
NORTH, SOUTH = 0, 1

# The seed's example hands (tests/scenarios/piquet/seed-repique.yaml): North deals, South is elder.
SEED_HANDS = dict(South="AS 8S 7S AH KH 7H AD KD QD 8D AC 9C", North="KS QS JS 10S 9S QH JH 10H 9H 8H 8C 9D",
                  talon="7D 7C JD 10D KC QC JC 10C")


# -- helpers -----------------------------------------------------------------------------------------------------------
def stack(game, **zones) -> dict:
    out = {}
    for name, cards in zones.items():
        codes = [game.deck.parse(c) for c in cards.split()]
        if name in ("talon", "left"):
            out[game.zone_id(name, None, 2)] = codes
        else:
            out[game.zone_id("hand", game.seat_names.index(name), 2)] = codes
    return out


def start(path=PIQUET, options=None, dealer=NORTH, **zones):
    game = game_of(path)
    return engine.new_match(game, 2, 0, options or {}, dealer=dealer, stack=stack(game, **zones))


def play(st, *texts):
    for text in texts:
        for word in (text.split(",") if "," in text else [text]):
            engine.apply(st, parse_move(st, word.strip()))


def legal(st) -> list:
    return [engine.notation(st, m) for m in engine.legal_moves(st)]


def zone(st, name, seat=None) -> list:
    return [st.game.deck.code(c) for c in st.zones[st.game.zone_id(name, seat, 2)]]


def seen(st, seat, name, owner=None) -> list:
    view = st.view(seat)
    return [st.game.deck.code(c) for c in view.zones[st.game.zone_id(name, owner, 2)]]


def texts(st, seat=None) -> list:
    return lines(st, st.events, seat)


def phase_id(st) -> str:
    return engine.current_phase(st).id


def to_declarations(st):
    """The seed hands' exchanges (one card each) and elder's 'keep': the declarations come next."""
    play(st, "9C", "done", "9D", "done", "keep")
    assert phase_id(st) == "declarations"


# -- stacked deals (interp run) ----------------------------------------------------------------------------------------
def test_scenarios_cover_the_issue():
    names = {os.path.basename(p)[:-5] for p in SCENARIOS}
    assert {"seed-repique", "pique", "capot-repique", "game-ends-at-repique", "game-ends-canonical-order"} <= names


def test_interp_run_prints_the_dialogue_and_the_entries():
    out = subprocess.run([sys.executable, "-m", "interp.cli", "run", "tests/scenarios/piquet/seed-repique.yaml"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for line in ("South: point of five", "North: making?", "South: 46", "North: not good", "South: no sequence",
                 "South: quatorze of aces", "North: good", "North: repique", "North: score +99", "North: repique +60"):
        assert line in out.stdout


# -- the declarations: comparison and protocol ----------------------------------------------------------------------
def test_point_is_compared_by_length_then_value_and_younger_answers_each_step():
    st = start(**SEED_HANDS)
    to_declarations(st)
    assert legal(st) == ["point of five", "point of three", "point of one"]  # elder must declare a point (no pass)
    play(st, "point of five")
    assert legal(st) == ["good", "equal"]  # North's suits of five cannot be better by length alone
    play(st, "making?")
    assert legal(st) == ["46"]
    play(st, "46")
    assert legal(st) == ["good", "not good"]  # 49 and 47 both beat 46; none is equal


def test_sequences_and_sets_compare_by_length_then_top():
    st = start(**SEED_HANDS)
    to_declarations(st)
    phase = engine.current_phase(st)
    point, sequence, sets = phase.categories
    # North's quint to the king beats his quint to the queen, which beats any tierce
    keys = [k for k, _ in phase.hand(st, sequence, NORTH)]
    assert keys == [(5 * 10 + 6,), (5 * 10 + 5,)]
    # South's tierce to the ace (a shorter sequence with a higher top) ranks below both
    assert phase.hand(st, sequence, SOUTH)[0][0] == (3 * 10 + 7,) < keys[1]
    assert [k for k, _ in phase.hand(st, sets, SOUTH)] == [(4 * 10 + 7,)]
    # the point: 5 cards of 49 first, then 5 of 47, then the clubs (8♣ 7♣: 2 cards, 15)
    assert [k for k, _ in phase.hand(st, point, NORTH)] == [(5, 49), (5, 47), (2, 15)]

    def key(cat, codes):
        cards = [st.game.deck.parse(c) for c in codes.split()]
        return tuple(with_locals(st, {"me": SOUTH, "combo": cards}, step[0]) for step in cat.steps)
    # a quatorze of tens beats a trio of aces; among trios the higher rank wins
    assert key(sets, "10S 10H 10D 10C") > key(sets, "AS AH AD") > key(sets, "KS KH KD")
    # a quart to the 10 beats a tierce to the ace; a quart to the king beats a quart to the queen
    assert key(sequence, "10H 9H 8H 7H") > key(sequence, "AD KD QD")
    assert key(sequence, "KC QC JC 10C") > key(sequence, "QS JS 10S 9S")
    # four cards of 41 lose to five of 40 (length first); five of 48 beat five of 47
    assert key(point, "AS KS QS 9S 7S") == (5, 47) < key(point, "AH KH QH 9H 8H") == (5, 48)
    assert key(point, "AD KD QD JD") == (4, 41) < key(point, "10C 9C 8C 7C QC")


def test_the_seed_example_dialogue_sinking_and_claiming():
    st = start(**SEED_HANDS)
    to_declarations(st)
    play(st, "point of five", "making?", "46", "not good")
    assert legal(st) == ["tierce to the ace", "pass"]  # sequences and sets may be sunk
    play(st, "pass")
    assert legal(st) == ["quint to the king", "quint to the queen", "pass"]  # younger claims what elder did not
    play(st, "quint to the king")
    assert legal(st) == ["quatorze of aces", "pass"]
    play(st, "quatorze of aces")
    assert legal(st) == ["good"]  # North has no set at all
    play(st, "good")
    assert st.vars["point"] == [5, 0] and st.vars["sequences"] == [30, 0] and st.vars["sets"] == [0, 14]
    # South scored his quatorze at once; North's 35 wait for South's first lead
    assert st.vars["said"] == [0, 14]
    # North's claim was his own business until then
    assert "North: quint to the king" in texts(st, NORTH) and "North: quint to the king" not in texts(st, SOUTH)
    play(st, "AD")
    assert st.vars["said"] == [95, 14]  # 5 + 30 + repique 60, told after the lead
    assert "North: quint to the queen: Q♥ J♥ 10♥ 9♥ 8♥" in texts(st, SOUTH)


def test_equal_point_and_equal_sequence_score_for_neither_and_a_sunk_category_can_be_claimed():
    # South: ♠ A K Q 9 8 (5 cards, 48; tierce to the ace), trio of aces. North: ♥ A K Q 9 8 (5, 48; tierce to the
    # ace), trio of jacks. South exchanges 7♥ for 10♥, North 7♠ for Q♣.
    st = start(South="AS KS QS 9S 8S 7H AD 8D 7D AC 8C 7C", North="AH KH QH 9H 8H JS 10S 7S JD 10D JC 9C",
               talon="10H QC JH KD QD 9D KC 10C")
    play(st, "7H", "done", "7S", "done", "keep", "point of five", "making?", "48")
    assert legal(st) == ["good", "equal"]
    play(st, "equal", "tierce to the ace")
    assert legal(st) == ["good", "equal"]
    play(st, "equal")
    assert legal(st) == ["trio of aces", "pass"]
    play(st, "pass", "trio of jacks")
    assert st.vars["point"] == [0, 0] and st.vars["sequences"] == [0, 0] and st.vars["sets"] == [3, 0]
    assert ["North: equal", "South: tierce to the ace", "North: equal", "South: no sets"] == \
        [t for t in texts(st) if t.startswith(("North: equal", "South: tierce", "South: no sets"))]


# South: ♠ K Q J 10 9 (a quint to the king, and the point: 5 cards), ♥ A K Q (a tierce to the ace); he exchanges
# 7♦ for 9♥. North has no sequence and no suit of five (he exchanges 7♥ for 9♣).
EXTRAS_HANDS = dict(South="KS QS JS 10S 9S AH KH QH 7D 8D 7C 8C", North="AS 8S 7S JH 10H 8H 7H AD KD JD 10D AC",
                    talon="9H 9C QD 9D KC QC JC 10C")


def declare_sequence(path: str, moves: list) -> int:
    st = start(path, **EXTRAS_HANDS)
    play(st, "7D", "done", "7H", "done")
    if phase_id(st) == "talon-shown":
        play(st, "leave")
    play(st, "keep", "point of five", "good", *moves)
    return st.vars["sequences"][SOUTH]


def test_extras_score_only_when_they_do_not_beat_the_winning_sequence():
    st = start(**EXTRAS_HANDS)
    play(st, "7D", "done", "7H", "done", "keep", "point of five", "good")
    assert legal(st) == ["quint to the king", "tierce to the ace", "pass"]
    # Declared and accepted, the tierce scores alone: the quint beats it. The quint carries the tierce: 15 + 3.
    assert declare_sequence(PIQUET, ["tierce to the ace", "good"]) == 3
    assert declare_sequence(PIQUET, ["quint to the king", "good"]) == 18


# -- carte blanche -----------------------------------------------------------------------------------------------------
def test_elder_carte_blanche_special_order():
    # South (elder) holds no K, Q or J. (1) he declares it and the number he will exchange, (2) North discards,
    # (3) South shows his hand, (4) South exchanges, (5) North draws.
    st = start(South="AS 10S 9S 8S 7S AH 10H 9H AD 10D AC 10C",
               North="KS QS JS KH QH JH KD QD JD KC QC JC", talon="8H 7H 9D 8D 7D 9C 8C 7C")
    assert phase_id(st) == "blanche-elder"
    play(st, "declare")
    assert legal(st) == ["1", "2", "3", "4", "5"]
    play(st, "3")
    assert phase_id(st) == "younger-exchange" and engine.actor(st) == NORTH
    play(st, "KS", "done")  # younger may take up to 8 - 3 = 5
    assert phase_id(st) == "elder-exchange"
    log = texts(st)
    shown = "South's hand shown: A♠ 10♠ 9♠ 8♠ 7♠ A♥ 10♥ 9♥ A♦ 10♦ A♣ 10♣"
    assert log.index("North discards K♠") < log.index(shown)
    assert seen(st, NORTH, "hand", SOUTH) == []  # shown, then back in his hand
    assert legal(st) == ["7S", "8S", "9S", "10S", "AS", "9H", "10H", "AH", "10D", "AD", "10C", "AC"]  # no 'done'
    play(st, "7S", "8S", "9S")
    assert zone(st, "hand", SOUTH)[-3:] == ["8H", "7H", "9D"] and zone(st, "hand", NORTH)[-1] == "8D"
    assert st.vars["blanche"] == [0, 10] and st.vars["said"] == [0, 10]


def test_younger_carte_blanche_comes_after_elder_exchange():
    st = start(South="KS QS JS KH QH JH KD QD JD KC QC JC",
               North="AS 10S 9S 8S 7S AH 10H 9H AD 10D AC 10C", talon="8H 7H 9D 8D 7D 9C 8C 7C")
    assert phase_id(st) == "elder-exchange"
    play(st, "KS", "done")
    assert phase_id(st) == "blanche-younger" and texts(st)[-1] == "South exchanges 1"
    play(st, "declare")
    assert st.vars["blanche"] == [10, 0]
    assert "North's hand shown: A♠ 10♠ 9♠ 8♠ 7♠ A♥ 10♥ 9♥ A♦ 10♦ A♣ 10♣" in texts(st)


def test_both_carte_blanche_score_only_in_the_17th_century_game():
    # 36 cards: the twelve court cards are all in the talon, so both hands are blank.
    hands = dict(South="AS 10S 9S 8S 7S 6S AH 10H 9H 8H 7H 6H", North="AD 10D 9D 8D 7D 6D AC 10C 9C 8C 7C 6C",
                 talon="KS QS JS KH QH JH KD QD JD KC QC JC")
    st = start("games/piquet-17c.yaml", **hands)
    play(st, "declare")
    assert legal(st) == ["1", "2", "3", "4", "5", "6", "7", "8"]  # elder exchanges up to 8
    play(st, "8")
    assert phase_id(st) == "blanche-younger"
    play(st, "declare")
    assert st.vars["blanche"] == [10, 10]


# -- the talon: who may look at what -----------------------------------------------------------------------------------
def test_elder_sees_what_he_left_and_younger_the_rest_of_the_talon():
    st = start(**SEED_HANDS)
    play(st, "9C", "done")
    assert zone(st, "left") == ["7C", "JD", "10D", "KC"]  # the four more South could have taken
    assert seen(st, SOUTH, "left") == ["7C", "JD", "10D", "KC"] and seen(st, NORTH, "left") == []
    assert seen(st, SOUTH, "talon") == [] and seen(st, NORTH, "talon") == []
    play(st, "9D", "done")
    assert zone(st, "hand", NORTH)[-1] == "7C"  # younger draws the cards elder left first
    assert seen(st, NORTH, "left") == ["JD", "10D", "KC"] and seen(st, NORTH, "talon") == ["QC", "JC", "10C"]
    assert seen(st, SOUTH, "talon") == []


def test_elder_may_see_the_rest_by_naming_his_first_lead():
    st = start(**SEED_HANDS)
    play(st, "9C", "done", "9D", "done")
    assert legal(st) == ["keep", "S", "H", "D", "C"]
    play(st, "D")
    assert seen(st, SOUTH, "talon") == ["QC", "JC", "10C"] and seen(st, NORTH, "left") == ["JD", "10D", "KC"]
    play(st, "point of five", "making?", "46", "not good", "pass", "quint to the king", "quatorze of aces", "good")
    assert phase_id(st) == "play" and legal(st) == ["7D", "8D", "QD", "KD", "AD"]  # the first lead is a diamond
    with pytest.raises(IllegalMoveError, match="A♠ may not be played now"):
        parse_move(st, "AS")
    play(st, "AD", "7C")
    assert "AS" in legal(st)


# -- the game end mid-deal, pique and repique in the canonical order ---------------------------------------------------
def test_target_reached_by_carte_blanche_ends_the_game_before_the_exchange():
    game = game_of(PIQUET)
    st = engine.new_match(game, 2, 0, dealer=NORTH, deal=False,
                          stack=stack(game, South="AS 10S 9S 8S 7S AH 10H 9H AD 10D AC 10C",
                                      North="KS QS JS KH QH JH KD QD JD KC QC JC", talon="8H 7H 9D 8D 7D 9C 8C 7C"))
    st.sheet["score"] = [40, 92]
    engine.start_deal(st)
    play(st, "declare")  # South 92 + 10 = 102: the game ends at once
    assert st.match_over and st.deal_over
    assert st.sheet["score"] == [40, 102] and st.sheet["partie"] == [-62, 62]


def test_pique_needs_the_opponent_to_have_scored_nothing():
    # pique.yaml's deal, but South leads 8♦ first: North wins it with K♦ and scores. South (24 from his
    # declarations) still reaches 30 with his trick points, but after North scored: no pique.
    data = load_spec(os.path.join(ROOT, "tests", "scenarios", "piquet", "pique.yaml")).data
    hands = {seat: " ".join(cards) for seat, cards in data["zones"]["hand"].items()}
    st = start(talon=" ".join(data["zones"]["talon"]), **hands)
    play(st, "9C", "done", "7C", "done", "keep", "point of six", "good", "quint to the ace", "good", "trio of aces",
         "good", "8D", "KD")
    assert st.vars["play"] == [1, 1] and st.vars["said"] == [1, 25]
    play(st, "KH", "AH")  # North leads (2); South wins North's lead (26)
    play(st, "AS", "10H", "KS", "10D", "QS", "10C", "JS", "JC")  # four leads: South 24 + 6 = 30
    assert st.vars["play"] == [2, 6] and st.vars["piqued"] == [False, False] and st.vars["said"] == [2, 30]
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert "pique" not in st.deals[-1]["entries"]


# -- the variants ------------------------------------------------------------------------------------------------------
def test_old_rules_point_by_value_and_trick_points_with_ten_or_higher():
    game = game_of("games/piquet-old.yaml")
    st = start("games/piquet-old.yaml", **SEED_HANDS)
    to_declarations(st)
    # the point is declared by its value at once: South ♦ A K Q 8 7 = 46
    assert legal(st)[0] == "point of 46"
    phase = engine.current_phase(st)
    # North's ♠ 49 and ♥ 47, then the clubs (8♣ 7♣: 15)
    assert [k for k, _ in phase.hand(st, phase.categories[0], NORTH)] == [(49,), (47,), (15,)]
    play(st, "point of 46", "not good")
    assert st.vars["point"][NORTH] == 5  # 49 rounds to 50: 5
    play(st, "pass", "quint to the king", "quatorze of aces", "good")
    play(st, "7D", "7C")  # a lead with a 7 scores nothing; South wins, no point for winning his own lead
    assert st.vars["play"] == [0, 0]
    play(st, "AD", "8C")  # a lead with an ace scores
    assert st.vars["play"] == [0, 1]
    assert game.name.startswith("Piquet (old")


def test_old_rules_round_the_point_half_up():
    game = game_of("games/piquet-old.yaml")
    st = start("games/piquet-old.yaml", **SEED_HANDS)
    to_declarations(st)
    phase = engine.current_phase(st)
    point = phase.categories[0]
    scores = {v: with_locals(st, {"me": SOUTH, "combo": [game.deck.parse(c) for c in cards]}, point.score)
              for v, cards in ((45, ["AS", "JS", "9S", "8S", "7S"]), (44, ["KS", "QS", "JS", "7S", "7H"]),
                               (35, ["AS", "KS", "7S", "7H"]))}
    assert scores == {45: 5, 44: 4, 35: 4}


def test_the_36_card_game_deals_twelve_each_and_a_talon_of_twelve_and_plays_out():
    game = game_of("games/piquet-17c.yaml")
    assert len(game.deck) == 36 and "6S" in game.deck.codes and game.deck.points[game.deck.parse("6H")] == 6
    for seed in range(6):
        st = engine.new_match(game, 2, seed)
        assert [len(zone(st, "hand", s)) for s in range(2)] == [12, 12] and len(zone(st, "talon")) == 12
        rng = random.Random(seed)
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        assert sorted(engine.card_census(st)) == list(range(36))
        assert st.match_over or sum(st.vars["tricks"]) == 12


def test_a_nine_card_sequence_scores_19_in_the_36_card_game():
    game = game_of("games/piquet-17c.yaml")
    st = start("games/piquet-17c.yaml", South="AS KS QS JS 10S 9S 8S 7S 6S AH 6H 6D",
               North="KH QH JH 10H 9H 8H 7H KD QD JD 10D 9D", talon="8D 7D AC KC QC JC 10C 9C 8C 7C 6C AD")
    play(st, "6D", "done", "9D", "done", "keep")
    play(st, "point of 81", "good")           # the old rules' point: by value, 81 scores 8
    assert st.vars["point"][SOUTH] == 8
    assert legal(st)[0] == "neuvième to the ace"
    play(st, "neuvième to the ace", "good")
    assert st.vars["sequences"][SOUTH] == 19 and game.players == (2,)


def test_the_17th_century_game_is_the_old_rules_with_four_changes():
    """Seed 1: Molière's piquet differs from the old rules in four ways only (36 cards; elder 1-8; both cartes
    blanches score; a nine-card sequence 19): a lead with a 9 scores nothing, with a 10 one point."""
    old, c17 = load_spec(os.path.join(ROOT, "games", "piquet-old.yaml")), \
        load_spec(os.path.join(ROOT, "games", "piquet-17c.yaml"))
    assert c17.data["define"]["lead_scores(c)"] == old.data["define"]["lead_scores(c)"] == "rank(c) >= ten"
    st = start("games/piquet-17c.yaml", South="AS KS QS JS 10S 9S 8S 7S 6S AH 6H 6D",
               North="KH QH JH 10H 9H 8H 7H KD QD JD 10D 9D", talon="8D 7D AC KC QC JC 10C 9C 8C 7C 6C AD")
    play(st, "6D", "done", "9D", "done", "keep", "point of 81", "good", "neuvième to the ace", "good")
    play(st, "9S", "7D")
    assert st.vars["play"][SOUTH] == 0
    play(st, "10S", "10D")
    assert st.vars["play"][SOUTH] == 1


# The hands of the equal test: both hold a point of five (48) and a tierce to the ace.
EQUAL_HANDS = dict(South="AS KS QS 9S 8S 7H AD 8D 7D AC 8C 7C", North="AH KH QH 9H 8H JS 10S 7S JD 10D JC 9C",
                   talon="10H QC JH KD QD 9D KC 10C")


def test_parlett_declares_sequences_length_first_then_the_top_card():
    st = start("games/piquet-parlett.yaml", **EQUAL_HANDS)
    play(st, "7H", "done")
    assert "done" in legal(st)  # younger may exchange none
    play(st, "done")
    assert legal(st) == ["leave", "show"]  # nobody looks alone: the rest of the talon is shown to both, or not
    assert seen(st, SOUTH, "left") == [] and seen(st, NORTH, "talon") == []
    play(st, "show")
    assert seen(st, SOUTH, "talon") == seen(st, NORTH, "talon") == ["9D", "KC", "10C"]
    assert seen(st, SOUTH, "left") == seen(st, NORTH, "left") == ["QC", "JH", "KD", "QD"]
    assert phase_id(st) == "declarations"  # the talon is open: no lead suit to name
    assert seen(st, SOUTH, "discards", SOUTH) == ["7H"] and seen(st, NORTH, "discards", SOUTH) == []
    play(st, "point of five", "making?", "48", "equal")
    assert legal(st) == ["tierce", "pass"]
    play(st, "tierce")
    assert [engine.describe(st, m) for m in engine.legal_moves(st)] == ["good", "how high?"]
    play(st, "how high?")
    assert legal(st) == ["to the ace"]
    play(st, "to the ace", "equal")
    assert st.vars["sequences"] == [0, 0] and st.vars["point"] == [0, 0]


def test_parlett_extras_have_no_strength_limit():
    # the tierce declared and accepted carries the quint that beats it: 3 + 15
    assert declare_sequence("games/piquet-parlett.yaml", ["tierce", "good"]) == 18


def test_making_commits_younger_to_the_point_he_compared():
    """Seed hands with 8♠/8♣ swapped (making-then-not-good.yaml): North holds six spades and five hearts (47).
    "Point of five." — "Making?" — "46." — "Not good.": North wins with his hearts, 5 points, not the spades' 6."""
    st = start(South="AS 8C 7S AH KH 7H AD KD QD 8D AC 9C", North="KS QS JS 10S 9S QH JH 10H 9H 8H 8S 9D",
               talon=SEED_HANDS["talon"])
    to_declarations(st)
    play(st, "point of five")
    assert legal(st) == ["good", "not good", "equal"]  # six spades beat five; five hearts are equal so far
    play(st, "making?", "46", "not good")
    assert st.vars["point"][NORTH] == 5 and st.vars["claims"][NORTH] == ["point of five, 47: Q♥ J♥ 10♥ 9♥ 8♥"]


# Parlett: younger holds a sixième to the king (♠) and a quint to the queen (♥); elder a quint to the jack (♦).
PARLETT_SEQUENCES = dict(South="JD 10D 9D 8D 7D AS 7S AH KH 7H AC KC",
                         North="KS QS JS 10S 9S 8S QH JH 10H 9H 8H 7C", talon="8C AD KD QD QC JC 10C 9C")


def test_how_high_commits_younger_to_the_length_he_compared():
    """Parlett's two-step sequence: "Quint." — "How high?" — "To the jack." — "Not good.": North wins with the
    quint to the queen he compared, and scores the sixième only as an extra (no strength limit): 15 + 16."""
    st = start("games/piquet-parlett.yaml", **PARLETT_SEQUENCES)
    play(st, "7S", "done", "done", "leave", "keep", "point of five", "not good")
    assert st.vars["point"][NORTH] == 6
    play(st, "quint")
    assert legal(st) == ["good", "not good", "equal"]          # "equal" is said "how high?"
    play(st, "how high?", "to the jack", "not good")
    assert st.vars["sequences"][NORTH] == 31
    assert [c.split(":")[0] for c in st.vars["claims"][NORTH][1:]] == ["quint to the queen", "sixième to the king"]


# -- whole games, bots, command line -----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES)
def test_bot_games_end_with_a_winner_and_the_running_totals_add_up(path):
    from interp.bots.agents import HeuristicAgent
    from interp.runs.simulate import play_deal
    game = game_of(path)
    st = engine.new_match(game, 2, 11)
    agents = {s: HeuristicAgent(s) for s in range(2)}
    while True:
        play_deal(st, agents)
        entries, facts = st.deals[-1]["entries"], st.deals[-1]["facts"]
        if sum(facts["tricks"]) == 12:  # played out: everything counts, and the totals told add up to it
            for s in range(2):
                parts = [facts[k][s] for k in ("blanche", "point", "sequences", "sets", "play")]
                bonus = [entries.get(col, {}).get(s, 0) for col in ("repique", "pique", "the_cards")]
                assert entries.get("score", {}).get(s, 0) == sum(parts) + sum(bonus) == st.vars["said"][s]
                assert bonus[2] == (40 if facts["tricks"][s] == 12 else 10 if facts["tricks"][s] > 6 else 0)
        if st.match_over:
            break
        engine.next_deal(st)
    results = engine.results(st)
    assert sum(results) == 0 and max(results) > 0


@pytest.mark.parametrize("path", FILES)
def test_simulate_and_random_playouts_work_on_every_file(path, capsys):
    from interp.cli import main
    from interp.runs.simulate import random_playouts
    assert main(["simulate", path, "-n", "6", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 6 and set(summary["stats"]) == {"carte_blanche", "repique", "pique", "capot"}
    assert random_playouts(game_of(path), 0.05)["playouts"] > 0


def test_bench_command(capsys):
    from interp.cli import main
    assert main(["bench", PIQUET, "--seconds", "0.1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["playouts"] > 0


# -- the score keeper --------------------------------------------------------------------------------------------------
def score(spec: str, name: str):
    doc = load_spec(os.path.join(ROOT, "tests", "score_inputs", name))
    return score_deals(game_of(spec), doc.data, doc)


def test_score_keeper_matches_the_played_deals_and_ends_the_game_mid_deal():
    st = score(PIQUET, "piquet.yaml")
    pique = run_scenario(os.path.join(ROOT, "tests", "scenarios", "piquet", "pique.yaml"))["entries"]
    capot = run_scenario(os.path.join(ROOT, "tests", "scenarios", "piquet", "capot-repique.yaml"))["entries"]
    names = ["North", "South"]
    entries = [{col: {names[k]: v for k, v in diff.items()} for col, diff in d["entries"].items()} for d in st.deals]
    assert entries[0] == pique
    swapped = {col: {("North" if k == "South" else "South"): v for k, v in diff.items()} for col, diff in capot.items()}
    assert entries[1] == swapped
    # deal 3: North 158 reaches 200 at the sequences (10 + 6 + 15 + repique 60 = 91); his sets do not count
    assert entries[2] == {"score": {"North": 91}, "repique": {"North": 60}, "partie": {"North": 176, "South": -176}}
    assert st.match_over and st.sheet["score"] == [249, 73]


def test_score_keeper_asks_play_only_when_the_tricks_were_played_and_pique_only_when_possible():
    from interp.table.scorekeeper import asked_facts, begin, new_sheet, set_fact
    game = game_of(PIQUET)
    st = new_sheet(game, 2, {}, NORTH)
    begin(st)
    for decl, seats in asked_facts(st):
        if decl.name in ("blanche", "point", "sequences", "sets"):
            set_fact(st, decl, seats, {"North": 0, "South": 0})
        elif decl.name in ("play", "tricks"):
            set_fact(st, decl, seats, {"North": 2, "South": 31} if decl.name == "play" else {"North": 4, "South": 8})
        else:
            assert decl.name == "piqued" and seats == [SOUTH]  # South's 31 with North at nothing
            set_fact(st, decl, seats, {"South": True})
    engine.end_deal(st)
    assert st.deals[-1]["entries"]["pique"] == {SOUTH: 30}


def test_rubicon_a_rubiconed_loser():
    st = score("games/piquet-rubicon.yaml", "piquet-rubicon.yaml")
    assert len(st.deals) == 6 and st.match_over
    assert st.sheet["score"] == [150, 54] and st.sheet["partie"] == [304, -304]


def test_rubicon_a_tie_after_six_deals_plays_two_more_and_a_loser_over_100():
    st = score("games/piquet-rubicon.yaml", "piquet-rubicon-tie.yaml")
    assert [d["entries"].get("partie") for d in st.deals[:6]] == [None] * 6
    assert len(st.deals) == 8 and st.match_over
    assert st.sheet["score"] == [152, 120] and st.sheet["partie"] == [132, -132]


def test_rubicon_on_the_modern_rules_and_seed_2s_game_on_parletts():
    """piquet-rubicon.yaml is Rubicon scoring on the modern rules: younger must exchange one card. Seed 2's game
    (piquet-rubicon-parlett.yaml) is Rubicon on Parlett's rules: younger may exchange none, and it declares a
    sequence length and rank at once, as seed 2 words it."""
    for path, younger_may_keep in (("games/piquet-rubicon.yaml", False), ("games/piquet-rubicon-parlett.yaml", True)):
        st = start(path, **PARLETT_SEQUENCES)
        play(st, "7S", "done")
        assert ("done" in legal(st)) is younger_may_keep, path
        assert game_of(path).options["partie_deals"]["default"] == 6
    assert game_of("games/piquet-rubicon.yaml").name == "Piquet (Rubicon, modern rules)"


def test_interp_score_cli():
    out = subprocess.run([sys.executable, "-m", "interp.cli", "score", "games/piquet-rubicon.yaml", "--input",
                          "tests/score_inputs/piquet-rubicon.yaml", "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["match_over"] and data["sheet"]["partie"] == {"North": 304, "South": -304}
