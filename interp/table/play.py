"""`interp play`: a person at a terminal against bots, a whole match, saved after every move.

Ctrl-C, the end of input, or a crash leaves the save file in place, as it was after the last whole move;
`interp play --resume FILE` rebuilds the match from its seed and move log and carries on exactly where it stopped.
What a person types is shown back only literally (see `render.literal`).
"""
from __future__ import annotations

import os
import select
import sys
import time
import traceback
from typing import Callable

from interp.bots.registry import seat_agents
from interp.bots.search import SearchAgent
from interp.engine import match as engine, wording as prompt
from interp.engine.events import grouped as event_lines_grouped, learned as event_learned, text as event_text
from interp.engine.state import State, event_visible
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError, SaveError
from interp.runs import replay
from interp.table import render, rules_text

MAX_LINE = 200  # longer than any move or command
DEFAULT_DELAY = 0.6  # seconds after each bot card on a terminal (twice that after a trick); 0 when piped

HELP = ("Type a move as listed, its [number], or words only it has (7h, quart). Cards are rank then suit: 10H, QS, "
        "7C. Commands: moves, hand, last (the last trick), played (cards played this deal), sheet, rules, "
        "hint (what the search bot would play, and why), undo (take back your last move), help, "
        "quit (saves; resume with --resume), end (stop the match by agreement and settle). "
        "Several cards on one line (7h 8h 9c) are several moves, each checked; none is played if one cannot be. "
        "A move that is the only legal one is played by itself (interp play --confirm-forced asks instead). "
        "Enter skips the pauses between bot moves.")


