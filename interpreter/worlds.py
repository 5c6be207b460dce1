"""Sampling worlds: complete states consistent with a view, built from the view alone (`engine.sample_world`).

A world is made by dealing a layout and replaying the deal: the hidden part of a state (other hands, the talon,
vars the spec set from them — a called partner, who holds a card) comes from the deal's own rules, so it is
always consistent. The layout is drawn at random under what the viewer knows (`knowledge`): cards seen in a
zone's reveal start there, cards a seat played, showed or (for the viewer) held start in that seat's hand,
and no seat is dealt a card the trick rules proved it does not hold; every other card is shuffled into the
remaining places. The deal is then replayed move by move from the view's events: a move the view shows is
made as logged, a move it hides (another seat's discard, a private claim) is drawn uniformly from the legal
ones. Each replayed step must log exactly the events the view holds, and the result must show the same view;
a layout that does not is drawn again (a bounded number of times, then SamplingError).

The distribution: uniform over the layouts that respect those constraints, filtered by the replay (rejection
sampling), with hidden moves uniform among the legal ones. It is not the exact Bayesian posterior (a seat that
bid high is not assumed to hold good cards, hidden discards are not weighted by how likely a player was to make
them), which is the usual and accepted approximation of determinized search.
"""
from __future__ import annotations

from dataclasses import replace

from . import engine
from .errors import InterpError
from .knowledge import knowledge
from .state import State, event_visible

TRIES = 200


class SamplingError(InterpError):
    """No world consistent with the view was found within the bounded number of tries."""


def sample_world(view: State, rng, tries: int = TRIES) -> State:
    """A complete state of the same match at the same point, consistent with `view` (see the module docstring)."""
    if view.viewer is None:
        raise ValueError("sample_world takes a view (state.view(seat)), not a full state")
    kn = knowledge(view)
    target = _signature(view)
    for _ in range(tries):
        world = _attempt(view, kn, rng)
        if world is not None and _signature(world.view(view.viewer)) == target:
            _match_order(world, view)
            return world
    raise SamplingError(f"no world consistent with the view of seat {view.viewer} in {tries} tries "
                        f"(deal {view.deal_no}, {len(view.events)} events)")


def _fresh(view: State) -> State:
    """The match as it stood before this deal was dealt: the view's match-level state, no deal yet."""
    world = view.copy(events=False)
    world.viewer, world.hidden = None, {}
    world.deal_no -= 1
    world.history = []
    world.seed = 0
    engine.start_deal(world, play=False)
    return world


def _attempt(view: State, kn, rng) -> State | None:
    world = _fresh(view)
    world.seed = rng.getrandbits(32)  # the world's own chance (a later shuffle) is drawn afresh
    layout = _layout(world, view, kn, rng)
    if layout is None:
        return None
    world.stack = layout
    engine.advance(world)
    return _replay(world, view, kn, rng)


def _deal_phase(game):
    return next((p for p in game.phases if p.type_name == "deal" and p.source is None), None)


def _layout(world: State, view: State, kn, rng) -> dict | None:
    """{zone id: cards} for the first deal: known cards where they must start, the rest shuffled under the voids."""
    game, n, seat = world.game, world.n, view.viewer
    phase = _deal_phase(game)
    if phase is None:
        return None
    sizes: dict = {}
    for zid, k in phase.packets(world):
        sizes[zid] = sizes.get(zid, 0) + k
    left = len(game.deck) - sum(sizes.values())
    if phase.rest is not None and left:
        sizes[game.zone_id(phase.rest, None, n)] = left
    pinned = _pins(view, kn, sizes)
    slots = {z: k for z, k in sizes.items()}
    layout = {z: [] for z in sizes}
    for card, zid in pinned.items():
        if slots.get(zid, 0) <= 0:
            continue
        layout[zid].append(card)
        slots[zid] -= 1
    placed = {c for cards in layout.values() for c in cards}
    free = [c for c in range(len(game.deck)) if c not in placed]
    rng.shuffle(free)
    owners = _hand_owners(view)
    deck = game.deck
    escape = {c for e in view.events if e.kind == "tricks" for c in e.cards}

    def allowed(card: int, zid: int) -> bool:
        owner = owners.get(zid)
        return owner is None or not kn.excludes(owner, deck.suit_of[card], deck.rank_of[card], card in escape)

    free.sort(key=lambda c: sum(1 for z in slots if slots[z] > 0 and allowed(c, z)))  # most constrained first
    for card in free:
        options = [z for z, k in slots.items() if k > 0 and allowed(card, z)]
        if not options:
            return None
        zid = rng.choice([z for z in options for _ in range(slots[z])])
        layout[zid].append(card)
        slots[zid] -= 1
    for cards in layout.values():
        rng.shuffle(cards)
    for e in view.events:  # a zone shown as dealt keeps the order it was shown in
        if e.kind == "reveal" and e.value in layout and sorted(e.cards) == sorted(layout[e.value]):
            layout[e.value] = list(e.cards)
    return layout


