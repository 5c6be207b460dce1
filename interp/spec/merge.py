"""Merging a variant over the spec it `extends:`: mappings merge key by key, lists of mappings that all carry an
`id` merge item by item (by id), and so do the named items of `options`, `actions`, `announcements` and
`scoring` (by name); a null value or `delete: true` removes what the base has, and an option or item that looks
like a misspelling of the base's is refused (unless `new: true`). The positions of the merged values are moved
along with them (`moved`), so errors still point into the file that wrote each value.

>>> moves: dict = {}
>>> merge({"a": 1, "b": [{"id": "x", "n": 1}]}, {"b": [{"id": "x", "n": 2}], "a": None}, (), (), moves)
{'b': [{'id': 'x', 'n': 2}]}
"""
from __future__ import annotations

import difflib
from typing import Any

Path = tuple


# Lists a variant merges item by item by `name` (phases and declare categories merge by `id` wherever they are).
_NAMED_LISTS = {("phases", None, "options"), ("phases", None, "actions"), ("phases", None, "announcements"),
                ("scoring",)}
_GONE = object()  # a list item a variant deletes, removed by _prune


class MergeError(Exception):
    """A variant that names what its base does not have; `path` is in the variant file."""

    def __init__(self, message: str, path: Path, hint: str):
        super().__init__(message)
        self.message, self.path, self.hint = message, path, hint


