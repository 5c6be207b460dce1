"""`interp score`: bookkeeping for games played with real cards.

The spec's `facts:` say what scoring reads (for a game with an auction: who declared, the contract, each
player's calls and tricks). Each deal's facts come from a YAML file or from questions at the terminal; the
spec's own `scoring` statements write the sheet, exactly as after a deal played in the engine. Facts whose
`when` is false are not asked. A fact that breaks the spec's constraints (`min`, `max`, `check:`, see
interp/engine/facts.py) is refused: at the terminal with the reason, asked again; from a file, as a located
error before anything is written. At the terminal, `undo` takes back the last recorded deal and asks it again;
the deals entered so far are saved after each one (as an input file, the players' names included), so that
Ctrl-C loses nothing: `interp score SPEC --resume FILE` scores them again and asks the next.

Input file (fact names are the spec's; per-seat facts map seat names to values):
    players: 3
    names: [Anne, Bruno, Claire]   # optional: the players' names, seat by seat (used for the seats' names)
    dealer: Anne           # who dealt the first deal (the deal passes to the left)
    options: {target: 10}
    deals:
      - {declarer: West, contract: 7H, call: {South: whist, North: pass}, tricks: {West: 7, South: 2, North: 1}}
"""
from __future__ import annotations

import copy
from typing import Callable, Iterator

from interp.engine import match as engine
from interp.engine.facts import fact_problems, value_problem
from interp.engine.state import State
from interp.errors import ScenarioError
from interp.spec.inputfile import Key, check_keys, error as _error, options as checked_options, players
from interp.spec.located import Document
from interp.spec.values import parse_seat, parse_value

#: The keys of a score input file.
INPUT_KEYS = {"players": Key((int,), "a whole number", "players: 3"),
              "names": Key((list,), "a list of the players' names, seat by seat", "names: [Anne, Bruno, Claire]"),
              "dealer": Key((str, int), "a seat name or number", "dealer: South"),
              "options": Key((dict,), "a mapping of option name to value", "options: {pool_target: 10}"),
              "deals": Key((list,), "a list of deals, each a mapping of facts",
                           "deals: then one line `- {fact: value, ...}` per deal")}
UNDO = "undo"


class FactError(ValueError):
    """A fact value that cannot be taken; `where` is the path under the fact (a seat name) it concerns."""

    def __init__(self, message: str, where: tuple = ()):
        super().__init__(message)
        self.where = where


class Undo(Exception):
    """`undo` was typed at a question: take back the last recorded deal."""


def with_names(game, n: int, names: list | None):
    """The game with the players' `names` for its `n` seats (a copy: the loaded game keeps the spec's names), so
    that questions, answers and the sheet use them; ValueError when they do not fit.

    >>> from interp.spec.compiler import load_game
    >>> game = with_names(load_game("docs/examples/tiny.yaml"), 2, ["Anne", "Bruno"])
    >>> game.seat_name(1, 2)
    'Bruno'
    """
    if not names:
        return game
    names = [str(name).strip() for name in names]
    if len(names) != n:
        raise ValueError(f"{len(names)} player names for {n} players: give one name per seat")
    if any(not name or "," in name or name.isdecimal() or len(name) > 40 for name in names):
        raise ValueError("a player's name is a word or two (at most 40 characters): not empty, not a number, no comma")
    if len({name.lower() for name in names}) != n:
        raise ValueError("two players have the same name")
    named = copy.copy(game)
    named.seat_names = names
    return named


def new_sheet(game, players: int | None, options: dict | None, dealer: int) -> State:
    return engine.new_match(game, players, None, options or {}, dealer, deal=False)


def begin(st: State) -> None:
    """Start the next recorded deal: rotate the dealer (after the first), reset the deal's vars."""
    if st.deal_no == 0:
        engine.start_deal(st, play=False)
    else:
        engine.next_deal(st, play=False)


