"""Bulk play: `interp simulate` (bots, statistics, one record per deal) and random playouts.

Every simulated deal is independent: deal `i` of a run with seed `s` is the first deal of a fresh match with
seed `s + i`, dealt by seat `i mod n` (so that every seat deals equally often), the bots seeded from that seed.
A record therefore replays on its own, and the results of a run are the same whatever the number of worker
processes (`jobs`): the deals are shared out in chunks and gathered back in order.

>>> from interp.spec.compiler import load_game
>>> game = load_game("docs/examples/tiny.yaml")
>>> records = []
>>> summary = simulate(game, 4, seed=1, bots="random", jobs=1, on_record=records.append)
>>> summary["deals"], [r["seed"] for r in records], list(summary["values"]) == summary["seats"]
(4, [1, 2, 3, 4], True)
"""
from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import random
import signal
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import IO, Callable

from interp.bots.registry import check_names, seat_agents
from interp.engine import match as engine
from interp.errors import OutputError, WorkerDied
from interp.runs.distributed import ray_map
from interp.runs.scenario import named_entries, named_facts
from interp.runs.summary import RunTally

_GAME = None  # the game a worker process plays (inherited when the pool forks, else loaded by `_init_worker`)


def play_deal(st, agents: dict) -> None:
    """Play the current deal to its end, each seat's agent choosing from its own view."""
    while not st.deal_over:
        seat = engine.to_move(st)
        moves = engine.legal_moves(st)
        engine.apply(st, agents[seat].choose(st.view(seat), moves), check=False)


def deal_record(game, i: int, seed: int, players: int | None, options: dict | None, bots: str) -> dict:
    """Play deal `i` of a run (a fresh match: seed `seed + i`, dealer `i mod n`) and describe it.

    The record: `deal`, `seed`, `dealer`, `agents` (per seat), `facts`, `entries` (by seat name), `values`
    (what the deal was worth to each seat: `engine.deal_values`), `stats` (the spec's `stats`, as text), and
    `redeal` when the deal was void."""
    deal_seed = seed + i
    n = players or game.default_players
    st = engine.new_match(game, n, deal_seed, options, dealer=i % n)
    agents = seat_agents(bots, list(range(st.n)), deal_seed * 100)
    play_deal(st, agents)
    names = check_names(bots)  # as written: a plug-in by its module:Class
    return finished_deal_record(st, i, deal_seed, [names[s % len(names)] for s in range(st.n)])


def finished_deal_record(st, i: int, seed: int, agents: list) -> dict:
    """The record of the deal `st` just finished (deal `i`, dealt from `seed`, seat s played by `agents[s]`):
    see `deal_record`; `interp arena --out` writes the same records."""
    game = st.game
    record, values = st.deals[-1], engine.deal_values(st)
    names = [game.seat_name(s, st.n) for s in range(st.n)]
    out = {"deal": i, "seed": seed, "dealer": names[st.dealer],
           "agents": {names[s]: agents[s] for s in range(st.n)},
           "facts": named_facts(st, record["facts"]), "entries": named_entries(st, record["entries"]),
           "values": {names[s]: _number(values[s]) for s in range(st.n)}}
    if record.get("redeal"):
        out["redeal"] = True
    if not record.get("redeal"):
        out["stats"] = {name: _key(value) for name, fn in game.stats.items()
                        if (value := fn(st)) is not None}
    return out


def simulate(game, deals: int, seed: int = 0, players: int | None = None, options: dict | None = None,
             bots: str = "heuristic", tick: Callable[[int], None] | None = None, jobs: int | None = None,
             on_record: Callable[[dict], None] | None = None, executor: str = "processes") -> dict:
    """Play `deals` independent deals on `jobs` processes (default: all cores; `executor="ray"`: as Ray tasks,
    `interp.runs.distributed`) and summarise them: the spec's `stats`, the mean sheet movement per deal, each
    seat's mean deal value with a 95% confidence interval. `tick(k)` is called as k more deals are done,
    `on_record(record)` with every deal's record in order."""
    n = players or game.default_players
    engine.resolve_options(game, options or {})  # bad options fail here, not in a worker
    tally = RunTally(game, n)
    started = time.perf_counter()
    for record in _records(game, deals, seed, players, options, bots, jobs, executor):
        tally.add(record)
        if on_record is not None:
            on_record(record)
        if tick is not None:
            tick(1)
    return tally.summary(seed, bots, time.perf_counter() - started)


def default_jobs() -> int:
    return os.cpu_count() or 1


