"""Where a random deal's time goes, counted rather than timed (the same figures on a busy machine):

    python tools/profile_deals.py opcodes preferans 3 [--deals 100] [--top 40]
    python tools/profile_deals.py instructions preferans 3 [--deals 400]

`opcodes`: the Python bytecodes each function runs per deal (sys.settrace with opcode events; a C built-in
counts as its one call). `instructions`: machine instructions per deal under valgrind (callgrind), for interp
and for the hand-written reference of the same game when tools/reference has one; the count with DEALS + 100
deals less the count with 100, so loading and warming up cancel out. String hashing is fixed (PYTHONHASHSEED=0):
dict layouts, and so the counts, would vary from run to run. Small changes that timing cannot separate on a shared
machine show up here; `tools/bench_compare.py` stays the figure of record.
"""
from __future__ import annotations

import argparse
import collections
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM = 100  # deals played before the counted ones (memo tables filled as in a long run)


def load(game: str):
    """games/GAME.yaml, loaded."""
    sys.path.insert(0, str(ROOT))
    from interp.spec.compiler import load_game
    return load_game(str(ROOT / "games" / f"{game}.yaml"))


def play(g, players: int, deals: int, seed: int) -> None:
    """`deals` random deals of the loaded game `g` through the public API."""
    from interp.engine import match as engine
    rng = random.Random(1)
    for d in range(deals):
        st = engine.new_match(g, players, seed + d)
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))], check=False)


def play_reference(game: str, deals: int) -> None:
    """`deals` random deals of the hand-written reference program of `game`."""
    sys.path.insert(0, str(ROOT))
    module = importlib.import_module(f"tools.reference.{game}")
    rng = random.Random(1)
    for _ in range(deals):
        module.play_deal(rng, lambda kind, moves: moves[rng.randrange(len(moves))])


def opcodes(game: str, players: int, deals: int, top: int) -> None:
    """Print the bytecodes per deal, in all and by function (the most first)."""
    g = load(game)
    play(g, players, WARM, 10**6)
    count: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        code = frame.f_code
        key = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}:{code.co_name}"

        def each(frame, event, arg):
            if event == "opcode":
                count[key] += 1
            return each
        return each
    sys.settrace(tracer)
    try:
        play(g, players, deals, 1000)
    finally:
        sys.settrace(None)
    print(f"{sum(count.values()) / deals:.0f} bytecodes per deal ({game}, {players} players, {deals} deals)")
    for key, n in count.most_common(top):
        print(f"{n / deals:9.1f}  {key}")


def instructions(game: str, players: int, deals: int) -> None:
    """Print the machine instructions per deal of interp and of the reference (valgrind)."""
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: `instructions` needs it (`opcodes` does not)")
    sides = [("interp", ["play", game, str(players)])]
    if (ROOT / "tools" / "reference" / f"{game}.py").exists():
        sides.append(("reference", ["play-reference", game]))
    for side, args in sides:
        counts = [collected(args + [str(n)]) for n in (WARM, WARM + deals)]
        print(f"{side:<10} {(counts[1] - counts[0]) / deals:12,.0f} instructions per deal ({game}, {deals} deals)")


def collected(args: list) -> int:
    """Instructions callgrind counts for this script run with `args` (its hidden play commands)."""
    # no load cache: both runs of a side must load alike for their difference to be the deals alone (with it,
    # the first run after an edit compiles and writes the cache and the second reads it)
    env = {**os.environ, "PYTHONHASHSEED": "0", "INTERP_NO_CACHE": "1"}
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__] + args, capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"valgrind failed:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "play":  # what `instructions` runs under valgrind
        play(load(argv[1]), int(argv[2]), int(argv[3]), 1000)
        return 0
    if argv and argv[0] == "play-reference":
        play_reference(argv[1], int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["opcodes", "instructions"])
    parser.add_argument("game", help="a file of games/ without .yaml, e.g. preferans")
    parser.add_argument("players", type=int)
    parser.add_argument("--deals", type=int, help="deals counted (default 100 for opcodes, 400 for instructions)")
    parser.add_argument("--top", type=int, default=40, help="functions listed (opcodes)")
    args = parser.parse_args(argv)
    if args.what == "opcodes":
        opcodes(args.game, args.players, args.deals or 100, args.top)
    else:
        instructions(args.game, args.players, args.deals or 400)
    return 0


if __name__ == "__main__":
    sys.exit(main())
