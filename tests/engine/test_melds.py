"""The meld built-ins (melds, best_melds, deadwood, lay_offs) and the counted combinations (sums_to, pairs,
sequences, same_rank_at_end, run_at_end), with hands worked by hand; and list-of-list values in vars: typed,
stored as copies, saved and read back, hidden in views as the var's `visible` says."""
from __future__ import annotations

import random
import time

import pytest

from interp.dsl.compile import compile_expr
from interp.dsl.runtime import BUDGET
from interp.engine import match as engine, melds
from interp.engine.state import state_from_json
from interp.errors import SpecError, SpecRuntimeError
from interp.spec.compiler import load_game
from tests.conftest import game_of


@pytest.fixture(scope="module")
def gin():
    return game_of("games/gin-rummy.yaml")  # ranks A (low) to K; A 1, 2-10 face value, J Q K 10


def cards(text: str) -> str:
    return "[" + ", ".join(f"card('{c}')" for c in text.split()) + "]"


def value(game, text: str):
    st = engine.new_match(game, 2, 0)
    fn, _ = compile_expr(text, game.scope)
    BUDGET.steps = 0
    return fn(st)


def codes(game, value) -> str:
    if value and isinstance(value[0], list):
        return ", ".join(codes(game, v) for v in value)
    return " ".join(game.deck.code(c) for c in value)


def test_best_melds_splits_a_set_of_four_to_leave_no_deadwood(gin):
    # 7♠ 7♦ 7♣ 7♥ 8♣ 9♣: the four sevens leave 8♣ 9♣ (17); three sevens and 7-8-9♣ leave nothing
    hand = cards("7S 7D 7C 7H 8C 9C")
    assert codes(gin, value(gin, f"best_melds({hand}, 3)")) == "7S 7H 7D, 9C 8C 7C"
    assert value(gin, f"deadwood({hand}, 3)") == []
    assert len(value(gin, f"melds({hand}, 3)")) == 6  # four sets of three, the set of four, the run


def test_deadwood_counts_the_cards_left_over_at_their_points(gin):
    # 3-4-5♥ and K♠ K♥ K♣ melded; A♠ 2♠ 9♦ left: 1 + 2 + 9 = 12 (A-2 of spades is no run of three)
    hand = cards("3H 4H 5H KS KH KC AS 2S 9D")
    assert codes(gin, value(gin, f"deadwood({hand}, 3)")) == "AS 2S 9D"
    assert value(gin, f"sum(points(c) for c in deadwood({hand}, 3))") == 12
    assert value(gin, f"runs({cards('QS KS AS 2S 3S')}, 3)") == [[gin.deck.parse(c) for c in "3S 2S AS".split()]]


def test_deadwood_is_searched_piece_by_piece_with_the_same_answer(gin):
    # 7♠ 7♦ 7♣ and 7-8-9♣ share 7♣: one piece; 2-3-4♥ another; K♦ in no meld. The first piece's best is the run
    # (7♠ 7♦ left: 14, not 8♣ 9♣: 17), so the deadwood is 7♠ 7♦ K♦ = 24
    deck = gin.deck
    hand = [deck.parse(c) for c in "7S 7D 7C 8C 9C 2H 3H 4H KD".split()]
    left, pieces = melds._pieces(deck, sorted(hand), 3)
    assert codes(gin, left) == "KD"
    assert sorted(codes(gin, p) for p in pieces) == ["2H 3H 4H", "7S 7D 7C 8C 9C"]
    assert codes(gin, melds.deadwood(deck, hand, 3)) == "7S 7D KD"
    assert value(gin, f"sum(points(c) for c in deadwood({cards('7S 7D 7C 8C 9C 2H 3H 4H KD')}, 3))") == 24
    # without 8♣ the sevens' set is the only meld of that piece: 9♣ and K♦ left (19)
    assert codes(gin, melds.deadwood(deck, [c for c in hand if deck.code(c) != "8C"], 3)) == "KD 9C"


def test_deadwood_piece_by_piece_equals_the_search_of_the_whole_hand(gin):
    """On 300 seeded hands of 7 to 12 cards (half from a half-deck, so rich in melds), melds of 2 to 4 cards."""
    deck = gin.deck
    rng = random.Random(7)
    every = list(range(len(deck.codes)))
    for i in range(300):
        pool = every if i % 2 else [c for c in every if rng.random() < 0.5]
        hand = rng.sample(pool, rng.randint(7, 12))
        for k in (2, 3, 4):
            BUDGET.steps = 0
            whole = melds.best_melds(deck, hand, k)
            assert melds.deadwood(deck, hand, k) == sorted(set(hand) - {c for m in whole for c in m})


def test_lay_offs_extend_runs_at_both_ends_one_card_after_another_and_sets(gin):
    onto = f"[{cards('5H 6H 7H')}, {cards('KS KH KC')}]"
    assert codes(gin, value(gin, f"lay_offs({cards('9H 8H 4H KD 3H 10S')}, {onto})")) == "9H 8H 4H KD 3H"
    assert value(gin, f"lay_offs({cards('9H 2H')}, {onto})") == []  # 9♥ needs the 8♥ first


def test_deadwood_onto_melds_counts_what_lays_off_as_none(gin):
    # The knocker shows 8-9-10♦. The run 5-6-7♦ is kept (it could also go on below the 8♦, card by card: the same
    # deadwood, and own melds are preferred); J♦ then Q♦ go on above the 10♦; J♣ (10) is left.
    hand = cards("5D 6D 7D JD QD JC")
    onto = f"[{cards('8D 9D 10D')}]"
    assert codes(gin, value(gin, f"deadwood({hand}, 3, {onto})")) == "JC"
    assert codes(gin, value(gin, f"best_melds({hand}, 3, {onto})")) == "7D 6D 5D"
    # with a set of queens shown instead, Q♦ lays off and J♦ J♣ (20) are left
    assert codes(gin, value(gin, f"deadwood({hand}, 3, [{cards('QS QH QC')}])")) == "JD JC"


