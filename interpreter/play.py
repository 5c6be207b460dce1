"""`interp play`: a person at a terminal against bots, a whole match, saved after every move.

Ctrl-C, the end of input, or a crash leaves the save file in place, as it was after the last whole move;
`interp play --resume FILE` rebuilds the match from its seed and move log and carries on exactly where it stopped.
What a person types is shown back only literally (see `render.literal`).
"""
from __future__ import annotations

import os
import traceback
from typing import Callable

from . import engine, render, replay
from .agents import seat_agents
from .errors import IllegalMoveError, SaveError
from .events import text as event_text
from .state import State, event_visible

MAX_LINE = 200  # longer than any move or command

HELP = ("Type a move as listed (or its number; #number where moves are numbers themselves). Cards are rank then suit: 10H, QS, 7C. "
        "Commands: moves, hand, sheet, help, quit (saves; resume with --resume), "
        "end (stop the match by agreement and settle).")


class TerminalMatch:
    """Runs one match: the human's prompts, the bots' moves, the screens between deals, the autosave.
    `console` is a `render.LiteralConsole`, so that no text from the spec or the player is read as markup."""

    def __init__(self, game, st: State, human: int, bots: str, save_path: str, console: render.LiteralConsole,
                 read: Callable[[str], str] = input, bot_seed: int = 0):
        self.game, self.st, self.human = game, st, human
        bot_seats = [s for s in range(st.n) if s != human]
        self.agents = seat_agents(bots, bot_seats + [human], bot_seed)
        self.bots = bots
        self.save_path, self.console, self.read = save_path, console, read
        self.shown = 0
        self.agreed = False
        self.last_save: dict = {}  # the record last written, taken after a whole move

    # -- the loop -------------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or the player stops: 0, or 130 after Ctrl-C, 1 after a crash."""
        replay.remove_stale_temps(self.save_path)
        try:
            self.save()
        except OSError as exc:
            raise SaveError(f"{self.save_path}: cannot write the save there ({exc.strerror})") from None
        try:
            self.loop()
        except KeyboardInterrupt:
            return self.stop("\nInterrupted. ", 130)
        except EOFError:
            return self.stop("\nInput ended. ", 0)
        except _Quit:
            return self.stop("", 0)
        except _AgreedEnd:
            engine.end_by_agreement(self.st)
            self.agreed = True
            self.save()
            self.console.print(render.sheet_table(self.st, title="final sheet (ended by agreement)"))
            self.show_final()
            return 0
        except Exception as exc:  # a crash must not lose the game
            self.console.print(f"internal error: {exc!r}")
            self.console.print(traceback.format_exc())
            return self.stop("", 1)
        return 0

    def stop(self, note: str, code: int) -> int:
        """Write the last whole-move save again and say where it is: an interrupt or a crash in the middle of a
        move (or of a write) must leave the save as it was after the last whole move, never a half-applied one."""
        try:
            replay.save(self.save_path, self.last_save)
        except OSError as exc:
            self.console.print(f"{note}The game could not be saved to {self.save_path}: {exc.strerror}")
            return code or 1
        self.console.print(f"{note}The game is saved: interp play --resume {self.save_path}")
        return code

    def loop(self) -> None:
        st = self.st
        while True:
            self.show_events()
            if st.match_over and not st.deal_over:  # ended by agreement mid-deal
                self.show_final()
                return
            if st.deal_over:
                self.show_deal_result()
                if st.match_over:
                    self.show_final()
                    return
                engine.next_deal(st)
                self.save()
                continue
            seat = engine.to_move(st)
            moves = engine.legal_moves(st)
            if seat == self.human:
                move = self.ask(moves)
            else:
                move = self.agents[seat].choose(st.view(seat), moves)
            engine.apply(st, move)
            self.save()

    # -- the human's turn -------------------------------------------------------------------------------------------
    def ask(self, moves: list):
        st, out = self.st, self.console
        view = st.view(self.human)
        out.print()
        for line in render.table_lines(view, self.human):
            out.print(line)
        phase = engine.current_phase(st)
        acting = engine.actor(st)
        who = "" if acting == self.human else f" (for {self.game.seat_name(acting, st.n)})"
        out.print(phase.prompt(st) + who, style="bold")
        self.list_moves(moves)
        while True:
            text = self.read("> ").strip()
            if len(text) > MAX_LINE:
                out.print(f"That line is {len(text)} characters long: no move or command is. Try again.")
                continue
            command = text.lower()
            if command in ("quit", "exit", "q"):
                raise _Quit()
            if command in ("help", "?"):
                out.print(HELP)
                continue
            if command == "moves":
                self.list_moves(moves)
                continue
            if command == "hand":
                for line in render.table_lines(view, self.human):
                    out.print(line)
                continue
            if command == "sheet":
                out.print(render.sheet_table(st))
                continue
            if command == "end":
                raise _AgreedEnd()
            if not text:
                continue
            try:
                return engine.parse_move(st, text)
            except IllegalMoveError as exc:
                out.print(render.styled(("Not legal:", "red"), f" {exc.message}. Try again (or 'moves', 'help')."))

    def list_moves(self, moves: list) -> None:
        mark = "#" if engine.numbered_by_hash(self.st, moves) else ""
        items = [f"{mark}{i}) {engine.describe(self.st, m)}" for i, m in enumerate(moves, 1)]
        self.console.print("moves: " + "  ".join(items))

    # -- screens -------------------------------------------------------------------------------------------------------
    def show_events(self) -> None:
        events = self.st.events
        for event in events[self.shown:]:
            line = event_text(self.st, event) if event_visible(event, self.human) else None
            if line is not None and event.kind != "deal-end":
                self.console.print(line)
        self.shown = len(events)

    def show_deal_result(self) -> None:
        st, out = self.st, self.console
        record = st.deals[-1]
        out.print()
        if record.get("redeal"):
            out.print(render.styled((f"Deal {record['deal']} is void", "bold"), " (redeal): nothing is scored"))
            return
        out.print(f"Deal {record['deal']} result", style="bold")
        lines = render.facts_text(st, record["facts"]) + record.get("breakdown", [])
        for line in lines + render.entries_text(st, record["entries"]):
            out.print("  " + line)
        out.print(render.sheet_table(st, title=f"score sheet after deal {record['deal']}"))

    def show_final(self) -> None:
        st, out = self.st, self.console
        out.print("The match is over.", style="bold")
        results = engine.results(st)
        for seat in sorted(range(st.n), key=lambda s: -results[s]):
            out.print(f"  {self.game.seat_name(seat, st.n)}: {render.number(results[seat])}")

    def save(self) -> None:
        """Write the match as it is now: call it only between whole moves."""
        self.last_save = replay.record(self.st, human=self.human, bots=self.bots, agreed_end=self.agreed)
        replay.save(self.save_path, self.last_save)


class _Quit(Exception):
    pass


class _AgreedEnd(Exception):
    pass


def default_save_path(game, seed: int) -> str:
    stem = os.path.splitext(os.path.basename(game.path))[0]
    return os.path.join("saves", f"{stem}-{seed}.json")
