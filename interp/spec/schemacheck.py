"""A quick yes/no check of a spec's data against the JSON Schema, for the common case of a valid spec: importing
and running jsonschema costs ~50 ms, this ~2 ms. It knows the keywords game.schema.json uses (draft 2020-12);
given anything else it cannot decide (`Undecided`), and a spec it does not pass is checked by jsonschema, which
finds and words the error (schema.check_schema). So it must never pass what jsonschema refuses; the test suite
compares the two verdicts on every shipped and broken spec.

>>> schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}
>>> passes(schema, {"n": 2}), passes(schema, {"n": 0}), passes(schema, {"n": True}), passes(schema, {})
(True, False, False, False)
"""
from __future__ import annotations

from typing import Any

# keywords that only annotate (they never make an instance invalid)
_ANNOTATIONS = frozenset({"description", "title", "$schema", "$id", "$comment", "default", "examples", "$defs"})


class Undecided(Exception):
    """The schema uses a keyword or shape this check does not know: ask jsonschema."""


def passes(schema: Any, instance: Any, root: Any = None) -> bool:
    """Whether `instance` is valid against `schema` (`root` resolves `$ref: #/$defs/…`; default: `schema`)."""
    return _valid(schema, instance, schema if root is None else root)


def _valid(schema: Any, instance: Any, root: Any) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in ("then", "else"):
            continue
        check = _KEYWORDS.get(key)
        if check is None:
            raise Undecided(key)
        if not check(value, instance, root, schema):
            return False
    return True


def _is_type(instance: Any, name: str) -> bool:
    t = type(instance)
    if name == "string":
        return t is str
    if name == "integer":
        return t is int or (t is float and instance.is_integer())
    if name == "number":
        return t is int or t is float
    if name == "boolean":
        return t is bool
    if name == "object":
        return t is dict
    if name == "array":
        return t is list
    if name == "null":
        return instance is None
    raise Undecided(f"type {name}")


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true and 1 differ (Python's == says they are equal)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a == b


def _type(value, instance, root, schema) -> bool:
    return any(_is_type(instance, name) for name in value) if isinstance(value, list) else _is_type(instance, value)


def _properties(value, instance, root, schema) -> bool:
    if type(instance) is not dict:
        return True
    return all(_valid(sub, instance[key], root) for key, sub in value.items() if key in instance)


def _additional(value, instance, root, schema) -> bool:
    if type(instance) is not dict:
        return True
    if "patternProperties" in schema:
        raise Undecided("patternProperties")
    named = schema.get("properties") or {}
    return all(_valid(value, item, root) for key, item in instance.items() if key not in named)


def _required(value, instance, root, schema) -> bool:
    return type(instance) is not dict or all(key in instance for key in value)


def _items(value, instance, root, schema) -> bool:
    if isinstance(value, list) or "prefixItems" in schema:
        raise Undecided("items")
    return type(instance) is not list or all(_valid(value, item, root) for item in instance)


def _number(instance) -> bool:
    return type(instance) in (int, float)


def _ref(value, instance, root, schema) -> bool:
    if not value.startswith("#/"):
        raise Undecided(value)
    target = root
    for part in value[2:].split("/"):
        target = target[part.replace("~1", "/").replace("~0", "~")]
    return _valid(target, instance, root)


def _if(value, instance, root, schema) -> bool:
    if _valid(value, instance, root):
        return _valid(schema.get("then", True), instance, root)
    return _valid(schema.get("else", True), instance, root)


_KEYWORDS = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "$ref": _ref,
    "if": _if,
    "enum": lambda value, instance, root, schema: any(_equal(instance, v) for v in value),
    "const": lambda value, instance, root, schema: _equal(instance, value),
    "minimum": lambda value, instance, root, schema: not _number(instance) or instance >= value,
    "maximum": lambda value, instance, root, schema: not _number(instance) or instance <= value,
    "minItems": lambda value, instance, root, schema: type(instance) is not list or len(instance) >= value,
    "maxItems": lambda value, instance, root, schema: type(instance) is not list or len(instance) <= value,
    "exclusiveMinimum": lambda value, instance, root, schema: not _number(instance) or instance > value,
    "exclusiveMaximum": lambda value, instance, root, schema: not _number(instance) or instance < value,
    "minLength": lambda value, instance, root, schema: type(instance) is not str or len(instance) >= value,
    "maxLength": lambda value, instance, root, schema: type(instance) is not str or len(instance) <= value,
    "minProperties": lambda value, instance, root, schema: type(instance) is not dict or len(instance) >= value,
    "maxProperties": lambda value, instance, root, schema: type(instance) is not dict or len(instance) <= value,
    "uniqueItems": lambda value, instance, root, schema: not value or type(instance) is not list or not any(
        _equal(a, b) for i, a in enumerate(instance) for b in instance[i + 1:]),
    "not": lambda value, instance, root, schema: not _valid(value, instance, root),
    "anyOf": lambda value, instance, root, schema: any(_valid(s, instance, root) for s in value),
    "allOf": lambda value, instance, root, schema: all(_valid(s, instance, root) for s in value),
    "oneOf": lambda value, instance, root, schema: sum(_valid(s, instance, root) for s in value) == 1,
}
