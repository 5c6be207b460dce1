"""What a seat is told, the same for the terminal and any other table (the engine's events and prompts): cards
laid face up by a deal, cards passed to a seat, and prompts that name only the moves legal now."""
from __future__ import annotations

import random

from interp.engine import events, match as engine
from interp.engine.phases.base import either
from tests.conftest import game_of


def seat_lines(st, seat: int) -> list:
    view = st.view(seat)
    return events.lines(view, view.events, seat)


def decisions(path: str, phase_id: str, seeds, n: int | None = None):
    """(state, phase, legal moves) at each decision of phase `phase_id` in one random deal per seed."""
    game = game_of(path)
    for seed in seeds:
        st, rng = engine.new_match(game, n, seed), random.Random(seed)
        while not st.deal_over:
            phase, moves = engine.current_phase(st), engine.legal_moves(st)
            if phase.id == phase_id:
                yield st, phase, moves
            engine.apply(st, rng.choice(moves))


# -- a card turned up at the deal ------------------------------------------------------------------------------------
def test_the_turned_up_card_is_told_to_every_seat_the_dealer_included():
    """Belote, seed 3: the deal turns up 8♠ (the turnup zone holds it). Every seat's log, the dealer South's
    (seat 0) first, says so right after the deal — not only the screen of a seat asked to take it."""
    st = engine.new_match(game_of("games/belote.yaml"), 4, 3)
    turnup = st.zones[st.zone_ids["turnup"][0]]
    assert st.game.deck.codes[turnup[0]] == "8S" and st.dealer == 0
    for seat in range(4):
        assert seat_lines(st, seat) == ["— deal 1, dealer South —", "South deals", "turned-up card: 8♠"]


def test_a_deal_tells_no_hand_and_does_not_retell_a_table_it_did_not_lay():
    """Scopa, seed 3: the first deal lays the table's four cards (3♣ 3♠ 7♠ 6♠) and tells them once; a later deal
    of three cards each from the stock lays nothing on the table and tells nothing more about it."""
    game = game_of("games/scopa.yaml")
    st, rng = engine.new_match(game, 2, 3), random.Random(3)
    assert seat_lines(st, 1)[-1] == "table: 3♣ 3♠ 7♠ 6♠"
    while sum(1 for e in st.events if e.kind == "deal") < 2:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    told = [line for line in seat_lines(st, 1) if line.startswith("table:")]
    assert told == ["table: 3♣ 3♠ 7♠ 6♠"]


# -- a pass ----------------------------------------------------------------------------------------------------------
def test_a_pass_is_worded_as_a_pass_and_each_seat_is_told_what_it_received():
    """Hearts, seed 3, deal 1 passes left (South → West → North → East → South), each seat passing its first
    legal cards: East passes 3♠ 5♠ 8♠ to South. South reads its own passes card by card, the others' as
    `passes a card`, and — for South alone — what it received."""
    st = engine.new_match(game_of("games/hearts.yaml"), 4, 3)
    while engine.current_phase(st).id == "pass":
        engine.apply(st, engine.legal_moves(st)[0])
    south = seat_lines(st, 0)
    assert south[2:] == ["West passes a card (×3)", "North passes a card (×3)", "East passes a card (×3)",
                         "South passes 4♠", "South passes 7♠", "South passes 9♠",
                         "passed to South by East: 3♠ 5♠ 8♠"]
    assert not any("discards" in line for line in south)
    assert seat_lines(st, 3)[-1] == "passed to East by North: 2♠ 6♥ A♥"
    for seat in (1, 2, 3):  # what South received is South's alone
        assert not any("to South by" in line for line in seat_lines(st, seat))
    hand = st.zones[st.zone_ids["hand"][0]]
    assert {st.game.deck.codes[c] for c in hand} >= {"3S", "5S", "8S"}


# -- prompts name only legal moves -----------------------------------------------------------------------------------
def test_a_choice_without_a_label_asks_only_the_options_open_now():
    """Preferans' second defender: half-whist is open only after the first defender passed (and for a contract
    of at most 7). Over 200 random deals the question is `whist or pass?` when the menu has those two, and
    `whist, pass or half-whist?` when it has three: it always names exactly the menu."""
    asked = {}
    for st, phase, moves in decisions("games/preferans.yaml", "defence-2", range(200)):
        labels = [engine.describe(st, m) for m in moves]
        assert phase.prompt(st) == either(labels) + "?"
        asked[phase.prompt(st)] = len(moves)
    assert asked == {"whist or pass?": 2, "whist, pass or half-whist?": 3}


def test_an_answer_to_a_declaration_names_only_the_legal_answers():
    """Piquet: `good` is always open, `not good` only with a better holding, `equal` only with an equal one. Over
    40 random deals the question ends with exactly the answers on the menu (four different menus occur)."""
    menus = set()
    for st, phase, moves in decisions("games/piquet.yaml", "declarations", range(40)):
        if st.ph["stage"] == "reply":
            answers = [m.value for m in moves]
            assert phase.prompt(st).endswith(f"” — {either(answers)}?")
            menus.add(tuple(answers))
    assert menus == {("good",), ("good", "not good"), ("good", "equal"), ("good", "not good", "equal")}


def test_a_chosen_option_without_a_label_is_logged_by_its_own_words():
    st = next(st for st, _, _ in decisions("games/preferans.yaml", "defence-2", range(200)))
    seat = engine.to_move(st)
    engine.apply(st, engine.legal_moves(st)[0])
    assert seat_lines(st, seat)[-1] == f"{st.game.seat_name(seat, st.n)}: whist"
