"""`interp score`: what a score input or a person at the terminal may get wrong, and how it is refused.

From a file: a located message (file:line:column) with a hint, exit 2, and nothing on stdout (no sheet is
written from a file with one bad deal). At the terminal: an impossible answer is refused with the reason and asked
again; `undo` takes back the last recorded deal. The constraints are the spec's (`min`, `max`, `check:` under
facts): Preferans' tricks add up to 10, Tarot's oudlers are 0-3 and its card points 0-91.
"""
from __future__ import annotations

import json
import os

import pytest
import yaml  # type: ignore[import-untyped]

from interp.spec.compiler import load_game
from interp.table.scorekeeper import keep_score, new_sheet, with_names
from tests.conftest import ROOT
from tests.scenario_helpers import run_cli

PREFERANS = ["games/preferans.yaml", "players: 3\ndealer: South\ndeals:\n"
             "  - {raspasy: true, tricks: {West: 3, North: 4, South: 3}}\n"]
TAROT = ["games/tarot.yaml", "players: 4\ndealer: Anne\ndeals:\n"
         "  - {taker: Anne, contract: garde, oudlers: 2, card_points: 50}\n"]


class _Proc:
    """What a run of `interp score` left: exit code, stdout, stderr (run in process: the suite stays quick)."""

    def __init__(self, argv: list, stdin: str):
        self.returncode, self.stdout, self.stderr = run_cli(argv, stdin)


def _score(spec: str, path: str, *more: str, stdin: str = "") -> _Proc:
    return _Proc(["score", spec, *more] + (["--input", path] if path else []), stdin)


def _sub(old: str, new: str):
    def edit(text):
        assert old in text
        return text.replace(old, new, 1)
    return edit


BROKEN = [  # (what, game, edit, the text the location points into, words of the message)
    ("unknown key", PREFERANS, _sub("dealer:", "dealr:"), "dealr:", "unknown key 'dealr'"),
    ("unknown option", PREFERANS, _sub("dealer: South", "dealer: South\noptions: {nosuch: 1}"), "options:",
     "unknown option 'nosuch'"),
    ("option .inf", PREFERANS, _sub("dealer: South", "dealer: South\noptions: {pool_target: .inf}"), "options:",
     "pool_target"),
    ("deals not a list", PREFERANS, _sub("deals:\n  - ", "deals: "), "deals:", "deals: should be a list"),
    ("empty deal entry", PREFERANS, lambda t: t + "  -   # empty\n", "# empty", "deal 2 is empty"),
    ("a deal as a list", PREFERANS, lambda t: t + "  - [raspasy]\n", "[raspasy]", "deal 2 is not a mapping"),
    ("huge player count", PREFERANS, _sub("players: 3", "players: 1" + "0" * 13), "players:", "is for 3, 4 players, not 10000000000000"),
    ("endless player count", PREFERANS, _sub("players: 3", "players: 1" + "0" * 40), "players:",
     "players: this number has more than 15 digits"),
    ("players as text", PREFERANS, _sub("players: 3", "players: many"), "players:", "players: should be"),
    ("unknown fact", PREFERANS, _sub("raspasy: true", "raspassy: true, raspasy: true"), "raspassy",
     "unknown fact 'raspassy'"),
    ("unknown seat", PREFERANS, _sub("West: 3", "Wes: 3"), "Wes: 3", "no seat 'Wes'"),
    ("tricks that do not add up", PREFERANS, _sub("West: 3, North: 4, South: 3", "West: 9, North: 9, South: 9"),
     "tricks:", "the tricks of a deal add up to 10"),
    ("negative tricks", PREFERANS, _sub("West: 3, North: 4", "West: -3, North: 10"), "West: -3",
     "tricks of West is from 0 to 10, not -3"),
    ("10^400 card points", TAROT, _sub("card_points: 50", "card_points: 1" + "0" * 400), "card_points",
     "card_points: this number has more than 15 digits"),
    (".inf card points", TAROT, _sub("card_points: 50", "card_points: .inf"), "card_points", "not a finite number"),
    ("92 card points", TAROT, _sub("card_points: 50", "card_points: 92"), "card_points", "from 0 to 91, not 92"),
    ("five oudlers", TAROT, _sub("oudlers: 2", "oudlers: 5"), "oudlers", "oudlers is from 0 to 3, not 5"),
    ("a fact missing", TAROT, _sub("oudlers: 2, ", ""), "- {taker", "oudlers is missing"),
    ("a mapping, not a list", PREFERANS, lambda t: "- 1\n", None, "a score input is a mapping"),
]


