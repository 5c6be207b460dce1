"""Event text: what a person reads for an event record, rendered when someone reads it (play screen, `interp run`).

Playouts only append records (`state.Event`); this module turns one into a line. `ctx` is anything with the
`game` and the player count `n` — a State or a view.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=7)
>>> text(st, st.events[0])
'— deal 1, dealer North —'
"""
from __future__ import annotations

from dataclasses import dataclass

from interp.engine.state import Event, event_visible

MATCH_END = {"target": "the target is reached: the match ends now", "over": "the match is over",
             "agreed": "the match ends by agreement"}


def text(ctx, event: Event) -> str | None:
    """The line for `event`, or None for a record that shows nothing (bookkeeping, the masked side of a claim)."""
    render = KINDS.get(event.kind)
    if render is not None:
        return render(ctx, event)
    return phase_of(ctx.game, event.phase).event_text(ctx, event)  # choose, declare, discard, turn


def lines(ctx, events: list, seat: int | None = None) -> list:
    """The lines of the events `seat` may see, skipping those that show nothing, with a run of equal lines as one
    (`Bruno discards a card (×6)`). For seat None (an onlooker who sees everything) the masked side of a private
    move, told to the others while its own seat reads the move, is left out: each move is told once."""
    out = []
    for event in events:
        if event_visible(event, seat) and not (seat is None and masked(event)):
            line = text(ctx, event)
            if line is not None:
                out.append(line)
    return grouped(out)


def masked(event: Event) -> bool:
    """Whether `event` is the others' side of a private move: told to an audience that leaves out its own seat."""
    return event.audience is not None and event.seat is not None and event.seat not in event.audience


def grouped(texts: list) -> list:
    """Runs of equal lines as one line with a count.

    >>> grouped(["a", "b", "b", "b", "a"])
    ['a', 'b (×3)', 'a']
    """
    out: list[str] = []
    counts: list[int] = []
    for line in texts:
        if out and out[-1] == line:
            counts[-1] += 1
        else:
            out.append(line)
            counts.append(1)
    return [line if k == 1 else f"{line} (×{k})" for line, k in zip(out, counts)]


# -- the deal so far, read from the records --------------------------------------------------------------------------
@dataclass(frozen=True)
class Trick:
    """A finished trick: its number, its cards with the seat that played each (-1: turned up), and its winner."""

    number: int
    plays: tuple  # ((seat, card), ...) in the order played
    winner: int | None


def tricks(events: list) -> list:
    """The tricks finished in `events` (one deal's records), in order.

    >>> evs = [Event("play", 0, (3,)), Event("play", 1, (9,)), Event("trick", 1, value=1), Event("play", 1, (4,))]
    >>> tricks(evs)
    [Trick(number=1, plays=((0, 3), (1, 9)), winner=1)]
    """
    out: list[Trick] = []
    current: list[tuple] = []
    for event in events:
        if event.kind == "play":
            current.extend((event.seat, c) for c in event.cards)
        elif event.kind == "lead":
            current.extend((-1, c) for c in event.cards)
        elif event.kind == "trick":
            out.append(Trick(event.value, tuple(current), event.seat))
            current = []
        elif event.kind == "tricks":  # a new trick phase starts afresh
            current = []
    return out


def played(events: list, n: int) -> list:
    """The cards each seat played in `events` (one deal's records), per seat in the order played."""
    out: list[list[int]] = [[] for _ in range(n)]
    for event in events:
        if event.kind == "play" and event.seat is not None:
            out[event.seat].extend(event.cards)
    return out


def tricks_taken(events: list, n: int) -> list:
    """How many tricks each seat has won in `events` (one deal's records)."""
    out = [0] * n
    for event in events:
        if event.kind == "trick" and event.seat is not None:
            out[event.seat] += 1
    return out


def learned(before, after) -> list:
    """The cards a seat sees in `after` (its view of the deal now) that it did not see in `before` (its view
    earlier in the same deal): cards dealt, drawn, turned up, revealed or passed to it, and cards the other seats
    played or showed since; in the order a hand is shown.

    >>> from interp.spec.compiler import load_game
    >>> from interp.engine import match as engine
    >>> game = load_game("docs/examples/tiny.yaml")
    >>> st = engine.new_match(game, seed=7)
    >>> before = st.view(0)
    >>> engine.apply(st, engine.legal_moves(st)[0])  # North leads a card South had not seen
    >>> [game.deck.code(c) for c in learned(before, st.view(0))]
    ['9S']
    """
    return in_hand_order(after.game.deck, _seen(after) - _seen(before))


