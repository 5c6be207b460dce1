"""The probe: one world consistent with a view, found by replaying the deal and repairing it, and the moves that
made it — the template `bots.worlds` relabels into every world it draws.

A world is made by dealing a layout and replaying the deal: the layout is drawn at random under what the viewer
knows (`knowledge`): cards seen in a zone's reveal start there, cards a seat played, showed or (for the viewer)
held start in that seat's hand; every other card is shuffled into the remaining places. The deal is then replayed
move by move from the view's events: a move the view shows is made as logged, a move it hides (another seat's
discard, a private claim) is drawn uniformly from the legal ones. Where the replay needs a card the layout put
elsewhere (a card played that the layout dealt to another seat, a card in the viewer's hand that a hidden
exchange brought), it is swapped in the layout with a card the viewer has never seen from the place where it is
needed (bots.repair); the repaired layout is then dealt and replayed once more from scratch, so that every var the
spec set from the cards is computed by the rules themselves. Every replayed step must log exactly the events the
view holds, and the result must show the same view. What a hidden hand says in a declaration (a point of 43) is
rarely true of a random layout: when the repairing replays fail, a local search from the world as the first
declaration of a `declare` phase is to be made swaps free cards between the hidden hand the replay failed on and
another hidden place (`climb`). A layout that still fails is drawn again, a bounded number of times.

With `strict` off the probe ignores the voids the trick rules proved (moves are replayed without their legality
checked): it is a template of where the cards go, whose never-seen cards `bots.worlds` relabels under every
constraint, so that it need not solve them itself.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from interp.bots.repair import WALK, Repairs, masked, swap
from interp.engine import match as engine
from interp.engine.events import phase_of
from interp.engine.state import State, event_visible

TRIES = 200  # layouts drawn, at most
VAR_FITS = 8  # re-deals, at most, to make the card vars set at the deal name the view's cards
CLIMB = 150  # swaps tried, at most, by the local search (`climb`)
PATIENCE = 40  # swaps it tries, at most, without getting further, before the layout is drawn again
LENIENT_PASSES = 3  # repairing replays, at most, before the clean one


@dataclass(frozen=True)
class Probe:
    """A world found for a view, and how: the chance `seed` of the deal, the `layout` dealt ({zone id: cards}) and
    the `moves` replayed ((index of the view's event the move logged, move), in order); `work`: moves replayed or
    tried to find it; `seen`: cards the view's events do not name that it saw all the same (in a zone, as the
    deal began: a var names them), so that no world may move them; `fixed`: turns a sketch fixed by exchanging
    cards (`bots.sketch`), each of which may undo an earlier turn (its own deal is then checked)."""

    world: State
    seed: int
    layout: dict
    moves: list
    work: int
    seen: frozenset = frozenset()
    fixed: int = 0


def find(view: State, rng, tries: int = TRIES, strict: bool = True, limit: int | None = None) -> Probe | None:
    """A world consistent with `view` (see the module docstring), or None after `tries` layouts or once the work
    passes `limit`.

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> probe = find(st.view(engine.to_move(st)), random.Random(1))
    >>> probe is not None and probe.work > 0
    True
    """
    sampler = _Sampler(view, rng, limit)
    sampler.strict = strict
    for _ in range(tries):
        world = sampler.attempt()
        if world is not None:
            seed, layout, moves = sampler.found
            return Probe(world, seed, layout, moves, sampler.work)
        if sampler.spent():
            break
    return None


class _Sampler(Repairs):
    """One view's sampling: the attempts, on what it knows (bots.repair.Repairs)."""

    def __init__(self, view: State, rng, limit: int | None = None):
        super().__init__(view, rng, limit)
        self.target = _signature(view)
        self.declaring = {p.id for p in view.game.phases if p.type_name == "declare"}
        self.snap: tuple | None = None  # (world, view events matched, world events read) at the first declaration
        self.stuck = 0
        self.found: tuple = ()  # (seed, layout, moves) of the last world found
        self.moves: list | None = None  # while recording: (view event index, move) of each move replayed

    def spent(self) -> bool:
        """Whether the work has passed the limit."""
        return self.limit is not None and self.work > self.limit

    # -- one attempt -------------------------------------------------------------------------------------------------
    def attempt(self) -> State | None:
        seed = self.rng.getrandbits(32)  # the world's own chance (a later shuffle) is drawn afresh
        world = _fresh(self.view, seed)
        layout = self.layout(world)
        if layout is None:
            return None
        choices: dict = {}
        self.deal(world, layout)
        for _ in range(VAR_FITS):  # card vars set as the deal began (the first table cards): the view's cards
            pair = next(((x, y) for x, y in self.var_cards(world) if x != y), None)
            if pair is None:
                break
            swap(world, layout, choices, *pair)
            world = _fresh(self.view, seed)
            self.deal(world, layout)
        for passes in range(LENIENT_PASSES):  # a pass that fails may still have repaired the layout: again
            if passes:
                world = _fresh(self.view, seed)
                self.deal(world, layout)
            if self.replay(world, layout, choices, repair=True):
                break
        else:
            climbed = self.climb(seed, layout, choices) or self.settle(seed, layout, choices)
            if climbed is None:
                return None
            world = climbed
        if not self.fit_visible(world, layout, choices):
            return None
        world = _fresh(self.view, seed)
        self.deal(world, layout)
        self.moves = []
        done = self.replay(world, layout, choices, repair=False)
        moves, self.moves = self.moves, None
        if not done or _signature(world.view(self.seat)) != self.target:
            return None
        self.found = (seed, {z: list(cards) for z, cards in layout.items()}, moves)
        _match_order(world, self.view)
        return world

    def deal(self, world: State, layout: dict) -> None:
        self.work += 1
        world.stack = {z: list(cards) for z, cards in layout.items()}
        engine.advance(world)

    def layout(self, world: State) -> dict | None:
        """{zone id: cards} for the first deal: cards where the view says they start, the rest shuffled."""
        view, rng = self.view, self.rng
        game, n = view.game, view.n
        phase = _deal_phase(game)
        if phase is None:
            return None
        sizes: dict = {}
        for zid, k in phase.packets(world, len(game.deck)):
            sizes[zid] = sizes.get(zid, 0) + k
        left = len(game.deck) - sum(sizes.values())
        if phase.rest is not None and left:
            sizes[game.zone_id(phase.rest, None, n)] = left
        slots = dict(sizes)
        layout: dict[int, list] = {z: [] for z in sizes}
        for card, zid in _pins(view, sizes).items():
            if slots.get(zid, 0) > 0:
                layout[zid].append(card)
                slots[zid] -= 1
        placed = {c for cards in layout.values() for c in cards}
        free = [c for c in range(len(game.deck)) if c not in placed]
        rng.shuffle(free)
        free.sort(key=lambda c: sum(1 for z in slots if slots[z] > 0 and self.allowed(c, z, True)))  # hardest first
        for card in free:
            options = [z for z, k in slots.items() if k > 0 and self.allowed(card, z, True)]
            if not options:
                return None
            zid = rng.choice([z for z in options for _ in range(slots[z])])
            layout[zid].append(card)
            slots[zid] -= 1
        for zid, cards in layout.items():
            rng.shuffle(cards)
            shown = self.order_shown.get(zid)
            if shown:  # a zone the view saw keeps the order it was seen in
                cards.sort(key=lambda c: shown.get(c, len(shown)))
        return layout

    # -- replaying ---------------------------------------------------------------------------------------------------
    def replay(self, world: State, layout: dict, choices: dict, repair: bool, start: tuple = (0, 0),
               snap: bool = False) -> bool:
        """Replay the view's decisions on `world`; False as soon as the world logs what the view does not hold.
        With `repair`, a card a logged move needs is swapped into place first (in the world and the layout).
        `start`: (view events matched, world events read) when resuming from a snapshot; with `snap`, the world
        as the first declaration of a `declare` phase is to be made is kept (`self.snap`) for `climb`. `self.stuck` is left at the
        index of the view's event where the replay failed."""
        seat, events = self.seat, self.view.events
        i, seen = start
        while True:
            fresh = [e for e in world.events[seen:] if event_visible(e, seat)]
            seen = len(world.events)
            for e in fresh:
                self.stuck = i
                if i >= len(events):
                    return False
                if not _same(e, events[i]) and not (repair and self.relabel(world, layout, choices, e, i)):
                    if repair:  # the viewer's hand may be what made the world differ (a declaration it lacks)
                        self.fit_hand(world, layout, choices, i)
                    return False
                i += 1
            self.stuck = i
            if i == len(events):
                return True
            j = next((k for k in range(i, len(events)) if _is_decision(events[k])), None)  # effects log first
            if world.deal_over or j is None or events[j].seat != engine.actor(world):
                if repair and not world.deal_over:
                    self.fit_hand(world, layout, choices, i)
                return False
            self.stuck = j
            self.work += 1
            if snap and self.snap is None and events[j].phase in self.declaring:
                self.snap = (world.copy(), i, seen)
            move = choices.get(j)
            if move is not None and move not in engine.legal_moves(world):
                return False
            move = move or self.move_of(world, j)
            if move is None and repair:
                self.bring(world, layout, choices, j)
                move = self.move_of(world, j)
            if move is None and repair and events[j].seat == self.seat:  # the viewer's own hand, as it ends
                self.fit_hand(world, layout, choices, j)
                move = self.move_of(world, j)
            if move is None and repair:
                move = self.shuffle_until_legal(world, layout, choices, j)
            if move is None:
                return False
            if masked(events[j]):
                choices[j] = move
            if self.moves is not None:
                self.moves.append((j, move))
            engine.apply(world, move, check=False)

    def climb(self, seed: int, layout: dict, choices: dict) -> State | None:
        """What the declarations say of a hidden hand (a point of 43, these sequences and no other) is rarely
        true of a hand drawn at random, and each failure would cost a whole new deal and replay. So, from the
        world as the first declaration is to be made, a local search: swap a free card of the hidden hand the
        replay failed on with a free card of another hidden place, replay only from there, and keep the swap
        when the replay gets at least as far (the swap relabels the two cards in the whole deal, so the layout
        stays a deal of its own). Returns the replayed world once it gets through, else None."""
        world = _fresh(self.view, seed)
        self.deal(world, layout)
        self.snap = None
        if self.replay(world, layout, choices, repair=False, snap=True):
            return world
        if self.snap is None:
            return None
        base, i0, seen0 = self.snap
        best, since = self.stuck, 0
        for _ in range(CLIMB):
            if since > PATIENCE or self.spent():
                return None
            since += 1
            self.work += 1
            pair = self.free_pair(base, self.view.events[min(best, len(self.view.events) - 1)].seat, i0)
            if pair is None:
                return None
            trial_base = base.copy()
            trial_layout = {z: list(cards) for z, cards in layout.items()}
            trial_choices = {k: m for k, m in choices.items() if k < i0}  # the hidden moves from here: drawn anew
            swap(trial_base, trial_layout, trial_choices, *pair)
            world = trial_base.copy()
            done = self.replay(world, trial_layout, trial_choices, repair=False, start=(i0, seen0))
            if self.stuck >= best:
                since = 0 if self.stuck > best else since
                base, best = trial_base, self.stuck
                _adopt(layout, choices, trial_layout, trial_choices)
            if done:
                return world
        return None

    def settle(self, seed: int, layout: dict, choices: dict) -> State | None:
        """Where a `turns` phase's seat to move, or the kinds of move open to it, rest on the hidden hands (a seat
        is asked to add a card only if it holds one that fits; the first to move holds some card), a replay that
        fails at such a decision is climbed like `climb`, but from the deal itself (a rule before the first
        decision may read the hands too): a free card of the seat the view names there, or of the seat the world
        gives the turn, is swapped with one of another hidden place (both unseen by the viewer and named by no
        event of the view: they change nothing it saw before), the deal is dealt and replayed anew, and the swap is
        kept when the replay gets at least as far. Returns the replayed world once it gets through, else None."""
        world = _fresh(self.view, seed)
        self.deal(world, layout)
        if self.replay(world, layout, choices, repair=False):
            return world
        best, since = self.stuck, 0
        for _ in range(CLIMB):
            if since > PATIENCE or self.spent() or not self.in_turns(best):
                return None
            since += 1
            pair = self.turn_pair(world, best)
            if pair is None:
                return None
            trial_layout = {z: list(cards) for z, cards in layout.items()}
            trial_choices = {k: m for k, m in choices.items() if k < best}  # (the hidden moves from there: anew)
            swap(world, trial_layout, trial_choices, *pair)
            world = _fresh(self.view, seed)
            self.deal(world, trial_layout)
            done = self.replay(world, trial_layout, trial_choices, repair=False)
            if self.stuck >= best:
                since = 0 if self.stuck > best else since
                best = self.stuck
                _adopt(layout, choices, trial_layout, trial_choices)
            if done:
                return world
        return None

    def in_turns(self, i: int) -> bool:
        """Whether the view's event i is a decision of a `turns` phase."""
        event = self.view.events[min(i, len(self.view.events) - 1)]
        return _is_decision(event) and event.phase is not None and \
            phase_of(self.view.game, event.phase).type_name == "turns"

    def turn_pair(self, world: State, i: int) -> tuple | None:
        """Two cards that no event of the view names, unseen by the viewer, in different hidden zones of `world`,
        the first in a zone of the seat the view's event i names or of the seat to move in `world` (not the
        viewer), each allowed where the other lies; None when there are none."""
        game, n, rng = world.game, world.n, self.rng
        named = self.named_after[0] | self.visible
        places: dict = {}
        for zid, cards in enumerate(world.zones):
            free = [c for c in cards if c not in named and self.hidden_now(world, c) == zid]
            if free:
                places[zid] = free
        seats = {self.view.events[i].seat, None if world.deal_over else engine.actor(world)}
        if self.seat in seats and rng.random() < 0.5:
            return self.drawn_pair(world, i)
        seats -= {self.seat, None}
        owners = {z: game.zone_of(z, n)[1] for z in places}
        mine = [z for z in places if owners[z] in seats] or [z for z in places if owners[z] not in (self.seat, None)]
        if not mine or len(places) < 2:
            return None
        for _ in range(WALK):
            zx = rng.choice(mine)
            zy = rng.choice([z for z in places if z != zx])
            x, y = rng.choice(places[zx]), rng.choice(places[zy])
            if self.allowed(y, zx) and self.allowed(x, zy):
                return x, y
        return None

    def drawn_pair(self, world: State, i: int) -> tuple | None:
        """Two of the viewer's own cards not named before the view's event i, one in its zones in `world`, the other
        in a hidden zone (to be drawn later): which of them it drew first is not in the view; None when none."""
        game, n = world.game, world.n
        first: dict = {}
        for e in self.view.events[i:]:
            for c in e.cards:
                first.setdefault(c, e.seat)
        ends = {c for z, cards in enumerate(self.view.zones) if game.zone_of(z, n)[1] == self.seat for c in cards}
        own = {c for c in ends | set(first) if c not in self.named_by[i] and first.get(c, self.seat) == self.seat}
        mine = [c for z, cards in enumerate(world.zones) if game.zone_of(z, n)[1] == self.seat for c in cards
                if c in own]
        later = [c for c in own if self.hidden_now(world, c) is not None]
        if not mine or not later:
            return None
        return self.rng.choice(mine), self.rng.choice(later)


def _adopt(layout: dict, choices: dict, trial_layout: dict, trial_choices: dict) -> None:
    """Make a climb's trial layout and hidden moves the current ones (in place: the caller holds them)."""
    layout.clear()
    layout.update(trial_layout)
    choices.clear()
    choices.update(trial_choices)


DECISIONS = ("bid", "choose", "discard", "declare", "turn", "play", "call")


def _is_decision(event) -> bool:
    """Whether the event logs a seat's decision (every decision logs one, seen by every seat, masked or not)."""
    if event.kind not in DECISIONS:
        return False
    return not (event.kind == "declare" and event.value is not None and event.value[0] == "none")


def _fresh(view: State, seed: int) -> State:
    """The match as it stood before this deal was dealt: the view's match-level state, no deal yet."""
    world = view.copy(events=False)
    world.viewer, world.hidden = None, {}
    world.deal_no -= 1
    world.history = []
    world.seed = seed
    engine.start_deal(world, play=False)
    return world


def _deal_phase(game):
    return next((p for p in game.phases if p.type_name == "deal" and p.source is None), None)


def _pins(view: State, sizes: dict) -> dict:
    """Cards whose starting zone the view suggests: revealed in a dealt zone; dealt to the viewer later from a zone
    of the first deal (a stock dealt on when the hands are empty): that zone; and, before any such later deal,
    played, shown or discarded by a seat (its first dealt zone) or seen now in a dealt zone. The first fact about
    a card wins."""
    game, n = view.game, view.n
    hand_of: dict[int, int] = {}
    for zid in sizes:
        z, owner = game.zone_of(zid, n)
        if owner is not None and z.per_seat:
            hand_of.setdefault(owner, zid)
    pins: dict = {}
    first = next((k for k, e in enumerate(view.events) if _is_decision(e)), len(view.events))
    redealt = next((k for k, e in enumerate(view.events) if e.kind == "dealt" and k > first), None)
    for k, e in enumerate(view.events):
        if (e.kind == "reveal" or (e.kind == "dealt" and k < first)) and e.value in sizes:
            for c in e.cards:
                pins.setdefault(c, e.value)
        elif e.kind == "dealt" and k > first and e.phase is not None:
            source = phase_of(game, e.phase).source
            zid = game.zone_id(source, None, n) if source is not None else None
            for c in e.cards if zid in sizes else ():
                pins.setdefault(c, zid)
    before = view.events if redealt is None else view.events[:redealt]
    for e in before:
        if e.kind in ("play", "show", "discard", "turn", "announce") and e.seat in hand_of:
            for c in e.cards:
                pins.setdefault(c, hand_of[e.seat])
    for zid, cards in enumerate(view.zones):
        if zid in sizes and redealt is None:
            for c in cards:
                pins.setdefault(c, zid)
    return pins


def _same(a, b) -> bool:
    if a.kind == "deal" and b.kind == "deal":  # a stacked deal logs itself as such
        return a.seat == b.seat
    return a == b


def _signature(view: State) -> tuple:
    """What must be equal between the view and the world's view: everything, zones compared as sets of cards
    (the order of a hand is the deal's, which the world draws afresh; `_match_order` then copies it)."""
    zones = [sorted(z) for z in view.zones]
    view = view.copy()
    view.zones = [[] for _ in view.zones]
    view.events = [_unstacked(e) for e in view.events]
    return zones, view.to_json()


def _unstacked(event):
    return replace(event, value=None) if event.kind == "deal" and event.value == "stacked" else event


def _match_order(world: State, view: State) -> None:
    """Give the world's visible zones the view's order, and its log the view's record of the deal itself."""
    for zid, cards in enumerate(view.zones):
        if cards and sorted(cards) == sorted(world.zones[zid]):
            world.zones[zid] = list(cards)
    if not any(e.kind == "deal" and e.value == "stacked" for e in view.events):
        world.events = [_unstacked(e) for e in world.events]
