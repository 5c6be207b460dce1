"""A `tricks` phase's rules as data (phases.tricks says what each means in a spec): the fields every part of
the phase reads (`TrickRules`), its announcements and `lead_from`, and its progress in `state.ph`
(`TrickProgress`). Who wins a trick is worked out in phases.trick_winner, which cards may be played in
phases.trick_legality; phases.tricks runs the play."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from interp.engine.phases.base import Phase
from interp.engine.phases.card_tables import CardTable, PerCard
from interp.engine.phases.progress import Progress
from interp.engine.phases.trick_calls import value_of
from interp.engine.phases.trick_suits import SuitRule, SuitSets
from interp.engine.state import Move

ZONE_SEAT = -1  # who "played" a card turned up from a zone
NO_CARDS: frozenset = frozenset()
BASIC_TRICK_LOCALS = frozenset({"winner", "trick_no"})  # the locals `on_trick` always gets


class Announcement(NamedTuple):
    """An optional call before a card. `trick_no`: the only trick at which `when` can hold (its condition
    requires `trick_no == N`, found when it compiles), or None: it is checked at every card. With `for:`
    parameters (`params`: (name, list closure, type) each, `domains` their known names), each value makes its own
    move (phases.trick_calls), labelled by the `template` (None: the move's name)."""
    name: str
    label: str
    when: Callable | None
    do: Callable | None
    bots: Callable | None
    trick_no: int | None
    move: Move  # Move("option", name), built once
    params: tuple = ()
    domains: tuple = ()
    template: Any = None


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
              "escape", "said", "strength", "points", "suits", "rules")
    # fields that read as absent while None: a phase without effective suits or varying rules saves (and digests)
    # exactly as before they existed, and a save without them reads back
    OPTIONAL = ("suits", "rules")
    ALWAYS = FIELDS[:-len(OPTIONAL)]
    # beside the fields, not one of them: the orders of play by leader for these players (see `orders_for`), and
    # the tables made from `suits` (`TrickRules.suit_sets`)
    __slots__ = FIELDS + ("orders", "sets")

    def __init__(self, players: list, leader, trump, total, escape: list, strength, points, orders: dict | None,
                 suits: list | None = None):
        self.players, self.leader, self.turn, self.no, self.trump = players, leader, 0, 0, trump
        self.trick: list = []  # the cards of the trick in play, and who played each (`by`)
        self.by: list = []
        self.order: list = []  # the seats in order of play of the trick, `turn` the index of the next
        self.first, self.over, self.total, self.escape = True, False, total, escape
        self.said: list = []
        self.strength, self.points = strength, points
        self.suits = suits  # each card's effective suit (a `suit:` key), or None: its printed suit
        self.rules: list | tuple | None = None  # the trick's (follow, must_trump, overtrump, must_beat) if any varies
        self.orders = orders
        self.sets = None

    @classmethod
    def of(cls, values) -> "TrickProgress":
        """The progress with the fields of `values` (a mapping of every field, e.g. a saved state's dict)."""
        progress = super().of({**dict.fromkeys(cls.OPTIONAL), **values})
        progress.orders = progress.sets = None
        return progress

    def __iter__(self):
        yield from self.ALWAYS
        for name in self.OPTIONAL:
            if getattr(self, name) is not None:
                yield name

    def __len__(self) -> int:
        return len(self.ALWAYS) + sum(getattr(self, name) is not None for name in self.OPTIONAL)

    def copy(self) -> "TrickProgress":
        """An independent copy (its lists copied), as `State.copy` makes of a dict."""
        other = TrickProgress.__new__(TrickProgress)
        other.players, other.leader, other.trick, other.by = list(self.players), self.leader, self.trick[:], self.by[:]
        other.turn, other.order, other.no, other.trump = self.turn, self.order[:], self.no, self.trump
        other.first, other.over, other.total, other.escape = self.first, self.over, self.total, _copied(self.escape)
        other.said, other.strength, other.points = self.said[:], _copied(self.strength), _copied(self.points)
        other.suits, other.rules = _copied(self.suits), self.rules
        other.orders, other.sets = self.orders, self.sets  # shared: never changed in place
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


