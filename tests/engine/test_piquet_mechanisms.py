"""The general mechanisms Piquet switched on, each on a small spec of its own: the `declare` phase (steps, good /
not good / equal, sinking, claims, extras, no follower, private claims), the `runs`, `groups` and `ranked`
built-ins, `{…}` holes in DSL strings, and the tricks phase's `allowed` condition."""
from __future__ import annotations

import os

import pytest

from interp.dsl.compile import compile_expr
from interp.engine import match as engine
from interp.engine.events import lines
from interp.engine.wording import parse_move
from interp.errors import SpecError
from interp.spec.compiler import load_game

SPEC = """
name: Declarations
players: {default: 2}
seat_names: [North, South]
deck:
  suits: [{code: S, symbol: "♠"}, {code: H, symbol: "♥"}, {code: D, symbol: "♦"}, {code: C, symbol: "♣"}]
  ranks: ["9", "10", J, Q, K, A]
  points: {A: 11, K: 4, Q: 3, J: 2, "10": 10}
zones:
  hand: {per_seat: true, visible: owner}
  won: {per_seat: true}
vars:
  got: {type: int, per_seat: true}
  runs_won: {type: int, per_seat: true}
  seen: {type: "list[str]"}
phases:
  - id: deal
    type: deal
    into: hand
    packets: [{each: 6, repeat: 2}]
  - id: declare
    type: declare
    leader: "active[0]"
    FOLLOWER
    categories:
      - id: suit
        label: long suit
        combos: "[of_suit(hand[me], x) for x in suits if len(of_suit(hand[me], x)) > 0]"
        steps:
          - {key: "len(combo)", say: "{len(combo)} cards", ask: "worth?"}
          - {key: "sum(points(c) for c in combo)", say: "worth {sum(points(c) for c in combo)}"}
        score: "len(combo)"
        sink: "false"
      - id: run
        label: run
        combos: "runs(hand[me], 3)"
        steps: [{key: "len(combo) * 10 + rank(combo[0])", say: "{len(combo)} to the {combo[0]}"}]
        score: "len(combo)"
        extras: EXTRAS
    won:
      - "if category == 'suit': got[winner] += points"
      - "if category == 'run': runs_won[winner] += points"
      - "seen = seen + ['{category}: {winner} {points} {combos}']"
"""


def game(tmp_path, follower='follower: "dealer"', extras="weaker", extra=""):
    path = tmp_path / "declare.yaml"
    path.write_text(SPEC.replace("FOLLOWER", follower).replace("EXTRAS", extras) + extra, encoding="utf-8")
    return load_game(str(path))


def start(g, north: str, south: str):
    codes = lambda text: [g.deck.parse(c) for c in text.split()]  # noqa: E731
    stack = {g.zone_id("hand", 0, 2): codes(north), g.zone_id("hand", 1, 2): codes(south)}
    return engine.new_match(g, 2, 0, dealer=1, stack=stack)  # South deals: North leads the declarations


def legal(st) -> list:
    return [engine.notation(st, m) for m in engine.legal_moves(st)]


def play(st, *texts):
    for text in texts:
        engine.apply(st, parse_move(st, text))


# Test spec ranks 9 10 J Q K A; points A 11, 10 10, K 4, Q 3, J 2, 9 0.
# North: ♠ A K Q J (4 cards, 20; a run of 4 to the ace), ♥ 10 9, ♦ A 10 9, ♣ A 10 9 (3 cards, 21 each).
# South: ♥ A K Q J (4, 20; a run of 4), ♠ 10 9, ♦ K Q J and ♣ K Q J (runs of 3).
NORTH = "AS KS QS JS 10H 9H 10D 9D 10C 9C AD AC"
SOUTH = "AH KH QH JH 10S 9S KD QD JD KC QC JC"
# North gives 10♥ for South's 9♠: North ♠ A K Q J 9 (5 cards, 20), South ♥ A K Q J 10 (5 cards, 30; a run of 5).
NORTH2, SOUTH2 = NORTH.replace("10H", "9S"), SOUTH.replace("9S", "10H")


