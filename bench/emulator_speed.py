"""Emulator speed: the 4096x4096 f16 add over 32 tiles, every unit, FIFO and transfer timed.

    python bench/emulator_speed.py [--bundle DIR] [--rows 4096] [--cols 4096] [--repeat N] [--profile]

Without --bundle it writes the add's bundle with bench/add_bundle.py (the lowering's
structure: DMA tiles double-buffered in scratchpad, 8-stick chunks through the FIFOs); with
--bundle it runs a bundle `spyre-sched compile -o` wrote. Prepare (parse, verify, bind,
route every DMA) is timed apart from the launch: a runtime prepares once and launches many
times. Elements per second = elements of the output / launch time, wall and CPU; quote the
CPU figure (the development machine is shared, and CPU time is what load changes least).
Each launch is also given as a ratio to numpy's own f16 add of as many elements, timed
in the same run (what load on a shared machine changes least). With --repeat N it ends
with the median and range over the N launches, the median ratio and the load average.
The goal is >= 30 M elements/s (CPU). Results are checked against numpy (bit-exact f16
add).

Figures (docs/emulator.md, "Speed"): CPU time per launch, median (range) of 12 launches in
alternating processes, 2026-12-01 17:10-17:25 UTC, load average 9.9-11.5 on 2 cores,
before -> after the second speed pass: generated bundle 6.1 (4.8-7.3) -> 7.4 (6.8-8.1)
M elements/s; compiled add_4096 bundle 8.8 (6.5-9.8) -> 9.1 (8.2-11.5) M elements/s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import add_bundle  # noqa: E402
from emulator_suite_speed import numpy_add_per_s  # noqa: E402

from emulator.runtime import Runtime  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=1, help="launches to time")
    parser.add_argument("--profile", action="store_true", help="cProfile the first launch")
    args = parser.parse_args()

    rates, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        bundle = args.bundle or add_bundle.write(Path(tmp) / "add", args.rows, args.cols)
        runtime = Runtime("spyre")
        t0 = time.perf_counter()
        prepared = runtime.prepare(bundle)
        prepare_s = time.perf_counter() - t0
        shape = tuple(prepared.arguments[0]["shape"])
        rng = np.random.default_rng(0)
        a = rng.uniform(-2, 2, shape).astype(np.float16)
        b = rng.uniform(-2, 2, shape).astype(np.float16)
        want = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16)
        offsets = {"A": runtime.allocate_tensor(a, "f16"), "B": runtime.allocate_tensor(b, "f16"),
                   "C": runtime.allocate(shape, "f16")}
        n = int(np.prod(shape))
        print(f"bundle {bundle}: {shape[0]}x{shape[1]} f16 add, prepare {prepare_s:.2f} s")
        for i in range(args.repeat):
            if args.profile and i == 0:
                import cProfile
                import pstats

                profiler = cProfile.Profile()
                profiler.enable()
            t0, c0 = time.perf_counter(), time.process_time()
            result = runtime.launch(prepared, offsets)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if args.profile and i == 0:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
            out = runtime.read_tensor(offsets["C"], shape, "f16")
            ok = np.array_equal(out.view(np.uint16), want.view(np.uint16))
            units = len(result.measurements.units)
            numpy_rate = numpy_add_per_s(n)
            rates.append(n / cpu / 1e6)
            ratios.append(n / cpu / numpy_rate)
            print(f"launch {i}: {wall:.3f} s wall ({cpu:.3f} s CPU), {n / wall / 1e6:.2f} M elements/s "
                  f"wall, {n / cpu / 1e6:.2f} M elements/s CPU ({ratios[-1]:.4f} of numpy's f16 add "
                  f"at {numpy_rate / 1e6:.0f} M elements/s); {result.cycles} cycles, {units} units; "
                  f"{'correct' if ok else 'WRONG'}")
    if len(rates) > 1:
        print(f"CPU M elements/s over {len(rates)} launches: median {statistics.median(rates):.2f}, "
              f"range {min(rates):.2f}-{max(rates):.2f}; ratio to numpy's f16 add: median "
              f"{statistics.median(ratios):.4f}; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
