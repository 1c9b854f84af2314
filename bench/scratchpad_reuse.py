"""Peak scratchpad per core with and without reuse within a program:
`python bench/scratchpad_reuse.py [--device NAME] [--strategy solver|heuristic] [--emulate] [KERNEL.mlir ...]`.

For every example kernel and every benchmark-suite kernel (bench/kernels, full size), the
solver's schedule is lowered; per kernel it prints the solver's scratchpad figure (its
model counts every buffer of a program as live at once), the allocator's peak when every
buffer of a program is live at once (the lowering before reuse), the peak with reuse by
lifetime (buffers whose lifetimes do not overlap share bytes), and the reuse token
channels that made that safe. `--emulate` also runs each bundle and prints its cycles (the
examples only: the full-size suite takes minutes to emulate).

Nothing here is asserted; figures are bytes and cycles, not time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xdsl.parser import Parser  # noqa: E402

from spyre_sched.api import compile as compile_kernel  # noqa: E402
from spyre_sched.device import load_device  # noqa: E402
from spyre_sched.dialects.registry import make_context  # noqa: E402
from spyre_sched.lower import addresses  # noqa: E402
from spyre_sched.lower.lowering import _orchestrator, _program_function  # noqa: E402
from spyre_sched.lower.program import address_problem, lower_program  # noqa: E402
from spyre_sched.lower.units import Units  # noqa: E402


def peak(allocs) -> int:
    return max([a.end for a in allocs] + [0])


def measure(path: Path, device: str, strategy: str, emulate: bool) -> dict:
    schedule = compile_kernel(str(path), device=device, strategy=strategy)
    module = Parser(make_context(), schedule.schedule_ir).parse_module()
    kernel, _, programs = _orchestrator(module)
    grid = 1
    for g in kernel.attributes["grid"].data:
        grid *= g.value.data
    units = Units(load_device(device), grid)
    counter = iter(range(1 << 30))
    before = after = tokens = 0
    for index, pm in enumerate(programs):
        _, pa, _ = lower_program(index, _program_function(pm), units, lambda: next(counter),
                                 device_name=device, kernel_name=kernel.sym_name.data)
        requests, limits = address_problem(pa)
        all_live = addresses.assign(pa.name, requests, **{**limits, "lifetimes": None})
        before = max(before, peak(all_live))
        after = max(after, peak([b.alloc for b in pa.buffers.values()]))
        tokens += len(pa.reuse.edges)
    row = {"kernel": path.stem, "source": str(path.relative_to(ROOT)), "device": device,
           "strategy": strategy, "solver_scratchpad_bytes": schedule.scratchpad_bytes,
           "peak_all_live_bytes": before, "peak_with_reuse_bytes": after, "reuse_channels": tokens}
    if emulate:
        import spyre_sched
        from spyre_sched.lower.bundle import write_bundle

        with tempfile.TemporaryDirectory() as tmp:
            out = write_bundle(schedule, Path(tmp) / "b")
            result = spyre_sched.run(str(out))
        row["cycles"] = result.cycles
        row["matches"] = result.matches
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", type=Path)
    parser.add_argument("--device", default="spyre")
    parser.add_argument("--strategy", default="solver")
    parser.add_argument("--emulate", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    kernels = args.kernels or [*sorted((ROOT / "examples").glob("*.mlir")),
                               *sorted((ROOT / "bench" / "kernels").glob("*.mlir"))]
    rows = []
    print(f"{'kernel':24} {'solver model':>12} {'all live':>9} {'reuse':>9} {'saved':>6} {'tokens':>6}"
          + (f" {'cycles':>8}" if args.emulate else ""))
    for path in kernels:
        path = path.resolve()
        emulate = args.emulate and path.parent == ROOT / "examples"
        row = measure(path, args.device, args.strategy, emulate)
        rows.append(row)
        saved = 1 - row["peak_with_reuse_bytes"] / max(row["peak_all_live_bytes"], 1)
        name = f"{path.parent.name}/{path.stem}"
        print(f"{name:24} {row['solver_scratchpad_bytes']:>12} {row['peak_all_live_bytes']:>9} "
              f"{row['peak_with_reuse_bytes']:>9} {saved:>6.0%} {row['reuse_channels']:>6}"
              + (f" {row.get('cycles', ''):>8}" if args.emulate else ""))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
