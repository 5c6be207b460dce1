"""Reading values people type (seat names, bid names, yes/no, numbers) into DSL values, by type."""
from __future__ import annotations

import math
import re
from fractions import Fraction

#: The largest magnitude a number typed or written in an input file may have.
LIMIT = 10 ** 12
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)(/\d+)?")


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
        bid = game.bids_by_name.get(str(text).strip())
        if bid is None:
            name = named_as(str(text), [b.name for b in game.bids])
            bid = None if name is None else game.bids_by_name[name]
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
        value = finite_number(text)
        if value != int(value):
            raise ValueError(f"{text!r} is not a whole number")
        return int(value)
    if t == "num":
        return finite_number(text)
    word = str(text).strip()
    if decl.values is not None and word not in decl.values:
        name = named_as(word, sorted(decl.values))
        if name is None:
            raise ValueError(f"{word!r} is not one of {', '.join(sorted(decl.values))}")
        return name
    return word


def named_as(text: str, names: list) -> str | None:
    """The one of `names` that `text` writes as a person may: in any case, with spaces (or dashes) for
    underscores and spaces as they come; None if none (or several) fit.

    >>> named_as("Grand  Slam", ["grand", "grand_slam", "small_slam"])
    'grand_slam'
    >>> named_as("grandslam", ["grand_slam"]) is None
    True
    """
    def plain(word: str) -> str:
        return " ".join(word.lower().replace("_", " ").replace("-", " ").split())
    wanted = plain(text)
    fits = [name for name in names if plain(name) == wanted]
    return fits[0] if len(fits) == 1 else None


def finite_number(text) -> Fraction | int:
    """A number written by a person: finite, at most LIMIT in size (halves and decimals are exact).

    >>> finite_number("40.5"), finite_number(3)
    (Fraction(81, 2), 3)
    >>> finite_number("1e400")
    Traceback (most recent call last):
    ValueError: '1e400' is not a number (write 7, -3 or 40.5)
    """
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a number")
    if isinstance(text, float) and not math.isfinite(text):
        raise ValueError(f"{text!r} is not a finite number")
    if isinstance(text, (int, float)):
        value = text if isinstance(text, int) else Fraction(text)
    else:
        word = str(text).strip()
        if len(word) > 40:
            raise ValueError(f"'{word[:20]}…' is too long for a number")
        try:
            if not _NUMBER.fullmatch(word):
                raise ValueError
            value = Fraction(word)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{word!r} is not a number (write 7, -3 or 40.5)") from None
    if not -LIMIT <= value <= LIMIT:
        raise ValueError(f"the number is too large (at most {LIMIT} either way)")
    return value


def short_repr(value, width: int = 24) -> str:
    """A value as a message may quote it: cut to `width` characters, huge whole numbers by their size.

    >>> short_repr(10 ** 400), short_repr("x" * 30)
    ('a 401-digit number', "'xxxxxxxxxxxxxxxxxxx…")
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** width:
        return f"a {len(str(abs(value))) if value.bit_length() < 14000 else 'many'}-digit number"
    text = repr(value)
    return text if len(text) <= width else text[:width - 4] + "…"