@pytest.mark.parametrize("what,game,edit,needle,words", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_bad_score_input_is_located_and_nothing_is_written(tmp_path, what, game, edit, needle, words):
    spec, text = game
    path = tmp_path / "deals.yaml"
    path.write_text(edit(text), encoding="utf-8")
    proc = _score(spec, str(path))
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    head = proc.stderr.splitlines()[0]
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if needle in t) if needle else 1
    assert head.startswith(f"{path}:{line}:"), head
    assert words in head, proc.stderr
    assert "hint:" in proc.stderr or needle is None


def test_the_shipped_score_inputs_meet_the_constraints():
    """Every input in tests/score_inputs/ scores (the deals recorded at real tables are possible ones)."""
    for name in sorted(os.listdir(os.path.join(ROOT, "tests", "score_inputs"))):
        spec = {"piquet-rubicon-tie": "piquet-rubicon", "preferans-3": "preferans", "preferans-4": "preferans-4",
                "tarot-3": "tarot-3", "tarot-4": "tarot", "tarot-5": "tarot-5",
                "belote-two-litiges": "belote"}.get(name[:-5], name[:-5])
        proc = _score(f"games/{spec}.yaml", f"tests/score_inputs/{name}", "--json")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["deals"]


def test_the_terminal_refuses_impossible_tricks_and_asks_again():
    """Raspasy with 9/9/9 tricks is refused with the spec's message; 3/4/3 is then taken."""
    answers = "\n".join(["y", "9", "9", "9", "3", "4", "3"]) + "\n"
    proc = _score("games/preferans.yaml", "", "--json", "-o", "pool_target=30", stdin=answers)
    assert proc.returncode == 0, proc.stderr
    assert "the tricks of a deal add up to 10 — answer again" in proc.stderr
    deals = json.loads(proc.stdout)["deals"]
    assert len(deals) == 1 and deals[0]["facts"]["tricks"] == {"West": 3, "North": 4, "South": 3}


def test_the_terminal_refuses_a_value_out_of_range_at_once():
    answers = "\n".join(["y", "11", "3", "4", "3"]) + "\n"
    proc = _score("games/preferans.yaml", "", "--json", stdin=answers)
    assert "tricks of West is from 0 to 10, not 11" in proc.stderr
    assert json.loads(proc.stdout)["deals"][0]["facts"]["tricks"] == {"West": 3, "North": 4, "South": 3}


def test_undo_takes_back_the_last_deal():
    """Deal 1 is entered as West 7H (value 4), North whisting alone, with the wrong tricks 7/3/0; `undo` at
    deal 2's first question takes it back, and deal 1 is entered again as West 9, North 1: West's pool +4, North's
    whists 1 x 4 = 4 on West, and North, short of the 2 tricks a lone whister owes at 7, mountain (2 - 1) x 4 = 4."""
    first = ["n", "West", "7H", "whist", "pass"]
    answers = "\n".join(first + ["7", "3", "0", "undo"] + first + ["9", "1", "0"]) + "\n"
    proc = _score("games/preferans.yaml", "", "--json", stdin=answers)
    assert proc.returncode == 0, proc.stderr
    assert "deal 1 taken back: answer it again" in proc.stderr
    out = json.loads(proc.stdout)
    assert [d["deal"] for d in out["deals"]] == [1]
    assert out["deals"][0]["entries"] == {"pool": {"West": 4}, "mountain": {"North": 4}, "whists": {"North>West": 4}}


def test_undo_before_any_deal_says_there_is_nothing_to_undo():
    proc = _score("games/preferans.yaml", "", "--json", stdin="undo\ny\n3\n4\n3\n")
    assert "nothing to undo" in proc.stderr
    assert len(json.loads(proc.stdout)["deals"]) == 1


# -- names, the sheet after each deal, nothing lost ------------------------------------------------------------------
DEAL_1 = ["n", "bruno", "7H", "whist", "pass", "9", "1", "0"]  # Bruno declares 7H, Claire whists alone: 9/1/0


