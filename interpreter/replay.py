"""Replays and save files: a seed plus the move log rebuilds a match exactly.

>>> from interpreter.compiler import load_game
>>> from interpreter import engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = game.new_match(seed=11)
>>> for _ in range(5):
...     engine.apply(st, engine.legal_moves(st)[-1])
>>> again = replay(game, record(st)["history"], players=2, seed=11)
>>> again.to_json() == st.to_json()
True
"""
from __future__ import annotations

import json
import os
import tempfile

from . import engine
from .state import State

SAVE_VERSION = 1


def replay(game, history: list, players: int | None = None, seed: int | None = 0, options: dict | None = None,
           dealer: int | None = None, deal_no: int | None = None) -> State:
    """A new match with these settings, with every logged move (deal number, seat, notation) re-applied,
    then dealt on to deal `deal_no` if the match had moved past its last move."""
    st = engine.new_match(game, players, seed, options, dealer)
    for number, _seat, text in history:
        while st.deal_no < number:
            engine.next_deal(st)
        engine.apply(st, engine.parse_move(st, text))
    while deal_no is not None and st.deal_no < deal_no and not st.match_over:
        engine.next_deal(st)
    return st


def record(st: State, **extra) -> dict:
    """What a save file holds: the match settings and the move log (plus any extra fields, e.g. seats)."""
    return {"version": SAVE_VERSION, "spec": os.path.abspath(st.game.path), "players": st.n,
            "options": st.options, "seed": st.seed, "dealer": first_dealer_of(st), "deal_no": st.deal_no,
            "history": [list(h) for h in st.history], **extra}


def first_dealer_of(st: State) -> int:
    """The dealer of deal 1 (the deal passes one seat to the left after every deal)."""
    return (st.dealer - (st.deal_no - 1)) % st.n


def save(path: str, data: dict) -> None:
    """Write atomically, so a crash mid-write never leaves a broken save."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".save-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
    os.replace(tmp, path)


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"{path} is not an interp save file (version {data.get('version')!r})")
    return data
