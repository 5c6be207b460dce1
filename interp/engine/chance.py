"""Chance draws of a deal: `random.Random.shuffle` and `.sample`, the same draws from the same generator, faster.

A deal shuffles the deck and picks where inserted packets go; every seed must deal the same cards forever (goldens,
replays and saved games depend on it), so these make exactly the calls the standard library makes — one
`getrandbits(k)` per try, rejected while too large, as `Random._randbelow_with_getrandbits` does — only without a
method call per card (and a shuffle written out step by step for each size of deck). Anything but a plain `random.Random` is handed to its own method. `seeded(text)` is
`random.Random(text)`, the same generator, seeded without the Python layer of `Random.seed`; `reseeded(text)` the
same again on a generator used over and over, for draws made at once.

>>> import random
>>> a, b = list(range(32)), list(range(32))
>>> random.Random("7/1/deal").shuffle(a); shuffle(random.Random("7/1/deal"), b)
>>> a == b
True
>>> sample(random.Random(5), range(1, 15), 3) == random.Random(5).sample(range(1, 15), 3)
True
>>> seeded("7/1/deal").getstate() == random.Random("7/1/deal").getstate()
True
>>> below(random.Random(3), 5) == random.Random(3).randrange(5)
True
"""
from __future__ import annotations

import random
import threading
from hashlib import sha512
from math import ceil, log
from typing import Callable

WRITTEN_OUT = 1024  # items up to which a shuffle is written out step by step (_shuffler); a loop beyond
STEPS_MEMO = 256  # list lengths whose shuffles are written out and remembered (then the memo starts again)
_shufflers: dict = {}  # list length -> its shuffle written out (_shuffler)
_new = random.Random.__new__  # a generator not seeded yet (seeded by `_seed` at once)
_seed = super(random.Random, random.Random).seed  # the C seeding of a number, under random.py's `seed`
_scratch = threading.local()  # `rng`: the generator `reseeded` seeds anew for each use (one per thread)


def seeded(text: str) -> random.Random:
    """`random.Random(text)`: a text seeds the generator with the number its UTF-8 bytes followed by their SHA-512
    digest make (big-endian), as `Random.seed` (version 2) does, here without its Python layer."""
    return _seeded_with(_new(random.Random), text)


def reseeded(text: str) -> random.Random:
    """`seeded(text)`, for draws made at once: one generator per thread, seeded anew at each call (seeding sets
    all of a generator's state), so that a deal does not make and free a generator of 2.5 KB per purpose. The
    generator is good until the next call: never keep it.

    >>> a = reseeded("7/1/deal").getrandbits(32); reseeded("7/1/deal:insert") is reseeded("7/1/deal")
    True
    >>> a == seeded("7/1/deal").getrandbits(32) and reseeded("7/1/deal").getstate() == seeded("7/1/deal").getstate()
    True
    """
    try:
        rng = _scratch.rng
    except AttributeError:
        rng = _scratch.rng = _new(random.Random)
    return _seeded_with(rng, text)


def _seeded_with(rng: random.Random, text: str) -> random.Random:
    raw = text.encode()
    _seed(rng, int.from_bytes(raw + sha512(raw).digest(), "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.seed leaves it (random.py sets it)
    return rng


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` does."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    if len(items) <= WRITTEN_OUT:
        shuffler = _shufflers.get(len(items))  # (_shuffler's look-up, without its call)
        (shuffler or _shuffler(len(items)))(rng.getrandbits, items)
        return
    getrandbits = rng.getrandbits  # the same steps in a loop
    for i in range(len(items) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _shuffler(size: int) -> Callable[[Callable[[int], int], list], None]:
    """A function (getrandbits, items) making the draws and swaps of `rng.shuffle` on `size` items, written out
    step by step, for i from size - 1 down to 1: draw the bits of i + 1 until below i + 1, then swap items i and
    j (as `Random._randbelow_with_getrandbits`). No loop, no tuple of steps read: each step's place, bound and
    bits are constants of its line. Written once per size (up to STEPS_MEMO sizes, then again)."""
    shuffler = _shufflers.get(size)
    if shuffler is None:
        if len(_shufflers) >= STEPS_MEMO:
            _shufflers.clear()
        lines = ["def shuffle(getrandbits, x):", f'    "The draws and swaps of a shuffle of {size} items."']
        for i in range(size - 1, 0, -1):
            bits = (i + 1).bit_length()
            lines += [f"    j = getrandbits({bits})", f"    while j > {i}:", f"        j = getrandbits({bits})",
                      f"    x[{i}], x[j] = x[j], x[{i}]"]
        namespace: dict = {}
        exec("\n".join(lines), namespace)
        shuffler = _shufflers[size] = namespace["shuffle"]
    return shuffler


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0: one draw of n's bits, again while too large."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def sample(rng: random.Random, population: range | list | tuple, k: int) -> list:
    """`rng.sample(population, k)`: the same k elements in the same order. The standard library keeps a pool of
    the candidates when there are few of them and a set of those taken otherwise; the pool is drawn here, the
    set left to it. One element is one draw either way (an inserted packet: one gap of the deal's)."""
    n = len(population)
    if k == 1 and n and type(rng) is random.Random:
        return [population[below(rng, n)]]
    setsize = 21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0)
    if type(rng) is not random.Random or not 0 <= k <= n or n > setsize:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for i in range(k):
        bound = n - i
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[bound - 1]
    return result
