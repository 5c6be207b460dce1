"""The compiled, immutable Game: deck tables, zones, vars, the bid ladder, phases, the score sheet, bots.

Built by `interp.spec.compiler.compile_spec`; played through the functions of `interp.engine.match`.
"""
from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from interp.dsl.runtime import Stretch
from interp.engine import chance
from interp.engine.cards import Deck
from interp.engine.facts import NO_LIMITS, FactLimits
from interp.engine.phases.base import Phase
from interp.engine.state import Event, Move, State

SHARED_STARTS = 16  # deal numbers up to which a deal's "deal-start" event is made once per dealer (deal_starts)


@dataclass(frozen=True, eq=False)
class Bid:
    """An entry of the bid ladder; bids compare by their place on the ladder (each comparison written out: they
    run in the hot path of auctions and contract choices)."""

    index: int
    name: str
    label: str
    fields: dict = field(hash=False, compare=False)

    def __eq__(self, other):
        return isinstance(other, Bid) and other.index == self.index

    def __lt__(self, other):
        return self.index < other.index

    def __le__(self, other):
        return self.index <= other.index

    def __gt__(self, other):
        return self.index > other.index

    def __ge__(self, other):
        return self.index >= other.index

    def __hash__(self):
        return hash(self.index)

    def __repr__(self):
        return f"Bid({self.name})"


class PerCount(dict):
    """{player count: `make(n)`}, each made when first asked for; after that a look-up is a plain dict's.

    >>> tables = PerCount(lambda n: list(range(n)))
    >>> tables[3], len(tables)
    ([0, 1, 2], 1)
    """

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, n: int) -> Any:
        value = self[n] = self.make(n)
        return value


def seat_orders(n: int) -> tuple:
    """The `n` seats in turn from the dealer's next seat round to the dealer, for each dealer.

    >>> seat_orders(3)
    ((1, 2, 0), (2, 0, 1), (0, 1, 2))
    """
    return tuple(tuple((dealer + k) % n for k in range(1, n + 1)) for dealer in range(n))


@dataclass
class ZoneDecl:
    name: str
    per_seat: bool
    visible: str  # owner | all | none | top (everyone sees the top card, or the cards `shown` lists)
    label: str = ""
    shown: Callable | None = None  # for `top` zones: a DSL list of the zone's cards everyone sees


@dataclass
class VarDecl:
    name: str
    type: str
    per_seat: bool = False
    values: frozenset | None = None
    default: Any = None
    scope: str = "deal"  # deal | match
    visible: str = "all"  # all | owner (per-seat: each seat sees its own) | none (no view shows it)


@dataclass
class ColumnDecl:
    """A score-sheet column: one number per seat, or per ordered pair of seats."""

    name: str
    per: str  # seat | pair
    label: str = ""
    cap: Callable | None = None
    overflow_to: Callable | None = None
    overflow_do: Callable | None = None
    overflow_else: Callable | None = None


@dataclass
class FactDecl:
    """A fact of a deal that scoring reads; the score keeper asks for it, the engine derives it in play."""

    name: str
    ask: str
    when: Callable | None
    seats: Callable | None  # for per-seat facts: whose values are asked
    limits: FactLimits = NO_LIMITS  # min/max and check rules (interp/engine/facts.py)


@dataclass(frozen=True)
class DisplayItem:
    """One entry of `display.status`, `display.result` or `display.running`: a label and its compiled value,
    shown when `when` (if any) holds; a running count is shown for every seat (`visible: all`) or only for the
    viewer (`owner`)."""

    label: str
    value: Callable
    type: str
    when: Callable | None = None
    visible: str = "all"


