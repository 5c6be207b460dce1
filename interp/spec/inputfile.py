"""Checks shared by the files a person writes by hand for `interp run` and `interp score --input`: known keys of
the right type, the player count and the options, each mistake a ScenarioError at its line and column.

>>> from interp.spec.located import Document
>>> doc = Document("x.yaml", {"players": "three"})
>>> check_keys(doc, "a score input", {"players": Key((int,), "a whole number", "players: 3")})
Traceback (most recent call last):
interp.errors.ScenarioError: x.yaml:1:1: players: should be a whole number, not text
  hint: write players: 3
"""
from __future__ import annotations

from dataclasses import dataclass

from interp.engine import match as engine
from interp.errors import ScenarioError
from interp.spec.located import Document
from interp.spec.values import finite_number, short_repr


@dataclass(frozen=True)
class Key:
    """A top-level key of an input file: the types it may have, what it holds, and an example line."""

    types: tuple
    holds: str
    example: str


def error(doc: Document, message: str, path: tuple, hint: str | None = None) -> ScenarioError:
    """A located ScenarioError at the node of `doc` at `path`."""
    located = doc.error(message, path, hint, cls=ScenarioError)
    assert isinstance(located, ScenarioError)  # Document.error makes an instance of `cls`
    return located


def shown(value) -> str:
    """What kind of value a person wrote, for a message: `a list`, `text`, `the number 5`."""
    kind = {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "empty"}
    return kind.get(type(value)) or f"the number {short_repr(value)}"


def check_keys(doc: Document, what: str, keys: dict) -> None:
    """The file is a mapping whose every key is one of `keys` ({name: Key}) and has one of its types;
    an empty value counts as absent."""
    if not isinstance(doc.data, dict):
        raise error(doc, f"{what} is a mapping ({', '.join(k + ':' for k in keys)})", ())
    for key, value in doc.data.items():
        if key not in keys:
            close = [k for k in keys if k.rstrip("s") == str(key).rstrip("s")]
            hint = f"did you mean {close[0]}:?" if close else "keys: " + ", ".join(keys)
            where = doc.key_where((key,))
            raise ScenarioError(f"unknown key {short_repr(key)} in {what}", where, hint, doc.line_of(where))
        if value is not None and (not isinstance(value, keys[key].types) or isinstance(value, bool)):
            raise error(doc, f"{key}: should be {keys[key].holds}, not {shown(value)}", (key,),
                        "write " + keys[key].example)


def players(doc: Document, game) -> int:
    """`players:` (the spec's default when absent), one of the counts the game allows."""
    n = doc.data.get("players")
    n = game.default_players if n is None else n
    if n not in game.players:
        raise error(doc, f"{game.name} is for {', '.join(map(str, game.players))} players, not {short_repr(n)}",
                    ("players",), f"write players: {game.default_players}")
    return n


def options(doc: Document, game) -> dict:
    """`options:`, each option known and of its type (a number finite), located at the option."""
    values = doc.data.get("options") or {}
    for name, value in values.items():
        try:
            if isinstance(value, float):
                finite_number(value)
            engine.resolve_options(game, {name: value})
        except ValueError as exc:
            raise error(doc, f"option {name}: {exc}" if name in game.options else str(exc), ("options", name),
                        "`interp rules SPEC` lists the options and their defaults") from None
    return values
