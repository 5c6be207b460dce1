"""Chance (interp/engine/chance.py): the draws a deal makes are the standard library's draws from the same
generators, for many seeds, tags and sizes, so that a seed and the move log replay a match exactly; the reseeded
generator draws as a fresh one whatever it drew before."""
from __future__ import annotations

import random

import pytest

from interp.engine import chance


def _generators(count: int):
    """Pairs of equal generators, seeded as the deals seed theirs (a text: seed/deal number/tag, ours by
    chance.seeded) and by numbers."""
    for s in range(count):
        text = f"{s * 7919}/{s % 5}/{('deal', 'deal:insert', 'first-dealer')[s % 3]}"
        yield chance.seeded(text), random.Random(text)
        yield random.Random(s), random.Random(s)


def test_a_text_seeds_the_generator_random_random_seeds():
    texts = [f"{seed}/{deal}/{tag}" for seed in (0, 1, 7, -3, 2**40, 10**30) for deal in (1, 2, 17)
             for tag in ("deal", "deal:insert", "first-dealer", "déal·2", "")]
    texts += [str(s) for s in range(300)] + ["", "ä" * 200]
    for text in texts:
        ours, theirs = chance.seeded(text), random.Random(text)
        assert type(ours) is random.Random
        assert ours.getstate() == theirs.getstate()
        assert [ours.random() for _ in range(3)] + [ours.gauss(0, 1)] == \
            [theirs.random() for _ in range(3)] + [theirs.gauss(0, 1)]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 17, 24, 32, 36, 52, 78, 130, chance.WRITTEN_OUT,
                                  chance.WRITTEN_OUT + 1, 3000])
def test_shuffle_is_the_standard_shuffle(size):
    for ours, theirs in _generators(400 if size < 1000 else 6):
        a, b = list(range(size)), list(range(size))
        chance.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()  # the same draws, not only the same outcome


def test_sample_is_the_standard_sample():
    tried = 0
    for n in (0, 1, 2, 5, 14, 21, 22, 23, 40, 84, 85, 86, 200):
        for k in sorted({0, 1, 2, 5, 6, 7, n // 3, n // 2, n}):
            if k > n:
                continue
            for ours, theirs in _generators(40):
                population = range(1, n + 1) if k % 2 else list(range(100, 100 + n))
                assert chance.sample(ours, population, k) == theirs.sample(population, k)
                assert ours.getstate() == theirs.getstate()
                tried += 1
    assert tried > 5000


def test_below_is_the_standard_randrange():
    for n in (1, 2, 3, 4, 5, 7, 8, 9, 14, 100, 2**31 + 1, 3**40):
        for ours, theirs in _generators(60):
            assert chance.below(ours, n) == theirs.randrange(n)
            assert ours.getstate() == theirs.getstate()


def test_other_generators_use_their_own_methods():
    class Counted(random.Random):
        calls = 0

        def shuffle(self, x):
            Counted.calls += 1
            super().shuffle(x)

    items = list(range(10))
    chance.shuffle(Counted(3), items)
    assert Counted.calls == 1 and sorted(items) == list(range(10))
    with pytest.raises(ValueError):
        chance.sample(random.Random(1), range(3), 4)  # the standard library's error for too many


def test_the_reseeded_generator_draws_as_a_fresh_one_whatever_it_drew_before():
    rng = random.Random(3)
    for _ in range(300):
        text = f"{rng.randrange(10**rng.randrange(1, 20))}/{rng.randrange(9)}/{rng.choice(['deal', 'x:insert'])}"
        shared = chance.reseeded(text)
        assert shared.getstate() == random.Random(text).getstate()
        shared.getrandbits(rng.randrange(1, 200))  # drawn from: the next seeding starts it afresh all the same
        shared.gauss_next = 1.5  # type: ignore[attr-defined]
