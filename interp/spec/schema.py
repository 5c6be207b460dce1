"""Check a loaded spec against schema/game.schema.json and report the best error at its file:line:column."""
from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from pathlib import Path

from interp.errors import SpecError
from interp.spec.located import Document
from interp.spec.resources import SCHEMA_PATH
from interp.spec.schemacheck import Undecided, passes


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(Path(SCHEMA_PATH).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def validator():
    """The jsonschema validator (imported only when a spec does not pass the quick check)."""
    import jsonschema  # type: ignore[import-untyped]  # (no stubs installed)
    return jsonschema.Draft202012Validator(schema())


def check_schema(doc: Document) -> None:
    """Raise a located SpecError for the most relevant schema violation, if any. A spec that passes the quick
    check (schemacheck) is valid; any other is checked by jsonschema, which finds and words the error."""
    try:
        if passes(schema(), doc.data):
            return
    except Undecided:
        pass
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]
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
        allowed = sorted((error.schema.get("properties") or {}).keys())
        extra = _unexpected(error.instance, error.schema) if isinstance(error.instance, dict) else []
        key = extra[0] if extra else "?"
        close = difflib.get_close_matches(key, allowed, n=2)
        hint = (f"did you mean {' or '.join(close)}?" if close else
                ("allowed keys: " + ", ".join(allowed)) if allowed else None)
        where = f" in {_where(doc, path)}" if path else ""
        if len(extra) > 1:
            where += " (also " + ", ".join(f"'{k}'" for k in extra[1:4]) + (", …" if len(extra) > 4 else "") + ")"
        if key in (doc.get(path) or {}):
            return doc.key_error(f"unknown key '{key}'{where}", path + (key,), hint)
        return doc.error(f"unknown key '{key}'{where}", path, hint)
    if kind == "required":
        missing = re.findall(r"'([^']+)'", error.message)[0]
        required = error.validator_value if isinstance(error.validator_value, list) else [missing]
        where = f" in {_where(doc, path)}" if path else ""
        hint = f"add `{missing}:` here" + (f" (required keys: {', '.join(required)})" if len(required) > 1 else "")
        return doc.error(f"missing key '{missing}'{where}", path, hint)
    if kind == "type":
        wanted = error.validator_value
        wanted_list = wanted if isinstance(wanted, list) else [wanted]
        words = " or ".join(_TYPE_WORDS.get(w, str(w)) for w in wanted_list)
        what = f"'{path[-1]}'" if path and isinstance(path[-1], str) else "this"
        return doc.error(f"{what} must be {_article(words)}, not {_describe(error.instance)}", path,
                         _type_hint(wanted_list, error.instance))
    if kind == "enum":
        values = ", ".join(map(str, error.validator_value))
        close = difflib.get_close_matches(str(error.instance), [str(v) for v in error.validator_value], n=1)
        hint = f"did you mean {close[0]}?" if close else f"one of: {values}"
        if len(path) == 3 and path[0] == "phases" and path[2] == "type":
            return doc.error(f"unknown phase type {error.instance!r}", path,
                             f"did you mean {close[0]}? (phase types: {values})" if close else f"phase types: {values}")
        what = f"'{path[-1]}'" if path and isinstance(path[-1], str) else "this"
        return doc.error(f"{error.instance!r} is not an allowed value of {what}", path, hint)
    if kind in ("minimum", "maximum", "minItems"):
        return doc.error(f"value out of range: {error.message}", path)
    if kind in ("anyOf", "oneOf"):
        return doc.error(f"this does not have a valid shape: {_describe(error.instance)}", path,
                         _shape_hint(error))
    return doc.error(error.message, path)


def _unexpected(instance: dict, schema: dict) -> list:
    """The keys of a mapping its schema does not allow, in the order they are written."""
    named = schema.get("properties") or {}
    patterns = [re.compile(p) for p in schema.get("patternProperties") or {}]
    return [k for k in instance if k not in named and not any(p.search(k) for p in patterns)]


def _shape_hint(error) -> str:
    options = []
    for sub in error.validator_value:
        if "required" in sub:
            options.append("{" + ", ".join(sub["required"]) + "}")
        elif "type" in sub:
            options.append(str(sub["type"]))
    return "expected " + " or ".join(options) if options else "see schema/game.schema.json"


_TYPE_WORDS = {"integer": "whole number", "number": "number", "string": "text", "boolean": "boolean (true/false)",
               "object": "mapping", "array": "list", "null": "empty value"}


def _type_hint(wanted: list, value) -> str | None:
    if isinstance(value, str) and "integer" in wanted and value.strip().lstrip("-").isdigit():
        return "write the number without quotes"
    if isinstance(value, str) and "boolean" in wanted and value.strip().lower() in ("true", "false"):
        return "write true or false without quotes"
    if "integer" in wanted or "number" in wanted:
        return "write a number, e.g. 3"
    if "boolean" in wanted:
        return "write true or false"
    if "object" in wanted:
        return "write `key: value` lines indented under it, or {key: value, …}"
    if "array" in wanted:
        return "write a list: [a, b] or one `- item` per line"
    if "string" in wanted:
        return "write text here (quote it if it has ':' or '#')"
    return None


def _where(doc: Document, path: tuple) -> str:
    """A readable name for the node at `path`: `players`, `phase 'deal'`, `phase 'deal' packets[0]`."""
    out = ""
    for i, part in enumerate(path):
        if i == 1 and path[0] == "phases" and isinstance(part, int):
            item = doc.get(path[:2])
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out = f"phase '{item['id']}'"
                continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += (" " if out.endswith("'") else "." if out else "") + str(part)
    return out


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
