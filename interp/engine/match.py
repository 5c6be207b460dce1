"""The match flow: start a deal, run automatic phases, hand decisions to the seat to move, score, rotate.

>>> from interp.spec.compiler import load_game
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = new_match(game, seed=7)
>>> to_move(st) in st.active and len(legal_moves(st)) > 0
True
"""
from __future__ import annotations

from fractions import Fraction
from itertools import repeat
from operator import is_

from interp.dsl.runtime import BUDGET, PYTHON_ERRORS, LimitError
from interp.engine.game import SHARED_STARTS
from interp.engine.phases.base import with_locals
from interp.engine.state import Event, Move, State
from interp.errors import IllegalMoveError, SpecRuntimeError

MAX_AUTOMATIC_STEPS = 10000  # phases run in a row with no decision (a `goto` loop)
MAX_DEAL_MOVES = 10000  # moves in one deal (the longest shipped deal has ~150)
PLAIN = (int, bool, str)  # fact values that are JSON as they are
STANDINGS_MEMO = 4096  # sheets whose standings a game remembers (then it starts again)
# the "deal-end" events of deals 0 to SHARED_STARTS - 1, shared by every match (events never change)
DEAL_ENDS = tuple(Event("deal-end", None, (), no) for no in range(SHARED_STARTS))


def new_match(game, players: int | None = None, seed: int | None = 0, options: dict | None = None,
              dealer: int | None = None, stack: dict | None = None, deal: bool = True) -> State:
    """A new match, advanced to its first decision. `options` override the spec's option defaults;
    `stack` ({zone id: cards}) replaces the first deal's shuffle; `deal=False` starts no deal (score keeping)."""
    n = players or game.default_players
    if n not in game.players:
        raise ValueError(f"{game.name} is for {', '.join(map(str, game.players))} players, not {n}")
    values: dict = {}
    _set_vars(values, game, "new" if deal else "match", n)  # "new": the match's and the first deal's
    st = State(game, n, resolve_options(game, options) if options else dict(game.option_defaults), seed, values,
               game.new_sheets[n](), stack)
    st.dealer = game.first_dealer_seat(st) if dealer is None else dealer
    if deal:
        _seat_deal(st, True)  # a new state has no cards dealt, nothing revealed and every seat its own master
    return st


def resolve_options(game, overrides: dict) -> dict:
    """Option values: the spec's defaults with `overrides` applied; unknown names and bad values raise."""
    values = dict(game.option_defaults)
    for name, value in overrides.items():
        if name not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise ValueError(f"unknown option '{name}' (options: {known})")
        values[name] = coerce_option(game.options[name], name, value)
    return values


def coerce_option(decl: dict, name: str, value):
    default = decl["default"]
    if isinstance(value, str):
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(f"option {name} is true or false, not {value!r}")
            value = value.lower() in ("true", "yes", "1")
        elif isinstance(default, int):
            try:
                value = int(value)
            except ValueError:
                raise ValueError(f"option {name} is a whole number, not {value!r}") from None
    if isinstance(default, Fraction) and isinstance(value, (str, int)) and not isinstance(value, bool):
        try:
            value = Fraction(str(value))
        except ValueError:
            raise ValueError(f"option {name} is a number, not {value!r}") from None
    if type(value) is not type(default):
        raise ValueError(f"option {name} takes a {type(default).__name__}, not {value!r}")
    allowed = decl.get("values")
    if allowed is not None and value not in allowed:
        raise ValueError(f"option {name} is one of {allowed}, not {value!r}")
    return value


def _start_vars(st: State, scope: str) -> None:
    """Set the vars of `scope` ("deal" or "match") to their defaults (one each per seat for per-seat vars)."""
    _set_vars(st.vars, st.game, scope, st.n)


def _set_vars(values: dict, game, scope: str, n: int) -> None:
    """Put the defaults of the vars of `scope` (see `Game.var_starts`) into `values`, a list of n for a per-seat
    var."""
    defaults, per_seat = game.var_starts(scope)
    values.update(defaults)
    for name, default in per_seat:
        values[name] = [default] * n


