"""`deal`: shuffle (or take from a stock zone) and deal in packets, with packets for other zones inserted at
random inner positions (a talon dealt "neither first nor last", a chien "never two in a row").

Spec keys: `to` (seats, default `active`), `into` (a per-seat zone), `from` (a zone; default a fresh shuffled
deck), `packets` (steps: `{each: k, repeat: r}` or `{zone: z, count: k}`), `insert` (`{zone, count, packet}`),
`rest` (a zone for the cards left over; without it the counts must use the whole source exactly), `aside`
(`{cards, zone}`: cards taken out of the pack into a zone before anything is dealt: a deal of part of the deck).

When every count (of `packets` and `insert`) is a number or an expression of nothing but game constants such as
`n_players`, the packets are worked out once per player count, receivers and number of cards and then remembered
(a `Plan`), with where each zone's cards lie in the pack; inserted packets are placed anew at every deal.
"""
from __future__ import annotations

from itertools import accumulate
from math import perm
from operator import add, itemgetter

from interp.dsl.calls import DECK_ONLY
from interp.dsl.parse import parse
from interp.dsl.reads import GAME_CONSTANTS, calls_in, read_names
from interp.engine import chance
from interp.engine.phases.base import Phase
from interp.engine.state import Event

MAX_PACKETS = 1000  # packets in one deal: far more than any deck has cards to fill
PACKETS_MEMO = 256  # receivers (and player counts) whose packets a deal remembers (then it starts again)
LAYOUTS = 256  # ways to insert packets up to which a deal remembers where each zone's cards lie for each way
_count = itemgetter(1)  # of a packet (zone id, count)


class _SelfControlled(dict):
    """Player count -> [0, 1, … n - 1], each seat controlling itself (a list made once per count, never changed)."""

    def __missing__(self, n: int) -> list:
        seats = self[n] = list(range(n))
        return seats


SELF_CONTROLLED = _SelfControlled()


