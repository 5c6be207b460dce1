"""Median time of one `engine.sample_world` call, over the decisions of seeded random deals.

    python tools/sample_speed.py games/preferans.yaml games/tarot.yaml [--deals 4]

Prints, per file and player count: samples drawn, how many found no world, the median and 90th percentile in ms.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from interpreter import engine  # noqa: E402
from interpreter.compiler import load_game  # noqa: E402
from interpreter.worlds import SamplingError  # noqa: E402


def measure(path: str, n: int, deals: int) -> tuple:
    game = load_game(path)
    times, failed = [], 0
    for seed in range(deals):
        st = engine.new_match(game, n, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            view = st.view(engine.to_move(st))
            start = time.process_time()
            try:
                engine.sample_world(view, rng)
            except SamplingError:
                failed += 1
            times.append(time.process_time() - start)
            engine.apply(st, rng.choice(engine.legal_moves(st)))
    times.sort()
    return len(times), failed, times[len(times) // 2] * 1000, times[int(len(times) * 0.9)] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--deals", type=int, default=4)
    args = parser.parse_args()
    for path in args.files:
        for n in load_game(path).players:
            count, failed, median, p90 = measure(path, n, args.deals)
            print(f"{path} {n}p: {count} samples, {failed} without a world, median {median:.1f} ms, "
                  f"p90 {p90:.1f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
