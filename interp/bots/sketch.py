"""The sketch: a view's deal replayed once, in one pass, the cards the view has not located yet relabelled on demand
— the template `bots.worlds` relabels into every world it draws.

The first layout is the probe's first guess (`bots.probe`: the viewer's dealt cards where it saw them, a card a seat
plays in that seat's hand, the rest shuffled), the voids not enforced. Then the view's decisions are replayed in
order. Until an event of the view names a card where it lies (a play, a show, a card dealt to the viewer: it
*locates* the card; a private `tell` or a trick phase's escape cards do not), the card's identity is free: two
such cards may be swapped through the whole deal so far — the layout, the hidden moves made, the zones now —
without changing anything the viewer saw. So before a logged move each card it names is swapped into the zones
of the seat that makes it when it lies elsewhere; after each move each event the deal logged for the viewer is
compared with the view's, and the cards that differ (a card dealt to the viewer, a talon's card led) are
swapped; a hidden move (another seat's discard or pass) takes a card not located yet when it can. At the end
the zones the view shows are fitted the same way. No step is ever retried, so a sketch costs one replay.

What the sketch logs may still differ from the view where the rules look at the hidden cards (a declaration's
words, a steal that needs a card it does not hold): `bots.worlds` draws every free card anew and checks each
world, so the sketch need only follow the view's decisions, seat by seat, with the located cards where the view
says.
"""
from __future__ import annotations

from dataclasses import replace

from interp.bots.probe import Probe, _fresh, _is_decision, _same, _Sampler
from interp.bots.repair import WALK, masked, swap
from interp.bots.turns import fits, rests_on_hands, turn, turn_after, turn_fix, turn_needs
from interp.engine import match as engine
from interp.engine.phases.tricks import TricksPhase
from interp.engine.phases.turns import TurnsPhase
from interp.engine.state import Move, State, event_visible
from interp.errors import InterpError

UNLOCATING = ("tell", "tricks")  # events that name cards without saying where they lie
FROM_HAND = ("play", "discard", "turn")  # moves whose cards leave the seat's hand
# what a move made unchecked may raise when the hand does not allow it (a declaration of a combination it lacks)
UNCHECKED = (InterpError, LookupError, ValueError, StopIteration)
CHECKED = 12  # exchanges a step of the walk tries, at most, for one that keeps every earlier turn (`keeps`)


def sketch(view: State, rng, trail=None) -> Probe | None:
    """The view's deal replayed once with free cards relabelled on demand (see the module docstring); None when the
    replay cannot follow the view (a seat to move that is not the view's, a located card where it cannot be).
    `trail` (a `bots.worlds.Trail`), if given, notes where the cards lie before each move and at the end, and
    swaps its records as the cards are swapped.

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> sketch(st.view(engine.to_move(st)), random.Random(1)) is not None
    True
    """
    return _Sketch(view, rng, trail).run()


