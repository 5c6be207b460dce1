"""`interp play`'s pauses between bot moves end early when Enter is pressed: `select` on stdin on POSIX, the
console's keyboard (`msvcrt`) on Windows. The Windows path runs here with a stand-in `msvcrt` (no Windows
console on the machines that run the suite)."""
from __future__ import annotations

import io
import sys
import types

from interp.table import play


def _fake_console(monkeypatch, presses: list[bool]):
    """sys.platform = win32 and an `msvcrt` whose kbhit() answers `presses` in turn (then False)."""
    answers = iter(presses)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setitem(sys.modules, "msvcrt", types.SimpleNamespace(kbhit=lambda: next(answers, False)))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nnext line\n"))


def test_on_windows_a_key_pressed_during_the_pause_skips_it_and_takes_the_line(monkeypatch):
    _fake_console(monkeypatch, [False, False, True])
    assert play.tty_wait(5.0) is True
    assert sys.stdin.read() == "next line\n"  # only the Enter's (empty) line was read


def test_on_windows_no_key_waits_out_the_pause_and_reads_nothing(monkeypatch):
    _fake_console(monkeypatch, [])
    assert play.tty_wait(0.05) is False
    assert sys.stdin.read() == "\nnext line\n"