class TerminalMatch:
    """Runs one match: the human's prompts, the bots' moves, the screens between deals, the autosave.
    `console` is a `render.LiteralConsole`, so that no text from the spec or the player is read as markup.
    `delay` is the pause in seconds after each bot card (twice that after a trick); `wait(seconds)` pauses and
    returns True when the person pressed Enter to skip ahead (see `tty_wait`). A `resumed` match does not retell
    the moves replayed from its save. The person's only legal move is played after a pause of `delay`, unless
    `confirm_forced`, when it is asked as any other."""

    def __init__(self, game, st: State, human: int, bots: str, save_path: str, console: render.LiteralConsole,
                 read: Callable[[str], str] = input, bot_seed: int = 0, delay: float = 0.0,
                 wait: Callable[[float], bool] | None = None, resumed: bool = False, hint_budget: int | None = None,
                 undone: list | None = None, confirm_forced: bool = False):
        self.game, self.st, self.human = game, st, human
        bot_seats = [s for s in range(st.n) if s != human]
        self.agents = seat_agents(bots, bot_seats + [human], bot_seed)
        self.bots, self.bot_seed = bots, bot_seed
        self.save_path, self.console, self.read = save_path, console, read
        self.delay, self.wait = delay, wait or _sleep
        self.skipping = False  # Enter was pressed: no pauses until the person's next turn
        self.hint_budget = hint_budget
        self.shown = len(st.events) if resumed else 0
        self.pending: list = []  # a run of equal lines not printed yet (shown as one line with a count)
        self.menu: list = []  # the menu of the decision at hand (prompt.Choice records)
        self.undone: list = list(undone or [])  # log entries taken back by `undo`, kept in the save
        self.agreed = False
        self.confirm_forced = confirm_forced
        self.last_save: dict = {}  # the record last written, taken after a whole move

    # -- the loop -------------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or the player stops: 0, or 130 after Ctrl-C, 1 after a crash."""
        replay.check_save_target(self.save_path)
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
        except SaveError as exc:  # something not a file was put at the save's path meanwhile: it is left as it is
            self.console.print(exc.format())
            return 2
        except Exception as exc:  # a crash must not lose the game
            self.console.print(f"internal error: {exc!r}")
            self.console.print(traceback.format_exc())
            return self.stop("", 1)
        return 0

    def stop(self, note: str, code: int) -> int:
        """Write the last whole-move save again and say where it is: an interrupt or a crash in the middle of a
        move (or of a write) must leave the save as it was after the last whole move, never a half-applied one."""
        self.flush()
        try:
            replay.save(self.save_path, self.last_save)
        except OSError as exc:
            self.console.print(f"{note}The game could not be saved to {self.save_path}: {exc.strerror}")
            return code or 1
        self.console.print(f"{note}The game is saved: interp play --resume {self.save_path}")
        return code

    def loop(self) -> None:
        while True:
            st = self.st
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
            assert seat is not None  # the deal is not over
            moves = engine.legal_moves(st)
            if seat == self.human:
                self.flush()
                self.skipping = False
                line = self.ask(moves)
                if line is None:  # taken back: the state was rebuilt
                    continue
            else:
                line = [self.agents[seat].choose(st.view(seat), moves)]
            for move in line:
                engine.apply(st, move)
                self.save()

    # -- the human's turn -------------------------------------------------------------------------------------------
    def ask(self, moves: list) -> list | None:
        """The person's moves (one, or the cards of a line `7h 8h 9c`), or None after `undo` (the match was
        rebuilt without their last move)."""
        st, out = self.st, self.console
        out.print()
        self.show_table()
        phase = engine.current_phase(st)
        acting = engine.actor(st)
        who = "" if acting == self.human else f" (for {self.game.seat_name(acting, st.n)})"
        out.print(phase.prompt(st) + who, style="bold")
        self.menu = prompt.menu(st, moves)
        if len(moves) == 1 and not self.confirm_forced:
            out.print(f"the only legal move: {self.menu[0].label} (played)")
            self.console.file.flush()
            if self.delay > 0:
                self.wait(self.delay)
            return moves
        self.list_moves()
        while True:
            text = self.read("> ").strip()
            if len(text) > MAX_LINE:
                out.print(f"That line is {len(text)} characters long: no move or command is. Try again.")
                continue
            command = text.lower()
            if command in COMMANDS:
                if getattr(self, COMMANDS[command])(moves):
                    return None
                continue
            if not text:
                continue
            try:
                return self.moves_typed(text)
            except IllegalMoveError as exc:
                out.print(render.styled(("Not legal:", "red"), f" {exc.message}. Try again (or 'moves', 'help')."))

    def moves_typed(self, text: str) -> list:
        """The moves `text` names: one move, or, when it is not one, the cards of a line (`7h 8h 9c`), all
        checked before any is made; IllegalMoveError says why not."""
        st = self.st
        try:
            picked = prompt.pick(st, text, self.menu)
        except IllegalMoveError:
            if prompt.cards_line(st, text):
                return prompt.pick_line(st, text)
            raise
        if picked.how != "move":
            self.console.print(f"you chose {engine.describe(st, picked.move)}")
        return [picked.move]

    def list_moves(self, moves: list | None = None) -> None:
        self.console.print(prompt.menu_line(self.menu))

    def show_table(self, moves: list | None = None) -> None:
        for line in render.table_lines(self.st.view(self.human), self.human):
            self.console.print(line)

    def show_help(self, moves: list) -> None:
        self.console.print(HELP)

    def show_sheet(self, moves: list) -> None:
        self.console.print(render.sheet_table(self.st))

    def show_last(self, moves: list) -> None:
        self.console.print(render.last_trick_line(self.st.view(self.human)))

    def show_played(self, moves: list) -> None:
        for line in render.played_lines(self.st.view(self.human)):
            self.console.print(line)

    def show_rules(self, moves: list) -> None:
        for line in rules_text.summary(self.game, self.st.n):
            self.console.print(line)

    def quit(self, moves: list) -> None:
        raise _Quit()

    def end(self, moves: list) -> None:
        answer = self.read("End the match now and settle the sheet as it stands? (yes/no) ").strip().lower()
        if answer in ("y", "yes"):
            raise _AgreedEnd()
        self.console.print("The match goes on.")

    def hint(self, moves: list) -> None:
        """The search agent's move for the seat to move, from that seat's view, and its reason."""
        st = self.st
        seat = engine.to_move(st)
        assert seat is not None  # asked at the prompt: the deal is not over
        self.console.print(hint_text(st, st.view(seat), moves, self.bot_seed + len(st.history), self.hint_budget))

    def undo(self, moves: list) -> bool:
        """Take back the person's last move of this deal that was a choice (a move played by itself as the only
        legal one is taken back with it) and the bots' moves after it; True when done. Refused when the person
        has since seen cards they did not know when they moved (dealt, drawn, turned up, passed to them, or played
        by another seat: see `events.learned`): choosing again knowing them would be cheating."""
        st = self.st
        first = len(st.history) - len([h for h in st.history if h[0] == st.deal_no])
        mine = [i for i in range(first, len(st.history)) if st.history[i][1] == self.human]
        if not mine:
            self.console.print("Nothing to take back: you have not moved yet in this deal.")
            return False
        for keep in reversed(mine):
            rebuilt = replay.replay(self.game, st.history[:keep], st.n, st.seed, st.options,
                                    replay.first_dealer_of(st), st.deal_no)
            if self.confirm_forced or len(engine.legal_moves(rebuilt)) > 1:
                break
        else:
            self.console.print("Nothing to take back: each of your moves in this deal was the only legal one.")
            return False
        yours = engine.describe(rebuilt, parse_move(rebuilt, st.history[keep][2]))
        new = event_learned(rebuilt.view(self.human), st.view(self.human))
        if new:
            cards = " ".join(self.game.deck.pretty(c) for c in new)
            self.console.print(f"Your {yours} cannot be taken back: since it you have seen {cards}, which you did "
                               "not know when you chose it.")
            return False
        taken = [list(h) for h in st.history[keep:]]
        self.undone.extend(taken)
        self.st = rebuilt
        self.shown = len(rebuilt.events)
        self.save()
        others = len(taken) - 1
        self.console.print(f"Taken back: your {yours}" + (f" and the {others} move{'s' if others > 1 else ''} "
                                                          "after it" if others else "") + ".")
        return True

    # -- screens -------------------------------------------------------------------------------------------------------
    def show_events(self) -> None:
        events = self.st.events
        for event in events[self.shown:]:
            line = event_text(self.st, event) if event_visible(event, self.human) else None
            if line is not None and event.kind != "deal-end":
                self.say(line)
                if event.kind == "play" and event.seat != self.human:
                    self.pause(self.delay)
                elif event.kind == "trick":
                    self.pause(2 * self.delay)
        self.shown = len(events)

    def say(self, line: str) -> None:
        """Print `line`, holding a run of equal lines to print once with a count (`Bruno discards a card (×6)`)."""
        if self.pending and self.pending[0] != line:
            self.flush()
        self.pending.append(line)

    def flush(self) -> None:
        if self.pending:
            self.console.print(render.colour(event_lines_grouped(self.pending)[0]))
            self.pending = []

    def pause(self, seconds: float) -> None:
        if seconds <= 0 or self.skipping:
            return
        self.flush()
        self.console.file.flush()
        if self.wait(seconds):
            self.skipping = True

    def show_deal_result(self) -> None:
        st, out = self.st, self.console
        self.flush()
        record = st.deals[-1]
        out.print()
        if record.get("redeal"):
            out.print(render.styled((f"Deal {record['deal']} is void", "bold"), " (redeal): nothing is scored"))
            return
        out.print(f"Deal {record['deal']} result", style="bold")
        lines = record.get("breakdown") or render.facts_text(st, record["facts"])
        for line in lines + render.entries_text(st, record["entries"]):
            out.print("  " + line)
        out.print(render.sheet_table(st, title=f"score sheet after deal {record['deal']}"))

    def show_final(self) -> None:
        st, out = self.st, self.console
        self.flush()
        out.print("The match is over.", style="bold")
        results = engine.results(st)
        for seat in sorted(range(st.n), key=lambda s: -results[s]):
            out.print(f"  {self.game.seat_name(seat, st.n)}: {render.number(results[seat])}")

    def save(self) -> None:
        """Write the match as it is now: call it only between whole moves."""
        extra = {"undone": self.undone} if self.undone else {}
        self.last_save = replay.record(self.st, human=self.human, bots=self.bots, agreed_end=self.agreed, **extra)
        replay.save(self.save_path, self.last_save)