class TrickRules(Phase):
    """A `tricks` phase's rules as fields (set once, when it compiles) and the caches it fills as it runs; the
    questions about the trick in play that deciding the winner and the legal cards both ask."""

    __slots__ = ("players", "leader", "count", "hand", "won", "unclaimed", "trump", "follow", "must_trump",
                 "overtrump", "on_trick", "after_first", "lead_from", "allowed", "escape", "escape_wins",
                 "announcements", "strength", "card_points", "trump_exempt", "calls_until", "escape_memo",
                 "trick_locals", "basic_locals", "by_suit", "suit_mates", "play_events", "trick_events",
                 "move_lists", "rotations", "start_events", "must_beat", "suit_rule", "varying", "until", "texts",
                 "powers", "allowed_args")

    def __init__(self, pid: str, when: Callable | None, label: str, *, players: Callable, leader: Callable,
                 count: Callable | None, hand: str, won: str, unclaimed: str | None, trump: Callable,
                 follow: bool, must_trump: bool, overtrump: bool, on_trick: Callable | None,
                 after_first: Callable | None, lead_from: LeadFrom | None, allowed: Callable | None,
                 escape: Callable | None, escape_memo: PerCard | None, escape_wins: Callable | None,
                 announcements: list, strength: CardTable | None, card_points: CardTable | None,
                 trump_exempt: Callable | None, trick_locals: frozenset = frozenset(), must_beat: bool = False,
                 suit_rule: SuitRule | None = None, varying: dict | None = None, until: Callable | None = None,
                 texts: dict | None = None, allowed_args: Callable | None = None):
        super().__init__(pid, when, label)
        self.players, self.leader, self.count = players, leader, count
        self.hand, self.won, self.unclaimed = hand, won, unclaimed
        self.trump, self.follow, self.must_trump, self.overtrump = trump, follow, must_trump, overtrump
        self.on_trick, self.after_first, self.lead_from = on_trick, after_first, lead_from
        self.allowed, self.escape, self.escape_wins = allowed, escape, escape_wins
        # `allowed` is the spec's condition as a filter: it lists the cards (in the local compile.ITEMS) it allows;
        # `allowed_args` the same filter taking `me`, `trick_no`, `cards` and the cards as arguments (None: it must
        # read them from ctx.loc, compile_filter_args)
        self.allowed_args = allowed_args
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
        self.must_beat = must_beat
        self.suit_rule = suit_rule  # each card's effective suit, from the trump (None: its printed suit)
        # the follow rules written as expressions, worked out at each trick ({rule name: condition}), and `until`
        self.varying: dict = varying or {}
        self.until = until
        self.texts: dict = texts or {}  # the spec's text of `suit`, `until` and the varying rules, for `interp rules`
        self.powers: dict = {}  # (trump, suit led, *escape cards) -> each card's power in a trick (TrickWinner.power_table)

    def rules(self, ph) -> tuple:
        """The trick's (follow, must_trump, overtrump, must_beat): worked out at its start when one varies."""
        return ph.rules or self.fixed_rules()

    def call_of(self, deck, name: str) -> tuple:
        """The announcement the option `name` makes, and its parameters' values ({} without `for:`)."""
        for a in self.announcements:
            if a.name == name and not a.params:
                return a, {}
            if a.params and name.startswith(a.name + " "):
                words = name[len(a.name) + 1:].split(" ")
                if len(words) == len(a.params):
                    return a, {var: value_of(w, t, deck) for (var, _, t), w in zip(a.params, words)}
        raise KeyError(name)

    def fixed_rules(self) -> tuple:
        """(follow, must_trump, overtrump, must_beat) as written (those written as expressions: false)."""
        return self.follow, self.must_trump, self.overtrump, self.must_beat

    def suits_of(self, st) -> list:
        """Each card's suit in this phase: its effective suit (`suit:`), else its printed one."""
        return st.ph.suits or st.game.deck.suit_of

    def suit_sets(self, st) -> SuitSets | None:
        """The tables made from the effective suits (None without a `suit:` key), made once per phase start."""
        ph = st.ph
        sets = ph.sets
        if sets is None and ph.suits is not None and self.suit_rule is not None:
            deck = st.game.deck
            sets = ph.sets = self.suit_rule.sets(ph.suits, ph.strength or deck.rank_of, deck.suits)
        return sets

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
