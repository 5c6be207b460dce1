"""`interp run SCENARIO.yaml`: replay a stacked deal, report every move and the deal's sheet entries, and
compare them with what the scenario expects.

A scenario names its `spec` (relative to the scenario file), `players`, `dealer`, `options`, the exact cards
of every zone (`zones:`; per-seat zones by seat name; every card of the deck placed once, or `rest: ZONE` for
the cards not named), an optional starting `sheet`, `moves` in the notation `interp play` accepts (a YAML list,
or one string of one-word moves separated by spaces) and an optional `expect:` (see interp/runs/expect.py).
Every mistake in the file is a ScenarioError at its line and column.
"""
from __future__ import annotations

from typing import Any

from interp.engine import match as engine
from interp.engine.events import lines as event_lines
from interp.engine.wording import parse_move
from interp.errors import IllegalMoveError
from interp.runs.expect import check_expect, expect_keys_problem
from interp.spec.compiler import load_referenced_game
from interp.spec.inputfile import Key, check_keys, error as _error, options as checked_options, players, shown
from interp.spec.loader import load_data
from interp.spec.located import Document
from interp.spec.values import finite_number, parse_seat

#: The keys of a scenario file.
KEYS = {"spec": Key((str,), "a file name", "spec: ../games/my-game.yaml"),
        "players": Key((int,), "a whole number", "players: 4"),
        "dealer": Key((str, int), "a seat name or number", "dealer: South"),
        "options": Key((dict,), "a mapping of option name to value", "options: {pool_target: 20}"),
        "zones": Key((dict,), "a mapping of zone name to cards", "zones: {talon: [7D, 8D], hand: {South: [..]}}"),
        "rest": Key((str,), "a zone name", "rest: stock"),
        "sheet": Key((dict,), "a mapping of column to {seat: number}", "sheet: {pool: {South: 18}}"),
        "moves": Key((list, str), "a YAML list of moves", "moves: [pass, 6S, pass]"),
        "expect": Key((dict,), "a mapping (facts:, entries:, sheet: ...)", "expect: {entries: {pool: {South: 2}}}")}


def run_scenario(path: str) -> dict:
    """Play a scenario; returns the moves, facts, entries and sheet as plain data (seat names as keys), and,
    when the scenario has `expect:`, `mismatches`: one located line per expectation that does not hold.
    A scenario's `expect: {entries: {points: {South: 10}}}` gives `mismatches == []` when South scored 10, and
    `["x.yaml:18:5: entries › points › South: expected 10, got 20"]` when he scored 20.
    """
    doc = load_data(path)
    _check_keys(doc)
    game = _game(doc, path)
    data = doc.data
    n = players(doc, game)
    try:
        dealer = parse_seat(game, n, 1 if data.get("dealer") is None else data["dealer"])
    except ValueError as exc:
        raise _error(doc, str(exc), ("dealer",)) from None
    stack = _stack(doc, game, n)
    options = checked_options(doc, game)
    st = engine.new_match(game, n, 0, options, dealer, stack=stack, deal=False)
    _starting_sheet(doc, st)
    if data.get("expect") is not None:
        problem = expect_keys_problem(doc, game)
        if problem is not None:
            raise problem
    engine.start_deal(st)
    moves = _play(doc, st)
    out = {"spec": game.name, "players": n, "dealer": game.seat_name(st.dealer, n), "moves": moves,
           "finished": st.deal_over, "events": event_lines(st, st.events)}
    if st.deal_over:
        record = st.deals[-1]
        out["facts"] = named_facts(st, record["facts"])
        out["entries"] = named_entries(st, record["entries"])
        if "breakdown" in record:
            out["breakdown"] = record["breakdown"]
        if record.get("redeal"):
            out["redeal"] = True
        out["sheet"] = {col: named_column(st, v) for col, v in st.sheet.items()}
        if game.result is not None:
            out[game.result_label] = {game.seat_name(s, n): r for s, r in enumerate(engine.results(st))}
        out["match_over"] = bool(st.match_over)
    else:
        out["to_move"] = game.seat_name(engine.to_move(st), n)
        out["legal"] = [engine.notation(st, m) for m in engine.legal_moves(st)]
    if data.get("expect") is not None:
        out["mismatches"] = check_expect(doc, game, out)
    return out


