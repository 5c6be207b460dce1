"""`auction`: bidders climb an ordered ladder of bids (`bids:` in the spec) until one remains.

General rules, all data: a pass is final; `jumps` (may bid any higher entry, or only the next one: `true`,
`false`, or a condition such as an option's name, worked out when the auction starts);
`hold: later` (a bidder may repeat the standing bid when it was made by someone seated after him in bidding
order, saying "same"); `once` (each bidder speaks once). `special` bids (a bid to take no trick, say) carry
flags: `first_call` (only as a bidder's first call), `jump` (allowed without the next-bid rule), `holdable`
(others may hold it), `then_pass` (its bidder may only pass afterwards), `after_lock` (still open to a bidder
whom an earlier `then_pass` bid limited to passing) and a `when` condition, which sees `me`, `high` (the
standing bid or none) and `mine` (the caller's own last bid or none).
`won` statements run with `winner` and `high` bound (and `doubled`, `calls`, `callers`); `all_pass`
statements when nobody bid.

Three general forms widen it. `passes: open`: a pass is not final (who passed may call again later), and the
auction ends after `closing_passes` passes in a row following a call (default: one per other bidder), or when
every bidder has passed in a row with no bid. `doubles: true` (with `team`, a seat expression on `me`: seats
with the same value are partners): `double` an opponent's standing bid, `redouble` a double of your own side's
bid; a new bid clears both; `won` reads `doubled` (0, 1 or 2). `order: duels`: the first bidder answers, each
later bidder in turn challenges the survivor of the duels before: the challenger bids or passes, the answerer
holds ("yes") or passes; who is left at the end wins at the standing bid, and when nobody bid at all the last
survivor may still open (bid or pass).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from interp.dsl.compile import Compiler, SourceRef, guarded, parse
from interp.dsl.nodes import Tree
from interp.dsl.reads import free_names
from interp.engine.phases.base import Phase, with_locals
from interp.engine.phases.progress import Progress
from interp.engine.state import Event, Move

PASS = Move("pass", None)
DOUBLE, REDOUBLE = Move("double", None), Move("redouble", None)
LOCALS = {"me": ("seat", None), "high": ("bid", None), "mine": ("bid", None)}  # what a special's `when` sees


@dataclass(frozen=True)
class Special:
    """The flags of a special bid (see the module docstring). Its `when` is kept in two parts: `free`, the
    leading `and` parts that read none of its locals (checked first, with nothing bound), and `bound`, the rest
    (None when nothing is left)."""
    first_call: bool = False
    jump: bool = False
    holdable: bool = True
    then_pass: bool = False
    free: Callable | None = None
    bound: Callable | None = None
    after_lock: bool = False

    @property
    def checked(self) -> bool:
        """Whether the bid's `when` needs a look at the state before it is offered (beyond the standing bid and
        whether this is the bidder's first call)."""
        return self.free is not None or self.bound is not None


class AuctionProgress(Progress):
    """An auction's progress, its `state.ph` (see `Progress`): the bidders in `order`, whose `turn`, who has
    `passed`, how often each has `spoken`, the standing bid `high` and its maker `high_by` (-1: none), who is
    `locked` to passing, each bidder's `last` bid, whether it is `over`, and whether `jumps` are allowed.

    >>> ph = AuctionProgress.start([1, 2, 0], True); ph.high = 3
    >>> ph["high"], list(ph)[:3], ph == dict(ph), ph.copy().passed is ph.passed
    (3, ['order', 'turn', 'passed'], True, False)
    """

    FIELDS: tuple = ("order", "turn", "passed", "spoken", "high", "high_by", "locked", "last", "over", "jumps")
    __slots__ = FIELDS
    order: list
    turn: int
    passed: list
    spoken: list
    high: int
    high_by: int
    locked: list
    last: list
    over: bool
    jumps: bool

    @classmethod
    def start(cls, order: list, jumps: bool) -> "AuctionProgress":
        """The progress of an auction among `order` before anyone speaks."""
        ph = cls.__new__(cls)
        k = len(order)
        ph.order, ph.turn, ph.passed, ph.spoken, ph.high, ph.high_by = order, 0, [False] * k, [0] * k, -1, -1
        ph.locked, ph.last, ph.over, ph.jumps = [False] * k, [-1] * k, False, jumps
        return ph

    def copy(self) -> "AuctionProgress":
        """An independent copy (its lists copied), as `State.copy` makes of a dict."""
        other = AuctionProgress.__new__(AuctionProgress)
        other.order, other.turn, other.passed, other.spoken = self.order[:], self.turn, self.passed[:], self.spoken[:]
        other.high, other.high_by, other.locked, other.last = self.high, self.high_by, self.locked[:], self.last[:]
        other.over, other.jumps = self.over, self.jumps
        return other


