"""The tables a server holds: each the only holder of its match's full state, its seats, bots and listeners.

A `Table` applies a seat's move only when that seat is to move and the move is legal, commits it to the `Store`
before anyone hears of it, then sends each listener the record of its own seat's view (`present.seat_record`;
a spectator: the public view). Bots move from their seat's view, after a pause (`delay`). The networking
(`interp.table.server`) hands messages in and sends what a table gives to each listener.

>>> hall = Hall(Store(":memory:"), {"tiny": "docs/examples/tiny.yaml"}, delay=0)
>>> table = hall.create("tiny", 2, {}, [("human", ""), ("bot", "random")], seed=3)
>>> table.seat_of(table.seats[0].token), table.seat_of(table.spectator), table.seat_of("nope")
(0, None, -1)
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from interp.bots.registry import AGENT_NAMES, make_agent
from interp.engine import match as engine
from interp.engine.state import State
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError, InterpError
from interp.runs import replay
from interp.spec.compiler import load_game
from interp.table import present
from interp.table.store import SeatRow, Store, TableRow

SEAT_KINDS = ("human", "bot")
LOG = logging.getLogger("interp.serve")
Send = Callable[[dict], Awaitable[Any]]  # sends one message to one connection


class Refused(Exception):
    """A message a table will not act on, with the reason said to the sender."""


@dataclass
class Listener:
    """One open connection: its seat (None: a spectator) and how to send it a message."""

    seat: int | None
    send: Send


@dataclass(repr=False)
class Table:
    """One table: the match (`st`), who sits where, and who is listening."""

    row: TableRow
    game: Any
    st: State
    seats: list
    store: Store
    delay: float
    agents: dict = field(default_factory=dict)
    listeners: list = field(default_factory=list)
    ready: set = field(default_factory=set)  # human seats that asked for the next deal
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots_running: bool = False

    def __repr__(self) -> str:
        return f"<table {self.row.id} of {self.row.name}>"

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def spectator(self) -> str:
        return self.row.spectator

    def seat_of(self, token: str) -> int | None:
        """The seat an invite token opens; None for the spectator link; -1 for no seat of this table."""
        if secrets.compare_digest(token, self.row.spectator):
            return None
        for seat in self.seats:
            if seat.kind == "human" and secrets.compare_digest(token, seat.token):
                return seat.seat
        return -1

    def humans(self) -> list:
        return [s.seat for s in self.seats if s.kind == "human"]

    def make_agents(self) -> None:
        self.agents = {s.seat: make_agent(s.bot, seed=self.row.seed + s.seat) for s in self.seats if s.kind == "bot"}

    # -- what a listener is sent --------------------------------------------------------------------------------------
    def hello(self, seat: int | None) -> dict:
        """The first message on a connection: the table, the seat, and how each card of the deck is drawn."""
        return {"type": "hello", "table": self.id, "game": self.game.name, "seat": seat,
                "seat_name": None if seat is None else self.game.seat_name(seat, self.st.n),
                "deck": present.deck_record(self.game),
                "seats": [{"seat": s.seat, "name": self.game.seat_name(s.seat, self.st.n), "kind": s.kind,
                           "bot": s.bot} for s in self.seats]}

    def record(self, seat: int | None) -> dict:
        """The state message for `seat` (None: a spectator): its view's record, and who the table waits for."""
        st = self.st
        view = st.view(seat)
        moves = engine.legal_moves(st) if seat is not None and engine.to_move(st) == seat else []
        waiting = [] if not st.deal_over else \
            [self.game.seat_name(s, st.n) for s in self.humans() if s not in self.ready]
        return {"type": "state", "moves_made": len(st.history), "match": self.row.match_no,
                "record": present.seat_record(view, moves), "waiting": waiting,
                "ready": seat in self.ready}

    async def broadcast(self) -> None:
        """Send every listener the record of its seat (worked out once per seat)."""
        records: dict = {}
        for listener in list(self.listeners):
            if listener.seat not in records:
                records[listener.seat] = self.record(listener.seat)
            try:
                await listener.send(records[listener.seat])
            except Exception:  # a connection that went away: the server drops it when its loop ends
                pass

    # -- acting ---------------------------------------------------------------------------------------------------------
    async def act(self, seat: int | None, message: dict) -> None:
        """Do what a seat's (validated) message asks: a `move` or `next`; Refused says why not."""
        if seat is None:
            raise Refused("a spectator cannot act at the table")
        async with self.lock:
            if message["type"] == "move":
                self.play(seat, message["move"])
            else:
                self.next(seat)
        await self.broadcast()
        self.kick()

    def play(self, seat: int, text: str) -> None:
        st = self.st
        if st.deal_over:
            raise Refused("the deal is over: no move is pending")
        mover = engine.to_move(st)
        if mover != seat:
            raise Refused(f"it is not your turn: {self.game.seat_name(mover, st.n)} is to move")
        try:
            move = parse_move(st, text)
        except IllegalMoveError as exc:
            raise Refused(f"not legal: {exc.message}") from None
        self.commit(move)

    def commit(self, move) -> None:
        """Apply `move` and write it to the store before anyone is told. The digest of the position is written
        with it when the table then waits for a person (or the deal is over); a bot's move that another follows at
        once is written without (the digest costs more than the move), and a resume checks the log up to the last
        digest, then replays the moves after it."""
        st = self.st
        before = len(st.history)
        engine.apply(st, move)
        digest = replay.position(st) if st.deal_over or engine.to_move(st) not in self.agents else None
        for index in range(before, len(st.history)):
            self.store.add_move(self.id, self.row.match_no, index, list(st.history[index]), st.deal_no,
                                digest if index == len(st.history) - 1 else None)

    def next(self, seat: int) -> None:
        """A human seat is ready for the next deal (or, at the end, a new match): it starts when all are."""
        if not self.st.deal_over:
            raise Refused("the deal is not over yet")
        self.ready.add(seat)
        if set(self.humans()) <= self.ready:
            self.advance()

    def advance(self) -> None:
        """The next deal, or (the match over) a new match at the same table with a new seed; stored."""
        self.ready.clear()
        if self.st.match_over:
            row = self.row
            row.match_no, row.seed = row.match_no + 1, secrets.randbelow(2 ** 31)
            self.st = engine.new_match(self.game, row.players, row.seed, row.options)
            row.dealer = self.st.dealer
            self.make_agents()
        else:
            engine.next_deal(self.st)
        self.mark()
        self.store.update(self.row)

    def mark(self) -> None:
        """Take the digest of the position as it is now into the table's row (stored by the caller)."""
        row, st = self.row, self.st
        row.deal_no = row.position_deal = st.deal_no
        row.position, row.position_moves = replay.position(st), len(st.history)

    # -- bots -----------------------------------------------------------------------------------------------------------
    def kick(self) -> None:
        """Let the bots move if one is to move (a task of its own; one at a time per table)."""
        if not self.bots_running:
            self.bots_running = True
            asyncio.get_running_loop().create_task(self.run_bots())

    async def run_bots(self) -> None:
        try:
            while True:
                async with self.lock:
                    st = self.st
                    if st.deal_over:
                        if self.humans():
                            return
                        self.advance()  # a table of bots alone plays on
                    seat = engine.to_move(st)
                    if seat is None or seat not in self.agents:
                        return
                    view, moves, made = st.view(seat), engine.legal_moves(st), len(st.history)
                if self.delay:
                    await asyncio.sleep(self.delay)
                try:
                    move = await asyncio.to_thread(self.agents[seat].choose, view, moves)
                except Exception:  # a bot that fails stops its table's bots, not the server
                    LOG.exception("table %s: the bot of seat %s failed", self.id, seat)
                    return
                async with self.lock:
                    if self.st is not st or len(st.history) != made:
                        continue  # the position changed meanwhile (a new match): look again
                    self.commit(move)
                await self.broadcast()
        finally:
            self.bots_running = False


