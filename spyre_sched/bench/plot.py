"""`bench --plot FILE.svg`: per kernel, the roofline bound and the emulated cycles of the
solver's and the heuristic's schedules, as grouped bars on a log scale.

matplotlib is an optional extra (`pip install -e ".[plot]"`); nothing else needs it.
"""

from __future__ import annotations

from pathlib import Path

from spyre_sched.errors import SpyreSchedError


def write_plot(doc: dict, path: str | Path) -> Path:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SpyreSchedError(
            "--plot needs matplotlib, an optional extra: pip install -e \".[plot]\" "
            "(or pip install matplotlib)") from None
    path = Path(path)
    kernels = doc["kernels"]
    names = [k["name"] for k in kernels]
    series = [("roofline bound", "bound_cycles", "#999999"),
              ("solver", "solver_cycles", "#1f77b4"),
              ("heuristic", "heuristic_cycles", "#ff7f0e")]
    width = 0.27
    # Deterministic SVG: fixed ids and no date in the metadata.
    matplotlib.rcParams["svg.hashsalt"] = "spyre-sched"
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(names) + 2), 4.2))
    for k, (label, key, color) in enumerate(series):
        xs = [i + (k - 1) * width for i in range(len(names))]
        # A kernel that did not run has no bar (NaN), only its bound.
        ax.bar(xs, [float("nan") if kern[key] is None else max(1, kern[key])
                    for kern in kernels], width, label=label, color=color)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([n if k["solver_cycles"] is not None else f"{n} (failed)"
                        for n, k in zip(names, kernels)], rotation=20, ha="right")
    ax.set_ylabel("cycles (log scale)")
    quick = " (--quick shapes)" if doc.get("quick") else ""
    ax.set_title(f"emulated cycles vs the roofline bound on {doc['device']}{quick}")
    ax.legend(frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return path
