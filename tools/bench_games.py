"""`interp bench`'s random playouts for every game, this copy against another, side by side in one run:

    python tools/bench_games.py --against REV [FILES...] [--rounds 3] [--seconds 1]

For each spec file (default: every games/*.yaml) and each of its player counts, a new process per copy of the
source plays random full deals from the full state for about `--seconds` (`interp.runs.simulate
.random_playouts`, what `interp bench` runs, seeded alike: the same deals in both copies as long as a seed deals
the same cards; one deal is played first, untimed, as the spec's code is compiled at its first use) and reports moves per CPU second. The copies alternate within each round, so both see the same
load on the machine. `--against` is a git revision or a folder holding another copy of the source (as for
tools/coldload.py). Printed per file and player count: moves per CPU second of each copy, median (min–max) over
rounds, and this copy's speed over the other's (the median of the per-round ratios); then the ratios' geometric
mean and the machine's load average before and after.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.coldload import source_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from interp.spec.compiler import load_game
from interp.runs import simulate
game = load_game(sys.argv[1])
speeds = {}
for n in game.players:
    simulate.random_playouts(game, 0, n, seed=10 ** 6)   # one deal first: the spec's code compiles at its first use
    started = time.process_time()   # CPU seconds, not wall: the machine may be shared
    row = simulate.random_playouts(game, float(sys.argv[2]), n)
    speeds[n] = row["moves"] / (time.process_time() - started)
print(json.dumps(speeds))
"""


def moves_per_second(tree: Path, spec: str, seconds: float) -> dict:
    """One new process playing `spec` from the source in `tree`: {players: moves per CPU second}."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD, spec, str(seconds)], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"playing {spec} from {tree} failed:\n{done.stderr}")
    return {int(n): v for n, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="spec files, relative to the repository (default: games/*.yaml)")
    parser.add_argument("--against", required=True, help="a git revision or a source folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of play per file, player count and copy")
    args = parser.parse_args(argv)
    files = args.files or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.yaml"))
    with tempfile.TemporaryDirectory(prefix="bench-games-") as scratch:
        trees = {args.against: source_tree(args.against, Path(scratch) / "against"), "this": ROOT}
        load_before = os.getloadavg()
        speeds: dict = {}
        for _ in range(args.rounds):
            for f in files:
                for name, tree in trees.items():
                    for n, v in moves_per_second(tree, str(ROOT / f), args.seconds).items():
                        speeds.setdefault((f, n), {}).setdefault(name, []).append(v)
        load_after = os.getloadavg()
    report(args.against, speeds, args.rounds, (load_before, load_after))
    return 0


def spread(values: list) -> str:
    """`median (min–max)` of moves per second."""
    return f"{statistics.median(values):8.0f} ({min(values):6.0f}–{max(values):6.0f})"


def report(against: str, speeds: dict, rounds: int, load: tuple) -> None:
    print(f"random playouts, moves per CPU second, median (min–max) of {rounds} rounds; load average "
          f"{' '.join(f'{x:.2f}' for x in load[0])} before, {' '.join(f'{x:.2f}' for x in load[1])} after")
    width = max(len(f"{f} {n}p") for f, n in speeds)
    print(f"{'file':{width}}  {against[:26]:>26}  {'this':>26}  this ÷ other")
    ratios = []
    for (f, n), by_tree in speeds.items():
        ratio = statistics.median(t / o for t, o in zip(by_tree["this"], by_tree[against]))
        ratios.append(ratio)
        print(f"{f + f' {n}p':{width}}  {spread(by_tree[against]):>26}  {spread(by_tree['this']):>26}  {ratio:6.2f}×")
    print(f"geometric mean of the ratios: {math.exp(statistics.fmean(math.log(r) for r in ratios)):.3f}× "
          f"over {len(ratios)} files and player counts")


if __name__ == "__main__":
    sys.exit(main())
