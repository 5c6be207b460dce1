"""Save files and the terminal as a hostile or careless player meets them (issue 10): every broken or lying save
is refused with one line naming the file, exit 2, and is left as it was; interrupted writes leave no temporary
file; Ctrl-C while interp starts prints no traceback; text from a spec or a person is never read as markup or
control codes; a superscript digit is not a menu number."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from interp.cli import main
from interp.engine import match as engine
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError, SaveError
from interp.runs import replay
from interp.spec.values import parse_seat
from interp.table.play import TerminalMatch
from interp.table.render import LiteralConsole, literal
from tests.conftest import ROOT, game_of

SPEC = "games/preferans.yaml"
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what must never reach the terminal raw


def played(moves: int = 12, seed: int = 5):
    """A Preferans match a few moves in (the first legal move each time), and its save record."""
    game = game_of(SPEC)
    st = engine.new_match(game, 3, seed)
    for _ in range(moves):
        engine.apply(st, engine.legal_moves(st)[0])
    return st, replay.record(st, human=0, bots="heuristic", agreed_end=False)


@pytest.fixture
def good_save():
    return played()[1]


def resume(path, capsys, monkeypatch, stdin: str = ""):
    """`interp play --resume path` with `stdin` fed: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "--resume", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def write(path, data) -> bytes:
    raw = data if isinstance(data, str) else json.dumps(data)
    path.write_text(raw, encoding="utf-8")
    return path.read_bytes()


def edited(save: dict, **changes) -> dict:
    return {**save, **changes}


def without(save: dict, key: str) -> dict:
    return {k: v for k, v in save.items() if k != key}


