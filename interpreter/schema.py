"""Check a loaded spec against schema/game.schema.json and report the best error at its file:line:column."""
from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from pathlib import Path

import jsonschema
from jsonschema.exceptions import best_match

from .errors import SpecError
from .loader import Document

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "game.schema.json"


@lru_cache(maxsize=1)
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def check_schema(doc: Document) -> None:
    """Raise a located SpecError for the most relevant schema violation, if any."""
    errors = list(validator().iter_errors(doc.data))
    if not errors:
        return
    error = best_match(errors, key=_relevance)
    raise _located(doc, error)


def _relevance(error):
    # Prefer deep errors that are not about the phase-type dispatch.
    return (-len(error.path), error.validator not in ("anyOf", "oneOf", "if"), )


def _located(doc: Document, error) -> SpecError:
    path = tuple(error.absolute_path)
    kind = error.validator
    if kind == "additionalProperties":
        extra = re.findall(r"'([^']+)'", error.message.split("(")[0] if "were unexpected" in error.message
                           else error.message)
        allowed = sorted((error.schema.get("properties") or {}).keys())
        key = extra[0] if extra else "?"
        close = difflib.get_close_matches(key, allowed, n=2)
        hint = (f"did you mean {' or '.join(close)}?" if close else
                ("allowed keys: " + ", ".join(allowed)) if allowed else None)
        return doc.error(f"unknown key '{key}'", path + (key,) if key in (doc.get(path) or {}) else path, hint)
    if kind == "required":
        missing = re.findall(r"'([^']+)'", error.message)[0]
        return doc.error(f"missing key '{missing}'", path, f"add `{missing}:` here")
    if kind == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return doc.error(f"expected {_article(wanted)} here, not {_describe(error.instance)}", path)
    if kind == "enum":
        values = ", ".join(map(str, error.validator_value))
        close = difflib.get_close_matches(str(error.instance), [str(v) for v in error.validator_value], n=1)
        hint = f"did you mean {close[0]}?" if close else f"one of: {values}"
        return doc.error(f"{error.instance!r} is not allowed here", path, hint)
    if kind in ("minimum", "maximum", "minItems"):
        return doc.error(f"value out of range: {error.message}", path)
    if kind in ("anyOf", "oneOf"):
        return doc.error(f"this does not have a valid shape: {_describe(error.instance)}", path,
                         _shape_hint(error))
    return doc.error(error.message, path)


def _shape_hint(error) -> str:
    options = []
    for sub in error.validator_value:
        if "required" in sub:
            options.append("{" + ", ".join(sub["required"]) + "}")
        elif "type" in sub:
            options.append(str(sub["type"]))
    return "expected " + " or ".join(options) if options else "see schema/game.schema.json"


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__
