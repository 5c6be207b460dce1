"""The DSL's whitelisted functions. Each entry: parameter types, result type, implementation(ctx, *args).

Effect functions (moving cards, revealing zones, handing a hand to another player) may only be statements.
The table is documented for spec authors in docs/spec-language.md.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

from interp.dsl import types as T
from interp.dsl.compile import Function
from interp.dsl.runtime import BUDGET, MAX_LIST, LimitError
from interp.engine import melds
from interp.engine.state import Event

SEATS = T.list_of(T.SEAT)
CARDS = T.list_of(T.CARD)
MELDS = T.list_of(CARDS)


def _same(types):
    return types[0]


def _elem(types):
    return T.element(types[0])


def _list_of_list(types):
    return T.list_of(types[0])


def _number(types):
    return T.INT if all(t == T.INT for t in types) else T.NUM


def _left(ctx, seat, k=1):
    return None if seat is None else (seat + k) % ctx.n


def _others(ctx, seat):
    return [(seat + k) % ctx.n for k in range(1, ctx.n)]


_PLACES: dict = {}  # (player count, seat) -> each seat's place in play order counted from the seat after it


def _order_from(ctx, seat, seats):
    """`seats` in play order, starting with the first one after `seat` (sorted by a remembered table of places:
    a key function in C, not a Python one per seat).

    >>> from types import SimpleNamespace
    >>> _order_from(SimpleNamespace(n=4), 1, [0, 1, 3])
    [3, 0, 1]
    """
    n = ctx.n
    places = _PLACES.get((n, seat))
    if places is None:
        if type(seat) is not int or not 0 <= seat < n:
            return sorted(seats, key=lambda s: (s - seat - 1) % n)
        places = _PLACES[n, seat] = [(s - seat - 1) % n for s in range(n)]
    return sorted(seats, key=places.__getitem__)


def _round_half_away(x):
    return int(math.floor(abs(x) + Fraction(1, 2))) * (1 if x >= 0 else -1)


def _trunc(x):
    return int(x)


def _suit(ctx, card):
    return None if card is None else ctx.game.deck.suit_of[card]


def _rank(ctx, card):
    return -1 if card is None else ctx.game.deck.rank_of[card]


def _points(ctx, card):
    return 0 if card is None else ctx.game.deck.points[card]


def _card(ctx, code):
    return ctx.game.deck.index.get(str(code).upper())


def _bid(ctx, name):
    return ctx.game.bids_by_name.get(name)


def _top(ctx, cards):
    return cards[-1] if cards else None


def _of_suit(ctx, cards, suit):
    suit_of = ctx.game.deck.suit_of
    return [c for c in cards if suit_of[c] == suit]


def _on_deck(fn):
    """A built-in of the cards' deck: `fn(deck, *args)` called as `f(ctx, *args)`."""
    return lambda ctx, *args: fn(ctx.game.deck, *args)


def _groups(ctx, cards, k):
    """The cards of each rank (by rank name), groups of at least k, highest rank first, each in deck order."""
    deck = ctx.game.deck
    by_rank = {}
    for c in sorted(cards):
        by_rank.setdefault(deck.rank_name[c], []).append(c)
    groups = [g for g in by_rank.values() if len(g) >= k]
    return sorted(groups, key=lambda g: -deck.rank_of[g[0]])


def _ranked(ctx, cards):
    rank_of = ctx.game.deck.rank_of
    return sorted(cards, key=lambda c: (-rank_of[c], c))


def _rank_name(ctx, card):
    return None if card is None else ctx.game.deck.rank_name[card]


def _move(ctx, card, zone):
    for source in ctx.zones:
        if card in source:
            source.remove(card)
            break
    zone.append(card)


def _move_all(ctx, source, target):
    target.extend(source)
    source.clear()


def _zone_id(ctx, zone):
    for i, z in enumerate(ctx.zones):
        if z is zone:
            return i
    raise StopIteration(zone)  # as `next` of an empty search would: not a zone of this state


def _reveal(ctx, zone):
    _reveal_at(ctx, _zone_id(ctx, zone))


