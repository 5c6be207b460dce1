"""Text for people: hands grouped by suit, the table as a seat sees it, the score sheet, deal results.

rich draws the tables (aligned columns, and colour on a terminal, plain text when piped); every function
returns renderables or strings and prints nothing itself. Text from a spec, a save or a person reaches the
terminal only literally: through a `LiteralConsole` (never markup, emoji codes or control characters) or `styled`.
"""
from __future__ import annotations

import re
from fractions import Fraction

from rich.console import Console
from rich.table import Table
from rich.text import Text

from interp.engine import match as engine
from interp.engine.events import played, tricks, tricks_taken
from interp.engine.state import State


# C0 and C1 control characters but tab and newline, and the bidirectional overrides that reorder what is shown
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def literal(text: str) -> str:
    r"""`text` safe to show on a terminal: control characters become visible escapes, so a spec or a person
    cannot clear the screen, retitle the window or reorder a line.

    >>> literal("x\x1b]0;owned\x07 [/red]")
    'x\\x1b]0;owned\\x07 [/red]'
    """
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def styled(*parts) -> Text:
    """One line from plain parts and (text, style) parts, each shown literally (no markup, see `literal`).

    >>> styled(("Deal 3", "bold"), " [red]x").plain
    'Deal 3 [red]x'
    """
    return Text.assemble(*((literal(p[0]), p[1]) if isinstance(p, tuple) else literal(p) for p in parts))


class LiteralConsole(Console):
    """A rich Console whose strings (printed, or in table cells and titles) are shown as written: never read
    as markup (`[/red]`) or emoji codes, control characters escaped. Style with `style=` or `styled`."""

    def __init__(self, **kwargs):
        super().__init__(markup=False, emoji=False, highlight=False, **kwargs)

    def render_str(self, text: str, **kwargs) -> Text:
        return colour(super().render_str(literal(text), **{**kwargs, "markup": False, "emoji": False}))


RED_SUITS = re.compile("[♥♦]")


def colour(text):
    """`text` with the red suits' symbols in red (seen on a colour terminal only; plain text is unchanged).

    >>> colour("10♥ K♠").spans
    [Span(2, 3, 'red')]
    """
    text = text if isinstance(text, Text) else Text(literal(text))
    text.highlight_regex(RED_SUITS, "red")
    return text


def number(value) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):g}"
    return str(value)


def hand_text(game, cards: list) -> str:
    """Cards grouped by suit, high to low: `♠ A 10 7   ♥ K Q`; cards outside the suits last."""
    deck = game.deck
    parts = []
    for suit in deck.suits:
        ranks = sorted((c for c in cards if deck.suit_of[c] == suit), key=lambda c: -deck.rank_of[c])
        if ranks:
            parts.append(game.suit_label(suit) + " " + " ".join(deck.rank_name[c] for c in ranks))
    others = sorted((c for c in cards if deck.suit_of[c] not in deck.suits),
                    key=lambda c: (deck.suit_of[c], -deck.rank_of[c]))
    if others:
        parts.append(" ".join(deck.pretty(c) for c in others))
    return "   ".join(parts) if parts else "(none)"


def table_lines(view: State, seat: int) -> list:
    """What `seat` sees now: its hand, hands it controls or that are shown, other visible zones, the trick."""
    game = view.game
    lines = []
    status = " · ".join(part for part in (game.status_line(view), tricks_status(view)) if part)
    if status:
        lines.append(status)
    lines.extend(game.running_lines(view))
    for zid, cards in enumerate(view.zones):
        decl, owner = game.zone_of(zid, view.n)
        if decl.visible == "top" and zid not in view.revealed:
            lines.append(pile_line(view, zid, cards))
            continue
        if not cards or (decl.name != "hand" and decl.visible != "all" and zid not in view.revealed):
            continue
        if owner == seat:
            title = "your hand"
        elif owner is not None:
            title = f"{game.seat_name(owner, view.n)}'s {decl.label or decl.name}"
            if view.controller[owner] == seat:
                title += " (you play it)"
        else:
            title = decl.label or decl.name
        lines.append(f"{title}: {hand_text(game, cards)}")
    phase = engine.current_phase(view)
    if phase is not None and phase.type_name == "tricks" and view.ph and view.ph.get("trick"):
        shown = ", ".join(f"{_by(view, s)} {game.deck.pretty(c)}" for c, s in zip(view.ph["trick"], view.ph["by"]))
        lines.append(f"trick: {shown}")
    if phase is not None and hasattr(phase, "status"):
        lines.extend(phase.status(view, seat))
    return lines