def asked_facts(st: State) -> Iterator[tuple]:
    """The facts that apply given those set so far: (decl, seats or None), in spec order (lazy)."""
    for decl in st.game.facts:
        if decl.when is not None and not decl.when(st):
            continue
        seats = decl.seats(st) if decl.seats is not None else None
        yield decl, seats


def set_fact(st: State, decl, seats, raw) -> None:
    """Set fact `decl` from what a person wrote (per-seat facts: {seat name: value} for exactly `seats`);
    a value that does not parse or breaks a constraint raises FactError and leaves the fact as it was."""
    game = st.game
    var = game.vars[decl.name]
    if seats is None:
        value = parse_value(game, st.n, var, raw)
        _check_value(st, decl, value, None)
        before, st.vars[decl.name] = st.vars[decl.name], value
    else:
        if not isinstance(raw, dict):
            raise FactError(f"{decl.name} is per player: give a value for each of "
                            f"{', '.join(game.seat_name(s, st.n) for s in seats)}")
        given = {}
        for key, value in raw.items():
            try:
                seat = parse_seat(game, st.n, key)
            except ValueError as exc:
                raise FactError(str(exc), (key,)) from None
            if seat not in seats:
                raise FactError(f"{game.seat_name(seat, st.n)} has no {decl.name} in this deal", (key,))
            try:
                given[seat] = parse_value(game, st.n, var, value)
            except ValueError as exc:
                raise FactError(f"{decl.name} of {game.seat_name(seat, st.n)}: {exc}", (key,)) from None
            _check_value(st, decl, given[seat], seat, (key,))
        for seat in seats:
            if seat not in given:
                raise FactError(f"{decl.name} of {game.seat_name(seat, st.n)} is missing")
        before = list(st.vars[decl.name])
        for seat, value in given.items():
            st.vars[decl.name][seat] = value
    problems = fact_problems(st, decl, seats)
    if problems:
        st.vars[decl.name] = before
        raise FactError("; ".join(problems))


def _check_value(st: State, decl, value, seat, where: tuple = ()) -> None:
    problem = value_problem(st, decl, value, seat)
    if problem is not None:
        raise FactError(problem, where)


# -- from a file -----------------------------------------------------------------------------------------------------
def score_deals(game, data, doc: Document | None = None) -> State:
    """Score every deal of an input file; errors name the deal (and its line and column when `doc` is given).
    Nothing is returned (so nothing is written) unless every deal is sound."""
    doc = doc or Document("<input>", data)
    check_keys(doc, "a score input", INPUT_KEYS)
    n = players(doc, game)
    try:
        game = with_names(game, n, data.get("names"))
    except ValueError as exc:
        raise _error(doc, str(exc), ("names",), INPUT_KEYS["names"].example) from None
    try:
        dealer = parse_seat(game, n, 1 if data.get("dealer") is None else data["dealer"])
    except ValueError as exc:
        raise _error(doc, str(exc), ("dealer",)) from None
    st = new_sheet(game, n, checked_options(doc, game), dealer)
    for i, deal in enumerate(data.get("deals") or []):
        path = ("deals", i)
        if not isinstance(deal, dict) or not deal:
            raise _error(doc, f"deal {i + 1} is {'empty' if not deal else 'not a mapping'}: give its facts",
                         path, "write - {fact: value, ...}; `interp rules SPEC` lists the facts")
        begin(st)
        _score_deal(doc, st, deal, path)
        engine.end_deal(st)
        if st.match_over:
            break
    return st


