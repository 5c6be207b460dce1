"""Layouts: cards dealt into places under constraints, counted exactly and drawn uniformly.

A problem is a few *places* (each with a number of slots) and a few *card classes* (cards that may go to the same
places: a class is its cards and the places it may go to). A layout puts every card in a place allowed for its
class and fills every place exactly. `Layouts` counts the layouts (`total`) by a small dynamic programme over the
classes — the state is the room left in each place; a class's cards split among its places in
multinomial(m; x_1, …, x_k) ways — and `draw` draws one uniformly at random: class by class, each split with
probability proportional to its number of completions, then the class's cards shuffled into the split. The
counts are remembered, so every draw after the first costs a few random numbers per class. A class allowed in
every place is counted in closed form (it takes whatever room is left), so unconstrained cards cost nothing.

>>> import random
>>> lay = Layouts([2, 1], [(("a", "b"), (0, 1)), (("c",), (0,))])  # c must go to place 0
>>> lay.total   # c in 0, then a and b: one of them with c, the other in place 1
2
>>> sorted(sorted(lay.draw(random.Random(s))[0]) for s in range(20))[0]
['a', 'c']
"""
from __future__ import annotations

from math import factorial

Step = tuple  # room left in each place


class Layouts:
    """The layouts of `classes` ((cards, allowed place indexes) pairs) into places of the given `sizes`."""

    def __init__(self, sizes: list, classes: list):
        self.sizes = tuple(sizes)
        full = frozenset(range(len(sizes)))
        # the constrained classes first, most constrained first; classes allowed everywhere merged, last
        free = [c for cards, places in classes if frozenset(places) >= full for c in cards]
        tied = sorted(((tuple(cards), tuple(sorted(set(places)))) for cards, places in classes
                       if cards and not frozenset(places) >= full), key=lambda cp: (len(cp[1]), -len(cp[0])))
        self.classes = tied
        self.free = tuple(free)
        self.memo: dict = {}
        self.work = 0  # splits looked at, over all counts and draws (a bound for callers)
        if sum(len(cards) for cards, _ in tied) + len(free) != sum(sizes):
            self.total = 0
        else:
            self.total = self.count(0, self.sizes)

    def count(self, i: int, room: Step) -> int:
        """The layouts of classes i, i+1, … and the free cards into `room`."""
        if i == len(self.classes):
            return _multinomial(room)  # the free cards fill what is left
        key = (i, room)
        got = self.memo.get(key)
        if got is None:
            got = sum(ways * self.count(i + 1, rest) for ways, _, rest in self.splits(i, room))
            self.memo[key] = got
        return got

    def splits(self, i: int, room: Step):
        """(ways, split, room left) for each way class i's cards can split over its places within `room`."""
        cards, places = self.classes[i]
        m = len(cards)
        top = factorial(m)
        for split in _compositions(m, [room[p] for p in places]):
            self.work += 1
            rest = list(room)
            ways = top
            for p, k in zip(places, split):
                rest[p] -= k
                ways //= factorial(k)
            yield ways, split, tuple(rest)

    def draw(self, rng) -> list:
        """One layout, uniformly among all (`total` > 0): a list of the cards in each place (in random order)."""
        if not self.total:
            raise ValueError("no layout satisfies these constraints")
        out: list = [[] for _ in self.sizes]
        room = self.sizes
        for i, (cards, places) in enumerate(self.classes):
            pick = rng.randrange(self.count(i, room))
            for ways, split, rest in self.splits(i, room):
                pick -= ways * self.count(i + 1, rest)
                if pick < 0:
                    break
            _spread(rng, cards, places, split, out)
            room = rest
        _spread(rng, self.free, range(len(room)), room, out)
        for cards in out:
            rng.shuffle(cards)
        return out


def _spread(rng, cards, places, split, out: list) -> None:
    """Shuffle `cards` and cut them into `places` by `split`."""
    cards = list(cards)
    rng.shuffle(cards)
    k = 0
    for p, n in zip(places, split):
        out[p].extend(cards[k:k + n])
        k += n


def _multinomial(room: Step) -> int:
    total = factorial(sum(room))
    for k in room:
        total //= factorial(k)
    return total


def _compositions(m: int, caps: list):
    """Every way to write m as a sum of len(caps) parts, part j at most caps[j].

    >>> list(_compositions(2, [1, 2]))
    [(0, 2), (1, 1)]
    """
    if not caps:
        if m == 0:
            yield ()
        return
    if sum(caps) < m:
        return
    head, tail = caps[0], caps[1:]
    room_after = sum(tail)
    for k in range(max(0, m - room_after), min(head, m) + 1):
        for rest in _compositions(m - k, tail):
            yield (k,) + rest
