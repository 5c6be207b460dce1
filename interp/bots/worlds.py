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
exact under its condition. `Drawn.rejected` counts them. After CHAIN_AFTER rejections in one draw the worlds
of the view are steps of a Metropolis chain (`walked`) from a layout that passed the check (the sketch's own, or
one a climb from it finds: `mended`). A view whose probe cannot be found, or whose chain has no start, falls back
to the probe's own repair-and-replay search with every void enforced (`Drawn.fallback`), and that world becomes
the view's plan and the chain's start (`rebase`): only the first world of such a view pays the search. The
order of a hidden hand's cards is not the view's to know: an announcement, or a `list[card]` var, that lists
them in another order passes the check (`_alike`).

The distribution: uniform over the ways to put the free cards into the probe's slots that respect the constraints
and pass the check (slots with the same constraints taken as one place, so a card's place, not its slot, is what is
uniform); the chain's worlds tend to the same distribution over the part of it the chain reaches, correlated. When
every proof is made after the last hidden move (every shipped game: passes and discards come before the play), the
slots of one place are the hidden places' own, and a world is uniform over the consistent *current* layouts of the
free cards. Where the hidden hands decide whose turn it is, the sketch's bans (per slot) and needs (one of some
slots takes one of some cards, checked before the replay) come from its own deal (`bots.turns`): exact for a rule
"holds some card such that …", checked in full otherwise. The hidden history (who was dealt which card before a
hidden exchange; in what order the viewer drew the cards it holds) is the probe's, relabelled. It is not the
Bayesian posterior: a seat that bid high is not assumed to hold good cards, nor are hidden discards weighted by how
likely a player was to make them (the usual approximation of determinized search).
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, replace

from interp.bots.knowledge import knowledge
from interp.bots.layouts import Layouts
from interp.bots.probe import TRIES, _fresh, _match_order, _same, find
from interp.bots.repair import masked
from interp.bots.sketch import UNCHECKED, sketch
from interp.engine import match as engine
from interp.engine.events import phase_of
from interp.engine.phases.tricks import TricksPhase
from interp.engine.state import Move, State
from interp.errors import InterpError

