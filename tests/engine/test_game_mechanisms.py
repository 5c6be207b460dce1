"""Mechanisms added for new classic games: an action-level `log:`, numbers as moves next to menu numbers,
`announce` ordering and seat names, `suit_symbol`, the `subsets`/`combinations`/`range` built-ins and list
parameters of `turns` actions."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine, wording as prompt
from interp.engine.events import text as event_text
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError, SpecError
from interp.spec.compiler import load_game
from tests.scenario_helpers import run_cli

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
    assert event_text(st, st.events[-1]).endswith("— the table has 4 cards") and lay.value[0] == "lay"


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
    assert [event_text(st, e) for e in st.events[-2:]] == [f"{name}: lay {game.deck.pretty(six[0].value[1])}", f"{name}: six!"]


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
    assert parse_move(st, text) == move
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
    from interp.dsl.compile import compile_expr
    fn, _ = compile_expr(expr, game.scope)
    assert fn(engine.new_match(game, 2, 0)) == value


@pytest.mark.parametrize("expr,message", [
    ("len(subsets(range(14)))", "14 items have 16,383 subsets; the limit is 10,000"),
    ("len(combinations(range(40), 5))", "40 items give 658,008 combinations of 5; the limit is 10,000"),
    ("len(range(20000))", r"range\(0, 20000\) has 20,000 numbers; the limit is 10,000"),
])
def test_the_list_builtins_are_bounded_with_a_message(tmp_path, expr, message):
    game, _ = fish(tmp_path)
    from interp.dsl.compile import compile_expr
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
    assert prompt.numeric(prompt.menu(st, moves))
    assert parse_move(st, "2").value == 2      # the number itself, not menu item 2 (which is 1)
    assert parse_move(st, "#2").value == 1     # the menu item
    with pytest.raises(IllegalMoveError):
        parse_move(st, "7")


def test_the_menu_marks_its_positions_when_moves_are_numbers(tmp_path):
    _, path = fish(tmp_path, NUMBERS)
    code, out, _ = run_cli(["play", path, "--seed", "0", "--save", str(tmp_path / "s.json")], stdin="#1\nquit\n")
    assert "[1] 0  [2] 1  [3] 2  [4] 3   (a number here is a move; [N] or #N picks by position)" in out


# -- variants that change part of a list -------------------------------------------------------------------------
def write_pair(tmp_path, base: str, variant: str):
    (tmp_path / "base.yaml").write_text(base)
    (tmp_path / "v.yaml").write_text("extends: base.yaml\nname: v\n" + variant)
    return str(tmp_path / "v.yaml")


SCORED = FISH.replace("scoring: []", """  - {id: count, type: effects, do: "for s in seats: cards[s] = len(won[s])"}
options:
  bonus: {default: 1}
facts:
  cards: {ask: "Cards taken", seats: "seats"}
sheet:
  score: {}
scoring:
  - name: cards
    do: "for s in seats: score[s] += cards[s]"
  - {name: bonus, if: "cards[seats[0]] > 6", then: "score[seats[0]] += bonus"}
  - "score[seats[1]] += 0"
""").replace("vars:", "vars:\n  cards: {type: int, per_seat: true}")


def test_a_variant_merges_actions_and_scoring_blocks_by_name(tmp_path):
    from interp.spec.loader import load_spec
    path = write_pair(tmp_path, SCORED, """
phases:
  - id: play
    actions:
      - {name: take, bots: "10"}
      - {name: pass, new: true, when: "len(hand[me]) == 0", do: "trump = 'S'"}
scoring:
  - {name: bonus, then: "score[seats[0]] += 2 * bonus"}
""")
    data = load_spec(path).data
    actions = data["phases"][1]["actions"]
    assert [a["name"] for a in actions] == ["take", "lay", "pass"] and "new" not in actions[2]
    assert actions[0]["bots"] == "10" and actions[0]["label"] == "take {s} with {c}"
    assert data["scoring"][1] == {"name": "bonus", "if": "cards[seats[0]] > 6", "then": "score[seats[0]] += 2 * bonus"}
    assert data["scoring"][2] == "score[seats[1]] += 0"
    load_game(path)


def test_a_variant_deletes_a_key_and_an_item_and_errors_stay_located(tmp_path):
    from interp.spec.loader import load_spec
    path = write_pair(tmp_path, SCORED, """
phases:
  - id: play
    prompt: null
    actions:
      - {name: take, delete: true}
      - {name: lay, when: "nonsense"}