def _hand_owners(view: State) -> dict:
    from .events import phase_of
    out = {}
    for e in view.events:
        if e.kind == "tricks":
            phase = phase_of(view.game, e.phase)
            out.update({view.game.zone_id(phase.hand, s, view.n): s for s in range(view.n)})
    return out


def _pins(view: State, kn, sizes: dict) -> dict:
    """Cards whose starting zone the view tells: revealed in a dealt zone; held, played, shown or discarded by a
    seat (its hand, the zone the deal gives it). The first fact about a card wins."""
    game, n = view.game, view.n
    hand_of = {}
    for zid in sizes:
        z, owner = game.zone_of(zid, n)
        if owner is not None and z.per_seat:
            hand_of.setdefault(owner, zid)
    pins: dict = {}
    for e in view.events:
        if e.kind == "reveal" and e.value in sizes:
            for c in e.cards:
                pins.setdefault(c, e.value)
    for e in view.events:
        if e.kind in ("play", "show", "discard") and e.seat in hand_of:
            for c in e.cards:
                pins.setdefault(c, hand_of[e.seat])
    own = hand_of.get(view.viewer)
    if own is not None:
        for zid, cards in enumerate(view.zones):
            z, owner = game.zone_of(zid, n)
            if owner == view.viewer and z.per_seat and zid == own:
                for c in cards:
                    pins.setdefault(c, own)
    return pins


def _same(a, b) -> bool:
    if a.kind == "deal" and b.kind == "deal":  # a stacked deal logs itself as such
        return a.seat == b.seat
    return a == b


def _replay(world: State, view: State, kn, rng) -> State | None:
    """Replay the view's decisions on `world`; None as soon as the world logs something the view does not hold."""
    seat, events = view.viewer, view.events
    i, seen = 0, 0
    while True:
        fresh = [e for e in world.events[seen:] if event_visible(e, seat)]
        seen = len(world.events)
        for e in fresh:
            if i >= len(events) or not _same(e, events[i]):
                return None
            i += 1
        if i == len(events):
            return world
        if world.deal_over:
            return None
        move = _move_of(world, events[i], rng, _named(view, i, kn))
        if move is None:
            return None
        engine.apply(world, move, check=False)


def _named(view: State, i: int, kn) -> set:
    """Cards a hidden move now cannot have taken: those the view shows later, or sees in a zone now."""
    return {c for e in view.events[i + 1:] for c in e.cards} | set(kn.known)


def _move_of(world: State, event, rng, named: set):
    """The move that logged `event` (drawn among the legal ones when the view hides it), if legal here."""
    legal = engine.legal_moves(world)
    if event.seat != engine.actor(world):
        return None
    kind, value = event.kind, event.value
    if kind == "play":
        move = world.game.card_moves[event.cards[0]]
    elif kind == "call":
        move = next((m for m in legal if m.kind == "option" and m.value == value), None)
    elif kind == "turn":
        move = value[0]
    elif kind == "declare":
        if value is None:
            claims = [m for m in legal if m.kind == "claim"]
            return rng.choice(claims) if claims else None
        move = value[0]
    elif kind == "discard" and value is None:
        cards = [m for m in legal if m.kind == "card" and m.value not in named]
        return rng.choice(cards) if cards else None
    else:  # bid, choose, a discard the viewer saw
        move = value
    return move if move in legal else None


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
