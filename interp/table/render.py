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
from interp.engine.events import played
from interp.engine.state import State
from interp.table import present
from interp.table.present import entries_text, facts_text  # noqa: F401  (the words of a deal's result)

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


RED_SUITS = present.RED_SYMBOLS  # the page draws the same suits red


def colour(text):
    """`text` with the red suits' symbols in red (seen on a colour terminal only; plain text is unchanged).

    >>> colour("10♥ K♠").spans
    [Span(2, 3, 'red')]
    """
    text = text if isinstance(text, Text) else Text(literal(text))
    text.highlight_regex(RED_SUITS, "red")
    return text


def number(value) -> str:
    if isinstance(value, (Fraction, float)):
        return f"{float(value):g}"
    return str(value)


def hand_text(game, cards: list, suits: list | None = None, strength: list | None = None) -> str:
    """Cards grouped by suit, high to low: `♠ A 10 7   ♥ K Q`; cards outside the suits last. With `suits` (each
    card's effective suit in the trick play, see `present.effective_suits`) and their `strength`: grouped by
    those, a card of another printed suit written in full (`♠ J J♣ A 10`)."""
    deck = game.deck
    if suits is not None:
        return _effective_hand_text(game, cards, suits, strength or deck.rank_of)
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


def _effective_hand_text(game, cards: list, suits: list, strength: list) -> str:
    deck = game.deck
    order = [s for s in deck.suits if any(suits[c] == s for c in cards)]
    order += sorted({suits[c] for c in cards} - set(order), key=str)
    parts = []
    for suit in order:
        mine = sorted((c for c in cards if suits[c] == suit), key=lambda c: -strength[c])
        names = [deck.rank_name[c] if deck.suit_of[c] == suit else deck.pretty(c) for c in mine]
        parts.append(game.suit_label(suit) + " " + " ".join(names))
    return "   ".join(parts) if parts else "(none)"


def table_lines(view: State, seat: int) -> list:
    """What `seat` sees now: its hand, hands it controls or that are shown, other visible zones, the trick
    (gathered by `present`, the same records the table server sends)."""
    game, deck = view.game, view.game.deck
    lines = []
    status = present.status(view)
    if status:
        lines.append(status)
    lines.extend(game.running_lines(view))
    mine = present.hand_zone(view, seat)
    if mine is not None and view.zones[mine]:
        lines.append(f"your hand: {hand_text(game, view.zones[mine], *present.effective_suits(view))}")
    for zone in present.visible_zones(view, seat):
        cards = [deck.parse(c) for c in zone["cards"]]
        if zone["pile"]:
            lines.append(pile_text(zone["title"], [deck.pretty(c) for c in cards], zone["hidden"]))
        else:
            lines.append(f"{zone['title']}: {hand_text(game, cards)}")
    trick = present.trick(view)
    if trick:
        lines.append("trick: " + ", ".join(f"{p['name']} {deck.pretty(deck.parse(p['card']))}" for p in trick))
    phase = engine.current_phase(view)
    if phase is not None and hasattr(phase, "status"):
        lines.extend(phase.status(view, seat))
    return lines


def tricks_status(view: State) -> str:
    """The tricks each seat has taken this deal, once a trick is won: `tricks Anne 2, Bruno 0, Claire 1`."""
    return present.tricks_line(view)


def last_trick_line(view: State) -> str:
    """The last finished trick of the deal and who won it: `last trick (3): Anne K♠, Bruno 9♠ — Anne wins`."""
    last = present.last_trick(view)
    if last is None:
        return "No trick has been finished yet in this deal."
    deck = view.game.deck
    cards = ", ".join(f"{p['name']} {deck.pretty(deck.parse(p['card']))}" for p in last["plays"])
    winner = "nobody wins it" if last["winner"] is None else f"{last['winner']} wins"
    return f"last trick ({last['number']}): {cards} — {winner}"


def played_lines(view: State) -> list:
    """The cards each seat has played this deal, as a hand is shown: `Bruno: ♠ K 9   ♥ A`."""
    cards = played(view.events, view.n)
    if not any(cards):
        return ["No card has been played yet in this deal."]
    return [f"{view.game.seat_name(s, view.n)}: {hand_text(view.game, cs)}" for s, cs in enumerate(cards)
            if s in view.active]


def pile_text(title: str, shown: list, hidden: int) -> str:
    """A face-up pile as the viewer sees it, in order with its top card last: `table (7 cards, top last): 5♠ … 7♥`."""
    total = len(shown) + hidden
    if not total:
        return f"{title}: empty"
    if hidden:
        shown = shown[:-1] + ["…"] + shown[-1:] if shown else ["…"]
    return f"{title} ({total} card{'s' if total != 1 else ''}, top last): {' '.join(shown)}"


def sheet_table(st: State, title: str = "score sheet") -> Table:
    """One row per seat: each per-seat column, pair columns as 'against X', and the running result
    (`present.sheet`, as the table server sends it)."""
    data = present.sheet(st)
    table = Table(title=title, title_justify="left")
    for i, header in enumerate(data["headers"]):
        table.add_column(header, justify="right" if i else "left")
    for row in data["rows"]:
        table.add_row(*(cell if isinstance(cell, str) else number(cell) for cell in row))
    return table
