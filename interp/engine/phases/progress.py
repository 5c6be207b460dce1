"""A phase's progress kept in a slotted record that reads as the dict it replaces.

A phase touching its progress at every move reads and writes it as attributes (cheaper than a dict's items);
everyone else (saves, the position digest, copies, views, bots, rendering) reads, changes and compares it as the
dict of its `FIELDS`, in that order. A subclass names its `FIELDS` (its `__slots__`) and says how it `copy`s
itself; `of` builds one back from a saved dict (the phase's `progress_of`).

>>> class Count(Progress):
...     FIELDS = __slots__ = ("seen", "over")
...     def copy(self): return Count.of(self)
>>> ph = Count.of({"seen": 2, "over": False}); ph.seen += 1
>>> dict(ph), ph == {"seen": 3, "over": False}, ph["over"]
({'seen': 3, 'over': False}, True, False)
"""
from __future__ import annotations

from collections.abc import MutableMapping


class Progress(MutableMapping):
    """The base of a progress record (see the module docstring)."""

    FIELDS: tuple = ()
    NAMES: frozenset = frozenset()
    __slots__ = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.NAMES = frozenset(cls.FIELDS)

    @classmethod
    def of(cls, values):
        """The record with the fields of `values` (a mapping of every field, e.g. a saved state's dict)."""
        if len(values) != len(cls.FIELDS) or any(name not in values for name in cls.FIELDS):
            raise ValueError(f"a {cls.__name__} has the fields {', '.join(cls.FIELDS)}, not {', '.join(values)}")
        record = cls.__new__(cls)
        for name in cls.FIELDS:
            setattr(record, name, values[name])
        return record

    def copy(self):
        raise NotImplementedError

    def __getitem__(self, key: str):
        if key in self.NAMES:
            return getattr(self, key)
        raise KeyError(key)

    def __setitem__(self, key: str, value) -> None:
        if key not in self.NAMES:
            raise KeyError(f"{key!r}: a {type(self).__name__} has no such field")
        setattr(self, key, value)

    def __delitem__(self, key: str) -> None:
        raise TypeError(f"a {type(self).__name__} keeps every field")

    def __iter__(self):
        return iter(self.FIELDS)

    def __len__(self) -> int:
        return len(self.FIELDS)

    def __repr__(self) -> str:
        return repr(dict(self))
