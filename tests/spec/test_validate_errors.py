"""`interp validate` on broken specs: every mistake is reported as `path:line:column: message`, with the offending
line, a caret under the column, a `hint:` where one helps, exit code 2 and never a traceback.

Most cases are games/preferans.yaml with one string replaced (so they follow the real spec as it changes); the
expected line and column are found in the broken text itself, at an anchor string. Small self-contained broken
specs live in tests/broken/.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from interp.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "games" / "preferans.yaml"
BROKEN = ROOT / "tests" / "broken"


# -- helpers ---------------------------------------------------------------------------------------------------------
def spec_text() -> str:
    return SPEC.read_text(encoding="utf-8")


def broken_copy(tmp_path: Path, old: str, new: str, name: str = "broken.yaml") -> tuple:
    """games/preferans.yaml with the first `old` replaced by `new`, written to tmp_path; (path, text)."""
    path, text, _ = _broken_copy(tmp_path, old, new, name)
    return path, text


def _broken_copy(tmp_path: Path, old: str, new: str, name: str = "broken.yaml") -> tuple:
    text = spec_text()
    assert old in text, f"games/preferans.yaml no longer contains {old!r}: update this test case"
    at = text.index(old)
    text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text, at


def line_column(text: str, index: int) -> tuple:
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def position(text: str, anchor: str, offset: int = 0) -> tuple:
    """The 1-based (line, column) of character `offset` of `anchor`, which must occur once in `text`."""
    assert text.count(anchor) == 1, f"anchor {anchor!r} occurs {text.count(anchor)} times"
    return line_column(text, text.index(anchor) + offset)


def validate(capsys, *paths) -> tuple:
    """Run `interp validate` in-process; (exit code, stdout, stderr)."""
    code = main(["validate", *map(str, paths)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_reported(err: str, path: Path, text: str | None, line: int, column: int, words=(),
                    hint: str | bool = True) -> None:
    """stderr starts with `path:line:column: message`, shows the source line with a caret, and maybe a hint."""
    assert "Traceback" not in err
    lines = err.splitlines()
    head = f"{path}:{line}:{column}: "
    assert lines and lines[0].startswith(head), f"expected {head!r} ...\ngot:\n{err}"
    message = lines[0][len(head):]
    for word in words:
        assert word in message, f"{word!r} not in message {message!r}"
    if text is not None:
        source = text.splitlines()[line - 1]
        assert lines[1] == "    " + source, err
        assert lines[2] == "    " + " " * (column - 1) + "^", err
    hints = [ln for ln in lines if ln.startswith("  hint: ")]
    if hint:
        assert hints, f"no hint in:\n{err}"
        if isinstance(hint, str):
            assert hint in hints[0], f"{hint!r} not in {hints[0]!r}"


def drop_section(text: str, key: str) -> str:
    """`text` without the top-level section `key:` (up to the next top-level key)."""
    pattern = re.compile(rf"^{key}:.*?(?=^[A-Za-z_])", re.S | re.M)
    assert pattern.search(text), f"no top-level {key}: section"
    return pattern.sub("", text, count=1)


# -- one change to the real spec -------------------------------------------------------------------------------------
@dataclass
class Case:
    id: str
    old: str
    new: str
    anchor: str  # where the error must point: in `new` (the first occurrence), else once in the broken text ...
    offset: int = 0  # ... this many characters into the anchor
    words: tuple = ()  # what the message must say
    hint: str | bool = True  # a hint is expected (containing this text, if a string)
    marks: list = field(default_factory=list)


CASES = [
    # -- schema ---------------------------------------------------------------------------------------------------
    Case("unknown-top-level-key", "seat_names:", "seat_nmaes:", "seat_nmaes",
         words=("unknown key 'seat_nmaes'",), hint="did you mean seat_names?"),
    Case("wrong-type-players-default", "players: {default: 3,", 'players: {default: "three",', '"three"',
         words=("'default' must be a whole number", "'three'")),
    Case("unknown-phase-type", "    type: discard\n", "    type: discrad\n", "discrad",
         words=("unknown phase type 'discrad'",), hint="did you mean discard?"),
    Case("unknown-key-in-phase", "    to: discards\n    count: 2", "    to: discards\n    cuont: 2", "cuont",
         words=("unknown key 'cuont'", "phase 'discard'"), hint="did you mean count?"),
    Case("unknown-key-in-deal-packet", "{each: 2, repeat: 5}", "{eahc: 2, repeat: 5}", "eahc",
         words=("unknown key 'eahc'",), hint="did you mean each?"),
    Case("missing-phase-key", "    won: won\n    on_trick", "    on_trick", "- id: play\n    type: tricks", 2,
         words=("missing key 'won'", "phase 'play'"), hint="add `won:`"),
    Case("enum-value", "visible: owner}", "visible: owners}", "owners",
         words=("'owners'", "'visible'"), hint="did you mean owner?"),
    Case("boolean-as-text", "    follow: true\n    must_trump", '    follow: "yes"\n    must_trump', '"yes"',
         words=("'follow' must be a boolean (true or false) or a condition",)),
    # -- compiler: declarations ---------------------------------------------------------------------------------
    Case("players-default-not-allowed", "players: {default: 3,", "players: {default: 5,", "default: 5", 9,
         words=("default player count 5", "allowed"), hint="players.allowed"),
    Case("option-default-not-in-values", "pool_target: {default: 10,", "pool_target: {default: 7, values: [10, 20],",
         "default: 7", 9, words=("default 7 is not one of its values",), hint=False),
    Case("unknown-var-type", "tricks: {type: int, per_seat: true}", "tricks: {type: integr, per_seat: true}",
         "integr", words=("unknown type 'integr'",), hint="types:"),
    Case("var-default-not-in-values", "half], default: none}", "half], default: nobody}", "nobody",
         words=("default 'nobody' is not one of the values",), hint=False),
    Case("name-declared-twice", "  talon: {visible: none}\n", "  talon: {visible: none}\n  declarer: {visible: none}\n",
         "  declarer: {type: seat}", 2, words=("'declarer' is already a name",), hint="another name"),
    Case("duplicate-bid-names", "{name: misere_nt,", "{name: misere,", "{name: misere, label: misère without", 0,
         words=("bid misere appears twice",), hint="own name"),
    Case("special-bid-not-in-ladder", "      misere: {first_call", "      misere2: {first_call", "misere2",
         words=("no bid 'misere2' in the ladder",), hint="ladder"),
    Case("fact-not-a-var", "  conceded: {ask:", "  concede_d: {ask:", "concede_d",
         words=("fact 'concede_d' is not a declared var",), hint="vars:"),
    # -- phases -------------------------------------------------------------------------------------------------
    Case("unknown-zone", "into: hand", "into: hnd", "hnd", words=("unknown zone 'hnd'",), hint="zones: hand"),
    Case("shared-zone-where-per-seat-needed", "into: hand", "into: talon", "into: talon", 6,
         words=("zone 'talon' must be a per-seat zone",), hint=False),
    Case("per-seat-zone-where-shared-needed", "insert: {zone: talon,", "insert: {zone: hand,", "zone: hand,", 6,
         words=("zone 'hand' must be a shared zone",), hint=False),
    Case("deal-packets-do-not-add-up", "{each: 2, repeat: 5}", "{each: 2, repeat: 4}", "- id: deal\n    type: deal", 2,
         words=("the deal uses 26 cards but there are 32",), hint="rest:"),
    Case("duplicate-phase-ids", "  - id: discard\n", "  - id: talon\n", "talon",
         words=("two phases have the id 'talon'",), hint="unique"),
    Case("goto-unknown-phase", "    to: discards\n    count: 2\n",
         "    to: discards\n    count: 2\n    goto: {phase: auctoin}\n", "auctoin",
         words=("goto names no phase 'auctoin'",), hint="phase ids: deal, auction"),
    Case("bots-choose-unknown-phase", "    open-or-closed: {closed", "    open-or-closd: {closed", "open-or-closd",
         words=("no choose phase with id 'open-or-closd'",), hint="choose phase"),
    # -- the DSL --------------------------------------------------------------------------------------------------
    Case("dsl-syntax-in-block-scalar", "if contract.level == 6 then 4", "if contract.level === 6 then 4",
         "=== 6", 2, words=("unexpected",)),
    Case("dsl-syntax-on-second-line-of-folded-scalar", "or ten_whist then 1 else 0\n",
         "or ten_whist then 1 else 0 )\n", "0 )", 2, words=("unexpected ')'",)),
    Case("dsl-syntax-in-quoted-string", "and joint > 0\"", "and joint >> 0\"", ">> 0", 1, words=("unexpected",)),
    Case("dsl-syntax-expression-ends-early", 'when: "played"', 'when: "played and"', 'played and"', 10,
         words=("ends too early",)),
    Case("dsl-unknown-name", 'when: "played"', 'when: "playd"', "playd",
         words=("unknown name 'playd'",), hint="did you mean 'played'"),
    Case("dsl-unknown-name-second-line-of-folded-scalar", "or ten_whist then 1", "or ten_whsit then 1", "ten_whsit",
         words=("unknown name 'ten_whsit'",), hint="'ten_whist'"),
    Case("dsl-unknown-name-after-escaped-quotes", 'when: "played"', r'when: "\"x\" != none and playd"', "playd",
         words=("unknown name 'playd'",)),
    Case("dsl-unknown-name-on-second-line-of-plain-scalar", "    who: declarer\n    from: bids",
         "    who: declarer\n      and nobdy\n    from: bids", "nobdy", words=("unknown name 'nobdy'",)),
    Case("dsl-unknown-function", '"defenders[0]"', '"lenn(defenders)"', "lenn(",
         words=("unknown function 'lenn'",), hint="'len'"),
    Case("dsl-int-where-bool-needed", 'when: "played"', 'when: "tricks[declarer]"', 'when: "tricks', 7,
         words=("bool", "int"), hint=False),
    Case("dsl-int-operand-of-and", "and joint > 0\"", "and joint\"", "and joint\"", 4,
         words=("'and' must be a bool, not an int",), hint=False),
    Case("dsl-builtin-arity", '"defenders[0]"', '"len(defenders, 1)"', "len(defenders, 1)",
         words=("'len' takes 1 argument(s), got 2",), hint="len("),
    Case("dsl-define-arity", "if tricks[declarer] == 0: pool", "if whist_tricks() == 0: pool", "whist_tricks()",
         words=("'whist_tricks' takes 1 argument(s), got 0",), hint="whist_tricks(s)"),
    Case("dsl-index-count", "call[d1] == 'none'", "call[d1, d2] == 'none'", "call[d1, d2]",
         words=("'call' takes 1 index(es), got 2",), hint="call[seat]"),
    Case("dsl-unknown-string-value", "call[s] == 'whist' or", "call[s] == 'whsit' or", "'whsit'",
         words=("'whsit' is not a possible value",), hint="did you mean 'whist'?"),
    Case("dsl-unknown-bid-name", "bid != 'misere_nt'", "bid != 'misere_ntt'", "'misere_ntt'",
         words=("'misere_ntt' is not a possible value",), hint="'misere_nt'"),
    Case("dsl-unknown-bid-field", "if contract.level == 6", "if contract.levle == 6", "levle",
         words=("bid has no field 'levle'",), hint="fields:"),
    Case("dsl-branch-types-differ", "then [dealer] else []", "then [dealer] else 0", "else 0", 5,
         words=("'then' gives a list[seat] but 'else' gives an int",), hint=False),
    Case("dsl-for-over-non-list", "for s in defenders: call[s] = 'whist'", "for s in declarer: call[s] = 'whist'",
         "declarer: call", 0, words=("needs a list",), hint=False),
    Case("dsl-assign-wrong-type", 'do: "contract = choice"', 'do: "contract = 3"', "= 3\"", 2,
         words=("'contract' holds a bid, not an int",), hint=False),
    Case("dsl-recursive-define", '  d1: "defenders[0]"\n  d2: "defenders[1]"', '  d1: "d2"\n  d2: "d1"',
         '"d2"', 1, words=("defined in terms of itself",), hint="recursive"),
    Case("dsl-assign-read-only-n-players", 'do: "contract = choice"', 'do: "n_players = 3"', "n_players = 3",
         words=("'n_players' cannot be assigned",), hint="assign vars"),
    Case("dsl-assign-read-only-seats", 'do: "contract = choice"', 'do: "seats = []"', "seats = []",
         words=("'seats' cannot be assigned",), hint="assign vars"),
    Case("dsl-effect-in-expression", 'when: "played"', 'when: "reveal(talon)"', "reveal(talon)\"",
         words=("'reveal' changes the game", "statement"), hint=False),
    Case("scoring-reads-non-fact-var", 'then: "mountain[declarer] += 3 * value"',
         'then: "if open_whist: mountain[declarer] += 3 * value"', "open_whist:",
         words=("'open_whist'",), hint=False),
]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=c.marks) for c in CASES])
def test_one_mistake_in_the_real_spec(case: Case, tmp_path, capsys):
    path, text, at = _broken_copy(tmp_path, case.old, case.new)
    if case.anchor in case.new:
        line, column = line_column(text, at + case.new.index(case.anchor) + case.offset)
    else:
        line, column = position(text, case.anchor, case.offset)
    code, out, err = validate(capsys, path)
    assert code == 2, out + err
    assert_reported(err, path, text, line, column, case.words, case.hint)
    assert "ok " not in out


def test_many_kinds_are_covered():
    assert len(CASES) >= 40


@pytest.mark.parametrize("key", ["deck", "phases"])
def test_missing_required_section(key, tmp_path, capsys):
    text = drop_section(spec_text(), key)
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    first_key = re.search(r"^[A-Za-z_]", text, re.M).start()
    line = text.count("\n", 0, first_key) + 1
    code, _, err = validate(capsys, path)
    assert code == 2
    assert_reported(err, path, text, line, 1, (f"missing key '{key}'",), f"add `{key}:`")


def test_yaml_syntax_error_in_the_real_spec(tmp_path, capsys):
    path, text = broken_copy(tmp_path, "label: declare the contract", 'label: "declare the contract')
    line, column = position(text, '"declare the contract')
    code, _, err = validate(capsys, path)
    assert code == 2
    assert_reported(err, path, text, line, column, ("YAML syntax", "quoted text"), "closing quote")


def test_duplicate_key_in_the_real_spec(tmp_path, capsys):
    path, text = broken_copy(tmp_path, "    to: discards\n    count: 2", "    to: discards\n    count: 2\n    to: won")
    line, column = position(text, "    to: won", 4)
    code, _, err = validate(capsys, path)
    assert code == 2
    assert_reported(err, path, text, line, column, ("duplicate key 'to'",))


# -- small broken specs in tests/broken/ ------------------------------------------------------------------------------
BROKEN_FILES = [
    # file, line, column, words, hint
    ("yaml_unclosed_brace.yaml", 4, 7, ("YAML syntax", "'{'", "not closed"), "closing '}'"),
    ("yaml_tab_indent.yaml", 7, 1, ("YAML syntax", "'\\t'"), "spaces, not tabs"),
    ("yaml_unclosed_quote.yaml", 15, 13, ("YAML syntax", "never closed"), "closing quote"),
    ("yaml_tag.yaml", 2, 7, ("'!game'",), "plain YAML"),
    ("complex_key.yaml", 4, 3, ("a key must be plain text",), True),
    ("duplicate_key.yaml", 8, 3, ("duplicate key 'won'",), True),
    ("not_a_mapping.yaml", 2, 1, ("a spec must be a mapping",), True),
    ("extends_missing.yaml", 2, 10, ("no such file no-such-base.yaml",), "relative to this spec"),
    ("recursive_define.yaml", 9, 38, ("defined in terms of itself",), "recursive"),
    # a variant merges its `play` phase into the base's by id: the error must point into the variant
    ("variant_bad_phase.yaml", 7, 56, ("unknown name 'nnoe'",), True),
]


@pytest.mark.parametrize("name,line,column,words,hint", BROKEN_FILES, ids=[f[0] for f in BROKEN_FILES])
def test_broken_file(name, line, column, words, hint, capsys):
    path = BROKEN / name
    code, out, err = validate(capsys, path)
    assert code == 2, out + err
    assert_reported(err, Path(str(path)), path.read_text(encoding="utf-8"), line, column, words, hint)


def test_every_broken_file_is_tested():
    assert {p.name for p in BROKEN.glob("*.yaml")} == {f[0] for f in BROKEN_FILES}


def test_extends_loop(tmp_path, capsys):
    path = tmp_path / "loop.yaml"
    path.write_text("name: loop\nextends: loop.yaml\n", encoding="utf-8")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert_reported(err, path, path.read_text(), 2, 10, ("extends loops back",), True)


def test_missing_file(tmp_path, capsys):
    path = tmp_path / "nowhere.yaml"
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err.startswith(f"{path}:1:1: cannot read spec")
    assert "hint:" in err


def test_not_utf8(tmp_path, capsys):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: x\ndescription: caf\xe9\n".encode("latin-1"))
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err.startswith(f"{path}:2:17: the file is not UTF-8")
    assert "hint:" in err


def test_empty_file(tmp_path, capsys):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing yet\n", encoding="utf-8")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err.startswith(f"{path}:1:1: missing key 'name'")


# -- the command line, end to end -------------------------------------------------------------------------------------
def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interp.cli", "validate", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_good_file_prints_ok():
    result = run_cli(SPEC)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"ok  {SPEC}")
    assert result.stderr == ""


def test_several_files_report_each_error_and_exit_2(tmp_path):
    bad1, _ = broken_copy(tmp_path, "into: hand", "into: hnd", "bad1.yaml")
    bad2, text2 = broken_copy(tmp_path, "seat_names:", "seat_nmaes:", "bad2.yaml")
    yaml_bad = BROKEN / "yaml_unclosed_quote.yaml"
    result = run_cli(bad1, SPEC, bad2, yaml_bad)
    assert result.returncode == 2
    out = result.stdout + result.stderr
    assert "Traceback" not in out
    heads = [ln for ln in result.stderr.splitlines() if re.match(r"^\S.*:\d+:\d+: ", ln)]
    assert len(heads) == 3, result.stderr
    assert heads[0].startswith(f"{bad1}:") and "unknown zone 'hnd'" in heads[0]
    line, column = position(text2, "seat_nmaes")
    assert heads[1].startswith(f"{bad2}:{line}:{column}: unknown key 'seat_nmaes'")
    assert heads[2].startswith(f"{yaml_bad}:15:13: ")
    assert result.stderr.count("  hint: ") == 3
    assert result.stdout.count("ok  ") == 1 and str(SPEC) in result.stdout


def test_broken_spec_end_to_end_no_traceback(tmp_path):
    path, text = broken_copy(tmp_path, "if contract.level == 6", "if contract.levle == 6")
    line, column = position(text, "levle")
    result = run_cli(path)
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr
    assert_reported(result.stderr, path, text, line, column, ("no field 'levle'",), "fields:")


# -- mistakes found while writing these tests, fixed in the compiler and the CLI -------------------------------
def test_sample_deal_without_legal_move_is_located(tmp_path, capsys):
    path, text = broken_copy(tmp_path, "    to: discards\n    count: 2", "    to: discards\n    count: 20")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert re.match(rf"^{re.escape(str(path))}:\d+:\d+: ", err), err


def test_scoring_non_fact_var_names_the_problem(tmp_path, capsys):
    path, _ = broken_copy(tmp_path, 'then: "mountain[declarer] += 3 * value"',
                          'then: "if open_whist: mountain[declarer] += 3 * value"')
    _, _, err = validate(capsys, path)
    assert "fact" in err.splitlines()[0].split(": ", 1)[1]


def test_zone_named_like_a_builtin(tmp_path, capsys):
    path, text = broken_copy(tmp_path, "  talon: {visible: none}\n", "  talon: {visible: none}\n  seats: {}\n")
    line, column = position(text, "  seats: {}", 2)
    _, _, err = validate(capsys, path)
    assert err.startswith(f"{path}:{line}:{column}: 'seats' is already a name"), err


def test_option_named_like_a_builtin(tmp_path, capsys):
    path, text = broken_copy(tmp_path, "  concede: {default: false", "  dealer: {default: 2}\n  concede: {default: false")
    line, column = position(text, "  dealer: {default: 2}", 2)
    _, _, err = validate(capsys, path)
    assert err.startswith(f"{path}:{line}:{column}: 'dealer' is already a name"), err


def test_ladder_name_template_with_unknown_field(tmp_path, capsys):
    path, _ = broken_copy(tmp_path, "    - {name: misere, label", '    - {name: "mis{lvl}", label')
    code, _, err = validate(capsys, path)
    assert code == 2 and err.startswith(f"{path}:")


def test_bot_preference_for_unknown_option(tmp_path, capsys):
    path, text, at = _broken_copy(tmp_path, 'defence-1: {whist: "if', 'defence-1: {whisst: "if')
    code, _, err = validate(capsys, path)
    assert code == 2
    key = line_column(text, at + len("defence-1: {"))
    value = line_column(text, at + len('defence-1: {whisst: '))
    # at the option's key or at its expression, both on the offending line
    line, column = key if err.startswith(f"{path}:{key[0]}:{key[1]}: ") else value
    assert_reported(err, path, text, line, column, ("'whisst'",), "whist")
