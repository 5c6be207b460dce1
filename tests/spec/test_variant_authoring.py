"""Writing a variant (docs/spec-language.md §6): `extends:` names a shipped game as `interp play` does, and a
variant places a new phase (or moves one) before or after a phase of its base by id."""
from __future__ import annotations

import pytest

from interp.cli import main
from interp.spec.compiler import load_game
from interp.spec.loader import load_spec

HEARTS_PHASES = ["deal", "pass", "hand_on", "play", "count"]


def write(tmp_path, text: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def error_of(capsys, path: str) -> str:
    assert main(["validate", path]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_extends_a_shipped_game_by_its_name(tmp_path):
    game = load_game(write(tmp_path, "extends: hearts\nname: My Hearts\noptions:\n  target: {default: 50}\n"))
    assert game.name == "My Hearts" and game.option_defaults["target"] == 50
    assert [p.id for p in game.phases] == HEARTS_PHASES


def test_a_file_beside_the_variant_wins_over_the_shipped_game_of_that_name(tmp_path):
    write(tmp_path, open("docs/examples/tiny.yaml", encoding="utf-8").read(), "hearts.yaml")
    assert load_game(write(tmp_path, "extends: hearts.yaml\nname: v\n")).deck.codes[0] == "9S"


def test_extends_an_unknown_name_suggests_the_shipped_games(tmp_path, capsys):
    path = write(tmp_path, "name: v\nextends: heartz\n")
    err = error_of(capsys, path)
    assert err.startswith(f"{path}:2:10: extends: no such file heartz"), err
    assert "did you mean hearts?" in err


def test_a_path_with_a_folder_is_never_read_as_a_shipped_name(tmp_path, capsys):
    err = error_of(capsys, write(tmp_path, "extends: sub/hearts\nname: v\n"))
    assert "no such file sub/hearts" in err


def phase_ids(tmp_path, phases: str) -> list:
    doc = load_spec(write(tmp_path, "extends: hearts\nname: v\nphases:\n" + phases))
    return [p["id"] for p in doc.data["phases"]]


def test_a_new_phase_is_inserted_before_its_anchor(tmp_path):
    ids = phase_ids(tmp_path, "  - {id: toast, type: effects, do: \"redeal()\", insert_before: play}\n")
    assert ids == ["deal", "pass", "hand_on", "toast", "play", "count"]


def test_phases_are_placed_in_the_order_written_and_may_anchor_on_each_other(tmp_path):
    ids = phase_ids(tmp_path, "  - {id: a, type: effects, do: \"redeal()\", insert_after: deal}\n"
                              "  - {id: b, type: effects, do: \"redeal()\", insert_after: a}\n"
                              "  - {id: count, insert_before: deal}\n")     # a base phase moved
    assert ids == ["count", "deal", "a", "b", "pass", "hand_on", "play"]


def test_an_inserted_phase_runs_in_its_place(tmp_path):
    """The inserted phase runs before `play`: it voids every deal, so no card is ever played."""
    game = load_game(write(tmp_path, "extends: hearts\nname: v\nphases:\n"
                                     "  - {id: void, type: effects, do: \"redeal()\", insert_before: play}\n"))
    from interp.engine import match as engine
    st = engine.new_match(game, seed=3)
    while st.phase < [p.id for p in game.phases].index("void") and not st.deal_over:
        engine.apply(st, engine.legal_moves(st)[0])
    assert st.deals[-1]["redeal"] is True and all(len(h) > 0 for h in st.zones[:4])


def test_errors_in_a_placed_phase_and_in_the_base_point_where_they_are_written(tmp_path, capsys):
    path = write(tmp_path, "extends: hearts\nname: v\nphases:\n"
                           "  - id: toast\n    type: effects\n    insert_before: play\n    do: \"announce(dealr, 'hi')\"\n")
    assert error_of(capsys, path).startswith(f"{path}:7:19: unknown name 'dealr'")


def test_a_missing_anchor_is_a_located_error_with_the_ids_there_are(tmp_path, capsys):
    path = write(tmp_path, "extends: hearts\nname: v\nphases:\n"
                           "  - id: toast\n    type: effects\n    do: \"redeal()\"\n    insert_after: pley\n")
    err = error_of(capsys, path)
    assert err.startswith(f"{path}:7:19: insert_after: there is no item with id 'pley'"), err
    assert "did you mean 'play'?" in err and "deal, pass, hand_on, play, count" in err


@pytest.mark.parametrize("extra, words", [
    ("    insert_after: deal\n", "either before or after"),
    ("  - {id: play, delete: true}\n", "which the variant deletes"),
    ("  - {id: count, delete: true, insert_after: deal}\n", "a deleted item goes nowhere"),
])
def test_a_placement_that_cannot_be_kept_is_refused(tmp_path, capsys, extra, words):
    path = write(tmp_path, "extends: hearts\nname: v\nphases:\n"
                           "  - id: toast\n    type: effects\n    do: \"redeal()\"\n    insert_before: play\n" + extra)
    err = error_of(capsys, path)
    assert words in err and err.startswith(path + ":"), err



def test_a_file_that_extends_nothing_cannot_place_a_phase(tmp_path, capsys):
    path = write(tmp_path, "name: x\ndeck: {suits: [S], ranks: ['1', '2']}\nzones: {hand: {per_seat: true}}\n"
                           "phases:\n  - {id: deal, type: deal, into: hand, packets: [{each: 1}], insert_after: deal}\n")
    assert error_of(capsys, path).startswith(f"{path}:5:62: insert_after places a phase of a variant, and this "
                                             "file extends no base")
