"""The table at the terminal: what happened so far (`last`, `played`, tricks taken, running counts), the menu and
what a person may type, `hint`, `undo`, `end`, pace, resume, the rules summary and event wording."""
from __future__ import annotations

import json
import random

import pytest

from interp.engine import events, match as engine, wording as prompt
from interp.engine.state import Move
from interp.errors import IllegalMoveError, SaveError
from interp.runs import replay
from interp.runs.scenario import run_scenario
from interp.table import render, rules_text
from interp.table.play import hint_text
from tests.conftest import SPECS, game_of, screen
from tests.test_cli import interp

TINY = "docs/examples/tiny.yaml"


# -- what happened so far ----------------------------------------------------------------------------------------
def test_last_and_played_tell_the_finished_tricks_as_the_records_have_them(tmp_path):
    """tiny.yaml, 2 players: after three of the person's cards, `last` names the last finished trick's two cards
    and its winner, and `played` each seat's cards: exactly the cards in the won piles and on the table."""
    match, text, _ = screen(TINY, ["1", "1", "1", "last", "played"], tmp_path)
    st = match.st
    done = events.tricks(st.events)
    assert len(done) >= 2
    last = done[-1]
    names = [f"{st.game.seat_name(s, 2)} {st.game.deck.pretty(c)}" for s, c in last.plays]
    assert f"last trick ({last.number}): {', '.join(names)} — {st.game.seat_name(last.winner, 2)} wins" in text
    played = events.played(st.events, 2)
    won = sorted(c for z in range(len(st.zones)) if st.game.zone_of(z, 2)[0].name == "won" for c in st.zones[z])
    assert sorted(played[0] + played[1]) == sorted(won + list(st.ph.get("trick", [])))
    for seat in (0, 1):
        assert f"{st.game.seat_name(seat, 2)}: {render.hand_text(st.game, played[seat])}" in text


def test_the_status_line_counts_tricks_taken(tmp_path):
    match, text, _ = screen(TINY, ["1", "1", "1", "hand"], tmp_path)
    taken = events.tricks_taken(match.st.events, 2)
    assert sum(taken) == len(events.tricks(match.st.events)) >= 2
    assert f"tricks North {taken[0]}, South {taken[1]}" in text


def test_last_and_played_before_any_card():
    game = game_of(TINY)
    view = engine.new_match(game, None, 3).view(0)
    assert render.last_trick_line(view) == "No trick has been finished yet in this deal."
    assert render.played_lines(view) == ["No card has been played yet in this deal."]


def test_played_and_last_read_only_the_viewers_records():
    """Tarot: the taker's discards are private records; a defender's view has none of their cards, and `played`
    lists only cards played to tricks."""
    game = game_of("games/tarot.yaml")
    for seed in range(30):  # a deal with a discard (a prise or a garde), two tricks into the play
        st = engine.new_match(game, 4, seed)
        rng = random.Random(seed)
        while not st.deal_over and len(events.tricks(st.events)) < 2:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        if any(e.kind == "discard" for e in st.events) and not st.deal_over:
            break
    taker = st.vars["taker"]
    defender = next(s for s in range(4) if s != taker)
    view = st.view(defender)
    discarded = [e for e in view.events if e.kind == "discard"]
    assert discarded and all(not e.cards for e in discarded)  # the others see a card go, not which
    shown = {c for cards in events.played(view.events, 4) for c in cards}
    assert shown == {c for e in st.events if e.kind == "play" for c in e.cards}
    ecart = st.zones[game.zone_id("ecart", None, 4)]
    assert ecart and not shown & set(ecart)


def test_piquet_running_count_is_the_announced_total_and_public(tmp_path):
    """Piquet declares `display.running: count` = what each player has announced (`said`, a public var): every
    seat's view shows both counts, equal to the var."""
    game = game_of("games/piquet.yaml")
    st = engine.new_match(game, 2, 4)
    rng = random.Random(4)
    while not any(st.vars["said"]) and not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    said = st.vars["said"]
    for seat in (0, 1):
        line = game.running_lines(st.view(seat))
        assert line == ["count: " + ", ".join(f"{game.seat_name(s, 2)} {said[s]}" for s in st.active)]  # elder first


