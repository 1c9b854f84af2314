"""Time to load (parse, elaborate, validate) a Spyre-like device of N cores.

    python bench/device_load.py [N ...]        (default: 32 1000 4096)

Measured 2026-12-01 on the shared 2-core machine (load average ~8.5): 1,000 cores
1.28 s wall / 0.33 s CPU with replicated groups sharing one elaborated template; before,
re-elaborating every instance: 8.58 s wall / 2.73 s CPU.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(counts: list[int]) -> None:
    from spyre_sched.device.load import _Loader

    text = (ROOT / "devices" / "spyre.mlir").read_text()
    # wall time, and CPU time of this process (less sensitive to a shared, busy machine)
    print(f"{'cores':>6} {'units':>7} {'datapaths':>9} {'load s':>8} {'cpu s':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            path = Path(tmp) / f"spyre{n}.mlir"
            path.write_text(text.replace("count = 32} share(%ddr)", f"count = {n}}} share(%ddr)"))
            best = cpu = float("inf")
            for _ in range(3):
                start, start_cpu = time.perf_counter(), time.process_time()
                device = _Loader().load(path)  # uncached
                best = min(best, time.perf_counter() - start)
                cpu = min(cpu, time.process_time() - start_cpu)
            print(f"{n:>6} {len(device.units):>7} {len(device.datapaths):>9} {best:>8.3f} "
                  f"{cpu:>7.3f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [32, 1000, 4096])
