"""Sampling worlds: complete states consistent with a view, built from the view alone (`sample_world`).

A world is made by dealing a layout and replaying the deal: the hidden part of a state (other hands, the talon,
vars the spec set from them — a called partner, who holds a card) comes from the deal's own rules, so it is
always consistent. The layout is drawn at random under what the viewer knows (`knowledge`): cards seen in a
zone's reveal start there, cards a seat played, showed or (for the viewer) held start in that seat's hand,
and no seat is dealt a card the trick rules proved it does not hold; every other card is shuffled into the
remaining places. The deal is then replayed move by move from the view's events: a move the view shows is
made as logged, a move it hides (another seat's discard, a private claim) is drawn uniformly from the legal
ones. Where the replay needs a card the layout put elsewhere (a card played that the layout dealt to another
seat, a card in the viewer's hand that a hidden exchange brought), it is swapped in the layout with a card the
viewer has never seen from the place where it is needed; the repaired layout is then dealt and replayed once
more from scratch, so that every var the spec set from the cards (a called partner, who holds a card) is
computed by the rules themselves. Every replayed step must log exactly the events the view holds, and the
result must show the same view. What a hidden hand says in a declaration (a point of 43, these sequences and no
other) is rarely true of a random layout: when the repairing replays fail, a local search from the world as the
first declaration of a `declare` phase is to be made swaps free cards between the hidden hand the replay failed
on and another hidden place, replaying only from there, and keeps the swaps that get the replay at least as far
(`climb`). A layout
that still fails is drawn again (a bounded number of times, then SamplingError). `draw_world` also counts the
work done (moves replayed or tried), so that a caller can bound it and charge it (the search agent does).

The distribution: uniform over the layouts that respect those constraints, filtered by the replay (rejection
sampling), with hidden moves uniform among the legal ones; the local search biases it (towards hands near the
first random layout that fits the declarations), a small price against thousands of rejected deals. It is not the exact Bayesian posterior (a seat that
bid high is not assumed to hold good cards, hidden discards are not weighted by how likely a player was to make
them), which is the usual and accepted approximation of determinized search.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from interp.engine import match as engine
from interp.errors import InterpError
from interp.engine.events import phase_of
from interp.bots.knowledge import knowledge
from interp.engine.state import State, event_visible

TRIES = 200  # layouts drawn, at most, before SamplingError
WALK = 40  # swaps tried, at most, to make one logged move legal
VAR_FITS = 8  # re-deals, at most, to make the card vars set at the deal name the view's cards
CLIMB = 150  # swaps tried, at most, by the local search (`climb`)
PATIENCE = 40  # swaps it tries, at most, without getting further, before the layout is drawn again
LENIENT_PASSES = 3  # repairing replays, at most, before the clean one


class SamplingError(InterpError):
    """No world consistent with the view was found within the bounded number of tries."""


def sample_world(view: State, rng, tries: int = TRIES) -> State:
    """A complete state of the same match at the same point, consistent with `view` (see the module docstring)."""
    drawn = draw_world(view, rng, tries)
    if drawn.world is None:
        raise SamplingError(f"no world consistent with the view of seat {view.viewer} in {tries} tries "
                            f"(deal {view.deal_no}, {len(view.events)} events)")
    return drawn.world


@dataclass(frozen=True)
class Drawn:
    """What `draw_world` gives: the `world` (None when none was found) and the `work` it took, counted in moves
    replayed (every decision replayed or tried, and every deal dealt, counts one), a measure that does not depend
    on the machine, comparable to the moves of a playout."""

    world: State | None
    work: int


def draw_world(view: State, rng, tries: int = TRIES, limit: int | None = None) -> Drawn:
    """`sample_world` with its cost: stops after `tries` layouts, or as soon as the work passes `limit`.

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> drawn = draw_world(st.view(engine.to_move(st)), random.Random(1))
    >>> drawn.world is not None and drawn.work > 0
    True
    """
    sampler = _Sampler(view, rng, limit)
    for _ in range(tries):
        world = sampler.attempt()
        if world is not None:
            return Drawn(world, sampler.work)
        if sampler.spent():
            break
    return Drawn(None, sampler.work)


class _Sampler:
    """One view's sampling: what it knows, computed once, and the attempts."""

    def __init__(self, view: State, rng, limit: int | None = None):
        if view.viewer is None:
            raise ValueError("sample_world takes a view (state.view(seat)), not a full state")
        self.seat: int = view.viewer
        self.view, self.rng, self.limit = view, rng, limit
        self.kn = knowledge(view)
        self.target = _signature(view)
        self.owners = self.kn.hands
        self.escape = {c for e in view.events if e.kind == "tricks" for c in e.cards}
        self.named_by: list[set] = [set()]  # named_by[i]: the cards the view's events before i name
        for e in view.events:
            self.named_by.append(self.named_by[-1] | set(e.cards))
        self.named_after: list[set] = [set()]  # named_after[k]: the cards the events from k on name (reversed while built)
        for e in reversed(view.events):
            self.named_after.append(self.named_after[-1] | set(e.cards))
        self.named_after.reverse()
        self.visible = set(self.kn.known)
        self.order_shown: dict = {}  # zone id -> {card: position} where the view first saw it in order
        for e in view.events:
            if e.kind in ("reveal", "dealt"):
                self.order_shown.setdefault(e.value, {c: k for k, c in enumerate(e.cards)})
        for zid, cards in enumerate(view.zones):
            self.order_shown.setdefault(zid, {c: k for k, c in enumerate(cards)})
        self.sheds = {e.seat for e in view.events if _masked(e) and e.kind == "discard"}  # discard unseen cards
        self.declaring = {p.id for p in view.game.phases if p.type_name == "declare"}
        self.snap: tuple | None = None  # (world, view events matched, world events read) at the first declaration
        self.stuck = 0
        self.work = 0  # moves replayed or tried, and deals dealt, so far

    def spent(self) -> bool:
        """Whether the work has passed the limit."""
        return self.limit is not None and self.work > self.limit

    # -- one attempt ------------------------------------------------------------------------------------------------
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
            _swap(world, layout, choices, *pair)
            world = _fresh(self.view, seed)
            self.deal(world, layout)
        for passes in range(LENIENT_PASSES):  # a pass that fails may still have repaired the layout: again
            if passes:
                world = _fresh(self.view, seed)
                self.deal(world, layout)
            if self.replay(world, layout, choices, repair=True):
                break
        else:
            climbed = self.climb(seed, layout, choices)
            if climbed is None:
                return None
            world = climbed
        if not self.fit_visible(world, layout, choices):
            return None
        world = _fresh(self.view, seed)
        self.deal(world, layout)
        if not self.replay(world, layout, choices, repair=False):
            return None
        if _signature(world.view(self.seat)) != self.target:
            return None
        _match_order(world, self.view)
        return world

    def deal(self, world: State, layout: dict) -> None:
        self.work += 1
        world.stack = {z: list(cards) for z, cards in layout.items()}
        engine.advance(world)

    def allowed(self, card: int, zid: int, dealt: bool = False) -> bool:
        """Whether the trick rules let `card` lie in zone `zid` (a hand whose seat was proved short of it);
        `dealt`: at the deal, when a seat that discards unseen may still have been dealt it."""
        owner = self.owners.get(zid)
        if dealt and owner in self.sheds:
            return True
        deck = self.view.game.deck
        return owner is None or not self.kn.excludes(owner, deck.suit_of[card], card,
                                                     card in self.escape)

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

    # -- replaying --------------------------------------------------------------------------------------------------
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
            if _masked(events[j]):
                choices[j] = move
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
            _swap(trial_base, trial_layout, trial_choices, *pair)
            world = trial_base.copy()
            done = self.replay(world, trial_layout, trial_choices, repair=False, start=(i0, seen0))
            if self.stuck >= best:
                since = 0 if self.stuck > best else since
                base, best = trial_base, self.stuck
                layout.clear()
                layout.update(trial_layout)
                choices.clear()
                choices.update(trial_choices)
            if done:
                return world
        return None

    def free_pair(self, world: State, seat: int | None, i: int) -> tuple | None:
        """Two cards free to swap at the view's event i (`unseen`) in different places hidden from the viewer,
        the first in a hand of `seat` (of any other seat when it is the viewer), each allowed where the other is."""
        game, n, rng = world.game, world.n, self.rng
        places: dict = {}
        for zid, cards in enumerate(world.zones):
            free = [c for c in cards if self.unseen(c, i)]
            if free and self.hidden_now(world, free[0]) == zid:
                places[zid] = free
        owner = {z: game.zone_of(z, n)[1] for z in places}
        mine = [z for z in places if owner[z] == seat and seat != self.seat]
        mine = mine or [z for z in places if owner[z] is not None and owner[z] != self.seat]
        if not mine:
            return None
        for _ in range(WALK):
            zx = rng.choice(mine)
            zy = rng.choice([z for z in places if z != zx] or [zx])
            if zy == zx:
                return None
            x, y = rng.choice(places[zx]), rng.choice(places[zy])
            if self.allowed(y, zx) and self.allowed(x, zy):
                return x, y
        return None

    def move_of(self, world: State, i: int):
        """The move that logged the view's event i (drawn among the legal ones when the view hides it), if legal."""
        event = self.view.events[i]
        legal = engine.legal_moves(world)
        kind, value = event.kind, event.value
        if kind == "play":
            move = world.game.card_moves[event.cards[0]]
        elif kind == "call":
            move = next((m for m in legal if m.kind == "option" and m.value == value), None)
        elif kind == "turn":
            move = value[0]
        elif kind == "declare" and value is None:
            claims = [m for m in legal if m.kind == "claim"]
            return self.rng.choice(claims) if claims else None
        elif kind == "declare":
            move = value[0]
        elif kind == "discard" and value is None:
            later = self.named_after[i + 1] | self.visible  # shown later or seen now: not discarded
            cards = [m for m in legal if m.kind == "card" and m.value not in later]
            hand = [z for z, s in self.owners.items() if s == event.seat]
            must = [m for m in cards if hand and not self.allowed(m.value, hand[0])]  # it cannot keep these
            return self.rng.choice(must or cards) if cards else None
        else:  # bid, choose, a discard the viewer saw
            move = value
        return move if move in legal else None

    # -- repairs ----------------------------------------------------------------------------------------------------
    def unseen(self, card: int, i: int) -> bool:
        """A card the viewer has not seen by event i, and does not see at the end unless an event from i on shows
        where it comes from (a later deal): free to be swapped."""
        return card not in self.named_by[i] and (card not in self.visible or card in self.named_after[i])

    def hidden_now(self, world: State, card: int) -> int | None:
        """The zone holding `card` in `world` when the viewer cannot see it there, else None."""
        game = world.game
        for zid, cards in enumerate(world.zones):
            if card in cards:
                if game.zone_visible(world, zid, self.seat) or card in game.zone_shown(world, zid):
                    return None
                return zid
        return None

    def bring(self, world: State, layout: dict, choices: dict, i: int) -> None:
        """Swap the cards event i names into the actor's hidden zones, and the cards the trick rules rule out of
        the actor's hand out of it."""
        event = self.view.events[i]
        actor = event.seat
        game, n = world.game, world.n
        mine = [z for z in range(len(world.zones)) if game.zone_of(z, n)[1] == actor]
        for x in event.cards:
            if any(x in world.zones[z] for z in mine):
                continue
            where = self.hidden_now(world, x)
            if where is None or x in self.named_by[i]:
                continue
            ys = [y for z in mine for y in world.zones[z] if self.unseen(y, i + 1) and self.allowed(y, where)]
            if ys:
                _swap(world, layout, choices, x, self.rng.choice(ys))
        for z in mine:
            for y in list(world.zones[z]):
                if y in self.named_by[i + 1] or self.allowed(y, z):
                    continue
                others = [c for w, cards in enumerate(world.zones) if w not in mine and self.allowed(y, w)
                          for c in cards if self.unseen(c, i + 1) and self.allowed(c, z)
                          and self.hidden_now(world, c) == w]
                if others:
                    _swap(world, layout, choices, y, self.rng.choice(others))

    def var_cards(self, world: State) -> list:
        """(world's card, view's card) pairs of the card-valued vars the view shows."""
        pairs: list[tuple] = []
        for decl in self.view.game.vars.values():
            if decl.type not in ("card", "list[card]") or decl.visible == "none":
                continue
            mine, theirs = self.view.vars.get(decl.name), world.vars.get(decl.name)
            rows = zip(mine or [], theirs or []) if decl.per_seat else [(mine, theirs)]
            for want, got in rows:
                want = want if isinstance(want, list) else [want]
                got = got if isinstance(got, list) else [got]
                if len(want) == len(got):
                    pairs.extend((g, w) for g, w in zip(got, want) if g is not None and w is not None)
        return pairs

    def relabel(self, world: State, layout: dict, choices: dict, got, i: int) -> bool:
        """The world logged `got` where the view holds event i, the same but for its cards (a zone shown, a hand
        turned up): swap the cards the view names into the world's places, when the world's are unseen ones."""
        want = self.view.events[i]
        if len(got.cards) != len(want.cards) or not got.cards:
            return False
        if sorted(got.cards) == sorted(want.cards) and replace(got, cards=want.cards) == want:
            return _reorder(layout, want.cards)  # the same cards in another order: the hand's order
        if replace(got, cards=want.cards, value=want.value if got.kind == "announce" else got.value) != want:
            return False  # (an announcement's words follow its cards: the clean replay will say them)
        pairs = [(w, v) for w, v in zip(got.cards, want.cards) if w != v]
        if any(w in self.named_by[i] or v in self.named_by[i] for w, v in pairs):
            return False
        for w, v in pairs:
            _swap(world, layout, choices, w, v)
        return True

    def shuffle_until_legal(self, world: State, layout: dict, choices: dict, i: int, steps: int = WALK):
        """A random walk: swap an unseen card of the actor's hidden zones with an unseen card elsewhere until the
        logged move is legal (its legality depends on the hidden hand: a declaration, a condition)."""
        actor = self.view.events[i].seat
        game, n = world.game, world.n
        places = [z for z in range(len(world.zones)) if not game.zone_visible(world, z, self.seat)]
        mine = [z for z in places if game.zone_of(z, n)[1] == actor]
        for _ in range(steps):
            self.work += 1
            ours = [(c, z) for z in mine for c in world.zones[z] if self.unseen(c, i + 1)]
            if not ours:
                return None
            x, zx = self.rng.choice(ours)
            theirs = [(c, z) for z in places if z != zx for c in world.zones[z] if self.unseen(c, i + 1)]
            if not theirs:
                return None
            y, zy = self.rng.choice(theirs)
            if self.allowed(y, zx) and self.allowed(x, zy):
                _swap(world, layout, choices, x, y)
            move = self.move_of(world, i)
            if move is not None:
                return move
        return None

    def fit_hand(self, world: State, layout: dict, choices: dict, j: int) -> None:
        """Before the viewer's decision j: its hand holds what it ends with plus what it plays from now on, but
        not what a later deal gives it (a hidden exchange may have brought cards the layout put elsewhere)."""
        game, n, events = world.game, world.n, self.view.events
        arriving = {c for e in events[j + 1:] if e.kind == "dealt" for c in e.cards}
        spent = {c for e in events[j:] if e.seat == self.seat and e.kind in ("play", "discard", "turn")
                 for c in e.cards}
        for zid, cards in enumerate(self.view.zones):
            if game.zone_of(zid, n)[1] != self.seat or not (cards or zid in self.owners):
                continue
            wanted = (set(cards) | spent) - arriving
            for x in wanted:
                if x in world.zones[zid] or self.hidden_now(world, x) is None:
                    continue
                ys = [y for y in world.zones[zid] if y not in wanted and self.unseen(y, j)]
                if ys:
                    _swap(world, layout, choices, x, self.rng.choice(ys))
            spent = set()  # (played cards come from the first such zone, the hand)

    def fit_visible(self, world: State, layout: dict, choices: dict) -> bool:
        """Swap into each zone the view shows the cards it shows there (a hidden exchange may have brought them),
        and make the card vars the view shows (a deal's first table cards) name the view's cards."""
        end = len(self.view.events)
        for x, y in self.var_cards(world):
            if x != y and self.unseen(x, end) and y not in self.named_by[end]:
                _swap(world, layout, choices, x, y)
        for zid, cards in enumerate(self.view.zones):
            for x in cards:
                if x in world.zones[zid]:
                    continue
                if self.hidden_now(world, x) is None:
                    return False
                ys = [y for y in world.zones[zid] if y not in cards and y not in self.named_by[end]
                      and y not in self.visible]
                if not ys:
                    return False
                _swap(world, layout, choices, x, self.rng.choice(ys))
        return True


