"""`sweep --plot`: PNGs of a sweep's rows (matplotlib, an optional extra).

- `<parameter>.png` per parameter: emulated cycles (log scale) and the ratio to the
  roofline bound against the parameter's values, one line per kernel and strategy; where
  there are other parameters, each point is the geometric mean over their values (the
  `ok` rows only);
- `pareto.png`: per kernel, every `ok` job's cycles against the device's scratchpad
  bytes per core, and the Pareto front (the fewest cycles any device with at most that
  much scratchpad reached).
"""

from __future__ import annotations

import math
from pathlib import Path

from spyre_sched.errors import SpyreSchedError
from spyre_sched.sweep.summary import geomean


def pyplot_or_error():
    """matplotlib's pyplot, or a clear error saying how to install it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SpyreSchedError(
            "--plot needs matplotlib, an optional extra: pip install -e \".[plot]\" "
            "(or pip install matplotlib)") from None
    return plt


def _file_name(parameter: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in parameter) + ".png"


def _save(fig, path: Path, plt) -> Path:
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def write_plots(rows: list[dict], parameters: list[str], folder: Path,
                title: str) -> list[Path]:
    plt = pyplot_or_error()
    ok = [r for r in rows if r["status"] == "ok"]
    series = sorted({(r["kernel"], r["strategy"]) for r in ok})
    kernels = sorted({k for k, _ in series})
    strategies = sorted({s for _, s in series})
    # a colour per kernel: tab20's ten dark hues first, then their light ones
    colours = {k: plt.get_cmap("tab20")((2 * i) % 20 + (i // 10) % 2) for i, k in enumerate(kernels)}
    styles = {s: ("-", "o") if i == 0 else ("--", "s") for i, s in enumerate(strategies)}
    written = []
    for parameter in parameters:
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
        for kernel, strategy in series:
            mine = [r for r in ok if r["kernel"] == kernel and r["strategy"] == strategy]
            xs = sorted({r[parameter] for r in mine})
            cycles = [geomean([r["cycles"] for r in mine if r[parameter] == x]) for x in xs]
            ratios = [geomean([r["ratio_to_bound"] for r in mine
                               if r[parameter] == x and r["ratio_to_bound"]]) for x in xs]
            line, marker = styles[strategy]
            style = dict(color=colours[kernel], linestyle=line, marker=marker, markersize=4,
                         label=f"{kernel} ({strategy})")
            left.plot(xs, [math.nan if c is None else c for c in cycles], **style)
            right.plot(xs, [math.nan if r is None else r for r in ratios], **style)
        values = sorted({r[parameter] for r in ok})
        for ax in (left, right):
            ax.set_xscale("log", base=2)
            ax.set_xticks(values, [_figure(v, parameter) for v in values])
            ax.minorticks_off()
            ax.set_xlabel(parameter)
            ax.grid(True, alpha=0.3)
        left.set_yscale("log")
        left.set_ylabel("emulated cycles (log)")
        right.set_ylabel("cycles / roofline bound")
        others = [p for p in parameters if p != parameter]
        note = f" (geomean over {', '.join(others)})" if others else ""
        fig.suptitle(f"{title}: cycles vs {parameter}{note}", fontsize=10)
        right.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
        written.append(_save(fig, folder / _file_name(parameter), plt))

    if kernels:
        columns = min(4, len(kernels))
        rows_n = -(-len(kernels) // columns)
        fig, axes = plt.subplots(rows_n, columns, figsize=(3.2 * columns, 2.8 * rows_n),
                                 squeeze=False)
        for ax, kernel in zip([a for row in axes for a in row], kernels):
            mine = [r for r in ok if r["kernel"] == kernel]
            for strategy in strategies:
                pts = [(r["device_scratchpad_bytes"], r["cycles"]) for r in mine
                       if r["strategy"] == strategy]
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=10,
                           marker=styles[strategy][1], alpha=0.5, label=strategy)
            front = pareto_front([(r["device_scratchpad_bytes"], r["cycles"]) for r in mine])
            widest = max(r["device_scratchpad_bytes"] for r in mine)
            ax.step([p[0] for p in front] + [widest], [p[1] for p in front] + [front[-1][1]],
                    where="post", color="black", linewidth=1, label="Pareto front")
            ax.set_xscale("log", base=2)
            sizes = sorted({r["device_scratchpad_bytes"] for r in mine})
            ax.set_xticks(sizes, [_figure(v, "size") for v in sizes])
            ax.minorticks_off()
            ax.set_title(kernel, fontsize=9)
            ax.set_xlabel("scratchpad bytes per core", fontsize=8)
            ax.set_ylabel("cycles", fontsize=8)
            ax.tick_params(labelsize=7)
        for ax in [a for row in axes for a in row][len(kernels):]:
            ax.axis("off")
        axes[0][0].legend(fontsize=7, frameon=False)
        fig.suptitle(f"{title}: Pareto front of cycles vs scratchpad bytes", fontsize=10)
        written.append(_save(fig, folder / "pareto.png", plt))
    return written


def _figure(value: int, parameter: str) -> str:
    """A tick label: a size in bytes in KiB/MiB when whole."""
    if parameter.rsplit(".", 1)[-1] not in ("size", "register_file"):
        return str(value)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size and value % size == 0:
            return f"{value // size} {unit}"
    return str(value)


def pareto_front(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The points no other point beats on both axes (fewer or equal bytes and cycles,
    one of them fewer), by increasing bytes."""
    front: list[tuple[int, int]] = []
    for nbytes, cycles in sorted(set(points)):
        if not front or cycles < front[-1][1]:
            front.append((nbytes, cycles))
    return front