def test_players_names_are_the_seats_names_in_questions_answers_and_the_sheet(tmp_path):
    """Preferans with --names Anne,Bruno,Claire: the questions offer the names, `bruno` answers for seat 2 (any
    case), and the deal is scored as test_undo_takes_back_the_last_deal's West 9 / North 1 is: Bruno's pool +4,
    Claire's whists 1 x 4 = 4 on Bruno and her mountain (2 - 1) x 4 = 4."""
    proc = _score("games/preferans.yaml", "", "--json", "--names", "Anne,Bruno,Claire",
                  stdin="\n".join(DEAL_1) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert "Declarer [Anne/Bruno/Claire]" in proc.stderr
    out = json.loads(proc.stdout)
    assert out["deals"][0]["entries"] == {"pool": {"Bruno": 4}, "mountain": {"Claire": 4},
                                          "whists": {"Claire>Bruno": 4}}


def test_names_that_do_not_fit_are_refused_in_one_line():
    proc = _score("games/preferans.yaml", "", "--names", "Anne,anne,Claire", stdin="")
    assert proc.returncode == 2 and "two players have the same name" in proc.stderr
    proc = _score("games/preferans.yaml", "", "--players", "3", "--names", "Anne,Bruno", stdin="")
    assert proc.returncode == 2 and "2 player names for 3 players" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_sheet_is_shown_after_each_deal_not_only_at_the_end():
    proc = _score("games/preferans.yaml", "", "--names", "Anne,Bruno,Claire", stdin="\n".join(DEAL_1) + "\n")
    after = proc.stdout.index("score sheet after deal 1")
    assert after < proc.stdout.index("— deal 2, dealer Bruno —")
    assert "│ Claire │    0 │        4 │" in proc.stdout[after:]


def test_the_deals_entered_are_saved_after_each_one_and_resume(tmp_path):
    """Deal 1 entered, then the input ends at deal 2's first question: the save holds deal 1 as typed (an input
    file, names included) and says how to resume; `--resume` scores it again and asks deal 2 (all passed: y, then
    tricks 3/4/3), and the save then holds both."""
    save = tmp_path / "score.yaml"
    proc = _score("games/preferans.yaml", "", "--names", "Anne,Bruno,Claire", "--save", str(save),
                  stdin="\n".join(DEAL_1) + "\n")
    assert proc.returncode == 0 and f"--resume {save}" in proc.stdout
    saved = yaml.safe_load(save.read_text())
    assert saved["names"] == ["Anne", "Bruno", "Claire"] and saved["dealer"] == "Anne"
    assert saved["deals"] == [{"raspasy": "n", "declarer": "bruno", "contract": "7H",
                               "call": {"Claire": "whist", "Anne": "pass"},
                               "tricks": {"Bruno": "9", "Claire": "1", "Anne": "0"}}]
    proc = _score("games/preferans.yaml", "", "--json", "--resume", str(save), stdin="y\n3\n4\n3\n")
    assert proc.returncode == 0, proc.stderr
    deals = json.loads(proc.stdout)["deals"]
    assert [d["dealer"] for d in deals] == ["Anne", "Bruno"]
    assert deals[0]["entries"]["pool"] == {"Bruno": 4}
    assert len(yaml.safe_load(save.read_text())["deals"]) == 2


def test_a_save_path_holding_something_else_is_refused_and_left_as_it_was(tmp_path):
    notes = tmp_path / "notes.yaml"
    notes.write_text("my notes: keep them\n")
    proc = _score("games/preferans.yaml", "", "--save", str(notes), stdin="\n".join(DEAL_1) + "\n")
    assert proc.returncode == 2 and "is not a score file of interp; it is left as it is" in proc.stderr
    assert "Traceback" not in proc.stderr and notes.read_text() == "my notes: keep them\n"


def test_ctrl_c_keeps_the_deals_recorded_and_their_save():
    """keep_score: Ctrl-C in the middle of deal 2 returns the sheet after deal 1, and the last save written holds
    deal 1 alone (written when it was recorded, never half a deal)."""
    answers = iter(DEAL_1 + ["n", "anne"])

    def read(_prompt):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None
    game = with_names(load_game("games/preferans.yaml"), 3, ["Anne", "Bruno", "Claire"])
    writes: list = []
    st = keep_score(new_sheet(game, 3, None, 0), read, lambda line: None, lambda st: None, None,
                    lambda deals: writes.append([dict(d) for d in deals]))
    assert len(st.deals) == 1 and st.sheet["pool"] == [0, 4, 0]
    assert writes == [[dict(zip(["raspasy", "declarer", "contract"], DEAL_1[:3]),
                       call={"Claire": "whist", "Anne": "pass"}, tricks={"Bruno": "9", "Claire": "1", "Anne": "0"})]]


def test_a_choice_is_read_with_spaces_for_underscores_and_in_any_case():
    """Tarot: `Garde Sans` is the contract garde_sans (a choice's name typed as said)."""
    answers = ["anne", "Garde Sans", "2", "50", "NONE", "n", "n", "none"]
    proc = _score("games/tarot.yaml", "", "--json", stdin="\n".join(answers) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deals"][0]["facts"]["contract"] == "garde_sans"
