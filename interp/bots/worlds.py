"""Sampling worlds: complete states consistent with a view, built from the view alone (`sample_world`).

The cards a view never locates (never in one of its zones, never named by one of its events: the *free* cards)
are the whole of what a world must choose; everything else — where a played card went, what a called partner or a
holder var is, the events — follows from the rules. So a world is drawn in two steps:

1. **A probe, once per view** (`bots.probe`): one world consistent with the view, found by replaying the deal and
   repairing it, with the trick rules' voids not enforced (they are the next step's business), and the deal it
   was made from: its chance seed, its first layout and the moves replayed. Each free card of the probe is a
   *slot*: a path through the deal (dealt to a hand, passed to another, kept to the end). Its seed is drawn from
   the view itself, so a seed gives the same worlds however often the view was sampled before.
2. **Exact relabelling, per world** (`bots.layouts`): the free cards are dealt anew into the probe's slots under
   every constraint the view implies on a card's path: the voids and trump caps the trick rules proved (a slot
   that was in a seat's hand when a proof about that seat was made, or later, may not take a card the proof
   excludes), and the cards a discard's `allowed` rule never lets go (not in a slot that lay in that discard's
   zone). Slots with the same constraints are one place, cards with the same allowed places one class; the
   layouts are counted exactly (a dynamic programme over the classes) and one is drawn uniformly. The probe's
   deal, relabelled, is then replayed — its hidden moves (another seat's discard or pass) relabelled too — so
   every var the rules set from the cards is computed by the rules themselves.

The world replayed must show the view again (its visible events, zones and vars); one that does not is drawn
again. That check is the only rejection: it happens when a rule's constraint on hidden cards cannot be expressed
as a constraint on a card's path — what a declaration says of a hand (a point of 43, these sequences and no
other), a move whose legality depends on the rest of the hand — so those parts are a checked draw: rejection,
exact under its condition. `Drawn.rejected` counts them. A view whose probe cannot be found, or whose relabelled
worlds keep failing the check (`CHECKS`), falls back to the probe's own repair-and-replay search with every void
enforced (`Drawn.fallback`).

The distribution: uniform over the ways to put the free cards into the probe's slots that respect the constraints
and pass the check (slots with the same constraints taken as one place, so a card's place, not its slot, is what
is uniform). When every proof is made after the last hidden move (every shipped game: passes and discards come
before the play), the slots of one place are the hidden places' own, and a world is uniform over the consistent
*current* layouts of the free cards. That holds for the independent draws; once a draw has had `CHAIN_AFTER`
worlds rejected, the view's next worlds are steps of a Metropolis chain (`walked`) — uniform over the consistent
layouts it reaches in the limit, its worlds correlated — started from the sketch's own layout or one a local
search finds from it (`mended`). Where the hidden hands decide whose turn it is, the sketch's bans (per slot)
and needs (one of some slots takes one of some cards, checked before the replay) come from its own deal
(`bots.turns`): exact for a rule "holds some card such that …", checked in full otherwise. The hidden history
(who was dealt which card before a hidden exchange; in what order the viewer drew the cards it holds) is the
probe's, relabelled. It is not the Bayesian posterior: a seat that bid high is not assumed to hold good cards,
nor are hidden discards weighted by how likely a player was to make them (the usual approximation of
determinized search).
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

from interp.bots.knowledge import knowledge
from interp.bots.layouts import Layouts
from interp.bots.probe import TRIES, _fresh, _match_order, _same, find
from interp.bots.repair import masked
from interp.bots.sketch import UNCHECKED, sketch
from interp.bots.turns import rests_on_hands
from interp.engine import match as engine
from interp.engine.events import phase_of
from interp.engine.phases.tricks import TricksPhase
from interp.engine.state import Move, State
from interp.errors import InterpError

CHECKS = 200  # relabelled worlds that fail the check, at most, in one draw before the fallback
CHAIN_AFTER = 20  # worlds the check rejects in one draw before the draws become steps of a chain (`walked`)
SKETCHES = 3  # sketches tried, at most, before the probe's repairing search (`find`)
PROBE_TRIES = 60  # layouts that search tries, at most
MEND = 60  # exchanges, at most, the search for a first layout that passes the check tries (`mended`: only in a
# game whose turns rest on the hidden hands, `bots.turns.rests_on_hands`, elsewhere its cost was a p99 tail)


class SamplingError(InterpError):
    """No world consistent with the view was found within the bounded number of tries."""


def sample_world(view: State, rng, tries: int = TRIES) -> State:
    """A complete state of the same match at the same point, consistent with `view` (see the module docstring).

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> view = st.view(engine.to_move(st))
    >>> world = sample_world(view, random.Random(1))
    >>> world.view(view.viewer).zones == view.zones
    True
    """
    drawn = draw_world(view, rng, tries)
    if drawn.world is None:
        raise SamplingError(f"no world consistent with the view of seat {view.viewer} in {tries} tries "
                            f"(deal {view.deal_no}, {len(view.events)} events)")
    return drawn.world


@dataclass(frozen=True)
class Drawn:
    """What `draw_world` gives: the `world` (None when none was found) and the `work` it took, counted in moves
    replayed (every decision replayed or tried, and every deal dealt, counts one), a measure that does not depend
    on the machine, comparable to the moves of a playout; `rejected`: worlds drawn that failed the check;
    `fallback`: whether the world came from the repairing search (no probe, or too many rejected)."""

    world: State | None
    work: int
    rejected: int = 0
    fallback: bool = False


def draw_world(view: State, rng, tries: int = TRIES, limit: int | None = None) -> Drawn:
    """`sample_world` with its cost: stops after `tries` worlds, or as soon as the work passes `limit`. The view's
    probe is found on the first call for a view and kept for the next calls with the same view object.

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> drawn = draw_world(st.view(engine.to_move(st)), random.Random(1))
    >>> drawn.world is not None and drawn.work > 0
    True
    """
    return sampler_for(view).draw(rng, tries, limit)


_last: list = []  # [view, what it shows, its WorldSampler]: the last view sampled, whose sketch is kept


def sampler_for(view: State) -> "WorldSampler":
    """The `WorldSampler` of `view`: the last one made when `view` is the same object or shows the same (a view
    made anew of the same position, as an adapter makes one per sample), else a new one."""
    if _last and _last[0] is view:
        return _last[2]
    shows = _shows(view)
    if _last and _last[1] == shows:
        _last[0] = view
        _last[2].unpaid = True  # (its first draw is charged the sketch as if made anew: the same work either way)
        return _last[2]
    sampler = WorldSampler(view)
    _last[:] = [view, shows, sampler]
    return sampler


def _shows(view: State) -> tuple:
    """Everything a world drawn from `view` depends on, comparable: the game, the seat, the match and deal as the
    view shows them."""
    return (view.game, view.n, view.viewer, view.deal_no, view.dealer, view.phase, tuple(view.events),
            tuple(map(tuple, view.zones)), repr(view.vars), repr(view.sheet), repr(view.options), tuple(view.active))


@dataclass(frozen=True)
class _Plan:
    """A probe's deal (`seed`, `layout`, `moves`) and the exact layouts of the free cards into its slots: `slots`
    holds, per place of `layouts`, the probe's free cards that are its slots."""

    seed: int
    layout: dict
    moves: list
    slots: list
    layouts: Layouts
    needs: tuple = ()  # (slots' cards, the cards one of them must take): the sketch's `Trail.needs`


