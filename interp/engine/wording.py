"""What a person types at the move prompt, read as a move: the menu of legal moves and the rules that pick one.

The menu lists the legal moves in the order the hand is shown (by suit, high to low; moves naming no card keep the
phase's order), each with its position in brackets: `[1] K♠  [2] 9♠`. What the person types is read, in order:

1. the move as listed, by its notation or its description, in any case, spaces for underscores, a trailing `?`
   optional (`making`, `grand slam` for `grand_slam`);
2. `[N]` or `#N`: the menu position N;
3. a bare number N: the menu position N, unless some move is itself a number (a declared value such as `31`,
   bids of 0–10): then a bare number is only ever that move, and a position must be written `[N]` or `#N`
   (never taken silently);
4. words that fit one move only: each typed word is a word of the move (`7h` for `play 7H`, `quart` for
   `quart to the king`; a word of three letters or more may be cut short). Words that fit several moves are
   refused with the list of what they could mean.

A line of several cards (`7h 8h 9c`) is several moves of the seat to move, each checked in turn (`pick_line`).

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=7)
>>> choices = menu(st, engine.legal_moves(st))
>>> pick(st, "[1]", choices).move == choices[0].move
True
>>> parse_move(st, "[1]") == choices[0].move
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from interp.engine import match as engine
from interp.engine.events import hand_order
from interp.engine.state import Move, State
from interp.errors import IllegalMoveError

ALIASES = {"same": "hold", "p": "pass", "x": "double", "xx": "redouble"}  # words read as another move
_POSITION = re.compile(r"^(?:\[(\d+)\]|#\s*(\d+))$")


@dataclass(frozen=True)
class Choice:
    """One line of the menu: the move, its notation (as saved) and its description (as shown)."""

    move: Move
    notation: str
    label: str
    number: int = 0


@dataclass(frozen=True)
class Picked:
    """The move read from what was typed, and how: `move` (as listed), `position` or `words`."""

    move: Move
    how: str


def menu(st: State, moves: list) -> list:
    """The legal moves as menu choices numbered from 1, the cards among them in the order the hand is shown (so
    the menu reads like the hand, and after a discard every card keeps its place relative to the others)."""
    choices = [Choice(m, engine.notation(st, m), engine.describe(st, m)) for m in moves]
    slots = [i for i, c in enumerate(choices) if _card(c) is not None]
    by_card = {_card(choices[i]): choices[i] for i in slots}
    for i, card in zip(slots, hand_order(st, list(by_card))):
        choices[i] = by_card[card]
    return [Choice(c.move, c.notation, c.label, i) for i, c in enumerate(choices, 1)]


def _card(choice: Choice) -> int | None:
    value = choice.move.value
    return value if choice.move.kind == "card" and isinstance(value, int) else None


def numeric(choices: list) -> bool:
    """Whether some move is written as a bare number, so that a bare number never means a menu position."""
    return any(c.notation.isdecimal() or c.label.isdecimal() for c in choices)


def menu_line(choices: list) -> str:
    items = "  ".join(f"[{c.number}] {c.label}" for c in choices)
    note = "   (a number here is a move; [N] or #N picks by position)" if numeric(choices) else ""
    return "moves: " + items + note


def pick(st: State, text: str, choices: list) -> Picked:
    """The choice `text` names (see the module's rules); IllegalMoveError saying why not, or what it could mean."""
    wanted = _normal(text)
    for choice in choices:
        if wanted in (_normal(choice.notation), _normal(choice.label)):
            return Picked(choice.move, "move")
    position = _POSITION.match(wanted)
    if position or (wanted.isdecimal() and not numeric(choices)):
        digits = position.group(1) or position.group(2) if position else wanted
        number = int(digits) if len(digits) <= len(str(len(choices))) else 0  # never int() of 5,000 digits
        for choice in choices:
            if choice.number == number:
                return Picked(choice.move, "position")
        raise IllegalMoveError(f"there is no move [{digits[:12]}] on the menu ('moves' shows it)")
    if wanted.isdecimal():
        raise IllegalMoveError(f"no move is {wanted}; to pick by position write [{wanted}] or #{wanted}")
    fits = [c for c in choices if _fits(wanted.split(), c)]
    if len(fits) == 1:
        return Picked(fits[0].move, "words")
    if fits:
        raise IllegalMoveError(f"'{text.strip()}' could mean: " + ", ".join(c.label for c in fits))
    raise IllegalMoveError(engine.current_phase(st).explain(st, text))


def _normal(text: str) -> str:
    wanted = " ".join(text.strip().lower().replace("_", " ").split()).rstrip("?").strip()
    return ALIASES.get(wanted, wanted)


def _fits(words: list, choice: Choice) -> bool:
    """Whether every typed word is a word of the choice (or, from three letters on, the start of one)."""
    own = set(_normal(choice.notation).split()) | set(_normal(choice.label).split())
    return bool(words) and all(w in own or (len(w) >= 3 and w.isalpha() and any(o.startswith(w) for o in own))
                               for w in words)


def cards_line(st: State, text: str) -> bool:
    """Whether `text` is several words each naming a card of the deck (`7h 8h 9c`): a line of several moves."""
    words = text.split()
    return len(words) > 1 and all(w.upper() in st.game.deck.index for w in words)


def pick_line(st: State, text: str) -> list:
    """The moves of a line of several cards (`7h 8h 9c`, see `cards_line`) made in turn by the seat to move, each
    read and checked as one typed alone would be after the ones before it (on a copy: `st` is unchanged). All of
    them, or IllegalMoveError naming the first that cannot be made and why: then none is made.

    >>> from interp.spec.compiler import load_game
    >>> game = load_game("docs/examples/tiny.yaml")
    >>> st = engine.new_match(game, seed=7)
    >>> pick_line(st, "9s js")  # a trick: South leads 9♠, then it is North's turn
    Traceback (most recent call last):
    interp.errors.IllegalMoveError: 'js' (the 2nd card of the line): your turn ends after the 1st card; nothing was played
    """
    seat, trial, moves = engine.to_move(st), st.copy(), []
    for i, word in enumerate(text.split()):
        where = f"'{word}' (the {_ordinal(i + 1)} card of the line)"
        if trial.deal_over or engine.to_move(trial) != seat:
            raise IllegalMoveError(f"{where}: your turn ends after the {_ordinal(i)} card; nothing was played")
        try:
            moves.append(pick(trial, word, menu(trial, engine.legal_moves(trial))).move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{where}: {exc.message}; nothing was played") from None
        engine.apply(trial, moves[-1])
    return moves


def _ordinal(k: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th` … `11th`, `21st`."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th") if k % 100 not in (11, 12, 13) else "th"
    return f"{k}{suffix}"


def parse_move(st: State, text: str) -> Move:
    """The legal move written as `text`, read by the rules above (the notation or description in any case,
    `same` = `hold`, `[N]`/`#N` a position on the menu, words that fit one move only); IllegalMoveError says why
    not."""
    if engine.current_phase(st) is None:
        raise IllegalMoveError("no move is pending")
    return pick(st, text, menu(st, engine.legal_moves(st))).move
