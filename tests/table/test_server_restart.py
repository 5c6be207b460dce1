"""`interp serve` killed with SIGKILL mid-deal and started again over the same database: every table resumes at the
exact position (replayed from its log, checked against its digest) and a seat's link opens it again."""
from __future__ import annotations

import json
import os
import random
import signal
import urllib.request

import pytest

from tests.table.server_helpers import bots, free_port, start_server

client = pytest.importorskip("websockets.sync.client")


def post(base: str, body: dict) -> dict:
    request = urllib.request.Request(base + "/api/tables", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def state_at_my_turn(ws, rng: random.Random, moves: int) -> dict:
    """Play `moves` random moves at this seat's decisions, then the state message of its next decision."""
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "state" and message["record"]["decision"]:
            if moves == 0:
                return message
            ws.send(json.dumps({"type": "move", "move": rng.choice(message["record"]["decision"]["moves"])["notation"]}))
            moves -= 1


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL on this system")
def test_a_server_killed_mid_deal_resumes_every_table_at_its_exact_position(tmp_path):
    db, port = str(tmp_path / "tables.sqlite"), free_port()
    base, socket_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws/"
    server = start_server(db, port)
    try:
        tables = [post(base, {"game": name, "players": n, "seats": bots(n, bot="heuristic")})
                  for name, n in (("tarot", 4), ("preferans", 3))]
        before = []
        for k, table in enumerate(tables):
            with client.connect(f"{socket_url}{table['table']}?token={table['seats'][0]['token']}") as ws:
                before.append(state_at_my_turn(ws, random.Random(k), moves=4 + k))
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    server = start_server(db, port)
    try:
        for table, then in zip(tables, before):
            with client.connect(f"{socket_url}{table['table']}?token={table['seats'][0]['token']}") as ws:
                hello = json.loads(ws.recv(timeout=20))
                now = json.loads(ws.recv(timeout=20))
            assert hello["seat"] == 0
            assert now["moves_made"] == then["moves_made"] > 4
            assert now["record"] == then["record"]
    finally:
        server.terminate()
        server.wait(10)
    assert server.stdout.read() .decode().count("cannot be resumed") == 0
