"""The summary of a run from its deal records: `interp simulate`'s own, and `interp summarize FILE...` over the
records of runs made anywhere (`--out` files, JSON Lines or CSV, from other machines or other times), merged.

A record says what the summary needs (`simulate.deal_record`: `stats`, `entries`, `values`, `agents`); the game
gives the rest (its seat names, sheet columns and stats, in order), so a run's `--out` file summarised gives the
summary the run printed, but for its timing.
"""
from __future__ import annotations

import csv
import json
import math
import statistics
from collections import Counter
from typing import Iterable, Iterator

from interp.errors import InterpError


class RunTally:
    """What the records of a run add up to, record by record (constant memory but for the values' lists).

    >>> from interp.spec.compiler import load_game
    >>> tally = RunTally(load_game("docs/examples/tiny.yaml"), 2)
    >>> tally.add({"seed": 7, "deal": 0, "agents": {"North": "random", "South": "random"},
    ...            "entries": {"score": {"North": 3}}, "values": {"North": 3, "South": -3}, "stats": {}})
    >>> summary = tally.summary()
    >>> summary["mean_per_deal"]
    {'score': {'North': 3.0, 'South': 0.0}, 'bonus': {'North': 0.0, 'South': 0.0}}
    >>> summary["values"].get("South")
    {'mean': -3.0, 'ci95': [-3.0, -3.0], 'sd': 0.0}
    """

    def __init__(self, game, players: int):
        self.game, self.n = game, players
        self.names = [game.seat_name(s, players) for s in range(players)]
        self.stats: dict[str, Counter] = {name: Counter() for name in game.stats}
        self.movement: dict[str, Counter] = {}
        self.values: dict[str, list[float]] = {name: [] for name in self.names}
        self.deals = 0
        self.first: dict | None = None

    def add(self, record: dict) -> None:
        if self.first is None:
            self.first = record
        self.deals += 1
        for name, key in record.get("stats", {}).items():
            self.stats.setdefault(name, Counter())[key] += 1
        for col, diff in record["entries"].items():
            for who, delta in diff.items():  # a pair column's "writer>against" counts for its writer
                self.movement.setdefault(col, Counter())[who.split(">")[0]] += delta
        for name, value in record["values"].items():
            if name not in self.values:
                raise InterpError(f"deal {record.get('deal')} has a seat {name!r}, which a {self.n}-player "
                                  f"{self.game.name} has not (records of another game?)")
            self.values[name].append(value)

    def summary(self, seed: int | None = None, bots: str | None = None, seconds: float | None = None) -> dict:
        """The run's summary (`simulate`'s): `seed` and `bots` default to those of the first record's run."""
        deals = max(self.deals, 1)
        first = self.first or {}
        if seed is None and first and "seed" in first and "deal" in first:
            seed = first["seed"] - first["deal"]
        if bots is None and first:
            bots = ",".join(dict.fromkeys(first["agents"].values()))
        columns = {col: {name: round(float(self.movement.get(col, {}).get(name, 0)) / deals, 3)
                         for name in self.names} for col in self.game.columns}
        return {"game": self.game.name, "players": self.n, "deals": self.deals, "seed": seed, "bots": bots,
                "seats": self.names, "seconds": None if seconds is None else round(seconds, 3),
                "deals_per_second": round(self.deals / seconds, 1) if seconds else None,
                "stats": {name: {k: {"count": c, "share": round(c / deals, 4)} for k, c in counter.most_common()}
                          for name, counter in self.stats.items()},
                "mean_per_deal": columns,
                "values": {name: mean_ci(vals) for name, vals in self.values.items()}}


def summarize_files(game, paths: list[str]) -> dict:
    """The summary of the records in `paths` (JSON Lines, or CSV for names ending in .csv), read in turn."""
    tally: RunTally | None = None
    for path in paths:
        for record in read_records(path):
            if tally is None:
                tally = RunTally(game, len(record["values"]))
            tally.add(record)
    if tally is None:
        raise InterpError(f"no deal records in {', '.join(paths)}")
    return tally.summary()


def read_records(path: str) -> Iterator[dict]:
    """The deal records of an `--out` file, one at a time; InterpError (one line, `file:line`) on a line that
    is not a record."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows: Iterable = csv.DictReader(f) if path.lower().endswith(".csv") else f
            for number, row in enumerate(rows, start=2 if isinstance(rows, csv.DictReader) else 1):
                try:
                    record = _from_row(row) if isinstance(row, dict) else _from_line(row)
                except ValueError as exc:
                    raise InterpError(f"{path}:{number}: not a deal record ({exc})") from None
                if record is None:
                    continue
                if not _is_record(record):
                    raise InterpError(f"{path}:{number}: not a deal record (no values by seat)")
                yield record
    except OSError as exc:
        raise InterpError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InterpError(f"{path}: not a file of deal records (not UTF-8 text)") from None


def _is_record(record) -> bool:
    """Whether `record` has what a summary reads: numbers by seat (`values`), sheet entries and stats by name."""
    if not isinstance(record, dict) or not isinstance(record.get("values"), dict):
        return False
    record.setdefault("entries", {})
    record.setdefault("agents", {})
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in record["values"].values()) \
        and isinstance(record["entries"], dict) and all(isinstance(d, dict) for d in record["entries"].values()) \
        and isinstance(record.get("stats", {}), dict) and isinstance(record.get("seed", 0), int) \
        and isinstance(record.get("deal", 0), int)


def _from_line(line: str) -> dict | None:
    line = line.strip()
    return json.loads(line) if line else None


def _from_row(row: dict) -> dict:
    """A CSV row (`simulate.flatten`'s columns) as the nested record the summary reads."""
    record: dict = {"entries": {}, "values": {}, "stats": {}, "agents": {}}
    for field, text in row.items():
        if text in ("", None):
            continue
        group, _, rest = field.partition(".")
        if group in ("values", "stats", "agents"):
            record[group][rest] = _number(text) if group == "values" else text
        elif group == "entries":
            col, _, who = rest.partition(".")
            record["entries"].setdefault(col, {})[who] = _number(text)
        elif group in ("deal", "seed"):
            record[group] = int(text)
    return record


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


# Student's t, two-sided 95%, by degrees of freedom 1–30 (the normal 1.96 beyond).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom (1.96 past 30)."""
    return T95[df - 1] if 1 <= df <= len(T95) else 1.96


def mean_ci(values: list) -> dict:
    """Mean and 95% confidence interval of independent samples (mean ± t · standard error; one value: no width).

    >>> mean_ci([1, 2, 3, 4])
    {'mean': 2.5, 'ci95': [0.446, 4.554], 'sd': 1.291}
    """
    if not values:
        return {"mean": None, "ci95": None, "sd": None}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = t95(len(values) - 1) * sd / math.sqrt(len(values))
    return {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)], "sd": round(sd, 3)}


