"""Replays and save files: a seed plus the move log rebuilds a match exactly.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=11)
>>> for _ in range(5):
...     engine.apply(st, engine.legal_moves(st)[-1])
>>> again = replay(game, record(st)["history"], players=2, seed=11)
>>> again.to_json() == st.to_json()
True

A save file is untrusted input: `load` checks its shape where it enters, and `resume` replays it and refuses
it unless its moves lead to the position it recorded. Every fault is a SaveError naming the file.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import stat
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction

from interp.bots.registry import check_names
from interp.engine import match as engine
from interp.engine.state import State
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError, InterpError, Location, SaveError
from interp.spec.compiler import load_game

SAVE_VERSION = 1
MAX_SAVE_BYTES = 16 * 2 ** 20  # a long match logs a few hundred kilobytes
MAX_MOVE_TEXT = 500  # longer than any move's notation

# What a save holds: key -> (JSON type, required). `interp play` adds `human`, `bots`, `agreed_end`, and `undone`
# (the [deal, seat, move] entries a player took back with `undo`, in the order taken back: a record of the match,
# not replayed); `position` (a digest of the state the log leads to) is absent from saves written before it existed.
SAVE_FIELDS = {
    "version": (int, True), "spec": (str, True), "players": (int, True), "options": (dict, True),
    "seed": (int, True), "dealer": (int, True), "deal_no": (int, True), "history": (list, True),
    "human": (int, False), "bots": (str, False), "agreed_end": (bool, False), "position": (str, False),
    "undone": (list, False),
}
_TYPE_NAMES = {int: "a whole number", str: "text", dict: "an object", list: "a list", bool: "true or false"}


def replay(game, history: list, players: int | None = None, seed: int | None = 0, options: dict | None = None,
           dealer: int | None = None, deal_no: int | None = None) -> State:
    """A new match with these settings, with every logged move (deal number, seat, notation) re-applied,
    then dealt on to deal `deal_no` if the match had moved past its last move. A log that cannot have been
    played (a move not legal there, by the wrong seat, or a deal left unfinished) raises SaveError."""
    st = engine.new_match(game, players, seed, options, dealer)
    for index, (number, seat, text) in enumerate(history, 1):
        _deal_on(st, number)
        if engine.actor(st) != seat:
            raise SaveError(f"move {index} ({text!r}, deal {number}) is logged for {game.seat_name(seat, st.n)}, "
                            f"but {game.seat_name(engine.actor(st), st.n)} was to move")
        try:
            move = parse_move(st, text)
        except IllegalMoveError as exc:
            raise SaveError(f"move {index} ({text!r}, deal {number}) cannot be replayed: {exc.message}") from None
        engine.apply(st, move)
    if deal_no is not None:
        _deal_on(st, deal_no)
    return st


def _deal_on(st: State, number: int) -> None:
    """Deal on to deal `number`; a match moves to its next deal only when a deal is over."""
    if number < st.deal_no:
        raise SaveError(f"deal {number} comes after deal {st.deal_no}")
    while st.deal_no < number:
        if st.match_over:
            raise SaveError(f"the match ended with deal {st.deal_no}, yet the save goes on to deal {number}")
        if not st.deal_over:
            raise SaveError(f"deal {st.deal_no} is not finished, yet the save goes on to deal {number}")
        engine.next_deal(st)


def record(st: State, **extra) -> dict:
    """What a save file holds: the match settings, the move log and a digest of the position it leads to
    (plus any extra fields, e.g. seats)."""
    options = {k: str(v) if isinstance(v, Fraction) else v for k, v in st.options.items()}
    return {"version": SAVE_VERSION, "spec": os.path.abspath(st.game.path), "players": st.n,
            "options": options, "seed": st.seed, "dealer": first_dealer_of(st), "deal_no": st.deal_no,
            "history": [list(h) for h in st.history], "position": position(st), **extra}


def position(st: State) -> str:
    """A digest of the whole state (cards, vars, sheet, phase, log), the same wherever the spec file lies."""
    data = json.loads(st.to_json())
    del data["spec"]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:32]


def first_dealer_of(st: State) -> int:
    """The dealer of deal 1: as its record says (a `match.next_dealer` rule may pass the deal anywhere), or,
    while deal 1 is being played, the dealer now."""
    return st.deals[0]["dealer"] if st.deals else st.dealer


# -- files -----------------------------------------------------------------------------------------------------
def save(path: str, data: dict) -> None:
    """Write atomically, so a crash mid-write never leaves a broken save; an interrupted write leaves no
    temporary file (a kill -9 can: `remove_stale_temps` clears those). Only a regular file (or a new path) is
    replaced: anything else there (a device, a folder, a pipe, a link) is a SaveError, and left as it is."""
    write_atomically(path, _json_lines(data))


def write_atomically(path: str, text: str) -> None:
    """Write `text` to `path` through a temporary file beside it, so the file is either as before or whole; only a
    regular file (or a new path) is replaced (else SaveError)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    _refuse_other_than_a_file(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(path), suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def check_save_target(path: str) -> None:
    """Refuse (SaveError) to save a match at `path` unless it is a new path or an interp save already (which the
    match then replaces): a device, a folder, a pipe, a link, or a file that is not a save is left as it is.

    >>> import tempfile
    >>> notes = os.path.join(tempfile.mkdtemp(), "notes.txt")
    >>> _ = open(notes, "w").write("my notes")
    >>> check_save_target(notes)
    Traceback (most recent call last):
    interp.errors.SaveError: ...notes.txt: there is a file there that is not a save of interp; it is left as it is: save to a new path
    """
    if not _refuse_other_than_a_file(path):
        return
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            data = json.loads(fh.read(MAX_SAVE_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or not {"spec", "history", "seed"} <= data.keys():
        raise SaveError(f"{path}: there is a file there that is not a save of interp; it is left as it is: "
                        "save to a new path")


def _refuse_other_than_a_file(path: str) -> bool:
    """Whether something is at `path`: a regular file; SaveError if it is anything else."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise SaveError(f"{path}: cannot write the save there ({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        raise SaveError(f"{path}: is a link; save to the file itself or to a new path")
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(f"{path}: is not a file (a device, a folder or a pipe); it is left as it is: save to a "
                        "new path")
    return True


def _json_lines(data: dict) -> str:
    """`data` as JSON with one top-level key a line (json's C encoder, several times faster than `indent`).

    >>> print(_json_lines({"a": 1, "b": [[1, 2]]}), end="")
    {
    "a": 1,
    "b": [[1, 2]]
    }
    """
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()) + "\n}\n"


def _temp_prefix(path: str) -> str:
    return f".save-{os.path.basename(path)}-"


def remove_stale_temps(path: str) -> list:
    """Delete temporary files left beside the save `path` by a write that was killed; returns their paths."""
    folder = os.path.dirname(os.path.abspath(path))
    pattern = os.path.join(glob.escape(folder), glob.escape(_temp_prefix(path)) + "?" * 8 + ".tmp")
    stale = glob.glob(pattern)
    for name in stale:
        with suppress(FileNotFoundError):
            os.unlink(name)
    return stale


def load(path: str) -> dict:
    """The save file at `path`, read and checked (see `check_save`)."""
    if not os.path.exists(path):
        raise SaveError(f"{path}: no such save file")
    if not os.path.isfile(path):
        raise SaveError(f"{path}: not a save file (a folder or a device)")
    with open(path, "rb") as fh:
        raw = fh.read(MAX_SAVE_BYTES + 1)
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"{path}: too large for a save file (over {MAX_SAVE_BYTES // 2 ** 20} MB)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a save file (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"not a save file (broken JSON: {exc.msg})", Location(path, exc.lineno, exc.colno),
                        hint="was the file cut short or edited by hand?") from None
    except (ValueError, RecursionError) as exc:  # 5,000-digit numbers; nesting deeper than Python's stack
        raise SaveError(f"{path}: not a save file ({'nested too deeply' if isinstance(exc, RecursionError) else exc})"
                        ) from None
    return check_save(data, path)


def check_save(data, path: str) -> dict:
    """`data` if it has a save's shape: every key of SAVE_FIELDS with its type, seats within the table, a log of
    [deal, seat, move] entries in deal order; otherwise a SaveError naming `path` and the first fault.
    Whether the log can be played is `resume`'s check."""
    def fault(what: str) -> SaveError:
        return SaveError(f"{path}: {what}")
    if not isinstance(data, dict):
        raise fault(f"a save file holds a JSON object, not {_TYPE_NAMES.get(type(data), _json_text(data))}")
    if data.get("version") != SAVE_VERSION:
        raise fault(f"not an interp save file of version {SAVE_VERSION} (version {_json_text(data.get('version'))})")
    for key, (kind, required) in SAVE_FIELDS.items():
        if key not in data:
            if required:
                raise fault(f"the key '{key}' is missing")
        elif not _is(data[key], kind):
            raise fault(f"'{key}' must be {_TYPE_NAMES[kind]}, not {_json_text(data[key])}")
    n = data["players"]
    if n < 1:
        raise fault(f"'players' must be a player count, not {n}")
    for key in ("dealer", "human"):
        if key in data and not 0 <= data[key] < n:
            raise fault(f"'{key}' must be a seat from 0 to {n - 1}, not {data[key]}")
    try:
        check_names(data.get("bots", "heuristic"))  # a plug-in's module:Class in form only: never imported
    except ValueError as exc:
        raise fault(str(exc)) from None
    for name, value in data["options"].items():
        if not isinstance(value, (str, int, float, bool)):
            raise fault(f"option '{name}' must be a number, text or true/false, not {_json_text(value)}")
    last = _check_history(data["history"], n, fault)
    _check_entries(data.get("undone", []), "undone", n, fault)
    deal_no = data["deal_no"]
    if deal_no < max(last, 1):
        raise fault(f"'deal_no' is {deal_no}, but the log has moves of deal {last}" if last
                    else f"'deal_no' must be 1 or more, not {deal_no}")
    return data


def _check_history(history: list, n: int, fault) -> int:
    """Check each log entry's shape and that deals only go on; the deal number of the last one (0 for none)."""
    last = 0
    for index, (number, _, _) in enumerate(_check_entries(history, "history", n, fault), 1):
        if number < max(last, 1):
            raise fault(f"move {index} of 'history' is in deal {number}, after a move of deal {last}")
        last = number
    return last


def _check_entries(entries: list, key: str, n: int, fault) -> list:
    """Check that each of `entries` is [deal, seat, move text] with a seat at the table and a move's text."""
    for index, entry in enumerate(entries, 1):
        if not (isinstance(entry, list) and len(entry) == 3 and _is(entry[0], int) and _is(entry[1], int)
                and isinstance(entry[2], str)):
            raise fault(f"move {index} of '{key}' must be [deal, seat, move text], not {_json_text(entry)}")
        number, seat, text = entry
        if number < 1:
            raise fault(f"move {index} of '{key}' is in deal {number}; deals count from 1")
        if not 0 <= seat < n:
            raise fault(f"move {index} of '{key}' is by seat {seat}; seats run from 0 to {n - 1}")
        if not text.strip() or len(text) > MAX_MOVE_TEXT:
            raise fault(f"move {index} of '{key}' is not a move: {_json_text(text)}")
    return entries


def _is(value, kind: type) -> bool:
    """JSON's types as Python reads them: true and false are not numbers."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _json_text(value) -> str:
    """A short rendering of a JSON value for a message: `null`, `"West"`, `[1, 2, 5]`, `a list`."""
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if any(isinstance(item, (list, dict)) for item in items):  # nested: perhaps deeply, say only what it is
        return "a list" if isinstance(value, list) else "an object"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


# -- resuming -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Resumed:
    """A saved match rebuilt: the game, its state at the save, and who plays which seat."""

    game: object
    state: State
    human: int
    bots: str
    undone: list


def resume(path: str) -> Resumed:
    """Load the save at `path`, load its spec and replay its log; a SaveError (naming `path`) unless the log
    replays to the position the save recorded."""
    data = load(path)
    spec = data["spec"]
    if not os.path.isfile(spec):
        raise SaveError(f"{path}: the spec it was saved from, {spec}, is not a file",
                        hint="a save names its spec by full path; was the spec moved or renamed?")
    game = load_game(spec)
    try:
        st = replay(game, data["history"], data["players"], data["seed"], data["options"], data["dealer"],
                    data["deal_no"])
    except (InterpError, ValueError) as exc:
        message = exc.message if isinstance(exc, InterpError) else str(exc)
        raise SaveError(f"{path}: {message}", hint=f"was the save edited, or made with another spec than {spec} "
                        "(or before it was changed)?") from None
    if data.get("agreed_end"):
        engine.end_by_agreement(st)
    if "position" in data and position(st) != data["position"]:
        raise SaveError(f"{path}: its moves do not lead to the position it recorded",
                        hint=f"was {spec} or the save edited since it was written?")
    return Resumed(game, st, data.get("human", 0), data.get("bots", "heuristic"), data.get("undone", []))