# Each broken save and the words its one-line message must contain.
FAULTS = {
    "not an object": (lambda s: [1, 2], "a JSON object, not a list"),
    "missing key": (lambda s: without(s, "history"), "'history' is missing"),
    "move not text": (lambda s: edited(s, history=[[1, 1, 5]] + s["history"][1:]), "[1, 1, 5]"),
    "entry a number": (lambda s: edited(s, history=[7] + s["history"][1:]), "not 7"),
    "seed null": (lambda s: edited(s, seed=None), "'seed' must be a whole number, not null"),
    "seed true": (lambda s: edited(s, seed=True), "'seed' must be a whole number, not true"),
    "unknown bots": (lambda s: edited(s, bots="skynet"), "no bot named 'skynet'"),
    "dealer a name": (lambda s: edited(s, dealer="West"), "'dealer' must be a whole number"),
    "human -1": (lambda s: edited(s, human=-1), "'human' must be a seat from 0 to 2, not -1"),
    "deal_no 10^9": (lambda s: edited(s, deal_no=10 ** 9), "deal 1 is not finished, yet the save goes on"),
    "deal_no 50": (lambda s: edited(s, deal_no=50), "deal 1 is not finished, yet the save goes on to deal 50"),
    "deal_no 0": (lambda s: edited(s, deal_no=0), "'deal_no' is 0, but the log has moves of deal 1"),
    "another spec": (lambda s: edited(s, spec=os.path.join(ROOT, "docs/examples/tiny.yaml")), "is for 2"),
    "missing spec": (lambda s: edited(s, spec="/nonexistent/x.yaml"), "/nonexistent/x.yaml, is not a file"),
    "wrong seat": (lambda s: edited(s, history=[[1, 2] + s["history"][0][2:]] + s["history"][1:]),
                   "is logged for"),
    "illegal move": (lambda s: edited(s, history=[[1, 1, "7NT"]] + s["history"][1:]), "cannot be replayed"),
    "edited option": (lambda s: edited(s, options={**s["options"], "pool_target": 20}),
                      "do not lead to the position it recorded"),
    "deep nesting": (lambda s: '{"version": 1, "options": ' + "[" * 100000 + "]" * 100000 + "}", "nested too deeply"),
    "cut short": (lambda s: json.dumps(s)[:120], "broken JSON"),
    "huge number": (lambda s: json.dumps(s).replace('"seed": 5', '"seed": ' + "9" * 5000), "not a save file"),
    "other version": (lambda s: edited(s, version=2), "not an interp save file of version 1"),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_broken_save_is_refused_with_one_line_and_left_as_it_was(fault, good_save, tmp_path, capsys, monkeypatch):
    make, words = FAULTS[fault]
    path = tmp_path / "s.json"
    before = write(path, make(good_save))
    started = time.perf_counter()
    code, out, err = resume(path, capsys, monkeypatch)
    assert time.perf_counter() - started < 10
    assert code == 2, out + err
    first = err.splitlines()[0]
    assert first.startswith(str(path)) and words in first, err
    assert "Traceback" not in err and out == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize("make,words", [(lambda p: p / "absent.json", "no such save file"),
                                        (lambda p: p, "not a save file (a folder")])
def test_a_missing_save_or_a_folder_is_refused(make, words, tmp_path, capsys, monkeypatch):
    code, _, err = resume(make(tmp_path), capsys, monkeypatch)
    assert code == 2 and words in err and "Traceback" not in err


def test_check_save_accepts_what_record_writes(good_save):
    assert replay.check_save(json.loads(json.dumps(good_save)), "x.json") == good_save


def test_a_good_save_resumes_to_the_same_position(tmp_path, capsys, monkeypatch):
    st, data = played(20)
    path = tmp_path / "s.json"
    write(path, data)
    resumed = replay.resume(str(path))
    assert resumed.state.to_json() == st.to_json() and resumed.human == 0
    code, out, err = resume(path, capsys, monkeypatch)
    assert code == 0 and "Resumed" in out and "Input ended" in out, err


def test_a_save_written_before_position_digests_still_resumes(tmp_path):
    st, data = played()
    path = tmp_path / "old.json"
    write(path, without(data, "position"))
    assert replay.resume(str(path)).state.to_json() == st.to_json()


def test_a_lie_in_the_log_is_named_by_move():
    """Replaying a log checks every entry: the move 'pass' logged for the wrong seat is caught at move 1."""
    game = game_of(SPEC)
    st, data = played(3)
    bad = [[1, (data["history"][0][1] + 1) % 3, data["history"][0][2]]]
    with pytest.raises(SaveError, match="move 1 .* is logged for"):
        replay.replay(game, bad, 3, 5)


# -- writes --------------------------------------------------------------------------------------------------------
def test_an_interrupted_write_leaves_the_old_save_and_no_temporary_file(tmp_path, monkeypatch, good_save):
    path = tmp_path / "s.json"
    replay.save(str(path), good_save)
    before = path.read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(json, "dumps", interrupted)
    with pytest.raises(KeyboardInterrupt):
        replay.save(str(path), edited(good_save, seed=6))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["s.json"]


def test_a_save_path_that_cannot_be_written_is_refused_before_play(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    (tmp_path / "a file").write_text("")
    target = tmp_path / "a file" / "s.json"
    assert main(["play", SPEC, "--seed", "1", "--save", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{target}: cannot write the save there") and os.listdir(tmp_path) == ["a file"]


def _not_a_save(kind: str, tmp_path):
    """Something at a path that `--save` must leave as it is; and how to see it is unchanged."""
    path = tmp_path / f"target-{kind.replace(' ', '-')}"
    if kind == "device":  # a /dev/null of the test's own: were it replaced, nothing outside tmp_path would be
        if not hasattr(os, "mknod") or os.getuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 3))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link to a save":
        (tmp_path / "real.json").write_text(json.dumps(played()[1]), encoding="utf-8")
        os.symlink(tmp_path / "real.json", path)
    else:
        path.write_text("my notes, not a save\n", encoding="utf-8")
    return path, lambda: (os.lstat(path).st_mode, (tmp_path / "real.json").read_bytes() if kind.startswith("link")
                          else path.read_bytes() if kind == "text file" else None)


@pytest.mark.parametrize("kind,words", [("device", "is not a file"), ("fifo", "is not a file"),
                                        ("folder", "is not a file"), ("link to a save", "is a link"),
                                        ("text file", "not a save of interp")])
def test_save_onto_anything_but_a_save_or_a_new_path_is_refused_and_left_as_it_is(kind, words, tmp_path, capsys,
                                                                                  monkeypatch):
    """Issue 25: as root, `--save /dev/full` turned the device into a regular file."""
    path, state = _not_a_save(kind, tmp_path)
    before = state()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", "docs/examples/tiny.yaml", "--save", str(path), "--seed", "1"])
    out = capsys.readouterr()
    assert code == 2
    [line] = out.err.splitlines()
    assert line.startswith(f"{path}: ") and words in line and line.endswith("to a new path"), line
    assert out.out == "" and state() == before


def test_save_onto_an_earlier_save_replaces_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "earlier.json"
    write(path, played()[1])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "docs/examples/tiny.yaml", "--save", str(path), "--seed", "1"]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["spec"].endswith("tiny.yaml")


def test_a_device_put_at_the_save_path_during_play_is_not_replaced(tmp_path, monkeypatch):
    """The check is made again at every write: a folder made at the path mid-match is refused, not replaced."""
    path = tmp_path / "s.json"
    replay.save(str(path), played()[1])
    path.unlink()
    path.mkdir()
    with pytest.raises(SaveError, match="is not a file"):
        replay.save(str(path), played()[1])
    assert path.is_dir()


def test_stale_temporary_files_of_a_killed_write_are_removed_on_resume(tmp_path, capsys, monkeypatch, good_save):
    path = tmp_path / "s.json"
    write(path, good_save)
    stale = tmp_path / ".save-s.json-k3j2x9_a.tmp"  # what a kill -9 during a write leaves
    stale.write_text('{"version": 1, "hist')
    other = tmp_path / ".save-other.json-k3j2x9_a.tmp"  # another save's: not ours to touch
    other.write_text("{}")
    code, _, err = resume(path, capsys, monkeypatch)
    assert code == 0, err
    assert not stale.exists() and other.exists()


def test_ctrl_c_mid_move_keeps_the_save_of_the_last_whole_move(tmp_path):
    """A bot's move interrupted half-way must not reach the save: it holds the position before that move."""
    game = game_of(SPEC)
    st = engine.new_match(game, 3, 12)
    match = TerminalMatch(game, st, 0, "heuristic", str(tmp_path / "x.json"), LiteralConsole(file=io.StringIO()),
                          read=lambda prompt: "1")
    real_apply = engine.apply
    calls = []

    def apply(state, move, check=True):
        calls.append(move)
        if len(calls) == 5:
            state.history.append([state.deal_no, 0, "half"])  # the move log is written, the move is not done
            raise KeyboardInterrupt
        real_apply(state, move, check)
    engine.apply = apply
    try:
        assert match.run() == 130
    finally:
        engine.apply = real_apply
    resumed = replay.resume(str(tmp_path / "x.json"))
    assert len(resumed.state.history) == 4


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads signal dispositions from /proc")
def test_ctrl_c_while_interp_loads_prints_no_traceback():
    """Wait until the process has set Ctrl-C aside while it loads (its SIGINT is no longer caught by Python's
    handler), then press it: the process ends by the signal, silently. (A busy machine can let the loading
    window pass between two looks: then try again.)"""
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "interp.cli", "validate", SPEC], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sent = _interrupt_while_loading(proc)
        out, err = proc.communicate(timeout=60)
        if sent:
            break
    assert sent, "the process never set Ctrl-C aside while loading"
    assert proc.returncode == -signal.SIGINT and err == ""