""")
    data = load_spec(path).data
    assert "prompt" not in data["phases"][1] and [a["name"] for a in data["phases"][1]["actions"]] == ["lay"]
    with pytest.raises(SpecError) as exc:
        load_game(path)
    loc = exc.value.location  # the bad `when` of the variant, now the phase's first action
    assert (loc.file.endswith("v.yaml"), loc.line) == (True, 9)


@pytest.mark.parametrize("variant,message,line", [
    ("options:\n  bonuss: {default: 2}\n", "the base has no option 'bonuss' (did you mean 'bonus'?)", 4),
    ("phases:\n  - id: play\n    actions:\n      - {name: tkae, bots: '1'}\n",
     "the base has no item with name 'tkae' (did you mean 'take'?)", 6),
    ("scoring:\n  - {name: bonsu, delete: true}\n", "no item with name 'bonsu' to delete (did you mean 'bonus'?)", 4),
])
def test_a_misspelt_option_or_item_in_a_variant_fails_with_did_you_mean(tmp_path, variant, message, line):
    path = write_pair(tmp_path, SCORED, variant)
    code, _, err = run_cli(["validate", path])
    assert code == 2 and message in err and f"v.yaml:{line}:" in err


def test_a_new_option_marked_new_is_added(tmp_path):
    path = write_pair(tmp_path, SCORED, "options:\n  bonuss: {default: 2, new: true}\n")
    game = load_game(path)
    st = engine.new_match(game, 2, 0)
    from interp.dsl.compile import compile_expr
    assert compile_expr("bonuss + bonus", game.scope)[0](st) == 3


# -- one discard phase for every seat (passing cards) ----------------------------------------------------------
PASSING = FISH.replace("  table: {visible: all}", "  table: {visible: all}\n  passed: {per_seat: true, visible: owner}") \
    .replace("""  - id: play
    type: turns""", """  - id: pass
    type: discard
    who: "active"
    from: hand
    to: passed
    count: 2
    prompt: "pass {more} more card(s) to {left(me)}"
    bots: "rank(card)"
  - {id: hand_on, type: effects, do: "for s in active: move_all(passed[s], hand[left(s)])"}
  - id: play
    type: turns""")


def test_every_seat_passes_in_private_and_the_cards_move_together(tmp_path):
    game, _ = fish(tmp_path, PASSING)
    st = engine.new_match(game, 2, 0)
    first, second = st.active
    phase = engine.current_phase(st)
    assert phase.id == "pass" and engine.to_move(st) == first
    assert phase.prompt(st) == f"pass 2 more card(s) to {game.seat_name(second, 2)}"
    hands = {s: list(st.zones[game.zone_id("hand", s, 2)]) for s in st.active}
    picks = {first: sorted(hands[first])[:2], second: sorted(hands[second])[-2:]}
    engine.apply(st, parse_move(st, game.deck.code(picks[first][0])))
    assert phase.prompt(st).startswith("pass 1 more")
    engine.apply(st, parse_move(st, game.deck.code(picks[first][1])))
    assert engine.to_move(st) == second
    view = st.view(second)  # the second seat chooses without seeing the first seat's pass
    assert view.zones[game.zone_id("passed", first, 2)] == [] and view.hidden[game.zone_id("passed", first, 2)] == 2
    assert not any(game.deck.pretty(c) in (event_text(view, e) or "") for e in view.events for c in picks[first])
    for c in picks[second]:
        engine.apply(st, parse_move(st, game.deck.code(c)))
    assert engine.current_phase(st).id == "play"  # hand_on ran: each got the other's cards
    for s in st.active:
        other = second if s == first else first
        assert sorted(st.zones[game.zone_id("hand", s, 2)]) == sorted(
            [c for c in hands[s] if c not in picks[s]] + picks[other])


def test_the_bots_hint_chooses_the_discards(tmp_path):
    from interp.bots.agents import HeuristicAgent
    game, _ = fish(tmp_path, PASSING)
    st = engine.new_match(game, 2, 3)
    bot = HeuristicAgent(seed=0)
    seat = engine.to_move(st)
    hand = list(st.zones[game.zone_id("hand", seat, 2)])
    best = max(game.deck.rank_of[c] for c in hand)
    move = bot.choose(st.view(seat), engine.legal_moves(st))
    assert game.deck.rank_of[move.value] == best


def test_a_discard_who_that_is_not_seats_is_a_located_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(PASSING.replace('    who: "active"', '    who: "len(active)"'))
    code, _, err = run_cli(["validate", str(path)])
    assert code == 2 and "who: must be a seat or a list of seats, not int" in err and "bad.yaml:" in err
