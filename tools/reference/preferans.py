"""A hand-written Russian Preferans deal (3 players, Sochi), the yardstick for interp's speed.

The same rules as games/preferans.yaml with its default options, written the way one would by hand: cards are
ints (suit * 8 + rank; suits S C D H, ranks 7 8 9 10 J Q K A), bids are indexes into the ladder, plain lists and
ifs, no interp import. One call plays one deal from the shuffle to the sheet entries.

Every decision goes through `choose(kind, moves)`, which returns one of `moves`; the lists are in the order
interp's `legal_moves` gives them, so a test can drive interp and this program with the same choices.

>>> import random
>>> rng = random.Random(1)
>>> result = play_deal(rng, lambda kind, moves: moves[rng.randrange(len(moves))])
>>> sum(result.tricks) == 10 or result.tricks == [0, 0, 0] and not result.raspasy
True
"""
from __future__ import annotations

import random

SUITS = "SCDH"
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
CODES = [r + s for s in SUITS for r in RANKS]
PLAYERS = 3

# The ladder, lowest first: (name, level, strain index 0-3 or 4 for no-trump, is misère).
STRAINS = ["S", "C", "D", "H", "NT"]
LADDER = ([(f"{lv}{s}", lv, k, False) for lv in (6, 7, 8) for k, s in enumerate(STRAINS)]
          + [("misere", 10, 4, True)]
          + [(f"9{s}", 9, k, False) for k, s in enumerate(STRAINS)]
          + [("misere_nt", 10, 4, True)]
          + [(f"10{s}", 10, k, False) for k, s in enumerate(STRAINS)])
MISERE = 15
MISERE_NT = 21
PASS, HOLD = -1, -2


class Result:
    """What a deal ends with: its facts and the sheet entries (pool, mountain, whists), as interp records them."""
    __slots__ = ("raspasy", "declarer", "contract", "call", "tricks", "pool", "mountain", "whists")

    def __init__(self):
        self.raspasy, self.declarer, self.contract = False, None, None
        self.call = ["none"] * PLAYERS
        self.tricks = [0] * PLAYERS
        self.pool = [0] * PLAYERS
        self.mountain = [0] * PLAYERS
        self.whists = {}


def deal(rng: random.Random) -> tuple:
    """Shuffle and deal 2 cards at a time, the talon's 2 after a random inner packet: (hands, talon)."""
    pack = list(range(32))
    rng.shuffle(pack)
    talon_after = rng.randrange(1, 15)
    hands = [[] for _ in range(PLAYERS)]
    talon = []
    pos = 0
    for packet in range(15):
        if packet == talon_after:
            talon = pack[pos:pos + 2]
            pos += 2
        hands[packet % PLAYERS].extend(pack[pos:pos + 2])
        pos += 2
    return hands, talon


def play_deal(rng: random.Random, choose) -> Result:
    """Deal with `rng` (dealer seat 2, so seat 0 bids and leads first) and play with `choose`."""
    hands, talon = deal(rng)
    return play(hands, talon, choose)


def play(hands: list, talon: list, choose) -> Result:
    """Play a dealt deal. Seats 0, 1, 2 in bidding order (seat 2 dealt); `talon` is turned up from its end."""
    res = Result()
    high, high_by = auction(choose, res)
    if high_by < 0:
        res.raspasy = True
        raspasy(hands, talon, choose, res)
        score_raspasy(res)
        return res
    declarer = res.declarer = high_by
    hands[declarer].extend(talon)
    for _ in range(2):
        card = choose("card", sorted(hands[declarer]))
        hands[declarer].remove(card)
    if LADDER[high][3]:
        contracts = [high]
    else:
        contracts = [b for b in range(high, len(LADDER)) if not LADDER[b][3]]
    contract = res.contract = choose("bid", contracts)
    _, level, strain, misere = LADDER[contract]
    d1, d2 = (declarer + 1) % 3, (declarer + 2) % 3
    joint = 4 if level == 6 else 2 if level == 7 else 1 if level <= 9 else 0
    call = res.call
    if not misere and joint > 0:
        call[d1] = choose("option", ["whist", "pass"])
        call[d2] = choose("option", ["whist", "pass", "half"] if call[d1] == "pass" and level <= 7
                          else ["whist", "pass"])
        if call[d2] == "half":
            if choose("option", ["whist", "pass"]) == "whist":
                call[d1], call[d2] = "whist", "pass"
        whisters = [s for s in (d1, d2) if call[s] in ("whist", "half")]
        half_passed = "half" in call and len(whisters) == 1
        if len(whisters) == 1 and not half_passed:
            choose("option", ["closed", "open"])
        if not whisters or half_passed:
            res.tricks[declarer] = 10
            for s in (d1, d2):
                if call[s] == "half":
                    res.tricks[s] = joint // 2
                    res.tricks[declarer] -= joint // 2
            score_contract(res, level, joint)
            return res
    trump = strain if not misere and strain < 4 else None
    tricks(hands, trump, choose, res)
    if misere:
        value = 10
        if res.tricks[declarer] == 0:
            res.pool[declarer] += value
        res.mountain[declarer] += res.tricks[declarer] * value
    else:
        score_contract(res, level, joint)
    return res


