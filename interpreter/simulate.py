"""Bulk play: `interp simulate` (bots, statistics) and `interp bench` (random playouts per second, load time)."""
from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Callable

from . import dsl, engine
from .agents import AGENTS
from .compiler import load_game


def play_deal(st, agents: dict) -> None:
    """Play the current deal to its end, each seat's agent choosing from its own view."""
    while not st.deal_over:
        seat = engine.to_move(st)
        moves = engine.legal_moves(st)
        engine.apply(st, agents[seat].choose(st.view(seat), moves), check=False)


def simulate(game, deals: int, seed: int = 0, players: int | None = None, options: dict | None = None,
             bots: str = "heuristic", tick: Callable[[], None] | None = None) -> dict:
    """Play `deals` deals (matches restart when one ends) and summarise the spec's `stats` and the sheet."""
    st = engine.new_match(game, players, seed, options)
    agents = {s: AGENTS[bots](seed=seed * 100 + s) for s in range(st.n)}
    stats = {name: Counter() for name in game.stats}
    movement = {col: [0] * st.n for col in game.columns}
    matches, started = 0, time.perf_counter()
    for i in range(deals):
        if st.deal_over:
            if st.match_over:
                matches += 1
                st = engine.new_match(game, players, seed + i + 1, options, dealer=st.dealer)
            else:
                engine.next_deal(st)
        play_deal(st, agents)
        for name, fn in game.stats.items():
            value = fn(st)
            if value is not None:
                stats[name][_key(value)] += 1
        for col, diff in st.deals[-1]["entries"].items():
            for key, delta in diff.items():
                movement[col][key[0] if isinstance(key, tuple) else key] += delta
        if tick is not None:
            tick()
    elapsed = time.perf_counter() - started
    return {"game": game.name, "players": st.n, "deals": deals, "matches_finished": matches + st.match_over,
            "seconds": round(elapsed, 3), "deals_per_second": round(deals / elapsed, 1) if elapsed else None,
            "stats": {name: {k: {"count": c, "share": round(c / deals, 4)} for k, c in counter.most_common()}
                      for name, counter in stats.items()},
            "mean_per_deal": {col: {game.seat_name(s, st.n): round(float(v) / deals, 3) for s, v in enumerate(vals)}
                              for col, vals in movement.items()}}


def _key(value) -> str:
    if hasattr(value, "fields"):
        return value.name
    return str(value).lower() if isinstance(value, bool) else str(value)


def random_playouts(game, seconds: float, players: int | None = None, seed: int = 0) -> dict:
    """Random legal moves from the full state (no views), one deal per playout, for `seconds`."""
    rng = random.Random(seed)
    deals = moves = 0
    started = time.perf_counter()
    while True:
        st = engine.new_match(game, players, seed + deals)
        while not st.deal_over:
            options = engine.legal_moves(st)
            engine.apply(st, options[rng.randrange(len(options))], check=False)
            moves += 1
        deals += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return {"playouts": deals, "moves": moves, "seconds": round(elapsed, 3),
                    "playouts_per_second": round(deals / elapsed, 1), "moves_per_second": round(moves / elapsed)}


def load_times(path: str, repeat: int = 5) -> dict:
    """Median seconds to load, schema-check and compile a spec (each run from scratch: no parse cache)."""
    times = []
    for _ in range(repeat):
        dsl.clear_cache()
        started = time.perf_counter()
        load_game(path)
        times.append(time.perf_counter() - started)
    return {"load_validate_compile_ms": round(statistics.median(times) * 1000, 2)}


def bench(paths: list, seconds: float = 2.0) -> list:
    rows = []
    for path in paths:
        game = load_game(path)
        for n in game.players:
            row = {"spec": path, "players": n}
            row.update(load_times(path))
            row.update(random_playouts(game, seconds, n))
            rows.append(row)
    return rows
