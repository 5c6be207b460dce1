"""Mechanisms added for new classic games: an action-level `log:`, numbers as moves next to menu numbers,
`announce` ordering and seat names, `suit_symbol`, the `subsets`/`combinations`/`range` built-ins and list
parameters of `turns` actions."""
from __future__ import annotations

import random

import pytest

from interpreter import engine
from interpreter.compiler import load_game
from interpreter.errors import IllegalMoveError, SpecError

from .scenario_helpers import run_cli

# A small fishing game: lay a card, or take table cards summing to its rank + 1 (a Scopa-like capture).
FISH = """
name: Fish
players: {default: 2}
seat_names: [North, South]
deck:
  suits: [{code: S, symbol: "♠"}, {code: H, symbol: "♥"}]
  ranks: ["1", "2", "3", "4", "5", "6"]
zones:
  hand: {per_seat: true, visible: owner}
  table: {visible: all}
  won: {per_seat: true}
vars:
  trump: {type: str, default: H}
define:
  value(c): "rank(c) + 1"
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 3}, {zone: table, count: 2}, {each: 2}]}
  - id: play
    type: turns
    until: "all(len(hand[s]) == 0 for s in active)"
    prompt: "your play (trumps {suit_symbol(trump)})"
    actions:
      - name: take
        for: ["c in hand[me]", "s in subsets(table, 3)"]
        when: "sum(value(x) for x in s) == value(c)"
        do: "move(c, won[me]); for x in s: move(x, won[me])"
        label: "take {s} with {c}"
        log: "took {len(s)}"
        bots: "len(s)"
      - name: lay
        for: "c in hand[me]"
        do: "move(c, table); if value(c) == 6: announce(me, 'six!')"
        log: {when: "len(table) > 3", text: "the table has {len(table)} cards"}
scoring: []
"""


def fish(tmp_path, text: str = FISH):
    path = tmp_path / "fish.yaml"
    path.write_text(text)
    return load_game(str(path)), str(path)


def test_an_action_level_log_validates_and_adds_its_line(tmp_path):
    game, path = fish(tmp_path)
    code, out, err = run_cli(["validate", path])
    assert code == 0, err
    st = engine.new_match(game, 2, 0)
    lay = next(m for m in engine.legal_moves(st) if m.value[0] == "lay")
    while len(st.zones[game.zone_id("table", None, 2)]) < 3:
        engine.apply(st, next(m for m in engine.legal_moves(st) if m.value[0] == "lay"))
    engine.apply(st, next(m for m in engine.legal_moves(st) if m.value[0] == "lay"))
    assert st.events[-1].text.endswith("— the table has 4 cards") and lay.value[0] == "lay"


def test_an_announce_follows_its_moves_line_and_names_the_seat(tmp_path):
    game, _ = fish(tmp_path)
    for seed in range(40):
        st = engine.new_match(game, 2, seed)
        six = [m for m in engine.legal_moves(st) if m.value[0] == "lay" and game.deck.code(m.value[1])[0] == "6"]
        if six:
            break
    seat = engine.to_move(st)
    name = game.seat_name(seat, 2)
    engine.apply(st, six[0])
    assert [e.text for e in st.events[-2:]] == [f"{name}: lay {game.deck.pretty(six[0].value[1])}", f"{name}: six!"]


def test_prompt_templates_can_show_a_suit_symbol(tmp_path):
    game, _ = fish(tmp_path)
    st = engine.new_match(game, 2, 0)
    assert engine.current_phase(st).prompt(st) == "your play (trumps ♥)"


