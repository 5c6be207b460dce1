"""Load benchmark of the table server: one `interp serve` on 127.0.0.1, N tables of one game, each with one scripted
person (a WebSocket client that moves after a short think) and bots in the other seats (pausing as `interp serve`'s
bots do, `--bot-delay`; 0 for the heaviest load).

For each N it reports the move round trip as the person sees it — from sending a move to the state message that
carries it (committed to SQLite first) — p50 and p99, moves measured, and the server's memory per table (its
resident set after the tables are open and played on, less before, over N). Bounded in time: `--seconds` of play
per N, plus the set-up.

    python tools/bench_server.py [--tables 10,100,500] [--seconds 15] [--game hearts] [--think 0.5] [--bot-delay 1]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from websockets.asyncio.client import connect  # noqa: E402

from tests.table.server_helpers import free_port, start_server  # noqa: E402


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))


def new_table(base: str, game: str, players: int, bot: str) -> dict:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    request = urllib.request.Request(base + "/api/tables", json.dumps({"game": game, "players": players,
                                                                         "seats": seats}).encode(),
                                     {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=60).read())


async def person(url: str, stop: float, think: float, trips: list, rng: random.Random) -> None:
    """Play the seat until `stop`: think, send a random legal move, time until the state that carries it."""
    async with connect(url, max_size=2 ** 22) as ws:
        sent_at, made = None, -1
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            if sent_at is not None and message["moves_made"] > made:
                trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if time.monotonic() > stop:
                return
            record = message["record"]
            if record["deal_over"] and not message["ready"]:
                await ws.send(json.dumps({"type": "next"}))
            elif record["decision"] and sent_at is None:
                await asyncio.sleep(think * rng.random() * 2)
                made = message["moves_made"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(record["decision"]["moves"])["notation"]}))


async def play(urls: list, seconds: float, think: float) -> list:
    trips: list = []
    stop = time.monotonic() + seconds
    await asyncio.gather(*(asyncio.wait_for(person(u, stop, think, trips, random.Random(i)), seconds + 60)
                           for i, u in enumerate(urls)), return_exceptions=True)
    return trips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,100,500")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--game", default="hearts")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--think", type=float, default=0.5, help="a person's mean seconds before a move")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the bots' pause before a move (as `interp serve`)")
    args = parser.parse_args()
    print(f"{args.game}, {args.players} players: 1 scripted person + {args.players - 1} {args.bot} bots a table; "
          f"{args.seconds:g} s of play per N; a person thinks 0-{2 * args.think:g} s, a bot {args.bot_delay:g} s")
    print(f"{'tables':>6} {'moves':>7} {'p50 ms':>8} {'p99 ms':>8} {'KB/table':>9}")
    for n in (int(x) for x in args.tables.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            port = free_port()
            server = start_server(os.path.join(folder, "bench.sqlite"), port, "--bot-delay", str(args.bot_delay))
            try:
                base = f"http://127.0.0.1:{port}"
                before = rss_kb(server.pid)
                tables = [new_table(base, args.game, args.players, args.bot) for _ in range(n)]
                urls = [f"ws://127.0.0.1:{port}/ws/{t['table']}?token={t['seats'][0]['token']}" for t in tables]
                trips = asyncio.run(play(urls, args.seconds, args.think))
                per_table = (rss_kb(server.pid) - before) / n
            finally:
                server.terminate()
                server.wait(10)
        if len(trips) < 2:
            print(f"{n:>6} {len(trips):>7}  (too few moves measured)")
            continue
        cuts = statistics.quantiles(trips, n=100)
        print(f"{n:>6} {len(trips):>7} {cuts[49] * 1000:>8.1f} {cuts[98] * 1000:>8.1f} {per_table:>9.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
