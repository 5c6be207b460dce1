"""The trick phase's lean paths (per-suit card sets, one pass over the follow rules, no tuple keys when finding the
winner) against the rules written out plainly, at every card of seeded random deals: the cards a player may play
and the seat winning the trick so far must be the same.

The plain rules, as the phase's docstring states them: with `follow`, a card of the suit led (the suit of the
trick's first card that is not an escape card; none led: any card); void, with `must_trump`, a trump unless
`trump_exempt` frees the player; with `overtrump`, among those trumps the ones above the best trump in the trick
if there are any. Escape cards are always playable and never win. The trick goes to the highest trump, else to
the highest card of the suit led; a card led from a zone competes only when `lead_from.can_win` holds."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.spec.compiler import load_game
from interp.engine.phases.tricks import ZONE_SEAT, PlainTricksPhase, TricksPhase
from tests.conftest import game_of

GAMES = [("games/tarot.yaml", 4, 40), ("games/tarot-3.yaml", 3, 10), ("games/preferans.yaml", 3, 60),
         ("games/preferans-4.yaml", 4, 20), ("games/belote.yaml", 4, 20), ("games/hearts.yaml", 4, 5),
         ("games/oh-hell.yaml", 4, 10), ("games/piquet.yaml", 2, 10)]


def plain_playable(phase, st, hand: list) -> list:
    ph, deck = st.ph, st.game.deck
    suit_of, rank = deck.suit_of, ph["strength"] or deck.rank_of
    trick, esc, trump = ph["trick"], ph["escape"], ph["trump"]
    led = next((suit_of[c] for c in trick if c not in esc), None)
    if not phase.follow or led is None:
        return sorted(hand)
    free = [c for c in hand if c in esc]
    rest = [c for c in hand if c not in esc]

    def over(trumps: list) -> list:
        if not phase.overtrump:
            return trumps
        best = max((rank[c] for c in trick if suit_of[c] == trump and c not in esc), default=-1)
        return [c for c in trumps if rank[c] > best] or trumps
    same = [c for c in rest if suit_of[c] == led]
    if same:
        return sorted(free + (over(same) if led == trump else same))
    trumps = [c for c in rest if suit_of[c] == trump] if phase.must_trump and trump is not None else []
    if trumps and not phase.exempt(st):
        return sorted(free + over(trumps))
    return sorted(hand)


def plain_winner(phase, st) -> int | None:
    ph, deck = st.ph, st.game.deck
    suit_of, rank = deck.suit_of, ph["strength"] or deck.rank_of
    trick, by, esc, trump = ph["trick"], ph["by"], ph["escape"], ph["trump"]
    if trick[0] in esc and by[0] != ZONE_SEAT and phase.escape_wins is not None and phase.led_escape_wins(st):
        return by[0]
    led = next((suit_of[c] for c in trick if c not in esc), None)
    zone_can_win = by[0] != ZONE_SEAT or phase.lead_from.can_win(st)
    keys = [((2 if suit_of[c] == trump else 1), rank[c], s) for c, s in zip(trick, by)
            if c not in esc and (s != ZONE_SEAT or zone_can_win) and suit_of[c] in (trump, led)]
    best = max(keys, key=lambda k: k[:2], default=None)  # max keeps the first of equal keys
    if best is None or best[2] == ZONE_SEAT:
        return phase.lead_from.credit(st) if by[0] == ZONE_SEAT else by[0]
    return best[2]


@pytest.mark.parametrize("path,players,deals", GAMES)
def test_lean_paths_agree_with_the_plain_rules(path, players, deals):
    check_lean_paths(game_of(path), path, players, deals)


def test_the_plain_path_with_overtrump_agrees_with_the_plain_rules(tmp_path):
    """No shipped plain phase overtrumps: Preferans made to (its trick play with `overtrump: true`)."""
    text = open("games/preferans.yaml", encoding="utf-8").read()
    text = text.replace("    must_trump: true\n    won: won\n", "    must_trump: true\n    overtrump: true\n    won: won\n")
    path = tmp_path / "preferans-overtrump.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    assert any(type(p) is PlainTricksPhase and p.overtrump for p in game.phases)
    check_lean_paths(game, str(path), 3, 30)


def check_lean_paths(game, path: str, players: int, deals: int) -> None:
    seen = {"follow": 0, "trick won": 0}
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            if isinstance(phase, PlainTricksPhase):  # its legal moves: the plain rules' cards, leads included
                ph = st.ph
                hand = st.zones[st.zone_ids[phase.hand][ph["order"][ph["turn"]]]]
                want = [game.card_moves[c] for c in plain_playable(phase, st, hand)]
                assert engine.legal_moves(st) == want == phase.legal(st), (path, seed, ph["trick"])
            if phase.type_name == "tricks" and st.ph["trick"]:
                ph = st.ph
                hand = st.zones[st.zone_ids[phase.hand][ph["order"][ph["turn"]]]]
                assert phase.playable(st, hand) == plain_playable(phase, st, hand), (path, seed, ph["trick"])
                assert phase.winner(st) == plain_winner(phase, st), (path, seed, ph["trick"], ph["by"])
                seen["follow"] += 1
                seen["trick won"] += len(ph["trick"]) == len(ph["order"]) - 1
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    assert seen["follow"] > 0 and seen["trick won"] > 0


def test_the_seeded_deals_reach_the_rare_cases():
    """The deals above include tricks led by an escape card (Tarot's Excuse) and tricks led from a zone
    (Preferans' all-pass talon), so the paths for both are compared too."""
    escape_led = zone_led = 0
    for path, players, deals in GAMES[:3]:
        game = game_of(path)
        for seed in range(deals):
            st = engine.new_match(game, players, seed)
            rng = random.Random(seed)
            while not st.deal_over:
                phase = engine.current_phase(st)
                if phase.type_name == "tricks" and len(st.ph["trick"]) == 1:
                    escape_led += st.ph["trick"][0] in st.ph["escape"]
                    zone_led += st.ph["by"][0] == ZONE_SEAT
                moves = engine.legal_moves(st)
                engine.apply(st, moves[rng.randrange(len(moves))])
    assert escape_led > 0 and zone_led > 0


def test_suit_sets_hold_every_card_of_their_suit_once():
    game = game_of("games/tarot.yaml")
    phase = next(p for p in game.phases if p.type_name == "tricks")
    by_suit = phase.suit_cards(game.deck)
    assert sorted(c for cards in by_suit.values() for c in cards) == list(range(len(game.deck)))
    assert all(game.deck.suit_of[c] == suit for suit, cards in by_suit.items() for c in cards)
    assert len(by_suit["T"]) == 21  # Tarot: the 21 trumps (suit T; the Excuse has its own, X)


def tarot_at_first_follow():
    """A seeded Tarot deal at its first trick, one card played (the phase's state is then set by hand)."""
    game = game_of("games/tarot.yaml")
    st = engine.new_match(game, 4, 3)
    rng = random.Random(3)
    while not (engine.current_phase(st) is not None and engine.current_phase(st).type_name == "tricks"):
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    return game, st, engine.current_phase(st)


@pytest.mark.parametrize("codes,winner", [(["T5", "T21", "T3"], 0),     # trumps led: the escape 21 is passed over
                                          (["KS", "T21", "QS"], 0),     # a plain suit led: the escape 21 trumps nothing
                                          (["KS", "T21", "T3"], 2),     # … and the 3 of trumps after it takes the trick
                                          (["QS", "KS", "EX", "T1"], 3)])
def test_an_escape_card_of_the_suit_led_or_of_trumps_never_wins(codes, winner):
    """Escape cards never win a trick (the phase's docstring), whatever their suit: here the 21 of trumps is made
    an escape card too (as Tarot's petit sec makes the Petit one), so the lean winner must pass it over both when
    trumps are led and when it comes as a trump on a plain suit."""
    game, st, phase = tarot_at_first_follow()
    ph = st.ph
    ph["escape"] = [game.deck.index["EX"], game.deck.index["T21"]]
    ph["trick"], ph["by"] = [game.deck.index[c] for c in codes], list(range(len(codes)))
    assert phase.winner(st) == winner == plain_winner(phase, st)


def test_on_trick_reading_winner_only_counts_every_trick_for_its_winner():
    """Preferans' `on_trick: tricks[winner] += 1` gets its locals bound without a dict: after each deal every seat's
    count is the number of tricks logged as won by it, ten tricks in all with those credited to nobody (a talon
    card winning in an all-pass deal), and no local is left bound."""
    game = game_of("games/preferans.yaml")
    played = 0
    for seed in range(15):
        st = engine.new_match(game, 3, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
            assert not st.loc
        tricks = [e.seat for e in st.events if e.kind == "trick"]
        if tricks:  # a deal thrown in before the play has none
            played += 1
            assert st.vars["tricks"] == [tricks.count(s) for s in range(3)] and len(tricks) == 10
    assert played >= 10


def test_a_shared_play_event_says_who_played_what():
    """The `play` events come from a table built once per seat and card and shared by every deal: each still names
    the seat to play and the card it chose (the goldens check the whole event log)."""
    game = game_of("games/preferans.yaml")
    for seed in range(3):
        st = engine.new_match(game, 3, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            moves = engine.legal_moves(st)
            move = moves[rng.randrange(len(moves))]
            if phase.type_name == "tricks":
                seat = phase.actor(st)
                engine.apply(st, move)
                played = next(e for e in reversed(st.events) if e.kind == "play")
                assert (played.seat, played.cards, played.phase) == (seat, (move.value,), phase.id)
            else:
                engine.apply(st, move)


@pytest.mark.parametrize("path,plain", [("games/preferans.yaml", {"play", "raspasy"}), ("games/tarot.yaml", set()),
                                        ("games/belote.yaml", set()), ("games/oh-hell.yaml", {"play"})])
def test_a_phase_without_escape_allowed_exemption_or_announcements_takes_the_plain_path(path, plain):
    """PlainTricksPhase is chosen when the phase compiles: Preferans' phases and Oh Hell's have none of `escape`,
    `allowed`, `trump_exempt`, `announcements`; Tarot's has an escape card and announcements, Belote's an
    exemption, `allowed` and announcements."""
    game = game_of(path)
    tricks = [p for p in game.phases if isinstance(p, TricksPhase)]
    assert {p.id for p in tricks if type(p) is PlainTricksPhase} == plain
    assert all(type(p) is TricksPhase for p in tricks if p.id not in plain)


def test_a_shared_trick_event_names_the_winner_and_the_trick_number():
    """The `trick` events come from a table by winner and number shared by every deal: in each deal they are
    numbered 1 to 10 in order, and each names the seat the plain rules make the winner (checked as its last card
    is played)."""
    game = game_of("games/preferans.yaml")
    for seed in range(6):
        st = engine.new_match(game, 3, seed)
        rng = random.Random(seed)
        expected = []
        while not st.deal_over:
            phase = engine.current_phase(st)
            moves = engine.legal_moves(st)
            move = moves[rng.randrange(len(moves))]
            ph = st.ph
            if phase.type_name == "tricks" and len(ph["trick"]) == len(ph["order"]) - 1:
                ph["trick"].append(move.value)
                ph["by"].append(ph["order"][ph["turn"]])
                expected.append(plain_winner(phase, st))
                ph["trick"].pop(), ph["by"].pop()
            engine.apply(st, move)
        tricks = [e for e in st.events if e.kind == "trick"]
        assert [e.value for e in tricks] == list(range(1, len(tricks) + 1))
        assert [e.seat for e in tricks] == expected