class DealPhase(Phase):
    type_name = "deal"
    interactive = False
    __slots__ = ("to", "into", "source", "steps", "insert", "rest", "error", "memo", "insert_tag", "aside")

    def __init__(self, pid, when, to, into, source, steps, insert, rest, error, fixed: bool = False,
                 aside: tuple | None = None):
        super().__init__(pid, when)
        self.to, self.into, self.source, self.steps = to, into, source, steps
        self.insert, self.rest, self.error = insert, rest, error
        self.aside = aside  # (zone name, the cards' expression): taken out of the pack before the deal
        # with every count fixed for a player count (fixed_count), the packets and the inserted ones' counts
        # depend only on the player count, the receivers and the cards there are: remembered by those (None:
        # worked out at every deal)
        self.memo: dict | None = {} if fixed else None
        self.insert_tag = pid + ":insert"  # the tag of the generator that places the inserted packets

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
        aside = (cc.zone_name(("aside", "zone"), per_seat=False), cc.expr(("aside", "cards"), "list[card]")) \
            if "aside" in spec else None
        counts = [value for step in spec.get("packets", []) for key, value in step.items()
                  if key in ("repeat", "each", "count")]
        counts += [value for key, value in spec.get("insert", {}).items() if key in ("count", "packet")]
        fixed = all(fixed_count(value, cc) for value in counts)
        return cls(spec["id"], cc.when(), to, into, source, steps, insert, rest, cc.error_factory(), fixed, aside)

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
            pack = list(game.card_order)
            chance.shuffle(game.rng(st, self.id, False), pack)
        else:
            source_zone = st.zones[st.zone_ids[self.source][0]]
            pack = source_zone[::-1]
            source_zone.clear()
        if self.aside is not None:
            pack = set_aside(st, pack, *self.aside)
        plan = self.plan(st, len(pack))
        packets: tuple | list = plan.packets
        layout, inserts = plan.layout, plan.inserts
        zones, dealt = st.zones, pack  # the pack's cards laid by `layout`
        if inserts is not None:
            gaps = self.gaps_drawn(st, plan.gaps, inserts[2])
            layouts = plan.layouts
            layout = None if layouts is None else layouts.get(gaps)
            if layout is None:
                if plan.starts is not None:  # too many ways to remember: the inserted cards taken out first
                    layout, dealt = plan.base, taken_out(pack, zones[inserts[0]], plan.starts, inserts[1], gaps)
                else:
                    packets = with_inserts(plan.packets, inserts, gaps)
                    if layouts is not None:
                        layout = layouts[gaps] = layout_of(packets)
        if layout is None:  # a plan not remembered, or too many ways to insert packets: laid one by one
            pos = 0
            for zid, k in packets:
                end = pos + k
                zones[zid] += pack[pos:end]
                pos = end
        else:
            for zid, take in layout:
                zones[zid] += take(dealt)
        if self.rest is not None:
            zones[st.zone_ids[self.rest][0]].extend(reversed(pack[plan.need:]))
        elif self.source is not None:
            source_zone.extend(reversed(pack[plan.need:]))
        st.events.append(game.deal_logged[st.dealer])
        self.log_table(st)

    def log_table(self, st) -> None:
        """Record what each seat now sees, zone by zone — its own hand, the cards face up on the table — as silent
        events for the seats that see them, so that a view keeps what its seat was dealt after the cards moved on."""
        game = st.game
        zones, log, pid = st.zones, st.events.append, self.id
        for zid, seers, top in self.seers_table(st):
            cards = zones[zid]
            if not cards:
                continue
            if seers is None:
                log(Event("dealt", None, tuple(cards), zid, None, pid))
                continue
            if seers:
                log(Event("dealt", None, tuple(cards), zid, seers, pid))
            if top:
                shown = game.zone_shown(st, zid)
                if shown:
                    log(Event("dealt", None, tuple(shown), zid, None, pid))

    def event_text(self, ctx, event) -> str | None:
        """A `dealt` record as a line when it tells every seat cards this deal laid face up on the table (a
        turned-up card, the table's cards): `turned-up card: 8♠`; None for a hand (its seat reads it at its turn)
        or for a zone the deal did not lay cards in (seen before, told then)."""
        if event.audience is not None:
            return None
        decl, owner = ctx.game.zone_of(event.value, ctx.n)
        if owner is not None or decl.name not in self.laid:
            return None
        return f"{decl.label or decl.name}: " + " ".join(ctx.game.deck.pretty(c) for c in event.cards)

    @property
    def laid(self) -> set:
        """The names of the zones (not per seat) the deal's packets or inserted packets lay cards in."""
        return {zone for kind, _, zone, _ in self.steps if kind == "zone"} | \
            ({self.insert[0]} if self.insert is not None else set())

    @staticmethod
    def seers_table(st) -> tuple | list:
        """[(zone id, seers, top)] of the zones some seat may see: the seats that see each (None: every seat) and
        whether everyone may see some of its cards (`zone_shown`). With nothing revealed or shown and every seat
        controlling itself, the game's table for the player count (`Game.zone_seers`); else worked out now
        (`seers_now`)."""
        if st.revealed or st.shown or st.controller != SELF_CONTROLLED[st.n]:
            return DealPhase.seers_now(st)
        return st.game.zone_seers(st.n)

    @staticmethod
    def seers_now(st) -> list:
        """`seers_table` as `Game.zone_visible` has it now, for every zone."""
        out = []
        for zid in range(len(st.zones)):
            seers = tuple(s for s in range(st.n) if st.game.zone_visible(st, zid, s))
            out.append((zid, None if len(seers) == st.n else seers, True))
        return out

    def plan(self, st, cards: int) -> "Plan":
        """The deal's `Plan` for the receivers and `cards` cards: remembered when every count is fixed (`memo`),
        else worked out now. Raises as soon as the packets pass the cards there are (the counts may be
        expressions), do not use them all with nowhere for the rest, or leave too few gaps to insert packets."""
        receivers = self.to(st)
        memo = self.memo
        if memo is None:
            return self.make_plan(st, receivers, cards, False)
        key = (st.n, cards, tuple(receivers))
        plan = memo.get(key)
        if plan is None:
            if len(memo) >= PACKETS_MEMO:
                memo.clear()
            plan = memo[key] = self.make_plan(st, receivers, cards, True)
        return plan

    def make_plan(self, st, receivers: list, cards: int, remembered: bool) -> "Plan":
        packets = tuple(self.counted(st, receivers, cards))
        inserts = self.inserts(st)
        need = sum(map(_count, packets))
        gaps = range(1, len(packets))
        if inserts is not None:
            _, each, how_many = inserts
            if how_many > len(gaps):
                raise self.error("too many inserted packets for the gaps between the others", None)
            need += each * how_many
        if need > cards or (need < cards and self.rest is None and self.source is None):
            raise self.error(f"the deal uses {need} cards but there are {cards} "
                             f"(with {st.n} players)", "make the packets add up to the deck, or add `rest:`")
        layout: tuple | None = None
        layouts: dict | None = None
        base: tuple | None = None
        starts: tuple | None = None
        if remembered:
            if inserts is None:
                layout = layout_of(packets)
            elif perm(len(gaps), inserts[2]) <= LAYOUTS:
                layouts = {}
            elif all(zid != inserts[0] for zid, _ in packets):
                base, starts = layout_of(packets), tuple(accumulate(map(_count, packets), initial=0))
        return Plan(packets, inserts, gaps, need, layout, layouts, base, starts)

    def packets(self, st, cards: int) -> list:
        """The packets in dealing order as (zone id, count), inserted packets included (placed by a draw from
        the deal's generator, as a deal places them)."""
        plan = self.plan(st, cards)
        inserts = plan.inserts
        if inserts is None:
            return list(plan.packets)
        return with_inserts(plan.packets, inserts, self.gaps_drawn(st, plan.gaps, inserts[2]))

    def gaps_drawn(self, st, gaps: range, how_many: int) -> tuple:
        """The `how_many` gaps between the packets where the inserted ones go (gap i: before the i-th packet),
        as drawn from the deal's generator for inserting."""
        return tuple(chance.sample(st.game.rng(st, self.insert_tag, False), gaps, how_many))

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


