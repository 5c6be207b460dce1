"""Seeded fuzzing of the load cache (interp.dsl.cache, interp.dsl.cachedir): whatever is found at an entry's
path — a corrupt, truncated or swapped file, a link, a FIFO, a directory, another user's file — and whoever else
writes the directory at the same time, a load ends promptly and plays exactly as a load without a cache, and
what the cache hands back is only ever a whole entry this user's interp wrote under that name."""
from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import signal
import threading
from pathlib import Path

import pytest

from interp.dsl import cache, cachedir, parse as dslparse
from interp.runs.simulate import deal_record
from interp.spec.compiler import load_game
from tests.conftest import ROOT

SEED = 20261128
CASES = 60  # about 2 s
TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")
ATTACKS = ["flip", "truncate", "extend", "garbage", "empty", "swap", "symlink", "dangling", "hardlink", "fifo",
           "directory", "foreign owner", "key flip", "key link", "chmod dir"]


def _records(game) -> list:
    return [deal_record(game, i, 5, None, None, "random") for i in range(2)]


def _load() -> list:
    """TINY's records, loaded as a new process would (within 20 s: a FIFO must not hang the reader)."""
    cache._SAVED.clear()
    dslparse.clear_cache()
    signal.alarm(20)
    try:
        return _records(load_game(TINY))
    finally:
        signal.alarm(0)


def _attack(kind: str, cache_dir: Path, entry: Path, other: Path, rng: random.Random) -> None:
    """Put something hostile at `entry` (or spoil the key or the directory); `other` is another valid entry."""
    data = entry.read_bytes() if entry.is_file() and not entry.is_symlink() else os.urandom(500)
    if entry.exists() or entry.is_symlink():
        entry.unlink() if not entry.is_dir() or entry.is_symlink() else shutil.rmtree(entry)
    if kind == "flip":
        spot = rng.randrange(len(data))
        entry.write_bytes(data[:spot] + bytes([data[spot] ^ (1 << rng.randrange(8))]) + data[spot + 1:])
    elif kind == "truncate":
        entry.write_bytes(data[:rng.randrange(len(data))])
    elif kind == "extend":
        entry.write_bytes(data + os.urandom(rng.randrange(1, 64)))
    elif kind == "garbage":
        entry.write_bytes(cachedir.MAGIC + os.urandom(rng.randrange(1, 4000)))
    elif kind == "empty":
        entry.write_bytes(b"")
    elif kind == "swap":
        shutil.copy(other, entry)
    elif kind == "symlink":
        os.symlink(other, entry)
    elif kind == "dangling":
        os.symlink(cache_dir / "nowhere", entry)
    elif kind == "hardlink":
        os.link(other, entry)
    elif kind == "fifo":
        os.mkfifo(entry)
    elif kind == "directory":
        entry.mkdir()
    elif kind == "foreign owner":
        entry.write_bytes(data)
        os.chown(entry, 65534, -1)
    elif kind == "key flip":
        entry.write_bytes(data)
        key = cache_dir / "key"
        key.write_bytes(bytes([key.read_bytes()[0] ^ 1]) + key.read_bytes()[1:])
    elif kind == "key link":
        entry.write_bytes(data)
        (cache_dir / "key").unlink()
        os.symlink(other, cache_dir / "key")
    else:
        entry.write_bytes(data)
        os.chmod(cache_dir, 0o777)


@pytest.mark.skipif(not cachedir.SUPPORTED or not hasattr(signal, "alarm"), reason="needs POSIX")
def test_whatever_is_at_the_entry_a_load_plays_as_without_a_cache(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir(mode=0o700)
    monkeypatch.setenv("INTERP_NO_CACHE", "1")
    expected = _load()
    monkeypatch.delenv("INTERP_NO_CACHE")
    monkeypatch.setenv("INTERP_CACHE_DIR", str(cache_dir))
    monkeypatch.setattr(cache, "_SAVED", set())
    copy = tmp_path / "copy" / "tiny.yaml"
    copy.parent.mkdir()
    shutil.copy(TINY, copy)
    load_game(str(copy))
    [other] = cache_dir.glob("tiny-*.load")
    entry = cache._file_for(TINY, cache_dir)
    rng = random.Random(SEED)
    kinds = [k for k in ATTACKS if k != "foreign owner" or os.getuid() == 0]
    seen = set()
    for case in range(CASES):
        assert _load() == expected, case  # and the entry is (re)written: the attack spoils a valid one
        kind = kinds[case % len(kinds)] if case < len(kinds) else rng.choice(kinds)
        seen.add(kind)
        _attack(kind, cache_dir, entry, other, rng)
        assert _load() == expected, (case, kind)
        os.chmod(cache_dir, 0o700)
        if entry.is_dir() and not entry.is_symlink():
            entry.rmdir()
    assert seen == set(kinds)
    dslparse.clear_cache()


def _writer(where: str, name: str, tag: int, rounds: int) -> None:
    with cachedir.opened(Path(where), create=True) as folder:
        assert folder is not None
        for i in range(rounds):
            folder.write(name, bytes([tag]) * (1000 + 997 * i))


@pytest.mark.skipif(not cachedir.SUPPORTED, reason="needs POSIX")
def test_concurrent_writers_leave_only_whole_entries(tmp_path):
    """Three processes and two threads race to make the key and to write one entry while another reads it: a read
    gives nothing or exactly one writer's whole payload, and no temp file is left behind."""
    where = tmp_path / "cache"
    name = "g-0123456789abcdef0123.cpython-311.load"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_writer, args=(str(where), name, tag, 40)) for tag in (1, 2, 3)]
    threads = [threading.Thread(target=_writer, args=(str(where), name, tag, 40)) for tag in (4, 5)]
    for worker in workers + threads:
        worker.start()
    reads = []
    while any(w.is_alive() for w in workers + threads) or not reads:
        with cachedir.opened(where, create=True) as folder:
            assert folder is not None
            reads.append(folder.read(name))
    for worker in workers:
        worker.join()
        assert worker.exitcode == 0
    for thread in threads:
        thread.join()
    for got in reads:
        assert got is None or (len(set(got)) == 1 and (len(got) - 1000) % 997 == 0), got[:20]
    assert sorted(p.name for p in where.iterdir()) == sorted([name, "key"])