def _reveal_at(ctx, zid):
    ctx.revealed.add(zid)
    zone = ctx.zones[zid]
    if zone:
        ctx.events.append(Event("reveal", None, tuple(zone), zid))


def _show_to(ctx, zone, seat):
    _show_to_at(ctx, _zone_id(ctx, zone), seat)


def _show_to_at(ctx, zid, seat):
    ctx.shown.add((zid, seat))


def _redeal(ctx):
    ctx.abandon = True
    ctx.events.append(Event("redeal"))


def _hide(ctx, zone):
    _hide_at(ctx, _zone_id(ctx, zone))


def _hide_at(ctx, zid):
    ctx.revealed.discard(zid)


def _control(ctx, seat, by):
    ctx.controller[seat] = by


def _announce(ctx, seat, text, cards=()):
    ctx.events.append(Event("announce", seat, tuple(cards), text))


def _tell(ctx, seat, text, cards=()):
    ctx.events.append(Event("tell", seat, tuple(cards), text, (seat,)))


def _show_cards(ctx, seat, cards):
    ctx.events.append(Event("show", seat, tuple(cards)))


def _suit_symbol(ctx, suit):
    return "" if suit is None or suit == "" else ctx.game.suit_label(suit)


def _subsets(ctx, items, most=None):
    """Every non-empty sub-list of `items` (list order kept), smallest first, of at most `most` items; refused from
    their number alone when it passes the list limit (counted without making them)."""
    n = len(items)
    top = n if most is None else max(0, min(most, n))
    if _more_subsets_than(n, top, MAX_LIST):
        count = _count_text(2 ** n - 1) if top == n else f"more than {MAX_LIST:,}"
        of = f" of at most {top:,}" if top < n else ""
        raise LimitError(f"{n:,} items have {count} subsets{of}; the limit is {MAX_LIST:,} lists",
                         "take the subsets of fewer items, or of fewer items each: subsets(items, 3)")
    return _bounded([list(c) for k in range(1, top + 1) for c in _combos(items, k)], "subsets")


def _more_subsets_than(n: int, top: int, limit: int) -> bool:
    """Whether n items have more than `limit` subsets of 1 to `top` items: the binomials added up only until the
    sum passes the limit (each is the last times (n-k+1)/k), so a long list costs a few steps, not a 3,000-digit sum.

    >>> _more_subsets_than(13, 13, 10_000), _more_subsets_than(14, 14, 10_000), _more_subsets_than(10_000, 1, 10_000)
    (False, True, False)
    """
    total, binomial = 0, 1
    for k in range(1, top + 1):
        binomial = binomial * (n - k + 1) // k
        total += binomial
        if total > limit:
            return True
    return False


def _count_text(count: int) -> str:
    """A count as people read it: with thousands separators, or its order of magnitude when it is huge.

    >>> _count_text(16_383), _count_text(2 ** 10_000 - 1)
    ('16,383', 'about 10^3010')
    """
    if count < 10 ** 15:
        return f"{count:,}"
    return f"about 10^{int(math.log10(count))}"


def _combinations(ctx, items, k):
    return _bounded([list(c) for c in _combos(items, k)], "combinations")


def _combos(items, k):
    """itertools.combinations, refusing up front a count past the list limit (never built, never looped)."""
    n = len(items)
    if 0 <= k <= n and _more_subsets_than(n, min(k, n - k), MAX_LIST) and math.comb(n, k) > MAX_LIST:
        raise LimitError(f"{n:,} items give {_count_text(math.comb(n, k))} combinations of {k:,}; the limit is "
                         f"{MAX_LIST:,} lists", "choose from fewer items")
    return itertools.combinations(items, k)


def _bounded(out: list, name: str) -> list:
    if len(out) > MAX_LIST:
        raise LimitError(f"{name} would make {len(out):,} lists; the limit is {MAX_LIST:,}", "make fewer lists")
    BUDGET.steps += len(out)
    return out


def _range(ctx, a, b=None):
    low, high = (0, a) if b is None else (a, b)
    if high - low > MAX_LIST:
        raise LimitError(f"range({low}, {high}) has {high - low:,} numbers; the limit is {MAX_LIST:,}",
                         "count over fewer numbers")
    return list(range(low, high))


