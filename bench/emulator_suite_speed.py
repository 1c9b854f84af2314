"""Emulator speed on every suite kernel, both strategies: CPU seconds per launch and
simulated elements per second, against numpy's own f16 add of as many elements in the
same run (the ratio is what load on a shared machine changes least).

    python bench/emulator_suite_speed.py [--quick] [--kernel NAME ...] [--strategy S ...]
                                         [--bundles DIR] [--repeat N]

Each kernel is compiled once per strategy (into --bundles DIR, default a temporary
folder; a bundle there is reused only if the compiler's sources are the ones that wrote
it, `compiler_stamp`: one left from another version would measure a stale schedule),
then emulated with `spyre_sched.run` on
seeded inputs, the reference interpreter run once per kernel and reused. CPU per launch
is `timings["launch"]["cpu_s"]`: placing the inputs, the launch and reading the outputs
back, not preparing the bundle (a runtime prepares once and launches many times; the
column `+prep` adds the preparing, `timings["emulate"]`); the median over --repeat
launches. Elements are the kernel's largest tensor's (as `bench`
counts them). numpy's add is timed on two f16 arrays of that many elements, median of 5.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spyre_sched.api import compile as compile_kernel  # noqa: E402
from spyre_sched.bench.measure import largest_tensor_elements  # noqa: E402
from spyre_sched.bench.suite import suite_kernels  # noqa: E402
from spyre_sched.emulate import run  # noqa: E402
from spyre_sched.frontend import load_kernel  # noqa: E402
from spyre_sched.lower.bundle import write_bundle  # noqa: E402

import emulator.reference as reference  # noqa: E402


def compiler_stamp() -> str:
    """A digest of the compiler's and emulator's sources (`spyre_sched/`, `emulator/`):
    a bundle is reused only by the sources that wrote it."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted([*root.glob("spyre_sched/**/*.py"), *root.glob("emulator/**/*.py")]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def numpy_add_per_s(elements: int) -> float:
    rng = np.random.default_rng(0)
    a = rng.uniform(-2, 2, elements).astype(np.float16)
    b = rng.uniform(-2, 2, elements).astype(np.float16)
    times = []
    for _ in range(5):
        c0 = time.process_time()
        np.add(a, b)
        times.append(time.process_time() - c0)
    return elements / max(statistics.median(times), 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--kernel", action="append", default=[])
    parser.add_argument("--strategy", action="append", default=[])
    parser.add_argument("--bundles", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="the emulator's wall-clock budget per launch (default: none)")
    args = parser.parse_args()
    strategies = args.strategy or ["solver", "heuristic"]
    with tempfile.TemporaryDirectory() as tmp:
        bundles = args.bundles or Path(tmp)
        print(f"{'kernel':<11} {'strategy':<9} {'elements':>9} {'cycles':>8} {'CPU s':>8} "
              f"{'+prep':>7} {'M el/s':>8} {'numpy M el/s':>12} {'ratio':>8}  verdict")
        stamp = compiler_stamp()
        for path in suite_kernels(args.quick, tuple(args.kernel)):
            kernel = load_kernel(str(path))
            inputs = reference.make_inputs(kernel, 0)
            elements = largest_tensor_elements(kernel)
            ref = None
            for strategy in strategies:
                bundle = bundles / f"{path.stem}-{strategy}{'-quick' if args.quick else ''}"
                written_by = bundle.with_name(bundle.name + ".compiler")
                if not (bundle / "manifest.json").exists() or not written_by.exists() \
                        or written_by.read_text() != stamp:
                    schedule = compile_kernel(str(path), device="spyre", strategy=strategy)
                    write_bundle(schedule, bundle, kernel_path=str(path))
                    written_by.write_text(stamp)
                cpu, whole = [], []
                for _ in range(args.repeat):
                    result = run(str(bundle), inputs, device="spyre", seed=0, reference=ref,
                                 max_seconds=args.max_seconds)
                    ref = result.reference_run
                    cpu.append(result.timings["launch"]["cpu_s"])
                    whole.append(result.timings["emulate"]["cpu_s"])
                seconds = statistics.median(cpu)
                rate = elements / seconds
                numpy_rate = numpy_add_per_s(elements)
                print(f"{path.stem:<11} {strategy:<9} {elements:>9} {result.cycles:>8} "
                      f"{seconds:>8.3f} {statistics.median(whole):>7.3f} {rate / 1e6:>8.3f} {numpy_rate / 1e6:>12.0f} "
                      f"{rate / numpy_rate:>8.5f}  {result.verdict}", flush=True)


if __name__ == "__main__":
    main()