def tricks_status(view: State) -> str:
    """The tricks each seat has taken this deal, once a trick is won: `tricks Anne 2, Bruno 0, Claire 1`."""
    taken = tricks_taken(view.events, view.n)
    if not any(e.kind == "trick" for e in view.events):
        return ""
    return "tricks " + ", ".join(f"{view.game.seat_name(s, view.n)} {k}" for s, k in enumerate(taken)
                                 if s in view.active)


def last_trick_line(view: State) -> str:
    """The last finished trick of the deal and who won it: `last trick (3): Anne K♠, Bruno 9♠ — Anne wins`."""
    done = tricks(view.events)
    if not done:
        return "No trick has been finished yet in this deal."
    trick = done[-1]
    cards = ", ".join(f"{_by(view, s)} {view.game.deck.pretty(c)}" for s, c in trick.plays)
    winner = "nobody wins it" if trick.winner is None else f"{view.game.seat_name(trick.winner, view.n)} wins"
    return f"last trick ({trick.number}): {cards} — {winner}"


def played_lines(view: State) -> list:
    """The cards each seat has played this deal, as a hand is shown: `Bruno: ♠ K 9   ♥ A`."""
    cards = played(view.events, view.n)
    if not any(cards):
        return ["No card has been played yet in this deal."]
    return [f"{view.game.seat_name(s, view.n)}: {hand_text(view.game, cs)}" for s, cs in enumerate(cards)
            if s in view.active]


def pile_line(view: State, zid: int, cards: list) -> str:
    """A face-up pile as the viewer sees it, in order with its top card last: `table (7 cards): 5♠ 5♥ … 7♥`."""
    game = view.game
    decl, _ = game.zone_of(zid, view.n)
    hidden = view.hidden.get(zid, 0)
    total = len(cards) + hidden
    if not total:
        return f"{decl.label or decl.name}: empty"
    shown = [game.deck.pretty(c) for c in cards]
    if hidden:
        shown.insert(len(shown) - 1 if shown else 0, "…")
    return f"{decl.label or decl.name} ({total} card{'s' if total != 1 else ''}, top last): {' '.join(shown)}"


def _by(view: State, seat: int) -> str:
    return "turned up" if seat < 0 else view.game.seat_name(seat, view.n)


def sheet_table(st: State, title: str = "score sheet") -> Table:
    """One row per seat: each per-seat column, pair columns as 'against X', and the running result."""
    game = st.game
    table = Table(title=title, title_justify="left")
    table.add_column("player")
    for col in game.columns.values():
        if col.per == "seat":
            table.add_column(col.label or col.name, justify="right")
        else:
            for other in range(st.n):
                table.add_column(f"{col.label or col.name} on {game.seat_name(other, st.n)}", justify="right")
    if game.result is not None:
        table.add_column(game.result_label, justify="right")
    results = engine.results(st) if game.result is not None else None
    for seat in range(st.n):
        row = [game.seat_name(seat, st.n)]
        for col in game.columns.values():
            values = st.sheet[col.name]
            if col.per == "seat":
                row.append(number(values[seat]))
            else:
                row.extend("·" if other == seat else number(values[seat][other]) for other in range(st.n))
        if results is not None:
            row.append(number(results[seat]))
        table.add_row(*row)
    return table


def entries_text(st: State, entries: dict) -> list:
    """A deal's sheet entries in words: `West: mountain +30`, `South: whists on West +54`."""
    game = st.game
    lines = []
    for name, diff in entries.items():
        label = game.columns[name].label or name
        for key, delta in diff.items():
            sign = "+" if delta > 0 else ""
            if isinstance(key, tuple):
                lines.append(f"{game.seat_name(key[0], st.n)}: {label} on {game.seat_name(key[1], st.n)} "
                             f"{sign}{number(delta)}")
            else:
                lines.append(f"{game.seat_name(key, st.n)}: {label} {sign}{number(delta)}")
    return lines or ["no entries"]


def facts_text(st: State, facts: dict) -> list:
    """The deal's facts as players say them, skipping those that did not apply (their `when` is false).
    Call it while the state still holds the deal (before the next deal starts)."""
    game = st.game
    out = []
    for decl in game.facts:
        if decl.when is not None and not decl.when(st):
            continue
        var = game.vars[decl.name]
        value = facts.get(decl.name)
        if var.per_seat:
            seats = decl.seats(st) if decl.seats is not None else range(st.n)
            per_seat = value if value is not None else [None] * st.n
            shown = ", ".join(f"{game.seat_name(s, st.n)} {game.show(per_seat[s], var.type, st.n) or '-'}"
                              for s in seats)
        elif var.type == "bool":
            shown = "yes" if value else "no"
        elif var.type == "bid":
            bid = game.bids_by_name.get(value)
            shown = bid.label if bid else "-"
        else:
            shown = game.show(value, var.type, st.n) or "-"
        out.append(f"{decl.name.replace('_', ' ')}: {shown}")
    return out
