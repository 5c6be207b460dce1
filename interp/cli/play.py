"""`interp play` (a match at the terminal, or resumed from a save) and `interp serve` (the table server)."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from interp.cli import common
from interp.cli.common import EXIT_SPEC, options_of, say_error

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from interp.table.render import LiteralConsole


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
        game = common.load_game(args.file)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
        st = engine.new_match(game, args.players, seed, options_of(args.option))
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


def cmd_serve(args, console: Console) -> int:
    import sqlite3

    from interp.table.server import catalogue, serve
    games = catalogue(args.spec)
    for path in args.spec:
        common.load_game(path)  # a broken spec is reported now, at its line and column
    console.print(f"interp table server: open http://{args.host}:{args.port}/ (tables in {args.db}; Ctrl-C stops)")
    try:
        serve(args.host, args.port, args.db, games, args.bot_delay)
    except sqlite3.Error as exc:
        say_error(f"{args.db}: cannot hold the tables there ({exc})")
        return EXIT_SPEC
    return 0
