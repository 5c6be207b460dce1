"""Write (or check) golden seeded playthroughs: one match per spec file and player count, heuristic bots.

    python tools/golden.py          # rewrite tests/golden/*.json after an intended change of play or scoring
    python tools/golden.py --check  # exit 1 if any golden file differs (what tests/test_golden.py asserts)

A golden file holds the seed, the full move log, each deal's facts and sheet entries, and the final results.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from interp.bots.agents import HeuristicAgent  # noqa: E402
from interp.engine import match as engine  # noqa: E402
from interp.runs.simulate import play_deal  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402
from interp.table.render import number  # noqa: E402

SEED = 2026
MAX_DEALS = 60


def playthrough(path: str, players: int) -> dict:
    game = load_game(path)
    st = engine.new_match(game, players, SEED)
    agents = {s: HeuristicAgent(SEED + s) for s in range(players)}
    for _ in range(MAX_DEALS):
        play_deal(st, agents)
        if st.match_over:
            break
        engine.next_deal(st)
    deals = [{"deal": d["deal"], "dealer": d["dealer"], "facts": d["facts"],
              "entries": {col: {str(k): number(v) for k, v in diff.items()} for col, diff in d["entries"].items()}}
             for d in st.deals]
    return {"spec": os.path.relpath(path, ROOT), "players": players, "seed": SEED, "history": st.history,
            "deals": deals, "results": [number(r) for r in engine.results(st)], "match_over": st.match_over}


def golden_path(spec: str, players: int) -> str:
    stem = os.path.splitext(os.path.basename(spec))[0]
    return os.path.join(ROOT, "tests", "golden", f"{stem}-{players}.json")


def cases() -> list:
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "games", "*.yaml"))):
        for n in load_game(path).players:
            out.append((path, n))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    bad = 0
    for path, n in cases():
        data = playthrough(path, n)
        target = golden_path(path, n)
        if args.check:
            if not os.path.exists(target) or json.load(open(target)) != json.loads(json.dumps(data)):
                print(f"differs: {target}")
                bad += 1
        else:
            with open(target, "w") as fh:
                json.dump(data, fh, indent=0)
                fh.write("\n")
            print(f"wrote {os.path.relpath(target, ROOT)}: {len(data['deals'])} deals")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
