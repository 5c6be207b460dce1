"""The suit each card belongs to in a `tricks` phase (its *effective* suit), and the tables the play reads from it.

Without a `suit:` key a card's suit is its printed one (`deck.suit_of`). With one — a `str` expression on `card`
and `trump` — it is worked out once per card when the phase starts (and again only when the trump or what the
expression reads differ, as `strength` is): a card of another suit may then be a trump (the jack of the same
colour in trumps), or belong to a suit the deck does not print (`'jacks'` as the trump of a game where only the
jacks are trumps). Following, trumping, overtrumping, the winner, the knowledge bots derive and the way a hand is
shown all read the effective suit; the card keeps its code.

>>> sets = SuitSets.of(["H", "H", "S", "jacks"], [0, 1, 0, 3], ["S", "H"])
>>> sorted(sets.by_suit["H"]), sets.mates[2] == sets.by_suit["S"], sets.position
([0, 1], True, [2, 1, 0, 3])
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from interp.dsl import types as T
from interp.engine.phases.base import with_locals
from interp.engine.phases.card_tables import PER_CARD_MEMO, PerCard


class SuitSets(NamedTuple):
    """Tables made from a list of effective suits (one per card): the cards `by_suit` (frozensets), the set of
    each card's suit by card (`mates`), and each card's `position` when cards are listed grouped by effective
    suit (the deck's suits in its order, then the others in order of first appearance; strongest first)."""

    by_suit: dict
    mates: list
    position: list

    @classmethod
    def of(cls, suits: list, strength: list, deck_suits: list) -> "SuitSets":
        by_suit: dict = {}
        for card, suit in enumerate(suits):
            by_suit.setdefault(suit, set()).add(card)
        frozen = {suit: frozenset(cards) for suit, cards in by_suit.items()}
        rank = {suit: i for i, suit in enumerate([s for s in deck_suits if s in frozen] +
                                                 [s for s in frozen if s not in deck_suits])}
        ordered = sorted(range(len(suits)), key=lambda c: (rank[suits[c]], -strength[c], c))
        position = [0] * len(suits)
        for i, card in enumerate(ordered):
            position[card] = i
        return cls(frozen, [frozen[suit] for suit in suits], position)


class SuitRule:
    """The compiled `suit:` key: `values(st, trump)` gives every card's effective suit; `sets(suits, strength)`
    the tables made from them, remembered (a phase sees only a few trumps)."""

    __slots__ = ("fn", "per_card", "memo")

    def __init__(self, fn: Callable, per_card: PerCard):
        self.fn, self.per_card = fn, per_card
        self.memo: dict = {}

    @classmethod
    def compile(cls, cc) -> "SuitRule | None":
        if "suit" not in cc.spec:
            return None
        locals_ = {"card": (T.CARD, None), "trump": (T.STR, None)}
        return cls(cc.expr("suit", "str", locals_), PerCard.compile(cc, "suit", {"card", "trump"}))

    def values(self, st, trump: str | None) -> list:
        """Every card's effective suit with this `trump`."""
        return self.per_card.values(st, trump, lambda: self.work_out(st, trump))

    def work_out(self, st, trump: str | None) -> list:
        fn = self.fn

        def each(ctx) -> list:
            loc = ctx.loc
            out = []
            for c in range(len(st.game.deck)):
                loc["card"] = c
                suit = fn(ctx)
                out.append(None if suit is None else str(suit))
            return out
        return with_locals(st, {"card": None, "trump": trump}, each)

    def sets(self, suits: list, strength: list, deck_suits: list) -> SuitSets:
        key = (tuple(suits), tuple(strength))
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) >= PER_CARD_MEMO:
                self.memo.clear()
            known = self.memo[key] = SuitSets.of(suits, strength, deck_suits)
        return known