class WorldSampler:
    """Sampling one view's worlds: its probe and layouts, made on the first draw and kept for the next ones."""

    def __init__(self, view: State):
        if view.viewer is None:
            raise ValueError("sample_world takes a view (state.view(seat)), not a full state")
        self.view, self.seat = view, view.viewer
        self.kn = knowledge(view)
        located = set(self.kn.known)
        for event in view.events:
            located.update(event.cards)
        self.free = [c for c in range(len(view.game.deck)) if c not in located]
        self.escape = {c for e in view.events if e.kind == "tricks" for c in e.cards}
        self.barred: dict = {}
        self.plan: _Plan | None = None
        self.planned = False
        self.plan_work = 0  # the work the plan took
        self.unpaid = True  # whether the next draw is charged it (the first from each view object)
        self.chain: list | None = None  # the last layout that passed the check (its cards per place)
        self.unchained = False  # whether the sketch's own layout failed the check: no chain for this view
        self.chained = False  # whether the draws are steps of the chain (`walked`) from now on

    def draw(self, rng, tries: int = TRIES, limit: int | None = None) -> Drawn:
        """One world (see `draw_world`)."""
        work = 0
        if tries <= 0:
            return Drawn(None, 0)
        if not self.planned:
            self.planned = True
            self.plan, self.plan_work = self._plan(limit)
        if self.unpaid:
            work, self.unpaid = self.plan_work, False
        plan, rejected = self.plan, 0
        if plan is not None and plan.layouts.total:
            cost = len(plan.moves) + 1
            for _ in range(min(tries, CHECKS)):
                if (rejected >= CHAIN_AFTER or self.chained) and not self.unchained:
                    drawn = self.walked(plan, rng, work, rejected)
                    if drawn is not None:
                        return drawn
                work += cost
                places = plan.layouts.draw(rng)
                world = self.relabelled(plan, places, rng)
                if world is not None:
                    self.chain = places
                    return Drawn(world, work, rejected)
                rejected += 1
                if limit is not None and work > limit:
                    return Drawn(None, work, rejected)
        probe = find(self.view, rng, tries, strict=True, limit=None if limit is None else max(0, limit - work))
        if probe is None:
            return Drawn(None, max(work, limit or 0), rejected, True)
        world = probe.world
        world.seed = rng.getrandbits(32)
        return Drawn(world, work + probe.work, rejected, True)

    # -- the probe and its slots ----------------------------------------------------------------------------------
    def _plan(self, limit: int | None) -> tuple:
        """(the plan, or None when neither a sketch nor the probe was found; the work it took)."""
        view, kn = self.view, self.kn
        proved = {seat for seat, _, _, _ in kn.proofs}
        self.barred = _barred(view, self.free)
        trail = Trail({z: s for z, s in kn.hands.items() if s in proved}, list(self.barred))
        prng = random.Random(_key(view))
        kept = None  # (a sketch whose turns were fixed but whose deal fails the check, and its trail's records)
        for _ in range(SKETCHES):
            trail.clear()
            probe = sketch(view, prng, trail)
            if probe is not None and (not probe.fixed or self._replays(probe, prng)):
                break
            if probe is not None and kept is None:
                kept = probe, trail.records()
        else:
            probe = None
        if probe is None and kept is not None:
            probe, records = kept
            trail.restore(records)
        if probe is None:
            probe = find(view, prng, PROBE_TRIES, strict=True, limit=limit)
            if probe is None:
                return None, limit or 0
            trail.clear()
            try:
                _build(view, probe, trail)
            except InterpError:  # (the probe was replayed once already: this cannot fail, but if it did)
                return None, probe.work
        self.free = [c for c in self.free if c not in probe.seen]
        slots = {c: trail.constraints(c, kn.proofs) for c in self.free}
        places = sorted(set(slots.values()), key=repr)
        index = {sig: k for k, sig in enumerate(places)}
        members: list = [[] for _ in places]
        for x, sig in slots.items():
            members[index[sig]].append(x)
        classes: dict = {}
        for c in self.free:
            allowed = tuple(k for k, sig in enumerate(places) if self._allowed(c, sig))
            classes.setdefault(allowed, []).append(c)
        layouts = Layouts([len(m) for m in members], [(cards, allowed) for allowed, cards in classes.items()])
        needs = tuple((frozenset(slots), cards) for slots, cards in trail.needs)
        plan = _Plan(probe.seed, probe.layout, probe.moves, members, layouts, needs)
        return plan, probe.work + layouts.work

    def _replays(self, probe, rng) -> bool:
        """Whether the probe's own deal, replayed, passes the check."""
        return self.relabelled(_Plan(probe.seed, probe.layout, probe.moves, [], Layouts([], [])), [], rng) is not None

    def _allowed(self, card: int, sig: tuple) -> bool:
        """Whether `card` may take a slot with these constraints."""
        proofs, zones, banned = sig
        kn = self.kn
        if card in banned or any(card in self.barred[z] for z in zones):
            return False
        if card in self.escape:
            return True
        suit = kn.suits[card]  # (the trick phase's effective suit)
        for k in proofs:
            _, proved, cap, _ = kn.proofs[k]
            if proved == suit and (cap is None or kn.strength[card] > cap):
                return False
        return True

    # -- the chain, when the check rejects too many ------------------------------------------------------------
    def walked(self, plan: _Plan, rng, work: int, rejected: int) -> Drawn | None:
        """The next world of a Metropolis chain over the layouts that pass the check: from the last layout that
        passed (at first the sketch's own), an exchange of two free cards, kept when it moves each card to a place
        that allows it and the world it gives passes the check, else the layout stays. The proposal is symmetric
        and a refused one leaves the chain where it was, so its stationary distribution is uniform over the
        consistent layouts it reaches; successive worlds are correlated. None when no layout has passed yet and
        the sketch's own does not."""
        cost = len(plan.moves) + 1
        if self.chain is None:
            work += cost
            start: list | None = [list(cards) for cards in plan.slots]
            if self.relabelled(plan, plan.slots, rng) is None:
                start, spent = self.mended(plan, rng) if rests_on_hands(self.view.game) else (None, 0)
                work += spent
            if start is None:
                self.unchained = True  # (the draws stay independent)
                return None
            self.chain = start
        self.chained = True
        allowed = _allowed_places(plan.layouts)
        spots = [(p, i) for p, cards in enumerate(self.chain) for i in range(len(cards))]
        if len(spots) > 1:
            (p, i), (q, k) = rng.sample(spots, 2)
            a, b = self.chain[p][i], self.chain[q][k]
            if p != q and q in allowed[a] and p in allowed[b]:
                places = [list(cards) for cards in self.chain]
                places[p][i], places[q][k] = b, a
                work += cost
                world = self.relabelled(plan, places, rng)
                if world is not None:
                    self.chain = places
                    return Drawn(world, work, rejected)
                rejected += 1
        work += cost
        world = self.relabelled(plan, self.chain, rng)
        return None if world is None else Drawn(world, work, rejected)

    # -- one world -----------------------------------------------------------------------------------------------
    def relabelled(self, plan: _Plan, places: list, rng) -> State | None:
        """The probe's deal with its free cards relabelled (slot -> the card `places` puts there), replayed; None
        when the world does not show the view again."""
        pi = _relabelling(plan, places)
        if not all(holds(slots, cards, pi) for slots, cards in plan.needs):
            return None  # (a seat given the turn for holding some card holds none: no replay needed to know)
        world, whole = self.replayed(plan, pi, rng)
        if not whole or not _agrees(world, self.view):
            return None
        _match_order(world, self.view)
        world.seed = rng.getrandbits(32)
        return world

    def replayed(self, plan: _Plan, pi: dict, rng) -> tuple:
        """(the probe's deal relabelled by `pi` and replayed as far as it goes, whether every move was made)."""
        layout = {z: [pi.get(c, c) for c in cards] for z, cards in plan.layout.items()}
        world = _fresh(self.view, plan.seed)
        world.stack = layout
        events, phases, seat = self.view.events, world.game.phases, self.seat
        try:
            engine.advance(world)
            for j, move in plan.moves:
                if masked(events[j]):
                    move = _hidden(world, move, pi, rng)
                    if move is None:
                        return world, False
                elif events[j].seat != seat and not _proved(phases[world.phase], move):
                    if world.deal_over or world.ph is None or not engine.is_legal(world, phases[world.phase], move):
                        return world, False  # (its legality rests on the rest of the hand: a steal, a claim)
                engine.apply(world, move, check=False)
        except UNCHECKED:
            return world, False
        return world, True

    def mended(self, plan: _Plan, rng) -> tuple:
        """(a layout that passes the check, or None; the work it took), found by a local search from the
        sketch's own when that fails: an exchange of two free cards, each allowed where the other lies, is kept
        when the relabelled deal shows at least as much of the view before it first differs (`_shown`), up to
        MEND exchanges (a sketch that follows the view may still hold a hand the turns rule out)."""
        allowed = _allowed_places(plan.layouts)
        places = [list(cards) for cards in plan.slots]
        spots = [(p, i) for p, cards in enumerate(places) for i in range(len(cards))]
        best, work, cost = -1, 0, len(plan.moves) + 1
        for _ in range(MEND if len(spots) > 1 else 0):
            (p, i), (q, k) = rng.sample(spots, 2)
            a, b = places[p][i], places[q][k]
            if q not in allowed[a] or p not in allowed[b]:
                continue
            places[p][i], places[q][k] = b, a
            work += cost
            if self.relabelled(plan, places, rng) is not None:
                return places, work
            got = _shown(self.replayed(plan, _relabelling(plan, places), rng)[0], self.view)
            if got >= best:
                best = got
            else:
                places[p][i], places[q][k] = a, b
        return None, work


