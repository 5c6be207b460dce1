"""Repairing a sampled world (see bots.worlds): what the viewer has seen, event by event, and the swaps that make
a replayed move possible. Where the replay needs a card the layout put elsewhere (a card played that the layout
dealt to another seat, a card in the viewer's hand that a hidden exchange brought), it is swapped, in the world,
the layout and the hidden moves drawn so far, with a card the viewer has never seen (`unseen`) from the place
where it is needed; no card goes where the trick rules proved its holder short of it (`allowed`)."""
from __future__ import annotations

from dataclasses import replace

from interp.bots.knowledge import knowledge
from interp.engine import match as engine
from interp.engine.state import State

WALK = 40  # swaps tried, at most, to make one logged move legal


class Repairs:
    """One view's sampling, the part that knows what the view has seen (computed once) and repairs a world
    against it; `worlds._Sampler` draws, replays and climbs on it."""

    def __init__(self, view: State, rng, limit: int | None = None):
        if view.viewer is None:
            raise ValueError("sample_world takes a view (state.view(seat)), not a full state")
        self.seat: int = view.viewer
        self.view, self.rng, self.limit = view, rng, limit
        self.kn = knowledge(view)
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
        self.sheds = {e.seat for e in view.events if masked(e) and e.kind == "discard"}  # discard unseen cards
        self.work = 0  # moves replayed or tried, and deals dealt, so far
        self.strict = True  # off: the voids the trick rules proved are not enforced (bots.probe)

    def allowed(self, card: int, zid: int, dealt: bool = False) -> bool:
        """Whether the trick rules let `card` lie in zone `zid` (a hand whose seat was proved short of it);
        `dealt`: at the deal, when a seat that discards unseen may still have been dealt it."""
        owner = self.owners.get(zid)
        if not self.strict or (dealt and owner in self.sheds):
            return True
        deck = self.view.game.deck
        return owner is None or not self.kn.excludes(owner, deck.suit_of[card], card,
                                                     card in self.escape)

    def move_of(self, world: State, i: int):
        """The move that logged the view's event i (drawn among the legal ones when the view hides it), if legal."""
        event = self.view.events[i]
        legal = engine.legal_moves(world)
        kind, value = event.kind, event.value
        if kind == "play":
            move = world.game.card_moves[event.cards[0]]
            if not self.strict and move not in legal and self.holds(world, event.seat, event.cards[0]):
                return move  # (the follow rules are not enforced: the card need only be in the seat's hand)
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

    def holds(self, world: State, seat: int, card: int) -> bool:
        """Whether `card` lies in a zone of `seat`."""
        game, n = world.game, world.n
        return any(card in cards and game.zone_of(z, n)[1] == seat for z, cards in enumerate(world.zones))

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
                swap(world, layout, choices, x, self.rng.choice(ys))
        for z in mine:
            for y in list(world.zones[z]):
                if y in self.named_by[i + 1] or self.allowed(y, z):
                    continue
                others = [c for w, cards in enumerate(world.zones) if w not in mine and self.allowed(y, w)
                          for c in cards if self.unseen(c, i + 1) and self.allowed(c, z)
                          and self.hidden_now(world, c) == w]
                if others:
                    swap(world, layout, choices, y, self.rng.choice(others))

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
            swap(world, layout, choices, w, v)
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
                swap(world, layout, choices, x, y)
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
                    swap(world, layout, choices, x, self.rng.choice(ys))
            spent = set()  # (played cards come from the first such zone, the hand)

    def fit_visible(self, world: State, layout: dict, choices: dict) -> bool:
        """Swap into each zone the view shows the cards it shows there (a hidden exchange may have brought them),
        and make the card vars the view shows (a deal's first table cards) name the view's cards."""
        end = len(self.view.events)
        for x, y in self.var_cards(world):
            if x != y and self.unseen(x, end) and y not in self.named_by[end]:
                swap(world, layout, choices, x, y)
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
                swap(world, layout, choices, x, self.rng.choice(ys))
        return True


def masked(event) -> bool:
    """Whether the event logs a decision the viewer may not see (another seat's discard, a private claim)."""
    return event.value is None and event.kind in ("discard", "declare")


def swap(world: State, layout: dict, choices: dict, x: int, y: int) -> None:
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


def _reorder(layout: dict, cards: tuple) -> bool:
    """Put `cards` in this order within each dealt zone that holds some of them (keeping the zone's slots)."""
    rank = {c: k for k, c in enumerate(cards)}
    for zone in layout.values():
        slots = [k for k, c in enumerate(zone) if c in rank]
        for k, c in zip(slots, sorted((zone[k] for k in slots), key=rank.__getitem__)):
            zone[k] = c
    return True
