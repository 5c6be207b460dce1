"""The `interp` command: validate, play, run, simulate, summarize, arena, bench, score, serve, rules.

Spec mistakes print `file:line:column: message` with a hint and exit 2; no traceback reaches the user, not even
for Ctrl-C while interp starts. Text from specs, saves and people is printed literally (`render.LiteralConsole`).
"""
from __future__ import annotations

import signal
import threading

_MAIN_THREAD = threading.current_thread() is threading.main_thread()
if _MAIN_THREAD:  # Ctrl-C while the modules below load ends interp at once, with no traceback
    _sigint_before = signal.signal(signal.SIGINT, signal.SIG_DFL)

import argparse
import json
import os
import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING

from interp import __version__

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from interp.table.render import LiteralConsole

if _MAIN_THREAD:  # loaded: from here on main() answers Ctrl-C
    signal.signal(signal.SIGINT, _sigint_before)

EXIT_SPEC = 2
EXIT_INTERRUPTED = 130


def load_game(path: str):
    """The compiled game of a spec file (the compiler is imported when a command first needs it: `interp --help`
    starts without it)."""
    from interp.spec.compiler import load_game as load
    return load(path)


def main(argv: list | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from interp.errors import InterpError  # after the arguments: `--help` needs none of the engine (nor dataclasses)
    from interp.table.render import LiteralConsole
    console = LiteralConsole(soft_wrap=True)
    if not console.is_terminal:
        console.width = 132  # piped output: wide enough that tables are never cut
    try:
        return args.func(args, console)
    except InterpError as exc:
        _error(exc.format())
        return getattr(exc, "exit_code", EXIT_SPEC)
    except ValueError as exc:
        _error(f"error: {exc}")
        return EXIT_SPEC
    except KeyboardInterrupt:  # before a match starts (a match saves itself and returns): nothing to lose
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0


def _error(text: str) -> None:
    """A message for stderr, which may quote a spec, a save or what a person typed: shown literally."""
    from interp.table import render
    print(render.literal(text), file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake on the command line said in one line (exit 2), pointing at --help."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_SPEC, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="interp", description="A rules-as-data card-game interpreter.")
    parser.add_argument("--version", action="version", version=f"interp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("validate", help="check spec files (schema, names, types, a sample deal)")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("play", help="play a match against bots at the terminal")
    p.add_argument("file", nargs="?")
    _match_args(p)
    p.add_argument("--seat", default="1", help="your seat: a name or number from 1 (default 1)")
    p.add_argument("--bots", type=_bots,
                   help="heuristic (default), random, search or module:Class (your own agent); or one per bot seat "
                        "in turn, e.g. search,heuristic; with --resume, instead of the save's")
    p.add_argument("--save", help="save file (default saves/<game>-<seed>.json, or -2, -3 … when that exists)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved match")
    p.add_argument("--delay", type=_seconds, metavar="SEC",
                   help="pause after each bot card, twice that after a trick; Enter skips ahead "
                        "(default 0.6 on a terminal, 0 when piped)")
    p.add_argument("--confirm-forced", action="store_true",
                   help="ask for a move that is the only legal one (default: it is played after a short pause)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("run", help="replay a stacked deal from a scenario file")
    p.add_argument("scenario")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("simulate", help="bot-only deals with statistics")
    p.add_argument("file")
    _match_args(p)
    p.add_argument("-n", "--deals", type=_positive, default=1000)
    p.add_argument("--bots", default="heuristic", type=_bots,
                   help="heuristic, random, search or module:Class (your own agent); or one per bot seat in turn, "
                        "e.g. search,heuristic")
    _jobs_arg(p)
    p.add_argument("--out", metavar="FILE", help="write one record per deal: JSON Lines, or CSV if FILE ends in .csv")
    p.add_argument("--plot", metavar="FILE.png", help="draw each seat's deal values and the first stat's mix "
                   "(needs matplotlib: pip install 'interp[plot]')")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("summarize", help="the summary simulate prints, from --out files of runs made anywhere")
    p.add_argument("file", help="the game the records are of")
    p.add_argument("records", nargs="+", metavar="RECORDS",
                   help="--out files of simulate (JSON Lines, or CSV if the name ends in .csv), merged in this order")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_summarize)

    p = sub.add_parser("arena", help="agents against each other on duplicate deals, with 95%% intervals")
    p.add_argument("file")
    _match_args(p)
    p.add_argument("--agents", default="search,heuristic",
                   help="comma-separated agents: heuristic, random, search or module:Class (default search,heuristic)")
    p.add_argument("-n", "--deals", type=_positive, default=100)
    p.add_argument("--iterations", type=_positive,
                   help="search: sampled worlds per decision (default: a playout budget)")
    _jobs_arg(p)
    p.add_argument("--out", metavar="FILE", help="write one record per deal and seating: JSON Lines, or CSV if FILE "
                   "ends in .csv")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("bench", help="random playouts per second and spec load time, per game file")
    p.add_argument("files", nargs="*", help="default: every shipped game")
    p.add_argument("--seconds", type=_duration, default=2.0,
                   help="time per file (load timing and playouts for each player count)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("score", help="keep score of a game played with real cards")
    p.add_argument("file")
    p.add_argument("--input", help="a YAML file of deals (default: ask at the terminal)")
    p.add_argument("--players", type=_positive)
    p.add_argument("--dealer", default="1")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p.add_argument("--names", help="the players' names in seat order, comma separated: Anne,Bruno,Claire "
                                   "(asked at a terminal when not given; Enter keeps the spec's seat names)")
    p.add_argument("--save", help="where the deals entered are saved after each one (default at a terminal: "
                                  "saves/<game>-score.yaml, or -2, -3 … when that exists)")
    p.add_argument("--resume", metavar="FILE", help="go on with a score saved before (or any input file): its "
                                                    "deals are scored again, then the next deal is asked")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("serve", help="a table server: friends and bots at one table, in the browser")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000)
    p.add_argument("--db", default="interp-tables.sqlite",
                   help="the SQLite file holding the tables (default ./interp-tables.sqlite); tables in it resume")
    p.add_argument("--spec", action="append", default=[], metavar="FILE",
                   help="offer this spec file too, by its file name (repeatable); clients pick games by name only")
    p.add_argument("--bot-delay", type=_seconds, default=1.0, help="seconds a bot waits before it moves (default 1)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("rules", help="a readable summary of a game: deck, deal, auction, tricks, sheet, options")
    p.add_argument("file")
    p.set_defaults(func=cmd_rules)
    return parser


def _jobs_arg(p) -> None:
    p.add_argument("--jobs", "-j", type=_positive, default=None,
                   help=f"worker processes (default: all cores, here {os.cpu_count() or 1}); the results do not depend on it")
    p.add_argument("--executor", choices=("processes", "ray"), default="processes",
                   help="where the deals are played: processes on this machine (default), or Ray tasks: a local Ray, "
                        "or the cluster RAY_ADDRESS names (pip install 'interp[ray]'); the records are the same")


def _match_args(p) -> None:
    p.add_argument("--players", type=_positive, help="number of players (default: the spec's)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: time-based for play, 0 otherwise)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="set a spec option, e.g. -o pool_target=20")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1, not {text!r}")
    return value


def _port(text: str) -> int:
    """A TCP port to listen on: 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port from 1 to 65535, not {text!r}")
    return value


def _duration(text: str) -> float:
    """Seconds above 0 (`bench --seconds`), at most a day."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"seconds above 0 (at most 86400), not {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"seconds from 0 to 60, not {text!r}")
    return value


def _bots(text: str) -> str:
    """`--bots` checked in form (a plug-in is imported by the command, where a failure is one line)."""
    from interp.bots.registry import check_names
    try:
        check_names(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _options(pairs: list) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"write options as NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


# -- validate ------------------------------------------------------------------------------------------------------
def cmd_validate(args, console: Console) -> int:
    from interp.errors import InterpError
    failed = 0
    for path in args.files:
        try:
            game = load_game(path)
            sample_deals(game)
        except InterpError as exc:
            failed += 1
            _error(exc.format())
            continue
        counts = "/".join(map(str, game.players))
        console.print(f"ok  {path}: {game.name} — {counts} players, {len(game.deck)} cards, "
                      f"{len(game.phases)} phases, {len(game.options)} options")
    return EXIT_SPEC if failed else 0


def sample_deals(game) -> None:
    """Play one random deal per allowed player count, so runtime mistakes surface in `validate`."""
    import random

    from interp.engine import match as engine
    from interp.errors import InterpError, SpecError
    for n in game.players:
        st = engine.new_match(game, n, 0)
        rng = random.Random(0)
        steps = 0
        while not st.deal_over:
            moves = engine.legal_moves(st)
            if not moves:
                phase = engine.current_phase(st)
                raise SpecError(f"with {n} players a sample deal reached phase {phase.id!r} with no legal move",
                                phase.location, "check the phase's counts and conditions", phase.source_line)
            engine.apply(st, rng.choice(moves), check=False)
            steps += 1
            if steps > 100000:
                raise InterpError(f"{game.path}: a sample deal with {n} players never ends")


# -- play ----------------------------------------------------------------------------------------------------------
def cmd_play(args, console: LiteralConsole) -> int:
    from interp.bots.registry import bot_names
    from interp.engine import match as engine
    from interp.runs import replay
    from interp.spec.values import parse_seat
    from interp.table.play import DEFAULT_DELAY, TerminalMatch, default_save_path, tty_wait
    from interp.table.render import styled
    if args.bots:
        bot_names(args.bots)  # a plug-in agent imported and checked before anything is shown or saved
    undone: list = []
    if args.resume:
        resumed = replay.resume(args.resume)
        game, st, human, save_path = resumed.game, resumed.state, resumed.human, args.resume
        bots = args.bots or _saved_bots(resumed.bots)
        undone = resumed.undone
        for line in standing_lines(st, human):
            console.print(line)
    else:
        if not args.file:
            raise ValueError("name a game: a shipped one (interp play NAME) or a file (or --resume FILE)")
        game = load_game(args.file)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
        st = engine.new_match(game, args.players, seed, _options(args.option))
        human = parse_seat(game, st.n, args.seat)
        bots, save_path = args.bots or "heuristic", args.save or default_save_path(game, seed)
        replay.check_save_target(save_path)
        console.print(styled((game.name, "bold"), f" — you are {game.seat_name(human, st.n)}; seed {seed}; "
                             f"saving to {save_path}. Type 'help' for help."))
    terminal = console.is_terminal and sys.stdin.isatty()
    if terminal:
        _line_editing()
    delay = args.delay if args.delay is not None else (DEFAULT_DELAY if terminal else 0.0)
    return TerminalMatch(game, st, human, bots, save_path, console, bot_seed=st.seed or 0, delay=delay,
                         wait=tty_wait if terminal else None, resumed=bool(args.resume), undone=undone,
                         confirm_forced=args.confirm_forced).run()


def _saved_bots(bots: str) -> str:
    """A save's bots, to resume with: a plug-in agent it names is never imported on a file's word (a file is
    data), so such a save resumes only with --bots on the command line."""
    from interp.bots.registry import check_names, is_plugin
    plugin = next((name for name in check_names(bots) if is_plugin(name)), None)
    if plugin is not None:
        raise ValueError(f"the save names the plug-in agent {plugin}, which interp does not import on a file's word: "
                         f"resume with --bots {bots} (or other bots) on the command line")
    return bots


def standing_lines(st, human: int) -> list[RenderableType]:
    """What `--resume` shows before play goes on: the match so far in a few lines, not its moves."""
    from interp.table import render
    from interp.table.render import styled
    game = st.game
    played = len(st.deals)
    lines: list[RenderableType] = [styled(("Resumed ", "bold"), (game.name, "bold"), f": you are {game.seat_name(human, st.n)}; deal "
                    f"{st.deal_no} ({played} deal{'s' if played != 1 else ''} played before it); "
                    f"{len(st.history)} moves replayed.")]
    if played:
        lines.append(render.sheet_table(st, title=f"score sheet after deal {st.deals[-1]['deal']}"))
    return lines


def _line_editing() -> None:
    """Arrow keys and history at the prompt, where the standard library has readline."""
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on for input())
    except ImportError:
        pass


# -- run -----------------------------------------------------------------------------------------------------------
def cmd_run(args, console: Console) -> int:
    from interp.runs.scenario import run_scenario
    from interp.table.render import LiteralConsole
    result = run_scenario(args.scenario)
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
    else:
        _print_run(result, console)
    return _report_expect(result, LiteralConsole(soft_wrap=True, stderr=True) if args.json else console)


def _print_run(result: dict, console: Console) -> None:
    from interp.table.render import styled
    console.print(styled((result["spec"], "bold"), f" — {result['players']} players, dealer {result['dealer']}"))
    for line in result["events"]:
        console.print("  " + line, markup=False)
    if not result["finished"]:
        console.print(f"The deal is not over: {result['to_move']} to move; legal: {', '.join(result['legal'])}",
                      markup=False)
        return
    if result.get("redeal"):
        console.print(styled(("Result", "bold"), ": the deal is void (redeal); nothing is scored"))
        return
    console.print("Result", style="bold")
    lines = result.get("breakdown") or [f"{name.replace('_', ' ')}: {_fact_text(value)}"
                                        for name, value in result["facts"].items()]
    for line in lines:
        console.print(f"  {line}", markup=False)
    for col, diff in result["entries"].items():
        for who, delta in diff.items():
            console.print(f"  {who}: {col} {delta:+}", markup=False)


def _fact_text(value) -> str:
    """A fact as `--json` names it, in words: `yes`, `Anne single, Bruno none`, `40.5`.

    >>> _fact_text({"Anne": "single", "Bruno": False})
    'Anne single, Bruno no'
    """
    if isinstance(value, dict):
        return ", ".join(f"{who} {_fact_text(v)}" for who, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(_fact_text, value)) or "-"
    return "-" if value is None else str(value)


def _report_expect(result: dict, console: Console) -> int:
    """Exit 1 with one located line per unmet expectation; 0 when all hold (or there are none)."""
    mismatches = result.get("mismatches")
    if mismatches is None:
        return 0
    if not mismatches:
        console.print("expect: all hold")
        return 0
    console.print(f"expect: {len(mismatches)} mismatch{'es' if len(mismatches) > 1 else ''}", markup=False)
    for line in mismatches:
        console.print("  " + line, markup=False, soft_wrap=True)
    return 1


# -- simulate ------------------------------------------------------------------------------------------------------
def _check_executor(executor: str) -> None:
    """Ray imported before a run is spent when `--executor ray` (a one-line error without it)."""
    if executor == "ray":
        from interp.runs.distributed import check_ray
        check_ray()


def _record_writer(path: str | None):
    """The `--out` file's writer (None without --out); a file that cannot be written is a one-line error."""
    from interp.runs.simulate import RecordWriter
    try:
        return RecordWriter.open(path) if path else None
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror}") from None


def cmd_simulate(args, console: Console) -> int:
    from rich.progress import Progress

    from interp.bots.registry import bot_names
    from interp.runs.simulate import simulate
    from interp.table.render import styled
    bot_names(args.bots)  # a plug-in agent imported and checked before anything runs
    _check_executor(args.executor)
    if args.plot:
        from interp.runs.plot import check_plotting
        check_plotting()
    out = _record_writer(args.out)
    game = load_game(args.file)
    seed = args.seed if args.seed is not None else 0
    records: list = []

    def on_record(record: dict) -> None:
        if out is not None:
            out(record)
        if args.plot:
            records.append(record)
    with Progress(console=console, transient=True, disable=args.json) as progress, out or nullcontext():
        task = progress.add_task("simulating", total=args.deals)
        tick = lambda k: progress.advance(task, k)  # noqa: E731
        summary = simulate(game, args.deals, seed, args.players, _options(args.option), args.bots, tick, args.jobs,
                           on_record=on_record, executor=args.executor)
    if args.plot:
        from interp.runs.plot import plot_run
        plot_run(records, args.plot, f"{game.name}: {args.deals} deals, {args.bots} bots, seed {seed}")
    if args.json:
        print(json.dumps(summary, indent=1, ensure_ascii=False))
        return 0
    console.print(styled((summary["game"], "bold"), f": {summary['deals']} deals, {summary['players']} players, "
                         f"{args.bots} bots, seed {seed}, {summary['deals_per_second']} deals/s"
                         + (f"; records in {args.out}" if args.out else "")
                         + (f"; plot in {args.plot}" if args.plot else "")))
    _print_summary(summary, console)
    return 0


def cmd_summarize(args, console: Console) -> int:
    from interp.runs.summary import summarize_files
    from interp.table.render import styled
    summary = summarize_files(load_game(args.file), args.records)
    if args.json:
        print(json.dumps(summary, indent=1, ensure_ascii=False))
        return 0
    console.print(styled((summary["game"], "bold"), f": {summary['deals']} deals, {summary['players']} players, "
                         f"{summary['bots']} bots, from {', '.join(args.records)}"))
    _print_summary(summary, console)
    return 0


def _print_summary(summary: dict, console: Console) -> None:
    """A run's summary as tables: the spec's stats, the sheet's movement, each seat's deal value."""
    from rich.table import Table
    for name, values in summary["stats"].items():
        table = Table(title=name, title_justify="left")
        table.add_column("value")
        table.add_column("deals", justify="right")
        table.add_column("share", justify="right")
        for key, row in values.items():
            table.add_row(key, str(row["count"]), f"{row['share']:.1%}")
        console.print(table)
    seats = summary["seats"]
    table = Table(title="average sheet movement per deal", title_justify="left")
    table.add_column("column")
    for seat in seats:
        table.add_column(seat, justify="right")
    for col, values in summary["mean_per_deal"].items():
        table.add_row(col, *(f"{values[s]:.2f}" for s in seats))
    console.print(table)
    table = Table(title="deal value per seat: mean and 95% confidence interval",
                  title_justify="left")
    for head in ("seat", "mean", "95% CI", "sd"):
        table.add_column(head, justify="left" if head == "seat" else "right")
    for seat, v in summary["values"].items():
        if v["mean"] is not None:
            table.add_row(seat, f"{v['mean']:.2f}", f"{v['ci95'][0]:.2f} … {v['ci95'][1]:.2f}", f"{v['sd']:.2f}")
    console.print(table)


# -- arena ---------------------------------------------------------------------------------------------------------
def cmd_arena(args, console: Console) -> int:
    from rich.progress import Progress
    from rich.table import Table

    from interp.bots.registry import agent_class
    from interp.runs.arena import arena
    game = load_game(args.file)
    agents = [name.strip() for name in args.agents.split(",") if name.strip()]
    if len(agents) < 2:
        raise ValueError("name at least two agents, e.g. --agents search,heuristic")
    for name in agents:
        agent_class(name)  # a built-in, or a plug-in module:Class imported now: a mistake is one line
    _check_executor(args.executor)
    search = {"search": {"worlds": args.iterations, "budget": 10 ** 12}} if args.iterations else {}
    out = _record_writer(args.out)
    with Progress(console=console, transient=True, disable=args.json) as progress, out or nullcontext():
        task = progress.add_task("arena", total=args.deals)
        summary = arena(game, agents, args.deals, args.seed or 0, args.players, _options(args.option), search,
                        tick=lambda: progress.advance(task), jobs=args.jobs, on_record=out, executor=args.executor)
    if args.json:
        print(json.dumps({"agents": summary["agents"], "margins": summary["margins"]}, indent=1))
        return 0
    console.print(f"{game.name}: {args.deals} duplicate deals x {len(summary['seatings'])} seatings, "
                  f"{summary['players']} players")
    table = Table(title="mean deal value per deal (95% interval)", title_justify="left")
    for head in ("agent", "mean", "95% interval", "deals", "s/move"):
        table.add_column(head, justify="left" if head == "agent" else "right")
    for name, row in summary["agents"].items():
        lo, hi = row["ci95"]
        table.add_row(name, f"{row['mean']:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]", str(row["deals"]),
                      f"{row['sec_per_move'] or 0:.4f}")
    for pair, stat in summary["margins"].items():
        lo, hi = stat["ci95"]
        table.add_row(f"margin {pair}", f"{stat['mean']:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]", str(args.deals), "")
    console.print(table)
    return 0


# -- bench ---------------------------------------------------------------------------------------------------------
def cmd_bench(args, console: Console) -> int:
    from interp.runs.bench import bench
    from interp.spec.resources import shipped_games
    from interp.table.render import LiteralConsole
    files = args.files or shipped_games()
    out = LiteralConsole(soft_wrap=True, stderr=True) if args.json else console
    out.print(f"{'spec':<40} {'players':>7} {'load ms':>8} {'playouts/s':>11} {'moves/s':>9}", style="bold")

    def report(row: dict) -> None:
        out.print(f"{row['spec']:<40} {row['players']:>7} {row['load_validate_compile_ms']:>8.1f} "
                  f"{row['playouts_per_second']:>11.0f} {row['moves_per_second']:>9,}")
        out.file.flush()
    rows = bench(files, args.seconds, report)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


# -- score ---------------------------------------------------------------------------------------------------------
def cmd_score(args, console: Console) -> int:
    from interp.spec.loader import load_data
    from interp.table import render
    from interp.table.render import LiteralConsole
    from interp.table.scorekeeper import score_deals
    game = load_game(args.file)
    if args.input:
        doc = load_data(args.input)
        st = score_deals(game, doc.data, doc)
    else:
        if args.json:  # questions go to stderr so that stdout is the JSON alone
            console = LiteralConsole(soft_wrap=True, stderr=True)
        st = _score_at_terminal(game, args, console)
        console.print()
    if args.json:
        print(json.dumps(_score_json(st), indent=1, ensure_ascii=False))
        return 0
    if args.input:
        for i in range(len(st.deals)):
            _print_deal(st, console, i)
    console.print(render.sheet_table(st, title="final sheet" if st.match_over else "sheet"))
    return 0


def _score_at_terminal(game, args, console: Console):
    """Keep score deal by deal at the terminal, the deals entered saved after each one (as an input file, names
    and all) so that Ctrl-C or a closed window loses nothing; `--resume FILE` goes on from such a file."""
    import yaml  # type: ignore[import-untyped]  # (no stubs installed)

    from interp.runs.replay import first_dealer_of, write_atomically
    from interp.spec.loader import load_data
    from interp.spec.values import parse_seat
    from interp.table import render
    from interp.table.play import free_path
    from interp.table.render import styled
    from interp.table.scorekeeper import keep_score, new_sheet, score_deals, with_names
    if args.resume:
        doc = load_data(args.resume)
        st = score_deals(game, doc.data, doc)
        path, entered = args.resume, list(doc.data.get("deals") or [])
        names = doc.data.get("names")
        first_dealer = first_dealer_of(st) if st.deal_no else st.dealer
        for i in range(len(st.deals)):
            _print_deal(st, console, i)
    else:
        n = args.players or (len(args.names.split(",")) if args.names else None)
        names = args.names.split(",") if args.names else _ask_names(game, n or game.default_players, console)
        st = new_sheet(game, n, _options(args.option), 0)
        st.game = game = with_names(game, st.n, names)
        st.dealer = first_dealer = parse_seat(game, st.n, args.dealer)
        path, entered = args.save, []
        if path is None and sys.stdin.isatty():  # (piped answers are kept where they came from)
            path = free_path("saves", _stem(game) + "-score", ".yaml")

    named, n, options = st.game, st.n, dict(st.options)

    def saved(deals: list) -> None:
        assert path is not None
        data = {"players": n, "dealer": named.seat_name(first_dealer, n), "options": options,
                **({"names": [named.seat_name(s, n) for s in range(n)]} if names else {}), "deals": deals}
        write_atomically(path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False))

    def show(now) -> None:
        _print_deal(now, console)
        console.print(render.sheet_table(now, title=f"score sheet after deal {now.deals[-1]['deal']}"))

    where = f" The deals are saved to {path} after each one." if path else ""
    console.print(styled((game.name, "bold"), " score keeper — answer for each deal; 'undo' takes back the last "
                         f"deal; Ctrl-D when done.{where}"))
    st = keep_score(st, _asker(console), console.print, show, entered, saved if path else None)
    if path and entered and not st.match_over:
        console.print(f"\nThe deals so far are saved: interp score {args.file} --resume {path}")
    return st


def _ask_names(game, n: int, console: Console) -> list | None:
    """The players' names, asked only at a terminal (Enter keeps the seats' names)."""
    if not sys.stdin.isatty():
        return None
    seats = ", ".join(game.seat_name(s, n) for s in range(n))
    console.print(f"Players' names in seat order ({seats}), comma separated; Enter keeps those: ", end="")
    answer = input().strip()
    return answer.split(",") if answer else None


def _stem(game) -> str:
    return os.path.splitext(os.path.basename(game.path))[0]


def _asker(console: Console):
    """input() that prints its prompt through `console` (stdout, or stderr under --json)."""
    def read(prompt: str) -> str:
        console.print(prompt, end="")
        console.file.flush()
        return input()
    return read


def _print_deal(st, console: Console, index: int = -1) -> None:
    from interp.table import render
    record = st.deals[index]
    console.print(f"deal {record['deal']} (dealer {st.game.seat_name(record['dealer'], st.n)}): "
                  + "; ".join(record.get("breakdown", []) + render.entries_text(st, record["entries"])))


def _score_json(st) -> dict:
    """The same shapes as `interp run --json`: seats by name, numbers as numbers."""
    from interp.engine import match as engine
    from interp.runs.scenario import named_column, named_entries, named_facts
    game = st.game
    deals = [{"deal": r["deal"], "dealer": game.seat_name(r["dealer"], st.n), "facts": named_facts(st, r["facts"]),
              "entries": named_entries(st, r["entries"]), **({"breakdown": r["breakdown"]} if "breakdown" in r else {})}
             for r in st.deals]
    out = {"deals": deals, "sheet": {col: named_column(st, v) for col, v in st.sheet.items()},
           "match_over": st.match_over}
    if game.result is not None:
        out[game.result_label] = {game.seat_name(s, st.n): r for s, r in enumerate(engine.results(st))}
    return out


# -- serve ---------------------------------------------------------------------------------------------------------
def cmd_serve(args, console: Console) -> int:
    import sqlite3

    from interp.table.server import catalogue, serve
    games = catalogue(args.spec)
    for path in args.spec:
        load_game(path)  # a broken spec is reported now, at its line and column
    console.print(f"interp table server: open http://{args.host}:{args.port}/ (tables in {args.db}; Ctrl-C stops)")
    try:
        serve(args.host, args.port, args.db, games, args.bot_delay)
    except sqlite3.Error as exc:
        _error(f"{args.db}: cannot hold the tables there ({exc})")
        return EXIT_SPEC
    return 0


# -- rules ---------------------------------------------------------------------------------------------------------
def cmd_rules(args, console: Console) -> int:
    from interp.table import rules_text
    game = load_game(args.file)
    for line in rules_text.summary(game):
        console.print(line)
    if game.facts:
        asked = ", ".join(f.name for f in game.facts)
        console.print(f"Facts (what `interp score` asks): {asked}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
