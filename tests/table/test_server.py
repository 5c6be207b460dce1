"""The table server (`interp serve`) through its real app: Starlette's test client opens its WebSockets in-process.
Tables, seats and whole deals of every shipped game; reconnecting, spectating, refused messages and tokens; and the
proof that no card hidden from a seat ever reaches it."""
from __future__ import annotations

import asyncio
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from interp.engine import match as engine  # noqa: E402
from interp.engine.state import State  # noqa: E402
from interp.spec.resources import shipped_games  # noqa: E402
from interp.table.server import MAX_MESSAGE, catalogue, make_app  # noqa: E402
from interp.table.store import Store  # noqa: E402
from interp.table.tables import Hall, Listener  # noqa: E402
from tests.table.server_helpers import Seen, bots, leaks, play_seat, play_together, wire  # noqa: E402

GAMES = catalogue()
LOADED: dict = {}  # the compiled games, shared by the tests that build tables outside the app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("server") / "tables.sqlite"), GAMES, delay=0)
    with TestClient(app) as test_client:
        yield test_client


def new_table(client, game: str, players: int, seats: list, **extra) -> dict:
    response = client.post("/api/tables", json={"game": game, "players": players, "seats": seats, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def connect(client, table: dict, seat: int | None):
    token = table["spectator"].split("#")[1] if seat is None else table["seats"][seat]["token"]
    return client.websocket_connect(f"/ws/{table['table']}?token={token}")


def error_of(ws) -> dict:
    """The next error message (state messages of the bots' moves may come first)."""
    while (message := ws.receive_json())["type"] != "error":
        pass
    return message


def in_order(part: list, whole: list) -> bool:
    """Whether `part` is `whole` with some items left out (in the same order).

    >>> in_order([1, 3], [1, 2, 3]), in_order([3, 1], [1, 2, 3])
    (True, False)
    """
    rest = iter(whole)
    return all(item in rest for item in part)


def players_of(name: str) -> int:
    hall = Hall(Store(":memory:"), GAMES)
    hall.games = LOADED
    return engine.new_match(hall.game(name)).n


@pytest.mark.parametrize("name", shipped_games())
def test_a_person_plays_a_whole_deal_of_every_shipped_game_through_the_socket(client, name):
    n = players_of(name)
    table = new_table(client, name, n, bots(n))
    with connect(client, table, 0) as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seat"] == 0 and len(hello["deck"]) > 0
        received, sent = play_seat(ws, random.Random(name))
    records = [m["record"] for m in received if m["type"] == "state"]
    assert all(r["you"] == 0 for r in records)
    assert not any(m["type"] == "error" for m in received)
    last = records[-1]
    assert last["deal_over"] and last["result"]["deal"] == 1
    assert len(last["sheet"]["rows"]) == n and last["decision"] is None
    made = [(seat, move) for deal, seat, move in client.app.state.hall.tables[table["table"]].st.history if deal == 1]
    assert in_order(sent, [move for _, move in made])  # each move the person sent was made, in turn
    assert sent or all(seat != 0 for seat, _ in made)  # (a deal may end before his turn: a claim in the first trick)


def test_two_friends_each_get_only_their_own_seat_and_play_one_deal(client):
    table = new_table(client, "hearts", 4, bots(4, humans=(0, 2)))
    with connect(client, table, 0) as south, connect(client, table, 2) as north:
        assert (south.receive_json()["seat"], north.receive_json()["seat"]) == (0, 2)
        last = play_together([south, north], random.Random(5))
    assert [m["record"]["you"] for m in last.values()] == [0, 2]
    assert all(m["record"]["result"]["deal"] == 1 for m in last.values())


def test_a_move_out_of_turn_or_not_legal_is_refused_with_the_reason(client):
    table = new_table(client, "hearts", 4, bots(4, humans=(0, 1, 2, 3)))
    mover = engine.to_move(client.app.state.hall.tables[table["table"]].st)
    with connect(client, table, mover) as ws:
        ws.receive_json()
        record = ws.receive_json()["record"]
        hand = record["hand"]
        assert record["decision"] is not None
        ws.send_json({"type": "move", "move": "nonsense"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["message"].startswith("not legal: 'nonsense'")
        others = [c for c in client.app.state.hall.tables[table["table"]].game.deck.codes if c not in hand]
        ws.send_json({"type": "move", "move": others[0]})
        error = ws.receive_json()
        assert error["type"] == "error" and error["message"].startswith("not legal")


def test_a_seat_not_to_move_is_told_whose_turn_it_is(client):
    table = new_table(client, "oh-hell", 3, bots(3, humans=(0, 1, 2)))
    hall = client.app.state.hall
    mover = engine.to_move(hall.tables[table["table"]].st)
    idle = (mover + 1) % 3
    with connect(client, table, idle) as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_json({"type": "move", "move": "[1]"})
        message = ws.receive_json()
    assert message["type"] == "error" and message["message"].startswith("it is not your turn")


@pytest.mark.parametrize("text, reason", [
    ("not json", "a message is a JSON object"), ("[1, 2]", "a message is a JSON object"),
    ('{"type": "shout"}', "a message is a JSON object"), ('{"type": "move", "move": 7}', "a move message carries"),
    ('{"type": "move", "move": "x", "seat": 1}', "a message is a JSON object"),
])
def test_a_malformed_message_is_answered_with_the_reason(client, text, reason):
    table = new_table(client, "hearts", 4, bots(4))
    with connect(client, table, 0) as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_text(text)
        assert error_of(ws)["message"].startswith(reason)
        ws.send_text('{"type": "next"}')  # the connection still works
        assert error_of(ws) == {"type": "error", "message": "the deal is not over yet"}


def test_an_oversized_message_is_refused_and_the_socket_closed(client):
    table = new_table(client, "hearts", 4, bots(4))
    with connect(client, table, 0) as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_text('{"type": "move", "move": "' + "x" * MAX_MESSAGE + '"}')
        assert error_of(ws)["message"] == f"message over {MAX_MESSAGE} bytes"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1009


@pytest.mark.parametrize("token", ["wrong", "", "spectator-of-another-table"])
def test_a_wrong_token_opens_no_seat(client, token):
    table = new_table(client, "hearts", 4, bots(4))
    other = new_table(client, "hearts", 4, bots(4))
    if token == "spectator-of-another-table":
        token = other["spectator"].split("#")[1]
    with client.websocket_connect(f"/ws/{table['table']}?token={token}") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403


def test_the_spectator_sees_no_hand_and_cannot_act(client):
    table = new_table(client, "hearts", 4, bots(4, humans=(0,)))
    with connect(client, table, None) as ws:
        hello = ws.receive_json()
        record = ws.receive_json()["record"]
        assert hello["seat"] is None and record["you"] is None
        assert record["hand"] == [] and record["decision"] is None
        assert not any(z["title"].endswith("hand") and z["cards"] for z in record["zones"])
        ws.send_json({"type": "move", "move": "2C"})
        assert error_of(ws) == {"type": "error", "message": "a spectator cannot act at the table"}


def test_two_tabs_on_one_seat_both_see_and_either_may_move(client):
    table = new_table(client, "hearts", 4, bots(4, humans=(0, 1, 2, 3)))
    mover = engine.to_move(client.app.state.hall.tables[table["table"]].st)
    with connect(client, table, mover) as first, connect(client, table, mover) as second:
        first.receive_json(), second.receive_json()
        record = first.receive_json()["record"]
        assert second.receive_json()["record"] == record
        second.send_json({"type": "move", "move": record["decision"]["moves"][0]["notation"]})
        after_first, after_second = first.receive_json(), second.receive_json()
    assert after_first == after_second and after_first["moves_made"] == 1


def test_closing_the_page_and_opening_the_link_again_returns_the_seat_where_it_was(client):
    table = new_table(client, "tarot", 4, bots(4))
    rng = random.Random(3)
    with connect(client, table, 0) as ws:
        ws.receive_json()
        received, _ = play_seat(ws, rng, until=lambda r: len(r["log"]) > 12 and r["decision"] is not None)
    before = received[-1]
    with connect(client, table, 0) as again:
        assert again.receive_json()["seat"] == 0
        now = again.receive_json()
    assert now["record"] == before["record"] and now["moves_made"] == before["moves_made"]


def test_after_the_deal_the_next_starts_when_every_person_is_ready(client):
    table = new_table(client, "hearts", 4, bots(4, humans=(0, 1)))
    with connect(client, table, 0) as south, connect(client, table, 1) as west:
        south.receive_json(), west.receive_json()
        play_together([south, west], random.Random(8))
        south.send_json({"type": "next"})
        ready = south.receive_json()
        assert ready["ready"] and ready["waiting"] == ["West"] and ready["record"]["deal"] == 1
        assert west.receive_json()["waiting"] == ["West"]
        west.send_json({"type": "next"})
        nxt = west.receive_json()
    assert nxt["record"]["deal"] == 2 and nxt["waiting"] == [] and not nxt["record"]["deal_over"]


def test_a_table_request_the_server_cannot_honour_is_refused_in_words(client):
    assert client.post("/api/tables", json={"game": "../../etc/passwd", "players": 4, "seats": bots(4)}).json() == \
        {"error": "no game named '../../etc/passwd' here"}
    assert client.post("/api/tables", json={"game": "hearts", "players": 3, "seats": bots(3)}).status_code == 400
    wrong = client.post("/api/tables", json={"game": "hearts", "players": 4, "seats": bots(4, bot="genius")})
    assert wrong.json()["error"].startswith("a seat is a human or a bot")
    assert client.post("/api/tables", content=b"x" * 20000).status_code == 413


# -- the hidden-card proof -----------------------------------------------------------------------------------------------
async def _record_a_deal(hall: Hall, name: str, seed: int) -> list:
    """A deal of `name` with every seat a person playing random legal moves and a spectator watching: every
    message sent to each listener, with the cards that listener's seat was shown in the full state at that moment."""
    game = hall.game(name)
    n = engine.new_match(game).n
    table = hall.create(name, n, {}, [("human", "")] * n, seed=seed)
    sent: list = []
    seen = Seen(game)

    def listener(seat):
        async def send(message):
            sent.append((seat, wire(message), set(seen.of(table.st, seat))))
        return Listener(seat, send)

    table.listeners.extend(listener(s) for s in [*range(n), None])
    rng = random.Random(seed)
    await table.broadcast()
    while not table.st.deal_over:
        seat = engine.to_move(table.st)
        moves = table.record(seat)["record"]["decision"]["moves"]
        await table.act(seat, {"type": "move", "move": rng.choice(moves)["notation"]})
    return sent


def _leaks_in(name: str, seed: int) -> list:
    found = []
    hall = Hall(Store(":memory:"), GAMES, delay=0)
    hall.games = LOADED
    game = hall.game(name)
    for seat, message, known in asyncio.run(_record_a_deal(hall, name, seed)):
        found.extend((seat, leak) for leak in leaks(game, message, known))
    return found


@pytest.mark.parametrize("name", shipped_games())
def test_no_card_hidden_from_a_seat_ever_reaches_it(name):
    assert _leaks_in(name, sum(map(ord, name))) == []  # a deal of its own for each spec


def test_the_hidden_card_proof_finds_a_card_leaked_on_purpose(monkeypatch):
    def full_view(self, seat):  # a broken view that hides nothing
        view = self.copy()
        view.viewer = seat
        return view
    monkeypatch.setattr(State, "view", full_view)
    found = _leaks_in("hearts", 1)
    assert {seat for seat, _ in found} == {0, 1, 2, 3, None}


# -- resuming from the store ------------------------------------------------------------------------------------------
def _hall(path) -> Hall:
    hall = Hall(Store(str(path)), GAMES, delay=0)
    hall.games = LOADED
    return hall


def _played(path, moves: int, seats=(("human", ""),) * 3):
    hall = _hall(path)
    table = hall.create("preferans", 3, {"pool_target": 20}, list(seats), seed=9)
    rng = random.Random(4)
    for _ in range(moves):
        table.commit(rng.choice(engine.legal_moves(table.st)))
    hall.store.close()
    return table


@pytest.mark.parametrize("seats", [(("human", ""),) * 3, (("human", ""), ("bot", "random"), ("bot", "random"))])
def test_a_stored_table_resumes_at_the_position_its_log_leads_to(tmp_path, seats):
    table = _played(tmp_path / "t.sqlite", 12, seats)
    hall = _hall(tmp_path / "t.sqlite")
    assert hall.resume() == []
    again = hall.tables[table.id]
    assert again.st.to_json() == table.st.to_json() and again.seats == table.seats


def test_a_stored_table_whose_log_does_not_lead_to_its_digest_is_not_opened(tmp_path):
    table = _played(tmp_path / "t.sqlite", 5)
    store = Store(str(tmp_path / "t.sqlite"))
    store.db.execute("UPDATE tables SET position = ?", ("0" * 32,))  # as if a move had been lost or changed
    store.close()
    hall = _hall(tmp_path / "t.sqlite")
    assert hall.resume() == [f"table {table.id}: its moves do not lead to the position it recorded"]
    assert table.id not in hall.tables


def test_the_command_line_loads_no_web_machinery_until_serve():
    import subprocess
    import sys
    code = ("import sys, interp.cli.parser; interp.cli.parser.build_parser().parse_args(['play', 'hearts']); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'websockets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve_refuses_a_database_it_cannot_open_in_one_line(tmp_path, capsys):
    from interp.cli import main
    assert main(["serve", "--db", str(tmp_path), "--port", "9"]) == 2
    assert capsys.readouterr().err == f"{tmp_path}: cannot hold the tables there (unable to open database file)\n"


def test_serve_refuses_another_programs_database_in_one_line_and_leaves_it_as_it_was(tmp_path, capsys):
    import sqlite3

    from interp.cli import main
    path = tmp_path / "other.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE tables (x INTEGER)")
    other.execute("INSERT INTO tables VALUES (1)")
    other.commit()
    other.close()
    assert main(["serve", "--db", str(path), "--port", "9"]) == 2
    assert capsys.readouterr().err == f"{path}: cannot hold the tables there (its table 'tables' is not an interp " \
                                      "table server's)\n"
    assert sqlite3.connect(path).execute("SELECT x FROM tables").fetchall() == [(1,)]


def test_the_lobby_lists_the_catalogue_and_describes_a_game_by_name_only(client):
    listed = client.get("/api/games").json()
    assert listed["games"] == sorted(GAMES) and listed["bots"] == ["heuristic", "random", "search"]
    hearts = client.get("/api/games/hearts").json()
    assert hearts["players"] == [4] and hearts["seat_names"]["4"] == ["South", "West", "North", "East"]
    assert client.get("/api/games/..%2Fgames%2Fhearts").status_code == 404
    assert client.get("/").status_code == 200 and "<form" in client.get("/").text


def test_play_again_starts_a_new_match_at_the_same_table_and_it_resumes_from_the_store(tmp_path):
    hall = _hall(tmp_path / "t.sqlite")
    table = hall.create("tarot", 4, {"rounds": 1}, [("human", "")] * 4, seed=2)
    rng = random.Random(6)
    while not table.st.match_over:
        if table.st.deal_over:
            for seat in range(4):
                table.next(seat)
        else:
            table.commit(rng.choice(engine.legal_moves(table.st)))
    assert table.record(0)["record"]["final"] is not None
    first_seed = table.row.seed
    for seat in range(3):
        table.next(seat)
    assert table.st.match_over and table.record(0)["waiting"] == ["David"]
    table.next(3)
    assert (table.row.match_no, table.st.deal_no, table.st.match_over) == (2, 1, False)
    assert table.row.seed != first_seed and table.st.history == []
    table.commit(engine.legal_moves(table.st)[0])
    hall.store.close()
    again = _hall(tmp_path / "t.sqlite")
    assert again.resume() == []
    assert again.tables[table.id].st.to_json() == table.st.to_json()