def _check_keys(doc: Document) -> None:
    """Every key known and of its type: a typo (`zone:`) or a wrong shape is a located error."""
    check_keys(doc, "a scenario", KEYS)
    if not doc.data.get("spec"):
        raise _error(doc, "a scenario names its game", (), "write spec: path/to/game.yaml (relative to this file)")


def _game(doc: Document, path: str):
    """The scenario's game: `spec:` resolved relative to the scenario file, read as safely as `extends:`."""
    return load_referenced_game(doc, ("spec",))


def _starting_sheet(doc: Document, st) -> None:
    """`sheet:` — the sheet before the deal: {column: {seat: number}}, per-pair columns by "A>B"."""
    game, n = st.game, st.n
    for col, values in (doc.data.get("sheet") or {}).items():
        path = ("sheet", col)
        if col not in game.columns:
            raise _error(doc, f"the sheet has no column {col!r}", path, "columns: " + ", ".join(game.columns))
        pair = game.columns[col].per == "pair"
        if not isinstance(values, dict):
            example = "{West>South: 20}" if pair else "{West: 10, South: 4}"
            raise _error(doc, f"sheet column {col} is a mapping of {'seat pair' if pair else 'seat'} to number, "
                              f"not {shown(values)}", path, f"write {col}: {example}")
        for who, value in values.items():
            where = path + (who,)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise _error(doc, f"{col} of {who}: a number, not {shown(value)}", where, f"write {who}: 10")
            try:
                value = finite_number(value)
                seats = _pair(game, n, str(who)) if pair else (parse_seat(game, n, who),)
            except ValueError as exc:
                hint = (f"{col} is per pair of seats: write 'A>B' (what A has written against B)" if pair
                        else f"{col} is per seat: write {col}: {{{game.seat_name(0, n)}: 10}}")
                raise _error(doc, f"{col}: {exc}", where, hint) from None
            if pair:
                st.sheet[col][seats[0]][seats[1]] = value
            else:
                st.sheet[col][seats[0]] = value


def _pair(game, n: int, text: str) -> tuple:
    if ">" not in text:
        raise ValueError(f"{text!r} is a seat, but this column is per pair of seats")
    a, b = (parse_seat(game, n, part) for part in text.split(">", 1))
    if a == b:
        raise ValueError(f"{text!r}: a seat writes nothing against itself")
    return a, b


def _stack(doc: Document, game, n: int) -> dict:
    """The cards of every zone; every card placed once, or the unnamed ones in the `rest:` zone."""
    stack: dict[int, list[int]] = {}
    seen: dict[int, str] = {}  # card -> where it is placed
    for zone_name, content in (doc.data.get("zones") or {}).items():
        path = ("zones", zone_name)
        decl = _zone(doc, game, zone_name, path)
        if decl.per_seat:
            if not isinstance(content, dict):
                raise _error(doc, f"{zone_name} is per seat: give a mapping of seat name to cards", path,
                             f"write {zone_name}: {{{game.seat_name(0, n)}: [..], ...}}")
            for seat_name, cards in content.items():
                try:
                    seat = parse_seat(game, n, seat_name)
                except ValueError as exc:
                    raise _error(doc, str(exc), path + (seat_name,)) from None
                stack[game.zone_id(zone_name, seat, n)] = _cards(doc, game, path + (seat_name,), cards, seen)
        else:
            if isinstance(content, dict):
                raise _error(doc, f"{zone_name} is one zone, not per seat: give a list of cards", path)
            stack[game.zone_id(zone_name, None, n)] = _cards(doc, game, path, content, seen)
    missing = [c for c in range(len(game.deck)) if c not in seen]
    if doc.data.get("rest") is not None:
        decl = _zone(doc, game, doc.data["rest"], ("rest",))
        if decl.per_seat:
            raise _error(doc, f"rest: {decl.name} is per seat; name a single zone", ("rest",))
        stack.setdefault(game.zone_id(decl.name, None, n), []).extend(missing)
    elif missing:
        names = " ".join(game.deck.code(c) for c in missing[:12]) + (" …" if len(missing) > 12 else "")
        raise _error(doc, f"the zones place {len(seen)} of the {len(game.deck)} cards; not placed: {names}",
                     ("zones",), "place every card, or put the others in one zone with `rest: ZONE`")
    return stack


