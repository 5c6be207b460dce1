"""`interp run`, `simulate`, `summarize`, `arena` and `bench`: scenarios and bot-only runs, and their reports."""
from __future__ import annotations

import json
from contextlib import nullcontext
from typing import TYPE_CHECKING

from interp.cli import common
from interp.cli.common import options_of

if TYPE_CHECKING:
    from rich.console import Console



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
    game = common.load_game(args.file)  # first: a spec with a mistake leaves an existing --out file as it was
    out = _record_writer(args.out)
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
        summary = simulate(game, args.deals, seed, args.players, options_of(args.option), args.bots, tick, args.jobs,
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
    summary = summarize_files(common.load_game(args.file), args.records)
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


def cmd_arena(args, console: Console) -> int:
    from rich.progress import Progress
    from rich.table import Table

    from interp.bots.registry import agent_class
    from interp.runs.arena import Deals, arena
    game = common.load_game(args.file)
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
        summary = arena(game, agents, args.deals, args.seed or 0, args.players, options_of(args.option), search,
                        tick=lambda: progress.advance(task), jobs=args.jobs, on_record=out, executor=args.executor,
                        which=Deals(args.deal_no[0], args.deal_no[1], args.matches))
    if args.json:
        print(json.dumps({"agents": summary["agents"], "margins": summary["margins"]}, indent=1))
        return 0
    first, last = args.deal_no
    what = "whole matches" if args.matches else f"deal {first}" if first == last else f"deals {first}-{last} in turn"
    unit, units = ("match", "matches") if args.matches else ("deal", "deals")
    console.print(f"{game.name}: {args.deals} duplicate {units} x {len(summary['seatings'])} seatings ({what}), "
                  f"{summary['players']} players")
    table = Table(title=f"mean value per {unit} (95% interval); CPU seconds a move", title_justify="left")
    for head in ("agent", "mean", "95% interval", units, "median s", "p99 s"):
        table.add_column(head, justify="left" if head == "agent" else "right")
    for name, row in summary["agents"].items():
        lo, hi = row["ci95"]
        table.add_row(name, f"{row['mean']:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]", str(row["deals"]),
                      f"{row['cpu_median'] or 0:.4f}", f"{row['cpu_p99'] or 0:.4f}")
    for pair, stat in summary["margins"].items():
        lo, hi = stat["ci95"]
        table.add_row(f"margin {pair}", f"{stat['mean']:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]", str(args.deals), "", "")
    console.print(table)
    return 0


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