def _interrupt_while_loading(proc) -> bool:
    caught_bit = 1 << (signal.SIGINT - 1)
    seen_python_handler = False
    deadline = time.time() + 30
    while time.time() < deadline and proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as fh:
                caught = int(next(line for line in fh if line.startswith("SigCgt:")).split()[1], 16)
        except (OSError, StopIteration):
            return False
        seen_python_handler |= bool(caught & caught_bit)
        if seen_python_handler and not caught & caught_bit:
            proc.send_signal(signal.SIGINT)
            return True
    return False


def test_ctrl_c_while_a_spec_loads_is_a_quiet_exit(monkeypatch, capsys):
    def interrupted(path):
        raise KeyboardInterrupt
    monkeypatch.setattr("interp.cli.common.load_game", interrupted)
    assert main(["validate", SPEC]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


# -- text reaching the terminal --------------------------------------------------------------------------------------
def test_literal_shows_control_characters_as_escapes():
    assert literal("a\x1b[2Jb\x07\u202e\x9b") == "a\\x1b[2Jb\\x07\\u202e\\x9b"
    assert literal("North [/red] :smile:\n\tok ♠") == "North [/red] :smile:\n\tok ♠"


def test_markup_and_escapes_typed_at_the_prompt_are_echoed_literally(tmp_path):
    lines = iter(["[/red]", "[bold]x[/bold]", "\x1b]0;owned\x07", "²", "٣x", "9" * 5000, "  "])

    def read(prompt):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None
    game = game_of(SPEC)
    console = LiteralConsole(file=io.StringIO(), width=120)
    code = TerminalMatch(game, engine.new_match(game, 3, 4), 0, "heuristic", str(tmp_path / "m.json"), console,
                         read=read).run()
    text = console.file.getvalue()
    assert code == 0, text
    assert "'[/red]' is not" in text and "'[bold]x[/bold]' is not" in text
    assert "\\x1b]0;owned\\x07" in text and not UNSAFE.search(text)
    assert "5000 characters long" in text


def test_a_unicode_digit_is_not_a_menu_number():
    game = game_of(SPEC)
    st = engine.new_match(game, 3, 4)
    for text in ("²", "¹", "9" * 5000, "1²"):
        with pytest.raises(IllegalMoveError):
            parse_move(st, text)
    assert parse_move(st, "\u0661") == engine.legal_moves(st)[0]  # Arabic-Indic one: a decimal digit
    for seat in ("²", "9" * 5000):
        with pytest.raises(ValueError, match="no seat"):
            parse_seat(game, 3, seat)


@pytest.fixture
def marked_spec(tmp_path):
    """The tiny example spec renamed with rich markup, an emoji code and a bracketed seat name."""
    with open(os.path.join(ROOT, "docs/examples/tiny.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    text = text.replace("name: Tiny Tricks", 'name: "x [/] [bold]y :smile:"')
    text = text.replace("seat_names: [North, South]", 'seat_names: ["[/red]", "[b]"]')
    path = tmp_path / "marked.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["simulate", "-n", "3"], ["play", "--seed", "1"]])
def test_markup_in_a_spec_is_printed_as_written(command, marked_spec, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5))
    args = [command[0], marked_spec, *command[1:]]
    if command[0] == "play":
        args += ["--save", str(tmp_path / "p.json")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "x [/] [bold]y :smile:" in out


def test_escape_sequences_in_a_spec_never_reach_the_terminal(tmp_path, capsys):
    """Whether the loader refuses them or not, an ESC or BEL in a spec's text is shown as an escape, never raw."""
    with open(os.path.join(ROOT, "docs/examples/tiny.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    path = tmp_path / "esc.yaml"
    path.write_text(text.replace("name: Tiny Tricks", 'name: "x\\e]0;owned\\a\\e[2J"'), encoding="utf-8")
    for command in (["validate"], ["rules"]):
        code = main([command[0], str(path)])
        out = capsys.readouterr()
        assert code in (0, 2) and not UNSAFE.search(out.out + out.err)
        assert "Traceback" not in out.err


def test_a_new_match_with_the_seed_of_an_earlier_save_does_not_overwrite_it(tmp_path, capsys, monkeypatch):
    """The default save path is saves/<game>-<seed>.json; playing the same game and seed again must keep the
    first match's save and write the second beside it."""
    monkeypatch.chdir(tmp_path)
    spec = os.path.join(ROOT, SPEC)
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        assert main(["play", spec, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "saving to saves/preferans-5.json" in out and "saving to saves/preferans-5-2.json" in out
    assert sorted(os.listdir(tmp_path / "saves")) == ["preferans-5-2.json", "preferans-5.json"]


def test_a_save_written_before_the_package_was_renamed_still_resumes(capsys, monkeypatch):
    """tests/save_files/preferans-5-before-the-rename.json: written by `interp play preferans --seed 5` of the release
    whose import package was still `interpreter` (its spec path made relative); it names no module, so it resumes
    to the position it records."""
    path = os.path.join(ROOT, "tests", "save_files", "preferans-5-before-the-rename.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    resumed = replay.resume(path)
    assert resumed.state.deal_no == data["deal_no"] == 2 and len(resumed.state.history) == len(data["history"])
    assert replay.position(resumed.state) == data["position"]
