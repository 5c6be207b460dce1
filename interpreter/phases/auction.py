"""`auction`: bidders climb an ordered ladder of bids (`bids:` in the spec) until one remains.

General rules, all data: a pass is final; `jumps` (may bid any higher entry, or only the next one: `true`,
`false`, or a condition such as an option's name, worked out when the auction starts);
`hold: later` (a bidder may repeat the standing bid when it was made by someone seated after him in bidding
order, saying "same"); `once` (each bidder speaks once). `special` bids (a bid to take no trick, say) carry
flags: `first_call` (only as a bidder's first call), `jump` (allowed without the next-bid rule), `holdable`
(others may hold it), `then_pass` (its bidder may only pass afterwards), `after_lock` (still open to a bidder
whom an earlier `then_pass` bid limited to passing) and a `when` condition, which sees `me`, `high` (the
standing bid or none) and `mine` (the caller's own last bid or none).
`won` statements run with `winner` and `high` bound; `all_pass` statements when nobody bid.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import Callable

from ..state import Event, Move
from .base import Phase, with_locals

PASS = Move("pass", None)


@dataclass(frozen=True)
class Special:
    """The flags of a special bid (see the module docstring)."""
    first_call: bool = False
    jump: bool = False
    holdable: bool = True
    then_pass: bool = False
    when: Callable | None = None
    after_lock: bool = False


class AuctionPhase(Phase):
    """A compiled `auction` phase. `special` maps a rung of the ladder to its flags; `normal_above[i]` is the
    lowest rung above i (i = -1: no bid yet) that is not special (the ladder's length when there is none)."""

    type_name = "auction"
    __slots__ = ("bidders", "jumps", "hold", "once", "special", "won", "all_pass", "normal_above")

    def __init__(self, pid: str, when: Callable | None, bidders: Callable, jumps: Callable, hold: str, once: bool,
                 special: dict, won: Callable | None, all_pass: Callable | None, label: str, ladder: int):
        super().__init__(pid, when, label)
        self.bidders, self.jumps, self.hold, self.once = bidders, jumps, hold, once
        self.special: dict[int, Special] = dict(sorted(special.items()))  # in ladder order
        self.won, self.all_pass = won, all_pass
        above, nxt = [], ladder
        for i in range(ladder - 1, -2, -1):  # from the top rung down to "no bid yet"
            above.append(nxt)
            if i >= 0 and i not in special:
                nxt = i
        self.normal_above: list[int] = above[::-1]  # index i + 1 holds the answer for rung i

    @classmethod
    def compile(cls, spec: dict, cc) -> "AuctionPhase":
        bidders = cc.expr("bidders", "list[seat]") if "bidders" in spec else (lambda st: st.active)
        special = {}
        for name, flags in (spec.get("special") or {}).items():
            index = cc.bid_index(("special", name), name)
            local = {"me": ("seat", None), "high": ("bid", None), "mine": ("bid", None)}
            when = cc.expr(("special", name, "when"), "bool", local) if "when" in flags else None
            special[index] = Special(bool(flags.get("first_call", False)), bool(flags.get("jump", False)),
                                     bool(flags.get("holdable", True)), bool(flags.get("then_pass", False)), when,
                                     bool(flags.get("after_lock", False)))
        local = {"winner": ("seat", None), "high": ("bid", None)}
        won = cc.stmts("won", local) if "won" in spec else None
        all_pass = cc.stmts("all_pass") if "all_pass" in spec else None
        hold = spec.get("hold", "none")
        jumps = spec.get("jumps", False)
        jumps = cc.expr("jumps", "bool") if isinstance(jumps, str) else (lambda st, fixed=bool(jumps): fixed)
        return cls(spec["id"], cc.when(), bidders, jumps, hold, bool(spec.get("once", False)), special, won,
                   all_pass, spec.get("label", ""), len(cc.c.bid_names))

    def start(self, st) -> None:
        order = list(self.bidders(st))
        st.ph = {"order": order, "turn": 0, "passed": [False] * len(order), "spoken": [0] * len(order),
                 "high": -1, "high_by": -1, "locked": [False] * len(order), "last": [-1] * len(order),
                 "over": False, "jumps": bool(self.jumps(st))}

    def actor(self, st) -> int | None:
        ph = st.ph
        return ph["order"][ph["turn"]]

    def done(self, st) -> bool:
        return st.ph["over"]

    def legal(self, st) -> list:
        ph = st.ph
        i = ph["turn"]
        moves = [PASS]
        bid_moves = st.game.bid_moves
        high = ph["high"]
        special = self.special
        if ph["locked"][i]:
            return moves + [bid_moves[index] for index in range(high + 1, len(bid_moves))
                            if index in special and special[index].after_lock
                            and self.special_ok(st, special[index], i, index)]
        if self.may_hold(ph, i):
            moves.append(Move("hold", high))
        if ph["jumps"]:
            for index in range(high + 1, len(bid_moves)):
                flags = special.get(index)
                if flags is None or self.special_ok(st, flags, i, index):
                    moves.append(bid_moves[index])
            return moves
        # without jumps: the next ordinary bid and the special bids allowed, in ladder order
        picked = [index for index, flags in special.items() if index > high and self.special_ok(st, flags, i, index)]
        step = self.normal_above[high + 1]
        if step < len(bid_moves):
            insort(picked, step)
        moves.extend(bid_moves[index] for index in picked)
        return moves

    def may_hold(self, ph, i: int) -> bool:
        if self.hold != "later" or ph["high_by"] < 0:
            return False
        flags = self.special.get(ph["high"])
        if flags is not None and not flags.holdable:
            return False
        return ph["order"].index(ph["high_by"]) > i

    def special_ok(self, st, flags: Special, i: int, index: int) -> bool:
        ph = st.ph
        if flags.first_call and ph["spoken"][i]:
            return False
        if not flags.jump and not ph["jumps"] and self.normal_above[ph["high"] + 1] < index:
            return False  # an ordinary bid lies between the standing bid and this one
        if flags.when is not None:
            bids = st.game.bids
            high = bids[ph["high"]] if ph["high"] >= 0 else None
            mine = bids[ph["last"][i]] if ph["last"][i] >= 0 else None
            return with_locals(st, {"me": ph["order"][i], "high": high, "mine": mine}, flags.when)
        return True

    def apply(self, st, move: Move) -> None:
        ph = st.ph
        i = ph["turn"]
        seat = ph["order"][i]
        ph["spoken"][i] += 1
        if move.kind == "pass":
            ph["passed"][i] = True
        else:
            ph["high"], ph["high_by"] = move.value, seat
            if move.kind == "bid":
                ph["last"][i] = move.value
            flags = self.special.get(move.value)
            if flags is not None and flags.then_pass:
                ph["locked"][i] = True
        st.events.append(Event("bid", seat, value=move, phase=self.id))
        self.next_turn(st)

    def next_turn(self, st) -> None:
        ph = st.ph
        n = len(ph["order"])
        left = [k for k in range(n) if not ph["passed"][k]]
        if self.once and all(ph["spoken"]):
            self.finish(st)
            return
        if not left or (len(left) == 1 and ph["order"][left[0]] == ph["high_by"]):
            self.finish(st)
            return
        turn = ph["turn"]
        for step in range(1, n + 1):
            k = (turn + step) % n
            if not ph["passed"][k] and not (self.once and ph["spoken"][k]):
                ph["turn"] = k
                return
        self.finish(st)

    def finish(self, st) -> None:
        ph = st.ph
        ph["over"] = True
        if ph["high_by"] < 0:
            st.events.append(Event("auction", phase=self.id))
            if self.all_pass is not None:
                self.all_pass(st)
            return
        bid = st.game.bids[ph["high"]]
        st.events.append(Event("auction", ph["high_by"], value=ph["high"], phase=self.id))
        if self.won is not None:
            with_locals(st, {"winner": ph["high_by"], "high": bid}, self.won)

    def explain(self, st, text: str) -> str:
        """Why a typed call is not legal: unknown name, not high enough, a skipped step, a hold not allowed."""
        ph, game = st.ph, st.game
        word = text.strip().lower()
        legal = self.legal(st)
        offered = ", ".join(self.describe(st, m) for m in legal)
        high = game.bids[ph["high"]] if ph["high"] >= 0 else None
        if word in ("hold", "same"):
            if high is None:
                return "there is no bid to hold yet"
            by = game.seat_name(ph["high_by"], st.n)
            return f"you may hold only a bid made by a later hand; {high.label} was bid by {by}"
        bid = next((b for b in game.bids if b.name.lower() == word), None)
        if bid is None:
            return f"'{text}' is not a bid; you may say: {offered}"
        if ph["locked"][ph["turn"]] and not any(m.kind == "bid" for m in legal):
            return "after your last bid you may only pass"
        if high is not None and bid <= high:
            return f"the standing bid is {high.label}: bid higher or pass (you may say: {offered})"
        if bid.index in self.special:
            return f"{bid.label} is not allowed now (you may say: {offered})"
        return f"bids go up one step at a time; you may say: {offered}"

    def notation(self, st, move: Move) -> str:
        if move.kind == "pass":
            return "pass"
        if move.kind == "hold":
            return "hold"
        return st.game.bids[move.value].name

    def describe(self, st, move: Move) -> str:
        if move.kind == "hold":
            return f"hold ({st.game.bids[move.value].label})"
        if move.kind == "bid":
            return st.game.bids[move.value].label
        return "pass"

    def prompt(self, st) -> str:
        ph = st.ph
        if ph["high"] < 0:
            return "your call (no bid yet)"
        return f"your call (standing bid {st.game.bids[ph['high']].label})"