def start_deal(st: State, play: bool = True) -> None:
    """Reset the deal's zones and vars, seat the players, and (if `play`) run up to the first decision."""
    if st.unsettled:
        st.settle()
    for zone in st.zones:
        if zone:
            zone.clear()
    if st.revealed:
        st.revealed.clear()
    if st.shown:
        st.shown.clear()
    st.controller = list(range(st.n))
    _start_vars(st, "deal")
    _seat_deal(st, play)


def _seat_deal(st: State, play: bool) -> None:
    """Start the next deal of a state whose zones and deal vars are as a deal starts: number it, seat the
    players, log its start and (if `play`) run up to the first decision."""
    game, n = st.game, st.n
    no = st.deal_no = st.deal_no + 1
    order = game.seat_orders[n][st.dealer % n]  # from the dealer's next seat round to the dealer
    out = None if game.sit_out is None else game.sit_out(st)
    if out:
        out = set(out)
        st.active = [s for s in order if s not in out]
    else:
        st.active = list(order)
    st.phase, st.ph = 0, None
    st.deal_over = False
    st.deal_events = len(st.events)
    st.events.append(game.deal_starts[st.dealer][no] if no < SHARED_STARTS else Event("deal-start", st.dealer, (), no))
    if play:
        advance(st)


def advance(st: State) -> None:
    """Run the deal on from where it stands until a seat must decide or the deal ends.

    Each turn of the loop below is one *step*: it ends the deal (a redeal, the last phase done, the match's
    `end_now` holding before a phase starts), or starts the next phase and finishes it at once when it is
    automatic (not `interactive`: done once started), or stops at a phase waiting for a seat's move. A finished
    phase moves on to the next one or to its `goto` target (`finish_phase`). Each step gives the spec's
    expressions a fresh loop budget (`BUDGET`); a deal may take at most MAX_AUTOMATIC_STEPS steps in a row
    without a decision, so that a `goto` loop that never stops is reported (`runaway`), not run forever.

    A phase whose `when` is false is skipped, and skipping one costs a step like starting one. The phases
    skipped one after another are skipped in one run (`skip_phases`), which counts their steps as if this loop
    had turned once for each. The `when` conditions checked between two phase starts share the defines they use
    (game.stretch, opened before the first check and closed before a phase starts: see `Stretch`).
    """
    st.legal = None  # the position changes: the moves listed before no longer hold
    game = st.game
    stretch = game.stretch
    phases, end_now, gotos = game.phases, game.end_now, game.gotos
    count = len(phases)
    steps = 0
    try:
        while not st.deal_over:
            steps += 1
            BUDGET.steps = 0
            if steps > MAX_AUTOMATIC_STEPS:
                raise runaway(phases[min(st.phase, count - 1)])
            if st.abandon:
                abandon_deal(st)
                return
            index = st.phase
            if index >= count:
                end_deal(st)
                return
            phase = phases[index]
            if st.ph is None and end_now is not None and end_now(st):
                end_match_now(st)
                return
            try:
                if st.ph is None:  # the phase at `index` is next: skipped if its `when` is false, else started
                    when = phase.when
                    if when is not None:
                        if stretch.token is None:  # Stretch.open
                            stretch.token = object()
                        if not when(st):
                            steps = skip_phases(st, phases, index, steps)
                            index = st.phase
                            if index == count or steps > MAX_AUTOMATIC_STEPS:
                                steps -= 1  # the loop's next turn counts this step again: it ends the deal
                                continue  # or stops the runaway
                            phase = phases[index]
                        stretch.token = None  # Stretch.close: the phase starts, the game changes
                    phase.start(st)
                    if phase.interactive and not phase.done(st):
                        return  # a seat must decide
                elif not phase.done(st):  # a phase under way (advance called between its moves)
                    return
                if gotos:
                    finish_phase(st, phase)
                else:  # finish_phase without a `goto` to look at
                    st.ph = None
                    st.phase += 1
            except PYTHON_ERRORS as exc:
                st.phase = index  # where it failed
                raise phase_failure(phases[index], exc) from None
    finally:
        stretch.token = None  # Stretch.close (a stretch is only opened above)


