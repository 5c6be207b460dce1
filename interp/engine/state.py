"""The mutable, small, serialisable state of a match in progress.

A State is also the DSL's evaluation context: compiled closures read zones, vars and the sheet from it.
`view(seat)` returns a copy in which every card the seat may not see is removed, so agents only ever get views.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from typing import Any


@dataclass(frozen=True)
class Move:
    """One decision: its kind (bid, card, option, …) and value (a card number, a bid index, a name)."""

    kind: str
    value: Any


@dataclass(slots=True, unsafe_hash=True)
class Event:
    """Something that happened in a deal, as data: its `kind`, the `seat` it concerns, the `cards` it names, a
    `value` (a Move for a decision, a number, a name…), its `audience` (None for every seat, else the tuple of
    seats that may see it) and the id of the `phase` that logged it. Text is rendered from the record when
    someone reads it (`interp.engine.events.text`). Never changed once logged (not frozen only because a frozen
    dataclass is three times slower to build, and a playout logs one per card).

    >>> Event("play", 2, (17,)).audience is None
    True
    """

    kind: str
    seat: int | None = None
    cards: tuple = ()
    value: Any = None
    audience: tuple | None = None
    phase: str | None = None


class State:
    """Everything that changes during a match; the Game (rules) lives beside it and never changes."""

    __slots__ = ("game", "n", "options", "seed", "deal_no", "dealer", "active", "zones", "vars", "sheet",
                 "phase", "ph", "history", "events", "revealed", "controller", "loc", "deal_over", "match_over",
                 "viewer", "hidden", "_deals", "unsettled", "stack", "shown", "abandon", "deal_events",
                 "zone_ids", "legal")

    def __init__(self, game, n: int, options: dict, seed: int | None, values: dict | None = None,
                 sheet: dict | None = None, stack: dict | None = None):
        """A match of `game` for `n` players before its first deal, seat 0 dealing; `values` (the vars), `sheet`
        and `stack` (zone id -> cards the first deal places instead of dealing) as a new match starts them
        (default: none yet)."""
        self.game, self.n, self.options, self.seed = game, n, options, seed
        self.vars: dict = {} if values is None else values
        self.sheet: dict = {} if sheet is None else sheet
        self.stack = stack  # zone id -> cards: the next deal places these instead of dealing
        seats, zone_count, self.zone_ids = game.blank_state[n]  # zone_ids: zone name -> its ids by seat
        self.active: list = list(seats)
        self.controller: list = list(seats)
        self.zones: list = list(map(list, repeat((), zone_count)))  # one empty list per zone
        self.history: list = []  # (deal_no, seat, notation)
        self.events: list = []
        self.revealed: set = set()
        self.shown: set = set()  # (zone id, seat): zones shown to one seat only
        self.loc: dict = {}
        self.hidden: dict = {}  # zone id -> number of cards hidden from the viewer
        self._deals: list = []  # one record per finished deal (read it as `deals`)
        # abandon: set by redeal() (the deal ends unscored, the deal passes on); deal_events: the index in
        # `events` of this deal's first event
        self.deal_no, self.dealer, self.phase, self.deal_over, self.match_over, self.abandon, self.deal_events = \
            0, 0, 0, False, False, False, 0
        self.ph: dict | None = None
        self.viewer: int | None = None
        self.unsettled: Any = None  # the last deal record, still to be completed (engine.DealEnd; see `deals`)
        self.legal: tuple | None = None  # the last legal moves listed, with where (engine.legal_moves)

    @property
    def deals(self) -> list:
        """One record per finished deal: its number and dealer, facts, sheet entries, values and (with a
        `display.result`) the breakdown lines. Nobody reads them in a playout, so all but the number and the
        dealer are made here, when the records are first read after the deal's end, from the state as it
        ended: the engine settles them before the state moves on (the next deal, a copy, a view, an agreed
        end)."""
        if self.unsettled:
            self.settle()
        return self._deals

    @deals.setter
    def deals(self, records: list) -> None:
        self._deals = records

    def settle(self) -> None:
        """Complete the last deal record now (the state is still as the deal ended)."""
        self.unsettled.complete(self)
        self.unsettled = None

    # -- copying ------------------------------------------------------------------------------------------------
    def copy(self, events: bool = True) -> "State":
        """A cheap independent copy, for search (`events=False`: with no event log, as views rebuild theirs)."""
        if self.unsettled:
            self.settle()
        other = State.__new__(State)
        # shared as they are: the game, and values never changed in place (ints, strings, the options, the stack)
        other.game, other.n, other.options, other.seed = self.game, self.n, self.options, self.seed
        other.deal_no, other.dealer, other.phase, other.stack = self.deal_no, self.dealer, self.phase, self.stack
        other.deal_over, other.match_over, other.viewer = self.deal_over, self.match_over, self.viewer
        other.unsettled, other.abandon, other.deal_events = None, self.abandon, self.deal_events
        other.zone_ids = self.zone_ids
        # copied: everything play changes in place
        other.active = list(self.active)
        other.zones = list(map(list, self.zones))
        other.vars = {k: (list(v) if isinstance(v, list) else v) for k, v in self.vars.items()}
        other.sheet = {k: _copy_column(v) for k, v in self.sheet.items()}
        ph = self.ph
        if ph is None or type(ph) is not dict:  # a phase's own record of its progress copies itself
            other.ph = None if ph is None else ph.copy()
        else:
            other.ph = {k: (list(v) if isinstance(v, list) else v) for k, v in ph.items()}
        other.history = list(self.history)
        other.events = list(self.events) if events else []
        other.revealed = set(self.revealed)
        other.shown = set(self.shown)
        other.controller = list(self.controller)
        other.loc = {}
        other.hidden = dict(self.hidden)
        other._deals = list(self._deals)
        other.legal = None
        return other

    def view(self, seat: int | None) -> "State":
        """What `seat` may know: its own zones, zones shown to all, zones of hands it controls; no seed.
        `seat` None is the public view (a spectator's): what every seat sees, and only the events told to all."""
        view = self.copy(events=False)
        view.seed = None
        view.history = []  # the move log names hidden moves (discards); a view tells only its events
        view.viewer = seat
        for zid, cards in enumerate(view.zones):
            if cards and not self.game.zone_visible(self, zid, seat):
                shown = self.game.zone_shown(self, zid)  # a partly visible zone keeps only what is seen
                view.hidden[zid] = len(cards) - len(shown)
                view.zones[zid] = shown
        events = self.events[self.deal_events:]
        view.events = [e for e in events if e.audience is None or seat in e.audience]
        view.deal_events = 0  # (event_visible(e, seat), inlined; seat None: the events told to all)
        for decl in self.game.private_vars:
            if decl.visible == "none":
                view.vars[decl.name] = [decl.default] * self.n if decl.per_seat else decl.default
            else:
                view.vars[decl.name] = [v if s == seat else decl.default for s, v in enumerate(view.vars[decl.name])]
        return view

    # -- serialisation --------------------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The whole state as JSON (cards by code); `Game.state_from_json` reads it back."""
        codes = self.game.deck.codes
        data = {
            "spec": self.game.path, "players": self.n, "options": self.options, "seed": self.seed,
            "deal_no": self.deal_no, "dealer": self.dealer, "active": self.active,
            "zones": {self.game.zone_name(z, self.n): [codes[c] for c in cards]
                      for z, cards in enumerate(self.zones) if cards},
            "vars": {k: _encode(v) for k, v in self.vars.items()},
            "sheet": {k: _encode(v) for k, v in self.sheet.items()},
            "phase": self.phase, "ph": _encode(self.ph if self.ph is None else dict(self.ph)), "history": self.history,
            "revealed": sorted(self.revealed), "shown": sorted(self.shown), "controller": self.controller,
            "deal_over": self.deal_over, "match_over": self.match_over,
            "events": [_encode_event(e, codes) for e in self.events], "deal_events": self.deal_events,
        }
        return json.dumps(data)


def state_from_json(game, text: str) -> State:
    """Rebuild a State from `State.to_json()`, event records included."""
    data = json.loads(text)
    st = State(game, data["players"], data["options"], data["seed"])
    st.deal_no, st.dealer, st.active = data["deal_no"], data["dealer"], data["active"]
    for name, codes in data["zones"].items():
        zone, _, seat = name.partition("[")
        zid = game.zone_id(zone, int(seat[:-1]) if seat else None, st.n)
        st.zones[zid] = [game.deck.parse(c) for c in codes]
    bids = game.bids_by_name
    st.vars = {k: decode(v, bids) for k, v in data["vars"].items()}
    st.sheet = {k: decode(v, bids) for k, v in data["sheet"].items()}
    st.phase, st.ph = data["phase"], decode(data["ph"], bids)
    if st.ph is not None and st.phase < len(game.phases):  # a phase may keep its progress in its own record
        st.ph = game.phases[st.phase].progress_of(st.ph)
    st.history = [list(h) for h in data["history"]]
    st.revealed, st.controller = set(data["revealed"]), data["controller"]
    st.shown = {tuple(pair) for pair in data.get("shown", [])}
    st.deal_over, st.match_over = data["deal_over"], data["match_over"]
    st.events = [_decode_event(e, game, bids) for e in data.get("events", [])]
    st.deal_events = data.get("deal_events", 0)
    return st


def _encode_event(event: Event, codes: list) -> dict:
    out = {"kind": event.kind, "seat": event.seat, "cards": [codes[c] for c in event.cards],
           "value": _encode(event.value)}
    if event.audience is not None:
        out["audience"] = list(event.audience)
    if event.phase is not None:
        out["phase"] = event.phase
    return out


def _decode_event(data: dict, game, bids: dict) -> Event:
    audience = data.get("audience")
    return Event(data["kind"], data["seat"], tuple(game.deck.parse(c) for c in data["cards"]),
                 decode(data["value"], bids), None if audience is None else tuple(audience), data.get("phase"))


def event_visible(event: Event, seat: int | None) -> bool:
    """Whether `seat` may see `event` (seat None: an onlooker who sees everything, e.g. a log for the record)."""
    return event.audience is None or seat is None or seat in event.audience


def others(seat: int, n: int) -> tuple:
    """The audience of everyone but `seat` (the masked side of a private move)."""
    return tuple(s for s in range(n) if s != seat)


def tupled(value):
    """`value` with its lists (at any depth) made tuples: hashable, and frozen for the record.

    >>> tupled([1, [2, 3]]), tupled([4, 5]), tupled(6)
    ((1, (2, 3)), (4, 5), 6)
    """
    if not isinstance(value, list):
        return value
    if list not in map(type, value):  # no list inside (a C scan): the common case
        return tuple(value)
    return tuple([tupled(v) for v in value])


def _copy_column(col):
    if col and isinstance(col[0], list):
        return [list(row) for row in col]
    return list(col)


def _encode(value):
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if isinstance(value, Move):
        return {"move": [value.kind, _encode(value.value)]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if hasattr(value, "name") and hasattr(value, "index"):  # a bid
        return {"bid": value.name}
    return value


def decode(value, bids: dict):
    """Inverse of the JSON encoding of var values."""
    if isinstance(value, list):
        return [decode(v, bids) for v in value]
    if isinstance(value, dict):
        if set(value) == {"fraction"}:
            return Fraction(value["fraction"])
        if set(value) == {"bid"}:
            return bids[value["bid"]]
        if set(value) == {"move"}:
            kind, inner = value["move"]
            return Move(kind, tupled(decode(inner, bids)))
        return {k: decode(v, bids) for k, v in value.items()}
    return value
