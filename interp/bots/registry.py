"""Agents by name, as `--bots` and `--agents` write them: a built-in agent's name, or `module:Class`, a plug-in
agent of your own (docs/bots.md, "Writing an agent").

A plug-in is imported only when the command line names it: `bot_names` and `make_agent` import the module the
user wrote; `check_names` (what a save file's `bots` is checked with) never imports anything, so a file read from
disk cannot make interp run code.
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from interp.bots.agents import Agent, HeuristicAgent, RandomAgent
from interp.bots.search import SearchAgent

AGENTS = {"heuristic": HeuristicAgent, "random": RandomAgent, "search": SearchAgent}
AGENT_NAMES = tuple(AGENTS)


def is_plugin(name: str) -> bool:
    """Whether `name` names a plug-in agent (`module:Class`) rather than a built-in one.

    >>> is_plugin("mypkg.bots:CautiousBot"), is_plugin("heuristic")
    (True, False)
    """
    return ":" in name


def check_names(text: str) -> list:
    """`--bots` as written, checked without importing anything: built-in names, or `module:Class` in form only.

    >>> check_names("search,mypkg.bots:CautiousBot")
    ['search', 'mypkg.bots:CautiousBot']
    """
    names = [word.strip() for word in str(text).split(",")]
    for word in names:
        if is_plugin(word):
            module, _, cls = word.partition(":")
            if not module or not cls or not all(part.isidentifier() for part in [*module.split("."), cls]):
                raise ValueError(f"{word!r} is not module:Class (e.g. mypkg.bots:MyBot)")
        elif word not in AGENT_NAMES:
            raise ValueError(f"no bot named {word!r} (bots: {', '.join(AGENT_NAMES)}, or module:Class for your "
                             "own; or several, e.g. search,heuristic)")
    return names


def bot_names(text: str) -> list:
    """`--bots` as written: one agent's name, or names separated by commas for the bot seats in turn; each
    plug-in is imported and checked (`agent_class`).

    >>> bot_names("search,heuristic")
    ['search', 'heuristic']
    """
    names = check_names(text)
    for name in names:
        agent_class(name)
    return names


def agent_class(name: str) -> Any:
    """The class of agent `name`: a built-in, or `module:Class` imported (the user's own code, named on the
    command line; the module is looked for on the Python path, then in the current folder). ValueError in one line when the module or class is missing or the class is no agent.

    >>> agent_class("random").__name__
    'RandomAgent'
    >>> agent_class("interp.bots.agents:HeuristicAgent").__name__
    'HeuristicAgent'
    >>> agent_class("interp.bots.agents:Move")
    Traceback (most recent call last):
    ...
    ValueError: interp.bots.agents:Move is not an agent: it has no choose(view, moves) method
    """
    if not is_plugin(name):
        if name not in AGENTS:
            raise ValueError(f"unknown agent {name!r} (agents: {', '.join(AGENT_NAMES)}, or module:Class)")
        return AGENTS[name]
    check_names(name)
    module_name, _, class_name = name.partition(":")
    if os.getcwd() not in sys.path:  # as `python -m` finds a module in the current folder (last: it shadows none)
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise ValueError(f"{name}: no module named {exc.name!r} (is it on the Python path?)") from None
        raise ValueError(f"{name}: importing {module_name} failed: {exc}") from None
    except Exception as exc:  # the user's module raised while importing: say so in one line
        raise ValueError(f"{name}: importing {module_name} failed: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"{name}: module {module_name} has no {class_name!r}")
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise ValueError(f"{name} is not an agent: it has no choose(view, moves) method")
    return cls


def seat_agents(text: str, seats: list, seed: int) -> dict:
    """An agent for each of `seats` (in that order) by `bot_names(text)`, cycled; agent s seeded `seed + s`."""
    names = bot_names(text)
    return {s: make_agent(names[k % len(names)], seed=seed + s) for k, s in enumerate(seats)}


def make_agent(name: str, seed: int | None = None, **params) -> Agent:
    """An agent by name: `heuristic`, `random`, `search` (which takes `budget`, `worlds` and `rollout`), or a
    plug-in `module:Class`, made as `Class(seed=seed, **params)`.

    >>> make_agent("random", seed=1).name
    'random'
    """
    try:
        return agent_class(name)(seed=seed, **params)
    except TypeError as exc:
        if is_plugin(name):
            raise ValueError(f"{name}: it cannot be made as {name.partition(':')[2]}(seed=...): {exc}") from None
        raise

