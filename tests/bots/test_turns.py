"""`bots.turns.turn_needs` on hand-built positions of a game whose turn order the hidden hands decide (Durak: after
the defender picks up, the attacker is asked to throw in only if it holds a card of a rank on the table)."""
import os

from interp.bots.turns import turn_needs
from interp.engine import match as engine
from interp.engine.state import Move
from interp.spec.compiler import load_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TAKE = Move("action", ("take",))


def _position(attacker_hand: list, stock: list):
    """Two players, trumps diamonds; South (0) has led 7H, West (1) holds 6S 8S JH and is to move. Cards by code;
    the stock's first card is its bottom one. Every card not placed lies in the discards."""
    game = load_game(os.path.join(ROOT, "games", "durak.yaml"))
    st = engine.new_match(game, 2, 0)
    code = {game.deck.code(c): c for c in range(len(game.deck))}
    zones = {"hand0": attacker_hand, "hand1": ["6S", "8S", "JH"], "stock": stock, "attack": ["7H"], "beaten": []}
    ids = {"hand0": game.zone_id("hand", 0, 2), "hand1": game.zone_id("hand", 1, 2), "stock": game.zone_id("stock", None, 2),
           "attack": game.zone_id("attack", None, 2), "beaten": game.zone_id("beaten", None, 2)}
    placed = {code[c] for cards in zones.values() for c in cards}
    for name, cards in zones.items():
        st.zones[ids[name]] = [code[c] for c in cards]
    st.zones[game.zone_id("discard", None, 2)] = [c for c in range(len(game.deck)) if c not in placed]
    st.vars.update(trump="D", attacker=0, defender=1, taking=False, attacks=1, passed=[False, False])
    st.ph["seat"] = 1
    free = {code[c] for c in attacker_hand + stock[1:]}  # (the bottom of the stock is shown: not free)
    return st, ids, free, code


def test_a_seat_passed_over_after_a_pick_up_is_banned_the_free_cards_of_the_table_rank():
    # South holds KS 9D; the stock 7S 7C QH over the trump AD. West picks up and South leads next (the view's next
    # decision): South held no 7, so the free 7s (7S, 7C) are banned from its hand, and nothing else is.
    st, ids, free, code = _position(["KS", "9D"], ["AD", "7S", "7C", "QH"])
    bans, needs = turn_needs(st, TAKE, (0, "lead"), free, [ids["hand0"], ids["stock"]], [ids["hand0"]])
    assert bans == {ids["hand0"]: frozenset({code["7S"], code["7C"]})}
    assert needs == {}


def test_a_seat_asked_to_throw_in_must_hold_one_of_the_free_cards_of_the_table_rank():
    # South holds 7S 9D and is asked next ("done" is the view's next decision): one of its free cards is a 7 of the
    # free ones (7S, 7C); no card is banned (it may hold a king as well).
    st, ids, free, code = _position(["7S", "9D"], ["AD", "KS", "7C", "QH"])
    bans, needs = turn_needs(st, TAKE, (0, "done"), free, [ids["hand0"], ids["stock"]], [ids["hand0"]])
    assert bans == {}
    assert needs == {ids["hand0"]: frozenset({code["7S"], code["7C"]})}


def test_a_seat_whose_hand_does_not_decide_the_turn_is_left_free():
    # West (the defender) is to move: its hand decides nothing of whose turn it is after South's lead is taken.
    st, ids, free, code = _position(["KS", "9D"], ["AD", "7S", "7C", "QH"])
    bans, needs = turn_needs(st, TAKE, (0, "lead"), free, [ids["hand0"], ids["stock"]], [ids["hand1"]])
    assert (bans, needs) == ({}, {})