class FormsProgress(AuctionProgress):
    """The progress of an auction with open passes, doubles or duels (the module docstring): an `AuctionProgress`
    and the passes in a row (`run`), whether the standing bid is `doubled` (0, 1, 2), in duels the places of the
    `survivor` and the `challenger`, and each bidder's team (`sides`, with doubles). A plain auction keeps the
    shorter record, so that its saves read as before.

    >>> ph = FormsProgress.start([1, 2, 0], True, [1, 0, 1], duels=True)
    >>> ph.turn, ph.survivor, ph.challenger, ph["sides"], ph.copy().sides is ph.sides
    (1, 0, 1, [1, 0, 1], False)
    """

    FIELDS: tuple = AuctionProgress.FIELDS + ("run", "doubled", "survivor", "challenger", "sides")
    __slots__ = ("run", "doubled", "survivor", "challenger", "sides")
    run: int
    doubled: int
    survivor: int
    challenger: int
    sides: list

    @classmethod
    def start(cls, order: list, jumps: bool, sides: list | None = None, duels: bool = False) -> "FormsProgress":
        """The progress before anyone speaks; in duels the second bidder speaks first."""
        ph = super().start(order, jumps)
        assert isinstance(ph, FormsProgress)
        ph.run, ph.doubled, ph.survivor, ph.challenger, ph.sides = 0, 0, 0, 1, sides or []
        if duels and len(order) > 1:
            ph.turn = 1
        return ph

    def copy(self) -> "FormsProgress":
        other = FormsProgress.__new__(FormsProgress)
        for name in AuctionProgress.FIELDS:
            value = getattr(self, name)
            setattr(other, name, value[:] if isinstance(value, list) else value)
        other.run, other.doubled, other.survivor = self.run, self.doubled, self.survivor
        other.challenger, other.sides = self.challenger, self.sides[:]
        return other


class Offers(NamedTuple):
    """The moves that may follow a standing bid as far as it and whether this is the bidder's first call alone
    decide: `plain`, those offered as they are (the pass first), and `checked`, those whose `when` needs a look
    at the state, as (place, move, flags) in ladder order, `place` being the move's place among all of them."""
    plain: tuple
    checked: tuple


def _from_first(bidders: Callable, first: Callable) -> Callable:
    """The bidders in their order round the table from the seat `first` names (the dealer, say): `bidders`
    turned to start there, or at the first of them after it in play order when that seat does not bid (a dealer
    sitting out); as they are when it is none.

    >>> from types import SimpleNamespace
    >>> st = SimpleNamespace(n=4)
    >>> _from_first(lambda st: [1, 2, 3, 0], lambda st: 3)(st), _from_first(lambda st: [1, 2, 0], lambda st: 3)(st)
    ([3, 0, 1, 2], [0, 1, 2])
    """
    def turned(st) -> list:
        seats, seat = list(bidders(st)), first(st)
        if seat is None or not seats:
            return seats
        start = next(s for s in ((seat + d) % st.n for d in range(st.n)) if s in seats)
        k = seats.index(start)
        return seats[k:] + seats[:k]
    return turned