def _seat_name(ctx, seat):
    return ctx.game.seat_name(seat, ctx.n)


def _size(ctx, zone):
    hidden = getattr(ctx, "hidden", None)
    if not hidden:
        return len(zone)
    return len(zone) + hidden.get(_zone_id(ctx, zone), 0)


def _format_num(value):
    return str(value) if not isinstance(value, Fraction) else f"{float(value):g}"


FUNCTIONS = {f.name: f for f in [
    Function("left", (T.SEAT, T.INT), T.SEAT, _left, min_args=1,
             doc="the seat k places after s in play order (k defaults to 1)"),
    Function("others", (T.SEAT,), SEATS, _others, doc="every seat but s, starting at s's left"),
    Function("order_from", (T.SEAT, SEATS), SEATS, _order_from,
             doc="the seats of a list in play order, starting after s"),
    Function("len", (T.list_of(T.ANY),), T.INT, lambda ctx, xs: len(xs), python="len",
             doc="the number of items in a list"),
    Function("suit", (T.CARD,), T.STR, _suit, doc="a card's suit code ('' for cards outside the suits)",
             domain=None, table=("suit_of", None)),
    Function("rank", (T.CARD,), T.INT, _rank, doc="a card's position in its rank order, 0 = lowest",
             table=("rank_of", -1)),
    Function("rank_name", (T.CARD,), T.STR, _rank_name, doc="a card's rank as written in the deck (10, Q, A …)",
             table=("rank_name", None)),
    Function("points", (T.CARD,), T.NUM, _points, doc="a card's points from the deck's points table",
             table=("points", 0)),
    Function("card", (T.STR,), T.CARD, _card, static=True, doc="the card with a code, e.g. card(\"10D\")",
             names=T.CARD),
    Function("bid", (T.STR,), T.BID, _bid, static=True, doc="the ladder entry with a name, e.g. bid(\"6S\")"),
    Function("top", (CARDS,), T.CARD, _top, doc="the last card of a list (a pile's top card), or none"),
    Function("of_suit", (CARDS, T.STR), CARDS, _of_suit, doc="the cards of a list in one suit"),
    Function("ranked", (CARDS,), CARDS, _ranked,
             doc="the cards from the highest rank down (deck order among equal ranks)"),
    Function("runs", (CARDS, T.INT), MELDS, _on_deck(melds.runs),
             doc="the longest runs of one suit in consecutive ranks, at least k cards: suit by suit, each high to low"),
    Function("groups", (CARDS, T.INT), MELDS, _groups,
             doc="the cards of one rank together, groups of at least k cards, the highest rank first"),
    Function("melds", (CARDS, T.INT), MELDS, _on_deck(melds.melds),
             doc="every meld of at least k cards: each set (k or more of one rank), then each run (k or more of one "
                 "suit in consecutive ranks, every stretch of a longest run)"),
    Function("best_melds", (CARDS, T.INT, MELDS), MELDS, _on_deck(melds.best_melds), min_args=2,
             doc="the disjoint melds that leave the fewest deadwood points (card points); with `onto`, cards that "
                 "lay off on those melds count as none"),
    Function("deadwood", (CARDS, T.INT, MELDS), CARDS, _on_deck(melds.deadwood), min_args=2,
             doc="the cards best_melds leaves over, less those that lay off on `onto`"),
    Function("lay_offs", (CARDS, MELDS), CARDS, _on_deck(melds.lay_offs),
             doc="the cards that extend the melds: a set's rank, or the next rank of a run's suit (one after another)"),
    Function("sums_to", (CARDS, T.NUM), MELDS, _on_deck(melds.sums_to),
             doc="every sub-list of the cards whose card points add up to n, fewest cards first"),
    Function("pairs", (CARDS,), MELDS, _on_deck(melds.pairs),
             doc="every two cards of one rank (three of a kind make three pairs)"),
    Function("sequences", (CARDS, T.INT), MELDS, _on_deck(melds.sequences),
             doc="the longest runs of consecutive ranks in any suits, at least k cards, once per way of picking "
                 "their cards (3 3 4 5: two runs of three)"),
    Function("same_rank_at_end", (CARDS,), T.INT, _on_deck(melds.same_rank_at_end),
             doc="how many cards at the end of a list share the last card's rank"),
    Function("run_at_end", (CARDS, T.INT), T.INT, _on_deck(melds.run_at_end),
             doc="the most cards, at least k, at the end of a list whose ranks in any order are consecutive; else 0"),
    Function("subsets", (T.list_of(T.ANY), T.INT), _list_of_list, _subsets, min_args=1,
             doc="every non-empty sub-list (list order kept), smallest first; with k, of at most k items"),
    Function("combinations", (T.list_of(T.ANY), T.INT), _list_of_list, _combinations,
             doc="every sub-list of exactly k items (list order kept)"),
    Function("range", (T.INT, T.INT), T.list_of(T.INT), _range, min_args=1,
             doc="the whole numbers from a up to b - 1 (from 0 up to a - 1 with one argument)"),
    Function("abs", (T.NUM,), _number, lambda ctx, x: abs(x), python="abs", doc="absolute value"),
    Function("min", (T.NUM, T.NUM), _number, lambda ctx, a, b: min(a, b), python="min",
             doc="the smaller of two numbers"),
    Function("max", (T.NUM, T.NUM), _number, lambda ctx, a, b: max(a, b), python="max",
             doc="the larger of two numbers"),
    Function("floor", (T.NUM,), T.INT, lambda ctx, x: math.floor(x), doc="round down"),
    Function("ceil", (T.NUM,), T.INT, lambda ctx, x: math.ceil(x), doc="round up"),
    Function("trunc", (T.NUM,), T.INT, lambda ctx, x: _trunc(x), doc="round toward zero"),
    Function("round", (T.NUM,), T.INT, lambda ctx, x: _round_half_away(x), doc="round to nearest, .5 away from 0"),
    Function("seat_name", (T.SEAT,), T.STR, _seat_name, doc="a seat's display name"),
    Function("suit_symbol", (T.STR,), T.STR, _suit_symbol,
             doc="a suit code's symbol (else its name) for display, e.g. suit_symbol('H') is ♥"),
    Function("move", (T.CARD, "zone"), T.NONE, _move, effect=True, doc="move one card into a zone"),
    Function("move_all", ("zone", "zone"), T.NONE, _move_all, effect=True, doc="move every card of a zone"),
    Function("reveal", ("zone",), T.NONE, _reveal, effect=True, at_id=_reveal_at,
             doc="show a zone's cards to every player"),
    Function("hide", ("zone",), T.NONE, _hide, effect=True, at_id=_hide_at,
             doc="stop showing a zone to every player"),
    Function("show_to", ("zone", T.SEAT), T.NONE, _show_to, effect=True, at_id=_show_to_at,
             doc="let one seat see a zone for the rest of the deal (a peek at the talon)"),
    Function("redeal", (), T.NONE, _redeal, effect=True,
             doc="abandon the deal unscored; the deal passes on as after any deal"),
    Function("control", (T.SEAT, T.SEAT), T.NONE, _control, effect=True,
             doc="seat `by` makes the decisions for seat s's hand (open play)"),
    Function("announce", (T.SEAT, T.STR, CARDS), T.NONE, _announce, effect=True, min_args=2,
             doc="log a line spoken by a seat; `cards`: the cards it names, shown (they stay where they are)"),
    Function("tell", (T.SEAT, T.STR, CARDS), T.NONE, _tell, effect=True, min_args=2,
             doc="log a line for one seat only (what it alone learns); `cards`: the cards it names"),
    Function("show_cards", (T.SEAT, CARDS), T.NONE, _show_cards, effect=True,
             doc="a seat shows some cards to every player (they stay where they are)"),
    Function("size", ("zone",), T.INT, lambda ctx, zone: _size(ctx, zone),
             doc="how many cards a zone holds, counting those the viewer cannot see (len counts only the seen)"),
]}

# "zone" parameters take a list of cards at type level; the compiler checks that the argument is a real zone.
for _f in FUNCTIONS.values():
    _f.zone_args = tuple(i for i, p in enumerate(_f.params) if p == "zone")
    _f.params = tuple(CARDS if p == "zone" else p for p in _f.params)