def test_steps_good_not_good_equal(tmp_path):
    st = start(game(tmp_path), NORTH, SOUTH)
    assert legal(st) == ["4 cards", "3 cards", "2 cards"]  # no pass (sink: false); distinct first steps, best first
    play(st, "4 cards")
    assert legal(st) == ["good", "equal"] and engine.describe(st, engine.legal_moves(st)[1]) == "worth?"
    play(st, "worth?")
    assert legal(st) == ["worth 20"]
    play(st, "worth 20", "equal")  # equal after the last step: nobody scores the category
    assert st.vars["got"] == [0, 0]
    assert legal(st) == ["4 to the AS", "pass"]  # a card in a notation is its code; described with its symbol
    play(st, "4 to the A♠")
    assert legal(st) == ["good", "equal"]  # South's run of 4 to the ace is equal
    play(st, "equal")
    assert st.vars["runs_won"] == [0, 0] and st.deal_over


def test_not_good_scores_the_follower_best_with_weaker_extras(tmp_path):
    st = start(game(tmp_path), NORTH2, SOUTH2)
    play(st, "5 cards", "worth?", "worth 20")
    assert legal(st) == ["good", "not good"]  # South's hearts: 30
    play(st, "not good")
    assert st.vars["got"] == [0, 5]
    play(st, "4 to the AS")
    assert legal(st) == ["good", "not good"]
    play(st, "not good")  # South's run of 5, and his runs of 3 (weaker): 5 + 3 + 3
    assert st.vars["runs_won"] == [0, 11]
    assert st.vars["seen"] == ["suit: South 5 A♥ K♥ Q♥ J♥ 10♥",
                               "run: South 11 A♥ K♥ Q♥ J♥ 10♥, K♦ Q♦ J♦, K♣ Q♣ J♣"]  # a list of lists: commas


@pytest.mark.parametrize("extras,claim,points", [("weaker", "5 to the AH", 11), ("all", "5 to the AH", 11),
                                                 ("none", "5 to the AH", 5), ("weaker", "3 to the KD", 6),
                                                 ("all", "3 to the KD", 11), ("none", "3 to the KD", 3)])
def test_follower_claims_what_the_leader_sinks_with_the_extras_rule(tmp_path, extras, claim, points):
    st = start(game(tmp_path, extras=extras), NORTH2, SOUTH2)
    play(st, "5 cards", "worth?", "worth 20", "not good")
    play(st, "pass")
    assert legal(st) == ["5 to the AH", "3 to the KD", "pass"]  # one claim per distinct key
    play(st, claim)
    assert st.vars["runs_won"] == [0, points]


def test_without_a_follower_a_declaration_scores_at_once(tmp_path):
    st = start(game(tmp_path, follower=""), NORTH, SOUTH)
    play(st, "4 cards")
    assert st.vars["got"] == [4, 0]
    assert legal(st) == ["4 to the AS", "pass"]
    play(st, "pass")
    assert st.vars["runs_won"] == [0, 0] and st.deal_over


def test_private_claims_are_logged_to_the_claimer_only(tmp_path):
    st = start(game(tmp_path, follower='follower: "dealer"\n    claims_public: false'), NORTH2, SOUTH2)
    play(st, "5 cards", "worth?", "worth 20", "not good", "pass", "5 to the AH")
    line = "South: 5 to the A♥"
    assert [t for t in lines(st, st.events, 1) if t == line] == [line]
    assert line not in lines(st, st.events, 0)


def test_the_heuristic_bot_declares_its_best_and_answers_truthfully(tmp_path):
    from interp.bots.agents import HeuristicAgent
    st = start(game(tmp_path), NORTH2, SOUTH2)
    bot, moves = HeuristicAgent(0), []
    while not st.deal_over:
        move = bot.choose(st.view(engine.to_move(st)), engine.legal_moves(st))
        moves.append(engine.notation(st, move))
        engine.apply(st, move)
    assert moves == ["5 cards", "equal", "worth 20", "not good", "4 to the AS", "not good"]
    assert st.vars["got"] == [0, 5] and st.vars["runs_won"] == [0, 11]