class AuctionPhase(Phase):
    """A compiled `auction` phase. `special` maps a rung of the ladder to its flags; `normal_above[i]` is the
    lowest rung above i (i = -1: no bid yet) that is not special (the ladder's length when there is none).

    What the standing bid and the bidder's first call alone decide is worked out once, the first time it is
    needed: `offers[row][high + 1]` (and `locked_offers` for a bidder limited to passing), row = `jumps` + 2 for
    a bidder's first call, lists the pass and then in ladder order the bids that may follow the standing bid
    `high`, as an `Offers`. `holdable[high + 1]` says whether a standing bid `high` may
    be held (by a bidder seated before its maker; never with no bid yet).

    `open_passes`, `closing` (passes in a row that close the auction after a call; None: one per other bidder),
    `doubles` with `team` (a seat expression on `me`), and `duels` are the general forms of the module docstring."""

    type_name = "auction"
    __slots__ = ("bidders", "jumps", "hold", "once", "special", "won", "all_pass", "normal_above",
                 "offers", "locked_offers", "bid_moves", "hold_moves", "names", "locking", "call_events",
                 "holdable", "open_passes", "closing", "doubles", "team", "duels", "forms")

    def __init__(self, pid: str, when: Callable | None, bidders: Callable, jumps: Callable, hold: str, once: bool,
                 special: dict, won: Callable | None, all_pass: Callable | None, label: str, names: tuple,
                 open_passes: bool = False, closing: int | None = None, team: Callable | None = None,
                 duels: bool = False):
        super().__init__(pid, when, label)
        self.open_passes, self.closing, self.team, self.duels = open_passes, closing, team, duels
        self.doubles = team is not None
        self.forms = open_passes or duels or self.doubles  # its progress is a FormsProgress
        ladder = len(names)
        self.bidders, self.jumps, self.hold, self.once = bidders, jumps, hold, once
        self.special: dict[int, Special] = dict(sorted(special.items()))  # in ladder order
        self.locking = frozenset(index for index, flags in special.items() if flags.then_pass)
        self.won, self.all_pass = won, all_pass
        above, nxt = [], ladder
        for i in range(ladder - 1, -2, -1):  # from the top rung down to "no bid yet"
            above.append(nxt)
            if i >= 0 and i not in special:
                nxt = i
        self.normal_above: list[int] = above[::-1]  # index i + 1 holds the answer for rung i
        self.bid_moves = tuple(Move("bid", index) for index in range(ladder))
        self.offers: tuple = tuple([None] * (ladder + 1) for _ in range(4))  # filled as the auction needs them
        self.locked_offers: tuple = tuple([None] * (ladder + 1) for _ in range(4))
        self.hold_moves = tuple(Move("hold", index) for index in range(ladder))
        self.holdable = (False,) + tuple(hold == "later" and (index not in special or special[index].holdable)
                                         for index in range(ladder))
        self.names = names  # the ladder's names, by rung (the notation of a bid)
        self.call_events: list[list] = []  # by seat, by call (call_event): the `bid` event, built once

    @property
    def holds(self) -> bool:
        """Whether this auction ever offers a hold (`hold: later`, or the answers of duels)."""
        return self.hold != "none" or self.duels

    def _offers(self, high: int, row: int, locked: bool) -> Offers:
        """The pass and the bids that may follow the standing bid `high` as far as it and whether this is the bidder's first
        call alone decide (see the class; `row` = jumps + 2 for a first call), worked out the first time they are
        asked for."""
        table = self.locked_offers if locked else self.offers
        known = table[row][high + 1]
        if known is not None:
            return known
        jumps, first = bool(row & 1), row >= 2
        bids = self.bid_moves
        step = self.normal_above[high + 1]
        picked: list[tuple[Move, Special | None]] = [(PASS, None)]
        for index in range(high + 1, len(bids)):
            flags = self.special.get(index)
            if flags is None:
                if not locked and (jumps or index == step):
                    picked.append((bids[index], None))
            elif (flags.after_lock or not locked) and (flags.jump or jumps or step >= index) and \
                    (first or not flags.first_call):
                picked.append((bids[index], flags if flags.checked else None))
        offers = Offers(tuple(move for move, flags in picked if flags is None),
                        tuple((at, move, flags) for at, (move, flags) in enumerate(picked) if flags is not None))
        table[row][high + 1] = offers
        return offers

    @classmethod
    def compile(cls, spec: dict, cc) -> "AuctionPhase":
        bidders = cc.expr("bidders", "list[seat]") if "bidders" in spec else (lambda st: st.active)
        if "first" in spec:
            bidders = _from_first(bidders, cc.expr("first", "seat"))
        special = {}
        for name, flags in (spec.get("special") or {}).items():
            index = cc.bid_index(("special", name), name)
            free, bound = _when_parts(cc, ("special", name, "when")) if "when" in flags else (None, None)
            special[index] = Special(bool(flags.get("first_call", False)), bool(flags.get("jump", False)),
                                     bool(flags.get("holdable", True)), bool(flags.get("then_pass", False)), free,
                                     bound, bool(flags.get("after_lock", False)))
        local = {"winner": ("seat", None), "high": ("bid", None), "doubled": ("int", None),
                 "calls": ("list[bid]", None), "callers": ("list[seat]", None)}
        won = cc.stmts("won", local) if "won" in spec else None
        all_pass = cc.stmts("all_pass") if "all_pass" in spec else None
        hold = spec.get("hold", "none")
        jumps = spec.get("jumps", False)
        jumps = cc.expr("jumps", "bool") if isinstance(jumps, str) else (lambda st, fixed=bool(jumps): fixed)
        open_passes, duels = spec.get("passes", "final") == "open", spec.get("order", "turns") == "duels"
        _check_forms(cc, spec, open_passes, duels)
        team = cc.expr("team", "seat", {"me": ("seat", None)}) if spec.get("doubles") else None
        closing = int(spec["closing_passes"]) if "closing_passes" in spec else None
        return cls(spec["id"], cc.when(), bidders, jumps, hold, bool(spec.get("once", False)), special, won,
                   all_pass, spec.get("label", ""), tuple(cc.c.bid_names), open_passes, closing, team, duels)

    def start(self, st) -> None:
        order = list(self.bidders(st))
        team = self.team
        if not self.forms:
            st.ph = AuctionProgress.start(order, bool(self.jumps(st)))
            return
        sides = [] if team is None else [with_locals(st, {"me": seat}, team) for seat in order]
        st.ph = FormsProgress.start(order, bool(self.jumps(st)), sides, self.duels)

    def progress_of(self, values: dict) -> AuctionProgress:
        return FormsProgress.of(values) if self.forms else AuctionProgress.of(values)

    def actor(self, st) -> int | None:
        ph = st.ph
        return ph.order[ph.turn]

    def done(self, st) -> bool:
        return st.ph.over

    def legal(self, st) -> list:
        ph = st.ph
        i = ph.turn
        at = ph.high + 1
        if self.duels and i == ph.survivor and ph.challenger < len(ph.order):  # the answerer: yes or pass
            flags = self.special.get(ph.high)
            return [PASS, self.hold_moves[ph.high]] if flags is None or flags.holdable else [PASS]
        row = ph.jumps + (0 if ph.spoken[i] else 2)
        if ph.locked[i]:
            offers = self.locked_offers[row][at]
            if offers is None:
                offers = self._offers(at - 1, row, True)
            hold = False
        else:
            offers = self.offers[row][at]
            if offers is None:
                offers = self._offers(at - 1, row, False)
            hold = self.holdable[at] and not self.duels and ph.order.index(ph.high_by) > i  # made by a later bidder
        moves = list(offers.plain)
        if offers.checked:
            left_out = 0  # checked moves not offered so far (each place after them is one less)
            for place, move, flags in offers.checked:
                if (flags.free is None or flags.free(st)) and (flags.bound is None or self.allows(st, flags.bound, i)):
                    moves.insert(place - left_out, move)
                else:
                    left_out += 1
        if hold:
            moves.insert(1, self.hold_moves[at - 1])  # after the pass, before the bids
        if self.doubles and at > 0:
            moves[1:1] = self._doubles(ph, i)
        return moves

    def _doubles(self, ph, i: int) -> list:
        """The double or redouble the bidder at `i` may make: a double of an opponent's standing bid not yet
        doubled, a redouble of a double of his own side's bid."""
        sides = ph.sides
        own = sides[i] == sides[ph.order.index(ph.high_by)]
        if ph.doubled == 0 and not own:
            return [DOUBLE]
        if ph.doubled == 1 and own:
            return [REDOUBLE]
        return []

    def allows(self, st, bound: Callable, i: int) -> bool:
        """Whether `bound`, the part of a special bid's `when` that reads its locals, holds for the bidder at `i`
        (the caller has checked the other part, `free`)."""
        ph = st.ph
        bids = st.game.bids
        high, last = ph.high, ph.last[i]
        return with_locals(st, {"me": ph.order[i], "high": bids[high] if high >= 0 else None,
                                "mine": bids[last] if last >= 0 else None}, bound)

    def apply(self, st, move: Move) -> bool:
        """Make the call `move`; whether the auction is now over."""
        return self.play(st, move, [])  # (its log entry goes to a list nobody keeps: the caller logs moves)

    def play(self, st, move: Move, history: list) -> bool:
        """`Phase.play` in one body: log the call `move` in `history` (its notation: `pass`, `hold` or the bid's
        name), then make it; whether the auction is now over."""
        ph = st.ph
        i = ph.turn
        passed, spoken, seat = ph.passed, ph.spoken, ph.order[i]
        spoken[i] += 1
        kind = move.kind
        if kind == "pass":
            history.append([st.deal_no, seat, "pass"])
            passed[i] = not self.open_passes
            if self.forms:
                ph.run += 1
            call = 0
        elif kind in ("double", "redouble"):
            history.append([st.deal_no, seat, kind])
            ph.doubled, ph.run = (1, 0) if kind == "double" else (2, 0)
            call = 1 + 2 * len(self.names) + ph.doubled - 1
        else:
            if self.forms:
                ph.run, ph.doubled = 0, ph.doubled if kind == "hold" else 0
            value = move.value
            ph.high, ph.high_by = value, seat
            if kind == "bid":
                history.append([st.deal_no, seat, self.names[value]])
                ph.last[i] = value
                call = 1 + value
            else:
                history.append([st.deal_no, seat, "hold"])
                call = 1 + len(self.names) + value
            if value in self.locking:
                ph.locked[i] = True
        try:
            event = self.call_events[seat][call]
        except IndexError:  # the seat's first call with this phase: its row is built
            event = self.call_event(seat, call)
        st.events.append(event)
        if self.duels:
            return self._duel_next(st, i, kind == "pass")
        if self.open_passes:
            return self._open_next(st, i)
        # the next bidder: the first after this one who has not passed (nor spoken, with `once`), if any is left
        n = len(passed)
        if self.once:
            left = passed.count(False)
            if all(spoken) or not left or (left == 1 and ph.order[passed.index(False)] == ph.high_by):
                self.finish(st)
                return True
            for step in range(1, n + 1):
                k = (i + step) % n
                if not passed[k] and not spoken[k]:
                    break
            else:
                self.finish(st)
                return True
        else:
            k = i + 1 if i + 1 < n else 0
            while passed[k]:
                if k == i:  # every bidder has passed
                    self.finish(st)
                    return True
                k = k + 1 if k + 1 < n else 0
            if ph.high_by == ph.order[k] and passed.count(False) == 1:  # the standing bid's maker is left
                self.finish(st)
                return True
        ph.turn = k
        return False

    def _open_next(self, st, i: int) -> bool:
        """With passes not final: the auction ends after the closing passes in a row following a call, or after
        every bidder has passed with no bid; else the next bidder speaks. Whether it is over."""
        ph = st.ph
        n = len(ph.order)
        closing = n if ph.high < 0 else (n - 1 if self.closing is None else self.closing)
        if ph.run >= closing:
            self.finish(st)
            return True
        ph.turn = i + 1 if i + 1 < n else 0
        return False

    def _duel_next(self, st, i: int, passed: bool) -> bool:
        """In duels: after a challenger's bid the answerer speaks, after a hold the challenger again; a pass ends
        the duel (the other survives) and the next bidder challenges the survivor. After the last duel the survivor
        wins at the standing bid, or, when nobody bid, may still open. Whether the auction is over."""
        ph = st.ph
        n = len(ph.order)
        if ph.challenger >= n:  # the survivor's own call, nobody having bid
            self.finish(st)
            return True
        if not passed:
            ph.turn = ph.survivor if i == ph.challenger else ph.challenger
            return False
        if i == ph.survivor:
            ph.survivor = ph.challenger
        ph.challenger += 1
        if ph.challenger < n:
            ph.turn = ph.challenger
        elif ph.high >= 0:
            self.finish(st)
            return True
        else:
            ph.turn = ph.survivor
        return False

    def call_event(self, seat: int, call: int) -> Event:
        """The event of `seat` making call number `call` (0 a pass, then each bid, then each hold, in ladder order,
        then a double and a redouble),
        from a table built with the seat's first call and then shared by every deal (an event is never changed
        once logged), as a trick phase's `play` events are."""
        rows = self.call_events
        calls = (PASS,) + self.bid_moves + self.hold_moves + (DOUBLE, REDOUBLE)
        while len(rows) <= seat:
            rows.append([Event("bid", len(rows), (), move, None, self.id) for move in calls])
        return rows[seat][call]

    def finish(self, st) -> None:
        ph = st.ph
        ph.over = True
        if ph.high_by < 0:
            st.events.append(Event("auction", None, (), None, None, self.id))
            if self.all_pass is not None:
                self.all_pass(st)
            return
        bids = st.game.bids
        doubled = ph.doubled if self.doubles else 0
        made = self.bids_made(st) if self.won is not None else []
        st.events.append(Event("auction", ph.high_by, (), [ph.high, doubled] if doubled else ph.high, None, self.id))
        if self.won is not None:
            with_locals(st, {"winner": ph.high_by, "high": bids[ph.high], "doubled": doubled,
                             "calls": [bids[e.value.value] for e in made], "callers": [e.seat for e in made]},
                        self.won)

    def bids_made(self, st) -> list:
        """The `bid` events of the bids made in this auction, in order (read back from the deal's log, up to the
        end of an earlier auction of this phase in the same deal)."""
        made, events = [], st.events
        for at in range(len(events) - 1, st.deal_events - 1, -1):
            event = events[at]
            if event.phase == self.id:
                if event.kind == "auction":
                    break
                if event.kind == "bid" and event.value.kind == "bid":
                    made.append(event)
        return made[::-1]

    def explain(self, st, text: str) -> str:
        """Why a typed call is not legal: unknown name, not high enough, a skipped step, a hold not allowed."""
        ph, game = st.ph, st.game
        word = text.strip().lower()
        legal = self.legal(st)
        offered = ", ".join(self.describe(st, m) for m in legal)
        high = game.bids[ph.high] if ph.high >= 0 else None
        if word in ("double", "redouble", "x", "xx"):
            return self._explain_double(st, word in ("double", "x"), offered)
        if word in ("hold", "same"):
            if high is None:
                return "there is no bid to hold yet"
            by = game.seat_name(ph.high_by, st.n)
            return f"you may hold only a bid made by a later hand; {high.label} was bid by {by}"
        bid = next((b for b in game.bids if b.name.lower() == word), None)
        if bid is None:
            return f"'{text}' is not a bid; you may say: {offered}"
        if ph.locked[ph.turn] and not any(m.kind == "bid" for m in legal):
            return "after your last bid you may only pass"
        if high is not None and bid <= high:
            return f"the standing bid is {high.label}: bid higher or pass (you may say: {offered})"
        if bid.index in self.special:
            return f"{bid.label} is not allowed now (you may say: {offered})"
        return f"bids go up one step at a time; you may say: {offered}"

    def _explain_double(self, st, double: bool, offered: str) -> str:
        ph = st.ph
        if not self.doubles:
            return f"this auction has no doubles; you may say: {offered}"
        if ph.high < 0:
            return f"there is no bid to double yet; you may say: {offered}"
        if double:
            return (f"you may double only an opponent's bid not doubled yet; you may say: {offered}")
        return f"you may redouble only a double of your side's bid; you may say: {offered}"

    def notation(self, st, move: Move) -> str:
        if move.kind in ("pass", "double", "redouble"):
            return move.kind
        if move.kind == "hold":
            return "hold"
        return self.names[move.value]

    def describe(self, st, move: Move) -> str:
        if move.kind == "hold":
            return f"hold ({st.game.bids[move.value].label})"
        if move.kind == "bid":
            return st.game.bids[move.value].label
        return move.kind

    def prompt(self, st) -> str:
        ph = st.ph
        if ph.high < 0:
            return "your call (no bid yet)"
        doubled = ("", " doubled", " redoubled")[ph.doubled] if self.doubles else ""
        if self.duels and ph.turn == ph.survivor and ph.challenger < len(ph.order):
            return f"{st.game.bids[ph.high].label}? (hold or pass)"
        return f"your call (standing bid {st.game.bids[ph.high].label}{doubled})"


