"""The tricks phase (interp/engine/phases/tricks.py): the cards a player may play, the trick's winner, the order
of play, the events a trick phase logs and the per-card tables it works out.

At every card of seeded random deals, the cards a player may play and the seat winning the trick so far are those
of the rules written out plainly below (`plain_playable`, `plain_winner`), whichever path the phase takes (per-suit
card sets, one pass over the follow rules). The plain rules, as the phase's docstring states them: with `follow`,
a card of the suit led (the suit of the trick's first card that is not an escape card; none led: any card); void,
with `must_trump`, a trump unless `trump_exempt` frees the player; with `overtrump`, among those trumps the ones
above the best trump in the trick if there are any. Escape cards are always playable and never win. The trick
goes to the highest trump, else to the highest card of the suit led; a card led from a zone competes only when
`lead_from.can_win` holds.

The `tricks` event a phase logs when it starts is shared by every deal with the same trump and escape cards (as
the `play` and `trick` events are): each start logs the event it would have made itself, naming that deal's trump
and escape cards. Per-card tables (escape cards, an expression's strength or points) are remembered by what they
read: the same inputs give the same table without evaluating the expression again, different inputs a fresh one."""
from __future__ import annotations

import glob
import os
import random
import re

import pytest

from interp.engine import match as engine
from interp.engine.phases.trick_rules import ZONE_SEAT
from interp.engine.phases.tricks import FilteredTricksPhase, LeanTricksPhase, PlainTricksPhase, TricksPhase
from interp.engine.state import Event
from interp.spec.compiler import load_game
from tests.conftest import game_of
from tests.engine.test_progress import trick_decisions

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
def test_the_playable_cards_and_the_trick_winner_are_those_of_the_plain_rules(path, players, deals):
    check_against_the_plain_rules(game_of(path), path, players, deals)


def test_the_plain_path_with_overtrump_agrees_with_the_plain_rules(tmp_path):
    """No shipped plain phase overtrumps: Preferans made to (its trick play with `overtrump: true`)."""
    text = open("games/preferans.yaml", encoding="utf-8").read()
    text = text.replace("    must_trump: true\n    won: won\n", "    must_trump: true\n    overtrump: true\n    won: won\n")
    path = tmp_path / "preferans-overtrump.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    assert any(type(p) is PlainTricksPhase and p.overtrump for p in game.phases)
    check_against_the_plain_rules(game, str(path), 3, 30)


