"""`deal`: shuffle (or take from a stock zone) and deal in packets, with packets for other zones inserted at
random inner positions (a talon dealt "neither first nor last", a chien "never two in a row").

Spec keys: `to` (seats, default `active`), `into` (a per-seat zone), `from` (a zone; default a fresh shuffled
deck), `packets` (steps: `{each: k, repeat: r}` or `{zone: z, count: k}`), `insert` (`{zone, count, packet}`),
`rest` (a zone for the cards left over; without it the counts must use the whole source exactly).

When every count (of `packets` and `insert`) is a number or an expression of nothing but game constants such as
`n_players`, the packets are worked out once per player count, receivers and number of cards and then remembered;
inserted packets are placed anew at every deal.
"""
from __future__ import annotations

from operator import itemgetter

from .. import chance
from ..dslexpr import DECK_ONLY
from ..dslparse import parse
from ..reads import GAME_CONSTANTS, calls_in, read_names
from ..state import Event
from .base import Phase

MAX_PACKETS = 1000  # packets in one deal: far more than any deck has cards to fill
PACKETS_MEMO = 256  # receivers (and player counts) whose packets a deal remembers (then it starts again)
_count = itemgetter(1)  # of a packet (zone id, count)


class DealPhase(Phase):
    type_name = "deal"
    interactive = False
    __slots__ = ("to", "into", "source", "steps", "insert", "rest", "error", "memo")

    def __init__(self, pid, when, to, into, source, steps, insert, rest, error, fixed: bool = False):
        super().__init__(pid, when)
        self.to, self.into, self.source, self.steps = to, into, source, steps
        self.insert, self.rest, self.error = insert, rest, error
        # with every count fixed for a player count (fixed_count), the packets and the inserted ones' counts
        # depend only on the player count, the receivers and the cards there are: remembered by those (None:
        # worked out at every deal)
        self.memo: dict | None = {} if fixed else None

    @classmethod
    def compile(cls, spec: dict, cc) -> "DealPhase":
        to = cc.expr("to", "list[seat]") if "to" in spec else (lambda st: st.active)
        into = cc.zone_name("into", per_seat=True)
        source = cc.zone_name("from") if "from" in spec else None
        steps = []
        for i, step in enumerate(spec.get("packets", [])):
            path = ("packets", i)
            for key in ("repeat", "each", "count"):
                if isinstance(step.get(key), int) and step[key] > MAX_PACKETS:
                    raise cc.error(f"{key}: {step[key]} is more than a deal can use (at most {MAX_PACKETS})",
                                   path + (key,), "a deal hands out the deck's cards, a few at a time")
            repeat = cc.number(path + ("repeat",), step.get("repeat", 1))
            if "each" in step:
                steps.append(("each", cc.number(path + ("each",), step["each"]), None, repeat))
            else:
                zone = cc.zone_name(path + ("zone",), per_seat=False)
                steps.append(("zone", cc.number(path + ("count",), step["count"]), zone, repeat))
        insert = None
        if "insert" in spec:
            ins = spec["insert"]
            insert = (cc.zone_name(("insert", "zone"), per_seat=False), cc.number(("insert", "count"), ins["count"]),
                      cc.number(("insert", "packet"), ins.get("packet", 1)))
        rest = cc.zone_name("rest", per_seat=False) if "rest" in spec else None
        counts = [value for step in spec.get("packets", []) for key, value in step.items()
                  if key in ("repeat", "each", "count")]
        counts += [value for key, value in spec.get("insert", {}).items() if key in ("count", "packet")]
        fixed = all(fixed_count(value, cc) for value in counts)
        return cls(spec["id"], cc.when(), to, into, source, steps, insert, rest, cc.error_factory(), fixed)

    def start(self, st) -> None:
        st.ph = {}
        game = st.game
        if st.stack is not None:
            for zid, cards in st.stack.items():
                st.zones[zid].extend(cards)
            st.stack = None
            st.events.append(Event("deal", st.dealer, value="stacked"))
            self.log_table(st)
            return
        if self.source is None:
            pack = list(range(len(game.deck)))
            chance.shuffle(game.rng(st, self.id), pack)
        else:
            source_zone = st.zones[st.zone_ids[self.source][0]]
            pack = source_zone[::-1]
            source_zone.clear()
        packets = self.packets(st, len(pack))
        need = sum(map(_count, packets))
        if need > len(pack) or (need < len(pack) and self.rest is None and self.source is None):
            raise self.error(f"the deal uses {need} cards but there are {len(pack)} "
                             f"(with {st.n} players)", "make the packets add up to the deck, or add `rest:`")
        pos = 0
        zones = st.zones
        for zid, k in packets:
            end = pos + k
            zones[zid] += pack[pos:end]
            pos = end
        if self.rest is not None:
            st.zones[st.zone_ids[self.rest][0]].extend(reversed(pack[pos:]))
        elif self.source is not None:
            source_zone.extend(reversed(pack[pos:]))
        st.events.append(Event("deal", st.dealer))
        self.log_table(st)

    def log_table(self, st) -> None:
        """Record what each seat now sees, zone by zone — its own hand, the cards face up on the table — as silent
        events for the seats that see them, so that a view keeps what its seat was dealt after the cards moved on."""
        game = st.game
        seers_of = self.seers_table(st)
        log, pid = st.events.append, self.id
        for zid, cards in enumerate(st.zones):
            if not cards:
                continue
            seers, top = seers_of[zid]
            if seers is None:
                log(Event("dealt", None, tuple(cards), zid, phase=pid))
                continue
            if seers:
                log(Event("dealt", None, tuple(cards), zid, seers, pid))
            shown = game.zone_shown(st, zid) if top else None
            if shown:
                log(Event("dealt", None, tuple(shown), zid, phase=pid))

    @staticmethod
    def seers_table(st) -> list:
        """[(seers, top) by zone id]: the seats that see each zone (None: every seat) and whether everyone may see
        some of its cards (`zone_shown`). With nothing revealed or shown and every seat controlling itself, the
        game's table for the player count (`Game.zone_seers`); else worked out now (`seers_now`)."""
        if st.revealed or st.shown or st.controller != list(range(st.n)):
            return DealPhase.seers_now(st)
        return st.game.zone_seers(st.n)

    @staticmethod
    def seers_now(st) -> list:
        """`seers_table` as `Game.zone_visible` has it now, zone by zone."""
        out = []
        for zid in range(len(st.zones)):
            seers = tuple(s for s in range(st.n) if st.game.zone_visible(st, zid, s))
            out.append((None if len(seers) == st.n else seers, True))
        return out

    def packets(self, st, cards: int) -> list:
        """The packets in dealing order as (zone id, count), inserted packets included; an error as soon as they
        pass `cards` cards or MAX_PACKETS packets (the counts may be expressions)."""
        receivers = self.to(st)
        memo = self.memo
        counted: tuple | list
        if memo is None:
            counted, inserts = self.counted(st, receivers, cards), self.inserts(st)
        else:
            key = (st.n, cards, tuple(receivers))
            known = memo.get(key)
            if known is None:
                if len(memo) >= PACKETS_MEMO:
                    memo.clear()
                known = memo[key] = (tuple(self.counted(st, receivers, cards)), self.inserts(st))
            counted, inserts = known
        return list(counted) if inserts is None else self.inserted(st, counted, inserts)

    def counted(self, st, receivers: list, cards: int) -> list:
        """The packets of the `packets` steps for `receivers`, in dealing order (without inserted ones)."""
        out: list = []
        need = 0
        for kind, count, zone, repeat in self.steps:
            for _ in range(repeat(st)):
                k = count(st)
                need += k * (len(receivers) if kind == "each" else 1)
                if need > cards or len(out) > MAX_PACKETS or k < 0:
                    raise self.error(f"the deal's packets ask for more than the {cards} cards there are "
                                     f"(or more than {MAX_PACKETS} packets, or a negative count), with {st.n} "
                                     "players", "make the packets add up to the deck, or add `rest:`")
                if kind == "each":
                    into = st.zone_ids[self.into]
                    out.extend((into[s], k) for s in receivers)
                else:
                    out.append((st.zone_ids[zone][0], k))
        return out

    def inserts(self, st) -> tuple | None:
        """The inserted packets as (zone id, cards in each, how many), if the deal inserts any."""
        if self.insert is None:
            return None
        zone, count, size = self.insert
        each = size(st)
        return st.zone_ids[zone][0], each, count(st) // max(1, each)

    def inserted(self, st, packets, inserts: tuple) -> list:
        """`packets` with the inserted ones placed in distinct gaps between them, drawn from the deal's generator."""
        zid, each, how_many = inserts
        gaps = range(1, len(packets))
        if how_many > len(gaps):
            raise self.error("too many inserted packets for the gaps between the others", None)
        chosen = chance.sample(st.game.rng(st, self.id + ":insert"), gaps, how_many)
        out = list(packets)
        for i in sorted(chosen, reverse=True):
            out.insert(i, (zid, each))
        return out


def fixed_count(value, cc) -> bool:
    """Whether a count of the deal is the same at every deal with the same player count: a number, or an
    expression reading nothing but game constants (`n_players`, `seats` …) and calling only built-ins of the
    deck (so `if n_players == 3 then 8 else 6` is fixed, an option or `deal_no` is not)."""
    if isinstance(value, int):
        return True
    scope = cc.c.scope
    tree = parse(str(value), "expr")
    return calls_in(tree, scope.macros) <= DECK_ONLY and \
        all(name in GAME_CONSTANTS or name not in scope.symbols for name in read_names(tree, scope.macros))
