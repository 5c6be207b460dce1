"""Compile a loaded, schema-checked spec into an immutable Game, checking every name, type and reference.

>>> game = load_game("docs/examples/tiny.yaml")
>>> game.name, len(game.deck), game.players, [p.type_name for p in game.phases]
('Tiny Tricks', 24, (2,), ['deal', 'tricks', 'effects'])
"""
from __future__ import annotations

import os
from fractions import Fraction

from interp.dsl.cache import session
from interp.engine.game import Game
from interp.spec.bids import bid_ladder
from interp.spec.loader import load_spec
from interp.spec.located import Document
from interp.spec.names import (
    base_symbols,
    build_deck,
    declare_defines,
    option_decls,
    player_counts,
    sheet_columns,
    var_decls,
    zone_decls,
    zone_shown,
    zone_symbol,
)
from interp.spec.phases import PHASE_TYPES, bot_expressions, compile_phases
from interp.spec.resources import GAMES_DIR, spec_path
from interp.spec.scoring import breakdown, fact_decls, scoring_block, status
from interp.spec.texts import SpecDSL

__all__ = ["load_game", "load_referenced_game", "compile_spec", "PHASE_TYPES"]  # PHASE_TYPES: type name -> class


def load_game(path: str) -> Game:
    """Load, schema-check and compile a spec file, or a shipped game by name (`resources.spec_path`); raises
    SpecError with a location on any mistake."""
    from interp.spec.schema import check_schema
    doc = load_spec(spec_path(path))
    check_schema(doc)
    game = compile_spec(doc)
    game.reload = (reloaded_game, (_portable_name(path, doc.path),))
    return game


_RELOADED: dict = {}  # name or path -> the game, in this process: states unpickled here share their game


def reloaded_game(name_or_path: str) -> Game:
    """The game a pickle names, loaded once per process (`Game.reload`; a worker unpickles many states)."""
    game = _RELOADED.get(name_or_path)
    if game is None:
        game = _RELOADED[name_or_path] = load_game(name_or_path)
    return game


def _portable_name(given: str, path: str | None) -> str:
    """How another process (another machine) finds the spec: a shipped game by its name, since the package may
    be installed elsewhere there; any other file by its absolute path (the same on every node of a cluster)."""
    if path and os.path.dirname(os.path.abspath(path)) == os.path.abspath(GAMES_DIR):
        return os.path.splitext(os.path.basename(path))[0]
    return os.path.abspath(path or given)


def load_referenced_game(doc: Document, key: tuple) -> Game:
    """The game another file names at `key` (a scenario's `spec:`), resolved relative to that file and checked
    like `extends:` (a regular spec file of bounded size; a file that is not a spec is never quoted)."""
    from interp.spec.loader import load_referenced
    from interp.spec.schema import check_schema
    spec = load_referenced(doc, key)
    check_schema(spec)
    return compile_spec(spec)


def compile_spec(doc: Document) -> Game:
    """Compile a loaded, schema-checked document: its names stage by stage into the scope (names,
    bids), then the phases (phases) and what a deal's end reads (scoring) against them. The
    parse trees and code objects of a spec file come from its load cache when it has them (interp.dsl.cache)."""
    with session(doc.path):
        return _compiled(doc)


def _compiled(doc: Document) -> Game:
    c = SpecDSL(doc)
    data = c.data
    default_players, players = player_counts(c)
    options = option_decls(c)
    deck = build_deck(c)
    base_symbols(c, deck)
    zones = zone_decls(c)
    for zone in zones:
        zone_symbol(c, zone)
    vars_ = var_decls(c)
    bids = bid_ladder(c, deck)
    columns = sheet_columns(c)
    declare_defines(c)
    zone_shown(c, zones)
    phases = compile_phases(c)
    facts = fact_decls(c, vars_)
    scoring = scoring_block(c, facts) if "scoring" in data else None
    match = _match(c, facts)
    bots = bot_expressions(c, phases)
    return Game(
        path=doc.path, name=str(data.get("name", doc.path)), players=players, default_players=default_players,
        options=options, deck=deck, zones=zones, vars=vars_, bids=bids, columns=columns, phases=phases, facts=facts,
        scoring=scoring, bots=bots, sit_out=c.expr(("sit_out",), "list[seat]") if "sit_out" in data else None,
        seat_names=list(data.get("seat_names", [])), defines=c.scope.macros, scope=c.scope,
        description=str(data.get("description", "")),
        stats={name: c.expr(("stats", name)) for name in (data.get("stats") or {})},
        gotos=c.gotos, stretch=c.stretch, status=status(c), running=status(c, "running"), breakdown=breakdown(c, facts), **match)


def _value_range(c: SpecDSL, bounds: list | None) -> tuple | None:
    """`match.value_range: [least, most]`, what one deal can be worth to a seat (the least first)."""
    if bounds is None:
        return None
    if bounds[0] > bounds[1]:
        raise c.error(f"value_range {bounds}: the least value comes first", ("match", "value_range"))
    return tuple(Fraction(str(b)) for b in bounds)


def _match(c: SpecDSL, facts: list) -> dict:
    """The `match:` section's fields of a Game: when the match ends, each seat's result and standing, who deals
    next (like scoring, from the facts alone when there are facts: the score keeper works it out too), …"""
    match = c.data.get("match", {}) or {}
    seat = {"s": ("seat", None)}
    return dict(
        next_dealer=c.expr(("match", "next_dealer"), "seat", scope=c.fact_scope(facts, "next_dealer"))
        if "next_dealer" in match else None,
        match_end=c.expr(("match", "end"), "bool") if "end" in match else None,
        result=c.expr(("match", "result"), "num", seat) if "result" in match else None,
        standing=c.expr(("match", "standing"), "num", seat) if "standing" in match else None,
        standing_source=str(match.get("standing", match.get("result", ""))),
        result_label=str(match.get("result_label", "result")), first_dealer=match.get("first_dealer", 0),
        zero_sum=bool(match.get("zero_sum", False)), value_range=_value_range(c, match.get("value_range")),
        end_now=c.expr(("match", "end_now"), "bool") if "end_now" in match else None,
        agreed_end=c.stmts(("match", "agreed_end")) if "agreed_end" in match else None)
