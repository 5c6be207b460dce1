"""`discard`: a seat lays cards from its hand into a zone, one card per move: exactly `count`, or between `min`
and `max` closing with the move `done`. `allowed` (a condition on `card`) restricts which cards may go; a list
of conditions is tiered: the first that allows some card of the hand decides ("these only when nothing else
can go"). `show` (a condition on `card`) makes a discarded card public (e.g. trumps a rule says must be shown).

`who` may also be a list of seats: each of them discards in turn, in private (into a zone the others cannot
see, e.g. a per-seat `passed` zone visible to its owner), and a later phase reveals or moves the cards together
(passing cards). `prompt` is a template for the question (with `me` and `more`, the cards still to go), and
`bots` a number on `card` (with `me`): the heuristic bot discards the card it scores highest. `verb` is the word the
log uses for a card laid (default `discards`: `Anne discards 7♥`; `passes` for cards passed to another seat).

An `allowed` tier or a `show` condition that reads nothing but `card` and calls only built-ins of the deck
(`suit`, `rank`, `card` …, and defines that do the same) is worked out once per card and then looked up.
"""
from __future__ import annotations

from typing import Callable

from interp.dsl import types as T
from interp.dsl.calls import DECK_ONLY
from interp.dsl.compile import parse
from interp.dsl.reads import calls_in, free_names
from interp.engine.phases.base import Phase, kept_where, with_locals
from interp.engine.phases.progress import Progress
from interp.engine.phases.turns import Template
from interp.engine.state import Event, Move, others

DONE = Move("option", "done")


class CardCondition:
    """A condition on `card` (with `me` bound): `table` remembers its value by card when it depends on the card
    alone (see the module docstring), else is None."""

    __slots__ = ("fn", "table")

    def __init__(self, fn: Callable, by_card: bool):
        self.fn = fn
        self.table: dict | None = {} if by_card else None

    @classmethod
    def compile(cls, cc, key, local: dict) -> "CardCondition":
        fn = cc.expr(key, "bool", local)
        tree = parse(str(cc.c.doc.get(cc._p(key))), "expr")
        macros = cc.c.scope.macros
        return cls(fn, free_names(tree, macros) <= {"card"} and calls_in(tree, macros) <= DECK_ONLY)

    def holds(self, st, me: int, card: int):
        table = self.table
        if table is None:
            return with_locals(st, {"me": me, "card": card}, self.fn)
        if card not in table:
            table[card] = with_locals(st, {"me": me, "card": card}, self.fn)
        return table[card]

    def kept(self, st, me: int, cards: list) -> list:
        """The `cards` for which the condition holds, in their order."""
        table = self.table
        if table is None:
            return with_locals(st, {"me": me, "card": None}, kept_where(cards, "card", self.fn))
        for card in cards:
            if card not in table:
                table[card] = with_locals(st, {"me": me, "card": card}, self.fn)
        return [card for card in cards if table[card]]


class DiscardProgress(Progress):
    """A discard's progress, its `state.ph` (see `Progress`): the `seats` to discard in turn, the `seat` doing so,
    the `n` cards it has laid, between `low` and `high` in all, and whether the phase is `closed`.

    >>> DiscardProgress([1], 1, 2, 2) == {"seats": [1], "seat": 1, "n": 0, "low": 2, "high": 2, "closed": False}
    True
    """

    FIELDS = __slots__ = ("seats", "seat", "n", "low", "high", "closed")
    seats: list
    seat: int | None
    n: int
    low: int
    high: int
    closed: bool

    def __init__(self, seats: list, seat: int | None, low: int, high: int, n: int = 0, closed: bool = False):
        self.seats, self.seat, self.n, self.low, self.high, self.closed = seats, seat, n, low, high, closed

    def copy(self) -> "DiscardProgress":
        return DiscardProgress(self.seats[:], self.seat, self.low, self.high, self.n, self.closed)


