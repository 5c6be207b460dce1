"""`interp simulate` and `interp arena` stopped part way — a full disk under `--out`, Ctrl-C with worker processes —
end at once with one line and the documented exit code (2, 130), never a traceback or a hang, and the `--out`
file holds whole records only (issue 25: tracebacks, exit 1, and an arena that hung after its workers died)."""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from interp.cli import main
from interp.runs import simulate as simulate_module
from tests.conftest import ROOT

TINY = "docs/examples/tiny.yaml"
COMMANDS = {"simulate": ["simulate", TINY, "-n", "400"],
            "arena": ["arena", TINY, "--agents", "random,heuristic", "-n", "200"]}


def _whole_records(path) -> int:
    """How many records the JSON Lines file holds; each line must be a whole record."""
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n")
    return sum(1 for line in text.splitlines() if isinstance(json.loads(line), dict))


@pytest.mark.parametrize("command", COMMANDS)
def test_a_disk_that_fills_up_is_one_line_exit_2_and_the_records_before_it(command, tmp_path, capsys,
                                                                           monkeypatch):
    """The disk fills up in the middle of the second batch of records: part of it is written, then ENOSPC."""
    monkeypatch.setattr(simulate_module.RecordWriter, "BATCH", 4000)
    real_write, calls = os.write, []

    def filling(fd, data):
        calls.append(len(data))
        if len(calls) == 2:
            return real_write(fd, bytes(data[:len(data) // 2]))  # a short write: half a batch, mid-record
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)
    monkeypatch.setattr(simulate_module.os, "write", filling)
    out = tmp_path / "deals.jsonl"
    code = main(COMMANDS[command] + ["--jobs", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.splitlines()
    kept = _whole_records(out)
    assert 0 < kept < 200
    assert line == f"{out}: cannot write the records (No space left on device); the file holds the first " \
                   f"{kept} whole records"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", COMMANDS)
def test_out_onto_dev_full_with_workers_is_one_line_exit_2(command, capsys):
    code = main(COMMANDS[command] + ["--jobs", "2", "--out", "/dev/full"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == ["/dev/full: cannot write the records (No space left on device); the file holds the "
                                "first 0 whole records"]


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_with_workers_ends_at_once_with_130_and_whole_records(command, tmp_path):
    """Ctrl-C reaches the whole foreground process group, workers included, as at a terminal."""
    out = tmp_path / "deals.jsonl"
    argv = COMMANDS[command][:-1] + ["100000", "--jobs", "2", "--out", str(out)]
    run = subprocess.Popen([sys.executable, "-m", "interp", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while (not out.exists() or out.stat().st_size < 70_000) and time.monotonic() < deadline:
            time.sleep(0.05)  # records written: workers are busy
        os.killpg(run.pid, signal.SIGINT)
        stopped = time.monotonic()
        _, err = run.communicate(timeout=20)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert time.monotonic() - stopped < 5
    assert run.returncode == 130
    assert err == "interrupted\n"
    assert _whole_records(out) > 0


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="finds the workers through /proc (Linux)")
def test_a_worker_killed_mid_run_stops_the_run_with_one_line_not_a_hang(tmp_path):
    """The pool would start another worker, but the task the dead one held would never be done (arena shares
    simulate's pool: one command is enough)."""
    out = tmp_path / "deals.jsonl"
    argv = COMMANDS["simulate"][:-1] + ["100000", "--jobs", "2", "--out", str(out)]
    run = subprocess.Popen([sys.executable, "-m", "interp", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while (not out.exists() or out.stat().st_size < 70_000) and time.monotonic() < deadline:
            time.sleep(0.05)
        with open(f"/proc/{run.pid}/task/{run.pid}/children", encoding="ascii") as f:
            workers = [int(pid) for pid in f.read().split()]
        os.kill(workers[0], signal.SIGKILL)
        killed = time.monotonic()
        _, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert time.monotonic() - killed < 10
    assert run.returncode == 1
    assert err == "a worker process ended in the middle of the run (killed? out of memory?): the run stops\n"
    assert _whole_records(out) > 0


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_a_spec_with_a_mistake_leaves_an_earlier_out_file_as_it_was(command, tmp_path, capsys):
    out = tmp_path / "records.jsonl"
    out.write_text('{"seed": 1}\n')
    assert main([command, str(tmp_path / "no-such-game.yaml"), "-n", "2", "--out", str(out)]) == 2
    assert "no-such-game" in capsys.readouterr().err and out.read_text() == '{"seed": 1}\n'
