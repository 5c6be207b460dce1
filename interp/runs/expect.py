"""`expect:` in a scenario: what the replayed deal must come to, compared key by key.

Each key is valued like the same part of `interp run --json`: seat names as keys, sheet entries as
{column: {seat: delta}}, per-pair columns by "A>B".

- `entries` is exact: every column the deal wrote, every seat in it, and nothing else.
- `legal` is exact as a set; `legal_includes` / `legal_excludes` name moves that must be / must not be legal.
- `facts`, `sheet`, `settlement` are checked for what they name (a fact, a column, a seat), so a scenario
  states the numbers its header works out and nothing more.
- `to_move` (a seat name) and `match_over` (true/false) are compared as they are.

A mismatch is one line located at the expectation it breaks:
`tests/scenarios/x.yaml:31:12: entries › pool › South: expected 4, got 3`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interp.errors import ScenarioError
from interp.spec.inputfile import error
from interp.spec.located import Document

#: expect key -> (what it holds, whether it needs a finished deal)
KEYS = {"facts": ("a mapping of fact name to value", True),
        "entries": ("a mapping of column to {seat: delta}", True),
        "sheet": ("a mapping of column to {seat: number}", True),
        "settlement": ("a mapping of seat to number", True),
        "match_over": ("true or false", True),
        "to_move": ("a seat name", False),
        "legal": ("a list of moves", False),
        "legal_includes": ("a list of moves", False),
        "legal_excludes": ("a list of moves", False)}
_EXAMPLES = {"facts": "write facts: {declarer: West, tricks: {West: 7, North: 2, South: 1}}",
             "entries": "write entries: {pool: {West: 4}, whists: {North>West: 4}}",
             "sheet": "write sheet: {pool: {West: 4}}", "settlement": "write settlement: {West: 40, North: -40}",
             "match_over": "write match_over: true", "to_move": "write to_move: West",
             "legal": "write legal: [pass, 6S]", "legal_includes": "write legal_includes: [6S]",
             "legal_excludes": "write legal_excludes: [6S]"}
_SHAPES = {"facts": dict, "entries": dict, "sheet": dict, "settlement": dict, "match_over": bool,
           "to_move": str, "legal": list, "legal_includes": list, "legal_excludes": list}


def expect_keys_problem(doc: Document, game) -> ScenarioError | None:
    """The first unknown key or wrong shape under `expect:`, as a located error (None when all are fine)."""
    expect: dict[str, Any] = doc.data["expect"]
    for key, value in expect.items():
        path = ("expect", key)
        if key not in KEYS:
            where = doc.key_where(path)
            return ScenarioError(f"unknown key {key!r} under expect:", where, "expect keys: " + ", ".join(KEYS),
                                 doc.line_of(where))
        if not _has_shape(value, key):
            return error(doc, f"expect: {key} should be {KEYS[key][0]}", path, _EXAMPLES[key])
        if key in ("entries", "sheet"):
            for col, diff in value.items():
                if col not in game.columns:
                    return error(doc, f"the sheet has no column {col!r}", path + (col,),
                                 "columns: " + ", ".join(game.columns))
                if not isinstance(diff, dict):
                    return error(doc, f"expect: {key} › {col} should be a mapping of seat to number",
                                 path + (col,), _EXAMPLES[key])
        if key == "facts":
            for name in value:
                if name not in game.vars:
                    return error(doc, f"the game has no fact {name!r}", path + (name,),
                                 "facts: " + ", ".join(f.name for f in game.facts))
    return None


def _has_shape(value: Any, key: str) -> bool:
    """Whether `value` has the shape `_SHAPES` asks of expect key `key` (a function, so `value` stays Any
    to the type checker: its shape depends on the key)."""
    return isinstance(value, _SHAPES[key])


def check_expect(doc: Document, game, out: dict) -> list:
    """One located line for every expectation of the scenario that the played deal `out` does not meet."""
    lines = []
    for key, expected in doc.data["expect"].items():
        path = ("expect", key)
        needs_end = KEYS[key][1]
        if needs_end and not out["finished"]:
            lines.append(_line(doc, path, f"the deal is not over ({out['to_move']} to move), so there is no {key}"))
            continue
        if not needs_end and out["finished"]:
            lines.append(_line(doc, path, f"the deal is over, so there is no {key}"))
            continue
        source = {"settlement": game.result_label, "legal_includes": "legal", "legal_excludes": "legal"}.get(key, key)
        actual = out.get(source)
        for sub, message in _compare(key, expected, _plain(actual)):
            lines.append(_line(doc, path + sub, message))
    return lines


def _line(doc: Document, path: tuple, message: str) -> str:
    label = " › ".join(map(str, path[1:]))
    return f"{doc.where(path)}: {label}: {message}"


def _compare(key: str, expected, actual):
    """(path under the key, message) for each difference."""
    if key == "legal":
        want, have = [str(m) for m in expected], set(actual)
        for m in want:
            if m not in have:
                yield (), f"{m} is expected legal but is not (legal: {', '.join(actual)})"
        for m in actual:
            if m not in want:
                yield (), f"{m} is legal but not in the expected list"
        return
    if key in ("legal_includes", "legal_excludes"):
        wanted = key == "legal_includes"
        for i, m in enumerate(expected):
            if (str(m) in actual) != wanted:
                yield (i,), (f"{m} is {'not ' if wanted else ''}legal (legal: {', '.join(actual)})")
        return
    yield from _diff(expected, actual, (), exact=key == "entries")


def _diff(expected, actual, path: tuple, exact: bool):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield path, f"expected {_show(expected)}, got {_show(actual)}"
            return
        for k, v in expected.items():
            if k not in actual:
                yield path + (k,), f"expected {_show(v)}, got nothing"
            else:
                yield from _diff(v, actual[k], path + (k,), exact)
        if exact:
            for k in actual:
                if k not in expected:
                    yield path, f"got {k}: {_show(actual[k])} too, which is not expected"
        return
    if not _same(expected, actual):
        yield path, f"expected {_show(expected)}, got {_show(actual)}"


def _same(a, b) -> bool:
    """Numbers by value (4 == 4.0), `none` (as the DSL writes it) or `null` for no value, everything else by
    type and value (so `true` is not 1).

    >>> _same("none", None), _same(None, None), _same("none", "none"), _same(4, 4.0), _same(True, 1)
    (True, True, True, True, False)
    """
    if a == "none" and b is None:
        return True
    numbers = (int, float, Fraction)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return a == b
    return type(a) is type(b) and a == b


def _plain(value):
    """Actual values as YAML would write them: names for records, exact fractions as floats."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(getattr(value, "name", value))


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
