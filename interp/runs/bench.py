"""`interp bench`: random playouts per second and load time, per spec file and player count.

`seconds` is the time asked per file: about a quarter of it (at least one load) goes to timing the load, the
rest is shared by the file's player counts. Each row is handed to `report` as soon as it is measured.
(For interp against hand-written Python on the same deals, see tools/bench_compare.py.)

>>> rows = bench(["docs/examples/tiny.yaml"], seconds=0.05)
>>> sorted(rows[0]) == sorted(["spec", "players", "load_validate_compile_ms", "playouts", "moves", "seconds",
...                            "playouts_per_second", "moves_per_second"])
True
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

from interp.dsl import compile as dsl
from interp.runs.simulate import random_playouts
from interp.spec.compiler import load_game

LOAD_SHARE = 0.25
MAX_LOADS = 5


def load_times(path: str, budget: float) -> tuple:
    """Load, schema-check and compile `path` as a new process would (no tree kept in this process; the spec's
    load cache on disk used as a new process uses it, see interp.dsl.cache: `INTERP_NO_CACHE=1` times a load
    with none) at least once and up to `MAX_LOADS` times while within `budget` seconds: (the game, median
    milliseconds)."""
    times: list[float] = []
    game = None
    while not times or (len(times) < MAX_LOADS and sum(times) < budget):
        dsl.clear_cache()
        started = time.perf_counter()
        game = load_game(path)
        times.append(time.perf_counter() - started)
    return game, round(statistics.median(times) * 1000, 2)


def bench(paths: list, seconds: float = 2.0, report: Callable[[dict], None] | None = None) -> list:
    """One row per file and player count, measured in about `seconds` per file."""
    rows = []
    for path in paths:
        started = time.perf_counter()
        game, load_ms = load_times(path, LOAD_SHARE * seconds)
        counts = list(game.players)
        for k, n in enumerate(counts):
            left = seconds - (time.perf_counter() - started)
            row = {"spec": path, "players": n, "load_validate_compile_ms": load_ms}
            row.update(random_playouts(game, max(0.0, left / (len(counts) - k)), n))
            rows.append(row)
            if report is not None:
                report(row)
    return rows