def _when_parts(cc, key: tuple) -> tuple:
    """A special bid's `when` as (free, bound) (see Special): its leading `and` parts that read none of the
    locals, and the rest. Either may be None; both report a failure at the `when` itself."""
    full = cc.expr(key, "bool", LOCALS)  # compiled whole first: its errors are reported as written
    source = SourceRef(cc.c.doc, cc._p(key))
    tree = parse(str(cc.c.doc.get(cc._p(key))), "expr", source)
    parts = tree.children if isinstance(tree, Tree) and tree.data == "and_" else [tree]
    macros = cc.c.scope.macros
    lead = 0
    while lead < len(parts) and not free_names(parts[lead], macros) & set(LOCALS):
        lead += 1
    if lead == 0:
        return None, full
    if lead == len(parts):
        return full, None

    def part(nodes: list) -> Callable:
        node = nodes[0] if len(nodes) == 1 else Tree("and_", nodes)
        return guarded(Compiler(cc.c.scope, source, LOCALS).expr(node), source)
    return part(parts[:lead]), part(parts[lead:])


def _check_forms(cc, spec: dict, open_passes: bool, duels: bool) -> None:
    """Refuse keys that do not go together: duels with `once`, `hold` or open passes; `closing_passes` without
    open passes; `doubles` without a `team`."""
    if duels and (open_passes or spec.get("once") or spec.get("hold", "none") != "none"):
        raise cc.error("order: duels has its own turns: leave out passes: open, once and hold", "order",
                       "in duels the answerer holds or passes, the challenger bids or passes")
    if "closing_passes" in spec and not open_passes:
        raise cc.error("closing_passes needs passes: open", "closing_passes",
                       "with final passes the auction ends when one bidder is left")
    if spec.get("doubles") and "team" not in spec:
        raise cc.error("doubles need a team: a seat expression on me, the same for partners", "doubles",
                       "e.g. team: \"if me == seats[0] or me == seats[2] then seats[0] else seats[1]\"")
