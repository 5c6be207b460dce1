"""`interp validate` refuses a card code that names no card wherever a spec names one (a `card('…')` literal, a
string with declared values passed to `card`, a `deck.points` key), and plays its sample deals' facts against
the fact limits, so that a variant changing what a fact can be is told which limit to change."""
from __future__ import annotations

from pathlib import Path

import pytest

from interp.cli import main

HEARTS = str(Path("games/hearts.yaml").resolve())


def validate(tmp_path, capsys, text: str) -> tuple:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {HEARTS}\nname: v\n" + text, encoding="utf-8")
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err, str(path)


@pytest.mark.parametrize("code_text, hint", [("JX", "JS or JH or JD"), ("DJ", "JD")])
def test_a_card_literal_that_names_no_card_is_refused_where_it_is(tmp_path, capsys, code_text, hint):
    code, err, path = validate(tmp_path, capsys, "phases:\n  - id: peek\n    type: effects\n"
                                                 f"    do: \"if card('{code_text}') in hand[dealer]: announce(dealer, 'hi')\"\n")
    assert code == 2
    assert err.startswith(f"{path}:6:18: no card '{code_text}' in the deck"), err
    assert f"did you mean {hint}" in err


def test_card_codes_are_read_without_regard_to_case(tmp_path, capsys):
    code, err, _ = validate(tmp_path, capsys, "phases:\n  - id: peek\n    type: effects\n"
                                              "    do: \"if card('qs') in hand[dealer]: announce(dealer, 'hi')\"\n")
    assert code == 0, err


def test_an_option_whose_values_feed_card_must_name_cards(tmp_path, capsys):
    code, err, path = validate(tmp_path, capsys,
                               "options:\n  bad_card: {default: QS, values: [QS, JD, DQ], new: true}\n"
                               "phases:\n  - id: peek\n    type: effects\n"
                               "    do: \"if card(bad_card) in hand[dealer]: announce(dealer, 'hi')\"\n")
    assert code == 2
    assert err.startswith(f"{path}:8:18: no card 'DQ' in the deck"), err
    assert "did you mean QD" in err


def test_a_points_key_that_is_no_card_or_rank_is_refused_at_the_key(tmp_path, capsys):
    code, err, path = validate(tmp_path, capsys, "deck:\n  points: {QS: 13, DJ: -10}\n")
    assert code == 2
    assert err.startswith(f"{path}:4:20: deck.points: no card or rank 'DJ' in the deck"), err
    assert "did you mean JD" in err


def test_points_keys_may_be_codes_ranks_or_other(tmp_path, capsys):
    code, err, _ = validate(tmp_path, capsys, "deck:\n  points: {QS: 13, \"10\": 0, other: 0}\n")
    assert code == 0, err


def test_a_variant_whose_facts_break_the_base_limits_is_told_which_limit(tmp_path, capsys):
    """Omnibus Hearts: J♦ is -10, so a seat's points may be below 0 and a deal's sum is 16, not 26. The sample
    deal breaks `pts`'s min (the J♦ taker has fewer than 10 hearts in it) or, failing that, its sum rule."""
    code, err, _ = validate(tmp_path, capsys, "deck:\n  points: {QS: 13, JD: -10}\n")
    assert code == 2
    assert err.startswith(f"{HEARTS}:"), err
    assert "a sample deal broke a limit of fact 'pts': " in err
    assert ("pts of " in err and "is from 0 to 26, not -" in err and "change facts.pts.min" in err) or \
        ("26 points a deal" in err and "change facts.pts.check[0]" in err), err


def test_the_variant_that_changes_the_limits_validates(tmp_path, capsys):
    code, err, _ = validate(tmp_path, capsys,
                            "deck:\n  points: {QS: 13, JD: -10}\n"
                            "facts:\n  pts:\n    min: -10\n"
                            "    check: [{rule: \"sum(pts[s] for s in asked) == 16\", message: \"16 a deal\"}]\n")
    assert code == 0, err
