"""`interp score`: bookkeeping for games played with real cards.

The spec's `facts:` say what scoring reads (for a game with an auction: who declared, the contract, each
player's calls and tricks). Each deal's facts come from a YAML file or from questions at the terminal; the
spec's own `scoring` statements write the sheet, exactly as after a deal played in the engine. Facts whose
`when` is false are not asked.

Input file (fact names are the spec's; per-seat facts map seat names to values):
    players: 3
    dealer: South          # who dealt the first deal (the deal passes to the left)
    options: {target: 10}
    deals:
      - {declarer: West, contract: 7H, call: {South: whist, North: pass}, tricks: {West: 7, South: 2, North: 1}}
"""
from __future__ import annotations

from typing import Callable

from . import engine
from .errors import ScenarioError
from .state import State
from .values import parse_seat, parse_value


def new_sheet(game, players: int | None, options: dict | None, dealer: int) -> State:
    return engine.new_match(game, players, None, options or {}, dealer, deal=False)


def begin(st: State) -> None:
    """Start the next recorded deal: rotate the dealer (after the first), reset the deal's vars."""
    if st.deal_no == 0:
        engine.start_deal(st, play=False)
    else:
        engine.next_deal(st, play=False)


def asked_facts(st: State) -> list:
    """The facts that apply given those set so far: (decl, seats or None), in spec order (lazy)."""
    for decl in st.game.facts:
        if decl.when is not None and not decl.when(st):
            continue
        seats = decl.seats(st) if decl.seats is not None else None
        yield decl, seats


def set_fact(st: State, decl, seats, raw) -> None:
    game = st.game
    var = game.vars[decl.name]
    if seats is None:
        st.vars[decl.name] = parse_value(game, st.n, var, raw)
        return
    if not isinstance(raw, dict):
        raise ValueError(f"{decl.name} is per player: give a value for each of "
                         f"{', '.join(game.seat_name(s, st.n) for s in seats)}")
    values = st.vars[decl.name]
    given = {parse_seat(game, st.n, k): v for k, v in raw.items()}
    for seat in given:
        if seat not in seats:
            raise ValueError(f"{game.seat_name(seat, st.n)} has no {decl.name} in this deal")
    for seat in seats:
        if seat not in given:
            raise ValueError(f"{decl.name} of {game.seat_name(seat, st.n)} is missing")
        values[seat] = parse_value(game, st.n, var, given[seat])


def score_deals(game, data: dict, doc=None) -> State:
    """Score every deal of an input file; errors name the deal (and its line when `doc` is given)."""
    n = int(data.get("players", game.default_players))
    dealer = parse_seat(game, n, data.get("dealer", 1))
    st = new_sheet(game, n, data.get("options"), dealer)
    for i, deal in enumerate(data.get("deals") or []):
        begin(st)
        try:
            known = {d.name for d in game.facts}
            for name in deal:
                if name not in known:
                    raise ValueError(f"unknown fact {name!r} (facts: {', '.join(sorted(known))})")
            for decl, seats in asked_facts(st):
                if decl.name in deal:
                    set_fact(st, decl, seats, deal[decl.name])
                elif seats is not None or game.vars[decl.name].type != "bool":
                    raise ValueError(f"{decl.name} is missing ({decl.ask})")
        except ValueError as exc:
            if doc is not None:
                raise doc.error(f"deal {i + 1}: {exc}", ("deals", i), cls=ScenarioError) from None
            raise ScenarioError(f"deal {i + 1}: {exc}") from None
        engine.end_deal(st)
        if st.match_over:
            break
    return st


def ask_deal(st: State, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """Ask a deal's facts at the terminal, re-asking after a bad answer."""
    game = st.game
    for decl, seats in asked_facts(st):
        var = game.vars[decl.name]
        if seats is None:
            hint = _choices(game, st, var)
            while True:
                try:
                    set_fact(st, decl, None, read(f"{decl.ask}{hint}: "))
                    break
                except ValueError as exc:
                    write(f"  {exc}")
            continue
        for seat in seats:
            while True:
                try:
                    raw = read(f"{decl.ask} — {game.seat_name(seat, st.n)}{_choices(game, st, var)}: ")
                    st.vars[decl.name][seat] = parse_value(game, st.n, var, raw)
                    break
                except ValueError as exc:
                    write(f"  {exc}")


def _choices(game, st, var) -> str:
    if var.type == "bool":
        return " [y/n]"
    if var.type == "seat":
        return " [" + "/".join(game.seat_name(s, st.n) for s in range(st.n)) + "]"
    if var.values:
        return " [" + "/".join(sorted(var.values, key=lambda v: (v != var.default, v))) + "]"
    return ""
