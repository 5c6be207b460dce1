"""What the load cache trusts (interp.dsl.cachedir): only a directory of the user's that no one else may write,
only regular files opened without following links and without blocking, only entries authenticated with the
directory's per-user key; pruning removes interp's own files and nothing else; lark's pickled parser cache in the
shared temp directory is never read.

Each attack plants a well-formed entry that would be used if it were trusted, so "not trusted" shows as every DSL
text being parsed again. Foreign ownership is made with os.chown to the `nobody` uid (the suite runs as root in CI),
and those tests skip when they cannot give a file away."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import lark
import pytest

from interp.dsl import cache, cachedir, parse as dslparse, tables
from interp.runs.simulate import deal_record
from interp.spec.compiler import load_game
from tests.conftest import ROOT

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")
NOBODY = 65534
as_root = pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                             reason="giving a file to another user (os.chown) needs root")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache directory of the test's own (mode 0700), and no parse trees kept from earlier loads."""
    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    monkeypatch.setenv("INTERP_CACHE_DIR", str(where))
    monkeypatch.setattr(cache, "_SAVED", set())
    dslparse.clear_cache()
    yield where
    dslparse.clear_cache()


def _fresh_load(monkeypatch) -> list:
    """Load TINY as a new process would; the DSL texts lark parsed (an empty list: all came from the cache)."""
    cache._SAVED.clear()
    dslparse.clear_cache()
    seen: list = []
    parsed = dslparse._parsed

    def counted(text, start, source):
        seen.append(text)
        return parsed(text, start, source)
    monkeypatch.setattr(dslparse, "_parsed", counted)
    _records(load_game(TINY))
    monkeypatch.setattr(dslparse, "_parsed", parsed)
    return seen


def _records(game) -> list:
    return [deal_record(game, i, 11, None, None, "random") for i in range(2)]


def _entry(cache_dir: Path) -> Path:
    [file] = cache_dir.glob("tiny-*.load")
    return file


def test_a_warm_entry_is_used(cache_dir, monkeypatch):
    """The baseline the other tests stand on: an entry this user's interp wrote is read back."""
    assert len(_fresh_load(monkeypatch)) > 10
    assert _fresh_load(monkeypatch) == []


@pytest.mark.parametrize("mode", [0o777, 0o1777, 0o770, 0o720])
def test_a_cache_dir_others_may_write_is_neither_read_nor_written(cache_dir, monkeypatch, mode):
    """An attacker who may write the directory can plant a key and entries signed with it: the directory is
    refused whole, as ssh refuses a key file others could change."""
    _fresh_load(monkeypatch)
    before = {p.name: p.read_bytes() for p in cache_dir.iterdir()}
    os.chmod(cache_dir, mode)
    assert len(_fresh_load(monkeypatch)) > 10
    assert {p.name: p.read_bytes() for p in cache_dir.iterdir()} == before  # nothing written (nor pruned) there


@as_root
def test_a_cache_dir_of_another_user_is_neither_read_nor_written(cache_dir, monkeypatch):
    _fresh_load(monkeypatch)
    os.chown(cache_dir, NOBODY, -1)
    names = sorted(p.name for p in cache_dir.iterdir())
    assert len(_fresh_load(monkeypatch)) > 10
    assert sorted(p.name for p in cache_dir.iterdir()) == names


@as_root
def test_the_issue_attack_a_shared_dir_with_a_link_to_a_file_the_victim_owns(tmp_path, monkeypatch):
    """Issue 25's attack: INTERP_CACHE_DIR on a world-writable directory; another user plants a link under the
    predictable name to a file the victim owns whose bytes the attacker chose (and a key to sign them)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    monkeypatch.setenv("INTERP_CACHE_DIR", str(shared))
    monkeypatch.setattr(cache, "_SAVED", set())
    victims = tmp_path / "victim-cache"  # a well-formed entry with a valid MAC, made as the attacker would
    victims.mkdir(mode=0o700)
    with cachedir.opened(victims, create=True) as folder:
        name = cache._file_for(TINY, shared).name
        folder.write(name, b"attacker's payload")
    os.symlink(victims / name, shared / name)
    os.lchown(shared / name, NOBODY, -1)
    shutil.copy(victims / "key", shared / "key")
    os.chown(shared / "key", NOBODY, -1)
    assert len(_fresh_load(monkeypatch)) > 10
    assert (victims / name).read_bytes().endswith(b"attacker's payload")  # the link's target was not written
    assert sorted(p.name for p in shared.iterdir()) == sorted(["key", name])


def test_an_entry_reached_through_a_symlink_is_not_read_and_its_target_not_written(cache_dir, monkeypatch,
                                                                                  tmp_path):
    _fresh_load(monkeypatch)
    entry = _entry(cache_dir)
    elsewhere = tmp_path / "elsewhere.load"
    shutil.move(entry, elsewhere)  # a valid entry, this user's, signed with this directory's key
    os.symlink(elsewhere, entry)
    data = elsewhere.read_bytes()
    assert len(_fresh_load(monkeypatch)) > 10
    assert elsewhere.read_bytes() == data
    assert not entry.is_symlink() and entry.is_file()  # the link was replaced by a fresh entry
    assert _fresh_load(monkeypatch) == []


# A new process loads TINY with the entry's name made a symlink to /dev/stdin or a FIFO, then echoes its input.
CHILD = textwrap.dedent("""
    import os, sys
    from interp.dsl import cache
    from interp.spec.compiler import load_game
    entry = cache._file_for(sys.argv[1], cache.directory())
    if sys.argv[2] == "stdin":
        os.symlink("/dev/stdin", entry)
    else:
        os.mkfifo(entry)
    load_game(sys.argv[1])
    print(sys.stdin.read(), end="")
