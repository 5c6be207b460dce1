"""Decks: cards are small ints; suit, rank order and points are precomputed tables.

>>> deck = Deck.build({"suits": ["S", "C", "D", "H"], "ranks": ["7", "8", "9", "10", "J", "Q", "K", "A"]})
>>> len(deck), deck.code(deck.parse("10H")), deck.suit_of[deck.parse("QS")], deck.rank_of[deck.parse("AS")]
(32, '10H', 'S', 7)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass
class Deck:
    """A deck compiled from a spec: every table is indexed by card number."""

    codes: list
    suit_of: list  # suit code, or "" for cards outside the suits
    rank_of: list  # position in the rank order of its suit (0 = lowest); extras by their own order
    rank_name: list
    points: list
    suits: list
    ranks: list
    suit_names: dict = field(default_factory=dict)
    symbols: dict = field(default_factory=dict)
    index: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.codes)

    def parse(self, code: str) -> int:
        """The card with this code (case-insensitive); KeyError if there is none."""
        return self.index[code.strip().upper()]

    def code(self, card: int) -> str:
        return self.codes[card]

    def pretty(self, card: int) -> str:
        """The code with a suit symbol when the spec gives one (10♥)."""
        suit = self.suit_of[card]
        if suit and suit in self.symbols:
            return self.rank_name[card] + self.symbols[suit]
        return self.codes[card]

    @classmethod
    def build(cls, spec: dict) -> "Deck":
        suits = [_suit_code(s) for s in spec["suits"]]
        names = {_suit_code(s): s.get("name", _suit_code(s)) for s in spec["suits"] if isinstance(s, dict)}
        symbols = {_suit_code(s): s["symbol"] for s in spec["suits"] if isinstance(s, dict) and "symbol" in s}
        ranks = [str(r) for r in spec["ranks"]]
        points_spec = spec.get("points", {}) or {}
        codes, suit_of, rank_of, rank_name, points = [], [], [], [], []
        for suit in suits:
            for i, rank in enumerate(ranks):
                code = f"{rank}{suit}"
                codes.append(code)
                suit_of.append(suit)
                rank_of.append(i)
                rank_name.append(rank)
                points.append(_points(points_spec, code, rank))
        for i, extra in enumerate(spec.get("extras", []) or []):
            code = str(extra["code"] if isinstance(extra, dict) else extra)
            codes.append(code)
            suit_of.append(str(extra.get("suit", "")) if isinstance(extra, dict) else "")
            rank_of.append(int(extra.get("rank", i)) if isinstance(extra, dict) else i)
            rank_name.append(code)
            points.append(_points(points_spec, code, code))
        for extra_suit in spec.get("extra_suits", []) or []:  # names for the suits of extra cards
            names[str(extra_suit["code"])] = extra_suit.get("name", extra_suit["code"])
            if "symbol" in extra_suit:
                symbols[str(extra_suit["code"])] = extra_suit["symbol"]
        index = {c.upper(): n for n, c in enumerate(codes)}
        return cls(codes, suit_of, rank_of, rank_name, points, suits, ranks, names, symbols, index)


def _suit_code(s) -> str:
    return str(s["code"] if isinstance(s, dict) else s)


def _points(points_spec: dict, code: str, rank: str):
    value = points_spec.get(code, points_spec.get(rank, points_spec.get("other", 0)))
    value = Fraction(str(value))
    return int(value) if value.denominator == 1 else value