def merge(base: Any, over: Any, opath: Path = (), mpath: Path = (), moves: dict | None = None) -> Any:
    """Merge `over` onto `base`; `moves` records where items of `over` lists (at opath) land (at mpath).
    A key set to null is deleted; items of keyed lists merge by their key, and `delete: true` removes one."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            if value is None:
                out.pop(key, None)
            elif key in base:
                out[key] = merge(base[key], value, opath + (key,), mpath + (key,), moves)
            else:
                _check_new(mpath, key, base, opath + (key,), value)
                out[key] = _without_new(value)
        return out
    key = _item_key(base, over, mpath)
    if key is None:
        return over
    items = list(base)
    index = {item[key]: i for i, item in enumerate(items) if isinstance(item, dict) and key in item}
    placed = []  # (item id, its anchor's id, True: before it) for items a variant places by an anchor
    wheres: list = []  # where the variant writes each of them
    known = dict(index)  # the ids an item may be placed by: the base's, and those added before it
    for j, item in enumerate(over):
        anchor = _anchor(item, key, known, opath + (j,)) if key == "id" else None
        item = {f: v for f, v in item.items() if f not in PLACING} if anchor else item
        if item[key] in index:
            k = index[item[key]]
            items[k] = _GONE if item.get("delete") is True else \
                merge(items[k], {f: v for f, v in item.items() if f != "new"}, opath + (j,), mpath + (k,), moves)
        else:
            _check_item(item, key, index, opath + (j,))
            k = len(items)
            items.append(_without_new(item))
        known[item[key]] = k
        if anchor:
            placed.append((item[key], *anchor))
            wheres.append(opath + (j,))
        if moves is not None and opath + (j,) != mpath + (k,):
            moves[opath + (j,)] = mpath + (k,)
    for (_, anchor_id, _), where in zip(placed, wheres):
        if items[known[anchor_id]] is _GONE:
            raise MergeError(f"this item is placed by {anchor_id!r}, which the variant deletes", where,
                              "place it by an item that stays")
    return _Placed(items, placed) if placed else items


PLACING = {"insert_before": True, "insert_after": False}  # the keys that place an item by another's id


class _Placed(list):
    """A merged list whose items named in `placed` move next to their anchors once the merge is done
    (`prune`, which records every item's move, as it does for deleted ones)."""

    def __init__(self, items: list, placed: list):
        super().__init__(items)
        self.placed = placed


def _anchor(item: dict, key: str, index: dict, opath: Path) -> tuple | None:
    """(anchor id, True for before) of an item written with `insert_before:` or `insert_after:`, or None; a
    located error for both keys at once or an anchor the merged list does not have."""
    keys = [k for k in PLACING if k in item]
    if not keys:
        return None
    if len(keys) > 1:
        raise MergeError("an item goes either before or after another, not both", opath + (keys[1],),
                          "keep one of insert_before and insert_after")
    if item.get("delete") is True:
        raise MergeError("a deleted item goes nowhere", opath + (keys[0],), f"leave out {keys[0]}: or delete: true")
    anchor = item[keys[0]]
    if anchor not in index or anchor == item[key]:
        raise MergeError(f"{keys[0]}: there is no item with {key} {anchor!r} to place it by"
                          f"{_did_you_mean(anchor, index)}", opath + (keys[0],),
                          f"name an {key} of the base (or one placed earlier in this list): "
                          + ", ".join(map(str, index)))
    return anchor, PLACING[keys[0]]


def _item_key(base: Any, over: Any, mpath: Path) -> str | None:
    """The key that list items merge by at `mpath` (`id` or `name`), or None: the variant's list replaces."""
    if _by_id(base) and _by_id(over):
        return "id"
    shape = tuple(None if isinstance(p, int) else p for p in mpath)
    if shape in _NAMED_LISTS and isinstance(base, list) and _keyed(over, "name"):
        return "name"
    return None


def _check_new(mpath: Path, key: Any, base: dict, opath: Path, value: Any) -> None:
    """A variant's option the base lacks must say `new: true`: a misspelt one would silently do nothing."""
    if mpath == ("options",) and not (isinstance(value, dict) and value.get("new") is True):
        raise MergeError(f"the base has no option {key!r}{_did_you_mean(key, base)}", opath,
                          "to add an option in a variant, give it `new: true`")


def _check_item(item: dict, key: str, index: dict, opath: Path) -> None:
    """A keyed item the base lacks: refused when it looks like a misspelling of one it has, unless `new: true`."""
    if item.get("delete") is True:
        raise MergeError(f"the base has no item with {key} {item[key]!r} to delete{_did_you_mean(item[key], index)}",
                          opath + (key,), "delete an item the base has, by its exact " + key)
    if item.get("new") is not True and _did_you_mean(item[key], index):
        raise MergeError(f"the base has no item with {key} {item[key]!r}{_did_you_mean(item[key], index)}",
                          opath + (key,), f"fix the {key}, or give a new item `new: true`")


def _did_you_mean(word: Any, names) -> str:
    close = difflib.get_close_matches(str(word), [str(n) for n in names], n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _without_new(value: Any) -> Any:
    return {k: v for k, v in value.items() if k != "new"} if isinstance(value, dict) and "new" in value else value


def prune(data: Any, path: Path, shifts: dict) -> Any:
    """`data` without the items a variant deleted; `shifts` maps each moved item's old path to its new one."""
    if isinstance(data, dict):
        return {k: prune(v, path + (k,), shifts) for k, v in data.items()}
    if isinstance(data, list):
        order = [i for i in _order(data) if data[i] is not _GONE]
        out: list = []
        for i in order:
            if len(out) != i:
                shifts[path + (i,)] = path + (len(out),)
            out.append(prune(data[i], path + (len(out),), shifts))
        return out
    return data


def _order(data: list) -> list:
    """The positions of a merged list's items in their final order: as merged, but the items a variant places
    (`insert_before:`, `insert_after:`) moved next to their anchors, in the order the variant writes them.

    >>> _order(_Placed([{"id": "a"}, {"id": "b"}, {"id": "c"}], [("c", "b", True)]))
    [0, 2, 1]
    """
    order = list(range(len(data)))
    for item_id, anchor_id, before in getattr(data, "placed", ()):
        ids = [data[i].get("id") if isinstance(data[i], dict) else None for i in order]
        k = order.pop(ids.index(item_id))
        ids.remove(item_id)
        at = ids.index(anchor_id)
        order.insert(at if before else at + 1, k)
    return order


def moved(table: dict, moves: dict) -> dict:
    """A path-keyed table re-keyed by `moves` (old path prefix -> new path), the longest prefix first."""
    if not moves:
        return dict(table)
    out = {}
    for path, value in table.items():
        for n in range(len(path), 0, -1):
            if path[:n] in moves:
                path = moves[path[:n]] + path[n:]
                break
        out[path] = value
    return out


def _by_id(value: Any) -> bool:
    return _keyed(value, "id")


def _keyed(value: Any, key: str) -> bool:
    return isinstance(value, list) and bool(value) and \
        all(isinstance(v, dict) and isinstance(v.get(key), (str, int)) for v in value)
