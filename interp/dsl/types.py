"""The DSL's small type system: names of value kinds, list types and their compatibility.

>>> unify(INT, NUM), list_of(SEAT), element(list_of(CARD)), assignable(INT, NUM), assignable(NUM, INT)
('num', 'list[seat]', 'card', True, False)
>>> parse_type("list[list[card]]"), parse_type("list[list[list[card]]]")
('list[list[card]]', None)
"""
from __future__ import annotations

INT, NUM, BOOL, STR, SEAT, CARD, BID, NONE, ANY = "int", "num", "bool", "str", "seat", "card", "bid", "none", "any"
SCALARS = (INT, NUM, BOOL, STR, SEAT, CARD, BID)
NULLABLE = (SEAT, CARD, BID, STR)


def list_of(t: str) -> str:
    return f"list[{t}]"


def is_list(t: str) -> bool:
    return t.startswith("list[")


def element(t: str) -> str:
    return t[5:-1] if is_list(t) else ANY


def is_number(t: str) -> bool:
    return t in (INT, NUM, ANY)


def assignable(value: str, target: str) -> bool:
    """Whether a value of type `value` may stand where `target` is expected."""
    if value == target or ANY in (value, target):
        return True
    if value == INT and target == NUM:
        return True
    if value == NONE and target in NULLABLE:
        return True
    if is_list(value) and is_list(target):
        return assignable(element(value), element(target))
    return False


def unify(a: str, b: str) -> str | None:
    """The common type of two branches, or None when they have none."""
    if assignable(a, b):
        return b
    if assignable(b, a):
        return a
    return None


def parse_type(text: str) -> str | None:
    """A type written in a spec (`int`, `seat`, `list[card]`, `list[list[card]]` …), or None if it is not one:
    lists nest two deep at most (melds: a list of lists of cards)."""
    text = text.strip()
    if text in SCALARS:
        return text
    if is_list(text) and element(text) in SCALARS:
        return text
    if is_list(text) and is_list(element(text)) and element(element(text)) in SCALARS:
        return text
    return None