def test_declare_errors_are_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("FOLLOWER", "").replace("EXTRAS", "weaker").replace(
        'combos: "runs(hand[me], 3)"', 'combos: "hand[me]"'), encoding="utf-8")
    with pytest.raises(SpecError, match=r"'combos' must give a list of combinations") as err:
        load_game(str(path))
    assert err.value.format().startswith(f"{path}:")


# -- built-ins: runs, groups, ranked -----------------------------------------------------------------------------------
def evaluate(g, st, text):
    fn, _ = compile_expr(text, g.scope)
    return fn(st)


def test_runs_groups_and_ranked(tmp_path):
    g = game(tmp_path)
    st = start(g, NORTH, SOUTH)

    def codes(cards):
        return " ".join(g.deck.code(c) for c in cards)
    hand = "hand[seats[1]]"
    assert [codes(r) for r in evaluate(g, st, f"runs({hand}, 3)")] == ["AH KH QH JH", "KD QD JD", "KC QC JC"]
    assert [codes(r) for r in evaluate(g, st, f"runs({hand}, 2)")] == \
        ["10S 9S", "AH KH QH JH", "KD QD JD", "KC QC JC"]
    assert [codes(r) for r in evaluate(g, st, f"groups({hand}, 3)")] == ["KH KD KC", "QH QD QC", "JH JD JC"]
    assert [codes(r) for r in evaluate(g, st, f"groups({hand}, 1)")][0] == "AH"
    assert codes(evaluate(g, st, f"ranked({hand})")) == "AH KH KD KC QH QD QC JH JD JC 10S 9S"


# -- holes in strings --------------------------------------------------------------------------------------------------
def test_string_holes_show_values_as_players_read_them(tmp_path):
    g = game(tmp_path)
    st = start(g, NORTH, SOUTH)
    text = "'{seats[1]} holds {len(hand[seats[1]])}: {ranked(hand[seats[1]])[0]}, {3 / 2}, {len(seats) > 1} {{x}}'"
    assert evaluate(g, st, text) == "South holds 12: A♥, 1.5, yes {x}"
    assert evaluate(g, st, "'no holes'") == "no holes"


def test_a_mistake_in_a_hole_is_located_in_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("FOLLOWER", "").replace("EXTRAS", "weaker").replace(
        "'{category}: {winner}", "'{category}: {winer}"), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_game(str(path))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "{winer}" in t)
    column = path.read_text().splitlines()[line - 1].index("winer") + 1
    assert err.value.format().startswith(f"{path}:{line}:{column}: unknown name 'winer'")


# -- tricks: allowed ---------------------------------------------------------------------------------------------------
TINY = os.path.abspath("docs/examples/tiny.yaml")


def tiny(tmp_path, allowed: str):
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {TINY}\nname: v\nphases:\n  - id: play\n    allowed: \"{allowed}\"\n")
    return load_game(str(path))


def test_tricks_allowed_narrows_the_playable_cards(tmp_path):
    g = tiny(tmp_path, "trick_no > 1 or len(cards) > 0 or suit(card) == 'D'")  # the first lead is a diamond
    st = engine.new_match(g, 2, 4)
    first = engine.legal_moves(st)
    assert first and all(g.deck.suit_of[m.value] == "D" for m in first)
    engine.apply(st, first[0])
    follow = engine.legal_moves(st)  # the reply is not narrowed: only the follow rules
    hand = st.zones[g.zone_id("hand", engine.actor(st), 2)]
    diamonds = [c for c in hand if g.deck.suit_of[c] == "D"]
    assert sorted(m.value for m in follow) == sorted(diamonds or hand)


def test_tricks_allowed_that_leaves_nothing_is_ignored(tmp_path):
    g = tiny(tmp_path, "false")
    st = engine.new_match(g, 2, 4)
    hand = st.zones[g.zone_id("hand", engine.actor(st), 2)]
    assert sorted(m.value for m in engine.legal_moves(st)) == sorted(hand)