class Trail:
    """Where the cards lay as a sketch went, for the constraints on a slot's path: the last view event index at
    which each card lay in each watched `hands` zone ({zone id: seat}, a seat the trick rules proved something
    about), and the restricted discard `zones` it lay in. A sketch that swaps two cards swaps their records."""

    def __init__(self, hands: dict, zones: list):
        self.hands, self.zones = hands, zones
        self.last: dict = {}  # (card, seat) -> view event index
        self.visited: dict = {}  # card -> set of zone ids
        self.banned: dict = {}  # card -> the cards its slot may not take
        self.needs: list = []  # [the cards in some slots, the cards one of those slots must take]

    def clear(self) -> None:
        self.last, self.visited, self.banned, self.needs = {}, {}, {}, []

    def records(self) -> tuple:
        """What the trail holds, to be put back by `restore`."""
        return self.last, self.visited, self.banned, self.needs

    def restore(self, records: tuple) -> None:
        self.last, self.visited, self.banned, self.needs = records

    def ban(self, slots: list, cards: frozenset) -> None:
        """The free cards `slots` lie where none of `cards` may be (a seat's hand when its hidden cards decided
        whose turn it was: `bots.turns`)."""
        for x in slots:
            self.banned[x] = self.banned.get(x, frozenset()) | cards

    def need(self, slots: list, cards: frozenset) -> None:
        """One of the free cards `slots` lies where one of `cards` must be (a seat's hand when holding such a card
        gave it the turn: `bots.turns`)."""
        self.needs.append([set(slots), cards])

    def keeps(self, x: int, y: int) -> bool:
        """Whether exchanging the free cards x and y (each takes the other's slot) respects every ban and need.

        >>> trail = Trail({}, [])
        >>> trail.ban([1], frozenset({7})); trail.need([2, 3], frozenset({2, 9}))
        >>> trail.keeps(1, 7), trail.keeps(2, 5), trail.keeps(2, 9), trail.keeps(4, 5)
        (False, False, True, True)
        """
        none: frozenset = frozenset()
        if y in self.banned.get(x, none) or x in self.banned.get(y, none):
            return False
        return all(holds(_relabelled_set(slots, x, y), cards) for slots, cards in self.needs)

    def note(self, j: int, world: State) -> None:
        """Record where the cards lie before the view's event j (the end: j = the number of events)."""
        for zid, seat in self.hands.items():
            for c in world.zones[zid]:
                self.last[c, seat] = j
        for zid in self.zones:
            for c in world.zones[zid]:
                self.visited.setdefault(c, set()).add(zid)

    def swap(self, x: int, y: int) -> None:
        for seat in set(self.hands.values()):
            a, b = self.last.pop((x, seat), None), self.last.pop((y, seat), None)
            if a is not None:
                self.last[y, seat] = a
            if b is not None:
                self.last[x, seat] = b
        for records in (self.visited, self.banned):
            a, b = records.pop(x, None), records.pop(y, None)
            if a is not None:
                records[y] = a
            if b is not None:
                records[x] = b
        for need in self.needs:
            need[0] = _relabelled_set(need[0], x, y)

    def constraints(self, card: int, proofs: list) -> tuple:
        """(the proofs that apply to the card's path: it lay in the proved seat's hand when the proof was made, or
        later; the restricted zones it lay in; the cards its slot may not take)."""
        applied = frozenset(k for k, (seat, _, _, t) in enumerate(proofs) if self.last.get((card, seat), -1) >= t)
        return applied, frozenset(self.visited.get(card, ())), self.banned.get(card, frozenset())


