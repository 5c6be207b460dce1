"""Reading values people type (seat names, bid names, yes/no, numbers) into DSL values, by type."""
from __future__ import annotations

from fractions import Fraction


def parse_seat(game, n: int, text) -> int:
    """A seat by name (case-insensitive) or by number from 1."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 1 <= text <= n:
            return text - 1
        raise ValueError(f"seat numbers run from 1 to {n}")
    t = str(text).strip().lower()
    names = [game.seat_name(s, n).lower() for s in range(n)]
    if t in names:
        return names.index(t)
    if t.isdecimal() and len(t) <= len(str(n)) and 1 <= int(t) <= n:
        return int(t) - 1
    raise ValueError(f"no seat {text!r} (seats: {', '.join(game.seat_name(s, n) for s in range(n))})")


def parse_value(game, n: int, decl, text):
    """A value of the var `decl`'s type, written by a person."""
    t = decl.type
    if t == "seat":
        return parse_seat(game, n, text)
    if t == "bid":
        bid = game.bids_by_name.get(str(text).strip()) or next(
            (b for b in game.bids if b.name.lower() == str(text).strip().lower()), None)
        if bid is None:
            raise ValueError(f"no bid {text!r} (e.g. {', '.join(b.name for b in game.bids[:6])} …)")
        return bid
    if t == "bool":
        if isinstance(text, bool):
            return text
        word = str(text).strip().lower()
        if word in ("y", "yes", "true", "1"):
            return True
        if word in ("n", "no", "false", "0", ""):
            return False
        raise ValueError("answer yes or no")
    if t == "int":
        try:
            return int(text)
        except (TypeError, ValueError):
            raise ValueError(f"{text!r} is not a whole number") from None
    if t == "num":
        return Fraction(str(text))
    value = str(text).strip()
    if decl.values is not None and value not in decl.values:
        raise ValueError(f"{value!r} is not one of {', '.join(sorted(decl.values))}")
    return value
