"""`interp serve`: the table server — a Starlette app (run by uvicorn) with a lobby, the table page and a WebSocket
per open page. Starlette does all the HTTP and WebSocket work; this module only routes and checks messages.

Routes: `/` the lobby page, `/table/{id}` the table page (the invite token in its `#` part, so it never reaches a
server log), `/api/games` the games offered (`/api/games/{name}`: one's player counts, seats and options),
`POST /api/tables` a new table (returns the invite links),
`/ws/{id}?token=T` a seat's (or the spectator's) live connection, `/static/…` the page's files.

On the socket the client sends JSON objects of at most MAX_MESSAGE bytes: `{"type": "move", "move": NOTATION}`
or `{"type": "next"}` (ready for the next deal, or a new match at the end). The server sends `hello` once, then a
`state` message (the seat's record, `present.seat_record`) after every change, and `error` with the reason for
a message it will not act on. A wrong token is answered with an `error` and the socket closed (code 4403).
"""
from __future__ import annotations

import contextlib
import json
import os

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interp.bots.registry import AGENT_NAMES
from interp.spec.resources import shipped_games, spec_path
from interp.table.store import Store
from interp.table.tables import Hall, Listener, Refused

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_MESSAGE = 2048  # bytes of one client message: a move's notation is a few dozen
MAX_REQUEST = 16384  # bytes of a new table's request
MAX_TABLES = 5000
CLOSE_REFUSED = 4403
CLOSE_TOO_BIG = 1009


def catalogue(extra: list | None = None) -> dict:
    """The games a server offers, name -> spec path: every shipped game, and the spec files named with `--spec`
    (by their file name without `.yaml`). A client picks by name only: it cannot make the server read a path.

    >>> from interp.spec.resources import shipped_games
    >>> sorted(catalogue()) == shipped_games()
    True
    """
    games = {name: spec_path(name) for name in shipped_games()}
    for path in extra or []:
        games[os.path.splitext(os.path.basename(path))[0]] = os.path.abspath(path)
    return games


