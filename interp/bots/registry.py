"""The built-in agents by name, as `--bots` and `--agents` write them."""
from __future__ import annotations

from interp.bots.agents import Agent, HeuristicAgent, RandomAgent
from interp.bots.search import SearchAgent

AGENTS = {"heuristic": HeuristicAgent, "random": RandomAgent, "search": SearchAgent}
AGENT_NAMES = tuple(AGENTS)


def bot_names(text: str) -> list:
    """`--bots` as written: one agent's name, or names separated by commas for the bot seats in turn.

    >>> bot_names("search,heuristic")
    ['search', 'heuristic']
    """
    names = [word.strip() for word in str(text).split(",")]
    bad = next((word for word in names if word not in AGENT_NAMES), None)
    if bad is not None:
        raise ValueError(f"no bot named {bad!r} (bots: {', '.join(AGENT_NAMES)}; or several, e.g. search,heuristic)")
    return names


def seat_agents(text: str, seats: list, seed: int) -> dict:
    """An agent for each of `seats` (in that order) by `bot_names(text)`, cycled; agent s seeded `seed + s`."""
    names = bot_names(text)
    return {s: make_agent(names[k % len(names)], seed=seed + s) for k, s in enumerate(seats)}


def make_agent(name: str, seed: int | None = None, **params) -> Agent:
    """An agent by name: `heuristic`, `random`, or `search` (which takes `budget`, `worlds` and `rollout`).

    >>> make_agent("random", seed=1).name
    'random'
    """
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(AGENT_NAMES)})")
    return AGENTS[name](seed=seed, **params)