def holds(slots, cards: frozenset, pi: dict | None = None) -> bool:
    """Whether one of the free cards `slots`, relabelled by `pi` ({slot's card: card}), is one of `cards`."""
    return any((c if pi is None else pi.get(c, c)) in cards for c in slots)


def _relabelled_set(cards: set, x: int, y: int) -> set:
    """`cards` with x and y exchanged."""
    if (x in cards) == (y in cards):
        return cards
    return (cards - {x, y}) | ({y} if x in cards else {x})


def _build(view: State, probe, trail: Trail) -> None:
    """Replay the probe's deal, noting where the cards lie on the `trail`."""
    world = _fresh(view, probe.seed)
    world.stack = {z: list(cards) for z, cards in probe.layout.items()}
    engine.advance(world)
    for j, move in probe.moves:
        trail.note(j, world)
        engine.apply(world, move, check=False)
    trail.note(len(view.events), world)


def _proved(phase, move: Move) -> bool:
    """Whether the move's legality in a relabelled world is settled by the proofs the slots respect: a card
    played in a trick phase whose only rules on a hand are following, trumping and overtrumping."""
    return move.kind == "card" and isinstance(phase, TricksPhase) and phase.allowed is None


def _hidden(world: State, move: Move, pi: dict, rng) -> Move | None:
    """A hidden move of the probe in the relabelled world: a card relabelled (None when that is not legal), any
    other move as it was when legal, else one of the legal moves of its kind (a private claim the hand allows)."""
    legal = engine.legal_moves(world)
    if move.kind == "card":
        move = world.game.card_moves[pi.get(move.value, move.value)]
        return move if move in legal else None
    if move in legal:
        return move
    same = [m for m in legal if m.kind == move.kind]
    return rng.choice(same) if same else None