class Hall:
    """All the tables of one server, the games it offers (`catalogue`: name -> spec path) and its store."""

    def __init__(self, store: Store, catalogue: dict, delay: float = 1.0):
        self.store, self.catalogue, self.delay = store, catalogue, delay
        self.tables: dict = {}
        self.games: dict = {}

    def game(self, name: str):
        """The compiled game of a catalogue name; Refused for a name the server does not offer."""
        if name not in self.catalogue:
            raise Refused(f"no game named {name!r} here")
        if name not in self.games:
            self.games[name] = load_game(self.catalogue[name])
        return self.games[name]

    def create(self, name: str, players: int, options: dict, seats: list, seed: int | None = None) -> Table:
        """A new table of game `name`; `seats` one (kind, bot name) per seat. Refused for what cannot be."""
        game = self.game(name)
        if players not in game.players:
            raise Refused(f"{game.name} is for {', '.join(map(str, game.players))} players, not {players}")
        if len(seats) != players:
            raise Refused(f"{players} players need {players} seats, not {len(seats)}")
        for kind, bot in seats:
            if kind not in SEAT_KINDS or (kind == "bot" and bot not in AGENT_NAMES):
                raise Refused(f"a seat is a human or a bot ({', '.join(AGENT_NAMES)}), not {kind} {bot}".strip())
        try:
            resolved = engine.resolve_options(game, options)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        seed = secrets.randbelow(2 ** 31) if seed is None else seed
        st = engine.new_match(game, players, seed, resolved)
        row = TableRow(secrets.token_urlsafe(9), name, players, dict(options), seed, st.dealer, st.deal_no, 1,
                       replay.position(st), 0, st.deal_no, secrets.token_urlsafe(16))
        seat_rows = [SeatRow(s, kind, bot if kind == "bot" else "", secrets.token_urlsafe(16) if kind == "human" else "")
                     for s, (kind, bot) in enumerate(seats)]
        self.store.create(row, seat_rows)
        return self.open(row, game, st, seat_rows)

    def open(self, row: TableRow, game, st: State, seats: list) -> Table:
        table = Table(row, game, st, seats, self.store, self.delay)
        table.make_agents()
        self.tables[row.id] = table
        return table

    def resume(self) -> list:
        """Rebuild every stored table by replaying its log, checked against its digest (the log up to the digest's
        move leads to it; the moves after it replay legally); the lines of the tables that could not be (they stay in
        the store, untouched)."""
        problems = []
        for row in self.store.tables():
            try:
                game = self.game(row.name)
                log = self.store.moves(row.id, row.match_no)
                settings = (row.players, row.seed, row.options, row.dealer)
                marked = replay.replay(game, log[:row.position_moves], *settings, row.position_deal)
                st = replay.replay(game, log, *settings, row.deal_no)
            except (Refused, InterpError, ValueError) as exc:
                problems.append(f"table {row.id}: cannot be resumed ({exc})")
                continue
            if replay.position(marked) != row.position:
                problems.append(f"table {row.id}: its moves do not lead to the position it recorded")
                continue
            self.open(row, game, st, self.store.seats(row.id))
        return problems
