"""Every numeric option of every command refuses a value out of its range (a count of 0 or -5, seconds that are
not a number): exit 2 with one line naming the option, before any work is done (issue 25: `simulate -n -5` ran
and exited 0)."""
from __future__ import annotations

import argparse

import pytest

from interp.cli import main, parser as cli

SPEC = "docs/examples/tiny.yaml"
# command line before the option, option, values refused
REFUSED = [
    (["simulate", SPEC], "-n", ["-5", "0", "x", "1.5"]),
    (["simulate", SPEC], "--players", ["0", "-2"]),
    (["simulate", SPEC], "--jobs", ["0", "-1"]),
    (["arena", SPEC], "-n", ["-5", "0"]),
    (["arena", SPEC], "--iterations", ["0", "-3"]),
    (["arena", SPEC], "--jobs", ["0"]),
    (["arena", SPEC], "--players", ["0"]),
    (["play", SPEC], "--players", ["0", "-1"]),
    (["play", SPEC], "--delay", ["-1", "nan", "61"]),
    (["bench", SPEC], "--seconds", ["0", "-1", "nan", "inf"]),
    (["score", SPEC], "--players", ["0", "-4"]),
    (["serve"], "--port", ["0", "-1", "65536", "http"]),
    (["serve"], "--bot-delay", ["-1", "nan"]),
]


@pytest.mark.parametrize("before,option,value", [(b, o, v) for b, o, values in REFUSED for v in values])
def test_a_number_out_of_range_is_refused_in_one_line(before, option, value, capsys):
    with pytest.raises(SystemExit) as done:
        main(before + [option, value])
    assert done.value.code == 2
    out = capsys.readouterr()
    assert out.out == ""
    [line] = out.err.splitlines()
    assert line.startswith(f"interp {before[0]}: error: argument ") and repr(value) in line, line
    assert "Traceback" not in out.err


def _numeric_options():
    parser = cli.build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, command in sub.choices.items():
        for action in command._actions:
            if action.type in (int, float) or action.type in (cli._positive, cli._seconds, cli._duration, cli._port):
                yield name, action


def test_every_numeric_option_has_a_checked_range():
    """Only a seed may be any whole number; every other numeric option goes through a type that checks its
    range, so a new option cannot slip back to plain int."""
    unchecked = [(name, action.dest) for name, action in _numeric_options()
                 if action.type in (int, float) and action.dest != "seed"]
    assert unchecked == []
    checked = {(name, max(action.option_strings, key=len)) for name, action in _numeric_options()
               if action.dest != "seed"}
    assert checked == {(before[0], option if option != "-n" else "--deals") for before, option, _ in REFUSED}