DECISIONS = ("bid", "choose", "discard", "declare", "turn", "play", "call")


def _is_decision(event) -> bool:
    """Whether the event logs a seat's decision (every decision logs one, seen by every seat, masked or not)."""
    if event.kind not in DECISIONS:
        return False
    return not (event.kind == "declare" and event.value is not None and event.value[0] == "none")


def _reorder(layout: dict, cards: tuple) -> bool:
    """Put `cards` in this order within each dealt zone that holds some of them (keeping the zone's slots)."""
    rank = {c: k for k, c in enumerate(cards)}
    for zone in layout.values():
        slots = [k for k, c in enumerate(zone) if c in rank]
        for k, c in zip(slots, sorted((zone[k] for k in slots), key=rank.__getitem__)):
            zone[k] = c
    return True


def _masked(event) -> bool:
    return event.value is None and event.kind in ("discard", "declare")


def _swap(world: State, layout: dict, choices: dict, x: int, y: int) -> None:
    """Exchange two cards everywhere they lie: the world's zones, the layout, the recorded hidden moves."""
    for cards in list(world.zones) + list(layout.values()):
        for k, c in enumerate(cards):
            if c == x:
                cards[k] = y
            elif c == y:
                cards[k] = x
    for i, move in choices.items():
        if move.kind == "card" and move.value in (x, y):
            choices[i] = world.game.card_moves[y if move.value == x else x]


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
