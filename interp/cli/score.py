"""`interp score`: keeping score of a game played with real cards, from a file or asked at the terminal."""
from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

from interp.cli import common
from interp.cli.common import options_of

if TYPE_CHECKING:
    from rich.console import Console



def cmd_score(args, console: Console) -> int:
    from interp.spec.loader import load_data
    from interp.table import render
    from interp.table.render import LiteralConsole
    from interp.table.scorekeeper import score_deals
    game = common.load_game(args.file)
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
        st = new_sheet(game, n, options_of(args.option), 0)
        st.game = game = with_names(game, st.n, names)
        st.dealer = first_dealer = parse_seat(game, st.n, args.dealer)
        path, entered = args.save, []
        if path is not None:
            _check_score_target(path)
        elif sys.stdin.isatty():  # (piped answers are kept where they came from)
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


def _check_score_target(path: str) -> None:
    """`--save PATH` is a new path or a score file of interp (a YAML mapping with `players` and `deals`), which the
    deals entered then replace; anything else there is left as it is (SaveError), a person's notes included."""
    import yaml

    from interp.errors import SaveError
    if not os.path.lexists(path):
        return
    data = None
    if os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) <= 1 << 20:
        try:
            with open(path, encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
        except (OSError, ValueError, yaml.YAMLError, RecursionError):
            data = None
    if not isinstance(data, dict) or not {"players", "deals"} <= data.keys():
        raise SaveError(f"{path}: there is something there that is not a score file of interp; it is left as it is: "
                        "save to a new path, or resume it with --resume if it is one")


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
