"""interp: a rules-as-data card-game interpreter. Every game is a YAML spec; one engine runs them all.

The names here are the public API for bot writers and tools; everything else may move between releases.

>>> import random
>>> import interp
>>> game = interp.load_game("docs/examples/tiny.yaml")      # a shipped game's name, or a path
>>> st = interp.new_match(game, seed=7)                        # the same seed and moves give the same game
>>> rng = random.Random(0)
>>> while not st.deal_over:
...     seat = interp.to_move(st)                              # who decides now
...     view = st.view(seat)                                   # what that seat may see
...     world = interp.sample_world(view, rng)                 # a complete deal consistent with the view
...     interp.apply(st, interp.RandomAgent(seed=1).choose(view, interp.legal_moves(st)))
>>> len(interp.deal_values(st)) == st.n
True

The subpackages, by stage (each may import only those listed after it): `cli`; `table` (where people play) and
`adapters` (OpenSpiel, PettingZoo); `runs` (replay, scenarios, simulate, arena, bench); `bots` (knowledge, worlds,
agents, search) and `spec` (load, validate, compile); `engine` (state, phases, the match flow); `dsl` (the rules
language); `errors`. pyproject.toml declares these layers for import-linter, and the suite checks them.

Importing `interp` is cheap: each name loads its module when first used.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module that defines it.
_WHERE = {
    "load_game": "interp.spec.compiler",
    "new_match": "interp.engine.match",
    "legal_moves": "interp.engine.match",
    "apply": "interp.engine.match",
    "to_move": "interp.engine.match",
    "current_phase": "interp.engine.match",
    "notation": "interp.engine.match",
    "describe": "interp.engine.match",
    "deal_values": "interp.engine.match",
    "standings": "interp.engine.match",
    "results": "interp.engine.match",
    "parse_move": "interp.engine.wording",
    "sample_world": "interp.bots.worlds",
    "Agent": "interp.bots.agents",
    "RandomAgent": "interp.bots.agents",
    "HeuristicAgent": "interp.bots.agents",
    "SearchAgent": "interp.bots.search",
    "make_agent": "interp.bots.registry",
    "replay": "interp.runs.replay",
    "Game": "interp.engine.game",
    "State": "interp.engine.state",
    "Move": "interp.engine.state",
    "Event": "interp.engine.state",
    "InterpError": "interp.errors",
    "SpecError": "interp.errors",
    "IllegalMoveError": "interp.errors",
    "ScenarioError": "interp.errors",
    "SaveError": "interp.errors",
    "SamplingError": "interp.bots.worlds",
}
__all__ = ["__version__", *_WHERE]

if TYPE_CHECKING:
    from interp.bots.agents import Agent, HeuristicAgent, RandomAgent
    from interp.bots.registry import make_agent
    from interp.bots.search import SearchAgent
    from interp.bots.worlds import SamplingError, sample_world
    from interp.engine.game import Game
    from interp.engine.match import (
        apply,
        current_phase,
        deal_values,
        describe,
        legal_moves,
        new_match,
        notation,
        results,
        standings,
        to_move,
    )
    from interp.engine.state import Event, Move, State
    from interp.engine.wording import parse_move
    from interp.errors import IllegalMoveError, InterpError, SaveError, ScenarioError, SpecError
    from interp.runs.replay import replay
    from interp.spec.compiler import load_game


def __getattr__(name: str) -> Any:
    """A public name, its module imported on first use (PEP 562)."""
    if name not in _WHERE:
        raise AttributeError(f"module 'interp' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(__all__)
