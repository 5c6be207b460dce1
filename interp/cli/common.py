"""What every command shares: the exit codes, the game loader, one-line errors, `-o NAME=VALUE` options."""
from __future__ import annotations

import sys

EXIT_SPEC = 2
EXIT_INTERRUPTED = 130



def load_game(path: str):
    """The compiled game of a spec file (the compiler is imported when a command first needs it: `interp --help`
    starts without it)."""
    from interp.spec.compiler import load_game as load
    return load(path)


def say_error(text: str) -> None:
    """A message for stderr, which may quote a spec, a save or what a person typed: shown literally."""
    from interp.table import render
    print(render.literal(text), file=sys.stderr)


def options_of(pairs: list) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"write options as NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out