def skip_phases(st: State, phases: list, index: int, steps: int) -> int:
    """Skip the phase at `index` of `phases` (the game's), whose `when` was just found false at step `steps` of
    `advance`, and the phases after it whose `when` is false too: set `st.phase` to the phase to start (the first
    with no `when` or one that holds; len(phases) past the last) and give the steps counted once there.

    A `when` only reads the game, so nothing that `advance` checks at the top of its loop (a redeal, the match's
    end) can change between two of them: they are checked here one after the other, and each phase skipped
    counts the step the loop would have taken for it. Past MAX_AUTOMATIC_STEPS, `st.phase` is left at the phase
    where the count ran out and the count is MAX_AUTOMATIC_STEPS + 1, so that `advance` stops the runaway there,
    as its loop would have. The `when`s of one run share the loop budget of the step that began it; a phase
    with no `when` is landed on with a fresh one, as the loop's next turn would give it.
    """
    count = len(phases)
    first = index
    try:
        while True:
            index += 1
            if index == count:
                break
            when = phases[index].when
            if when is None or when(st):
                break
    except PYTHON_ERRORS as exc:
        st.phase = index  # the phase being skipped whose `when` failed
        raise phase_failure(phases[index], exc) from None
    steps += index - first
    if steps > MAX_AUTOMATIC_STEPS:  # stopped at the phase where the count ran out
        st.phase = index - (steps - MAX_AUTOMATIC_STEPS - 1)
        return MAX_AUTOMATIC_STEPS + 1
    st.phase = index
    if index < count and when is None:
        BUDGET.steps = 0  # as the loop's next turn would have it
    return steps


def end_match_now(st: State) -> None:
    """The match's `end_now` holds as a phase is to start (a target reached during a deal): the deal ends here,
    scored as it stands, and so does the match."""
    st.events.append(Event("match-end", value="target"))
    end_deal(st)
    st.match_over = True


def runaway(phase) -> SpecRuntimeError:
    """The error of a deal whose phases run on and on without a decision (a `goto` loop that never stops)."""
    return SpecRuntimeError(f"phases ran {MAX_AUTOMATIC_STEPS:,} times in a row without a decision "
                            f"(at phase {phase.id!r})", phase.location,
                            "check the `goto` conditions: one of them never lets the deal move on",
                            phase.source_line)


def finish_phase(st: State, phase) -> None:
    """Move past a finished phase: to its `goto` target when that condition holds, else to the next phase."""
    st.ph = None
    gotos = st.game.gotos
    if gotos:
        goto = gotos.get(phase.id)
        if goto is not None and goto[1](st):
            st.phase = goto[0]
            return
    st.phase += 1


def end_deal(st: State) -> None:
    """Score the deal into the sheet, record the deal, and decide whether the match is over. The record's facts,
    sheet entries, values and breakdown lines are made when the records are first read (`State.deals`; a playout
    reads none), from the state as the deal ended (`DealEnd`)."""
    game = st.game
    sheet = game.copy_sheet(st.sheet)
    standing = None if game.standing_from_sheet() else standings(st)
    if game.scoring is not None:
        game.scoring(st)
    no = st.deal_no
    record = {"deal": no, "dealer": st.dealer}
    st.deals.append(record)
    st.unsettled = DealEnd(record, sheet, standing)
    st.events.append(DEAL_ENDS[no] if no < SHARED_STARTS else Event("deal-end", None, (), no))
    st.deal_over = True
    check_match_end(st)


class DealEnd:
    """The last deal's record still to be completed: the sheet before the deal was scored, and (when the
    standings read more than the sheet) the standings before it. `complete` makes the rest from the state as
    the deal ended: the engine settles the record (`State.settle`) before the state moves on (the next deal, a
    copy, a view, an agreed end). The deal's values alone (what a search bot reads) are made by `values`."""

    __slots__ = ("record", "sheet", "standing", "worth")

    def __init__(self, record: dict, sheet: dict, standing: list | None):
        self.record, self.sheet, self.standing = record, sheet, standing
        self.worth: list | None = None

    def values(self, st: State) -> list:
        """Each seat's change in standing over the deal (worked out once)."""
        if self.worth is None:
            was = self.standing if self.standing is not None else _standings_on(st, self.sheet)
            self.worth = [after - before for after, before in zip(sheet_standings(st), was)]
        return self.worth

    def complete(self, st: State) -> None:
        """Add the record's facts, entries ({column: {seat: delta}}), values and, with a `display.result`, its
        breakdown lines."""
        record, game = self.record, st.game
        record["facts"] = facts_of(st)
        record["entries"] = sheet_entries(self.sheet, st.sheet)
        record["values"] = self.values(st)
        if game.breakdown:
            record["breakdown"] = game.result_lines(st)