def _zone(doc: Document, game, name, path: tuple):
    try:
        return game.zone_decl(name)
    except StopIteration:
        raise _error(doc, f"the game has no zone {name!r}", path,
                     "zones: " + ", ".join(z.name for z in game.zones)) from None


def _cards(doc: Document, game, path: tuple, cards, seen: dict[int, str]) -> list[int]:
    if isinstance(cards, str):
        cards = cards.split()
    if cards is not None and not isinstance(cards, list):
        raise _error(doc, f"cards are a list like [10H, QS], not {shown(cards)}", path)
    out = []
    for i, code in enumerate(cards or []):
        try:
            if isinstance(code, (dict, list)):
                raise KeyError(code)
            card = game.deck.parse(str(code))
        except KeyError:
            raise _error(doc, f"no card {code!r} in this deck", path,
                         "cards are rank then suit: 10H, QS, 7C") from None
        if card in seen:
            raise _error(doc, f"{code} is placed twice (also in {seen[card]})", path, "place each card once")
        seen[card] = "/".join(map(str, path[1:]))
        out.append(card)
    return out


def _play(doc: Document, st) -> list:
    raw = doc.data.get("moves") or []
    items = raw.split() if isinstance(raw, str) else raw
    done = []
    for i, text in enumerate(items):
        path = ("moves",) if isinstance(raw, str) else ("moves", i)
        if not isinstance(text, (str, int)) or isinstance(text, bool):
            raise _error(doc, f"move {i + 1} should be text, not {shown(text)}", path,
                         "write each move as `interp play` takes it (6S, pass), one list item per move")
        text = str(text)
        if st.deal_over:
            raise _error(doc, f"move {i + 1} ({text}) comes after the deal is over", path)
        seat = engine.to_move(st)
        try:
            move = parse_move(st, text)
        except IllegalMoveError as exc:
            legal = ", ".join(engine.notation(st, m) for m in engine.legal_moves(st))
            hint = _split_hint(st, items, i) if isinstance(raw, str) else None
            raise _error(doc, f"move {i + 1} ({text}) by {st.game.seat_name(seat, st.n)} is not legal: "
                              f"{exc.message}", path, hint or f"legal now: {legal}") from None
        done.append({"seat": st.game.seat_name(seat, st.n), "move": engine.notation(st, move),
                     "text": engine.describe(st, move)})
        engine.apply(st, move, check=False)
    return done


def _split_hint(st, words: list, i: int) -> str | None:
    """When words i.. of a `moves:` string join into a legal move, say that moves of several words need a list."""
    for k in range(2, 8):
        text = " ".join(words[i:i + k])
        try:
            parse_move(st, text)
        except IllegalMoveError:
            continue
        return (f"'{text}' is one move of several words; a moves: string splits at every space, so write "
                f"moves as a YAML list, one move per item: - {text}")
    return None


def named_facts(st, facts: dict) -> dict:
    game = st.game
    out: dict[str, Any] = {}
    for name, value in facts.items():
        decl = game.vars[name]
        if decl.per_seat:
            out[name] = {game.seat_name(s, st.n): v for s, v in enumerate(value)}
        elif decl.type == "seat":
            out[name] = None if value is None else game.seat_name(value, st.n)
        else:
            out[name] = value
    return out


def named_entries(st, entries: dict) -> dict:
    game = st.game
    out = {}
    for col, diff in entries.items():
        out[col] = {(f"{game.seat_name(k[0], st.n)}>{game.seat_name(k[1], st.n)}" if isinstance(k, tuple)
                     else game.seat_name(k, st.n)): _num(v) for k, v in diff.items()}
    return out


def named_column(st, values) -> dict:
    game = st.game
    if values and isinstance(values[0], list):
        return {f"{game.seat_name(a, st.n)}>{game.seat_name(b, st.n)}": _num(values[a][b])
                for a in range(st.n) for b in range(st.n) if a != b}
    return {game.seat_name(s, st.n): _num(v) for s, v in enumerate(values)}


def _num(v):
    """Sheet numbers for JSON: ints stay ints, exact fractions become floats."""
    return float(v) if not isinstance(v, (int, float)) else v
