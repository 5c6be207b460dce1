"""What a seat sees, as plain data: one record per seat that the table server sends and the terminal prints.

Every function here reads a VIEW (`State.view(seat)`, or `State.view(None)` for a spectator: what is public),
never the full state, so what a record holds is what that seat may know. Cards are named by their code (`10H`);
`deck_record` describes each code once (rank, suit symbol, colour) for whoever draws them. Wording comes from
the engine (`interp.engine.events` for the log, `interp.engine.wording` for the menu); this module only gathers.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=7)
>>> seat = engine.to_move(st)
>>> record = seat_record(st.view(seat), engine.legal_moves(st))
>>> record["you"] == seat and record["decision"]["moves"][0]["n"] == 1
True
>>> seat_record(st.view(None), [])["hand"]
[]
"""
from __future__ import annotations

import re
from fractions import Fraction

from interp.engine import match as engine, wording
from interp.engine.events import hand_order, in_hand_order, lines as event_lines, tricks, tricks_taken
from interp.engine.state import State

RED_SYMBOLS = re.compile("[♥♦]")  # suits drawn in red (on a colour terminal and on the page)


def number(value):
    """A sheet number as JSON holds it: whole numbers stay ints, fractions become floats.

    >>> number(Fraction(3, 2)), number(4)
    (1.5, 4)
    """
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def deck_record(game) -> dict:
    """Each card's code -> how it is drawn: rank label, suit code, suit symbol (or name), red or not, and its
    label as text (`10♥`). The same for every seat: it names the whole deck, not where the cards are."""
    deck = game.deck
    out = {}
    for card, code in enumerate(deck.codes):
        suit = deck.suit_of[card]
        symbol = deck.symbols.get(suit, "") if suit else ""
        out[code] = {"rank": deck.rank_name[card], "suit": suit, "symbol": symbol,
                     "red": bool(RED_SYMBOLS.search(symbol)), "label": deck.pretty(card)}
    return out


def codes(view: State, cards) -> list:
    """Card numbers as codes, in the order given."""
    return [view.game.deck.codes[c] for c in cards]


def seat_name(view: State, seat: int) -> str:
    """A seat's name; seat -1 is a card turned up from a pile rather than played by someone."""
    return "turned up" if seat < 0 else view.game.seat_name(seat, view.n)


def hand_zone(view: State, seat: int | None) -> int | None:
    """The id of `seat`'s own `hand` zone (None for a spectator or a game without one)."""
    ids = view.zone_ids.get("hand")
    return None if seat is None or ids is None or seat >= len(ids) else ids[seat]


def visible_zones(view: State, seat: int | None) -> list:
    """The zones the viewer sees besides its own hand, as the terminal lists them: each with its `title`
    (`North's hand (you play it)`, `talon`), `cards` in hand order (a face-up pile in pile order, top last),
    `hidden` (cards of it not seen), `pile` (whether it is such a pile) and `owner` (a seat, or None)."""
    game = view.game
    mine = hand_zone(view, seat)
    out = []
    for zid, cards in enumerate(view.zones):
        decl, owner = game.zone_of(zid, view.n)
        pile = decl.visible == "top" and zid not in view.revealed
        if zid == mine or not (pile or (cards and (decl.name == "hand" or decl.visible == "all"
                                                     or zid in view.revealed))):
            continue
        label = decl.label or decl.name
        if owner is None:
            title = label
        else:
            title = f"{game.seat_name(owner, view.n)}'s {label}"
            if view.controller[owner] == seat and owner != seat:  # another's hand this seat plays (open play)
                title += " (you play it)"
        shown = list(cards) if pile else in_hand_order(game.deck, cards)
        out.append({"title": title, "cards": codes(view, shown), "hidden": view.hidden.get(zid, 0),
                    "pile": pile, "owner": owner})
    return out


def effective_suits(view: State) -> tuple:
    """Each card's suit and strength in the trick play in progress when its phase has a `suit:` key (a jack
    counted as a trump), else (None, None): the hand is then shown by printed suit."""
    ph = view.ph
    if ph is None or ph.get("suits") is None:
        return None, None
    return ph["suits"], ph.get("strength") or view.game.deck.rank_of


def trick(view: State) -> list:
    """The trick on the table now: `[{seat, name, card}]` in the order played (seat -1: turned up)."""
    phase = engine.current_phase(view)
    if phase is None or phase.type_name != "tricks" or not view.ph or not view.ph.get("trick"):
        return []
    return [{"seat": s, "name": seat_name(view, s), "card": view.game.deck.codes[c]}
            for c, s in zip(view.ph["trick"], view.ph["by"])]


def last_trick(view: State) -> dict | None:
    """The last finished trick of the deal: its number, who played what, and who won it (None: nobody)."""
    done = tricks(view.events)
    if not done:
        return None
    last = done[-1]
    return {"number": last.number, "plays": [{"seat": s, "name": seat_name(view, s), "card": view.game.deck.codes[c]}
                                             for s, c in last.plays],
            "winner": None if last.winner is None else view.game.seat_name(last.winner, view.n)}