def check_match_end(st: State) -> None:
    """After a deal (scored or void): the match is over when the spec's `match.end` holds."""
    if st.game.match_end is not None and st.game.match_end(st):
        st.match_over = True
        st.events.append(Event("match-end", value="over"))


def abandon_deal(st: State) -> None:
    """End the deal without scoring it (a redeal): it is recorded, and the deal passes on as usual."""
    st.abandon = False
    st.deals.append({"deal": st.deal_no, "dealer": st.dealer, "facts": {}, "entries": {}, "redeal": True,
                     "values": [0] * st.n})
    st.deal_over = True
    check_match_end(st)  # e.g. a session of a fixed number of deals


def next_deal(st: State, play: bool = True) -> None:
    """After a finished deal: pass the deal on — to the seat `match.next_dealer` names, read as the deal ended,
    else to the dealer's left — and deal again (`play=False`: only reset it)."""
    if st.match_over:
        raise ValueError("the match is over")
    if st.unsettled:  # the last record is made from the deal as it ended, before the deal passes on
        st.settle()
    rule = st.game.next_dealer
    if rule is not None:
        BUDGET.steps = 0
    seat = None if rule is None else rule(st)
    st.dealer = (st.dealer + 1) % st.n if seat is None else seat
    start_deal(st, play)


def end_by_agreement(st: State) -> None:
    """The players stop the match early: the spec's `match.agreed_end` statements adjust the sheet (for a
    pool target, say, the missing pool goes to the mountain), and the match is over."""
    if st.unsettled:
        st.settle()
    if st.game.agreed_end is not None:
        st.game.agreed_end(st)
    st.match_over = True
    st.events.append(Event("match-end", value="agreed"))


def facts_of(st: State) -> dict:
    return {f.name: _plain(st.vars.get(f.name)) for f in st.game.facts}


def _plain(value):
    if value is None or type(value) in PLAIN:
        return value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):  # exact numbers as JSON has them: 44, 40.5
        return int(value) if value.denominator == 1 else float(value)
    if hasattr(value, "index") and hasattr(value, "fields"):
        return value.name
    return value


def sheet_entries(before: dict, after: dict) -> dict:
    """What a deal wrote: {column: {seat: delta}} or {column: {(writer, against): delta}}."""
    out = {}
    for name, col in after.items():
        old = before[name]
        diff: dict
        if col and isinstance(col[0], list):
            diff = {(a, b): col[a][b] - old[a][b] for a in range(len(col)) for b in range(len(col))
                    if col[a][b] != old[a][b]}
        else:
            diff = {s: col[s] - old[s] for s in range(len(col)) if col[s] != old[s]}
        if diff:
            out[name] = diff
    return out


# -- decisions --------------------------------------------------------------------------------------------------
def current_phase(st: State):
    if st.deal_over or st.ph is None:
        return None
    return st.game.phases[st.phase]


def actor(st: State) -> int | None:
    """The seat whose turn it is (whose hand plays), or None when no decision is pending."""
    phase = current_phase(st)
    return None if phase is None else phase.actor(st)


def to_move(st: State) -> int | None:
    """The seat that makes the pending decision: the actor, or whoever controls the actor's hand."""
    seat = actor(st)
    return None if seat is None else st.controller[seat]


def card_census(st: State) -> list:
    """Every card where it is now: each zone's cards plus those a phase holds (a trick in play)."""
    cards = [c for zone in st.zones for c in zone]
    phase = current_phase(st)
    if phase is not None:
        cards.extend(phase.held(st))
    return cards