COMMANDS = {"quit": "quit", "exit": "quit", "q": "quit", "help": "show_help", "?": "show_help",
            "moves": "list_moves", "hand": "show_table", "sheet": "show_sheet", "last": "show_last",
            "played": "show_played", "rules": "show_rules", "hint": "hint", "undo": "undo", "end": "end"}


def hint_text(st: State, view: State, moves: list, seed: int, budget: int | None = None) -> str:
    """The search agent's move for `view` and, where it weighed several, its reason: the mean deal value of its
    move over the sampled worlds against the next best."""
    if len(moves) == 1:
        return f"hint: {engine.describe(st, moves[0])} (the only legal move)"
    agent = SearchAgent(seed=seed, budget=budget) if budget else SearchAgent(seed=seed)
    values = agent.evaluate(view, moves)
    if values is None:
        move = agent.policy(seed=seed).choose(view, moves)
        return f"hint: {engine.describe(st, move)} (no consistent deal could be imagined: the rule of thumb's move)"
    ranked = sorted(zip(values, range(len(moves))), reverse=True)
    (best, i), (second, j) = ranked[0], ranked[1]
    return (f"hint: {engine.describe(st, moves[i])} — worth {best:+.1f} on average over the deals it imagined, "
            f"against {second:+.1f} for {engine.describe(st, moves[j])}")


