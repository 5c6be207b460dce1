"""The quick schema check (interp.spec.schemacheck) against jsonschema: the same verdict on every shipped spec,
every spec the tests use, and seeded random mutations of the shipped games (a key dropped, a value of another
type, an unknown key) — it must never pass what jsonschema refuses."""
from __future__ import annotations

import copy
import glob
import random

import jsonschema
import pytest

from interp.errors import SpecError
from interp.spec.loader import load_spec
from interp.spec.schema import schema
from interp.spec.schemacheck import Undecided, passes
from tests.test_fuzz_specs import paths

FILES = sorted(glob.glob("games/*.yaml") + glob.glob("tests/specs/*.yaml") + glob.glob("docs/examples/*.yaml"))
ODD_VALUES = [None, True, 0, -1, 2.5, "x", "", [], [1, "a"], {}, {"zz": 1}]


def _data(path: str):
    try:
        return load_spec(path).data
    except SpecError:
        return None


def _jsonschema_valid(data) -> bool:
    return not any(True for _ in jsonschema.Draft202012Validator(schema()).iter_errors(data))


def _agree(data) -> None:
    try:
        quick = passes(schema(), data)
    except Undecided:
        return
    assert quick == _jsonschema_valid(data)


@pytest.mark.parametrize("path", FILES)
def test_the_same_verdict_as_jsonschema_on_every_spec(path):
    data = _data(path)
    if data is not None:
        _agree(data)


def _mutate(data, rng: random.Random):
    data = copy.deepcopy(data)
    path = rng.choice([p for p in paths(data) if p])
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    kind = rng.randrange(3)
    if kind == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif kind == 1 and isinstance(parent, dict):
        parent["zz_unknown"] = 1
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return data


@pytest.mark.parametrize("path", sorted(glob.glob("games/*.yaml")))
def test_the_same_verdict_as_jsonschema_on_mutated_specs(path):
    data = _data(path)
    rng = random.Random(path)
    for _ in range(15):
        _agree(_mutate(data, rng))


def test_true_is_not_one():
    """JSON equality: a const or enum of 1 refuses true (Python's == would accept it)."""
    assert not passes({"const": 1}, True) and not passes({"enum": [0, 1]}, True) and passes({"enum": [1]}, 1)


def _keywords(node) -> set:
    """The keywords a schema uses (the keys of every subschema; not the names under `properties` or `$defs`)."""
    if not isinstance(node, dict):
        return set()
    found = set(node)
    for key, value in node.items():
        subs = value.values() if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict) \
            else value if isinstance(value, list) else [value]
        for sub in subs:
            found |= _keywords(sub)
    return found


def test_the_quick_check_knows_every_keyword_the_schema_uses():
    """So no valid spec's load imports jsonschema (~50 ms): a keyword added to game.schema.json needs its check in
    interp.spec.schemacheck."""
    from interp.spec.schemacheck import _ANNOTATIONS, _KEYWORDS
    assert _keywords(schema()) - set(_KEYWORDS) - _ANNOTATIONS - {"then", "else"} == set()


@pytest.mark.parametrize("keyword, value, instances", [
    ("maxItems", 2, [[], [1, 2], [1, 2, 3], "abc"]),
    ("exclusiveMinimum", 1, [0, 1, 1.5, 2, True, "x"]),
    ("exclusiveMaximum", 1, [0, 1, 0.5, False, None]),
    ("minLength", 2, ["", "a", "ab", "é", ["a"]]),
    ("maxLength", 1, ["", "a", "ab", 5]),
    ("minProperties", 1, [{}, {"a": 1}, []]),
    ("maxProperties", 1, [{}, {"a": 1}, {"a": 1, "b": 2}]),
    ("uniqueItems", True, [[], [1, 2], [1, 1], [1, True], [[1], [1]], [{"a": 1}, {"a": 2}], "aa"]),
    ("not", {"type": "string"}, ["a", 1, None]),
])
def test_each_keyword_gives_jsonschemas_verdict(keyword, value, instances):
    schema_ = {keyword: value}
    for instance in instances:
        expected = jsonschema.Draft202012Validator(schema_).is_valid(instance)
        assert passes(schema_, instance) == expected, (keyword, instance)