def legal_moves(st: State) -> list:
    """The moves the seat to move may make now, in a fixed order (empty when no decision is pending). They are
    remembered until the position changes (the next move made, or `advance`), so that `apply` checks a move
    against them without listing them again."""
    if st.deal_over or st.ph is None:
        return []
    phase = st.game.phases[st.phase]
    BUDGET.steps = 0  # the phase's own loops over its expressions share one budget per call
    try:
        moves = phase.legal(st)
    except PYTHON_ERRORS as exc:
        raise phase_failure(phase, exc) from None
    st.legal = tuple(moves)  # the caller may change its list: the engine keeps its own
    return moves


def is_legal(st: State, phase, move: Move) -> bool:
    """Whether `move` is legal now: a look-up in the moves last listed here (the very move object first, as
    callers pass back one of those listed; then an equal one), else the phase lists them. The moves listed are
    forgotten when the position changes: `apply` forgets them before it makes a move, `advance` before it runs
    phases; a copy, a view or a loaded state starts with none."""
    moves = st.legal
    if moves is not None:
        return any(map(is_, moves, repeat(move, len(moves)))) or move in moves
    return move in phase.legal(st)


def phase_failure(phase, exc: Exception) -> SpecRuntimeError:
    """A Python error while a phase ran, as a located error naming the phase (the spec's expressions report
    their own mistakes; this is the backstop for what they did not catch)."""
    if isinstance(exc, LimitError):
        return SpecRuntimeError(f"phase {phase.id!r}: while the game ran, {exc}", phase.location, exc.hint,
                                phase.source_line)
    return SpecRuntimeError(f"phase {phase.id!r} failed while the game ran ({type(exc).__name__}: {exc})",
                            phase.location, "a value in this phase's expressions may be none or out of range",
                            phase.source_line)


def apply(st: State, move: Move, check: bool = True) -> None:
    """Apply a legal move and advance to the next decision (or the end of the deal). `check=False` trusts the
    caller that the move is legal (one just listed by `legal_moves`). The phase plays the move and logs it in the
    history (`Phase.play`); while the phase is under way and no redeal was called, the same phase asks again and
    nothing else runs; once it is done it is finished (`finish_phase`) and the deal runs on (`advance`). A deal
    of MAX_DEAL_MOVES moves is stopped (`endless_deal`)."""
    if st.deal_over or st.ph is None:
        raise IllegalMoveError("no move is pending: the deal is over")
    phase = st.game.phases[st.phase]
    if check and not is_legal(st, phase, move):
        raise IllegalMoveError(f"{_move_words(st, phase, move)} is not legal now")
    st.legal = None  # the position changes (see is_legal)
    BUDGET.steps = 0
    history = st.history
    if len(history) >= MAX_DEAL_MOVES and history[-MAX_DEAL_MOVES][0] == st.deal_no:
        raise endless_deal(st, phase)
    try:
        if not phase.play(st, move, history):
            if not st.abandon:
                return  # the same phase asks again: nothing for `advance` to do
        else:
            finish_phase(st, phase)
    except PYTHON_ERRORS as exc:
        raise phase_failure(phase, exc) from None
    advance(st)


def endless_deal(st: State, phase) -> SpecRuntimeError:
    """The error of a deal that has taken MAX_DEAL_MOVES moves (the move log's entry that many moves back is of
    this deal too) and still goes on."""
    return SpecRuntimeError(f"deal {st.deal_no} has gone on for {MAX_DEAL_MOVES:,} moves without ending "
                            f"(now in phase {phase.id!r})", phase.location,
                            "a phase or `goto` loop that no move ends? check its end condition", phase.source_line)


def _move_words(st: State, phase, move: Move) -> str:
    """`move` in words for the message refusing it: as the phase writes its own moves, else (a move of another
    phase's kind: a card during an auction) as a card's code or the kind and value."""
    try:
        return phase.notation(st, move)
    except PYTHON_ERRORS:
        codes = st.game.deck.codes
        if move.kind == "card" and type(move.value) is int and 0 <= move.value < len(codes):
            return codes[move.value]
        return f"{move.kind} {move.value!r}"


