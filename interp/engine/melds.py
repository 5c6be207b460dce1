"""Melds and counted combinations: the general algorithms behind the DSL's meld built-ins (docs/spec-language.md
§4.8). A *meld* is a set (at least k cards of one rank) or a run (at least k cards of one suit in consecutive
ranks); *deadwood* is what no meld takes. Cards are ints read through a deck's tables (rank order, suit, points).

The best partition of a hand into melds is a search over every collection of disjoint melds, worked out once per
hand (remembered per deck): a hand of ten or eleven cards has a few dozen such collections. Its deadwood alone is
searched piece by piece (the cards no meld links apart), each piece remembered, so the many hands a bot weighs —
a hand less each card in turn — share their pieces' searches.

>>> from interp.engine.cards import Deck
>>> deck = Deck(codes=["AS", "2S", "3S", "AH", "AD"], suit_of=["S", "S", "S", "H", "D"], rank_of=[0, 1, 2, 0, 0],
...             rank_name=["A", "2", "3", "A", "A"], points=[1, 2, 3, 1, 1], suits=["S", "H", "D"], ranks=["A", "2", "3"])
>>> best_melds(deck, [0, 1, 2, 3, 4], 3)          # the run A-2-3♠ leaves A♥ A♦ (2); the set of aces leaves 2♠ 3♠ (5)
[[2, 1, 0]]
>>> sums_to(deck, [1, 2, 3, 4], 3), same_rank_at_end(deck, [1, 0, 3]), run_at_end(deck, [3, 2, 1], 3)
([[2], [1, 3], [1, 4]], 2, 3)
"""
from __future__ import annotations

import itertools
import math

from interp.dsl.runtime import BUDGET, MAX_LOOP_STEPS, LimitError
from interp.engine.cards import Deck

_CACHES: dict[int, tuple[Deck, dict]] = {}  # id(deck) -> (the deck, kept alive so its id stays its own; results)
_CACHE_SIZE = 50_000


def _cache(deck: Deck) -> dict:
    entry = _CACHES.get(id(deck))
    if entry is None or entry[0] is not deck:
        entry = _CACHES[id(deck)] = (deck, {})
    if len(entry[1]) > _CACHE_SIZE:
        entry[1].clear()
    return entry[1]


def _charge(steps: int, what: str) -> None:
    """Count `steps` against the evaluation's loop budget, before they are taken: a hand of hundreds of cards is
    refused with a located error rather than searched for minutes."""
    BUDGET.steps += steps
    if BUDGET.steps > MAX_LOOP_STEPS:
        raise LimitError(f"{what} passed the limit of {MAX_LOOP_STEPS:,} steps in one evaluation",
                         "ask it of fewer cards")


def runs(deck: Deck, cards, k: int) -> list:
    """The longest runs of one suit in consecutive ranks, at least k cards: suit by suit, each high to low."""
    return _runs(deck, _by(deck, deck.suit_of, cards), k)


def _by(deck: Deck, table: list, cards) -> dict:
    """The cards of suits (not the extras outside them) grouped by their entry in a table of the deck (suit or
    rank name), in the order given."""
    suit_of = deck.suit_of
    out: dict = {}
    for c in cards:
        if suit_of[c]:
            out.setdefault(table[c], []).append(c)
    return out


def melds(deck: Deck, cards, k: int) -> list:
    """Every meld of at least k cards the cards hold: each set (any k or more of one rank, deck order), then each
    run (every stretch of k or more of a longest run, high to low)."""
    return [list(m) for m in _candidates(deck, cards, k)]


def _candidates(deck: Deck, cards, k: int) -> list:
    ordered = sorted(cards)
    by_rank = _by(deck, deck.rank_name, ordered)
    _charge(len(ordered) ** 2 + sum(2 ** min(len(g), 64) for g in by_rank.values() if len(g) >= k), "listing melds")
    sets = [list(combo) for group in by_rank.values() if len(group) >= k for size in range(k, len(group) + 1)
            for combo in itertools.combinations(group, size)]
    return sets + [run[i:j] for run in _runs(deck, _by(deck, deck.suit_of, ordered), k)
                   for i in range(len(run) - k + 1) for j in range(i + k, len(run) + 1)]


def _runs(deck: Deck, by_suit: dict, k: int) -> list:
    rank_of = deck.rank_of
    out: list = []
    for suit in deck.suits:
        group = by_suit.get(suit)
        if group is None or len(group) < k:
            continue
        group = sorted(group, key=rank_of.__getitem__, reverse=True)
        run = [group[0]]
        for c in group[1:]:
            if rank_of[run[-1]] - rank_of[c] == 1:
                run.append(c)
            else:
                if len(run) >= k:
                    out.append(run)
                run = [c]
        if len(run) >= k:
            out.append(run)
    return out