def test_sums_to_finds_every_combination_adding_up_to_a_total(gin):
    # 5♥ 5♣ 5♦ J♠ 5♠: J + each five (4 ways) and each three fives (4 ways) make 15
    hand = cards("5H 5C 5D JS 5S")
    fifteens = value(gin, f"sums_to({hand}, 15)")
    assert len(fifteens) == 8 and [len(f) for f in fifteens] == [2, 2, 2, 2, 3, 3, 3, 3]
    assert value(gin, f"sums_to({cards('AS 2S')}, 15)") == []


def test_pairs_and_sequences_count_with_multiplicity(gin):
    assert len(value(gin, f"pairs({cards('5H 5C 5D JS')})")) == 3  # three of a kind: three pairs
    # 3 3 4 5: two runs of three; 3 4 5 6 one run of four; Q K A does not go round the corner
    assert codes(gin, value(gin, f"sequences({cards('3H 3C 4D 5S')}, 3)")) == "3H 4D 5S, 3C 4D 5S"
    assert [len(r) for r in value(gin, f"sequences({cards('6C 3H 4D 5S')}, 3)")] == [4]
    assert value(gin, f"sequences({cards('QH KH AH')}, 3)") == []


def test_the_end_of_a_list_pairs_and_runs(gin):
    assert value(gin, f"same_rank_at_end({cards('4H 7S 7D 7C')})") == 3
    assert value(gin, f"same_rank_at_end({cards('7S 4H')})") == 1 and value(gin, "same_rank_at_end([])") == 0
    assert value(gin, f"run_at_end({cards('4H 6S 5D')}, 3)") == 3  # played in any order
    assert value(gin, f"run_at_end({cards('3C 4H 6S 5D')}, 3)") == 4
    assert value(gin, f"run_at_end({cards('4H 6S 5D 5C')}, 3)") == 0  # a repeated rank breaks it
    assert value(gin, f"run_at_end({cards('4H 6S')}, 3)") == 0


@pytest.mark.parametrize("text", ["sums_to(ALL, 15)", "deadwood(ALL, 1)", "best_melds(ALL, 2)",
                                  "len(sequences(ALL + ALL + ALL, 3))"])
def test_a_search_over_too_many_cards_is_refused_not_run(gin, text):
    """The whole deck (three of it for the runs) asked for its combinations: stopped by the loop budget with a
    located error within seconds, not searched for hours."""
    every = "[c for c in hand[seats[0]] + hand[seats[1]] + pile + stock]"
    started = time.perf_counter()
    with pytest.raises(SpecRuntimeError, match="passed the limit of 1,000,000 steps"):
        value(gin, text.replace("ALL", every))
    assert time.perf_counter() - started < 5


SPEC = """
name: Lists of lists
players: {default: 2}
deck: {suits: [S, H], ranks: ["7", "8", "9"]}
zones:
  hand: {per_seat: true, visible: owner}
  table: {visible: all}
vars:
  kept: {type: "KEPT", per_seat: true, visible: owner}
  shown: {type: "list[list[card]]"}
  said: {type: str}
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 3}]}
  - id: keep
    type: effects
    do: "for s in seats: kept[s] = [hand[s], [hand[s][0]]]; shown = groups(hand[seats[0]], 1); said = '{shown}'"
  - id: play
    type: turns
    until: "all(len(hand[s]) == 0 for s in seats)"
    actions:
      - {name: lay, for: "c in hand[me]", do: "move(c, table)"}
"""


def spec(tmp_path, kept="list[list[card]]"):
    path = tmp_path / "lists.yaml"
    path.write_text(SPEC.replace("KEPT", kept), encoding="utf-8")
    return load_game(str(path))


def test_a_var_holds_a_list_of_lists_stored_as_a_copy_saved_and_hidden(tmp_path):
    game = spec(tmp_path)
    st = engine.new_match(game, 2, 0, dealer=1)
    hand0 = list(st.zones[game.zone_id("hand", 0, 2)])
    assert st.vars["kept"][0] == [hand0, hand0[:1]]
    engine.apply(st, engine.legal_moves(st)[0])  # a card leaves the hand: the stored list does not change
    assert st.vars["kept"][0] == [hand0, hand0[:1]]
    assert state_from_json(game, st.to_json()).vars == st.vars
    view = st.view(1)
    assert view.vars["kept"][0] == [] and view.vars["kept"][1] == st.vars["kept"][1] and view.vars["shown"]
    shown = ", ".join(" ".join(game.deck.pretty(c) for c in group) for group in st.vars["shown"])
    assert st.vars["said"] == shown and "," in shown  # a list of lists shown with commas between its lists


def test_lists_nest_two_deep_at_most_and_are_typed(tmp_path):
    with pytest.raises(SpecError, match="unknown type 'list.list.list.card...'"):
        spec(tmp_path, "list[list[list[card]]]")
    path = tmp_path / "flat.yaml"
    path.write_text(SPEC.replace("KEPT", "list[list[card]]").replace("[hand[s], [hand[s][0]]]", "hand[s]"))
    with pytest.raises(SpecError, match=r"'kept' holds a list\[list\[card\]\], not a list\[card\]"):
        load_game(str(path))