def test_subset_parameters_are_moves_typed_by_their_cards_and_replayed(tmp_path):
    game, _ = fish(tmp_path)
    for seed in range(30):
        st = engine.new_match(game, 2, seed)
        takes = [m for m in engine.legal_moves(st) if m.value[0] == "take"]
        if any(len(m.value[2]) == 2 for m in takes):
            break
    move = next(m for m in takes if len(m.value[2]) == 2)
    c, (a, b) = move.value[1], move.value[2]
    assert game.deck.rank_of[a] + game.deck.rank_of[b] + 2 == game.deck.rank_of[c] + 1  # values add up
    text = engine.current_phase(st).notation(st, move)
    assert text == f"take {game.deck.code(a)} {game.deck.code(b)} with {game.deck.code(c)}"
    assert engine.parse_move(st, text) == move
    engine.apply(st, move)
    won = st.zones[game.zone_id("won", engine.to_move(st) ^ 1, 2)]
    assert {a, b, c} <= set(won)


def test_random_playouts_of_a_subset_game_end_with_every_card_placed(tmp_path):
    game, _ = fish(tmp_path)
    for seed in range(5):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        assert sum(len(z) for z in st.zones) == 12


@pytest.mark.parametrize("expr,value", [
    ("range(3)", [0, 1, 2]),
    ("range(2, 5)", [2, 3, 4]),
    ("range(5, 2)", []),
    ("subsets([1, 2, 3])", [[1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]),
    ("subsets([1, 2, 3], 1)", [[1], [2], [3]]),
    ("subsets([])", []),
    ("combinations([1, 2, 3], 2)", [[1, 2], [1, 3], [2, 3]]),
    ("combinations([1, 2], 3)", []),
    ("len(subsets(range(13)))", 8191),
])
def test_the_list_builtins(tmp_path, expr, value):
    game, _ = fish(tmp_path, FISH.replace('value(c): "rank(c) + 1"', f'value(c): "rank(c) + 1"\n  probe: "{expr}"'))
    from interpreter.dsl import compile_expr
    fn, _ = compile_expr(expr, game.scope)
    assert fn(engine.new_match(game, 2, 0)) == value


@pytest.mark.parametrize("expr,message", [
    ("len(subsets(range(14)))", "14 items have 16,383 subsets; the limit is 10,000"),
    ("len(combinations(range(40), 5))", "40 items give 658,008 combinations of 5; the limit is 10,000"),
    ("len(range(20000))", r"range\(0, 20000\) has 20,000 numbers; the limit is 10,000"),
])
def test_the_list_builtins_are_bounded_with_a_message(tmp_path, expr, message):
    game, _ = fish(tmp_path)
    from interpreter.dsl import compile_expr
    fn, _ = compile_expr(expr, game.scope)
    with pytest.raises(SpecError, match=message):
        fn(engine.new_match(game, 2, 0))


# -- numbers as moves ----------------------------------------------------------------------------------------------
NUMBERS = FISH.replace("""  - id: play
    type: turns""", """  - id: guess
    type: choose
    who: "dealer"
    label: how many
    from: "range(4)"
    do: "trump = if choice == 0 then 'S' else 'H'"
  - id: play
    type: turns""")


def test_a_number_typed_is_the_move_of_that_number_and_hash_numbers_pick_from_the_menu(tmp_path):
    game, _ = fish(tmp_path, NUMBERS)
    st = engine.new_match(game, 2, 0)
    moves = engine.legal_moves(st)
    assert [engine.current_phase(st).notation(st, m) for m in moves] == ["0", "1", "2", "3"]
    assert engine.numbered_by_hash(st, moves)
    assert engine.parse_move(st, "2").value == 2      # the number itself, not menu item 2 (which is 1)
    assert engine.parse_move(st, "#2").value == 1     # the menu item
    with pytest.raises(IllegalMoveError):
        engine.parse_move(st, "7")


def test_the_menu_marks_its_numbers_with_hash_when_moves_are_numbers(tmp_path):
    _, path = fish(tmp_path, NUMBERS)
    code, out, _ = run_cli(["play", path, "--seed", "0", "--save", str(tmp_path / "s.json")], stdin="#1\nquit\n")
    assert "#1) 0  #2) 1  #3) 2  #4) 3" in out
