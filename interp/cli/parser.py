"""The command line: `interp`'s subcommands and their arguments, each numeric one checked (one line, exit 2)."""
from __future__ import annotations

import argparse
import os
from typing import Any, Callable

from interp import __version__
from interp.cli.common import EXIT_SPEC
from interp.cli.games import cmd_rules, cmd_validate
from interp.cli.play import cmd_play, cmd_serve
from interp.cli.runs import cmd_arena, cmd_bench, cmd_run, cmd_simulate, cmd_summarize
from interp.cli.score import cmd_score


class Parser(argparse.ArgumentParser):
    """argparse, with a mistake on the command line said in one line (exit 2), pointing at --help."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_SPEC, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="interp", description="A rules-as-data card-game interpreter.")
    parser.add_argument("--version", action="version", version=f"interp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

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
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deal-no", type=_deal_numbers, default=(1, 1), metavar="K[-L]",
                       help="play deal number K of each match (default 1), or deal numbers K to L in turn; the deals "
                            "before are played by the heuristic")
    which.add_argument("--matches", action="store_true", help="play whole matches (-n counts matches)")
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


def _number(kind: type, fits: Callable[[Any], bool], wanted: str) -> Callable[[str], Any]:
    """An argparse type: the text read as `kind` (int or float) and refused in one line, saying what is
    `wanted`, unless the number `fits`.

    >>> _port("8000"), _seconds("0.5")
    (8000, 0.5)
    """
    def read(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not fits(value):
            raise argparse.ArgumentTypeError(f"{wanted}, not {text!r}")
        return value
    return read


_positive = _number(int, lambda v: v >= 1, "a whole number from 1")  # counts: deals, players, jobs, iterations
_port = _number(int, lambda v: 1 <= v <= 65535, "a port from 1 to 65535")  # a TCP port to listen on
_duration = _number(float, lambda v: 0 < v <= 86400, "seconds above 0 (at most 86400)")  # `bench --seconds`
_seconds = _number(float, lambda v: 0 <= v <= 60, "seconds from 0 to 60")  # pauses: --delay, --bot-delay


def _deal_numbers(text: str) -> tuple:
    """`--deal-no`: K, or K-L, deal numbers from 1.

    >>> _deal_numbers("3"), _deal_numbers("1-19")
    ((3, 3), (1, 19))
    """
    first, _, last = text.partition("-")
    numbers = [_positive(first), _positive(last) if last else None]
    if numbers[1] is not None and numbers[1] < numbers[0]:
        raise argparse.ArgumentTypeError(f"a range K-L with K <= L, not {text!r}")
    return numbers[0], numbers[1] or numbers[0]


def _bots(text: str) -> str:
    """`--bots` checked in form (a plug-in is imported by the command, where a failure is one line)."""
    from interp.bots.registry import check_names
    try:
        check_names(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