@dataclass
class Game:
    path: str
    name: str
    players: tuple
    default_players: int
    options: dict
    deck: Deck
    zones: list
    vars: dict
    bids: list
    columns: dict
    phases: list
    scoring: Callable | None
    facts: list
    match_end: Callable | None
    result: Callable | None
    result_label: str
    sit_out: Callable | None
    first_dealer: Any
    seat_names: list
    bots: dict
    defines: dict
    scope: Any = None
    description: str = ""
    stats: dict = field(default_factory=dict)
    gotos: dict = field(default_factory=dict)  # phase id -> (index of the target phase, condition)
    stretch: Stretch = field(default_factory=Stretch)  # shared by the phases' `when` conditions (engine.advance)
    zero_sum: bool = False
    value_range: tuple | None = None  # match.value_range: (least, most) a deal can be worth to a seat, if declared
    standing: Callable | None = None  # match.standing: a seat's exact standing; a deal's value is its change
    standing_source: str = ""  # the text of match.standing, else of match.result (none: the first column)
    end_now: Callable | None = None  # checked before each phase starts: the match ends mid-deal
    agreed_end: Callable | None = None  # statements run when the players agree to stop the match early
    next_dealer: Callable | None = None  # who deals the next deal (a seat; none or no rule: the dealer's left)
    status: list = field(default_factory=list)  # DisplayItems shown on the status line
    breakdown: list = field(default_factory=list)  # DisplayItems: `display.result`, after each deal
    running: list = field(default_factory=list)  # DisplayItems: `display.running`, per-seat counts during a deal
    bids_by_name: dict = field(default_factory=dict)
    card_moves: list = field(default_factory=list)  # Move("card", c) by card: built once, never per move
    bid_moves: list = field(default_factory=list)  # Move("bid", i) by rung of the ladder
    card_order: tuple = ()  # every card, in deck order
    _zone_base: dict = field(default_factory=dict)  # player count -> {zone name: first id} (a PerCount)
    _bases: Callable[[int], dict] = field(init=False, repr=False, compare=False)  # its look-up: _zone_base[n]
    _zone_owner: dict = field(default_factory=dict)  # player count -> [(declaration, seat or None) by zone id]
    _zone_table: dict = field(default_factory=dict)  # player count -> {zone name: ids by seat}
    _zone_seers: dict = field(default_factory=dict)  # player count -> ((zone id, seers, top)) (zone_seers)
    _blank_sheets: dict = field(default_factory=dict)  # player count -> the sheet of a new match (blank_sheet)
    new_sheets: dict = field(default_factory=dict)  # player count -> a function making a new match's own blank
    #                                                 sheet (a PerCount: `sheet_maker`)
    _var_starts: dict = field(default_factory=dict)  # scope -> (its vars' defaults, those per seat) (var_starts)
    blank_state: dict = field(default_factory=dict)  # player count -> ((0, 1, …, n - 1), the number of zones,
    #                                                  zone_table(n)): what a new State is made of (a PerCount)
    deal_starts: dict = field(default_factory=dict)  # dealer -> the "deal-start" events of deals 0 to
    #                                                  SHARED_STARTS - 1 by number (a PerCount; events never change)
    deal_logged: dict = field(default_factory=dict)  # dealer -> the "deal" event a deal phase logs (a PerCount)
    seat_orders: dict = field(default_factory=dict)  # player count -> the seats from the dealer's next round to
    #                                                  the dealer, by dealer (a PerCount: seat_orders[4][3])
    _from_sheet: list = field(default_factory=list)  # [whether the standings read only the sheet], once known
    standing_memo: dict = field(default_factory=dict)  # (players, options, sheet) -> standings, when they may
    option_defaults: dict = field(default_factory=dict)  # {option name: its default} (copied for a new match)
    plain_notation: tuple = ()  # by phase: whether its notation is the base one (a card by its code)
    private_vars: tuple = ()  # VarDecls a view does not show as they are: `visible: none`, per-seat `owner`
    reload: tuple | None = None  # (function, arguments) that load this game again in another process: set by
    #                              the spec layer's load_game; a pickled game (or state) is this, never the code
    pair_columns: frozenset = frozenset()  # the names of the sheet's columns kept per pair of seats

    def __post_init__(self):
        self.bids_by_name = {b.name: b for b in self.bids}
        self._per_seat = {z.name: z.per_seat for z in self.zones}
        self.card_moves = [Move("card", c) for c in range(len(self.deck))]
        self.card_order = tuple(range(len(self.deck)))  # the cards in deck order (a deal shuffles a copy)
        self._zone_base = PerCount(self._zone_bases)
        self.blank_state = PerCount(lambda n: (tuple(range(n)), self.zone_count(n), self.zone_table(n)))
        self.deal_starts = PerCount(lambda dealer: tuple(Event("deal-start", dealer, (), no)
                                                         for no in range(SHARED_STARTS)))
        self.deal_logged = PerCount(lambda dealer: Event("deal", dealer))
        self.seat_orders = PerCount(seat_orders)
        self._blank_sheets = PerCount(self._blank_sheet)
        self.new_sheets = PerCount(self.sheet_maker)
        self._bases = self._zone_base.__getitem__  # a dict's own look-up: no Python call on each use of a zone
        self.bid_moves = [Move("bid", b.index) for b in self.bids]
        self.option_defaults = {name: decl["default"] for name, decl in self.options.items()}
        self.plain_notation = tuple(type(p).notation is Phase.notation for p in self.phases)
        self.private_vars = tuple(d for d in self.vars.values()
                                  if d.visible == "none" or d.visible == "owner" and d.per_seat)
        self.pair_columns = frozenset(c.name for c in self.columns.values() if c.per == "pair")

    def __reduce__(self) -> tuple:
        """A game pickles as the way to load it again (`reload`): its compiled code is closures, which do not.

        >>> import pickle
        >>> from interp.spec.compiler import load_game
        >>> pickle.loads(pickle.dumps(load_game("docs/examples/tiny.yaml"))).name
        'Tiny Tricks'
        """
        if self.reload is None:
            raise pickle.PicklingError(f"{self.name}: only a game loaded from its file pickles (load_game)")
        return self.reload

    def __copy__(self) -> "Game":
        """A shallow copy (the same compiled parts), not the reload that pickling makes."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        return twin

    def var_starts(self, scope: str) -> tuple:
        """The vars that start afresh with each `scope` ("deal" or "match"; "new": every var, as a new match has
        them at its first deal, the match's first): ({name: default} in the order they are declared, ((name,
        default) of those held per seat, whose value is then the default for every seat)). Worked out once."""
        starts = self._var_starts.get(scope)
        if starts is None:
            decls = [d for d in self.vars.values() if d.scope == scope] if scope != "new" else \
                [d for d in self.vars.values() if d.scope == "match"] + \
                [d for d in self.vars.values() if d.scope == "deal"]
            starts = self._var_starts[scope] = ({d.name: d.default for d in decls},
                                                tuple((d.name, d.default) for d in decls if d.per_seat))
        return starts

    def blank_sheet(self, n: int) -> dict:
        """The score sheet of a new match of `n` players: every column at 0, per seat (or per ordered pair of
        seats). Shared and never written to: a match plays on a copy (`copy_sheet`)."""
        return self._blank_sheets[n]

    def _blank_sheet(self, n: int) -> dict:
        return {c.name: [[0] * n for _ in range(n)] if c.per == "pair" else [0] * n for c in self.columns.values()}

    def sheet_maker(self, n: int) -> Callable[[], dict]:
        """A function making a new blank sheet of `n` players, equal to `blank_sheet(n)` and sharing nothing with
        it or another: the sheet written out as one display of new lists (no copying loop: a sheet for each new
        match). Made once per player count (`new_sheets`).

        >>> from interp.spec.compiler import load_game
        >>> game = load_game("docs/examples/tiny.yaml")
        >>> make = game.sheet_maker(3)
        >>> make() == game.blank_sheet(3) and make() is not make()
        True
        """
        row = "[" + ", ".join(["0"] * n) + "]"
        pairs = "[" + ", ".join([row] * n) + "]"
        names = list(self.blank_sheet(n))  # read as the maker's globals k0, k1 … (a name is never code)
        columns = ", ".join(f"k{i}: {pairs if name in self.pair_columns else row}" for i, name in enumerate(names))
        namespace: dict = {f"k{i}": name for i, name in enumerate(names)}
        exec(f"def new_sheet():\n    return {{{columns}}}", namespace)
        return namespace["new_sheet"]

    def copy_sheet(self, sheet: dict) -> dict:
        """A copy of a score sheet of this game that shares no column or row with it (a loop: no comprehension's
        function made and called, at each deal's end and each new match)."""
        pairs = self.pair_columns
        out = {}
        for name, col in sheet.items():
            out[name] = list(map(list, col)) if name in pairs else col[:]
        return out

    # -- zones ------------------------------------------------------------------------------------------------------
    def _zone_bases(self, n: int) -> dict:
        """{zone name: its first id in `state.zones`} for `n` players; None: the number of zones (made once per
        player count, with the zones' owners: read them through `_bases`)."""
        bases, nxt = {}, 0
        for z in self.zones:
            bases[z.name] = nxt
            nxt += n if z.per_seat else 1
        bases[None] = nxt
        self._zone_owner[n] = [(z, s if z.per_seat else None) for z in self.zones
                               for s in range(n if z.per_seat else 1)]
        return bases

    def zone_count(self, n: int) -> int:
        return self._bases(n)[None]

    def zone_id(self, name: str, seat: int | None, n: int) -> int:
        """The index in `state.zones` of a zone (of `seat`, for per-seat zones)."""
        base = self._bases(n)[name]
        return base + seat if seat is not None and self._per_seat[name] else base

    def zone_table(self, n: int) -> dict:
        """{zone name: its ids in `state.zones` by seat} for `n` players, worked out once per player count (a shared
        zone has the same id for every seat): `zone_table(3)["hand"][1]` is seat 1's hand."""
        table = self._zone_table.get(n)
        if table is None:
            bases = self._bases(n)
            table = self._zone_table[n] = {z.name: tuple(bases[z.name] + (s if z.per_seat else 0) for s in range(n))
                                           for z in self.zones}
        return table

    def zone_decl(self, name: str) -> ZoneDecl:
        return next(z for z in self.zones if z.name == name)

    def zone_of(self, zid: int, n: int) -> tuple:
        """(declaration, seat or None) of a zone id."""
        self._bases(n)
        owners = self._zone_owner[n]
        if not 0 <= zid < len(owners):
            raise KeyError(zid)
        return owners[zid]

    def zone_name(self, zid: int, n: int) -> str:
        z, seat = self.zone_of(zid, n)
        return z.name if seat is None else f"{z.name}[{seat}]"

    def zone_label(self, zid: int, n: int) -> str:
        z, seat = self.zone_of(zid, n)
        label = z.label or z.name
        return label if seat is None else f"{self.seat_name(seat, n)}'s {label}"

    def zone_visible(self, st: State, zid: int, seat: int) -> bool:
        if zid in st.revealed or (st.shown and (zid, seat) in st.shown):
            return True
        z, owner = self._zone_owner[st.n][zid]
        if z.visible == "all":
            return True
        if z.visible == "owner" and owner is not None:
            return owner == seat or st.controller[owner] == seat
        return False

    def zone_seers(self, n: int) -> tuple:
        """((zone id, seers, top) of each zone some seat may see) for `n` players while nothing is revealed or shown
        and every seat controls itself, as `zone_visible` has it then: `seers` is None when every seat sees the
        zone, else the tuple of seats that do (its owner, or none); `top` whether everyone sees some of its cards
        (`zone_shown`). A zone no seat sees is left out. Worked out once per player count."""
        table = self._zone_seers.get(n)
        if table is None:
            self._bases(n)
            rows = []
            for zid, (z, owner) in enumerate(self._zone_owner[n]):
                seers = tuple(range(n)) if z.visible == "all" else \
                    (owner,) if z.visible == "owner" and owner is not None else ()
                if seers or z.visible == "top":
                    rows.append((zid, None if len(seers) == n else seers, z.visible == "top"))
            table = self._zone_seers[n] = tuple(rows)
        return table

    def zone_shown(self, st: State, zid: int) -> list:
        """The cards of a not fully visible zone that every seat sees (in zone order): a `top` zone's top card,
        or the cards its `shown` expression lists; none for other zones."""
        z, _ = self.zone_of(zid, st.n)
        cards = st.zones[zid]
        if z.visible != "top" or not cards:
            return []
        if z.shown is None:
            return cards[-1:]
        keep = set(z.shown(st))
        return [c for c in cards if c in keep]

    def standing_from_sheet(self) -> bool:
        """Whether a seat's standing (`match.standing`, else `match.result`, else the first column) reads nothing
        but the score sheet, the options and the player count (see `interp.dsl.reads`): worked out once."""
        if not self._from_sheet:
            from interp.dsl.reads import from_sheet_only
            self._from_sheet.append(not self.standing_source or from_sheet_only(self.standing_source, self))
        return self._from_sheet[0]

    # -- names and text ---------------------------------------------------------------------------------------------
    def seat_name(self, seat: int | None, n: int) -> str:
        if seat is None:
            return "nobody"
        return self.seat_names[seat] if seat < len(self.seat_names) else f"P{seat + 1}"

    def suit_label(self, suit: str | None) -> str:
        if suit is None:
            return "no trump"
        return self.deck.symbols.get(suit) or self.deck.suit_names.get(suit, suit)

    def value_text(self, value: Any, st: State, pretty: bool = False) -> str:
        """A value whose type is not known here: bids by name (or label), others as written."""
        if isinstance(value, Bid):
            return value.label if pretty else value.name
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        return str(value)

    def value_code(self, value: Any, type_: str, n: int) -> str:
        """How a player types a DSL value: bids and seats by name, cards by code."""
        if isinstance(value, Bid):
            return value.name
        if type_ == "seat":
            return self.seat_name(value, n)
        if type_ == "card":
            return self.deck.code(value)
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        return str(value)

    def show(self, value: Any, type_: str, n: int) -> str | None:
        """A DSL value of a known type as players write it; None for nothing to show."""
        if value is None or value == [] or value == "none":
            return None
        if type_ == "seat":
            return self.seat_name(value, n)
        if type_ == "list[seat]":
            return ", ".join(self.seat_name(s, n) for s in value)
        if type_ == "card":
            return self.deck.pretty(value)
        if isinstance(value, Bid):
            return value.label
        if isinstance(value, bool):
            return "yes" if value else None
        if isinstance(value, str) and value in self.deck.suits:
            return self.suit_label(value)
        if isinstance(value, Fraction):
            return f"{float(value):g}"
        return str(value)

    def status_line(self, st: State) -> str:
        """The spec's `display.status` values, e.g. `contract 6♠ · declarer West`."""
        return " · ".join(f"{label} {shown}" for label, shown in self.labelled(st, self.status))

    def result_lines(self, st: State) -> list:
        """The spec's `display.result` breakdown of a deal just scored, e.g. `target: 41`."""
        return [f"{label}: {shown}" for label, shown in self.labelled(st, self.breakdown)]

    def running_lines(self, view: State) -> list:
        """The spec's `display.running` counts as the viewer may see them, e.g. `count: Elder 19, Younger 12`:
        worked out on the view (so hidden cards and others' private vars are not read), and only the viewer's
        own value for an item with `visible: owner`."""
        lines = []
        for item in self.running:
            values = self._value(view, item)
            if values is None or len(values) != view.n or not any(values):
                continue  # nothing counted yet
            seats = [view.viewer] if item.visible == "owner" else view.active
            shown = ", ".join(f"{self.seat_name(s, view.n)} {self.show(values[s], 'num', view.n) or 0}"
                              for s in seats if s is not None)
            if shown:
                lines.append(f"{item.label}: {shown}")
        return lines

    def labelled(self, st: State, items: list) -> list:
        """(label, value as players write it) for each DisplayItem whose value is something: not none, [] or
        false (the text 'none' is something: a status `call: "call[me]"` may say it)."""
        parts = []
        for item in items:
            value = self._value(st, item)
            shown = None if value is None else "none" if value == "none" else self.show(value, item.type, st.n)
            if shown is not None:
                parts.append((item.label, shown))
        return parts

    @staticmethod
    def _value(st: State, item: DisplayItem):
        try:
            if item.when is not None and not item.when(st):
                return None
            return item.value(st)
        except (IndexError, KeyError, TypeError, AttributeError):
            return None  # a value not defined yet in this deal (e.g. before the auction ends)

    def rng(self, st: State, tag: str, kept: bool = True) -> random.Random:
        """The deal's random generator for one purpose: a pure function of (seed, deal number, tag). With
        `kept=False`, for draws made at once (a shuffle), one generator seeded anew for each use
        (`chance.reseeded`): good until the next such call."""
        if st.seed is None:
            raise RuntimeError("a view has no random generator: chance belongs to the full state")
        text = f"{st.seed}/{st.deal_no}/{tag}"
        return chance.seeded(text) if kept else chance.reseeded(text)

    def first_dealer_seat(self, st: State) -> int:
        """The first dealer of a new match: seat 0, or (`first_dealer: random`) drawn from its generator."""
        return chance.below(self.rng(st, "first-dealer", False), st.n) if self.first_dealer == "random" else 0
