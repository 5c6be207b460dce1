"""Per-card tables of a trick phase (escape cards, an expression's strength or points) are worked out when the
phase starts and remembered by what they read: the same inputs give the same table without evaluating the
expression again, different inputs a fresh one."""
from __future__ import annotations

import pytest

from interpreter import engine
from .conftest import game_of


@pytest.fixture(scope="module")
def tarot():
    return game_of("games/tarot.yaml")


def tricks_of(game):
    return next(p for p in game.phases if p.type_name == "tricks")


def test_escape_cards_follow_the_var_they_read(tarot):
    """Tarot (rules digest, petit sec played on): the Excuse is always an escape card; the Petit is one only when
    `petit_escape` is set. The remembered table is keyed by that var, so switching it back and forth gives the
    right cards each time."""
    phase = tricks_of(tarot)
    assert phase.escape_memo is not None and phase.escape_memo.key is not None  # it reads one plain var
    st = engine.new_match(tarot, 4, 1)
    excuse, petit = tarot.deck.parse("EX"), tarot.deck.parse("T1")
    for flag, expected in [(False, [excuse]), (True, sorted([excuse, petit])), (False, [excuse]),
                           (True, sorted([excuse, petit]))]:
        st.vars["petit_escape"] = flag
        assert sorted(phase.escape_cards(st)) == expected


def test_a_remembered_table_is_a_copy(tarot):
    phase = tricks_of(tarot)
    st = engine.new_match(tarot, 4, 2)
    st.vars["petit_escape"] = False
    first = phase.escape_cards(st)
    first.append(0)
    assert phase.escape_cards(st) == [tarot.deck.parse("EX")]
