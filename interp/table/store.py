"""The table server's database: SQLite through the standard library, one file, every move committed as it is made.

A table row holds the match's settings (the game by its catalogue name, never a path a client gave), its seed,
first dealer, deal number, match number and the digest of a position (`replay.position`) with the number of moves
and the deal that lead to it; a seat row its kind (human or bot), bot name and invite token; a move row one entry
of the move log. The log and the settings replay the match exactly (`interp.runs.replay.replay`), and the digest
proves the replay reached the same position.

>>> store = Store(":memory:")
>>> store.create(TableRow("t1", "tiny", 2, {}, 5, 0, 1, 1, "", 0, 1, "spy"), [SeatRow(0, "human", "", "tok"),
...              SeatRow(1, "bot", "random", "")])
>>> store.add_move("t1", 1, 0, [1, 0, "AS"], 1, "abc")
>>> [row.name for row in store.tables()], store.moves("t1", 1)
(['tiny'], [[1, 0, 'AS']])
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, name TEXT NOT NULL, players INTEGER NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, dealer INTEGER NOT NULL, deal_no INTEGER NOT NULL,
    match_no INTEGER NOT NULL, position TEXT NOT NULL, position_moves INTEGER NOT NULL,
    position_deal INTEGER NOT NULL, spectator TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
    bot TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS moves (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, idx INTEGER NOT NULL,
    deal INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (table_id, match_no, idx));
"""


@dataclass
class TableRow:
    """A table's settings and where its match stands (see the module)."""

    id: str
    name: str
    players: int
    options: dict
    seed: int
    dealer: int
    deal_no: int
    match_no: int
    position: str  # the digest of the position after the first `position_moves` moves, in deal `position_deal`
    position_moves: int
    position_deal: int
    spectator: str


@dataclass(frozen=True)
class SeatRow:
    """Who sits at a seat: `kind` human (with its invite `token`) or bot (with its `bot` name)."""

    seat: int
    kind: str
    bot: str
    token: str


class Store:
    """The tables, seats and move logs in one SQLite file (`:memory:` for none). Each write is one transaction,
    committed before the method returns: a move is on disk before the server tells anyone about it. The file is in
    WAL mode with `synchronous=NORMAL`: a killed process loses nothing committed (a power cut may lose the last
    moves)."""

    def __init__(self, path: str):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._check_schema()

    def _check_schema(self) -> None:
        """A file whose tables are not the ones SCHEMA makes (another program's database) is refused, untouched
        beyond what CREATE TABLE IF NOT EXISTS adds, before the server writes to it."""
        made = sqlite3.connect(":memory:")
        made.executescript(SCHEMA)
        for name in ("tables", "seats", "moves"):
            query = f"PRAGMA table_info({name})"
            if self.db.execute(query).fetchall() != made.execute(query).fetchall():
                self.db.close()
                raise sqlite3.DatabaseError(f"its table {name!r} is not an interp table server's")
        made.close()

    def close(self) -> None:
        self.db.close()

    def create(self, row: TableRow, seats: list) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            (row.id, row.name, row.players, json.dumps(row.options), row.seed, row.dealer,
                             row.deal_no, row.match_no, row.position, row.position_moves, row.position_deal,
                             row.spectator))
            self.db.executemany("INSERT INTO seats VALUES (?,?,?,?,?)",
                                [(row.id, s.seat, s.kind, s.bot, s.token) for s in seats])

    def add_move(self, table_id: str, match_no: int, index: int, entry: list, deal_no: int,
                 position: str | None = None) -> None:
        """Append log entry `index` ([deal, seat, move text]) and, if given, the digest of the position it leads
        to, in one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO moves VALUES (?,?,?,?,?,?)", (table_id, match_no, index, *entry))
            if position is None:
                self.db.execute("UPDATE tables SET deal_no=? WHERE id=?", (deal_no, table_id))
            else:
                self.db.execute("UPDATE tables SET deal_no=?, position=?, position_moves=?, position_deal=? WHERE id=?",
                                (deal_no, position, index + 1, deal_no, table_id))

    def update(self, row: TableRow) -> None:
        """Store where the match stands after a move-less step (the next deal, a new match)."""
        with self.db:
            self.db.execute("UPDATE tables SET seed=?, dealer=?, deal_no=?, match_no=?, position=?, position_moves=?, "
                            "position_deal=? WHERE id=?", (row.seed, row.dealer, row.deal_no, row.match_no, row.position,
                                                           row.position_moves, row.position_deal, row.id))

    def tables(self) -> list:
        rows = self.db.execute("SELECT * FROM tables ORDER BY rowid").fetchall()
        return [TableRow(r[0], r[1], r[2], json.loads(r[3]), *r[4:]) for r in rows]

    def seats(self, table_id: str) -> list:
        rows = self.db.execute("SELECT seat, kind, bot, token FROM seats WHERE table_id=? ORDER BY seat", (table_id,))
        return [SeatRow(*r) for r in rows.fetchall()]

    def moves(self, table_id: str, match_no: int) -> list:
        rows = self.db.execute("SELECT deal, seat, move FROM moves WHERE table_id=? AND match_no=? ORDER BY idx",
                               (table_id, match_no))
        return [list(r) for r in rows.fetchall()]
