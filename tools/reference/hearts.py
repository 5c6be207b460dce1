"""A hand-written Hearts deal (4 players, the first deal of a match: pass three to the left), the yardstick for
interp's speed per decision.

The same rules as games/hearts.yaml, written the way one would by hand: cards are ints (suit * 13 + rank; suits
S H D C, ranks 2 to A), plain lists and ifs, no interp import. One call plays one deal from the shuffle to the
sheet entries. Every decision (a card passed, a card played) goes through `choose(kind, moves)`, which returns
one of `moves`, listed in the order interp's `legal_moves` gives them, so that a test can drive interp and this
program with the same choices.

>>> import random
>>> rng = random.Random(1)
>>> result = play_deal(rng, lambda kind, moves: moves[rng.randrange(len(moves))])
>>> sum(result.points) in (26, 78)
True
"""
from __future__ import annotations

import random

SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CODES = [r + s for s in SUITS for r in RANKS]
PLAYERS = 4
HEART = SUITS.index("H")
QUEEN_OF_SPADES = CODES.index("QS")
TWO_OF_CLUBS = CODES.index("2C")
PASSED = 3


class Result:
    """What a deal ends with: the points each seat took, and the score each is given (the moon turned over)."""
    __slots__ = ("taken", "points")

    def __init__(self, taken: list, points: list):
        self.taken, self.points = taken, points


def penalty(card: int) -> int:
    return 1 if card // 13 == HEART else 13 if card == QUEEN_OF_SPADES else 0


def play_deal(rng: random.Random, choose) -> Result:
    """Deal with `rng` (seat 0 passes first and sits left of the dealer) and play with `choose`."""
    pack = list(range(52))
    rng.shuffle(pack)
    return play([pack[13 * s:13 * s + 13] for s in range(PLAYERS)], choose)


def play(hands: list, choose) -> Result:
    """Play a dealt deal; seats 0-3 in passing order, each passing to the next."""
    passed = []
    for hand in hands:
        cards = []
        for _ in range(PASSED):
            card = choose("card", sorted(hand))
            hand.remove(card)
            cards.append(card)
        passed.append(cards)
    for seat, cards in enumerate(passed):
        hands[(seat + 1) % PLAYERS].extend(cards)
    taken = play_tricks(hands, choose)
    moon = next((s for s in range(PLAYERS) if taken[s] == 26), None)
    points = taken if moon is None else [0 if s == moon else 26 for s in range(PLAYERS)]
    return Result(taken, points)


def play_tricks(hands: list, choose) -> list:
    """The thirteen tricks; the points each seat took."""
    leader = next(s for s in range(PLAYERS) if TWO_OF_CLUBS in hands[s])
    broken = False
    taken = [0] * PLAYERS
    for trick_no in range(13):
        trick: list = []
        for k in range(PLAYERS):
            hand = hands[(leader + k) % PLAYERS]
            card = choose("card", playable(hand, trick, trick_no, broken))
            hand.remove(card)
            trick.append(card)
        led = trick[0] // 13
        best = max(range(PLAYERS), key=lambda i: trick[i] if trick[i] // 13 == led else -1)
        leader = (leader + best) % PLAYERS
        taken[leader] += sum(penalty(c) for c in trick)
        broken = broken or any(c // 13 == HEART for c in trick)
    return taken


def playable(hand: list, trick: list, trick_no: int, broken: bool) -> list:
    """The cards `hand` may play to `trick`, sorted: follow suit; on the first trick 2♣ leads and no penalty card
    follows; hearts are led only once broken (each rule dropped when it would leave no card).

    >>> playable([CODES.index(c) for c in ("QS", "2H", "5D")], [CODES.index("3C")], 0, False) == [CODES.index("5D")]
    True
    """
    cards = sorted(hand)
    if trick:
        cards = [c for c in cards if c // 13 == trick[0] // 13] or cards
    if trick_no == 0:
        allowed = [c for c in cards if (c == TWO_OF_CLUBS if not trick else penalty(c) == 0)]
    else:
        allowed = [c for c in cards if trick or broken or c // 13 != HEART]
    return allowed or cards


def entries(res: Result) -> dict:
    """The deal's sheet entries in interp's shape: {'score': {seat: delta}}."""
    diff = {s: v for s, v in enumerate(res.points) if v}
    return {"score": diff} if diff else {}


def notation(kind: str, move: int) -> str:
    """A move as interp writes it (for the side-by-side test)."""
    return CODES[move]