def best_melds(deck: Deck, cards, k: int, onto=()) -> list:
    """The disjoint melds of the cards that leave the fewest deadwood points (of those, the one melding the most
    cards, then the first in the order of `melds`); with `onto` (melds already on the table), cards that lay off
    on them count as no deadwood."""
    return [list(m) for m in _best(deck, cards, k, onto)[0]]


def deadwood(deck: Deck, cards, k: int, onto=()) -> list:
    """The cards `best_melds` leaves over, less those that lay off on `onto`, in deck order.

    Without `onto`, the hand is searched piece by piece (`_pieces`): a card in no meld is deadwood, and the cards
    no meld links are searched apart, each piece remembered on its own — so a hand and the same hand less one card
    share all but one piece's search."""
    if onto:
        return list(_best(deck, cards, k, onto)[1])
    ordered = sorted(cards)
    cache = _cache(deck)
    key = ("deadwood", tuple(ordered), k)
    found = cache.get(key)
    if found is None:
        left, pieces = _pieces(deck, ordered, k)
        for piece in pieces:
            piece_key = ("piece", piece, k)
            piece_left = cache.get(piece_key)
            if piece_left is None:
                piece_left = cache[piece_key] = _search(deck, list(piece), k, [])[1]
            left.extend(piece_left)
        found = cache[key] = tuple(sorted(left))
    return list(found)


def _pieces(deck: Deck, ordered: list, k: int) -> tuple:
    """The cards (in deck order) in no meld of at least k cards, and the rest split into pieces no meld links (the
    cards of a rank that make a set, of a longest run: one piece with every card they share one with), each a
    tuple in deck order.

    The best melds of a hand are the best melds of each piece together: the deadwood's points and the cards
    melded add up over the pieces, and the first best collection in the order of `melds` is the first of each
    piece's (no piece has two best collections one inside the other: the larger melds more cards).

    >>> from interp.engine.cards import Deck
    >>> deck = Deck(codes=["AS", "2S", "3S", "AH", "AD", "3H"], suit_of=["S", "S", "S", "H", "H", "H"],
    ...             rank_of=[0, 1, 2, 0, 0, 2], rank_name=["A", "2", "3", "A", "A", "3"], points=[1, 2, 3, 1, 1, 3],
    ...             suits=["S", "H"], ranks=["A", "2", "3"])
    >>> _pieces(deck, [0, 1, 2, 3, 4, 5], 3)      # the aces and the run A-2-3 of S share AS
    ([5], [(0, 1, 2, 3, 4)])
    """
    suit_of, rank_name = deck.suit_of, deck.rank_name
    by_rank: dict = {}
    by_suit: dict = {}
    for c in ordered:
        if suit_of[c]:
            by_rank.setdefault(rank_name[c], []).append(c)
            by_suit.setdefault(suit_of[c], []).append(c)
    links = [g for g in by_rank.values() if len(g) >= k]
    if any(len(g) >= k for g in by_suit.values()):
        links += _runs(deck, by_suit, k)
    if not links:
        return list(ordered), []
    pieces: list[set] = []
    for link in links:
        joined = set(link)
        for piece in [p for p in pieces if not p.isdisjoint(joined)]:
            joined |= piece
            pieces.remove(piece)
        pieces.append(joined)
    linked = set().union(*pieces)
    return [c for c in ordered if c not in linked], [tuple(sorted(p)) for p in pieces]


def _best(deck: Deck, cards, k: int, onto) -> tuple:
    ordered = sorted(cards)  # the search sees the cards in deck order: its answer never depends on the order given
    key = ("best", tuple(ordered), k, tuple(map(tuple, onto)))
    cache = _cache(deck)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _search(deck, ordered, k, [list(m) for m in onto])
    return found


def _search(deck: Deck, cards: list, k: int, onto: list) -> tuple:
    points = deck.points
    candidates = _candidates(deck, cards, k)
    bits = {c: 1 << i for i, c in enumerate(cards)}
    masks = [sum(bits[c] for c in m) for m in candidates]
    best: tuple = ((float("inf"), 0), (), tuple(cards))

    total = sum(points[c] for c in cards)
    meld_points = [sum(points[c] for c in m) for m in candidates]

    def visit(start: int, used: int, chosen: list, melded: int, melded_points: int) -> None:
        nonlocal best
        _charge(4 * len(cards), "looking for the best melds")  # the work of one arrangement, about
        if onto:
            left = [c for c in cards if not bits[c] & used]
            laid = set(lay_offs(deck, left, onto))
            left = [c for c in left if c not in laid]
            value = (sum(points[c] for c in left), -melded)
        else:  # the deadwood's points without listing it: listed only for a new best
            value, left = (total - melded_points, -melded), []
        if value < best[0]:
            best = (value, tuple(tuple(candidates[i]) for i in chosen),
                    tuple(left) if onto else tuple(c for c in cards if not bits[c] & used))
        for i in range(start, len(candidates)):
            if not masks[i] & used:
                chosen.append(i)
                visit(i + 1, used | masks[i], chosen, melded + len(candidates[i]), melded_points + meld_points[i])
                chosen.pop()

    visit(0, 0, [], 0, 0)
    return best[1], best[2]