class DiscardPhase(Phase):
    type_name = "discard"
    __slots__ = ("who", "source", "target", "low", "high", "allowed", "show", "prompt_t", "bots", "many", "audiences",
                 "card_events", "verb")

    def __init__(self, pid, when, label, who, source, target, low, high, allowed, show, prompt_t, bots,
                 many: bool, verb: str = "discards"):
        super().__init__(pid, when, label)
        self.verb = verb
        self.who, self.source, self.target = who, source, target
        self.low, self.high, self.allowed, self.show = low, high, allowed, show
        self.prompt_t, self.bots, self.many = prompt_t, bots, many
        self.audiences: dict = {}  # others_of: {player count: each seat's audience}
        self.card_events: dict = {}  # discard_events: {(seat, card, public, player count): its events}

    @classmethod
    def compile(cls, spec: dict, cc) -> "DiscardPhase":
        who, who_type, _ = cc.typed_expr("who")
        if who_type not in (T.SEAT, T.list_of(T.SEAT)):
            raise cc.error(f"who: must be a seat or a list of seats, not {who_type}", "who")
        source = cc.zone_name("from", per_seat=True)
        target = cc.zone_name("to")
        if "count" in spec:
            low = high = cc.number("count", spec["count"])
        else:
            low, high = cc.number("min", spec.get("min", 0)), cc.number("max", spec["max"])
        local = {"me": (T.SEAT, None), "card": (T.CARD, None)}
        tiers = spec.get("allowed")
        allowed: list | None
        if isinstance(tiers, list):
            allowed = [CardCondition.compile(cc, ("allowed", i), local) for i in range(len(tiers))]
        else:
            allowed = [CardCondition.compile(cc, "allowed", local)] if tiers is not None else None
        show = CardCondition.compile(cc, "show", local) if "show" in spec else None
        prompt_t = Template.compile(cc, "prompt", {"me": (T.SEAT, None), "more": (T.INT, None)}) \
            if "prompt" in spec else None
        bots = cc.expr("bots", "num", local) if "bots" in spec else None
        return cls(spec["id"], cc.when(), spec.get("label", ""), who, source, target, low, high, allowed, show,
                   prompt_t, bots, who_type != T.SEAT, str(spec.get("verb", "discards")))

    def start(self, st) -> None:
        seats = list(self.who(st)) if self.many else [self.who(st)]
        ph = st.ph = DiscardProgress(seats, seats[0] if seats else None, self.low(st), self.high(st))
        ph.closed = not seats or ph.high <= 0

    def progress_of(self, values: dict) -> DiscardProgress:
        return DiscardProgress.of(values)

    def actor(self, st) -> int | None:
        return st.ph.seat

    def done(self, st) -> bool:
        return st.ph.closed

    def _next_seat(self, st) -> None:
        """After a seat closed or reached `high`: the next seat of `who` discards, or the phase is over."""
        ph = st.ph
        rest = ph.seats[ph.seats.index(ph.seat) + 1:]
        if rest:
            ph.seat, ph.n = rest[0], 0
        else:
            ph.closed = True

    def hand(self, st) -> list:
        return st.zones[st.zone_ids[self.source][st.ph.seat]]

    def legal(self, st) -> list:
        ph = st.ph
        me = ph.seat
        cards = st.zones[st.zone_ids[self.source][me]]
        if self.allowed is not None:
            cards = self.allowed_cards(st, me, cards)
        moves = list(map(st.game.card_moves.__getitem__, sorted(cards)))
        if ph.n >= ph.low:
            moves.append(DONE)
        return moves

    def allowed_cards(self, st, me: int, cards: list) -> list:
        """The cards of the first `allowed` tier that lets any card go (none if no tier does)."""
        for tier in self.allowed:
            ok = tier.kept(st, me, cards)
            if ok:
                return ok
        return []

    def apply(self, st, move: Move) -> bool:
        """Discard the card of `move` (or close with `done`); whether the phase is now over."""
        return self.play(st, move, [])  # (its log entry goes to a list nobody keeps: the caller logs moves)

    def play(self, st, move: Move, history: list) -> bool:
        """`Phase.play` in one body: log `move` in `history` (its notation: the card's code, or `done`), then
        discard its card (or close); whether the phase is now over."""
        ph = st.ph
        me = ph.seat
        kind = move.kind
        if kind == "option" and move.value == "done":
            history.append([st.deal_no, me, "done"])
            st.events.append(Event("discard", me, (), DONE, None, self.id))
            self._next_seat(st)
            return ph.closed
        card = move.value
        history.append([st.deal_no, me, st.game.deck.codes[card] if kind == "card" else str(card)])
        ids = st.zone_ids
        st.zones[ids[self.source][me]].remove(card)
        st.zones[ids[self.target][me]].append(card)
        ph.n += 1
        public = self.show is not None and self.show.holds(st, me, card)
        key = (me, card, public, st.n)
        logged = self.card_events.get(key)
        if logged is None:
            logged = self.discard_events(key, move)
        st.events.extend(logged)
        if ph.n >= ph.high:
            self._next_seat(st)
        return ph.closed

    def discard_events(self, key: tuple, move: Move) -> tuple:
        """The events of a discard, `key` = (seat, card, whether it is shown, player count): made the first time,
        then shared by every deal (an event is never changed once logged). A card shown to all is one event; else
        the seat's own, and the others' seeing a card go."""
        me, card, public, n = key
        if public:
            logged: tuple = (Event("discard", me, (card,), move, None, self.id),)
        else:
            logged = (Event("discard", me, (card,), move, (me,), self.id),
                      Event("discard", me, (), None, self.others_of(me, n), self.id))
        self.card_events[key] = logged
        return logged

    def others_of(self, me: int, n: int) -> tuple:
        """`others(me, n)`, the audience of the masked side of a discard, made once per player count."""
        table = self.audiences.get(n)
        if table is None:
            table = self.audiences[n] = tuple(others(seat, n) for seat in range(n))
        return table[me]

    def event_text(self, ctx, event) -> str:
        """`Anne discards T2`; the others read `Anne discards a card` (with the phase's `verb`)."""
        who = ctx.game.seat_name(event.seat, ctx.n)
        if event.value == DONE:
            return f"{who} is done discarding" if self.verb == "discards" else f"{who} is done"
        card = ctx.game.deck.pretty(event.cards[0]) if event.cards else "a card"
        return f"{who} {self.verb} {card}"

    def explain(self, st, text: str) -> str:
        game = st.game
        ph = st.ph
        if text.strip().lower() == "done":
            if ph.low == ph.high:
                return f"discard {ph.high - ph.n} more card(s); there is no 'done' here"
            return f"discard at least {ph.low - ph.n} more card(s) before 'done'"
        card = game.deck.index.get(text.strip().upper())
        if card is None:
            return f"'{text}' is not a card: write rank then suit, e.g. 10H or QS"
        if card not in self.hand(st):
            return f"you do not hold {game.deck.pretty(card)}"
        return f"{game.deck.pretty(card)} may not be discarded here"

    def prompt(self, st) -> str:
        ph = st.ph
        if self.prompt_t is not None:
            return with_locals(st, {"me": ph.seat, "more": ph.high - ph.n},
                               lambda s: self.prompt_t.render(s, True))
        if ph.low == ph.high:
            return f"discard {ph.high - ph.n} more card(s)"
        return f"discard up to {ph.high - ph.n} more card(s), or 'done'"


    def preference(self, view, card: int, seat: int):
        """How much a bot likes discarding `card` by the phase's `bots` expression, on its view (None: no hint)."""
        return None if self.bots is None else with_locals(view, {"me": seat, "card": card}, self.bots)