def check_against_the_plain_rules(game, path: str, players: int, deals: int) -> None:
    seen = {"follow": 0, "trick won": 0}
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            if type(phase) is PlainTricksPhase:  # its legal moves: the plain rules' cards, leads included
                ph = st.ph
                hand = st.zones[st.zone_ids[phase.hand][ph["order"][ph["turn"]]]]
                want = [game.card_moves[c] for c in plain_playable(phase, st, hand)]
                assert engine.legal_moves(st) == want == phase.legal(st), (path, seed, ph["trick"])
            if phase.type_name == "tricks" and st.ph["trick"]:
                ph = st.ph
                hand = st.zones[st.zone_ids[phase.hand][ph["order"][ph["turn"]]]]
                assert phase.playable(st, hand) == plain_playable(phase, st, hand), (path, seed, ph["trick"])
                assert phase.winner(st) == plain_winner(phase, st), (path, seed, ph["trick"], ph["by"])
                if phase.allowed is None:  # the cards legal_moves offers, whichever path it takes (LeanTricksPhase…)
                    cards = [m for m in engine.legal_moves(st) if m.kind == "card"]
                    assert cards == [game.card_moves[c] for c in plain_playable(phase, st, hand)], (path, seed)
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
    an escape card too (as Tarot's petit sec makes the Petit one), so the phase's winner must pass it over both when
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


@pytest.mark.parametrize("path,plain,filtered,lean", [
    ("games/preferans.yaml", {"play", "raspasy"}, set(), set()), ("games/tarot.yaml", set(), set(), {"play"}),
    ("games/belote.yaml", set(), set(), set()), ("games/oh-hell.yaml", {"play"}, set(), set()),
    ("games/hearts.yaml", set(), {"play"}, set()), ("games/piquet.yaml", set(), {"play"}, set()),
    ("games/euchre.yaml", set(), set(), set())])
def test_a_phase_without_escape_exemption_or_announcements_takes_a_lean_path(path, plain, filtered, lean):
    """The class is chosen when the phase compiles: Preferans' phases and Oh Hell's have none of `escape`,
    `allowed`, `trump_exempt`, `announcements` (PlainTricksPhase); Hearts' and Piquet's only an `allowed`
    (FilteredTricksPhase); Tarot's has an escape card and announcements on printed suits and fixed rules
    (LeanTricksPhase); Belote's an exemption, `allowed` and announcements, Euchre's a `suit` (TricksPhase)."""
    game = game_of(path)
    tricks = [p for p in game.phases if isinstance(p, TricksPhase)]
    assert {p.id for p in tricks if type(p) is PlainTricksPhase} == plain
    assert {p.id for p in tricks if type(p) is FilteredTricksPhase} == filtered
    assert {p.id for p in tricks if type(p) is LeanTricksPhase} == lean
    assert all(type(p) is TricksPhase for p in tricks if p.id not in plain | filtered | lean)


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


def made(phase, st) -> Event:
    """The event a start makes from the phase's progress, written out plainly."""
    return Event("tricks", None, tuple(st.ph["escape"]), st.ph["trump"], phase=phase.id)


@pytest.mark.parametrize("path,players,deals,trumps", [("games/preferans.yaml", 3, 60, 4),
                                                       ("games/tarot.yaml", 4, 8, 1)])
def test_each_start_logs_the_trump_and_escape_cards_of_its_deal(path, players, deals, trumps):
    """Preferans: the trump is the contract's suit, none in no-trump contracts and all-pass deals (seed:
    contracts by suit); Tarot: the trumps are always T and the Excuse is an escape card (rules digest)."""
    game = game_of(path)
    seen = set()
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        started = None
        while not st.deal_over:
            phase = engine.current_phase(st)
            if phase.type_name == "tricks" and started is not phase:
                started = phase
                logged = [e for e in st.events if e.kind == "tricks"][-1]
                assert logged == made(phase, st) and type(logged) is Event, (path, seed)
                seen.add(logged.value)
                if path.endswith("tarot.yaml"):
                    assert logged.value == "T" and logged.cards == (game.deck.parse("EX"),)
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    assert len(seen) >= trumps  # Preferans: several suits and none


def test_a_start_with_other_escape_cards_logs_them():
    """Tarot, petit sec played on (rules digest): the Petit is an escape card beside the Excuse. Starting the trick
    phase again with and without that flag logs each time the cards it marks, though the trump is the same."""
    game = game_of("games/tarot.yaml")
    st = engine.new_match(game, 4, 5)
    rng = random.Random(5)
    while engine.current_phase(st).type_name != "tricks":
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    phase = engine.current_phase(st)
    excuse, petit = game.deck.parse("EX"), game.deck.parse("T1")
    for flag, cards in [(True, (petit, excuse)), (False, (excuse,)), (True, (petit, excuse))]:
        st.vars["petit_escape"] = flag
        phase.start(st)
        assert st.events[-1] == made(phase, st)
        assert sorted(st.events[-1].cards) == sorted(cards) and st.events[-1].value == "T"


@pytest.fixture(scope="module")
def tarot():
    return game_of("games/tarot.yaml")


def tricks_of(game):
    return next(p for p in game.phases if p.type_name == "tricks")


def test_escape_cards_follow_the_var_they_read(tarot):
    """Tarot (rules digest, petit sec played on): the Excuse is always an escape card; the Petit is one only when
    `petit_escape` is set. The remembered table is keyed by that var, so switching it back and forth gives the
    right cards each time."""
    phase = tricks_of(tarot)
    assert phase.escape_memo is not None and phase.escape_memo.key is not None  # it reads one plain var
    st = engine.new_match(tarot, 4, 1)
    excuse, petit = tarot.deck.parse("EX"), tarot.deck.parse("T1")
    for flag, expected in [(False, [excuse]), (True, sorted([excuse, petit])), (False, [excuse]),
                           (True, sorted([excuse, petit]))]:
        st.vars["petit_escape"] = flag
        assert sorted(phase.escape_cards(st)) == expected


def test_a_remembered_table_is_a_copy(tarot):
    phase = tricks_of(tarot)
    st = engine.new_match(tarot, 4, 2)
    st.vars["petit_escape"] = False
    first = phase.escape_cards(st)
    first.append(0)
    assert phase.escape_cards(st) == [tarot.deck.parse("EX")]


def test_on_trick_is_given_the_locals_its_text_and_defines_may_read(tmp_path):
    """`on_trick` gets `winner` and `trick_no`, and of the other trick locals those its words (through defines)
    name: a define reading `last` makes the phase bind `last`, and a deal plays through with it."""
    text = open("games/preferans.yaml", encoding="utf-8").read()
    text = text.replace("define:\n", "define:\n  closing(k): \"if last then k else k\"\n", 1)
    old = '    on_trick: "tricks[winner] += 1"\n'
    assert old in text
    text = text.replace(old, '    on_trick: "tricks[winner] += closing(1)"\n', 1)
    path = tmp_path / "preferans.yaml"
    path.write_text(text, encoding="utf-8")
    from interp.spec.compiler import load_game
    game = load_game(str(path))
    phases = [p for p in game.phases if p.type_name == "tricks"]
    assert phases[0].trick_locals == {"winner", "last"}
    assert phases[1].trick_locals == {"winner"}  # raspasy's on_trick is unchanged
    st = engine.new_match(game, 3, 4)
    while not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert sum(st.vars["tricks"]) == 10


def test_preferans_tricks_need_only_the_winner():
    preferans = game_of("games/preferans.yaml")
    assert {p.id: p.trick_locals for p in preferans.phases if p.type_name == "tricks"} == \
        {"play": {"winner"}, "raspasy": {"winner"}}


@pytest.mark.parametrize("path,players", [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4),
                                          ("games/tarot.yaml", 4), ("games/oh-hell.yaml", 4),
                                          ("games/hearts.yaml", 4), ("games/belote.yaml", 4)])