def lay_offs(deck: Deck, cards, onto) -> list:
    """The cards that extend melds already made, in the order given: a card of a set's rank, or the next rank up
    or down a run in its suit (so a card laid off may let another follow it: 8♥ then 9♥ on 5-6-7♥)."""
    suit_of, rank_of, rank_name = deck.suit_of, deck.rank_of, deck.rank_name
    ends = []  # (suit, low rank, high rank) of each run; rank names of each set
    names = set()
    for meld in onto:
        if not meld:
            continue
        if len({rank_name[c] for c in meld}) == 1:
            names.add(rank_name[meld[0]])
        else:
            ranks = [rank_of[c] for c in meld]
            ends.append([suit_of[meld[0]], min(ranks), max(ranks)])
    laid: set = set()
    grew = True
    while grew:
        grew = False
        _charge(len(cards) * (len(ends) + 1), "laying off cards")
        for c in cards:
            if c in laid or not suit_of[c]:
                continue
            if rank_name[c] in names:
                laid.add(c)
                grew = True
                continue
            for end in ends:
                if end[0] == suit_of[c] and rank_of[c] in (end[1] - 1, end[2] + 1):
                    end[1], end[2] = min(end[1], rank_of[c]), max(end[2], rank_of[c])
                    laid.add(c)
                    grew = True
                    break
    return [c for c in cards if c in laid]


def sums_to(deck: Deck, cards, total) -> list:
    """Every sub-list of the cards (list order kept, fewest cards first) whose points add up to `total`."""
    points = deck.points
    _charge(2 ** min(len(cards), 64), f"adding up the combinations of {len(cards)} cards")
    out: list = []
    for size in range(1, len(cards) + 1):
        out.extend(list(combo) for combo in itertools.combinations(cards, size)
                   if sum(points[c] for c in combo) == total)
    return out


def pairs(deck: Deck, cards) -> list:
    """Every two cards of one rank (list order kept): three of a kind make three pairs, four make six."""
    rank_name = deck.rank_name
    _charge(len(cards) ** 2 // 2, "pairing cards")
    return [[a, b] for a, b in itertools.combinations(cards, 2) if rank_name[a] == rank_name[b] and deck.suit_of[a]]


def sequences(deck: Deck, cards, k: int) -> list:
    """The longest runs of consecutive ranks in any suits, at least k cards, once for every way of picking one card
    of each rank (3 3 4 5 is two runs of three), each low to high."""
    rank_of = deck.rank_of
    by_rank: dict = {}
    for c in cards:
        if deck.suit_of[c]:
            by_rank.setdefault(rank_of[c], []).append(c)
    out: list = []
    ranks = sorted(by_rank)
    start = 0
    for i in range(1, len(ranks) + 1):
        if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
            stretch = ranks[start:i]
            if len(stretch) >= k:
                _charge(math.prod(len(by_rank[r]) for r in stretch), "listing runs")
                out.extend(list(pick) for pick in itertools.product(*(by_rank[r] for r in stretch)))
            start = i
    return out


def same_rank_at_end(deck: Deck, cards) -> int:
    """How many cards at the end of the list share the last card's rank (0 for an empty list)."""
    rank_name = deck.rank_name
    n = 0
    for c in reversed(cards):
        if rank_name[c] != rank_name[cards[-1]]:
            break
        n += 1
    return n


def run_at_end(deck: Deck, cards, k: int) -> int:
    """The most cards (at least k) at the end of the list whose ranks, in any order, are consecutive with none
    repeated (4 6 5 is a run of three); 0 when there is none."""
    rank_of = deck.rank_of
    best = 0
    for n in range(k, min(len(cards), len({rank_of[c] for c in cards})) + 1):  # a run repeats no rank
        ranks = sorted(rank_of[c] for c in cards[-n:])
        if ranks[-1] - ranks[0] == n - 1 and len(set(ranks)) == n:
            best = n
    return best
