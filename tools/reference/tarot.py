"""A hand-written French Tarot deal for 4 players, the yardstick for interp's speed.

The same rules as games/tarot.yaml with its default options, written the way one would by hand: cards are ints
(0-55 the suits S H D C, 14 each from 1 to King, suit = card // 14; 56-76 the trumps 1-21; 77 the Excuse),
points kept in halves, plain lists and ifs, no interp import. One call plays one deal from the shuffle to the
running-total entries (a petit sec or four passes void the deal: no entries).

Every decision goes through `choose(kind, moves)`, which returns one of `moves`; the lists are in the order
interp's `legal_moves` gives them, so a test can drive interp and this program with the same choices.

>>> import random
>>> rng = random.Random(3)
>>> result = play_deal(rng, lambda kind, moves: moves[rng.randrange(len(moves))])
>>> result.redeal or sum(result.total) == 0
True
"""
from __future__ import annotations

import random

PLAYERS = 4
HAND = 18
CHIEN = 6
PETIT, MONDE, EXCUSE = 56, 76, 77
OUDLERS = (PETIT, MONDE, EXCUSE)
RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
CODES = [r + s for s in "SHDC" for r in RANKS] + [f"T{k}" for k in range(1, 22)] + ["EX"]
TRUMP = 4  # the suit number of the trumps; the Excuse is suit 5
SUIT = [c // 14 for c in range(56)] + [TRUMP] * 21 + [5]
RANK = [c % 14 for c in range(56)] + list(range(1, 22)) + [0]
# Card points doubled: King and oudlers 9, Queen 7, Knight 5, Jack 3, any other card 1.
HALF_POINTS = [(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)[c % 14] for c in range(56)] + [1] * 21 + [9]
HALF_POINTS[PETIT] = HALF_POINTS[MONDE] = 9
BIDS = ["prise", "garde", "garde_sans", "garde_contre"]
MULTIPLIER = [1, 2, 4, 6]
# (announcement, what the deal records, trumps needed, bonus)
POIGNEES = [("poignee", "single", 10, 20), ("double-poignee", "double", 13, 40), ("triple-poignee", "triple", 15, 60)]


class Result:
    """The deal's facts and each seat's change of running total, as interp records them."""
    __slots__ = ("redeal", "taker", "contract", "oudlers", "half_points", "petit_au_bout", "poignee", "slam",
                 "slam_announced", "total")

    def __init__(self):
        self.redeal = False
        self.taker = self.contract = None
        self.oudlers = self.half_points = 0
        self.petit_au_bout = self.slam = "none"
        self.poignee = ["none"] * PLAYERS
        self.slam_announced = False
        self.total = [0] * PLAYERS


def deal(rng: random.Random) -> tuple:
    """Shuffle and deal 3 cards at a time; the chien's 6 cards one at a time between packets, never first,
    never last, never two in a row: (hands, chien)."""
    pack = list(range(78))
    rng.shuffle(pack)
    chien_after = set(rng.sample(range(1, 24), CHIEN))
    hands = [[] for _ in range(PLAYERS)]
    chien = []
    pos = 0
    for packet in range(24):
        if packet in chien_after:
            chien.append(pack[pos])
            pos += 1
        hands[packet % PLAYERS].extend(pack[pos:pos + 3])
        pos += 3
    return hands, chien


def play_deal(rng: random.Random, choose) -> Result:
    """Deal with `rng` (seat 3 deals, so seat 0 bids and leads first) and play with `choose`."""
    hands, chien = deal(rng)
    return play(hands, chien, choose)


def play(hands: list, chien: list, choose) -> Result:
    """Play a dealt deal; seats 0-3 in bidding order."""
    res = Result()
    if petit_sec(hands):
        res.redeal = True
        return res
    taker, contract = auction(choose)
    if taker < 0:
        res.redeal = True
        return res
    res.taker, res.contract = taker, contract
    ecart = []
    if contract <= 1:  # prise and garde: the taker takes the chien and discards as many cards
        hands[taker].extend(chien)
        chien = []
        for _ in range(CHIEN):
            card = choose("card", discardable(hands[taker]))
            hands[taker].remove(card)
            ecart.append(card)
    excuse_holder = next((s for s in range(PLAYERS) if EXCUSE in hands[s]), None)
    res.slam_announced = choose("option", ["no-slam", "slam"]) == "slam"
    attack, defence, tricks = play_tricks(hands, taker, excuse_holder, res, choose)
    attack.extend(ecart)
    if contract == 2:
        attack.extend(chien)
    elif contract == 3:
        defence.extend(chien)
    res.oudlers = sum(1 for c in attack if c in OUDLERS)
    res.half_points = sum(HALF_POINTS[c] for c in attack)
    res.slam = "taker" if tricks[1] == 0 else "defence" if tricks[0] == 0 else "none"
    score(res)
    return res


def petit_sec(hands: list) -> bool:
    """A hand whose only trump is the Petit, without the Excuse, is a misdeal."""
    for hand in hands:
        if PETIT in hand:
            return EXCUSE not in hand and sum(1 for c in hand if SUIT[c] == TRUMP) == 1
    return False


def auction(choose) -> tuple:
    """Any higher bid or pass (a pass is final), round the table until one bidder is left: (taker, bid) or
    (-1, -1) when all pass."""
    passed = [False] * PLAYERS
    high, high_by, turn = -1, -1, 0
    while True:
        move = choose("bid", ["pass"] + BIDS[high + 1:])
        if move == "pass":
            passed[turn] = True
        else:
            high, high_by = BIDS.index(move), turn
        left = [k for k in range(PLAYERS) if not passed[k]]
        if not left or (len(left) == 1 and left[0] == high_by):
            return high_by, high
        for step in range(1, PLAYERS + 1):
            k = (turn + step) % PLAYERS
            if not passed[k]:
                turn = k
                break


def discardable(hand: list) -> list:
    """No King, no oudler; trumps only when nothing else can go."""
    cards = [c for c in hand if c < 56 and c % 14 != 13]
    if not cards:
        cards = [c for c in hand if SUIT[c] == TRUMP and c != PETIT and c != MONDE]
    return sorted(cards)


def playable(hand: list, trick: list) -> list:
    """Follow suit; else trump; a trump must beat the trick's best trump if it can; the Excuse is always free."""
    rest = [c for c in hand if c != EXCUSE]
    led = next((SUIT[c] for c in trick if c != EXCUSE), None)
    if led is not None:
        same = [c for c in rest if SUIT[c] == led]
        if not same and led != TRUMP:
            same = [c for c in rest if SUIT[c] == TRUMP]
            if same:
                led = TRUMP
        if same:
            if led == TRUMP:
                best = max((RANK[c] for c in trick if SUIT[c] == TRUMP), default=-1)
                rest = [c for c in same if RANK[c] > best] or same
            else:
                rest = same
    if EXCUSE in hand:
        rest.append(EXCUSE)
    return sorted(rest)


def trick_winner(trick: list) -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led; never the Excuse."""
    led = next(SUIT[c] for c in trick if c != EXCUSE)
    best, best_key = 0, -1
    for i, c in enumerate(trick):
        if c == EXCUSE:
            continue
        key = 32 + RANK[c] if SUIT[c] == TRUMP else RANK[c] if SUIT[c] == led else -1
        if key > best_key:
            best, best_key = i, key
    return best


def play_tricks(hands: list, taker: int, excuse_holder, res: Result, choose) -> tuple:
    """18 tricks. Poignées before one's first card; the Excuse goes back to its side, which owes a half-point
    card, except in the last trick: lost, unless its side won every trick so far (then, led, it wins the trick;
    not led, it goes back to its side as usual); petit au bout to the side of the player of the Petit.
    Returns (attack pile, defence pile, [attack tricks, defence tricks])."""
    attack, defence = [], []
    tricks = [0, 0]  # attack, defence
    owes = [0, 0]
    petit_side = None
    petit_trick = 0
    leader = taker if res.slam_announced else 0
    for no in range(1, HAND + 1):
        trick, by = [], []
        for k in range(PLAYERS):
            seat = (leader + k) % PLAYERS
            hand = hands[seat]
            cards = playable(hand, trick)
            if no == 1:
                count = sum(1 for c in hand if SUIT[c] >= TRUMP)  # trumps and the Excuse
                shown = [name for name, _, least, _ in POIGNEES if count >= least]
                if shown:
                    move = choose("card", shown + cards)
                    if move in shown:
                        res.poignee[seat] = next(p[1] for p in POIGNEES if p[0] == move)
                        move = choose("card", cards)
                else:
                    move = choose("card", cards)
            else:
                move = choose("card", cards)
            hand.remove(move)
            trick.append(move)
            by.append(seat)
        last = no == HAND
        if last and trick[0] == EXCUSE and tricks[0 if by[0] == taker else 1] == no - 1:
            winner = by[0]  # a side that won every trick before wins the last by leading its Excuse
        else:
            winner = by[trick_winner(trick)]
        won_by_attack = winner == taker
        if PETIT in trick:
            petit_trick, petit_side = no, 0 if by[trick.index(PETIT)] == taker else 1
        pile = attack if won_by_attack else defence
        if EXCUSE in trick:
            holder_attacks = excuse_holder == taker
            holder_side = 0 if holder_attacks else 1
            if last and tricks[holder_side] < no - 1:
                trick.remove(EXCUSE)
                (defence if holder_attacks else attack).append(EXCUSE)
            elif holder_attacks != won_by_attack:
                trick.remove(EXCUSE)
                (attack if holder_attacks else defence).append(EXCUSE)
                owes[holder_side] += 1
        tricks[0 if won_by_attack else 1] += 1
        pile.extend(trick)
        for side, (mine, theirs) in enumerate(((attack, defence), (defence, attack))):
            if owes[side]:
                low = next((c for c in mine if HALF_POINTS[c] == 1), None)
                if low is not None:
                    mine.remove(low)
                    theirs.append(low)
                    owes[side] -= 1
        if last:
            if PETIT in trick:
                res.petit_au_bout = "taker" if won_by_attack else "defence"
            side = 0 if won_by_attack else 1
            if trick[0] == EXCUSE and winner == by[0] and petit_trick == no - 1 and petit_side == side:
                res.petit_au_bout = ("taker", "defence")[side]
        leader = winner
    return attack, defence, tricks


def score(res: Result) -> None:
    """Each defender pays the taker ((25 + difference) x multiplier + poignées) if he made his contract (else
    the taker pays), plus petit au bout x multiplier and the slam bonus."""
    target = (56, 51, 41, 36)[res.oudlers]
    made = res.half_points >= 2 * target
    difference = (abs(res.half_points - 2 * target) + 1) // 2
    poignees = sum(value for _, name, _, value in POIGNEES for p in res.poignee if p == name)
    unit = (1 if made else -1) * ((25 + difference) * MULTIPLIER[res.contract] + poignees)
    if res.petit_au_bout != "none":
        unit += (10 if res.petit_au_bout == "taker" else -10) * MULTIPLIER[res.contract]
    if res.slam_announced:
        unit += 400 if res.slam == "taker" else -200
    elif res.slam != "none":
        unit += 200 if res.slam == "taker" else -200
    for s in range(PLAYERS):
        res.total[s] = (PLAYERS - 1) * unit if s == res.taker else -unit


def entries(res: Result) -> dict:
    """The deal's sheet entries in interp's shape: {'total': {seat: delta}}."""
    diff = {s: v for s, v in enumerate(res.total) if v}
    return {"total": diff} if diff else {}


def notation(kind: str, move) -> str:
    """A move as interp writes it (for the side-by-side test)."""
    return CODES[move] if isinstance(move, int) else move