def _seen(view) -> set:
    """The cards `view` shows: in its zones, or named by its events (the deal so far)."""
    return {c for cards in view.zones for c in cards} | {c for e in view.events for c in e.cards}


def phase_of(game, pid: str | None):
    """The phase with id `pid` (the phase that logged an event)."""
    return next(p for p in game.phases if p.id == pid)


def _name(ctx, seat) -> str:
    return ctx.game.seat_name(seat, ctx.n)


def _cards(ctx, cards) -> str:
    return " ".join(ctx.game.deck.pretty(c) for c in cards)


def in_hand_order(deck, cards) -> list:
    """`cards` as a hand is shown: the suits in the deck's order, then the other cards by suit; high to low."""
    def key(card):
        suit = deck.suit_of[card]
        return (deck.suits.index(suit), "", -deck.rank_of[card]) if suit in deck.suits \
            else (len(deck.suits), suit, -deck.rank_of[card])
    return sorted(cards, key=key)


def hand_order(st, cards) -> list:
    """`cards` (a hand) in the order shown to its player now: grouped by the effective suits of the trick play in
    progress (its `suit:` key: a jack counted in the trump suit sits among the trumps), else `in_hand_order`."""
    ph = st.ph
    if ph is None or st.phase >= len(st.game.phases) or ph.get("suits") is None:
        return in_hand_order(st.game.deck, cards)
    sets = st.game.phases[st.phase].suit_sets(st)
    return sorted(cards, key=sets.position.__getitem__)


def _bid(ctx, event: Event) -> str:
    return f"{_name(ctx, event.seat)}: {phase_of(ctx.game, event.phase).describe(ctx, event.value)}"


def _auction(ctx, event: Event) -> str:
    if event.seat is None:
        return "all pass"
    high, doubled = event.value if isinstance(event.value, list) else (event.value, 0)  # [high, 1 or 2]: doubled
    label = ctx.game.bids[high].label + ("", " doubled", " redoubled")[doubled]
    return f"{_name(ctx, event.seat)} wins the auction with {label}"


def _call(ctx, event: Event) -> str:
    label = phase_of(ctx.game, event.phase).call_label(ctx, event.seat, event.value)
    return f"{_name(ctx, event.seat)} announces {label}"


def _spoken(ctx, event: Event) -> str:
    """What a seat announced, after its name (unless the text begins with it): `North: six!`."""
    if event.seat is None:
        return event.value
    name = _name(ctx, event.seat)
    return event.value if event.value.startswith(name) else f"{name}: {event.value}"


def _rules(ctx, event: Event) -> str:
    """The follow rules of the tricks from now on (logged when they change): `rules: follow suit, trump, head`."""
    follow, must_trump, overtrump, must_beat = event.value
    said = [word for word, on in (("follow suit", follow), ("beat the trick in the suit led", follow and must_beat),
                                  ("trump when void", follow and must_trump), ("overtrump", follow and overtrump))
            if on]
    return "rules from now on: " + (", ".join(said) if said else "any card may be played")


def _trick(ctx, event: Event) -> str:
    if event.seat is None:
        return f"trick {event.value} goes to nobody"
    return f"{_name(ctx, event.seat)} wins trick {event.value}"


KINDS = {
    "deal-start": lambda ctx, e: f"— deal {e.value}, dealer {_name(ctx, e.seat)} —",
    "deal": lambda ctx, e: f"{_name(ctx, e.seat)} deals" + (" (stacked)" if e.value == "stacked" else ""),
    "deal-end": lambda ctx, e: f"deal {e.value} scored",
    "match-end": lambda ctx, e: MATCH_END[e.value],
    "reveal": lambda ctx, e: f"{ctx.game.zone_label(e.value, ctx.n)} shown: {_cards(ctx, e.cards)}",
    "redeal": lambda ctx, e: "the deal is abandoned; the next dealer deals",
    "announce": lambda ctx, e: _spoken(ctx, e),
    "tell": lambda ctx, e: f"{e.value}: {_cards(ctx, e.cards)}" if e.cards else e.value,
    "show": lambda ctx, e: f"{_name(ctx, e.seat)} shows {_cards(ctx, e.cards) or 'no cards'}",
    "bid": _bid,
    "auction": _auction,
    "tricks": lambda ctx, e: None,
    "lead": lambda ctx, e: f"turned up from the {e.value}: {_cards(ctx, e.cards)}",
    "play": lambda ctx, e: f"{_name(ctx, e.seat)} plays {_cards(ctx, e.cards)}",
    "call": _call,
    "rules": _rules,
    "trick": _trick,
}