""")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("planted", ["stdin", "fifo"])
def test_a_link_to_stdin_or_a_fifo_at_the_entry_neither_hangs_nor_swallows_input(tmp_path, planted):
    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    env = dict(os.environ, INTERP_CACHE_DIR=str(where))
    moves = "6S\npass\nquit\n"
    done = subprocess.run([sys.executable, "-c", CHILD, TINY, planted], input=moves, capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == moves


def test_an_entry_whose_mac_does_not_match_is_not_read(cache_dir, monkeypatch):
    _fresh_load(monkeypatch)
    entry = _entry(cache_dir)
    data = bytearray(entry.read_bytes())
    data[len(cachedir.MAGIC)] ^= 1  # one bit of the MAC
    entry.write_bytes(bytes(data))
    assert len(_fresh_load(monkeypatch)) > 10
    assert _fresh_load(monkeypatch) == []  # rewritten


def test_an_entry_signed_with_another_directorys_key_is_not_read(cache_dir, monkeypatch, tmp_path):
    """A cache copied from elsewhere (another account, another machine): its entries are another key's."""
    _fresh_load(monkeypatch)
    other = tmp_path / "other"
    other.mkdir(mode=0o700)
    shutil.copy(_entry(cache_dir), other / _entry(cache_dir).name)
    monkeypatch.setenv("INTERP_CACHE_DIR", str(other))
    assert len(_fresh_load(monkeypatch)) > 10


def test_an_entry_renamed_to_another_specs_name_is_not_read(cache_dir, monkeypatch, tmp_path):
    """The MAC covers the entry's name: a valid entry of one spec moved to another's name is refused."""
    copy = tmp_path / "copy" / "tiny.yaml"
    copy.parent.mkdir()
    shutil.copy(TINY, copy)
    load_game(str(copy))
    [theirs] = [p for p in cache_dir.glob("tiny-*.load")]
    ours = cache._file_for(TINY, cache_dir)
    os.replace(theirs, ours)
    assert len(_fresh_load(monkeypatch)) > 10


@pytest.mark.parametrize("damage", ["group-readable", "short", "missing"])
def test_a_key_that_is_not_private_is_not_used_and_is_replaced(cache_dir, monkeypatch, damage):
    _fresh_load(monkeypatch)
    key = cache_dir / "key"
    if damage == "group-readable":
        os.chmod(key, 0o640)
    elif damage == "short":
        key.write_bytes(key.read_bytes()[:16])
    else:
        key.unlink()
    assert len(_fresh_load(monkeypatch)) > 10
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == cachedir.KEY_BYTES
    assert _fresh_load(monkeypatch) == []


@as_root
def test_an_entry_owned_by_another_user_is_not_read(cache_dir, monkeypatch):
    _fresh_load(monkeypatch)
    os.chown(_entry(cache_dir), NOBODY, -1)
    assert len(_fresh_load(monkeypatch)) > 10


def test_pruning_removes_only_interps_own_files(cache_dir, monkeypatch, tmp_path):
    """Issue 25: one `validate` deleted 45 of 300 unrelated `*.load` files. Other people's files — whatever their
    name, a link to one of our entries, a directory — stay; our least recently used entries go."""
    monkeypatch.setattr(cachedir, "MAX_FILES", 2)
    unrelated = {f"data-{i:03}.load": os.urandom(40) for i in range(300)}
    unrelated["x-0123456789abcdef0123.cpython-311.load"] = b"an entry's name, not its header"
    for name, data in unrelated.items():
        (cache_dir / name).write_bytes(data)
    outside = tmp_path / "outside"
    outside.mkdir()
    (cache_dir / "sub-0123456789abcdef0123.cpython-311.load").mkdir()
    for name in ("a", "b", "c"):
        os.makedirs(tmp_path / name)
        shutil.copy(TINY, tmp_path / name / "tiny.yaml")
        load_game(str(tmp_path / name / "tiny.yaml"))
        if name == "a":  # a link, named as an entry, to an entry of ours kept outside the directory
            [first] = cache_dir.glob("tiny-*.load")
            shutil.copy(first, outside / "kept.load")
            os.symlink(outside / "kept.load", cache_dir / "link-0123456789abcdef0123.cpython-311.load")
            os.utime(cache_dir / "link-0123456789abcdef0123.cpython-311.load", (1, 1), follow_symlinks=False)
    assert len(list(cache_dir.glob("tiny-*.load"))) == 2 and not first.exists()  # the newest 2 kept
    for name, data in unrelated.items():
        assert (cache_dir / name).read_bytes() == data
    assert (cache_dir / "link-0123456789abcdef0123.cpython-311.load").is_symlink()
    assert (outside / "kept.load").exists()
    assert (cache_dir / "sub-0123456789abcdef0123.cpython-311.load").is_dir()