def _allowed_places(layouts: Layouts) -> dict:
    """{card: the places it may take} in a layout problem."""
    everywhere = frozenset(range(len(layouts.sizes)))
    out = {c: everywhere for c in layouts.free}
    for cards, places in layouts.classes:
        out.update((c, frozenset(places)) for c in cards)
    return out


def _relabelling(plan: _Plan, places: list) -> dict:
    """{the probe's free card (a slot): the card `places` puts there}."""
    return {x: c for slots, cards in zip(plan.slots, places) for x, c in zip(slots, cards)}


def _shown(world: State, view: State) -> int:
    """How many of the view's events `world` logged alike, from the first, before the first that differs."""
    seat, events = view.viewer, view.events
    got = [e for e in world.events[world.deal_events:] if e.audience is None or seat in e.audience]
    return next((k for k, (a, b) in enumerate(zip(got, events)) if not _same(a, b)), min(len(got), len(events)))


def _agrees(world: State, view: State) -> bool:
    """Whether `world` shows `view` again: the same visible events, zones (as sets) and vars."""
    seat = view.viewer
    events = [e for e in world.events[world.deal_events:] if e.audience is None or seat in e.audience]
    if len(events) != len(view.events) or not all(map(_same, events, view.events)):
        return False
    seen = world.view(seat)
    if seen.hidden != view.hidden or seen.vars != view.vars:
        return False
    return all(a == b or sorted(a) == sorted(b) for a, b in zip(seen.zones, view.zones))


def _barred(view: State, free: list) -> dict:
    """{discard zone: the free cards its `allowed` rule never lets go (worked out on the view, for the seat that
    discarded there)}."""
    game, n = view.game, view.n
    out: dict = {}
    for event in view.events:
        if event.kind != "discard" or event.phase is None:
            continue
        phase = phase_of(game, event.phase)
        if getattr(phase, "allowed", None) is None:
            continue
        zid = game.zone_id(phase.target, event.seat, n)
        if zid not in out:
            out[zid] = {c for c in free if not any(tier.holds(view, event.seat, c) for tier in phase.allowed)}
    return out


def _key(view: State) -> int:
    """A number the view's events and zones give, the same in every run: the seed of its probe."""
    text = repr((view.deal_no, view.viewer, [(e.kind, e.seat, e.cards) for e in view.events], view.zones))
    return zlib.crc32(text.encode())