def _sleep(seconds: float) -> bool:
    time.sleep(seconds)
    return False


def tty_wait(seconds: float) -> bool:
    """Pause up to `seconds`; True (and the line is read) if Enter was pressed meanwhile. Only for a terminal.

    POSIX waits on stdin with `select`; Windows, where `select` takes only sockets, polls the console's keyboard
    (`msvcrt`) every 20 ms and reads the line once a key was pressed."""
    if sys.platform == "win32":
        return _console_wait(seconds)
    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    if ready:
        sys.stdin.readline()
        return True
    return False


def _console_wait(seconds: float, step: float = 0.02) -> bool:
    """`tty_wait` on Windows: poll `msvcrt.kbhit()` until a key is pressed or `seconds` have passed."""
    import msvcrt  # Windows only

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if msvcrt.kbhit():  # type: ignore[attr-defined]
            sys.stdin.readline()
            return True
        time.sleep(step)
    return False


class _Quit(Exception):
    pass


class _AgreedEnd(Exception):
    pass


def default_save_path(game, seed: int, folder: str = "saves") -> str:
    """Where a new match saves when `--save` is not given: `saves/<game>-<seed>.json`, or, when a save of that
    name already exists (the same game and seed played before), the first free `<game>-<seed>-N.json`, so an
    earlier match is never overwritten.

    >>> import tempfile; from types import SimpleNamespace
    >>> folder = tempfile.mkdtemp(); game = SimpleNamespace(path="games/cards.yaml")
    >>> os.path.basename(default_save_path(game, 7, folder))
    'cards-7.json'
    >>> open(os.path.join(folder, "cards-7.json"), "w").close()
    >>> os.path.basename(default_save_path(game, 7, folder))
    'cards-7-2.json'
    """
    stem = os.path.splitext(os.path.basename(game.path))[0]
    return free_path(folder, f"{stem}-{seed}", ".json")


def free_path(folder: str, stem: str, ext: str) -> str:
    """`folder/stem.ext`, or the first free `folder/stem-N.ext` (N from 2) when that exists."""
    path, n = os.path.join(folder, stem + ext), 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(folder, f"{stem}-{n}{ext}")
    return path