def test_a_temp_file_left_by_a_killed_write_is_pruned_once_stale(cache_dir, monkeypatch):
    _fresh_load(monkeypatch)
    name = _entry(cache_dir).name
    left = cache_dir / f".{name}.0123456789ab.tmp"
    left.write_bytes(cachedir.MAGIC[:5])
    fresh = cache_dir / f".{name}.ba9876543210.tmp"
    fresh.write_bytes(cachedir.MAGIC)
    foreign = cache_dir / ".notes.txt.0123456789ab.tmp"  # a temp name of someone else's
    foreign.write_bytes(b"x")
    for path in (left, foreign):
        os.utime(path, (1, 1))
    with cachedir.opened(cache_dir, create=False) as folder:
        assert folder is not None
        folder.prune()
    assert not left.exists() and fresh.exists() and foreign.exists()


# -- lark's parser tables ------------------------------------------------------------------------------------------
# In a new process with its own temp dir: lark 1.3 with the options interp used (cache=True) writes its pickle at
# the predictable path, which is then replaced by a pickle that would create MARKER when loaded.
PLANT = textwrap.dedent("""
    import glob, os, pickle, sys
    from lark import Lark
    from interp.dsl import tables
    Lark(tables.GRAMMAR.read_text(), parser="lalr", cache=True, **tables.OPTIONS)
    [path] = glob.glob(os.path.join(os.environ["TMPDIR"], ".lark_cache_*.tmp"))
    header = open(path, "rb").readline()
    class Payload:
        def __reduce__(self):
            return (open, (sys.argv[1], "w"))
    with open(path, "wb") as f:
        f.write(header)
        pickle.dump(Payload(), f)
        pickle.dump(Payload(), f)
    print(path)
""")
# interp loads a spec with lark's file opener watched: any path lark's cache opens is printed.
LOAD = textwrap.dedent("""
    import sys
    import lark.lark
    opened = []
    real = lark.lark.FS.open
    lark.lark.FS.open = lambda name, mode="r", **kw: (opened.append(name), real(name, mode, **kw))[1]
    from interp.spec.compiler import load_game
    load_game(sys.argv[1])
    print(opened)
""")


def test_a_file_planted_at_larks_temp_cache_path_is_never_read(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    marker = tmp_path / "ran"
    env = dict(os.environ, TMPDIR=str(temp), INTERP_CACHE_DIR=str(tmp_path / "cache"))
    planted = subprocess.run([sys.executable, "-c", PLANT, str(marker)], env=env, capture_output=True, text=True,
                             timeout=60)
    assert planted.returncode == 0, planted.stderr
    assert not marker.exists()
    for cached in ("cold", "warm", "off"):
        run_env = dict(env, INTERP_NO_CACHE="1") if cached == "off" else env
        done = subprocess.run([sys.executable, "-c", LOAD, TINY], env=run_env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]", cached  # lark opened no cache file
        assert not marker.exists(), cached
    assert [p.name for p in temp.iterdir()] == [Path(planted.stdout.strip()).name]  # nor wrote a new one


def test_the_parser_tables_come_from_the_cache_and_a_damaged_copy_is_rebuilt(cache_dir, monkeypatch, tmp_path):
    """Without tables shipped for the grammar and lark in use (interp.dsl.tables), the load cache keeps them."""
    monkeypatch.setattr(tables, "TABLES", tmp_path / "none.tables")
    built: list = []
    init = lark.Lark.__init__

    def counted(self, *args, **kwargs):
        built.append(1)
        init(self, *args, **kwargs)
    monkeypatch.setattr(lark.Lark, "__init__", counted)

    def parser_of_a_new_process():
        dslparse._parser.cache_clear()
        return dslparse._parser()
    first = parser_of_a_new_process()
    [kept] = cache_dir.glob("lark-grammar-*.load")
    second = parser_of_a_new_process()
    assert len(built) == 1  # built once, then read back
    text = "1 + x * 2"
    assert second.parse(text, start="expr") == first.parse(text, start="expr")
    data = bytearray(kept.read_bytes())
    data[-1] ^= 1
    kept.write_bytes(bytes(data))
    parser_of_a_new_process()
    assert len(built) == 2
    dslparse._parser.cache_clear()
