"""Event text: what a person reads for an event record, rendered when someone reads it (play screen, `interp run`).

Playouts only append records (`state.Event`); this module turns one into a line. `ctx` is anything with the
`game` and the player count `n` — a State or a view.

>>> from interpreter.compiler import load_game
>>> from interpreter import engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=7)
>>> text(st, st.events[0])
'— deal 1, dealer North —'
"""
from __future__ import annotations

from .state import Event, event_visible

MATCH_END = {"target": "the target is reached: the match ends now", "over": "the match is over",
             "agreed": "the match ends by agreement"}


def text(ctx, event: Event) -> str | None:
    """The line for `event`, or None for a record that shows nothing (bookkeeping, the masked side of a claim)."""
    render = KINDS.get(event.kind)
    if render is not None:
        return render(ctx, event)
    return phase_of(ctx.game, event.phase).event_text(ctx, event)  # choose, declare, discard, turn


def lines(ctx, events: list, seat: int | None = None) -> list:
    """The lines of the events `seat` may see (every event for None), skipping those that show nothing."""
    out = []
    for event in events:
        if event_visible(event, seat):
            line = text(ctx, event)
            if line is not None:
                out.append(line)
    return out


def phase_of(game, pid: str):
    return next(p for p in game.phases if p.id == pid)


def _name(ctx, seat) -> str:
    return ctx.game.seat_name(seat, ctx.n)


def _cards(ctx, cards) -> str:
    return " ".join(ctx.game.deck.pretty(c) for c in cards)


def _bid(ctx, event: Event) -> str:
    return f"{_name(ctx, event.seat)}: {phase_of(ctx.game, event.phase).describe(ctx, event.value)}"


def _auction(ctx, event: Event) -> str:
    if event.seat is None:
        return "all pass"
    return f"{_name(ctx, event.seat)} wins the auction with {ctx.game.bids[event.value].label}"


def _call(ctx, event: Event) -> str:
    label = next(a[1] for a in phase_of(ctx.game, event.phase).announcements if a[0] == event.value)
    return f"{_name(ctx, event.seat)} announces {label}"


def _spoken(ctx, event: Event) -> str:
    """What a seat announced, after its name (unless the text begins with it): `North: six!`."""
    if event.seat is None:
        return event.value
    name = _name(ctx, event.seat)
    return event.value if event.value.startswith(name) else f"{name}: {event.value}"


def _trick(ctx, event: Event) -> str:
    if event.seat is None:
        return f"trick {event.value} goes to nobody"
    return f"{_name(ctx, event.seat)} wins trick {event.value}"


KINDS = {
    "deal-start": lambda ctx, e: f"— deal {e.value}, dealer {_name(ctx, e.seat)} —",
    "deal": lambda ctx, e: f"{_name(ctx, e.seat)} deals" + (" (stacked)" if e.value == "stacked" else ""),
    "dealt": lambda ctx, e: None,
    "deal-end": lambda ctx, e: f"deal {e.value} scored",
    "match-end": lambda ctx, e: MATCH_END[e.value],
    "reveal": lambda ctx, e: f"{ctx.game.zone_label(e.value, ctx.n)} shown: {_cards(ctx, e.cards)}",
    "redeal": lambda ctx, e: "the deal is abandoned; the next dealer deals",
    "announce": lambda ctx, e: _spoken(ctx, e),
    "show": lambda ctx, e: f"{_name(ctx, e.seat)} shows {_cards(ctx, e.cards) or 'no cards'}",
    "bid": _bid,
    "auction": _auction,
    "tricks": lambda ctx, e: None,
    "lead": lambda ctx, e: f"turned up from the {e.value}: {_cards(ctx, e.cards)}",
    "play": lambda ctx, e: f"{_name(ctx, e.seat)} plays {_cards(ctx, e.cards)}",
    "call": _call,
    "trick": _trick,
}
