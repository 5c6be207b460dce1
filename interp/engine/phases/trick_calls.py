"""Trick announcements with `for:` parameters (one written for many values: a marriage `for: "s in suits"`): each
value makes its own move, named by the announcement's name and the values' words (`marriage H`, `show KH`), made
at most once per player and trick like any announcement. A value's word is a card's code, else the value as
written; `value_of` reads it back.

>>> from interp.spec.compiler import load_game
>>> deck = load_game("docs/examples/tiny.yaml").deck
>>> call_name("marriage", [("H", "str")], deck), call_name("show", [(deck.parse("KH"), "card")], deck)
('marriage H', 'show KH')
>>> value_of("KH", "card", deck) == deck.parse("KH"), value_of("3", "int", deck), value_of("H", "str", deck)
(True, 3, 'H')
"""
from __future__ import annotations

from interp.dsl import types as T


def call_name(name: str, values: list, deck) -> str:
    """The move name of announcement `name` with `values` ((value, type) pairs): its name and their words."""
    return " ".join([name] + [deck.codes[v] if t == T.CARD else str(v) for v, t in values])


def value_of(word: str, type_: str, deck):
    """A parameter's value read back from its word in a move name."""
    if type_ == T.CARD:
        return deck.parse(word)
    if type_ in (T.INT, T.SEAT):
        return int(word)
    return word