def auction(choose, res: Result) -> tuple:
    """Bids climb one step at a time; misère only as a first call; 'hold' a bid made by a later hand; a pass is
    final. Returns (highest bid, its seat), or (-1, -1) when all pass."""
    passed = [False] * 3
    spoken = [False] * 3
    locked = [False] * 3
    high, high_by, turn = -1, -1, 0
    while True:
        if locked[turn]:
            moves = [PASS]
        else:
            moves = [PASS]
            if high_by > turn and high not in (MISERE, MISERE_NT):
                moves.append(HOLD)
            nxt = high + 1
            if nxt == MISERE or nxt == MISERE_NT:
                nxt += 1
            misere = not spoken[turn] and high < MISERE
            if misere and nxt > MISERE:
                moves.append(MISERE)
            if nxt < len(LADDER):
                moves.append(nxt)
            if misere and nxt < MISERE:
                moves.append(MISERE)
        move = choose("bid", moves)
        spoken[turn] = True
        if move == PASS:
            passed[turn] = True
        else:
            if move != HOLD:
                high = move
            high_by = turn
            if move == MISERE:
                locked[turn] = True
        left = [k for k in range(3) if not passed[k]]
        if not left or (len(left) == 1 and left[0] == high_by):
            return high, high_by
        for step in (1, 2, 3):
            k = (turn + step) % 3
            if not passed[k]:
                turn = k
                break


def tricks(hands: list, trump, choose, res: Result) -> None:
    """Ten tricks, seat 0 leads the first; follow suit, else trump if you can; the winner leads."""
    leader = 0
    for _ in range(10):
        trick = []
        led = -1
        for k in range(3):
            seat = (leader + k) % 3
            hand = hands[seat]
            if led < 0:
                moves = sorted(hand)
            else:
                moves = [c for c in hand if c >> 3 == led]
                if not moves and trump is not None:
                    moves = [c for c in hand if c >> 3 == trump]
                moves = sorted(moves or hand)
            card = choose("card", moves)
            hand.remove(card)
            if led < 0:
                led = card >> 3
            trick.append(card)
        leader = (leader + trick_winner(trick, led, trump)) % 3
        res.tricks[leader] += 1


def trick_winner(trick: list, led: int, trump) -> int:
    """Index in `trick` of the winning card: the highest trump, else the highest of the led suit."""
    best, best_key = 0, -1
    for i, card in enumerate(trick):
        suit = card >> 3
        key = 16 + (card & 7) if suit == trump else 8 + (card & 7) if suit == led else -1
        if key > best_key:
            best, best_key = i, key
    return best


def raspasy(hands: list, talon: list, choose, res: Result) -> None:
    """All passed: no trumps; the talon's cards lead tricks 1 and 2 (they never win: with nobody following, the
    trick goes to nobody) and seat 0 plays first after them; later tricks are led by their winner."""
    leader = 0
    for no in range(10):
        trick, by = [], []
        led = -1
        if no < 2:
            card = talon.pop()
            led = card >> 3
            leader = 0
        for k in range(3):
            seat = (leader + k) % 3
            hand = hands[seat]
            if led < 0:
                moves = sorted(hand)
            else:
                moves = sorted([c for c in hand if c >> 3 == led] or hand)
            card = choose("card", moves)
            hand.remove(card)
            if led < 0:
                led = card >> 3
            trick.append(card)
            by.append(seat)
        i = trick_winner(trick, led, None)
        if trick[i] >> 3 == led:  # else nobody followed the talon's card: nobody takes the trick
            res.tricks[by[i]] += 1
            if no >= 2:  # after a talon-led trick seat 0 plays first again
                leader = by[i]


def score_raspasy(res: Result) -> None:
    for s in range(3):
        res.mountain[s] += res.tricks[s]
        if res.tricks[s] == 0:
            res.pool[s] += 1


def score_contract(res: Result, level: int, joint: int) -> None:
    """Sochi: the declarer's pool or mountain; whists for the whisters' tricks and for his undertricks;
    a whister who took fewer than his share of the defenders' target goes up the mountain."""
    declarer, call, tricks = res.declarer, res.call, res.tricks
    value = 2 * level - 10
    under = max(0, level - tricks[declarer])
    if under == 0:
        res.pool[declarer] += value
    res.mountain[declarer] += under * value
    whists = res.whists
    for s in range(3):
        if s != declarer and under:
            whists[s, declarer] = whists.get((s, declarer), 0) + under * value
    whisters = [s for s in ((declarer + 1) % 3, (declarer + 2) % 3) if call[s] in ("whist", "half")]
    defence = 10 - tricks[declarer]
    for s in whisters:
        mine = defence if len(whisters) == 1 else tricks[s]
        if mine:
            whists[s, declarer] = whists.get((s, declarer), 0) + mine * value
        if call[s] == "half":
            personal = joint // 2
        elif len(whisters) == 1:
            personal = joint
        elif joint == 1:
            personal = 1 if s == whisters[1] else 0
        else:
            personal = joint // 2
        if defence < joint and mine < personal:
            res.mountain[s] += (personal - mine) * value


def entries(res: Result) -> dict:
    """The deal's sheet entries in interp's shape: {column: {seat or (writer, against): delta}}."""
    out = {}
    for name, col in (("pool", res.pool), ("mountain", res.mountain)):
        diff = {s: v for s, v in enumerate(col) if v}
        if diff:
            out[name] = diff
    whists = {k: v for k, v in sorted(res.whists.items()) if v}
    if whists:
        out["whists"] = whists
    return out


def notation(kind: str, move) -> str:
    """A move as interp writes it (for the side-by-side test)."""
    if kind == "card":
        return CODES[move]
    if kind == "bid":
        return "pass" if move == PASS else "hold" if move == HOLD else LADDER[move][0]
    return move