def _records(game, deals: int, seed: int, players, options, bots: str, jobs: int | None, executor: str):
    """Every deal's record, in deal order, from this process or from a pool of workers."""
    jobs = max(1, min(jobs or default_jobs(), deals))
    if deals < 8:
        jobs = 1
    chunk = max(1, min(50, deals // (jobs * 4)))
    tasks = [(start, min(deals, start + chunk), seed, players, options, bots) for start in range(0, deals, chunk)]
    for records in pool_map(game, _play_chunk, tasks, jobs, executor):
        yield from records


def pool_map(game, work: Callable, tasks: list, jobs: int | None = None, executor: str = "processes"):
    """`work(game, task)` for every task, yielded in task order, on `jobs` processes (default: all cores; 1: in
    this process), or as Ray tasks (`executor="ray"`: `distributed.ray_map`). Each worker loads `game` once
    from its file (or inherits it, where processes fork); `work` is a module-level function, so that a worker
    can find it.

    >>> from interp.spec.compiler import load_game
    >>> list(pool_map(load_game("docs/examples/tiny.yaml"), _players_plus, [1, 2], jobs=1))
    [3, 4]
    """
    if executor == "ray":
        yield from ray_map(game, work, tasks, jobs)
        return
    jobs = max(1, min(jobs or default_jobs(), len(tasks)))
    if jobs == 1:
        for task in tasks:
            yield work(game, task)
        return
    global _GAME
    _GAME = game
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    before = set(multiprocessing.active_children())
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(game.path,)) as pool:
        with _sigint_held():  # a worker never sees Ctrl-C: this process stops them (below)
            futures = [pool.submit(_run_task, (work, task)) for task in tasks]
        workers = set(multiprocessing.active_children()) - before
        try:
            for future in futures:
                yield future.result()
        except BrokenProcessPool:  # the pool stops the other workers, and fails every task left
            raise WorkerDied("a worker process ended in the middle of the run (killed? out of memory?): "
                             "the run stops") from None
        except BaseException:  # Ctrl-C, a full disk, a consumer that stopped: no worker finishes its task
            for worker in workers:  # the pool then finds them ended, and fails every task left (no future is
                worker.kill()       # cancelled here: Python 3.11's pool would fail on a cancelled one)
            raise


@contextmanager
def _sigint_held():
    """SIGINT blocked while worker processes start (they inherit the mask, and unblock it ignoring SIGINT:
    `_init_worker`); a Ctrl-C meanwhile reaches this process when it is released."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _players_plus(game, k: int) -> int:
    return game.default_players + k


def _init_worker(path: str) -> None:
    """A worker: Ctrl-C is for the process that started it (which ends the pool); its game loaded once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    global _GAME
    if _GAME is None or _GAME.path != path:
        from interp.spec.compiler import load_game
        _GAME = load_game(path)


def _run_task(item: tuple):
    work, task = item
    return work(_GAME, task)


def _play_chunk(game, task: tuple) -> list:
    start, stop, seed, players, options, bots = task
    return [deal_record(game, i, seed, players, options, bots) for i in range(start, stop)]


def _key(value) -> str:
    if hasattr(value, "fields"):
        return value.name
    return str(value).lower() if isinstance(value, bool) else str(value)


def _number(value):
    """A number for JSON and CSV: ints stay ints, exact fractions become floats."""
    return value if isinstance(value, (int, float)) else float(value)


class RecordWriter:
    """Deal records to a file as they come, in constant memory: JSON Lines, or CSV when the name ends in .csv
    (one column per field, e.g. `facts.tricks.South`, `values.West`; the header is the union of the fields, in
    order of first appearance, so CSV rows wait in a temporary file and are written when the writer closes).

    The file only ever holds whole records: they are written in batches, and a batch that fails part way (a full
    disk, Ctrl-C during the write) is cut off again, leaving the records before it; a failure to write is an
    OutputError naming the file and how many records it holds. Records not yet written when the run stops (an
    error, Ctrl-C) are written on closing.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "deals.csv")
    >>> with RecordWriter.open(path) as write:
    ...     write({"deal": 0, "facts": {"taker": "Anne"}, "values": {"Anne": 3}})
    ...     write({"deal": 1, "redeal": True, "values": {"Anne": 0}})
    >>> print(open(path, encoding="utf-8").read(), end="")
    deal,facts.taker,values.Anne,redeal
    0,Anne,3,
    1,,0,true
    """

    BATCH = 1 << 16  # bytes of JSON Lines gathered before a write

    def __init__(self, fd: int, name: str, csv_format: bool = False):
        self.fd, self.name, self.csv_format = fd, name, csv_format
        self.fields: dict[str, None] = {}  # CSV: the columns, in order of first appearance
        self.spool: IO[str] | None = None  # CSV: the flattened records as JSON Lines in a temporary file
        self.spooled = 0  # CSV: how many
        self.pending: list[str] = []  # JSON Lines not yet written
        self.pending_chars = 0
        self.kept = 0  # whole records in the file
        self.size = 0  # their bytes
        self.failed = False

    @classmethod
    def open(cls, path: str) -> "RecordWriter":
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
        return cls(fd, path, csv_format=path.lower().endswith(".csv"))

    def __call__(self, record: dict) -> None:
        if self.csv_format:
            self._spool(flatten(record))
            return
        line = json.dumps(record, ensure_ascii=False) + "\n"
        self.pending.append(line)
        self.pending_chars += len(line)
        if self.pending_chars >= self.BATCH:
            self._write("".join(self.pending), len(self.pending))

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self.failed:
                return
            if self.pending:
                self._write("".join(self.pending), len(self.pending))
            if self.csv_format and self.spooled:
                self._write_csv()
        finally:
            if self.spool is not None:
                self.spool.close()
            os.close(self.fd)

    def _spool(self, row: dict) -> None:
        """Keep a CSV row (flattened) until the header is known: in a temporary file, not in memory."""
        self.fields.update(dict.fromkeys(row))
        try:
            if self.spool is None:
                self.spool = tempfile.TemporaryFile("w+", encoding="utf-8")
            self.spool.write(json.dumps(row, ensure_ascii=False) + "\n")
        except OSError as exc:
            self.failed = True
            raise self._cannot_write(exc) from None
        self.spooled += 1

    def _write_csv(self) -> None:
        """The header, then the spooled rows, in batches of about BATCH characters."""
        assert self.spool is not None
        fields = list(self.fields)
        groups = list(dict.fromkeys(f.split(".")[0] for f in fields))
        fields.sort(key=lambda f: groups.index(f.split(".")[0]))  # stable: columns of a group together
        text = io.StringIO()
        writer = csv.DictWriter(text, fields)
        writer.writeheader()
        self.spool.seek(0)
        rows = 0
        for line in self.spool:
            writer.writerow(json.loads(line))
            rows += 1
            if text.tell() >= self.BATCH:
                self._write(text.getvalue(), rows)
                text.seek(0)
                text.truncate()
                rows = 0
        if rows:
            self._write(text.getvalue(), rows)

    def _cannot_write(self, exc: OSError) -> OutputError:
        whole = f"{self.kept:,} whole record{'s' if self.kept != 1 else ''}"
        return OutputError(f"{self.name}: cannot write the records ({exc.strerror}); the file holds the first "
                           f"{whole}")

    def _write(self, text: str, records: int) -> None:
        """Append `records` whole records (`text`); on any failure cut the file back to the records before."""
        data = memoryview(text.encode("utf-8"))
        self.pending, self.pending_chars = [], 0
        done = 0
        try:
            while done < len(data):
                done += os.write(self.fd, data[done:])
        except BaseException as exc:
            self.failed = True
            with suppress(OSError):  # a device or a pipe cannot be cut: nothing of a record was kept there
                os.ftruncate(self.fd, self.size)
            if isinstance(exc, OSError):
                raise self._cannot_write(exc) from None
            raise
        self.size += len(data)
        self.kept += records


def flatten(record: dict, prefix: str = "") -> dict:
    """Nested fields as dotted columns; booleans as true/false.

    >>> flatten({"seed": 3, "facts": {"tricks": {"West": 4}, "void": False}})
    {'seed': 3, 'facts.tricks.West': 4, 'facts.void': 'false'}
    """
    out = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        elif isinstance(value, list):
            out[name] = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, bool):
            out[name] = "true" if value else "false"
        else:
            out[name] = value
    return out


def random_playouts(game, seconds: float, players: int | None = None, seed: int = 0) -> dict:
    """Random legal moves from the full state (no views), one deal per playout, for `seconds` (at least one)."""
    rng = random.Random(seed)
    deals = moves = 0
    started = time.perf_counter()
    while True:
        st = engine.new_match(game, players, seed + deals)
        while not st.deal_over:
            options = engine.legal_moves(st)
            engine.apply(st, options[rng.randrange(len(options))], check=False)
            moves += 1
        deals += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return {"playouts": deals, "moves": moves, "seconds": round(elapsed, 3),
                    "playouts_per_second": round(deals / elapsed, 1), "moves_per_second": round(moves / elapsed)}
