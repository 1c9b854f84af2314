"""Cost-model error on chunked reductions (`chunk-reductions`): `python bench/chunked_model_error.py [--big]`.

Compiles each kernel with the solver, emulates it, and prints predicted and emulated
cycles and the model error (predicted / emulated − 1). The kernels are the chunked ones
of tests/reductions (row sums whose rows do not fit the 16 KiB scratchpad of
tests/reductions/devices/small_lx.mlir, rmsnorm and softmax with long rows); `--big` adds
the committed 1 × 2M f16 row sum per tile on spyre (tests/reductions/row_sum_2m.mlir,
minutes to emulate). Nothing here is asserted; figures are cycles, not time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "reductions"))
sys.path.insert(0, str(ROOT / "bench" / "kernels"))

import generate  # noqa: E402
import reduction_kernels as kernels  # noqa: E402
import spyre_sched  # noqa: E402
from spyre_sched.api import compile as compile_kernel  # noqa: E402

SMALL_LX = str(ROOT / "tests" / "reductions" / "devices" / "small_lx.mlir")


def cases(big: bool):
    yield "row_sum 4x16448 (partial last chunk)", kernels.row_sum(2, 16448, 2), SMALL_LX
    yield "row_sum 4x16384", kernels.row_sum(2, 16384, 2), SMALL_LX
    yield "row_sum 2x65536", kernels.row_sum(1, 65536, 2), SMALL_LX
    yield "rmsnorm 4x8192", kernels.rmsnorm(8192, 2), SMALL_LX
    yield "softmax 32x4096", generate.softmax(generate.Shape(32, 4096)), SMALL_LX
    if big:
        yield "row_sum 2x2M (spyre)", (ROOT / "tests/reductions/row_sum_2m.mlir").read_text(), "spyre"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also the 1 x 2M row sum on spyre")
    args = parser.parse_args()
    print(f"{'kernel':40} {'chunk':>7} {'predicted':>10} {'emulated':>10} {'error':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, device in cases(args.big):
            path = Path(tmp) / "kernel.mlir"
            path.write_text(text)
            schedule = compile_kernel(str(path), device=device)
            chunk = schedule.values.get("p0.tile.lx.d1", "-")
            result = spyre_sched.run(schedule, device=device, seed=0)
            assert result.matches, (name, result.mismatches)
            error = result.predicted_cycles / result.cycles - 1
            print(f"{name:40} {chunk!s:>7} {result.predicted_cycles:>10} {result.cycles:>10} "
                  f"{error:>+8.1%}")


if __name__ == "__main__":
    main()
