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

from interp.cli.common import EXIT_INTERRUPTED, EXIT_SPEC, say_error
from interp.cli.parser import build_parser

if _MAIN_THREAD:  # loaded: from here on main() answers Ctrl-C
    signal.signal(signal.SIGINT, _sigint_before)


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
        say_error(exc.format())
        return getattr(exc, "exit_code", EXIT_SPEC)
    except ValueError as exc:
        say_error(f"error: {exc}")
        return EXIT_SPEC
    except KeyboardInterrupt:  # before a match starts (a match saves itself and returns): nothing to lose
        say_error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
