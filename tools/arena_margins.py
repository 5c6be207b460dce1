"""The paired margins of `interp arena --out` record files, runs pooled (e.g. two runs on other seeds).

    python tools/arena_margins.py run1.jsonl run2.jsonl [--agents search,heuristic]

A duplicate deal is one (file, deal) pair: an agent's score for it is the mean value of the seats it held over
the deal's seatings (as `interp arena` scores it); the margin of a pair of agents is the mean of their paired
differences, with its 95% interval (Student's t).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from interp.runs.summary import mean_ci  # noqa: E402


def scores(paths: list) -> list:
    """{agent: score} per duplicate deal, file by file."""
    out = []
    for path in paths:
        deals: dict = defaultdict(lambda: defaultdict(list))
        with open(path, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                for seat, agent in record["agents"].items():
                    deals[record["deal"]][agent].append(float(record["values"][seat]))
        out += [{agent: sum(v) / len(v) for agent, v in deal.items()} for _, deal in sorted(deals.items())]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+")
    parser.add_argument("--agents", default="search,heuristic", help="the pair: a,b gives a's margin over b")
    args = parser.parse_args()
    a, b = args.agents.split(",")
    deals = scores(args.records)
    stat = mean_ci([deal[a] - deal[b] for deal in deals])
    print(json.dumps({"deals": len(deals), f"{a}-{b}": stat}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