def test_a_running_count_visible_to_its_owner_shows_only_the_viewers(tmp_path):
    spec = open(TINY, encoding="utf-8").read() + (
        "\ndisplay:\n  running:\n    mine: {value: \"[len(hand[s]) for s in seats]\", visible: owner}\n")
    path = tmp_path / "owner.yaml"
    path.write_text(spec, encoding="utf-8")
    from interp.spec.compiler import load_game
    game = load_game(str(path))
    st = engine.new_match(game, 2, 1)
    while not events.tricks(st.events):
        engine.apply(st, engine.legal_moves(st)[0])
    winner = events.tricks(st.events)[0].winner
    assert game.running_lines(st.view(winner)) == [f"mine: {game.seat_name(winner, 2)} 11"]


def test_a_running_count_must_be_per_seat(tmp_path):
    from interp.errors import SpecError
    from interp.spec.compiler import load_game
    path = tmp_path / "bad.yaml"
    path.write_text(open(TINY, encoding="utf-8").read() + "\ndisplay:\n  running:\n    n: \"n_players\"\n",
                    encoding="utf-8")
    with pytest.raises(SpecError, match="one value per seat") as err:
        load_game(str(path))
    assert err.value.format().startswith(f"{path}:")


# -- the menu and what may be typed --------------------------------------------------------------------------------
def _numeric_piquet_decision():
    game = game_of("games/piquet.yaml")
    for seed in range(40):
        st = engine.new_match(game, 2, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            choices = prompt.menu(st, engine.legal_moves(st))
            if prompt.numeric(choices) and len(choices) > 1:
                return st, choices
            engine.apply(st, rng.choice(engine.legal_moves(st)))
    raise AssertionError("no Piquet decision between numbers in 40 deals")


def test_a_number_where_moves_are_numbers_is_never_a_menu_position():
    """Piquet answers a point with its value (`40`, `39`): `1` is refused (not silently the first move), `[1]`
    and `#2` pick by position, and a listed number is that move."""
    st, choices = _numeric_piquet_decision()
    assert "[1] " in prompt.menu_line(choices) and "[N] or #N" in prompt.menu_line(choices)
    with pytest.raises(IllegalMoveError, match=r"no move is 1; to pick by position write \[1\]"):
        prompt.pick(st, "1", choices)
    assert prompt.pick(st, "[1]", choices) == prompt.Picked(choices[0].move, "position")
    assert prompt.pick(st, "#2", choices).move == choices[1].move
    assert prompt.pick(st, choices[1].notation, choices) == prompt.Picked(choices[1].move, "move")


def test_a_number_is_a_menu_position_where_no_move_is_a_number():
    game = game_of(TINY)
    st = engine.new_match(game, None, 7)
    choices = prompt.menu(st, engine.legal_moves(st))
    assert prompt.pick(st, "2", choices) == prompt.Picked(choices[1].move, "position")
    with pytest.raises(IllegalMoveError, match=r"no move \[99\]"):
        prompt.pick(st, "99", choices)


def test_card_moves_are_listed_as_the_hand_is_shown():
    """tiny.yaml: a lead may be any card; the menu lists them suit by suit, high to low, as `hand_text` does."""
    game = game_of(TINY)
    st = engine.new_match(game, None, 7)
    choices = prompt.menu(st, engine.legal_moves(st))
    seat = engine.to_move(st)
    hand = render.hand_text(game, st.zones[game.zone_id("hand", seat, 2)])
    listed = [c.label for c in choices]
    by_suit = [part.split() for part in hand.split("   ")]
    assert listed == [rank + part[0] for part in by_suit for rank in part[1:]]


def test_words_that_fit_one_move_pick_it_and_several_are_listed():
    """Mitten: a bare card code picks the one move with that card; a card with two moves (clear with it, or
    declare with it) is refused with both listed. Piquet's `making` picks the step written `making?`."""
    game = game_of("games/mitten.yaml")
    st = engine.new_match(game, None, 3)
    rng = random.Random(3)
    seen_one = seen_many = False
    for _ in range(60):
        if st.deal_over:
            break
        choices = prompt.menu(st, engine.legal_moves(st))
        for choice in choices:
            code = choice.notation.split()[-1]
            fits = [c for c in choices if code.lower() in c.notation.lower().split()]
            if len(fits) == 1:
                assert prompt.pick(st, code, choices) == prompt.Picked(choice.move, "words")
                seen_one = True
            else:
                with pytest.raises(IllegalMoveError, match="could mean: " + ", ".join(c.label for c in fits)):
                    prompt.pick(st, code, choices)
                seen_many = True
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert seen_one and seen_many
    making = prompt.Choice(Move("option", "equal"), "equal", "making?", 1)
    good = prompt.Choice(Move("option", "good"), "good", "good", 2)
    assert prompt.pick(st, "making", [making, good]).move == making.move


def test_what_a_person_types_is_echoed_literally(tmp_path):
    _, text, _ = screen(TINY, ["[red]x[/red]", "\x1b]0;owned\x07"], tmp_path)
    assert "'[red]x[/red]'" in text
    assert "\\x1b]0;owned\\x07" in text and "\x1b" not in text


def test_a_pick_by_position_says_what_was_chosen(tmp_path):
    match, text, _ = screen(TINY, ["1"], tmp_path)
    first = next(h for h in match.st.history if h[1] == 0)
    assert f"you chose {match.game.deck.pretty(match.game.deck.index[first[2].upper()])}" in text


# -- hint, undo, end -----------------------------------------------------------------------------------------------
def test_hint_names_a_legal_move_and_its_reason():
    game = game_of(TINY)
    st = engine.new_match(game, None, 7)
    moves = engine.legal_moves(st)
    line = hint_text(st, st.view(engine.to_move(st)), moves, seed=1, budget=300)
    labels = [engine.describe(st, m) for m in moves]
    assert line.startswith("hint: ") and line.split(" — ")[0][6:] in labels
    assert "on average over the deals it imagined, against" in line
    assert hint_text(st, st.view(0), moves[:1], seed=1) == f"hint: {labels[0]} (the only legal move)"


def test_undo_takes_back_the_persons_last_choice_and_saves_it(tmp_path):
    """Seed 1: the person (North) wins trick 3 with A♣ and is to lead; nothing was seen since, so `undo` takes
    the card back."""
    match, text, code = screen(TINY, ["1", "1", "undo"], tmp_path, seed=1)
    assert code == 0
    data = replay.load(str(tmp_path / "s.json"))
    assert data["undone"][0][1] == 0 and "Taken back: your" in text
    # the history is what was kept: the moves up to the person's A♣
    assert len(data["history"]) == len(match.st.history)
    assert engine.to_move(match.st) == 0
    again = replay.resume(str(tmp_path / "s.json"))
    assert again.state.to_json() == match.st.to_json() and again.undone == data["undone"]


def test_undo_before_any_move_of_the_deal_takes_nothing_back(tmp_path):
    _, text, _ = screen(TINY, ["undo"], tmp_path)
    assert "Nothing to take back" in text
    assert "undone" not in json.loads((tmp_path / "s.json").read_text())


def test_undone_entries_in_a_save_are_checked(good_save_path):
    data = json.loads(good_save_path.read_text())
    data["undone"] = [[1, 9, "7H"]]
    with pytest.raises(SaveError, match=r"move 1 of 'undone' is by seat 9"):
        replay.check_save(data, "x.json")
    data["undone"] = "7H"
    with pytest.raises(SaveError, match=r"'undone' must be a list"):
        replay.check_save(data, "x.json")


@pytest.fixture
def good_save_path(tmp_path):
    screen(TINY, ["1"], tmp_path)
    return tmp_path / "s.json"


def test_end_asks_first(tmp_path):
    _, text, code = screen(TINY, ["end", "no", "end", "yes"], tmp_path)
    assert "The match goes on." in text and "ended by agreement" in text and code == 0


# -- pace ------------------------------------------------------------------------------------------------------------
def test_bots_pause_after_each_card_and_longer_after_a_trick_and_enter_skips_ahead(tmp_path):
    waits = []

    def wait(seconds):
        waits.append(seconds)
        return False
    screen(TINY, ["1", "1"], tmp_path, delay=0.25, wait=wait)
    assert 0.25 in waits and 0.5 in waits
    skipped = []
    screen(TINY, ["1", "1"], tmp_path, delay=0.25, wait=lambda s: skipped.append(s) or True)
    # Enter during the first pause: no more pauses until the person's next turn
    assert len(skipped) < len(waits)


def test_piped_play_does_not_pause(tmp_path):
    """When piped, the default delay is 0: a tiny match of 12 bot cards ends without sleeping."""
    import time
    started = time.perf_counter()
    out = interp("play", TINY, "--seed", "2", "--save", str(tmp_path / "p.json"), stdin="1\n" * 3)
    assert out.returncode == 0 and time.perf_counter() - started < 30
    match, _, _ = screen(TINY, [], tmp_path)
    assert match.delay == 0


# -- resume ----------------------------------------------------------------------------------------------------------
def test_resume_shows_the_standing_and_the_position_not_the_history(tmp_path):
    save = tmp_path / "r.json"
    interp("play", TINY, "--seed", "4", "--save", str(save), stdin="1\n" * 30)
    data = json.loads(save.read_text())
    assert data["deal_no"] >= 3
    out = interp("play", "--resume", str(save), stdin="")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and lines[0].startswith("Resumed Tiny Tricks:")
    assert f"score sheet after deal {data['deal_no'] - 1}" in out.stdout
    assert "your hand:" in out.stdout and " plays " not in out.stdout  # no move of the history is retold
    assert len(lines) < 25


@pytest.mark.parametrize("content,words", [(None, "no such save file"), ('{"version": 1, "spe', "broken JSON")])
def test_a_missing_or_truncated_save_is_one_clear_line(tmp_path, content, words):
    path = tmp_path / "gone.json"
    if content is not None:
        path.write_text(content)
    out = interp("play", "--resume", str(path))
    assert out.returncode == 2 and words in out.stderr and str(path) in out.stderr.splitlines()[0]
    assert "Traceback" not in out.stderr and len(out.stderr.splitlines()) <= 2


# -- rules and wording -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", SPECS)
def test_rules_summarise_every_spec(path):
    game = game_of(path)
    lines = rules_text.summary(game)
    assert lines[0].startswith(game.name) and any(line.startswith("Deck: ") for line in lines)
    assert len([line for line in lines if line.startswith("  ") and ". " in line]) >= len(game.phases)
    if game.bids:
        assert any(" < ".join(b.label for b in game.bids) in line for line in lines)
    for name, decl in game.options.items():
        assert any(line.startswith(f"  {name} = ") and decl.get("doc", "") in line for line in lines)


def test_interp_rules_prints_the_summary():
    out = interp("rules", "games/preferans.yaml")
    assert out.returncode == 0
    assert "bids from low to high: 6♠ < 6♣" in out.stdout and "tricks: follow suit, trump when you cannot" \
        in out.stdout and "Score sheet: pool, mountain, whists" in out.stdout


def test_an_onlookers_log_tells_each_discard_once_and_groups_repeats():
    result = run_scenario("tests/scenarios/tarot/discard-forced-trumps.yaml")
    discards = [line for line in result["events"] if " discards " in line]
    assert len(discards) == 6 and all("a card" not in line for line in discards)
    assert events.grouped(["x", "x", "y"]) == ["x (×2)", "y"]


def test_a_tarot_result_says_who_pays_whom_and_no_internal_names():
    """defence-slam-excuse-led: garde contre failed by 56 with a defence slam: (25 + 56) × 6 + 200 = 686 to each
    defender (the seed's scoring: (25 + difference) × multiplier, the slam's 200 added)."""
    result = run_scenario("tests/scenarios/tarot/defence-slam-excuse-led.yaml")
    assert "each defender is paid: 686" in result["breakdown"]
    assert not any(line.startswith("each defender pays") for line in result["breakdown"])
    out = interp("run", "tests/scenarios/tarot/defence-slam-excuse-led.yaml")
    assert "card_points" not in out.stdout and "{'" not in out.stdout and "False" not in out.stdout