class Plan:
    """How a deal hands out `need` cards for one player count, number of cards and set of receivers: the
    `packets` of its steps in dealing order as (zone id, count), the `inserts` placed among them ((zone id,
    cards in each, how many), or None) in distinct `gaps`, and, for a remembered plan, where each zone's
    cards lie in the shuffled pack: the `layout` when nothing is inserted, else the `layouts` by the gaps
    drawn, each made when first drawn (None: more ways to insert than LAYOUTS). With more ways than that and
    a zone for the inserted packets that no other packet deals to, the inserted cards are taken out of the pack
    (the `starts` of the other packets say where: packet i starts at starts[i] without them) and the rest laid
    by the `base` layout of the other packets; else (or for a plan not remembered) the packets are laid one by
    one."""

    __slots__ = ("packets", "inserts", "gaps", "need", "layout", "layouts", "base", "starts")

    def __init__(self, packets: tuple, inserts: tuple | None, gaps: range, need: int, layout: tuple | None,
                 layouts: dict | None, base: tuple | None = None, starts: tuple | None = None):
        self.packets, self.inserts, self.gaps, self.need = packets, inserts, gaps, need
        self.layout, self.layouts, self.base, self.starts = layout, layouts, base, starts


def with_inserts(packets: tuple, inserts: tuple, gaps: tuple) -> list:
    """`packets` with an inserted packet (zone id, cards in each) placed in each of `gaps`.

    >>> with_inserts(((0, 2), (1, 2), (0, 2)), (5, 1, 2), (2, 1))
    [(0, 2), (5, 1), (1, 2), (5, 1), (0, 2)]
    """
    zid, each, _ = inserts
    out = list(packets)
    for i in sorted(gaps, reverse=True):
        out.insert(i, (zid, each))
    return out


def taken_out(pack: list, into: list, starts: tuple, each: int, gaps: tuple) -> list:
    """The cards of `pack` but those of the packets of `each` cards inserted in `gaps` (gap i: before the i-th
    packet, which `starts` at starts[i] without them), added to `into` in dealing order: what is left lies as
    the packets without the inserted ones.

    >>> aside = []  # packets ((0, 2), (1, 2), (0, 2)), one card in gaps 2 and 1 (with_inserts: 0 0 5 1 1 5 0 0)
    >>> taken_out(list("abcdefgh"), aside, (0, 2, 4, 6), 1, (2, 1)), aside
    (['a', 'b', 'd', 'e', 'g', 'h'], ['c', 'f'])
    """
    at = list(map(add, map(starts.__getitem__, sorted(gaps)), range(0, each * len(gaps), each)))  # where each
    for a in at:  # inserted packet lies: where the packet after it starts, after those inserted before it
        into += pack[a:a + each]
    rest = pack[:]
    for a in reversed(at):
        del rest[a:a + each]
    return rest


def layout_of(packets) -> tuple:
    """((zone id, take) for each zone dealt to) where `take(pack)` gives that zone's cards of the pack, in the
    order `packets` ((zone id, count) in dealing order) hand them out.

    >>> [(zid, take("abcdefg")) for zid, take in layout_of([(0, 2), (1, 1), (0, 2), (2, 0), (3, 2)])]
    [(0, ('a', 'b', 'd', 'e')), (1, 'c'), (3, 'fg')]
    """
    where: dict = {}
    pos = 0
    for zid, k in packets:
        where.setdefault(zid, []).extend(range(pos, pos + k))
        pos += k
    return tuple((zid, _taker(places)) for zid, places in where.items() if places)


def _taker(places: list):
    """A function of a pack giving its cards at `places` (a slice where they follow one another)."""
    if places[-1] - places[0] == len(places) - 1:
        return itemgetter(slice(places[0], places[-1] + 1))
    return itemgetter(*places)


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


def set_aside(st, pack: list, zone: str, cards) -> list:
    """Put the cards the expression `cards` names that are in the pack into the shared zone `zone` (in deck
    order: cards are numbered so); the pack without them."""
    out = set(cards(st)).intersection(pack)
    if not out:
        return pack
    st.zones[st.zone_ids[zone][0]].extend(sorted(out))
    return [c for c in pack if c not in out]
