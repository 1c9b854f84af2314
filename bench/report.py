"""Front-end and reference-interpreter figures, measured in one run: `python bench/report.py`.

Every figure is the best of a few repetitions on this machine. Ratios compare two things
measured in the same run, so they travel between machines better than the seconds do:

- enumeration: points per second of `polyhedral.enumerate_points` for a 1024x1024 box
  and a 1024x1024 triangle, against `np.indices` on the same box;
- per example: parse+verify, static checks, and the reference run, with the run's ratio
  to the plain numpy expression of the same kernel (how much the interpreter's tile-by-tile
  execution costs over one vectorised expression);
- a 4096x4096 f16 add over 32 tiles (checked against numpy before it is timed).

Nothing here is asserted: tests never depend on wall-clock time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from xdsl.ir.affine import AffineExpr
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from emulator.reference import make_inputs, run  # noqa: E402
from spyre_sched.device import load_device  # noqa: E402
from spyre_sched.device.load import _load_cached  # noqa: E402
from spyre_sched.frontend import load_kernel  # noqa: E402
from spyre_sched.polyhedral import enumerate_points  # noqa: E402
from spyre_sched.polyhedral.checks import check_kernel  # noqa: E402

REPEATS = 3


def best(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16)


def _numpy_models():
    """The same computations as the examples, as plain numpy (for the ratio only)."""

    def softmax(i):
        x = i["X"].astype(np.float32)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return f16(e / e.sum(axis=1, keepdims=True))

    def rmsnorm(i):
        x = i["X"].astype(np.float32)
        r = 1 / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5)
        return f16(x * r * i["W"].astype(np.float32))

    def gelu(i):
        p = i["A"].astype(np.float32) * i["B"]
        return f16(0.5 * p * (1 + np.tanh(0.7978845608 * (p + 0.044715 * p**3))) + i["A"])

    return {
        "add_96x64": lambda i: f16(i["A"].astype(np.float32) + i["B"]),
        "bias_add": lambda i: f16(i["X"].astype(np.float32) + i["bias"][None, :]),
        "fused_gelu": gelu,
        "row_sum": lambda i: f16(i["X"].astype(np.float64).sum(axis=1)),
        "softmax_rows": softmax,
        "rmsnorm": rmsnorm,
    }


def _box(n: int) -> AffineSet:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    ge = AffineConstraintKind.ge
    zero = AffineExpr.constant(0)
    last = AffineExpr.constant(n - 1)
    return AffineSet(2, 0, (
        AffineConstraintExpr(ge, d0, zero), AffineConstraintExpr(ge, last - d0, zero),
        AffineConstraintExpr(ge, d1, zero), AffineConstraintExpr(ge, last - d1, zero),
    ))


def _triangle(n: int) -> AffineSet:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    ge = AffineConstraintKind.ge
    zero = AffineExpr.constant(0)
    return AffineSet(2, 0, (
        AffineConstraintExpr(ge, d1, zero), AffineConstraintExpr(ge, d0 - d1, zero),
        AffineConstraintExpr(ge, AffineExpr.constant(n - 1) - d0, zero),
    ))


def enumeration_rows() -> list[str]:
    n = 1024
    base = best(lambda: np.indices((n, n)).reshape(2, -1).T.copy())
    rows = []
    for name, aset in (("box 1024x1024", _box(n)), ("triangle 1024x1024", _triangle(n))):
        count = len(enumerate_points(aset, []))
        t = best(lambda aset=aset: enumerate_points(aset, []))
        rows.append(f"| {name} | {count} | {t * 1e3:.1f} ms | {count / t / 1e6:.1f} M/s | "
                    f"{t / base:.2f}x np.indices |")
    return rows


def example_rows() -> list[str]:
    models = _numpy_models()
    rows = []
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        t_parse = best(lambda path=path: load_kernel(path))
        kernel = load_kernel(path)
        t_check = best(lambda: check_kernel(kernel.func))
        inputs = make_inputs(kernel, 0)
        t_run = best(lambda: run(kernel, inputs))
        model = models.get(path.stem)
        ratio = f"{t_run / best(lambda: model(inputs), 5):.0f}x" if model else "-"
        rows.append(f"| {path.stem} | {kernel.num_tiles} | {t_parse * 1e3:.1f} ms | "
                    f"{t_check * 1e3:.1f} ms | {t_run * 1e3:.1f} ms | {ratio} |")
    return rows


def large_add_row() -> str:
    path = ROOT / "tests" / "emulator" / "kernels" / "add_4096.mlir"
    kernel = load_kernel(path)
    inputs = make_inputs(kernel, 0)
    out = run(kernel, inputs)
    expected = f16(inputs["A"].astype(np.float64) + inputs["B"])
    if not np.array_equal(out["C"], expected):
        raise SystemExit("4096x4096 add: the reference result differs from numpy")
    t_run = best(lambda: run(kernel, inputs), 2)
    t_np = best(lambda: f16(inputs["A"].astype(np.float32) + inputs["B"]), 3)
    return (f"| add 4096x4096 f16 | {kernel.num_tiles} | {t_run:.2f} s | "
            f"{t_run / t_np:.0f}x numpy |")


def main() -> None:
    def load_uncached():
        _load_cached.cache_clear()
        load_device("spyre")

    t_dev = best(load_uncached)
    print("## Enumeration\n")
    print("| set | points | time | rate | vs np.indices |\n|---|---|---|---|---|")
    print("\n".join(enumeration_rows()))
    print("\n## Examples (parse+verify, static checks, reference run)\n")
    print("| example | tiles | parse+verify | checks | reference run | run / numpy |")
    print("|---|---|---|---|---|---|")
    print("\n".join(example_rows()))
    print("\n## Large elementwise kernel\n")
    print("| kernel | tiles | reference run | vs numpy |\n|---|---|---|---|")
    print(large_add_row())
    print(f"\nDevice description `spyre` loads in {t_dev * 1e3:.1f} ms.")


if __name__ == "__main__":
    main()
