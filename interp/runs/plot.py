"""`interp simulate --plot FILE.png` (the `plot` extra: pip install 'interp[plot]'): a picture of a run.

Two panels from the deal records `simulate` makes: the distribution of each seat's deal value (a histogram per
seat, on shared bins) and the mix of the spec's first `stats` entry (e.g. the contract played), as bars of deal
counts. A spec without stats gets the first panel only.
"""
from __future__ import annotations


def check_plotting() -> None:
    """Raise ValueError (a one-line error) when matplotlib is not installed, before a run is spent."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'interp[plot]'") from None


def plot_run(records: list, path: str, title: str) -> None:
    """Draw the run's `records` (simulate's deal records) to the image file `path` (its extension: png, svg…)."""
    check_plotting()
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    from matplotlib import pyplot

    seats = list(records[0]["values"]) if records else []
    stat = next((name for r in records for name in r.get("stats", {})), None)  # the first stat any deal has
    panels = 2 if stat else 1
    figure, axes = pyplot.subplots(1, panels, figsize=(6 * panels, 4.5), squeeze=False)
    _values_panel(axes[0][0], records, seats)
    if stat:
        _mix_panel(axes[0][1], records, stat)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def _values_panel(ax, records: list, seats: list) -> None:
    values = {seat: [float(r["values"][seat]) for r in records] for seat in seats}
    everything = [v for vals in values.values() for v in vals]
    bins = _bins(everything)
    for seat, vals in values.items():
        ax.hist(vals, bins=bins, histtype="step", linewidth=1.5, label=seat)
    ax.set_xlabel("deal value")
    ax.set_ylabel("deals")
    ax.set_title("deal value per seat")
    if seats:
        ax.legend()


def _mix_panel(ax, records: list, stat: str) -> None:
    counts: dict = {}
    for r in records:
        key = r.get("stats", {}).get(stat)
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
    keys = sorted(counts, key=lambda k: -counts[k])
    ax.barh(range(len(keys)), [counts[k] for k in keys])
    ax.set_yticks(range(len(keys)), [str(k) for k in keys])
    ax.invert_yaxis()
    ax.set_xlabel("deals")
    ax.set_title(stat)


def _bins(values: list) -> int:
    """Shared histogram bins: one per distinct value when there are few, else 30."""
    return max(1, min(30, len(set(values))))
