"""`discard`: a seat lays cards from its hand into a zone, one card per move: exactly `count`, or between `min`
and `max` closing with the move `done`. `allowed` (a condition on `card`) restricts which cards may go; a list
of conditions is tiered: the first that allows some card of the hand decides ("these only when nothing else
can go"). `show` (a condition on `card`) makes a discarded card public (e.g. trumps a rule says must be shown).
"""
from __future__ import annotations

from ..state import Event, Move, others
from .base import Phase, with_locals

DONE = Move("option", "done")


class DiscardPhase(Phase):
    type_name = "discard"

    def __init__(self, pid, when, who, source, target, low, high, allowed, show, label):
        super().__init__(pid, when, label)
        self.who, self.source, self.target = who, source, target
        self.low, self.high, self.allowed, self.show = low, high, allowed, show

    @classmethod
    def compile(cls, spec: dict, cc) -> "DiscardPhase":
        who = cc.expr("who", "seat")
        source = cc.zone_name("from", per_seat=True)
        target = cc.zone_name("to")
        if "count" in spec:
            low = high = cc.number("count", spec["count"])
        else:
            low, high = cc.number("min", spec.get("min", 0)), cc.number("max", spec["max"])
        local = {"me": ("seat", None), "card": ("card", None)}
        tiers = spec.get("allowed")
        if isinstance(tiers, list):
            allowed = [cc.expr(("allowed", i), "bool", local) for i in range(len(tiers))]
        else:
            allowed = [cc.expr("allowed", "bool", local)] if tiers is not None else None
        show = cc.expr("show", "bool", local) if "show" in spec else None
        return cls(spec["id"], cc.when(), who, source, target, low, high, allowed, show, spec.get("label", ""))

    def start(self, st) -> None:
        st.ph = {"seat": self.who(st), "n": 0, "low": self.low(st), "high": self.high(st), "closed": False}

    def actor(self, st) -> int | None:
        return st.ph["seat"]

    def done(self, st) -> bool:
        ph = st.ph
        return ph["closed"] or ph["n"] >= ph["high"]

    def hand(self, st) -> list:
        return st.zones[st.game.zone_id(self.source, st.ph["seat"], st.n)]

    def legal(self, st) -> list:
        me = st.ph["seat"]
        cards = self.hand(st)
        if self.allowed is not None:
            cards = self.allowed_cards(st, me, cards)
        moves = [Move("card", c) for c in sorted(cards)]
        if st.ph["n"] >= st.ph["low"]:
            moves.append(DONE)
        return moves

    def allowed_cards(self, st, me: int, cards: list) -> list:
        """The cards of the first `allowed` tier that lets any card go (none if no tier does)."""
        for tier in self.allowed:
            ok = [c for c in cards if with_locals(st, {"me": me, "card": c}, tier)]
            if ok:
                return ok
        return []

    def apply(self, st, move: Move) -> None:
        me = st.ph["seat"]
        if move == DONE:
            st.ph["closed"] = True
            st.events.append(Event("discard", me, value=DONE, phase=self.id))
            return
        card = move.value
        self.hand(st).remove(card)
        st.zones[st.game.zone_id(self.target, me, st.n)].append(card)
        st.ph["n"] += 1
        public = self.show is not None and with_locals(st, {"me": me, "card": card}, self.show)
        st.events.append(Event("discard", me, (card,), move, None if public else (me,), self.id))
        if not public:
            st.events.append(Event("discard", me, audience=others(me, st.n), phase=self.id))  # the others see a card go

    def event_text(self, ctx, event) -> str:
        """`Anne discards T2`; the others read `Anne discards a card`."""
        who = ctx.game.seat_name(event.seat, ctx.n)
        if event.value == DONE:
            return f"{who} is done discarding"
        return f"{who} discards {ctx.game.deck.pretty(event.cards[0])}" if event.cards else f"{who} discards a card"

    def explain(self, st, text: str) -> str:
        game = st.game
        ph = st.ph
        if text.strip().lower() == "done":
            if ph["low"] == ph["high"]:
                return f"discard {ph['high'] - ph['n']} more card(s); there is no 'done' here"
            return f"discard at least {ph['low'] - ph['n']} more card(s) before 'done'"
        card = game.deck.index.get(text.strip().upper())
        if card is None:
            return f"'{text}' is not a card: write rank then suit, e.g. 10H or QS"
        if card not in self.hand(st):
            return f"you do not hold {game.deck.pretty(card)}"
        return f"{game.deck.pretty(card)} may not be discarded here"

    def prompt(self, st) -> str:
        ph = st.ph
        if ph["low"] == ph["high"]:
            return f"discard {ph['high'] - ph['n']} more card(s)"
        return f"discard up to {ph['high'] - ph['n']} more card(s), or 'done'"
