"""A readable summary of a game, generated from its compiled spec: what `interp rules FILE` and `rules` at the
table show. It says what the spec says — the deck, the phases of a deal in order (with the auction ladder, the
trick rules, the actions and choices under their own labels), the score sheet and the options with their docs.

>>> from interp.spec.compiler import load_game
>>> lines = summary(load_game("docs/examples/tiny.yaml"))
>>> lines[0]
'Tiny Tricks — 2 players, 24 cards'
>>> any(line.startswith("Deck:") for line in lines)
True
"""
from __future__ import annotations

from fractions import Fraction


def summary(game, n: int | None = None) -> list:
    """The lines of the summary; `n` (a player count) is named when the game allows several."""
    counts = "/".join(map(str, game.players))
    lines = [f"{game.name} — {counts} players, {len(game.deck)} cards"]
    if game.description:
        lines.append(" ".join(game.description.split()))
    lines += deck_lines(game)
    lines.append("A deal, in order:")
    for number, phase in enumerate(game.phases, 1):
        detail = phase_detail(game, phase)
        when = " (only sometimes)" if phase.when is not None else ""
        lines.append(f"  {number}. {phase.label}{when}" + (f": {detail}" if detail else ""))
    lines += sheet_lines(game)
    if game.options:
        lines.append("Options (set with -o NAME=VALUE):")
        for name, decl in game.options.items():
            doc = decl.get("doc", "")
            lines.append(f"  {name} = {_value(decl['default'])}" + (f" — {doc}" if doc else ""))
    return lines


def deck_lines(game) -> list:
    deck = game.deck
    suits = ", ".join(f"{deck.symbols.get(s, s) if isinstance(deck.symbols, dict) else s} {deck.suit_names.get(s, s)}"
                      for s in deck.suits)
    ranks = _suit_ranks(deck)
    extras = [c for c in range(len(deck)) if deck.suit_of[c] not in deck.suits]
    lines = [f"Deck: {suits}" + (f"; ranks low to high {' '.join(ranks)}" if ranks else "")
             + (f"; {len(extras)} other cards ({_span(deck, extras)})" if extras else "")]
    points = _points(deck)
    if points:
        lines.append(f"Card points: {points}")
    return lines


TRICK_RULES = {"follow": "follow suit", "must_beat": "beat the best card of the suit led when you can",
               "must_trump": "trump when you cannot follow", "overtrump": "overtrump when you can"}


def trick_rules(phase) -> list:
    """A tricks phase's rules in words: `follow suit, trump when you cannot follow`; a rule written as a condition
    with it (`follow suit (when strict)`), a card's suit in the play and when the play stops as the spec writes them."""
    texts = phase.texts
    rules = [] if phase.follow or "follow" in texts else ["any card may be played"]
    for key, words in TRICK_RULES.items():
        if key in texts:
            rules.append(f"{words} (when {texts[key]})")
        elif getattr(phase, key):
            rules.append(words)
    if phase.escape is not None:
        rules.append("an escape card may always be played")
    if "suit" in texts:
        rules.append(f"a card's suit in the play: {texts['suit']}")
    if "until" in texts:
        rules.append(f"the play stops when {texts['until']}")
    return rules


def phase_detail(game, phase) -> str:
    """One phrase for a phase, by its type: the ladder, the trick rules, the actions or the choices."""
    kind = phase.type_name
    if kind == "auction":
        return "bids from low to high: " + " < ".join(b.label for b in game.bids)
    if kind == "tricks":
        return "tricks: " + ", ".join(trick_rules(phase))
    if kind == "turns":
        return "on your turn, one of: " + ", ".join(a.name.replace("_", " ") for a in phase.actions)
    if kind == "choose" and phase.options and phase.source is None:
        return "choose: " + ", ".join(option[3] or option[0] for option in phase.options)
    if kind == "declare":
        return "declare in turn: " + ", ".join(c.label or c.name for c in phase.categories)
    if kind == "discard":
        return f"cards go from {phase.source} to {phase.target}"
    if kind == "deal":
        return f"cards into each {phase.into}" + (f", the rest to the {phase.rest}" if phase.rest else "")
    return ""


def sheet_lines(game) -> list:
    columns = ", ".join(c.label or c.name for c in game.columns.values())
    line = f"Score sheet: {columns}"
    if game.result is not None:
        line += f"; the result: {game.result_label}"
    return [line]


def _suit_ranks(deck) -> list:
    suited = [c for c in range(len(deck)) if deck.suit_of[c] == deck.suits[0]] if deck.suits else []
    return [deck.rank_name[c] for c in sorted(suited, key=lambda c: deck.rank_of[c])]


def _span(deck, cards: list) -> str:
    names = [deck.pretty(c) for c in sorted(cards, key=lambda c: (deck.suit_of[c], deck.rank_of[c]))]
    return " ".join(names) if len(names) <= 4 else f"{names[0]} {names[1]} … {names[-1]}"


def _points(deck) -> str:
    """Card points by rank where every suit agrees, and for each other card that counts: `A 11, 10 10, K 4`."""
    by_rank: dict = {}
    for c in range(len(deck)):
        if deck.suit_of[c] in deck.suits:
            by_rank.setdefault(deck.rank_name[c], set()).add(deck.points[c])
    parts = [f"{rank} {_value(next(iter(values)))}" for rank, values in by_rank.items()
             if len(values) == 1 and next(iter(values))]
    others: dict = {}
    for c in range(len(deck)):
        if deck.points[c] and (deck.suit_of[c] not in deck.suits or len(by_rank[deck.rank_name[c]]) > 1):
            others.setdefault(deck.points[c], []).append(c)
    parts += [f"{_span(deck, cards)} {_value(value)}" + (" each" if len(cards) > 1 else "")
              for value, cards in others.items()]
    return ", ".join(parts)


def _value(value) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):g}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