def tricks_line(view: State) -> str:
    """The tricks each seat has taken this deal, once a trick is won: `tricks Anne 2, Bruno 0, Claire 1`."""
    if not any(e.kind == "trick" for e in view.events):
        return ""
    taken = tricks_taken(view.events, view.n)
    return "tricks " + ", ".join(f"{view.game.seat_name(s, view.n)} {k}" for s, k in enumerate(taken)
                                 if s in view.active)


def status(view: State) -> str:
    """The spec's `display.status` and the tricks taken: `contract 6♠ · declarer West · tricks …`."""
    return " · ".join(part for part in (view.game.status_line(view), tricks_line(view)) if part)


def running(view: State, seat: int | None) -> list:
    """The spec's `display.running` counts as the viewer may see them, and the phase's own status lines."""
    out = list(view.game.running_lines(view))
    phase = engine.current_phase(view)
    if phase is not None and seat is not None and hasattr(phase, "status"):
        out.extend(phase.status(view, seat))
    return out


def sheet(st: State) -> dict:
    """The score sheet as players keep it: the column headers and one row per seat (a pair column becomes one
    column per other seat, `whists on West`; the diagonal is `·`), the match's result last. The sheet is public."""
    game = st.game
    headers = ["player"]
    for col in game.columns.values():
        label = col.label or col.name
        if col.per == "seat":
            headers.append(label)
        else:
            headers.extend(f"{label} on {game.seat_name(other, st.n)}" for other in range(st.n))
    results = engine.results(st) if game.result is not None else None
    if results is not None:
        headers.append(game.result_label)
    rows = []
    for seat in range(st.n):
        row: list = [game.seat_name(seat, st.n)]
        for col in game.columns.values():
            values = st.sheet[col.name]
            if col.per == "seat":
                row.append(number(values[seat]))
            else:
                row.extend("·" if other == seat else number(values[seat][other]) for other in range(st.n))
        if results is not None:
            row.append(number(results[seat]))
        rows.append(row)
    return {"headers": headers, "rows": rows}


def decision(view: State, seat: int, moves: list) -> dict:
    """The decision at hand for `seat`: the prompt, whose hand it is for, and the menu (`wording.menu`) with each
    move's position `n`, `notation` (what is sent back), `label` and, for a card move, its `card` code."""
    phase = engine.current_phase(view)
    acting = engine.actor(view)
    try:
        asked = phase.prompt(view)
    except Exception:  # a prompt that reads what the view hides: the phase's plain label
        asked = phase.label
    choices = wording.menu(view, moves)
    return {"prompt": asked, "for": None if acting == seat else view.game.seat_name(acting, view.n),
            "phase": phase.type_name,
            "moves": [{"n": c.number, "notation": c.notation, "label": c.label,
                       "card": view.game.deck.codes[c.move.value] if c.move.kind == "card"
                       and isinstance(c.move.value, int) else None} for c in choices]}


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
                             f"{sign}{_text(delta)}")
            else:
                lines.append(f"{game.seat_name(key, st.n)}: {label} {sign}{_text(delta)}")
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


def _text(value) -> str:
    return f"{float(value):g}" if isinstance(value, Fraction) else str(value)


def deal_result(st: State) -> dict | None:
    """The last finished deal as the terminal tells it: its number, void or not, the breakdown or facts, and the
    sheet entries in words. Public (the sheet and the deal's announced facts)."""
    if not st.deals:
        return None
    record = st.deals[-1]
    if record.get("redeal"):
        return {"deal": record["deal"], "void": True, "lines": ["the deal is void (redeal): nothing is scored"]}
    lines = record.get("breakdown") or facts_text(st, record["facts"])
    return {"deal": record["deal"], "void": False, "lines": list(lines) + entries_text(st, record["entries"])}


def final(st: State) -> list:
    """The match's settlement, best first: `[{name, result}]`."""
    results = engine.results(st)
    return [{"name": st.game.seat_name(s, st.n), "result": number(results[s])}
            for s in sorted(range(st.n), key=lambda s: -results[s])]


def seat_record(view: State, moves: list) -> dict:
    """Everything the viewer of `view` sees now, as plain JSON-able data. `moves` are the legal moves when the
    viewer is to move (else ignored). A spectator's view (`view.viewer` None) has no hand and no decision."""
    seat = view.viewer
    mover = engine.to_move(view)
    mine = hand_zone(view, seat)
    hand = hand_order(view, view.zones[mine]) if mine is not None else []
    return {
        "you": seat, "deal": view.deal_no, "dealer": view.game.seat_name(view.dealer, view.n),
        "seats": [{"seat": s, "name": view.game.seat_name(s, view.n), "active": s in view.active,
                   "to_move": mover is not None and engine.actor(view) == s} for s in range(view.n)],
        "to_move": None if mover is None else view.game.seat_name(mover, view.n),
        "status": status(view), "running": running(view, seat),
        "hand": codes(view, hand), "zones": visible_zones(view, seat),
        "trick": trick(view), "last_trick": last_trick(view),
        "log": event_lines(view, view.events, seat),
        "decision": decision(view, seat, moves) if seat is not None and mover == seat and moves else None,
        "deal_over": view.deal_over, "match_over": view.match_over,
        "sheet": sheet(view),
        "result": deal_result(view) if view.deal_over else None,
        "final": final(view) if view.match_over else None,
    }