def test_the_order_of_play_is_the_players_from_the_leader_on(path, players):
    """The orders of play are remembered by leader and shared by every deal with the same players: at every card
    of seeded deals the order must be the players in turn from the trick's leader (the last trick's winner, or
    the first; a trick led from a zone has its own `then`), and the seat to play the one at `turn`."""
    game = game_of(path)
    seen = 0
    for st in trick_decisions(game, players, 4):
        ph = st.ph
        order, seats = ph.order, ph.players
        k = seats.index(order[0])
        assert order == seats[k:] + seats[:k]
        if not ph.trick or ph.by[0] >= 0:  # (ZONE_SEAT < 0)
            assert order[0] == ph.leader and ph.by == order[:len(ph.by)]
            seen += 1
        assert engine.actor(st) == order[ph.turn]
    assert seen >= 10


@pytest.mark.parametrize("path,players,deals", [("games/hearts.yaml", 4, 12), ("games/belote.yaml", 4, 8),
                                                ("games/piquet.yaml", 2, 8)])
def test_the_allowed_filter_keeps_the_cards_its_condition_allows_one_by_one(path, players, deals):
    """A phase's `allowed` runs as one filter over the cards (compile_filter); at every card of seeded deals it
    keeps, of the cards the follow rules allow, those for which the spec's condition, compiled on its own and asked
    card by card, holds (all of them when it allows none), on the lean path (Hearts, Piquet) and the general
    one (Belote) alike."""
    from interp.dsl.compile import SourceRef, compile_expr
    game = game_of(path)
    texts = {p.id: spec["allowed"] for p, spec in zip(game.phases, load_spec_phases(path)) if "allowed" in spec}
    locals_ = {"me": ("seat", None), "card": ("card", None), "trick_no": ("int", None), "cards": ("list[card]", None)}
    conditions = {pid: compile_expr(text, game.scope, "bool", SourceRef(), locals_)[0] for pid, text in texts.items()}
    asked = narrowed = 0
    for seed in range(deals):
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            if phase.id in conditions:
                ph = st.ph
                seat = ph.order[ph.turn]
                cards = phase.playable(st, st.zones[st.zone_ids[phase.hand][seat]])
                want = []
                for card in cards:
                    st.loc.update({"me": seat, "card": card, "trick_no": ph.no + 1, "cards": list(ph.trick)})
                    if conditions[phase.id](st):
                        want.append(card)
                    st.loc.clear()
                assert phase.permitted(st, seat, cards) == (want or cards), (path, seed, ph.no, ph.trick)
                cards_legal = [m for m in engine.legal_moves(st) if m.kind == "card"]  # (Belote: calls too)
                assert cards_legal == [game.card_moves[c] for c in want or cards]
                asked += 1
                narrowed += 0 < len(want) < len(cards)
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    assert asked > 0 and narrowed > 0


