"""Per-card tables of a trick phase (escape cards, an expression's strength or points) are worked out when the
phase starts and remembered by what they read: the same inputs give the same table without evaluating the
expression again, different inputs a fresh one."""
from __future__ import annotations

import pytest

from interp.engine import match as engine
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


def test_on_trick_is_given_the_locals_its_text_and_defines_may_read(tmp_path):
    """`on_trick` gets `winner` and `trick_no`, and of the other trick locals those its words (through defines)
    name: a define reading `last` makes the phase bind `last`, and a deal plays through with it."""
    text = open("games/preferans.yaml", encoding="utf-8").read()
    text = text.replace("define:\n", "define:\n  closing(k): \"if last then k else k\"\n", 1)
    old = '    on_trick: "tricks[winner] += 1"\n'
    assert old in text
    text = text.replace(old, '    on_trick: "tricks[winner] += closing(1)"\n', 1)
    path = tmp_path / "preferans.yaml"
    path.write_text(text, encoding="utf-8")
    from interp.spec.compiler import load_game
    game = load_game(str(path))
    phases = [p for p in game.phases if p.type_name == "tricks"]
    assert phases[0].trick_locals == {"winner", "last"}
    assert phases[1].trick_locals == {"winner"}  # raspasy's on_trick is unchanged
    st = engine.new_match(game, 3, 4)
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert sum(st.vars["tricks"]) == 10


def test_preferans_tricks_need_only_the_winner():
    preferans = game_of("games/preferans.yaml")
    assert {p.id: p.trick_locals for p in preferans.phases if p.type_name == "tricks"} == \
        {"play": {"winner"}, "raspasy": {"winner"}}