class _Sketch:
    def __init__(self, view: State, rng, trail=None):
        if view.viewer is None:
            raise ValueError("a sketch is made from a view (state.view(seat)), not a full state")
        self.view, self.rng, self.trail = view, rng, trail
        self.seat: int = view.viewer
        self.guess = _Sampler(view, rng)  # the probe's first layout and its reading of logged moves
        self.guess.strict = False
        self.located: set = set()
        self.choices: dict = {}  # view event index -> hidden move made
        self.seen: frozenset = frozenset()  # cards a var names where the viewer saw them as the deal began
        self.i = self.read = 0  # the view's events matched; the sketch's events read
        self.since: dict = {}  # card as the events being read name it -> the card it is now (see `swap`)
        game, n = view.game, view.n
        self.zones_of = [[z for z in range(len(view.zones)) if game.zone_of(z, n)[1] == s] for s in range(n)]
        self.hand = {s: z for z, s in self.guess.owners.items()}
        self.own = [z for z in self.zones_of[self.seat] if game.zone_visible(view, z, self.seat)]
        spent = FROM_HAND + ("show", "announce")
        self.held = {c for z in self.own for c in view.zones[z]} | {  # every card the viewer held this deal
            c for e in view.events if e.seat == self.seat and e.kind in spent for c in e.cards}
        self.card_vars = [d.name for d in game.vars.values() if "card" in d.type]
        self.hidden_zones = [z for z in range(len(view.zones)) if not game.zone_visible(view, z, self.seat)]
        self.seed = 0  # the deal's chance seed
        self.made: list = []  # the moves made so far: (view event index, move)
        # whether the hidden cards decide turns in this game (`bots.turns.rests_on_hands`), or gave one to another
        # seat in this sketch: then the turns are compared in full, what they say of the hands is recorded, and
        # every exchange is replayed (`keeps`)
        self.turns_matter = rests_on_hands(game)
        self.fixed = 0  # turns fixed by an exchange (`fix_turn`): an exchange may undo an earlier turn

    def run(self) -> Probe | None:
        events = self.view.events
        first = next((k for k in range(len(events)) if _is_decision(events[k])), None)
        for _ in range(WALK):  # (a first seat to move that the hidden hands decide: a new layout)
            self.located, self.choices, self.since = set(), {}, {}
            if self.trail is not None:
                self.trail.clear()
            started = self.start()
            if started is None:
                return None
            world = started[1]
            if first is None or world.deal_over or events[first].seat == engine.actor(world):
                return self.play(*started)
        return None

    def start(self) -> tuple | None:
        """(seed, the world dealt from a first layout with the events before the first decision matched, the
        layout); None when no layout or no match."""
        view, guess = self.view, self.guess
        seed = self.rng.getrandbits(32)
        world = _fresh(view, seed)
        layout = guess.layout(world)
        if layout is None:
            return None
        self.layout = layout
        try:
            guess.deal(world, layout)
            self.since = {}
            pairs = guess.var_cards(world)  # card vars the view shows, set as the deal began (the first table cards)
            if not self.relabel(world, [x for x, _ in pairs], [y for _, y in pairs]):
                return None
            game = view.game  # those the viewer sees now (the first table cards) are where it saw them
            for decl in game.vars.values():  # (the vars, relabelled: what a zone's `shown` rule reads)
                if decl.type in ("card", "list[card]") and decl.visible != "none" and not decl.per_seat:
                    world.vars[decl.name] = view.vars[decl.name]
            shown = {c for z, cards in enumerate(world.zones) if cards for c in
                     (cards if game.zone_visible(world, z, self.seat) else game.zone_shown(world, z))}
            self.seen = frozenset(y for _, y in pairs if y in shown)
            self.located |= self.seen
            self.i = self.read = 0
            if self.catch_up(world) is not None:
                return None
        except UNCHECKED:
            return None
        return seed, world, layout

    def play(self, seed: int, world: State, layout: dict) -> Probe | None:
        """The view's decisions replayed from the world `start` gave (see the module docstring)."""
        events = self.view.events
        moves: list = []
        self.seed, self.made = seed, moves
        try:
            while self.i < len(events):
                j = next((k for k in range(self.i, len(events)) if _is_decision(events[k])), None)
                if world.deal_over or j is None or events[j].seat != engine.actor(world):
                    return None
                move = self.move(world, j)
                if move is None:
                    return None
                moves.append((j, move))
                after = self.make(world, j, move)
                if after is None:
                    return None
                world = after
        except UNCHECKED:
            return None
        if self.trail is not None:
            self.trail.note(len(events), world)
        if not self.fit_zones(world):
            return None
        moves = [(j, self.choices.get(j, move)) for j, move in moves]
        return Probe(world, seed, layout, moves, self.guess.work, self.seen, self.fixed)

    def make(self, world: State, j: int, move: Move) -> State | None:
        """Make the move; when what the deal then logs differs from the view where the hidden cards decide it (a
        seat declares it holds no sequence where the view's declared one), make it again from the world before,
        after a random walk of swaps between the free cards of that seat and the others (up to WALK swaps).
        Returns the world after the move (None when the walk found no match)."""
        phase = world.game.phases[world.phase]
        before = None if isinstance(phase, TricksPhase) else world.copy()
        mark = (self.i, self.read, set(self.located))
        for _ in range(WALK + 1):
            self.guess.work += 1
            self.since = {}  # (what the move logs names the cards as they are now)
            if self.trail is not None:
                self.trail.note(j, world)
            engine.apply(world, move, check=False)
            seat = self.catch_up(world)
            if seat is None:
                turn = self.turn_to_fix(world) if before is not None else None  # (not a trick's card)
                if turn is None or before is None:
                    if isinstance(phase, TurnsPhase) and before is not None:
                        self.note_bans(before, move)
                    return world
                self.turns_matter = self.turns_matter or isinstance(phase, TurnsPhase)
                pair = self.fix_turn(before, move, turn)
                if not pair:
                    seat = -1  # (the seat whose hand decides the turn is not known: walk any other's)
            elif before is not None and self.i < len(self.view.events) and _is_decision(self.view.events[self.i]):
                turn = (self.view.events[self.i].seat, None)  # (the deal went on without the view's decision)
                pair = self.fix_turn(before, move, turn, mark[0])
                seat = None if pair else seat
            if before is None or (seat is not None and not self.walk(before, None if seat < 0 else seat)):
                return None
            self.i, self.read, self.located = mark[0], mark[1], set(mark[2])
            if seat is None:  # (a card of the viewer's put back in the stock is drawn again: located then)
                self.located -= {c for z in self.hidden_zones for c in before.zones[z] if c in pair}
            world = before.copy()
        return None

    def turn_to_fix(self, world: State) -> tuple | None:
        """(seat, kind) of the view's next decision when the sketch does not let it be made (the hidden hands
        decide whose turn it is, what it may do, or when a phase ends: `bots.turns`), else None: when another seat
        is to move or the sketch is not in the phase of that decision (a phase that asks each seat in turn for what
        it holds ends when none does). The kind of move is compared only where the hidden cards decide turns
        (`turns_matter`): in most games the kinds of move open to a seat rest on the cards it was given just
        before, not on the turn."""
        want = self.wanted()
        if want is None:
            return None
        nxt = self.next_decision()
        if engine.actor(world) != want[0] or not _in_phase(world, None if nxt is None else self.view.events[nxt]):
            return want
        return None if not self.turns_matter or fits(turn(world), want) else want

    def next_decision(self) -> int | None:
        """The index of the view's next decision from the event to match on; None when the view's own comes next."""
        events = self.view.events
        return next((k for k in range(self.i, len(events)) if _is_decision(events[k])), None)

    def wanted(self) -> tuple | None:
        """(seat, kind) of the view's next decision (kind None: any; see `bots.turns.fits`); None when it is hidden."""
        events, nxt = self.view.events, self.next_decision()
        if nxt is None:  # (the view's own decision comes next; its hand is fitted after: the seat only)
            return engine.actor(self.view), None
        if masked(events[nxt]):
            return None
        logged = _logged(events[nxt])
        return events[nxt].seat, logged.value[0] if logged.kind == "action" else logged.kind

    def free_now(self, world: State) -> set:
        """The free cards not located yet, in the zones hidden from the viewer."""
        return {c for z in self.hidden_zones for c in world.zones[z] if c not in self.located}

    def fix_turn(self, before: State, move: Move, want: tuple, logged: int | None = None) -> tuple:
        """Exchange two cards through the whole sketch (from `before`, the world before `move`) so that the view's
        next decision (`want`: see `bots.turns.fits`) can be made after it: two free cards, or two the viewer
        holds this deal that reached it unseen by the view (its hand now and a card still to be drawn); the pair
        exchanged — or, without `logged`, the cards `fill_stayers` exchanged —, or () when none does. Every exchange
        keeps the turns so far, the deal so far replayed (`keeps`). With `logged` (the index of the first view
        event the move logs), the move must also log the view's events up to that decision, kind, seat and value
        (`logs_alike`: the same seat may be asked anew after the deal went on without its decision)."""
        named = {c for e in self.view.events[:self.i] for c in e.cards}  # (the viewer's cards named so far stay)
        mine = {c for z in self.own for c in before.zones[z] if c in self.held and c not in named} | \
            {c for z in self.hidden_zones for c in before.zones[z] if c in self.held and c not in self.located}
        groups = [(self.free_now(before) - self.held, self.hidden_zones), (mine, self.own + self.hidden_zones)]
        keeps = (lambda x, y: self.keeps(x, y, replayed=True)) if logged is None else \
            (lambda x, y: self.logs_alike(before, move, logged, x, y) and self.keeps(x, y, replayed=True))
        pair = turn_fix(before, move, want, groups, keeps)
        if pair is None:
            return self.fill_stayers(before, move, want, groups, keeps) if logged is None else ()
        self.swap(before, *pair)
        self.fixed += 1
        return pair

    def logs_alike(self, before: State, move: Move, logged: int, x: int, y: int) -> bool:
        """Whether `move`, made on `before` with cards x and y exchanged, logs the view's events from its event
        `logged` up to the next decision (compared by kind, seat and value; the next decision's seat and kind are
        `fits`' business)."""
        world = before.copy()
        world.zones = [[y if c == x else x if c == y else c for c in cards] for cards in world.zones]
        try:
            engine.apply(world, move, check=False)
        except UNCHECKED:
            return False
        events = self.view.events
        fresh = [e for e in world.events[len(before.events):] if event_visible(e, self.seat)]
        want = [e for e in events[logged:logged + len(fresh)]]
        return len(want) == len(fresh) and all((a.kind, a.seat) == (b.kind, b.seat) and
                                               (a.value == b.value or a.kind == "announce") for a, b in zip(fresh, want))

    def fill_stayers(self, before: State, move: Move, want: tuple, groups: list, keeps) -> tuple:
        """When no single exchange fixes the turn: in each zone, every card of a group that rules the view's next
        decision out when the zone's cards of that group are all it (see `bots.turns.turn_needs`) is exchanged with
        one of the group elsewhere that does not, each exchange made only when `keeps(x, y)` (it keeps the turns
        so far); the cards exchanged when the decision can then be made, else ()."""
        moved: list = []
        for cards, zones in groups:
            for z in zones:
                here = [k for k, c in enumerate(before.zones[z]) if c in cards]
                if not here:
                    continue
                stay = {c for c in cards if fits(turn_after(before, move, [(z, k, c) for k in here]), want)}
                spare = [c for w in zones if w != z for c in before.zones[w] if c in stay]
                for x in [before.zones[z][k] for k in here if before.zones[z][k] not in stay]:
                    y = next((y for y in self.rng.sample(spare, len(spare)) if keeps(x, y)), None)
                    if y is not None:
                        self.swap(before, x, y)
                        spare.remove(y)
                        moved += [x, y]
                if fits(turn_after(before, move, []), want):
                    self.fixed += 1
                    return tuple(moved)
        return ()

    def note_bans(self, before: State, move: Move) -> None:
        """On the trail: what each other seat's hidden zones must hold as `move` is made for the turn after it to
        be the one the view logs (`bots.turns.turn_needs`): the cards they cannot hold, and the cards one of their
        free cards must be — sought once the sketch met a turn the hidden cards decided (`turns_matter`: a game
        whose turns never rest on them pays nothing)."""
        if self.trail is None or not self.turns_matter:
            return
        want = self.wanted()
        if want is None:
            return
        free = self.free_now(before)
        owned = [z for s, zones in enumerate(self.zones_of) if s != self.seat for z in zones if z in self.hidden_zones]
        bans, needs = turn_needs(before, move, want, free, self.hidden_zones, owned)
        for z, cards in bans.items():
            self.trail.ban([c for c in before.zones[z] if c in free], cards)
        for z, cards in needs.items():
            self.trail.need([c for c in before.zones[z] if c in free], cards)

    def keeps(self, x: int, y: int, replayed: bool = False) -> bool:
        """Whether exchanging the free cards x and y keeps what the turns so far say of the hidden hands: the
        trail's bans and needs (cheap: looked at first), then, once the hidden cards gave a turn to another seat
        (`turns_matter`) or when `replayed` (an exchange that fixes a turn, in any game), the deal so far replayed
        (`past_holds`)."""
        return (self.trail is None or self.trail.keeps(x, y)) and \
            (not (self.turns_matter or replayed) or self.past_holds(x, y))

    def kept(self, x: int, first: list, then: list) -> int:
        """A card whose exchange with x `keeps` the turns so far: of `first` if one does, else of `then` (each
        tried in a random order); when none does, one of `first` (or of `then`) all the same (the worlds drawn
        are checked)."""
        for options in (first, then):
            for y in self.rng.sample(options, len(options)):
                if self.keeps(x, y):
                    return y
        return self.rng.choice(first or then)

    def past_holds(self, x: int, y: int) -> bool:
        """Whether the deal so far, replayed with cards x and y exchanged, gives every decision made so far to the
        seat the view says made it, with that move legal there (an exchange that fixes this turn may undo an
        earlier one)."""
        world = _fresh(self.view, self.seed)
        world.stack = {z: [y if c == x else x if c == y else c for c in cards] for z, cards in self.layout.items()}
        events = self.view.events
        try:
            engine.advance(world)
            for j, move in self.made:
                move = self.choices.get(j, move)
                if move.kind == "card" and move.value in (x, y):
                    move = world.game.card_moves[y if move.value == x else x]
                if world.deal_over or engine.actor(world) != events[j].seat or \
                        move not in engine.legal_moves(world):
                    return False
                engine.apply(world, move, check=False)
        except UNCHECKED:
            return False
        return True

    def walk(self, world: State, seat: int | None) -> bool:
        """One swap of a free card of the seat's zones (any seat's but the viewer's, for a seat None) with a free
        card elsewhere, on `world` and the whole sketch; False when there is none."""
        mine = set(self.zones_of[seat]) if seat is not None and seat != self.seat else \
            {z for s, zones in enumerate(self.zones_of) if s != self.seat for z in zones}
        ours = [c for z in mine for c in world.zones[z] if c not in self.located]
        theirs = [c for z in self.hidden_zones if z not in mine for c in world.zones[z] if c not in self.located]
        if not ours or not theirs:
            return False
        for _ in range(CHECKED):
            x, y = self.rng.choice(ours), self.rng.choice(theirs)
            if self.keeps(x, y):
                self.swap(world, x, y)
                return True
        return False

    def catch_up(self, world: State):
        """Match the events the deal logged since the last call with the view's; None when they match, else the
        seat of the view's event they did not match (the seat whose hidden cards made the deal differ)."""
        events = self.view.events
        fresh = [e for e in world.events[self.read:] if event_visible(e, self.seat)]
        self.read = len(world.events)
        for got in fresh:
            if self.i >= len(events):
                return self.seat
            if not self.fit_event(world, got, events[self.i]):
                return events[self.i].seat
            self.i += 1
        self.fit_own(world)
        return None

    def fit_own(self, world: State) -> None:
        """A card that reached one of the viewer's own zones is one the viewer held, and not one another seat
        names next (it reaches the viewer later, by a move the view shows): swap a free card that is not one of
        those with one of those (not located yet, not in its zones now); it is located from then on."""
        theirs = None
        for z in self.own:
            for x in world.zones[z]:
                if x in self.located:
                    continue
                theirs = self.next_named_by_others() if theirs is None else theirs
                if x not in self.held or x in theirs:
                    now = {c for y in self.own for c in world.zones[y]}
                    spare = [c for c in self.held if c not in self.located and c not in now and c not in theirs]
                    if not spare:
                        continue
                    spare = [c for c in spare if self.keeps(x, c)] or spare
                    y = self.soonest(spare)
                    self.swap(world, x, y)
                    x = y
                self.located.add(x)

    def soonest(self, cards: list):
        """Of the viewer's cards still to reach it, the one the view names first from here (drawn just in time:
        the hand holds no card sooner than it must), at random among those it never names."""
        first: dict = {}
        for k, event in enumerate(self.view.events[self.i:]):
            for c in event.cards:
                first.setdefault(c, k)
        soon = min(first.get(c, len(self.view.events)) for c in cards)
        return self.rng.choice([c for c in cards if first.get(c, len(self.view.events)) == soon])

    def next_named_by_others(self) -> set:
        """The cards whose next mention in the view's events (from the next one to match on) is another seat's: not
        in the viewer's zones now (a card the viewer holds at the end that another seat plays first came to it by a
        visible move, not by a hidden draw)."""
        first: dict = {}
        for event in self.view.events[self.i:]:
            for c in event.cards:
                first.setdefault(c, event.seat)
        return {c for c, seat in first.items() if seat is not None and seat != self.seat}

    def move(self, world: State, j: int) -> Move | None:
        """The move that logged the view's event j: a hidden one chosen, a logged one with its cards swapped into
        the seat's zones first."""
        event = self.view.events[j]
        if masked(event):
            move = self.hidden(world, j)
            if move is not None:
                self.choices[j] = move
            return move
        if event.seat == self.seat:
            self.take_back(world, j, event.cards)
        for c in event.cards:
            if not self.bring(world, event.seat, c, event.cards, event.kind in FROM_HAND):
                return None
        self.located.update(event.cards)  # (where they must stay while the move is made legal)
        move = self.guess.move_of(world, j) or self.reordered(world, j)
        if move is None:  # not legal in this sketch: a declaration, a steal its hand does not allow
            move = _logged(event)
            self.make_legal(world, event.seat, move)
        return move

    def reordered(self, world: State, j: int) -> Move | None:
        """The move that logged the view's event j when the seat's hand lists the cards it names in another order
        (a move names several cards in the order they lie: the order of a hidden hand, which the sketch does not
        know): those cards exchanged through the whole sketch into the logged order — which no event can tell
        from the sketch's when they lie in one zone and no event before j named them. None when no legal move is
        the logged one but for that order."""
        event = self.view.events[j]
        cards = set(event.cards)
        where = {z for z, held in enumerate(world.zones) for c in held if c in cards}
        if len(cards) < 2 or len(where) != 1 or cards & self.guess.named_by[j]:
            return None
        want = _logged(event)
        for move in engine.legal_moves(world):
            got = _leaves(move.value)
            if move.kind == want.kind and len(got) == len(_leaves(want.value)) and \
                    all(g == w or (g in cards and w in cards) for g, w in zip(got, _leaves(want.value))):
                self.relabel(world, [g for g in got if g in cards], [w for w in _leaves(want.value) if w in cards],
                             located=True)
                return want
        return None

    def take_back(self, world: State, j: int, cards: tuple) -> None:
        """Cards the viewer names at its decision j that an exchange (`fix_turn`) put back in a hidden zone: each
        exchanged with one in its zones that no event names up to j (it is drawn later instead)."""
        named = {c for e in self.view.events[:j + 1] for c in e.cards} | set(cards)
        for c in cards:
            if any(c in world.zones[z] for z in self.hidden_zones):
                spare = [x for z in self.own for x in world.zones[z] if x not in named]
                spare = [x for x in spare if self.keeps(c, x)] or spare
                if spare:
                    x = self.rng.choice(spare)
                    self.swap(world, c, x)
                    self.located.discard(x)

    def make_legal(self, world: State, seat: int, move: Move) -> bool:
        """A random walk: swap a free card of the seat's zones with a free card elsewhere until `move` is legal
        (what it says of the hand holds); False if it is not after WALK swaps (it is made all the same: the
        worlds drawn from the sketch are checked)."""
        mine = set(self.zones_of[seat])
        for _ in range(WALK):
            ours = [c for z in mine for c in world.zones[z] if c not in self.located]
            theirs = [c for z in self.hidden_zones if z not in mine for c in world.zones[z] if c not in self.located]
            if not ours or not theirs:
                return False
            self.swap(world, self.rng.choice(ours), self.rng.choice(theirs))
            if move in engine.legal_moves(world):
                return True
        return False

    def hidden(self, world: State, j: int) -> Move | None:
        """A hidden move of another seat: a card not located yet, not one the seat itself names later, if any."""
        event, legal = self.view.events[j], engine.legal_moves(world)
        if event.kind == "declare":
            claims = [m for m in legal if m.kind == "claim"]
            return self.rng.choice(claims) if claims else None
        cards = [m for m in legal if m.kind == "card"]
        later = self.guess.named_after[j + 1] | self.guess.visible  # cards the view names later, or sees now
        best = [m for m in cards if m.value not in self.located and m.value not in later]
        if not best and cards:  # swap one in: a card nobody names, from a hidden place, for a free one here
            ours = [m.value for m in cards if m.value not in self.located]
            spare = [c for z in self.hidden_zones for c in world.zones[z]
                     if c not in self.located and c not in later and c not in ours]
            if ours and spare:
                x, y = self.rng.choice(ours), self.rng.choice(spare)
                self.swap(world, x, y)
                legal = engine.legal_moves(world)
                best = [m for m in legal if m.kind == "card" and m.value == y]
        own = {c for e in self.view.events[j + 1:] if e.seat == event.seat for c in e.cards}
        best = best or [m for m in cards if m.value not in self.located and m.value not in own] or \
            [m for m in cards if m.value not in self.located] or cards
        return self.rng.choice(best) if best else None

    def bring(self, world: State, seat: int, card: int, named: tuple, from_hand: bool) -> bool:
        """Put `card` in a zone of `seat` — its hand (of the trick phases), when known, for a card `from_hand` —
        swapping it with a free card there, unless it lies there already or the view located it elsewhere (the
        move names a card on the table: the move's legality says whether it may); False when there is no room."""
        first = [self.hand[seat]] if seat in self.hand else []
        mine = first if from_hand and first else self.zones_of[seat]
        if any(card in world.zones[z] for z in mine):
            return True
        if card in self.located:  # where the view put it (a card on the table a move names: beaten, covered)
            return True
        for z in first + mine:
            free = [x for x in world.zones[z] if x not in self.located and x not in named]
            held = [x for x in free if x in self.layout.get(z, ())]  # held since the deal: through every move
            if free:  # the seat made that the hand decided (a declaration), as the card was
                self.swap(world, card, self.kept(card, held, [x for x in free if x not in held]))
                return True
        return False

    def fit_event(self, world: State, got, want) -> bool:
        """Match an event the sketch logged with the view's: the same, or the same but for free cards (swapped),
        or the same kind by the same seat, neither a decision (an announcement's words, or its cards in another
        order — a hidden hand's —, tolerated: the worlds are checked, `bots.worlds._alike`)."""
        if _is_decision(got) != _is_decision(want):
            return False
        if self.since:  # cards swapped since the sketch logged it: the event names them as they were
            got = replace(got, cards=tuple(self.since.get(c, c) for c in got.cards))
        if not _same(got, want):
            if got.kind != want.kind or got.seat != want.seat:
                return False
            reordered = want.kind == "announce" and sorted(got.cards) == sorted(want.cards)
            if len(got.cards) == len(want.cards) and replace(got, cards=want.cards) == want and not reordered:
                if not self.relabel(world, got.cards, want.cards):
                    return False
        if want.kind not in UNLOCATING:
            self.located.update(want.cards)
        return True

    def relabel(self, world: State, got, want, located: bool = False) -> bool:
        """Swap free cards (any cards, with `located`) so that the cards `got` (in this order) become the cards
        `want`."""
        if not located and any(g != w and (g in self.located or w in self.located) for g, w in zip(got, want)):
            return False
        now = list(got)  # the sketch's cards, as the swaps so far relabel them
        for k, w in enumerate(want):
            g = now[k]
            if g != w:
                self.swap(world, g, w)
                now = [w if c == g else g if c == w else c for c in now]
        return True

    def fit_zones(self, world: State) -> bool:
        """Swap into each zone the view shows the cards it shows there."""
        self.take_back(world, len(self.view.events) - 1, tuple(c for z in self.own for c in self.view.zones[z]))
        for zid, cards in enumerate(self.view.zones):
            for c in cards:
                if c in world.zones[zid]:
                    continue
                free = [x for x in world.zones[zid] if x not in cards and x not in self.located]
                if c in self.located or not free:
                    return False
                self.swap(world, c, self.rng.choice(free))
                self.located.add(c)
        return True

    def swap(self, world: State, x: int, y: int) -> None:
        """Exchange two free cards through the whole sketch so far; `since` maps a card named by a record logged
        before (an event not yet read) to the card it is now."""
        swap(world, self.layout, self.choices, x, y)
        for name in self.card_vars:  # (a var set from the cards: what a seat will tell of its combinations)
            world.vars[name] = _relabelled(world.vars[name], x, y)
        if self.trail is not None:
            self.trail.swap(x, y)
        since = self.since
        for old, now in list(since.items()):
            since[old] = y if now == x else x if now == y else now
        since.setdefault(x, y)
        since.setdefault(y, x)


def _in_phase(world: State, event) -> bool:
    """Whether `world` is in the phase that logged `event` (a decision; None: any phase)."""
    if event is None or event.phase is None or world.deal_over or world.phase is None:
        return True
    return world.game.phases[world.phase].id == event.phase


def _leaves(value) -> list:
    """The atoms of a move's value, nested tuples flattened in order.

    >>> _leaves(("crib", (30, 29)))
    ['crib', 30, 29]
    """
    if isinstance(value, (tuple, list)):
        return [leaf for part in value for leaf in _leaves(part)]
    return [value]


def _relabelled(value, x: int, y: int):
    """A card var's value (a card, a list of cards, per seat) with cards x and y exchanged."""
    if isinstance(value, list):
        return [_relabelled(v, x, y) for v in value]
    return y if value == x else x if value == y else value


def _logged(event) -> Move:
    """The move an event logs, read from the event alone."""
    if event.kind == "play":
        return Move("card", event.cards[0])
    if event.kind in ("turn", "declare"):
        return event.value[0]
    if event.kind == "call":
        return Move("option", event.value)
    if event.kind == "choose" and isinstance(event.value, tuple):  # (a choice logged with its templated question)
        return event.value[0]
    return event.value