def load_spec_phases(path: str) -> list:
    """The `phases` of the spec file at `path`, as written."""
    import yaml
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)["phases"]


@pytest.mark.parametrize("path,players", [("games/preferans.yaml", 3), ("games/oh-hell.yaml", 4)])
def test_a_plain_winner_by_card_powers_is_that_of_the_plain_rules_under_every_trump(path, players):
    """A plain phase in the deck's rank order finds the winner by each card's power for the trump and suit led
    (TrickWinner.power_table): for random tricks under each trump and none, the seat the plain rules make the
    winner. Worked example (no trump): 10♥ led, A♠, K♥ → K♥, the highest heart; with spades trumps, A♠."""
    game = game_of(path)
    st = engine.new_match(game, players, 1)
    rng = random.Random(1)
    while not isinstance(engine.current_phase(st), PlainTricksPhase):
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    phase, ph, index = engine.current_phase(st), st.ph, game.deck.index
    ph["trick"], ph["by"] = [index["10H"], index["AS"], index["KH"]], [0, 1, 2]
    for trump, winner in [(None, 2), ("S", 1)]:
        ph["trump"] = trump
        assert phase.winner(st) == winner == plain_winner(phase, st)
    for trump in [None] + list(game.deck.suits):
        ph["trump"] = trump
        for _ in range(200):
            ph["trick"] = rng.sample(range(len(game.deck)), players)
            ph["by"] = rng.sample(range(players), players)
            assert phase.winner(st) == plain_winner(phase, st), (trump, ph["trick"])




def has_allowed_tricks(path: str) -> bool:
    """Whether the spec file at `path`, or the one it `extends`, has a `tricks` phase with `allowed` (read as text:
    no game is loaded to collect the tests)."""
    text = open(path, encoding="utf-8").read()
    if any("type: tricks" in phase and "\n    allowed:" in phase for phase in text.split("\n  - id:")):
        return True
    base = re.search(r"^extends: *(\S+)", text, re.M)
    if base is None:
        return False
    name = base.group(1) if base.group(1).endswith(".yaml") else base.group(1) + ".yaml"
    return has_allowed_tricks(os.path.join(os.path.dirname(path), name))


ALLOWED_GAMES = sorted(path for path in glob.glob("games/*.yaml") if has_allowed_tricks(path))


@pytest.mark.parametrize("path", ALLOWED_GAMES)
def test_the_allowed_filter_given_its_locals_as_arguments_keeps_what_it_keeps_with_them_bound(path):
    """Every shipped phase with `allowed` compiles it as a filter taking `me`, `trick_no`, `cards` and the cards as
    arguments (compile_filter_args); at every card of seeded deals it keeps what the same filter keeps with them
    bound in ctx.loc (compile_filter's), from the cards the follow rules allow, and the legal moves play those."""
    from interp.dsl.compile import ITEMS
    from interp.engine.phases.base import with_locals
    game = game_of(path)
    phases = [p for p in game.phases if p.type_name == "tricks" and p.allowed is not None]
    assert phases and all(p.allowed_args is not None for p in phases)
    asked = 0
    for seed in range(3):
        st = engine.new_match(game, game.default_players, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            phase = engine.current_phase(st)
            if phase in phases:
                ph = st.ph
                seat = ph.order[ph.turn]
                cards = phase.playable(st, st.zones[st.zone_ids[phase.hand][seat]])
                bound = with_locals(st, {"me": seat, "trick_no": ph.no + 1, "cards": list(ph.trick), ITEMS: cards},
                                    phase.allowed) or cards
                assert phase.allowed_args(st, seat, ph.no + 1, list(ph.trick), cards) or cards == bound
                assert [m for m in engine.legal_moves(st) if m.kind == "card"] == [game.card_moves[c] for c in bound]
                asked += 1
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
    assert asked > 0
