"""The bid ladder: rungs (maybe expanded over `each:` combinations) into named Bid records, their fields typed
and declared to the DSL (`contract.level`), their labels with the deck's suit symbols."""
from __future__ import annotations

import itertools
import math
import re

from interp.dsl import types as T
from interp.engine.cards import Deck
from interp.engine.game import Bid
from interp.spec.texts import SpecDSL, type_of

MAX_BIDS = 1000


def bid_ladder(c: SpecDSL, deck: Deck) -> list:
    spec = c.data.get("bids")
    if not spec:
        return []
    fields = {k: T.parse_type(str(v)) for k, v in (spec.get("fields", {}) or {}).items()}
    for k, t in fields.items():
        if t is None:
            raise c.error(f"unknown type for bid field {k}", ("bids", "fields", k))
    entries = []
    for i, entry in enumerate(spec["ladder"]):
        entries.extend(ladder_entries(c, ("bids", "ladder", i), entry, fields, deck))
        if len(entries) > MAX_BIDS:
            raise c.error(f"the ladder has more than {MAX_BIDS:,} bids", ("bids", "ladder", i),
                             "a ladder lists each bid a player may make")
    bids, names = [], set()
    for index, (name, label, values, path) in enumerate(entries):
        if name in names:
            raise c.error(f"bid {name} appears twice in the ladder", path, "each rung needs its own name")
        names.add(name)
        bids.append(Bid(index, name, label, {**values, "name": name}))
    c.bid_names = [b.name for b in bids]
    c.scope.records[T.BID] = {"name": (T.STR, frozenset(names)), **{k: (t, None) for k, t in fields.items()}}
    c.scope.domains[T.BID] = frozenset(names)
    return bids


def ladder_entries(c: SpecDSL, path: tuple, entry: dict, fields: dict, deck: Deck) -> list:
    combos: list[dict] = [{}]
    if "each" in entry:
        keys = list(entry["each"])
        size = math.prod(len(entry["each"][k]) for k in keys)
        if size > MAX_BIDS:
            raise c.error(f"this rung's `each` makes {size:,} bids (at most {MAX_BIDS:,} in a ladder)",
                             path + ("each",), "a ladder lists each bid a player may make")
        combos = [dict(zip(keys, vals)) for vals in itertools.product(*(entry["each"][k] for k in keys))]
    out = []
    for combo in combos:
        values = {k: v for k, v in entry.items() if k not in ("each", "name", "label")}
        values.update(combo)
        missing = [k for k in fields if k not in values]
        extra = [k for k in values if k not in fields]
        if missing or extra:
            raise c.error(f"bid fields {'missing: ' + ', '.join(missing) if missing else ''}"
                             f"{' unknown: ' + ', '.join(extra) if extra else ''}".strip(), path,
                             "declare every field in bids.fields and give each rung all of them")
        for k, t in fields.items():
            if not T.assignable(type_of(values[k]), t):
                raise c.error(f"bid field {k} must be {t}, got {values[k]!r}", path)
        default_name = "".join(str(combo[k]) for k in combo) if combo else None
        try:
            name = str(entry["name"]).format(**values) if "name" in entry else default_name
        except (KeyError, IndexError, ValueError) as exc:
            raise c.error(f"the name template {entry['name']!r} uses an unknown field {exc}", path + ("name",),
                             "templates use the rung's fields, e.g. \"{level}{strain}\"") from None
        if name is None:
            raise c.error("a ladder rung needs a name", path)
        label = _label(str(entry.get("label", name)), values, deck)
        out.append((name, label, values, path))
    return out


def _label(template: str, values: dict, deck: Deck) -> str:
    def sub(m):
        key, sym = m.group(1), m.group(2)
        value = str(values.get(key, m.group(0)))
        return deck.symbols.get(value, value) if sym else value
    return re.sub(r"\{(\w+)(\.symbol)?\}", sub, template)
