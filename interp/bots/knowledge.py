"""What a seat knows, derived from its view alone: where each card is, or the hidden places it may be in.

Sources, all generic: the zones the view shows (own hand, face-up zones, a trick in play), the cards the view's
event records name (played, shown, turned up, one's own discards), and the trick rules of the spec's `tricks`
phases replayed over the logged plays:
- a card that does not follow the suit led proves its player holds none of that suit (a *void*);
- when the rules oblige trumping, not trumping as well proves no trump;
- when they oblige overtrumping, a trump no higher than the best one in the trick proves no higher trump;
- an escape card proves nothing, and escape cards are never counted in a suit;
- a card that no tier of a discard's `allowed` rule lets go (worked out on the view) is not in that discard's
  zone (a King is never in a discard that forbids Kings).
A void is about the playing seat's hand from then on (cards that reach a hand later, face down, are not ruled
out — no shipped game gives cards to a hand during the play).

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=7)
>>> kn = knowledge(st.view(0))
>>> sorted(kn.places[c] for c in kn.unknown())[0]   # every unseen card: in the other seat's hand
(1,)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interp.engine import match as engine
from interp.engine.events import phase_of

TRICK = -1  # the place of a card lying in the trick being played


@dataclass
class Knowledge:
    """`known`: card -> the zone id where the view shows it (TRICK for the trick in play); `places`: card -> the
    hidden zone ids it may be in (sorted tuple); `voids`: seat -> suits it holds none of; `trump_cap`: seat ->
    (trump suit, the strength no trump it holds exceeds; -1: no trump at all); `seen`: cards the events named;
    `hands`: hand zone id -> seat, for the hands the deal's trick phases play from (where voids apply);
    `strength`: each card's strength in the tricks (the phase's `strength` table, else the deck's rank order);
    `proofs`: each fact the trick rules proved, with when — (seat, suit, cap, index of the view's event that proved
    it): from then on the seat holds no card of `suit` (cap None) or none stronger than `cap`."""

    known: dict = field(default_factory=dict)
    places: dict = field(default_factory=dict)
    voids: dict = field(default_factory=dict)
    trump_cap: dict = field(default_factory=dict)
    seen: set = field(default_factory=set)
    hands: dict = field(default_factory=dict)
    strength: list = field(default_factory=list)
    proofs: list = field(default_factory=list)

    def unknown(self) -> list:
        """The cards whose place the view does not show."""
        return sorted(self.places)

    def excludes(self, seat: int, suit: str, card: int, escape: bool) -> bool:
        """Whether the trick rules proved that `seat` holds no such card (escape cards are never excluded)."""
        if escape:
            return False
        if suit in self.voids.get(seat, ()):
            return True
        cap = self.trump_cap.get(seat)
        return cap is not None and cap[0] == suit and self.strength[card] > cap[1]


def knowledge(view) -> Knowledge:
    """Everything `view.viewer` can tell about where the cards are (see the module's docstring)."""
    game = view.game
    kn = Knowledge()
    for zid, cards in enumerate(view.zones):
        for c in cards:
            kn.known[c] = zid
    phase = engine.current_phase(view)
    for c in (phase.held(view) if phase is not None else []):
        kn.known[c] = TRICK
    hands = kn.hands = _infer_from_tricks(view, kn)
    for event in view.events:
        kn.seen.update(event.cards)
    hidden = sorted(z for z, k in view.hidden.items() if k > 0)
    # Cards played to tricks never return to a hand; discarded ones may (passed cards are handed on by effects).
    gone = {c for e in view.events if e.kind in ("play", "lead") for c in e.cards}
    deck = game.deck
    escape = _escape_cards(view)
    for c in range(len(deck)):
        if c in kn.known:
            continue
        places = []
        for zid in hidden:
            owner = hands.get(zid)
            if c in gone and owner is not None:
                continue  # a card seen played is not back in a hand
            if owner is not None and kn.excludes(owner, deck.suit_of[c], c, c in escape):
                continue
            places.append(zid)
        kn.places[c] = tuple(places)
    _narrow_seen(view, kn, hands)
    _narrow_discards(view, kn)
    return kn


def _narrow_discards(view, kn: Knowledge) -> None:
    """A discard zone holds only cards the discard's `allowed` rule lets go: a card that no tier allows (worked
    out on the view, for the discarding seat) is not in the zone its discards went to."""
    game, n = view.game, view.n
    done = set()
    for event in view.events:
        if event.kind != "discard" or (event.phase, event.seat) in done:
            continue
        done.add((event.phase, event.seat))
        phase = phase_of(game, event.phase)
        if phase.allowed is None:
            continue
        zid = game.zone_id(phase.target, event.seat, n)
        for c, places in kn.places.items():
            if zid in places and not any(tier.holds(view, event.seat, c) for tier in phase.allowed):
                kn.places[c] = tuple(z for z in places if z != zid)


def _narrow_seen(view, kn: Knowledge, hands: dict) -> None:
    """A card the viewer saw shown (or named in an announcement) by a seat that still holds it hidden: it is in
    that seat's hand."""
    for event in view.events:
        if event.kind not in ("show", "announce") or event.seat is None:
            continue
        zids = [z for z, s in hands.items() if s == event.seat]
        for c in event.cards:
            if c in kn.places and any(z in kn.places[c] for z in zids):
                kn.places[c] = tuple(z for z in kn.places[c] if z in zids)


def _escape_cards(view) -> set:
    return {c for e in view.events if e.kind == "tricks" for c in e.cards}


def _infer_from_tricks(view, kn: Knowledge) -> dict:
    """Replay the logged tricks: record voids and trump caps; returns {hand zone id: seat} of the trick phases."""
    game, n = view.game, view.n
    deck = game.deck
    suit_of = deck.suit_of
    kn.strength = list(deck.rank_of)
    hands: dict = {}
    rules, trump, escape = None, None, set()
    trick: list[int] = []
    for index, event in enumerate(view.events):
        if event.kind == "tricks":
            rules = phase_of(game, event.phase)
            trump, escape, trick = event.value, set(event.cards), []
            if rules.strength is not None:
                kn.strength = rules.strength.values(view, trump)
            for s in range(n):
                hands[game.zone_id(rules.hand, s, n)] = s
        elif event.kind == "lead":
            trick.append(event.cards[0])
        elif event.kind == "trick":
            trick = []
        elif event.kind == "play" and rules is not None:
            card = event.cards[0]
            _infer_play(kn, rules, trump, escape, trick, event.seat, card, suit_of, kn.strength, index)
            trick.append(card)
    return hands


def _infer_play(kn, rules, trump, escape, trick, seat, card, suit_of, rank_of, index: int) -> None:
    """What playing `card` onto `trick` proves under the phase's follow / must_trump / overtrump rules."""
    if not rules.follow or card in escape:
        return
    led = next((suit_of[c] for c in trick if c not in escape), None)
    if led is None:
        return
    suit = suit_of[card]
    best = max((rank_of[c] for c in trick if suit_of[c] == trump and c not in escape), default=-1)
    if suit == led:
        if led == trump and rules.overtrump and rank_of[card] < best:
            _cap(kn, seat, trump, best, index)
        return
    _void(kn, seat, led, index)
    if not rules.must_trump or trump is None or rules.trump_exempt is not None:
        return  # (an exemption from trumping, e.g. while a partner wins, leaves the trumps unproved)
    if suit != trump:
        _void(kn, seat, trump, index)
    elif rules.overtrump and rank_of[card] < best:
        _cap(kn, seat, trump, best, index)


def _void(kn: Knowledge, seat: int, suit: str, index: int) -> None:
    voids = kn.voids.setdefault(seat, set())
    if suit not in voids:
        voids.add(suit)
        kn.proofs.append((seat, suit, None, index))


def _cap(kn: Knowledge, seat: int, trump: str, rank: int, index: int) -> None:
    old = kn.trump_cap.get(seat)
    if old is None or rank < old[1]:
        kn.trump_cap[seat] = (trump, rank)
        kn.proofs.append((seat, trump, rank, index))