def notation(st: State, move: Move) -> str:
    return current_phase(st).notation(st, move)


def describe(st: State, move: Move) -> str:
    return current_phase(st).describe(st, move)


# -- the score sheet -------------------------------------------------------------------------------------------------
def capped_set(st: State, col, value, seat: int) -> None:
    """Write `value` into a capped column; the excess over the cap flows on by the column's overflow rule."""
    column = st.sheet[col.name]
    old = column[seat]
    cap = col.cap(st)
    if value <= cap or value <= old:
        column[seat] = value
        return
    kept = max(old, cap)
    excess = value - kept
    column[seat] = kept
    while excess > 0:
        receiver = None
        if col.overflow_to is not None:
            receiver = with_locals(st, {"writer": seat, "amount": excess}, col.overflow_to)
        room = 0 if receiver is None else cap - column[receiver]
        if room <= 0:
            if col.overflow_else is not None:
                with_locals(st, {"writer": seat, "amount": excess}, col.overflow_else)
            return
        give = min(room, excess)
        column[receiver] += give
        if col.overflow_do is not None:
            with_locals(st, {"writer": seat, "receiver": receiver, "amount": give}, col.overflow_do)
        excess -= give


def standings(st: State) -> list:
    """Each seat's exact standing in the match: the spec's `match.standing`, else its `result` (or first column)."""
    if st.game.standing is None:
        return results(st)
    return [with_locals(st, {"s": s}, st.game.standing) for s in range(st.n)]


def sheet_standings(st: State) -> list:
    """`standings(st)`, reused from an earlier evaluation on the same sheet (options and player count) when the
    spec's standing reads nothing else (`Game.standing_from_sheet`): a fresh match starts from the standings of
    an empty sheet, and a deal from those its predecessor ended with."""
    game = st.game
    if not game.standing_source:  # the first column, copied: cheaper than the memo's key
        return results(st)
    if not game.standing_from_sheet():
        return standings(st)
    key = (st.n, tuple(st.options.items()), tuple(_column_key(col) for col in st.sheet.values()))
    memo = game.standing_memo
    known = memo.get(key)
    if known is None:
        if len(memo) >= STANDINGS_MEMO:
            memo.clear()
        known = memo[key] = tuple(standings(st))
    return list(known)


def _column_key(col: list) -> tuple:
    return tuple(map(tuple, col)) if col and isinstance(col[0], list) else tuple(col)


def _standings_on(st: State, sheet: dict) -> list:
    """`sheet_standings` of `st` with `sheet` in place of its own (standings that read only the sheet)."""
    live, st.sheet = st.sheet, sheet
    try:
        return sheet_standings(st)
    finally:
        st.sheet = live


def deal_values(st: State) -> list:
    """What the last finished deal was worth to each seat: the change in its standing over the deal (exact: ints
    and Fractions; zero for a deal voided by a redeal). Raises ValueError before any deal is over.

    >>> from interp.spec.compiler import load_game
    >>> from interp.bots.agents import RandomAgent
    >>> from interp.runs.simulate import play_deal
    >>> game = load_game("docs/examples/tiny.yaml")
    >>> st = new_match(game, seed=3)
    >>> play_deal(st, {s: RandomAgent(s) for s in range(st.n)})
    >>> last = st.deals[-1]                     # its record
    >>> last["entries"]                         # North took 53 card points, South 67
    {'score': {0: 53, 1: 67}}
    >>> deal_values(st)                         # `result` is the margin: it moved by 14 each way
    [-14, 14]
    """
    if st.unsettled:  # the rest of the record is not needed for this
        return list(st.unsettled.values(st))
    if not st.deals or not st.deal_over:
        raise ValueError("no deal is over yet")
    return list(st.deals[-1]["values"])


def results(st: State) -> list:
    """The settlement: each seat's result by the spec's `result` expression (or its first column)."""
    game = st.game
    if game.result is None:
        first = next(iter(st.sheet), None)
        return list(st.sheet[first]) if first else [0] * st.n
    return [with_locals(st, {"s": s}, game.result) for s in range(st.n)]
