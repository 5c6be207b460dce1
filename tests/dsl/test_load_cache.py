"""The load cache (interp.dsl.cache, issue 13 point 3): a spec loaded with a warm cache plays exactly as one
compiled afresh; a stale, corrupt, truncated, foreign or unwritable cache is ignored silently; an edited text
misses it; a spec with a mistake reports the same located message with or without a cache. Every test keeps its
cache in tmp_path (the suite's own is a temp dir too: conftest)."""
from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys

import pytest

from interp.dsl import cache, cachedir, parse as dslparse
from interp.errors import SpecError
from interp.runs.simulate import deal_record
from interp.spec.compiler import load_game
from tests.conftest import ROOT

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")

# In a new process: load every shipped spec, play two seeded random deals of each, and print the records with
# how many DSL texts were parsed and how many code objects compiled (not taken from the cache), and whether lark
# was imported (by the imports, by the loads).
PLAY_ALL = """
import glob, json, sys
from interp.dsl import cache
from interp.dsl import parse as dslparse
from interp.spec.compiler import load_game
from interp.runs.simulate import deal_record
made = {"parsed": 0, "compiled": 0}
parsed, code = dslparse._parsed, cache.Store.code
def counted_parse(*args):
    made["parsed"] += 1
    return parsed(*args)
def counted_code(self, source, filename, mode):
    made["compiled"] += type(self.codes.get((source, filename, mode))) is not cache.CodeType
    return code(self, source, filename, mode)
dslparse._parsed, cache.Store.code = counted_parse, counted_code
lark = {"imported": "lark" in sys.modules}
records = {}
for path in sorted(glob.glob("games/*.yaml")):
    game = load_game(path)
    records[path] = [deal_record(game, i, 7, None, None, "random") for i in range(2)]
lark["loaded"] = "lark" in sys.modules
print(json.dumps({"made": made, "records": records, "lark": lark}, sort_keys=True, default=str))
"""


def _play_all(cache_dir) -> dict:
    env = dict(os.environ, INTERP_CACHE_DIR=str(cache_dir))
    out = subprocess.run([sys.executable, "-c", PLAY_ALL], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_every_shipped_spec_plays_the_same_from_a_warm_cache(tmp_path):
    cold = _play_all(tmp_path)
    assert cold["made"]["parsed"] > 500 and cold["made"]["compiled"] > 1000, cold["made"]  # nothing cached: all made
    specs = [p for p in tmp_path.glob("*.load") if not p.name.startswith("lark-grammar-")]
    assert len(specs) == len(cold["records"]) == len(glob.glob(os.path.join(ROOT, "games", "*.yaml")))  # one per spec
    assert cold["lark"] == {"imported": False, "loaded": False}  # parsed by interp.dsl.lalr: lark only for an error
    warm = _play_all(tmp_path)
    assert warm["made"] == {"parsed": 0, "compiled": 0}  # everything from the cache
    assert warm["lark"] == {"imported": False, "loaded": False}  # no text to parse: lark never imported
    assert warm["records"] == cold["records"]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache dir of the test's own, and trees not kept from earlier loads in this process."""
    where = tmp_path / "cache"
    monkeypatch.setenv("INTERP_CACHE_DIR", str(where))
    monkeypatch.setattr(cache, "_SAVED", set())
    dslparse.clear_cache()
    yield where
    dslparse.clear_cache()


def _parses(monkeypatch) -> list:
    """The texts lark parses from now on (cache misses)."""
    seen: list = []
    parsed = dslparse._parsed

    def counted(text, start, source):
        seen.append(text)
        return parsed(text, start, source)
    monkeypatch.setattr(dslparse, "_parsed", counted)
    return seen


def _records(game) -> list:
    return [deal_record(game, i, 11, None, None, "random") for i in range(3)]


def _spec(tmp_path, old: str = "", new: str = "") -> str:
    path = tmp_path / "tiny.yaml"
    path.write_text(open(TINY, encoding="utf-8").read().replace(old, new), encoding="utf-8")
    return str(path)


def test_a_warm_load_in_process_parses_nothing_and_plays_the_same(cache_dir, monkeypatch):
    cold = load_game(TINY)
    assert len(list(cache_dir.glob("tiny-*.load"))) == 1
    dslparse.clear_cache()
    parses = _parses(monkeypatch)
    warm = load_game(TINY)
    assert parses == []
    assert _records(warm) == _records(cold)


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "empty", "garbage", "other salt", "directory"])
def test_a_damaged_cache_file_is_ignored_and_rewritten(cache_dir, monkeypatch, damage):
    expected = _records(load_game(TINY))
    [file] = cache_dir.glob("tiny-*.load")
    data = file.read_bytes()
    if damage == "truncated":
        file.write_bytes(data[:len(data) // 2])
    elif damage == "flipped byte":
        file.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])
    elif damage == "empty":
        file.write_bytes(b"")
    elif damage == "garbage":
        file.write_bytes(os.urandom(len(data)))
    elif damage == "other salt":  # a well-formed file written by another lark, Python or grammar
        monkeypatch.setattr(cache, "_salt", lambda: ("another version",))
        cache.Store(file, {}, {}).save()
        monkeypatch.undo()
        monkeypatch.setenv("INTERP_CACHE_DIR", str(cache_dir))
    else:
        file.unlink()
        file.mkdir()
    monkeypatch.setattr(cache, "_SAVED", set())  # as in a new process
    dslparse.clear_cache()
    parses = _parses(monkeypatch)
    assert _records(load_game(TINY)) == expected
    assert len(parses) > 10  # the damaged file gave nothing: every text parsed again
    if damage != "directory":  # the file was rewritten whole: the next process parses nothing
        cache._SAVED.clear()
        dslparse.clear_cache()
        del parses[:]
        load_game(TINY)
        assert parses == []


