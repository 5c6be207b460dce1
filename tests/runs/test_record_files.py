"""`--out` writes records as they come, in constant memory, JSON Lines and CSV alike: a run of any length holds
a few batches of records, never the whole run (the CSV rows wait in a temporary file until the header is known)."""
from __future__ import annotations

import csv
import json
import tracemalloc

import pytest

from interp.runs.simulate import RecordWriter


def _record(i: int) -> dict:
    """A record of about 300 characters; from deal 5 on it has a field the first ones lack (a late CSV column)."""
    record = {"deal": i, "seed": i, "dealer": "North", "agents": {s: "heuristic" for s in ("N", "E", "S", "W")},
              "facts": {"taker": "South", "tricks": {s: i % 7 for s in ("N", "E", "S", "W")}},
              "values": {s: i * 3 - 40 for s in ("N", "E", "S", "W")}}
    if i >= 5:
        record["stats"] = {"contract": f"six {i % 4}"}
    return record


def _peak_memory(path, count: int) -> int:
    """The most memory (bytes) held at once while writing `count` records to `path`."""
    tracemalloc.start()
    try:
        with RecordWriter.open(str(path)) as write:
            for i in range(count):
                write(_record(i))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_writing_records_holds_a_bounded_amount_of_memory_whatever_the_run_length(tmp_path, suffix):
    short = _peak_memory(tmp_path / f"short.{suffix}", 1_000)
    path = tmp_path / f"deals.{suffix}"
    long = _peak_memory(path, 5_000)  # five times the records: about the same memory (a batch or two)
    assert long < 1.25 * short and long < 1_000_000, f"{short:,} then {long:,} bytes"
    if suffix == "csv":
        rows = list(csv.DictReader(path.open(encoding="utf-8")))
        assert len(rows) == 5_000 and rows[0]["stats.contract"] == "" and rows[7]["stats.contract"] == "six 3"
        assert list(rows[0])[:4] == ["deal", "seed", "dealer", "agents.N"]
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 5_000 and json.loads(lines[7]) == _record(7)


def test_csv_written_in_many_small_batches_is_the_same_file_as_in_one(tmp_path, monkeypatch):
    whole, batched = tmp_path / "one.csv", tmp_path / "many.csv"
    with RecordWriter.open(str(whole)) as write:
        for i in range(40):
            write(_record(i))
    monkeypatch.setattr(RecordWriter, "BATCH", 500)  # a few rows a batch
    with RecordWriter.open(str(batched)) as write:
        for i in range(40):
            write(_record(i))
    assert batched.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert whole.read_text(encoding="utf-8").count("\n") == 41  # the header and 40 rows
