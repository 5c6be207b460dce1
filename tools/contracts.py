"""Who took which contracts, and how they went, from the records of `interp arena --out`.

    interp arena preferans --agents search,heuristic -n 34 --out pref.jsonl
    python tools/contracts.py pref.jsonl --declarer declarer --contract contract --group '^(\\d)' --tricks tricks

Per agent: how many deals it declared (the seat the `--declarer` fact names), and per contract (the
`--contract` fact, or the part of it `--group`'s first regex group picks, e.g. the level of "6S"): how many,
the share of that agent's contracts, how often it was made (the `--outcome` stat is "made"), the mean deal value
of the declaring seat, and with `--tricks` (a per-seat fact) the declarer's tricks: mean, and how often it took
every trick (`--all`, default the most any declarer took).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict


def rows(paths: list, args) -> list:
    """(agent, contract group, made, value, tricks) per declared deal."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                facts = record.get("facts") or {}
                seat = facts.get(args.declarer)
                if not seat:
                    continue
                contract = str(facts.get(args.contract))
                if args.group:
                    match = re.search(args.group, contract)
                    contract = match.group(1) if match else contract
                made = (record.get("stats") or {}).get(args.outcome) == "made"
                tricks = (facts.get(args.tricks) or {}).get(seat) if args.tricks else None
                out.append((record["agents"][seat], contract, made, float(record["values"][seat]), tricks))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+")
    parser.add_argument("--declarer", required=True, help="the fact naming the declaring seat")
    parser.add_argument("--contract", required=True, help="the fact naming the contract")
    parser.add_argument("--group", help="a regex whose first group is the part of the contract to count by")
    parser.add_argument("--outcome", default="outcome", help="the stat that is 'made' when the contract was made")
    parser.add_argument("--tricks", help="a per-seat fact: tricks taken")
    parser.add_argument("--all", type=int, help="every trick (default: the most any declarer took)")
    args = parser.parse_args()
    table = rows(args.records, args)
    deals = sum(1 for path in args.records for _ in open(path, encoding="utf-8"))
    every = args.all or max((t for *_, t in table if t is not None), default=None)
    by_agent: dict = defaultdict(lambda: defaultdict(list))
    for agent, contract, made, value, tricks in table:
        by_agent[agent][contract].append((made, value, tricks))
    print(f"{deals} deals, {len(table)} declared")
    for agent, contracts in sorted(by_agent.items()):
        total = sum(len(v) for v in contracts.values())
        print(f"\n{agent}: declared {total} of {deals} deals")
        print(f"  {'contract':<10} {'count':>5} {'share':>6} {'made':>6} {'value':>8}"
              + (f" {'tricks':>6} {'all ' + str(every):>7}" if args.tricks else ""))
        for contract, games in sorted(contracts.items()):
            made = sum(m for m, _, _ in games) / len(games)
            value = sum(v for _, v, _ in games) / len(games)
            line = f"  {contract:<10} {len(games):>5} {len(games) / total:>6.0%} {made:>6.0%} {value:>+8.1f}"
            if args.tricks:
                tricks = [t for _, _, t in games if t is not None]
                line += f" {sum(tricks) / len(tricks):>6.2f} {sum(t == every for t in tricks):>7}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