def test_an_edited_text_misses_the_cache_and_the_rest_hits(cache_dir, monkeypatch, tmp_path):
    spec = _spec(tmp_path)
    load_game(spec)
    edited = _spec(tmp_path, "score[s] += taken[s]", "score[s] += 2 * taken[s]")
    dslparse.clear_cache()
    parses = _parses(monkeypatch)
    game = load_game(edited)
    assert parses == ["for s in seats: score[s] += 2 * taken[s]"]  # only the changed text
    record = deal_record(game, 0, 11, None, None, "random")
    assert [record["entries"]["score"][name] for name in ("North", "South")] == \
        [2 * record["facts"]["taken"][name] for name in ("North", "South")]


@pytest.mark.parametrize("old,new", [
    ("score[s] += taken[s]", "score[s] += taken[s] +"),  # a syntax error
    ("score[s] += taken[s]", "score[s] += taken[s] + 'x'"),  # a type error in a text parsed afresh
    ("taken: {type: num", "taken: {type: bool"),  # type errors found in trees from the cache
])
def test_a_mistake_reads_the_same_with_and_without_a_cache(cache_dir, monkeypatch, tmp_path, old, new):
    def message() -> str:
        dslparse.clear_cache()
        with pytest.raises(SpecError) as err:
            load_game(_spec(tmp_path, old, new))
        return str(err.value)

    monkeypatch.setenv("INTERP_NO_CACHE", "1")
    uncached = message()
    monkeypatch.delenv("INTERP_NO_CACHE")
    load_game(_spec(tmp_path))  # the good spec fills the cache with every other text
    assert message() == uncached
    assert message() == uncached  # a failed compile saved nothing that changes the next one
    assert "tiny.yaml:" in uncached


def test_no_cache_when_switched_off(cache_dir, monkeypatch):
    monkeypatch.setenv("INTERP_NO_CACHE", "1")
    load_game(TINY)
    assert not cache_dir.exists()


def test_an_unwritable_cache_dir_is_silent(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("INTERP_CACHE_DIR", str(blocker / "cache"))  # cannot be made
    monkeypatch.setattr(cache, "_SAVED", set())
    expected = _records(load_game(TINY))
    dslparse.clear_cache()
    assert _records(load_game(TINY)) == expected


def test_a_failed_write_leaves_no_file_nor_temp_file(cache_dir, monkeypatch):
    def refuse(src, dst, **where):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", refuse)
    load_game(TINY)
    assert list(cache_dir.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs to give a file to another user")
def test_a_file_of_another_user_is_not_read(cache_dir, monkeypatch):
    load_game(TINY)
    [file] = cache_dir.glob("tiny-*.load")
    os.chown(file, 12345, -1)
    dslparse.clear_cache()
    parses = _parses(monkeypatch)
    load_game(TINY)
    assert len(parses) > 10


def test_old_files_beyond_the_limit_are_pruned(cache_dir, monkeypatch, tmp_path):
    monkeypatch.setattr(cachedir, "MAX_FILES", 2)
    for name in ("a", "b", "c"):
        os.makedirs(tmp_path / name)
        shutil.copy(TINY, tmp_path / name / "tiny.yaml")
        load_game(str(tmp_path / name / "tiny.yaml"))
    assert len(list(cache_dir.glob("tiny-*.load"))) == 2
