"""`interp run SCENARIO.yaml`: replay a stacked deal and report every move and the deal's sheet entries.

A scenario names its `spec` (relative to the scenario file), `players`, `dealer`, `options`, the exact cards
of every zone (`zones:`; per-seat zones by seat name), an optional starting `sheet`, and `moves` in the
notation `interp play` accepts (a list, or one string separated by spaces).
"""
from __future__ import annotations

import os

from . import engine
from .compiler import load_game
from .errors import IllegalMoveError, ScenarioError
from .events import lines as event_lines
from .loader import load_spec
from .values import parse_seat


def run_scenario(path: str) -> dict:
    """Play a scenario; returns the moves, facts, entries and sheet as plain data (seat names as keys)."""
    doc = load_spec(path)
    data = doc.data
    if "spec" not in data:
        raise doc.error("a scenario names its game: spec: path/to/game.yaml", (), cls=ScenarioError)
    game = load_game(os.path.join(os.path.dirname(path), data["spec"]))
    n = int(data.get("players", game.default_players))
    try:
        dealer = parse_seat(game, n, data.get("dealer", 1))
    except ValueError as exc:
        raise doc.error(str(exc), ("dealer",), cls=ScenarioError) from None
    stack = _stack(doc, game, n)
    try:
        st = engine.new_match(game, n, 0, data.get("options") or {}, dealer, stack=stack, deal=False)
    except ValueError as exc:
        raise doc.error(str(exc), ("options",), cls=ScenarioError) from None
    for col, values in (data.get("sheet") or {}).items():
        for seat_name, value in values.items():
            st.sheet[col][parse_seat(game, n, seat_name)] = value
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
    else:
        out["to_move"] = game.seat_name(engine.to_move(st), n)
        out["legal"] = [engine.notation(st, m) for m in engine.legal_moves(st)]
    return out


def _stack(doc, game, n: int) -> dict:
    stack, seen = {}, {}
    zones = doc.data.get("zones") or {}
    for zone_name, content in zones.items():
        path = ("zones", zone_name)
        try:
            decl = game.zone_decl(zone_name)
        except StopIteration:
            raise doc.error(f"the game has no zone {zone_name!r}", path, "zones: " +
                            ", ".join(z.name for z in game.zones), cls=ScenarioError) from None
        if decl.per_seat:
            if not isinstance(content, dict):
                raise doc.error(f"{zone_name} is per seat: give a mapping of seat name to cards", path,
                                cls=ScenarioError)
            for seat_name, cards in content.items():
                try:
                    seat = parse_seat(game, n, seat_name)
                except ValueError as exc:
                    raise doc.error(str(exc), path + (seat_name,), cls=ScenarioError) from None
                stack[game.zone_id(zone_name, seat, n)] = _cards(doc, game, path + (seat_name,), cards, seen)
        else:
            stack[game.zone_id(zone_name, None, n)] = _cards(doc, game, path, content, seen)
    return stack


def _cards(doc, game, path: tuple, cards, seen: dict) -> list:
    if isinstance(cards, str):
        cards = cards.split()
    out = []
    for i, code in enumerate(cards or []):
        try:
            card = game.deck.parse(str(code))
        except KeyError:
            raise doc.error(f"no card {code!r} in this deck", path, "cards are rank then suit: 10H, QS, 7C",
                            cls=ScenarioError) from None
        if card in seen:
            raise doc.error(f"{code} is placed twice (also in {seen[card]})", path, cls=ScenarioError)
        seen[card] = "/".join(map(str, path[1:]))
        out.append(card)
    return out


def _play(doc, st) -> list:
    data = doc.data
    raw = data.get("moves") or []
    items = raw.split() if isinstance(raw, str) else [str(m) for m in raw]
    done = []
    for i, text in enumerate(items):
        path = ("moves",) if isinstance(raw, str) else ("moves", i)
        if st.deal_over:
            raise doc.error(f"move {i + 1} ({text}) comes after the deal is over", path, cls=ScenarioError)
        seat = engine.to_move(st)
        try:
            move = engine.parse_move(st, text)
        except IllegalMoveError as exc:
            legal = ", ".join(engine.notation(st, m) for m in engine.legal_moves(st))
            raise doc.error(f"move {i + 1} ({text}) by {st.game.seat_name(seat, st.n)} is not legal: "
                            f"{exc.message}", path, f"legal now: {legal}", cls=ScenarioError) from None
        done.append({"seat": st.game.seat_name(seat, st.n), "move": engine.notation(st, move),
                     "text": engine.describe(st, move)})
        engine.apply(st, move, check=False)
    return done


def named_facts(st, facts: dict) -> dict:
    game = st.game
    out = {}
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