def make_app(db: str, games: dict, delay: float = 1.0) -> Starlette:
    """The server's app over the store `db` (a file, or `:memory:`), offering `games`; bots pause `delay`
    seconds before each move. Its tables are resumed from the store when the app starts."""
    hall = Hall(Store(db), games, delay)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for line in hall.resume():
            print(line, flush=True)
        for table in hall.tables.values():
            table.kick()
        yield
        hall.store.close()

    async def lobby(request: Request):
        return FileResponse(os.path.join(STATIC, "lobby.html"))

    async def table_page(request: Request):
        return FileResponse(os.path.join(STATIC, "table.html"))

    async def list_games(request: Request):
        return JSONResponse({"games": sorted(games), "bots": list(AGENT_NAMES)})

    async def describe_game(request: Request):
        try:
            return JSONResponse(game_entry(hall, request.path_params["name"]))
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)

    async def new_table(request: Request):
        body = await request.body()
        if len(hall.tables) >= MAX_TABLES:
            return JSONResponse({"error": "this server holds as many tables as it can"}, status_code=503)
        if len(body) > MAX_REQUEST:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        try:
            table = hall.create(*table_request(body))
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        base = f"/table/{table.id}#"
        links = [{"seat": s.seat, "name": table.game.seat_name(s.seat, table.st.n), "kind": s.kind, "bot": s.bot,
                  "token": s.token or None, "url": base + s.token if s.token else None} for s in table.seats]
        table.kick()
        return JSONResponse({"table": table.id, "seats": links, "spectator": base + table.spectator})

    async def socket(websocket: WebSocket):
        await websocket.accept()
        table = hall.tables.get(websocket.path_params["table"])
        seat = table.seat_of(websocket.query_params.get("token", "")) if table else -1
        if table is None or seat == -1:
            await websocket.send_json({"type": "error", "message": "this link opens no seat: check it is whole"})
            await websocket.close(code=CLOSE_REFUSED)
            return
        listener = Listener(seat, websocket.send_json)
        await websocket.send_json(table.hello(seat))
        async with table.lock:
            table.listeners.append(listener)
            first = table.record(seat)
        await websocket.send_json(first)
        try:
            while True:
                text = await websocket.receive_text()
                if len(text.encode()) > MAX_MESSAGE:
                    await websocket.send_json({"type": "error", "message": f"message over {MAX_MESSAGE} bytes"})
                    await websocket.close(code=CLOSE_TOO_BIG)
                    return
                try:
                    await table.act(seat, client_message(text))
                except Refused as exc:
                    await websocket.send_json({"type": "error", "message": str(exc)})
        except WebSocketDisconnect:
            pass
        finally:
            if listener in table.listeners:
                table.listeners.remove(listener)

    routes = [Route("/", lobby), Route("/table/{table}", table_page), Route("/api/games", list_games),
              Route("/api/games/{name}", describe_game),
              Route("/api/tables", new_table, methods=["POST"]), WebSocketRoute("/ws/{table}", socket),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app


def game_entry(hall: Hall, name: str) -> dict:
    """A game as the lobby offers it: player counts, the seat names of each count, its options."""
    game = hall.game(name)
    return {"name": name, "title": game.name, "players": list(game.players), "default_players": game.default_players,
            "seat_names": {n: [game.seat_name(s, n) for s in range(n)] for n in game.players},
            "options": [{"name": k, "default": _plain(d["default"]), "values": [_plain(v) for v in d.get("values") or []],
                         "doc": d.get("doc", "")} for k, d in game.options.items()]}


def _plain(value):
    return value if isinstance(value, (bool, int, float, str)) or value is None else str(value)


def table_request(body: bytes) -> tuple:
    """(game name, players, options, seats) from a new table's JSON body; Refused naming what is wrong.

    >>> table_request(b'{"game": "x", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}')
    ('x', 2, {}, [('human', ''), ('bot', 'random')])
    """
    data = _json_object(body)
    game, players, options, seats = data.get("game"), data.get("players"), data.get("options", {}), data.get("seats")
    if not isinstance(game, str) or not isinstance(players, int) or isinstance(players, bool):
        raise Refused("a table needs `game` (a name) and `players` (a number)")
    if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
        raise Refused("`options` maps option names to numbers, text or true/false")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise Refused("`seats` is a list of {kind: human} or {kind: bot, bot: NAME}")
    return game, players, options, [(str(s.get("kind")), str(s.get("bot", ""))) for s in seats]


def client_message(text: str) -> dict:
    """A client's message, checked: `{"type": "move", "move": TEXT}` or `{"type": "next"}`; Refused otherwise.

    >>> client_message('{"type": "move", "move": "10H"}')
    {'type': 'move', 'move': '10H'}
    >>> client_message('[1]')
    Traceback (most recent call last):
    ...
    interp.table.tables.Refused: a message is a JSON object with a `type`: move or next
    """
    data = _json_object(text)
    kind = data.get("type")
    if kind == "next" and set(data) == {"type"}:
        return data
    if kind == "move" and set(data) <= {"type", "move", "at"}:
        move = data.get("move")
        if isinstance(move, str) and 0 < len(move) <= 200:
            return {"type": "move", "move": move}
        raise Refused("a move message carries the move's text as `move`")
    raise Refused("a message is a JSON object with a `type`: move or next")


def _json_object(text) -> dict:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("a message is a JSON object with a `type`: move or next") from None
    if not isinstance(data, dict):
        raise Refused("a message is a JSON object with a `type`: move or next")
    return data


def serve(host: str, port: int, db: str, games: dict, delay: float) -> None:
    """Run the server until Ctrl-C (uvicorn; client messages over 64 KB are refused by uvicorn itself)."""
    import uvicorn
    uvicorn.run(make_app(db, games, delay), host=host, port=port, ws_max_size=65536, log_level="warning")