def _score_deal(doc: Document, st: State, deal: dict, path: tuple) -> None:
    game, i = st.game, path[1]
    known = {d.name for d in game.facts}
    for name in deal:
        if name not in known:
            where = doc.key_where(path + (name,))
            raise ScenarioError(f"deal {i + 1}: unknown fact {name!r}", where,
                                "facts: " + ", ".join(d.name for d in game.facts), doc.line_of(where))
    for decl, seats in asked_facts(st):
        if decl.name in deal:
            try:
                set_fact(st, decl, seats, deal[decl.name])
            except FactError as exc:
                raise _error(doc, f"deal {i + 1}: {exc}", path + (decl.name,) + exc.where, decl.ask) from None
            except ValueError as exc:
                raise _error(doc, f"deal {i + 1}: {decl.name}: {exc}", path + (decl.name,), decl.ask) from None
        elif seats is not None or game.vars[decl.name].type != "bool":
            raise _error(doc, f"deal {i + 1}: {decl.name} is missing", path, f"{decl.name}: {decl.ask}")


# -- at the terminal -------------------------------------------------------------------------------------------------
def keep_score(st: State, read: Callable[[str], str], write: Callable[[str], None],
               show: Callable[[State], None], entered: list | None = None,
               saved: Callable[[list], None] | None = None) -> State:
    """Ask deal after deal until the match is over or the input ends (Ctrl-D, Ctrl-C); returns the sheet as
    it stands after the last complete deal. `undo` at any question takes back the last recorded deal.
    `entered` holds the answers of the deals recorded so far (each {fact: what was typed}, as an input file's
    deals; a resumed score's already), and `saved(entered)` is called whenever it changes."""
    entered = [] if entered is None else entered
    before: list = []  # the state before each recorded deal, and before the one being asked
    while not st.match_over:
        before.append(st.copy())
        begin(st)
        write(f"— deal {st.deal_no}, dealer {st.game.seat_name(st.dealer, st.n)} —")
        try:
            answers = ask_deal(st, read, write)
        except Undo:
            current = before.pop()  # the state before this deal
            if before:
                st = before.pop()  # the state before the last recorded deal
                entered.pop()
                if saved is not None:
                    saved(entered)
                write(f"  deal {st.deal_no + 1} taken back: answer it again")
            else:
                st = current
                write("  no deal is recorded yet: nothing to undo")
            continue
        except (EOFError, KeyboardInterrupt):
            return before[-1]
        engine.end_deal(st)
        entered.append(answers)
        if saved is not None:
            saved(entered)
        show(st)
    return st


def ask_deal(st: State, read: Callable[[str], str], write: Callable[[str], None]) -> dict:
    """Ask a deal's facts at the terminal, re-asking after a bad or impossible answer; `undo` raises Undo.
    Returns what was typed for each fact ({seat name: answer} for a per-seat fact), as an input file has it."""
    answers: dict = {}
    for decl, seats in asked_facts(st):
        while True:
            try:
                answers[decl.name] = _ask_fact(st, decl, seats, read, write)
                break
            except ValueError as exc:  # FactError included: a value that does not parse or cannot be
                write(f"  {exc} — answer again")
    return answers


def _ask_fact(st: State, decl, seats, read, write):
    game = st.game
    var = game.vars[decl.name]
    if seats is None:
        raw = _read(read, f"{decl.ask}{_choices(game, st, var)}: ")
        set_fact(st, decl, None, raw)
        return raw.strip()
    answers = {}
    for seat in seats:
        name = game.seat_name(seat, st.n)
        while True:
            raw = _read(read, f"{decl.ask} — {name}{_choices(game, st, var)}: ")
            try:
                value = parse_value(game, st.n, var, raw)
                _check_value(st, decl, value, seat)
                answers[name] = raw.strip()
                break
            except ValueError as exc:
                write(f"  {exc}")
    set_fact(st, decl, seats, answers)
    return answers


def _read(read, prompt: str) -> str:
    text = read(prompt)
    if text.strip().lower() == UNDO:
        raise Undo
    return text


def _choices(game, st, var) -> str:
    if var.type == "bool":
        return " [y/n]"
    if var.type == "seat":
        return " [" + "/".join(game.seat_name(s, st.n) for s in range(st.n)) + "]"
    if var.values:
        return " [" + "/".join(sorted(var.values, key=lambda v: (v != var.default, v))) + "]"
    return ""
