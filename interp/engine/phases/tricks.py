"""`tricks`: trick play. Rules as data: `follow` suit, `must_trump` when void, `overtrump` when trumping,
`trump` (a DSL expression giving a suit code or none), `leader` of the first trick, a fixed number of `tricks`.

`lead_from` lets a zone lead tricks (an all-pass deal's talon cards): `{zone, when (trick_no), can_win, credit,
then}` — while `when` holds (asked only while the zone has a card), the zone's top card is turned up and leads;
if it cannot win, the best player card of its suit wins; `credit` names the seat (or none) credited when the zone
card wins or nobody follows; `then` who plays first.
`allowed` (a condition on `card`, with `me`, `trick_no` and the trick's `cards` so far) narrows the playable cards
further, e.g. "the first lead in the suit announced"; when it would leave none, it is ignored.
Hooks: `on_trick` (with `winner`, `trick_no`, the trick's `cards` and the `players` who played them in order
— none for a zone's card — its `leader`, and `last` for the deal's last trick), `after_first_card`. Won cards go
to the per-seat zone `won` (or `unclaimed` when a trick is credited to nobody).

`escape` (a condition on `card`, worked out once per card when the phase starts) marks escape cards: always
playable, they never win a trick, and when one is led the first other card sets the suit to follow. Where the
escape card ends up is the spec's business (`on_trick`). `escape_wins` (a condition with the led escape `card`,
its `leader`, `trick_no` and `last`) makes a led escape card win its trick after all, e.g. "led to the last trick
by a side that won every trick before". `announcements` are optional calls a player may make
before playing a card (`{name, label, when, do, bots}`, with `me` and `trick_no`): each is offered while its
`when` holds, at most once per player and trick, and the same player then goes on to play a card.

`strength` and `points` (a `CardTable` each) may depend on the trump: per-rank tables for the trump suit and the
plain suits, or an expression on `card` and `trump`, worked out once per card when the phase starts (the trump
is fixed then). `strength` orders the cards of a suit for winning and overtrumping (default: the deck's rank
order); `points` gives `on_trick` its `trick_points` (default: the deck's points). `trump_exempt` (with `me` and
`winning`, the seat winning the trick so far) frees a player void in the led suit from `must_trump`.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from interp.dsl import types as T
from interp.dsl.compile import parse
from interp.dsl.reads import read_names, words_in
from interp.engine.state import Event, Move, tupled
from interp.engine.phases.base import Phase, kept_where, with_locals
from interp.engine.phases.progress import Progress

ZONE_SEAT = -1  # who "played" a card turned up from a zone
PER_CARD_MEMO = 256  # inputs whose per-card values a table remembers (then it starts again)
MOVE_LIST_MEMO = 4096  # sets of cards whose sorted moves a plain phase remembers (then it starts again)
ORDERS_MEMO = 256  # sets of players whose orders of play a phase remembers (then it starts again)
NO_CARDS: frozenset = frozenset()
BASIC_TRICK_LOCALS = frozenset({"winner", "trick_no"})  # the locals `on_trick` always gets


class Announcement(NamedTuple):
    """An optional call before a card. `trick_no`: the only trick at which `when` can hold (its condition
    requires `trick_no == N`, found when it compiles), or None: it is checked at every card."""
    name: str
    label: str
    when: Callable | None
    do: Callable | None
    bots: Callable | None
    trick_no: int | None
    move: Move  # Move("option", name), built once


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

    def values(self, st, trump: str | None) -> list:
        return self.per_card.values(st, trump, lambda: self.work_out(st, trump))

    def work_out(self, st, trump: str | None) -> list:
        deck = st.game.deck
        base = getattr(deck, self.default)
        if self.fn is not None:
            fn = self.fn
            return [with_locals(st, {"card": c, "trump": trump}, fn) for c in range(len(deck))]
        out = []
        for c in range(len(deck)):
            table = self.tables.get("trump" if deck.suit_of[c] == trump else "plain")
            out.append(base[c] if table is None else table.get(deck.rank_name[c], 0))
        return out


class TrickProgress(Progress):
    """A tricks phase's progress, its `state.ph`: the phase reads and writes its fields as attributes (cheaper than
    a dict's items, and it touches them at every card); everyone else (saves, the position digest, copies, views,
    bots, rendering) reads, changes and compares it as the dict of its fields, in this order (see TricksPhase).

    >>> ph = TrickProgress([0, 1, 2], 0, "S", 10, [], None, None, None)
    >>> ph.trick.append(7); ph["by"].append(0)
    >>> ph["trick"], ph.get("trump"), ph == dict(ph), list(ph)[:4]
    ([7], 'S', True, ['players', 'leader', 'trick', 'by'])
    """

    FIELDS = ("players", "leader", "trick", "by", "turn", "order", "no", "trump", "first", "over", "total",
              "escape", "said", "strength", "points")
    # beside the fields, not one of them: the orders of play by leader for these players (see `orders_for`)
    __slots__ = FIELDS + ("orders",)

    def __init__(self, players: list, leader, trump, total, escape: list, strength, points, orders: dict | None):
        self.players, self.leader, self.turn, self.no, self.trump = players, leader, 0, 0, trump
        self.trick: list = []  # the cards of the trick in play, and who played each (`by`)
        self.by: list = []
        self.order: list = []  # the seats in order of play of the trick, `turn` the index of the next
        self.first, self.over, self.total, self.escape = True, False, total, escape
        self.said: list = []
        self.strength, self.points = strength, points
        self.orders = orders

    @classmethod
    def of(cls, values) -> "TrickProgress":
        """The progress with the fields of `values` (a mapping of every field, e.g. a saved state's dict)."""
        progress = super().of(values)
        progress.orders = None
        return progress

    def copy(self) -> "TrickProgress":
        """An independent copy (its lists copied), as `State.copy` makes of a dict."""
        other = TrickProgress.__new__(TrickProgress)
        other.players, other.leader, other.trick, other.by = list(self.players), self.leader, self.trick[:], self.by[:]
        other.turn, other.order, other.no, other.trump = self.turn, self.order[:], self.no, self.trump
        other.first, other.over, other.total, other.escape = self.first, self.over, self.total, _copied(self.escape)
        other.said, other.strength, other.points = self.said[:], _copied(self.strength), _copied(self.points)
        other.orders = self.orders  # shared: its orders are never changed in place
        return other


def _copied(value):
    return list(value) if isinstance(value, list) else value


class LeadFrom(NamedTuple):
    """`lead_from`: the shared `zone` whose top card leads a trick when `when` holds (with `trick_no`), whether that
    card `can_win`, whom a trick it takes is `credit`ed to, and who plays `then` (None: the leader)."""
    zone: str
    when: Callable
    can_win: Callable
    credit: Callable
    then: Callable | None


class TricksPhase(Phase):
    """A compiled `tricks` phase: its rules as fields, its progress in `state.ph` (`players`, `leader`, the `trick`
    in play and who played each card (`by`), the `order` of play and whose `turn`, the trick number `no`, the
    `trump`, the `escape` cards, announcements `said` by the seat to play, and the `strength` / `points` tables)."""

    type_name = "tricks"
    __slots__ = ("players", "leader", "count", "hand", "won", "unclaimed", "trump", "follow", "must_trump",
                 "overtrump", "on_trick", "after_first", "lead_from", "allowed", "escape", "escape_wins",
                 "announcements", "strength", "card_points", "trump_exempt", "calls_until", "escape_memo",
                 "trick_locals", "basic_locals", "by_suit", "suit_mates", "play_events", "trick_events",
                 "move_lists", "rotations", "start_events")

    def __init__(self, pid: str, when: Callable | None, label: str, *, players: Callable, leader: Callable,
                 count: Callable | None, hand: str, won: str, unclaimed: str | None, trump: Callable,
                 follow: bool, must_trump: bool, overtrump: bool, on_trick: Callable | None,
                 after_first: Callable | None, lead_from: LeadFrom | None, allowed: Callable | None,
                 escape: Callable | None, escape_memo: PerCard | None, escape_wins: Callable | None,
                 announcements: list, strength: CardTable | None, card_points: CardTable | None,
                 trump_exempt: Callable | None, trick_locals: frozenset = frozenset()):
        super().__init__(pid, when, label)
        self.players, self.leader, self.count = players, leader, count
        self.hand, self.won, self.unclaimed = hand, won, unclaimed
        self.trump, self.follow, self.must_trump, self.overtrump = trump, follow, must_trump, overtrump
        self.on_trick, self.after_first, self.lead_from = on_trick, after_first, lead_from
        self.allowed, self.escape, self.escape_wins = allowed, escape, escape_wins
        self.escape_memo = escape_memo
        self.trick_locals = trick_locals  # the locals of `on_trick` it may read (its text and its defines)
        self.basic_locals = trick_locals <= BASIC_TRICK_LOCALS  # it reads no local beyond those two
        self.announcements: list[Announcement] = announcements
        # the last trick at which some announcement can be made (None: any trick; 0: there are none)
        bounds = [a.trick_no for a in announcements]
        self.calls_until: int | None = None if None in bounds else max(bounds, default=0)
        self.strength, self.card_points, self.trump_exempt = strength, card_points, trump_exempt
        self.by_suit: dict | None = None  # the deck's cards by suit (suit_cards)
        self.suit_mates: list | None = None  # by card: the cards of its suit, a by_suit set (suit_cards)
        self.play_events: list[list] = []  # by seat, by card: the `play` event, built once (play_event)
        self.trick_events: dict = {}  # by winner, by trick number: the `trick` event, built once (trick_event)
        self.move_lists: dict = {}  # frozenset of cards -> their moves in card order (PlainTricksPhase.listed)
        self.rotations: dict = {}  # tuple of players -> their orders of play by leader (orders_for)
        self.start_events: dict = {}  # (trump, *escape cards) -> the `tricks` event a start logs, built once

    @classmethod
    def compile(cls, spec: dict, cc) -> "TricksPhase":
        trick_local = {"trick_no": ("int", None)}
        win_local = {"winner": ("seat", None), "trick_no": ("int", None), "cards": ("list[card]", None),
                     "players": ("list[seat]", None), "leader": ("seat", None), "last": ("bool", None),
                     "trick_points": ("num", None)}
        said = {"me": ("seat", None), "trick_no": ("int", None)}
        announcements = []
        for i, ann in enumerate(spec.get("announcements") or []):
            path = ("announcements", i)
            when = cc.expr(path + ("when",), "bool", said) if "when" in ann else None
            announcements.append(Announcement(
                str(ann["name"]), str(ann.get("label", ann["name"])), when,
                cc.stmts(path + ("do",), said) if "do" in ann else None,
                cc.expr(path + ("bots",), "num", said) if "bots" in ann else None,
                getattr(when, "requires", {}).get("trick_no"), Move("option", str(ann["name"]))))
        lead_from = None
        if "lead_from" in spec:
            lf = spec["lead_from"]
            lead_from = LeadFrom(
                cc.zone_name(("lead_from", "zone"), per_seat=False),
                cc.expr(("lead_from", "when"), "bool", trick_local),
                cc.expr(("lead_from", "can_win"), "bool") if "can_win" in lf else (lambda st: True),
                cc.expr(("lead_from", "credit"), "seat") if "credit" in lf else (lambda st: None),
                cc.expr(("lead_from", "then"), "seat") if "then" in lf else None,
            )
        plain = not any(key in spec for key in ("escape", "allowed", "trump_exempt")) and not announcements
        kind = PlainTricksPhase if plain and cls is TricksPhase else cls
        return kind(
            spec["id"], cc.when(), spec.get("label", ""),
            players=cc.expr("players", "list[seat]") if "players" in spec else (lambda st: st.active),
            leader=cc.expr("leader", "seat"),
            count=cc.number("tricks", spec["tricks"]) if "tricks" in spec else None,
            hand=cc.zone_name("hand", per_seat=True) if "hand" in spec else cc.default_hand(),
            won=cc.zone_name("won", per_seat=True),
            unclaimed=cc.zone_name("unclaimed", per_seat=False) if "unclaimed" in spec else None,
            trump=cc.expr("trump", "str") if "trump" in spec else (lambda st: None),
            follow=bool(spec.get("follow", True)),
            must_trump=bool(spec.get("must_trump", False)),
            overtrump=bool(spec.get("overtrump", False)),
            on_trick=cc.stmts("on_trick", win_local) if "on_trick" in spec else None,
            after_first=cc.stmts("after_first_card") if "after_first_card" in spec else None,
            lead_from=lead_from,
            allowed=cc.expr("allowed", "bool", {"me": ("seat", None), "card": ("card", None),
                                                "trick_no": ("int", None), "cards": ("list[card]", None)})
            if "allowed" in spec else None,
            escape=cc.expr("escape", "bool", {"card": ("card", None)}) if "escape" in spec else None,
            escape_memo=PerCard.compile(cc, "escape", {"card"}) if "escape" in spec else None,
            escape_wins=cc.expr("escape_wins", "bool", {"card": ("card", None), "leader": ("seat", None),
                                                        "trick_no": ("int", None), "last": ("bool", None)})
            if "escape_wins" in spec else None,
            announcements=announcements,
            strength=CardTable.compile(cc, "strength", "order"),
            card_points=CardTable.compile(cc, "points", "values"),
            trump_exempt=cc.expr("trump_exempt", "bool", {"me": ("seat", None), "winning": ("seat", None)})
            if "trump_exempt" in spec else None,
            trick_locals=frozenset(win_local).intersection(words_in(spec["on_trick"], cc.c.scope.macros))
            if "on_trick" in spec else frozenset(),
        )

    # -- flow -----------------------------------------------------------------------------------------------------
    def start(self, st) -> None:
        players = list(self.players(st))
        trump = self.trump(st)
        escape = self.escape_cards(st)
        st.ph = TrickProgress(players, self.leader(st), trump, self.count(st) if self.count else None, escape,
                              self.strength.values(st, trump) if self.strength else None,
                              self.card_points.values(st, trump) if self.card_points else None,
                              self.orders_for(players))
        key = (trump, *escape)
        event = self.start_events.get(key)
        if event is None:
            if len(self.start_events) >= PER_CARD_MEMO:
                self.start_events.clear()
            event = self.start_events[key] = Event("tricks", None, tuple(escape), trump, phase=self.id)
        st.events.append(event)
        self.begin_trick(st)

    def progress_of(self, values: dict) -> "TrickProgress":
        """The phase's progress read back from a saved state's dict (`Phase.progress_of`)."""
        return TrickProgress.of(values)

    def begin_trick(self, st) -> None:
        ph = st.ph
        ph.trick = trick = []
        ph.by = by = []
        total = ph.total
        if total is not None and ph.no >= total:
            ph.over = True
            return
        players = ph.players
        zones, hands = st.zones, st.zone_ids[self.hand]
        for seat in players:
            if zones[hands[seat]]:
                break
        else:  # no card left to play
            ph.over = True
            return
        leader = ph.leader
        lead_from = self.lead_from
        if lead_from is not None:  # an empty zone leads nothing: its `when` is not asked then
            zone = st.zones[st.zone_ids[lead_from.zone][0]]
            if zone and with_locals(st, {"trick_no": ph.no + 1}, lead_from.when):
                card = zone.pop()
                trick.append(card)
                by.append(ZONE_SEAT)
                st.events.append(Event("lead", None, (card,), lead_from.zone, phase=self.id))
                if lead_from.then is not None:
                    leader = lead_from.then(st)
        order = ph.order
        if not order or order[0] != leader:  # (a leader leading again keeps the order: it never changes in place)
            orders = ph.orders
            order = None if orders is None else orders.get(leader)
            if order is None:
                k = players.index(leader)
                order = players[k:] + players[:k]
                if orders is not None:
                    orders[leader] = order
            ph.order = order
        ph.turn = 0

    def orders_for(self, players: list) -> dict:
        """The orders of play by leader for `players` ({leader: the seats from the leader on}, filled as leaders
        come), shared by every deal with the same players: an order is a list never changed in place."""
        key = tuple(players)
        orders = self.rotations.get(key)
        if orders is None:
            if len(self.rotations) >= ORDERS_MEMO:
                self.rotations.clear()
            orders = self.rotations[key] = {}
        return orders

    def escape_cards(self, st) -> list:
        """The cards the `escape` condition marks, worked out once when the phase starts."""
        escape = self.escape
        if escape is None:
            return []

        def marked(ctx):
            loc = ctx.loc
            out = []
            for c in range(len(st.game.deck)):
                loc["card"] = c
                if escape(ctx):
                    out.append(c)
            return out
        def work() -> list:
            return with_locals(st, {"card": None}, marked)
        return work() if self.escape_memo is None else self.escape_memo.values(st, None, work)

    def led_suit(self, ph, suit_of) -> str | None:
        """The suit to follow: that of the trick's first card that is not an escape card (None: free lead)."""
        esc = ph.escape
        for card in ph.trick:
            if card not in esc:
                return suit_of[card]
        return None

    def hands(self, st) -> tuple:
        """The zone ids of the hands played from, by seat."""
        return st.zone_ids[self.hand]

    def any_cards(self, st) -> bool:
        zones, hands = st.zones, st.zone_ids[self.hand]
        for seat in st.ph.players:
            if zones[hands[seat]]:
                return True
        return False

    def actor(self, st) -> int | None:
        ph = st.ph
        return ph.order[ph.turn]

    def held(self, st) -> list:
        return st.ph.trick

    def done(self, st) -> bool:
        return st.ph.over

    # -- legality ---------------------------------------------------------------------------------------------------
    def legal(self, st) -> list:
        ph = st.ph
        seat = ph.order[ph.turn]
        hand = st.zones[st.zone_ids[self.hand][seat]]
        cards = self.playable(st, hand) if ph.trick else sorted(hand)
        if self.allowed is not None:
            cards = self.permitted(st, seat, cards)
        moves = st.game.card_moves
        calls_until = self.calls_until
        if calls_until is not None and ph.no >= calls_until:
            return list(map(moves.__getitem__, cards))  # (a C loop: no frame for a comprehension)
        return self.offered(st, seat) + [moves[c] for c in cards]

    def permitted(self, st, seat: int, cards: list) -> list:
        """The cards the spec's `allowed` condition lets `seat` play now (all of them if it allows none)."""
        if self.allowed is None:
            return cards
        ph = st.ph
        return with_locals(st, {"me": seat, "trick_no": ph.no + 1, "cards": list(ph.trick), "card": None},
                           kept_where(cards, "card", self.allowed)) or cards

    def offered(self, st, seat: int) -> list:
        """The announcements `seat` may make now, before its card."""
        ph = st.ph
        trick_no = ph.no + 1
        said = ph.said
        candidates = [a for a in self.announcements
                      if (a.trick_no is None or a.trick_no == trick_no) and a.name not in said]
        if not candidates:
            return []

        def made(ctx) -> list:
            return [a.move for a in candidates if a.when is None or a.when(ctx)]
        return with_locals(st, {"me": seat, "trick_no": trick_no}, made)

    def playable(self, st, hand: list) -> list:
        """The cards of `hand` the follow / trump / overtrump rules allow, in card order (escape cards always)."""
        ph = st.ph
        trick = ph.trick
        if not trick or not self.follow:
            return sorted(hand)
        deck = st.game.deck
        suit_of = deck.suit_of
        esc = ph.escape
        free = None  # the escape cards in hand, played freely; the rules bind the rest
        if esc:
            for card in trick:
                if card not in esc:
                    led = suit_of[card]
                    break
            else:  # only escape cards so far: a free lead
                return sorted(hand)
            for card in esc:
                if card in hand:
                    free = [c for c in esc if c in hand]
                    hand = [c for c in hand if c not in esc]
                    break
        else:
            led = suit_of[trick[0]]
        by_suit = self.by_suit or self.suit_cards(deck)
        same = by_suit[led].intersection(hand)
        trump = ph.trump
        if same:
            cards = self.over_trumped(st, same) if led == trump else same
        elif self.must_trump and trump is not None and \
                (trumps := by_suit.get(trump, NO_CARDS).intersection(hand)) and \
                not (self.trump_exempt is not None and self.exempt(st)):
            cards = self.over_trumped(st, trumps)
        else:
            cards = hand
        return sorted(cards) if free is None else sorted(free + list(cards))

    def suit_cards(self, deck) -> dict:
        """The deck's cards by suit, as sets, and by card the set of its suit (`suit_mates`): worked out at the
        first follow, then kept (the deck never changes)."""
        by_suit: dict = {}
        for card, suit in enumerate(deck.suit_of):
            by_suit.setdefault(suit, set()).add(card)
        self.by_suit = {suit: frozenset(cards) for suit, cards in by_suit.items()}
        self.suit_mates = [self.by_suit[suit] for suit in deck.suit_of]
        return self.by_suit

    def mates_table(self, deck) -> list:
        """`suit_mates`, worked out with `suit_cards`."""
        self.suit_cards(deck)
        return self.suit_mates or []

    def exempt(self, st) -> bool:
        """Whether `trump_exempt` frees the player to move (void in the led suit) from trumping."""
        if self.trump_exempt is None:
            return False
        ph = st.ph
        return bool(with_locals(st, {"me": ph.order[ph.turn], "winning": self.winner(st)}, self.trump_exempt))

    def over_trumped(self, st, trumps: frozenset) -> frozenset | list:
        """The `trumps` (a player's) that may be played on the trick: with `overtrump`, those above the best trump
        in it if there are any (in any order)."""
        if not self.overtrump:
            return trumps
        ph = st.ph
        suit_of, rank_of = st.game.deck.suit_of, ph.strength or st.game.deck.rank_of
        trump, esc = ph.trump, ph.escape
        best = None
        for c in ph.trick:
            if suit_of[c] == trump and c not in esc:
                rank = rank_of[c]
                if best is None or rank > best:
                    best = rank
        if best is None:
            best = -1
        return [c for c in trumps if rank_of[c] > best] or trumps

    # -- applying ---------------------------------------------------------------------------------------------------
    def apply(self, st, move: Move) -> bool:
        """Play the card (or make the announcement) of `move`; whether the phase is now done."""
        return self.play(st, move, [])  # (its log entry goes to a list nobody keeps: the caller logs moves)

    def play(self, st, move: Move, history: list) -> bool:
        """`Phase.play` in one body: log the move in `history`, then play the card (or make the announcement) of
        `move`; whether the phase is now done."""
        ph = st.ph
        order, turn = ph.order, ph.turn
        seat = order[turn]
        if self.announcements:  # the move may be one, and a card clears those said before it
            if move.kind == "option":
                history.append([st.deal_no, seat, self.notation(st, move)])
                self.announce(st, seat, move.value)
                return False
            if ph.said:
                ph.said = []
        card = move.value
        history.append([st.deal_no, seat, st.game.deck.codes[card]])  # (a card's notation: its code, as `notation`)
        st.zones[st.zone_ids[self.hand][seat]].remove(card)
        ph.trick.append(card)
        ph.by.append(seat)
        try:
            event = self.play_events[seat][card]
        except IndexError:  # the seat's first card with this phase: its row is built
            event = self.play_event(len(st.game.deck), seat, card)
        st.events.append(event)
        if ph.first:
            ph.first = False
            if self.after_first is not None:
                self.after_first(st)
        turn += 1
        ph.turn = turn
        if turn == len(order):
            self.end_trick(st)
            return ph.over
        return False

    def play_event(self, deck_size: int, seat: int, card: int) -> Event:
        """The event of `seat` playing `card`, from a table built with the seat's first card and then shared by every
        deal (an event is never changed once logged): a card played allocates no record."""
        rows = self.play_events
        while len(rows) <= seat:
            rows.append([Event("play", len(rows), (c,), None, None, self.id) for c in range(deck_size)])
        return rows[seat][card]

    def trick_event(self, winner: int | None, no: int) -> Event:
        """The event of trick `no` won by `winner` (None: nobody), built the first time and then shared by every
        deal, as `play_event`'s are."""
        row = self.trick_events.setdefault(winner, [])
        while len(row) <= no:
            row.append(Event("trick", winner, (), len(row), None, self.id))
        return row[no]

    def announce(self, st, seat: int, name: str) -> None:
        do = next(a.do for a in self.announcements if a.name == name)
        st.ph.said.append(name)
        st.events.append(Event("call", seat, value=name, phase=self.id))
        if do is not None:
            with_locals(st, {"me": seat, "trick_no": st.ph.no + 1}, do)

    def bot_score(self, st, seat: int, name: str):
        """How much the heuristic bot likes making an announcement (its `bots` expression; 0 without one)."""
        fn = next(a.bots for a in self.announcements if a.name == name)
        return 0 if fn is None else with_locals(st, {"me": seat, "trick_no": st.ph.no + 1}, fn)

    def end_trick(self, st) -> None:
        ph = st.ph
        winner = self.winner(st)
        no = ph.no = ph.no + 1
        trick = ph.trick
        lead_from = self.lead_from
        then = lead_from.then if lead_from is not None and ph.by[0] == ZONE_SEAT else None  # led from a zone
        if winner is not None:
            target = st.zones[st.zone_ids[self.won][winner]]
        elif self.unclaimed:
            target = st.zones[st.zone_ids[self.unclaimed][0]]
        else:
            target = st.zones[st.zone_ids[self.won][ph.order[0]]]
        target.extend(trick)
        try:
            event = self.trick_events[winner][no]
        except (KeyError, IndexError):
            event = self.trick_event(winner, no)
        st.events.append(event)
        on_trick = self.on_trick
        if on_trick is not None and winner is not None:
            loc = st.loc
            if loc:  # something is bound already: bind beside it and restore it afterwards
                with_locals(st, self.trick_values(st, winner), on_trick)
            else:  # the common case: bind the locals straight into the empty mapping, then clear it
                try:
                    if self.basic_locals:
                        loc["winner"], loc["trick_no"] = winner, no
                    else:
                        self.bind_trick_values(loc, st, winner)
                    on_trick(st)
                finally:
                    loc.clear()
        if then is not None:  # after a trick led from a zone, its `then` plays first
            ph.leader = then(st)
        elif winner is not None:
            ph.leader = winner
        self.begin_trick(st)

    def trick_values(self, st, winner: int) -> dict:
        """The locals `on_trick` sees for the trick just finished: those its text (and its defines) may read."""
        values: dict = {}
        self.bind_trick_values(values, st, winner)
        return values

    def bind_trick_values(self, values: dict, st, winner: int) -> None:
        """Put the `trick_values` into `values`."""
        ph = st.ph
        no = ph.no
        values["winner"], values["trick_no"] = winner, no
        if self.basic_locals:
            return
        need = self.trick_locals
        trick, by = ph.trick, ph.by
        if "players" in need or "leader" in need:
            players = list(by) if by[0] != ZONE_SEAT else [None] + by[1:]  # a zone's card can only lead
            values["players"], values["leader"] = players, players[0]
        if "cards" in need:
            values["cards"] = list(trick)
        if "last" in need:
            total = ph.total
            values["last"] = (total is not None and no >= total) or not self.any_cards(st)
        if "trick_points" in need:
            points = ph.points or st.game.deck.points
            values["trick_points"] = sum(points[c] for c in trick)

    def winner(self, st) -> int | None:
        """The seat credited with the finished trick (None: nobody)."""
        ph = st.ph
        trick, by, esc = ph.trick, ph.by, ph.escape
        card = trick[0]
        if by[0] == ZONE_SEAT or (esc and card in esc):
            return self.rare_winner(st)
        # the common case, a player's card leads: the best card of the suit led or, once trumped, the best trump
        deck = st.game.deck
        suit_of, rank_of, trump = deck.suit_of, ph.strength or deck.rank_of, ph.trump
        best, best_suit, best_rank = 0, suit_of[card], rank_of[card]
        i = 0
        for card in trick:  # (the first card is passed over: it does not beat itself)
            suit = suit_of[card]
            if suit == best_suit:
                rank = rank_of[card]
                if rank > best_rank and not (esc and card in esc):
                    best, best_rank = i, rank
            elif suit == trump and not (esc and card in esc):
                best, best_suit, best_rank = i, suit, rank_of[card]
            i += 1
        return by[best]

    def rare_winner(self, st) -> int | None:
        """`winner` for a trick led by an escape card or from a zone."""
        ph = st.ph
        trick, by, esc = ph.trick, ph.by, ph.escape
        first = by[0]
        lead_from = self.lead_from
        if esc and trick[0] in esc and first != ZONE_SEAT and self.escape_wins is not None \
                and self.led_escape_wins(st):
            return first
        deck = st.game.deck
        suit_of, rank_of = deck.suit_of, ph.strength or deck.rank_of
        led = suit_of[trick[0]] if not esc or trick[0] not in esc else self.led_suit(ph, suit_of)
        trump = ph.trump
        zone_out = first == ZONE_SEAT and not (lead_from is not None and lead_from.can_win(st))
        best, best_rank, trumped = None, None, False  # the seat winning so far, its card's rank, a trump's?
        for card, seat in zip(trick, by):
            if (zone_out and seat == ZONE_SEAT) or (esc and card in esc):
                continue
            suit = suit_of[card]
            if suit == trump:
                rank = rank_of[card]
                if not trumped or rank > best_rank:
                    best, best_rank, trumped = seat, rank, True
            elif suit == led and not trumped:
                rank = rank_of[card]
                if best_rank is None or rank > best_rank:
                    best, best_rank = seat, rank
        if best is None or best == ZONE_SEAT:
            return lead_from.credit(st) if first == ZONE_SEAT and lead_from is not None else first
        return best

    def led_escape_wins(self, st) -> bool:
        """Whether the escape card leading the trick in play wins it (the spec's `escape_wins`)."""
        if self.escape_wins is None:
            return False
        ph = st.ph
        return bool(with_locals(st, {"card": ph.trick[0], "leader": ph.by[0], "trick_no": ph.no + 1,
                                     "last": self.last_trick(st)}, self.escape_wins))

    def last_trick(self, st) -> bool:
        """Whether the trick in play is the phase's last: the count reached, or no hand holds a card beyond it."""
        ph = st.ph
        if ph.total is not None and ph.no + 1 >= ph.total:
            return True
        zones, hands = st.zones, self.hands(st)
        played = set(ph.by)
        return all(len(zones[hands[s]]) <= (s not in played) for s in ph.players)

    def best_so_far(self, st, extra: int | None = None, seat: int | None = None) -> int | None:
        """The seat currently winning the trick (with `extra` played by `seat`, if given); None if nobody."""
        ph = st.ph
        if not ph.trick and extra is None:
            return None
        saved = ph.trick, ph.by
        if extra is not None:
            ph.trick, ph.by = ph.trick + [extra], ph.by + [seat]
        try:
            return self.winner(st)
        finally:
            ph.trick, ph.by = saved

    def explain(self, st, text: str) -> str:
        game = st.game
        card = game.deck.index.get(text.strip().upper())
        if card is None:
            return f"'{text}' is not a card: write rank then suit, e.g. 10H or QS"
        ph = st.ph
        seat = ph.order[ph.turn]
        hand = st.zones[st.zone_ids[self.hand][seat]]
        if card not in hand:
            return f"{game.deck.pretty(card)} is not in the hand you are playing"
        if card in self.playable(st, hand):  # the follow rules allow it, the spec's `allowed` does not
            return f"{game.deck.pretty(card)} may not be played now"
        suit_of = game.deck.suit_of
        led = self.led_suit(ph, suit_of)
        if any(suit_of[c] == led for c in hand):
            if self.overtrump and led == ph.trump:
                return "you must follow suit and beat the highest trump if you can"
            return f"you must follow suit ({game.suit_label(led)})"
        if self.overtrump:
            return "you must trump, and beat the highest trump if you can"
        return f"you have no {game.suit_label(led)}, so you must trump ({game.suit_label(ph.trump)})"

    def describe(self, st, move: Move) -> str:
        if move.kind == "option":
            return next(a.label for a in self.announcements if a.name == move.value)
        return super().describe(st, move)

    def prompt(self, st) -> str:
        ph = st.ph
        trump = f" (trumps: {st.game.suit_label(ph.trump)})" if ph.trump is not None else " (no trumps)"
        if not ph.trick:
            return f"trick {ph.no + 1}{trump}: your lead"
        return f"trick {ph.no + 1}{trump}: your card"


class PlainTricksPhase(TricksPhase):
    """A `tricks` phase with no `escape`, `allowed`, `trump_exempt` or `announcements` (the choice is made when it
    compiles): its legal moves take a lean path with no checks for those, the rules of `playable` inlined. The
    tests compare it with the rules written out plainly at every card of seeded deals."""

    __slots__ = ()

    def legal(self, st) -> list:
        ph = st.ph
        trick = ph.trick
        hand = st.zones[st.zone_ids[self.hand][ph.order[ph.turn]]]
        if trick and self.follow:
            same = (self.suit_mates or self.mates_table(st.game.deck))[trick[0]].intersection(hand)
            if same:
                if self.overtrump and st.game.deck.suit_of[trick[0]] == ph.trump:
                    return self.listed(st, self.over_trumped(st, same))
                known = self.move_lists.get(same)  # (`listed`, its common case inlined)
                return list(known) if known is not None else self.listed(st, same)
            trump = ph.trump
            if self.must_trump and trump is not None:
                trumps = (self.by_suit or self.suit_cards(st.game.deck)).get(trump, NO_CARDS).intersection(hand)
                if trumps:
                    return self.listed(st, self.over_trumped(st, trumps))
        return list(map(st.game.card_moves.__getitem__, sorted(hand)))

    def listed(self, st, cards) -> list:
        """The moves playing `cards` (a set of them, or a list), in card order: for a set, remembered (a player
        following suit holds one of a few subsets of the suit, so the same sets come again and again)."""
        if type(cards) is not frozenset:
            moves = st.game.card_moves
            return [moves[c] for c in sorted(cards)]
        known = self.move_lists.get(cards)
        if known is None:
            if len(self.move_lists) >= MOVE_LIST_MEMO:
                self.move_lists.clear()
            moves = st.game.card_moves
            known = self.move_lists[cards] = tuple([moves[c] for c in sorted(cards)])
        return list(known)

    def winner(self, st) -> int | None:
        """`TricksPhase.winner` with no escape card to pass over."""
        ph = st.ph
        trick, by = ph.trick, ph.by
        if by[0] == ZONE_SEAT:
            return self.rare_winner(st)
        deck = st.game.deck
        suit_of, rank_of, trump = deck.suit_of, ph.strength or deck.rank_of, ph.trump
        card = trick[0]
        best, best_suit, best_rank = 0, suit_of[card], rank_of[card]
        i = 0
        for card in trick:  # (the first card is passed over: it does not beat itself)
            suit = suit_of[card]
            if suit == best_suit:
                rank = rank_of[card]
                if rank > best_rank:
                    best, best_rank = i, rank
            elif suit == trump:
                best, best_suit, best_rank = i, suit, rank_of[card]
            i += 1
        return by[best]
