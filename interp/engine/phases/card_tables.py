"""Per-card tables of a `tricks` phase, worked out when the phase starts: `strength` and `points` (a `CardTable`
each: per-rank tables for the trump suit and the plain suits, or an expression on `card` and `trump`) and the
`escape` cards, each remembered by what it reads (`PerCard`)."""
from __future__ import annotations

from typing import Callable

from interp.dsl import types as T
from interp.dsl.compile import parse
from interp.dsl.reads import read_names
from interp.engine.phases.base import with_locals
from interp.engine.state import tupled

PER_CARD_MEMO = 256  # inputs whose per-card values a table remembers (then it starts again)


class PerCard:
    """The values of an expression for every card of the deck, remembered by what else it reads: the player count,
    the trump, and the values of the state names it reads (through defines). An expression that reads a zone, a
    per-seat var or a sheet column is worked out afresh each time (`key` None)."""

    __slots__ = ("key", "memo")

    def __init__(self, key: Callable | None):
        self.key = key
        self.memo: dict = {}

    @classmethod
    def compile(cls, cc, key, own: set) -> "PerCard":
        """For the expression at `key` of the phase; `own`: the locals it is given (card, trump)."""
        text = cc.c.doc.get(cc._p(key))
        names = read_names(parse(str(text), "expr"), cc.c.scope.macros) - own
        symbols = cc.c.scope.symbols
        used = [symbols[name] for name in sorted(names) if name in symbols]
        if any(s.index or s.zone for s in used):
            return cls(None)
        getters = tuple(s.get for s in used)
        return cls(lambda st: tuple(tupled(get(st)) for get in getters))

    def values(self, st, trump, work: Callable) -> list:
        """`work()` (the values for every card), or a copy of those worked out before for the same inputs."""
        if self.key is None:
            return work()
        key = (st.n, trump, self.key(st))
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) >= PER_CARD_MEMO:
                self.memo.clear()
            known = self.memo[key] = work()
        return list(known)


class CardTable:
    """A number per card that may depend on the trump: `{trump: …, plain: …}` per-rank tables (a list of rank names
    low to high for an order, a {rank: number} mapping for values; a suit without its table keeps the deck's
    value), or an expression on `card` and `trump`. `values(st, trump)` works it out for every card, once (and
    again only when the trump or what the expression reads differ)."""

    __slots__ = ("fn", "tables", "default", "per_card")

    def __init__(self, fn, tables: dict, default: str, per_card: PerCard):
        self.fn, self.tables, self.default = fn, tables, default  # default: "rank_of" or "points"
        self.per_card = per_card

    @classmethod
    def compile(cls, cc, key: str, kind: str) -> "CardTable | None":
        value = cc.spec.get(key)
        default = "rank_of" if kind == "order" else "points"
        if value is None:
            return None
        if isinstance(value, str):
            return cls(cc.expr(key, "num", {"card": (T.CARD, None), "trump": (T.STR, None)}), {}, default,
                       PerCard.compile(cc, key, {"card", "trump"}))
        ranks = cc.c.data["deck"]["ranks"]
        ranks = [str(r) for r in ranks]
        tables = {}
        for part, table in value.items():
            names = table if kind == "order" else list(table)
            for i, name in enumerate(names):
                if str(name) not in ranks:
                    where = (key, part, i) if kind == "order" else (key, part)
                    raise cc.error(f"{key}: no rank {name!r} in the deck", where, "ranks: " + ", ".join(ranks))
            tables[part] = {str(r): i for i, r in enumerate(table)} if kind == "order" else \
                {str(r): v for r, v in table.items()}
        return cls(None, tables, default, PerCard(lambda st: ()))

    def values(self, st, trump: str | None, suits: list | None = None) -> list:
        """Every card's value with this `trump`; `suits`: the cards' effective suits, if the phase has them (a
        per-rank table picks the `trump` part for the cards whose effective suit is the trump)."""
        key = trump if suits is None or self.fn is not None else (trump, tuple(suits))
        return self.per_card.values(st, key, lambda: self.work_out(st, trump, suits))

    def work_out(self, st, trump: str | None, suits: list | None = None) -> list:
        deck = st.game.deck
        base = getattr(deck, self.default)
        if self.fn is not None:
            fn = self.fn
            return [with_locals(st, {"card": c, "trump": trump}, fn) for c in range(len(deck))]
        out = []
        suit_of = suits or deck.suit_of
        for c in range(len(deck)):
            table = self.tables.get("trump" if suit_of[c] == trump else "plain")
            out.append(base[c] if table is None else table.get(deck.rank_name[c], 0))
        return out
