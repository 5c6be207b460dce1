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

from interp.bots.probe import Probe, _fresh, _is_decision, _Sampler, _same
from interp.bots.repair import masked, swap
from interp.engine import match as engine
from interp.engine.state import Move, State, event_visible
from interp.errors import InterpError

UNLOCATING = ("tell", "tricks")  # events that name cards without saying where they lie


def sketch(view: State, rng) -> Probe | None:
    """The view's deal replayed once with free cards relabelled on demand (see the module docstring); None when the
    replay cannot follow the view (a seat to move that is not the view's, a located card where it cannot be).

    >>> import random
    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> sketch(st.view(engine.to_move(st)), random.Random(1)) is not None
    True
    """
    return _Sketch(view, rng).run()


class _Sketch:
    def __init__(self, view: State, rng):
        self.view, self.rng, self.seat = view, rng, view.viewer
        self.guess = _Sampler(view, rng)  # the probe's first layout and its reading of logged moves
        self.guess.strict = False
        self.located: set = set()
        self.choices: dict = {}  # view event index -> hidden move made
        self.seen: frozenset = frozenset()  # cards a var names where the viewer saw them as the deal began
        self.since: dict = {}  # card as the events being read name it -> the card it is now (see `swap`)
        game, n = view.game, view.n
        self.zones_of = [[z for z in range(len(view.zones)) if game.zone_of(z, n)[1] == s] for s in range(n)]
        self.hand = {s: z for z, s in self.guess.owners.items()}

    def run(self) -> Probe | None:
        view, guess = self.view, self.guess
        seed = self.rng.getrandbits(32)
        world = _fresh(view, seed)
        layout = guess.layout(world)
        if layout is None:
            return None
        self.layout = layout
        events, moves = view.events, []
        i = read = 0
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
            while True:
                fresh = [e for e in world.events[read:] if event_visible(e, self.seat)]
                read = len(world.events)
                for got in fresh:
                    if i >= len(events) or not self.fit_event(world, got, events[i]):
                        return None
                    i += 1
                self.since = {}
                if i == len(events):
                    break
                j = next((k for k in range(i, len(events)) if _is_decision(events[k])), None)
                if world.deal_over or j is None or events[j].seat != engine.actor(world):
                    return None
                move = self.move(world, j)
                if move is None:
                    return None
                moves.append((j, move))
                guess.work += 1
                engine.apply(world, move, check=False)
        except InterpError:
            return None
        if not self.fit_zones(world):
            return None
        moves = [(j, self.choices.get(j, move)) for j, move in moves]
        return Probe(world, seed, layout, moves, guess.work, self.seen)

    def move(self, world: State, j: int) -> Move | None:
        """The move that logged the view's event j: a hidden one chosen, a logged one with its cards swapped into
        the seat's zones first."""
        event = self.view.events[j]
        if masked(event):
            move = self.hidden(world, j)
            if move is not None:
                self.choices[j] = move
            return move
        for c in event.cards:
            if not self.bring(world, event.seat, c, event.cards):
                return None
        move = self.guess.move_of(world, j)
        if move is None:  # (not legal in this sketch: a steal, a claim its hand does not allow; it is made anyway)
            move = _logged(event)
        return move

    def hidden(self, world: State, j: int) -> Move | None:
        """A hidden move of another seat: a card not located yet, not one the seat itself names later, if any."""
        event, legal = self.view.events[j], engine.legal_moves(world)
        if event.kind == "declare":
            claims = [m for m in legal if m.kind == "claim"]
            return self.rng.choice(claims) if claims else None
        cards = [m for m in legal if m.kind == "card"]
        own = {c for e in self.view.events[j + 1:] if e.seat == event.seat for c in e.cards}
        best = [m for m in cards if m.value not in self.located and m.value not in own] or \
            [m for m in cards if m.value not in self.located] or cards
        return self.rng.choice(best) if best else None

    def bring(self, world: State, seat: int, card: int, named: tuple) -> bool:
        """Put `card` in a zone of `seat` (swapping it with a free card there) unless it lies there already."""
        mine = self.zones_of[seat]
        if any(card in world.zones[z] for z in mine):
            return True
        if card in self.located:
            return False
        first = [self.hand[seat]] if seat in self.hand else []
        for z in first + mine:
            free = [x for x in world.zones[z] if x not in self.located and x not in named]
            if free:
                self.swap(world, card, self.rng.choice(free))
                return True
        return False

    def fit_event(self, world: State, got, want) -> bool:
        """Match an event the sketch logged with the view's: the same, or the same but for free cards (swapped),
        or the same kind by the same seat (a declaration's words, tolerated: the worlds are checked)."""
        if self.since:  # cards swapped since the sketch logged it: the event names them as they were
            got = replace(got, cards=tuple(self.since.get(c, c) for c in got.cards))
        if not _same(got, want):
            if got.kind != want.kind or got.seat != want.seat:
                return False
            if len(got.cards) == len(want.cards) and replace(got, cards=want.cards) == want:
                if not self.relabel(world, got.cards, want.cards):
                    return False
        if want.kind not in UNLOCATING:
            self.located.update(want.cards)
        return True

    def relabel(self, world: State, got, want) -> bool:
        """Swap free cards so that the cards `got` (in this order) become the cards `want`."""
        if any(g != w and (g in self.located or w in self.located) for g, w in zip(got, want)):
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
        since = self.since
        for old, now in list(since.items()):
            since[old] = y if now == x else x if now == y else now
        since.setdefault(x, y)
        since.setdefault(y, x)


def _logged(event) -> Move:
    """The move an event logs, read from the event alone."""
    if event.kind == "play":
        return Move("card", event.cards[0])
    if event.kind in ("turn", "declare"):
        return event.value[0]
    if event.kind == "call":
        return Move("option", event.value)
    return event.value