CHECKS = 200  # relabelled worlds that fail the check, at most, in one draw before the fallback
CHAIN_AFTER = 20  # worlds the check rejects in one draw before the draws become steps of a chain (`walked`)
SKETCHES = 8  # sketches tried, at most, before the probe's repairing search (`find`)
PROBE_TRIES = 60  # layouts that search tries, at most
MEND = 80  # exchanges, at most, of the climb that looks for a start of the chain (`mended`)


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
                if rejected >= CHAIN_AFTER or self.chained:
                    drawn = None if self.unchained else self.walked(plan, rng, work, rejected)
                    if drawn is not None:
                        return drawn
                    if self.unchained:  # (the plan's own layout fails the check: the fallback starts a chain)
                        break
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
        self.rebase(probe)
        world = probe.world
        world.seed = rng.getrandbits(32)
        return Drawn(world, work + probe.work, rejected, True)

    def rebase(self, probe) -> None:
        """Make the fallback's world the plan, and its layout the start of the chain: the next draws are steps of a
        chain from it (`walked`), each a replay, instead of a search each. When its own layout, replayed, fails
        the check after all, the next draw falls back again."""
        trail = self._trail()
        try:
            _build(self.view, probe, trail)
        except InterpError:  # (the probe was replayed once already: this cannot fail, but if it did)
            return
        self.plan = self._layouts(probe, trail)
        self.chain, self.chained, self.unchained = None, True, False

    # -- the probe and its slots ----------------------------------------------------------------------------------
    def _plan(self, limit: int | None) -> tuple:
        """(the plan, or None when neither a sketch nor the probe was found; the work it took)."""
        view = self.view
        self.barred = _barred(view, self.free)
        trail = self._trail()
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
        plan = self._layouts(probe, trail)
        return plan, probe.work + plan.layouts.work

    def _trail(self) -> "Trail":
        """An empty trail watching the hands of the seats the trick rules proved something about."""
        proved = {seat for seat, _, _, _ in self.kn.proofs}
        return Trail({z: s for z, s in self.kn.hands.items() if s in proved}, list(self.barred))

    def _layouts(self, probe, trail: "Trail") -> _Plan:
        """The plan of a probe whose deal `trail` followed: its free cards as slots, grouped into places by their
        constraints, and the exact layouts of the free cards into them."""
        kn, free = self.kn, self.free
        slots = {c: trail.constraints(c, kn.proofs) for c in free}
        places = sorted(set(slots.values()), key=repr)
        index = {sig: k for k, sig in enumerate(places)}
        members: list = [[] for _ in places]
        for x, sig in slots.items():
            members[index[sig]].append(x)
        classes: dict = {}
        for c in free:
            allowed = tuple(k for k, sig in enumerate(places) if self._allowed(c, sig))
            classes.setdefault(allowed, []).append(c)
        layouts = Layouts([len(m) for m in members], [(cards, allowed) for allowed, cards in classes.items()])
        needs = tuple((frozenset(slots), cards) for slots, cards in trail.needs)
        return _Plan(probe.seed, probe.layout, probe.moves, members, layouts, needs)

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
        passed (at first the sketch's own, or the one `mended` climbs to from it), an exchange of two free cards
        of different slots, kept when each card's new place allows it and the world it gives passes the check,
        else the layout stays. The proposal is symmetric (any two slots, of the same place too: which of a
        place's slots a card takes changes the world) and a refused one leaves the chain where it was, so its
        stationary distribution is uniform over the consistent assignments of the cards to the slots that it
        reaches — the distribution of the independent draws; successive worlds are correlated. None when no
        layout has passed yet and none is found by `mended`."""
        cost = len(plan.moves) + 1
        if self.chain is None:
            places, world, replays = self.mended(plan, rng)
            work += replays * cost
            if world is None:
                self.unchained = True  # (this draw falls back, and the fallback's world starts the chain: `rebase`)
                return None
            self.chain, self.chained = places, True
            return Drawn(world, work, rejected)
        self.chained = True
        places = _exchanged(self.chain, _allowed_places(plan.layouts), rng)
        if places is not None:
            work += cost
            world = self.relabelled(plan, places, rng)
            if world is not None:
                self.chain = places
                return Drawn(world, work, rejected)
            rejected += 1
        work += cost
        world = self.relabelled(plan, self.chain, rng)
        return None if world is None else Drawn(world, work, rejected)

    def mended(self, plan: _Plan, rng) -> tuple:
        """(a layout that passes the check, its world, the replays it took), found by a climb from the sketch's own
        layout — which the sketch made to follow the view's decisions but not always its words (a declaration a
        hidden hand makes, a seat the turns rule out) — or (None, None, replays) after MEND exchanges. An exchange
        of two free cards of different slots (each allowed in its new place, the plan's needs met: `_meets_needs`,
        else not replayed) is kept when its world shows at least as much of the view as before (`_closeness`: the
        events matched from the start, then how few words and cards differ in the first one that does not). It
        only looks for a start of the chain: the chain's steps are what is drawn."""
        places = [list(cards) for cards in plan.slots]
        world, replays = self.relabelled(plan, places, rng), 1
        if world is not None:
            return places, world, replays
        allowed = _allowed_places(plan.layouts)
        near = _closeness(self._replayed(plan, places, rng)[0], self.view)
        for _ in range(MEND if sum(map(len, places)) > 1 else 0):
            trial = _exchanged(places, allowed, rng)
            if trial is None or not _meets_needs(plan, trial):
                continue
            replays += 1
            replayed, whole = self._replayed(plan, trial, rng)
            closeness = _closeness(replayed, self.view)
            if closeness >= near:
                places, near = trial, closeness
                world = self._shows(replayed, whole, rng)
                if world is not None:
                    return places, world, replays
        return None, None, replays

    # -- one world -----------------------------------------------------------------------------------------------
    def relabelled(self, plan: _Plan, places: list, rng) -> State | None:
        """The probe's deal with its free cards relabelled (slot -> the card `places` puts there), replayed; None
        when the world does not show the view again (known before the replay when the layout misses one of the
        plan's needs)."""
        if not _meets_needs(plan, places):
            return None  # (a seat given the turn for holding some card holds none: no replay needed to know)
        world, whole = self._replayed(plan, places, rng)
        return self._shows(world, whole, rng)

    def _shows(self, world: State, whole: bool, rng) -> State | None:
        """`world`, a relabelled replay, given the view's order of what it lists and a seed of its own, when it
        went through (`whole`) and shows the view again; else None."""
        if not whole or not _agrees(world, self.view):
            return None
        _announced_as(world, self.view)
        _match_order(world, self.view)
        world.seed = rng.getrandbits(32)
        return world

    def _replayed(self, plan: _Plan, places: list, rng) -> tuple:
        """(the probe's deal relabelled and replayed as far as it goes — to a move the relabelled world does not
        allow, at most —, whether it went through)."""
        pi = _relabelling(plan, places)
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
                        break
                elif events[j].seat != seat and not _proved(phases[world.phase], move):
                    if world.deal_over or world.ph is None or not engine.is_legal(world, phases[world.phase], move):
                        break  # (its legality rests on the rest of the hand: a steal, a claim)
                engine.apply(world, move, check=False)
            else:
                return world, True
        except UNCHECKED:
            pass
        return world, False


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


def _exchanged(places: list, allowed: dict, rng) -> list | None:
    """A copy of the layout `places` (the cards in each place's slots) with the cards of two slots drawn at random
    exchanged, or None when a card's new place does not allow it (`allowed`: card -> its places) or there are
    not two slots."""
    spots = [(p, i) for p, cards in enumerate(places) for i in range(len(cards))]
    if len(spots) < 2:
        return None
    (p, i), (q, k) = rng.sample(spots, 2)
    a, b = places[p][i], places[q][k]
    if q not in allowed[a] or p not in allowed[b]:
        return None
    trial = [list(cards) for cards in places]
    trial[p][i], trial[q][k] = b, a
    return trial


def _allowed_places(layouts: Layouts) -> dict:
    """{card: the places it may take} in a layout problem."""
    everywhere = frozenset(range(len(layouts.sizes)))
    out = {c: everywhere for c in layouts.free}
    for cards, places in layouts.classes:
        out.update((c, frozenset(places)) for c in cards)
    return out


def _alike(got, want) -> bool:
    """Whether a world's event shows what the view's does: the same, or an announcement of the same words and
    cards, listed in another order (the order of a hidden hand, which no world can know from the view:
    `_announced_as` then gives the world's log the view's order).

    >>> from interp.engine.events import Event
    >>> _alike(Event("announce", 0, (3, 1), "North: 7"), Event("announce", 0, (1, 3), "North: 7"))
    True
    """
    if _same(got, want):
        return True
    return got.kind == want.kind == "announce" and sorted(got.cards) == sorted(want.cards) and \
        replace(got, cards=want.cards) == want


def _listed_alike(seen: State, view: State) -> bool:
    """Whether a world's view has the view's vars, a `list[card]` var's cards in any order (what a seat told of
    its hand, in the order of a hidden hand: `_alike`)."""
    for name, value in view.vars.items():
        got = seen.vars.get(name)
        if got == value:
            continue
        decl = view.game.vars.get(name)
        if decl is None or decl.type != "list[card]" or got is None:
            return False
        rows = list(zip(got, value)) if decl.per_seat else [(got, value)]
        if not all(sorted(a or []) == sorted(b or []) for a, b in rows):
            return False
    return True


def _announced_as(world: State, view: State) -> None:
    """Give the world's log the view's order of the cards of each announcement (see `_alike`), and its
    `list[card]` vars the view's order of the cards the view shows (`_listed_alike`)."""
    seen = world.view(view.viewer)
    for name, value in view.vars.items():
        if seen.vars.get(name) == value:
            continue  # (equal, or hidden from the viewer in both)
        if not view.game.vars[name].per_seat:
            world.vars[name] = list(value)
            continue
        world.vars[name] = [list(b) if a != b else c for a, b, c in zip(seen.vars[name], value, world.vars[name])]
    seat, k = view.viewer, 0
    for i in range(world.deal_events, len(world.events)):
        event = world.events[i]
        if event.audience is None or seat in event.audience:
            if event != view.events[k] and event.kind == "announce":
                world.events[i] = view.events[k]
            k += 1


def _closeness(world: State, view: State) -> tuple:
    """How much of `view` a replayed world shows, comparable: (the view's events it logs from the start, minus
    the words and cards that differ in the first one it does not log: 0 when it logs them all)."""
    events = [e for e in world.events[world.deal_events:] if e.audience is None or view.viewer in e.audience]
    k = next((k for k, (a, b) in enumerate(zip(events, view.events)) if not _alike(a, b)),
             min(len(events), len(view.events)))
    apart = _words_apart(events[k], view.events[k]) if k < min(len(events), len(view.events)) else 0
    return k, -apart


def _words_apart(a, b) -> int:
    """The words and cards of two events that the other does not have.

    >>> from interp.engine.events import Event
    >>> a = Event("announce", 1, value="point of six, 55")
    >>> b = Event("announce", 1, value="point of five, 48")
    >>> _words_apart(a, b), _words_apart(b, b)
    (4, 0)
    """
    words = set(str(a.value).split()) ^ set(str(b.value).split())
    return len(words) + len(set(a.cards) ^ set(b.cards))


def _relabelling(plan: _Plan, places: list) -> dict:
    """{the probe's free card (a slot): the card `places` puts there}."""
    return {x: c for slots, cards in zip(plan.slots, places) for x, c in zip(slots, cards)}


def _meets_needs(plan: _Plan, places: list) -> bool:
    """Whether, relabelled by the layout `places`, each of the plan's needs holds — one of its slots takes one of
    its cards (a seat the sketch gave a turn for holding some card holds one) —, known without a replay."""
    if not plan.needs:
        return True
    pi = _relabelling(plan, places)
    return all(holds(slots, cards, pi) for slots, cards in plan.needs)


def _agrees(world: State, view: State) -> bool:
    """Whether `world` shows `view` again: the same visible events (an announcement's cards in any order),
    zones (as sets) and vars."""
    seat = view.viewer
    events = [e for e in world.events[world.deal_events:] if e.audience is None or seat in e.audience]
    if len(events) != len(view.events) or not all(map(_alike, events, view.events)):
        return False
    seen = world.view(seat)
    if seen.hidden != view.hidden or (seen.vars != view.vars and not _listed_alike(seen, view)):
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
