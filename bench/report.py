"""Front-end and reference-interpreter figures, measured in one run: `python bench/report.py`.

Every figure is the best of a few repetitions of the CPU time this process spends
(`time.process_time`): the machine is shared, and wall-clock time would mostly measure the
neighbours. Ratios compare two things measured in the same run, so they travel between
machines better than the seconds do:

- enumeration: points per second of `polyhedral.enumerate_points` for a 1024x1024 box
  and a 1024x1024 triangle, against `np.indices` on the same box;
- per example: parse+verify, static checks, and the reference run, with the run's ratio
  to the plain numpy expression of the same kernel (how much the interpreter's tile-by-tile
  execution costs over one vectorised expression);
- a 4096x4096 f16 add over 32 tiles (checked against numpy), in elements per second,
  against numpy adding the two f16 arrays directly: the first run of the loaded kernel
  (per-kernel set-up included) and the steady state (best of repeated runs);
- interpreter overheads on `bench/interpreter_kernels/`: a 1024-iteration loop of 5 ops (time per op),
  a loop that builds a tensor with `tensor.insert_slice` (time per iteration), the diagonal
  of a 4096x4096 matrix through a thin access tile, a 256x256x256 f16 matmul (f16
  products) and one with an f32 accumulator (exact products: numpy.matmul); each as the
  first run of a freshly loaded kernel and the steady state.

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
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
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


def _diagonal(n: int) -> AffineSet:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    ge, eq = AffineConstraintKind.ge, AffineConstraintKind.eq
    zero = AffineExpr.constant(0)
    return AffineSet(2, 0, (
        AffineConstraintExpr(ge, d0, zero), AffineConstraintExpr(ge, AffineExpr.constant(n - 1) - d0, zero),
        AffineConstraintExpr(eq, d1 - d0, zero),
    ))


def enumeration_rows() -> list[str]:
    n = 1024
    base = best(lambda: np.indices((n, n)).reshape(2, -1).T.copy())
    rows = []
    for name, aset in (("box 1024x1024", _box(n)), ("triangle 1024x1024", _triangle(n)),
                       ("diagonal 4096x4096", _diagonal(4096))):
        count = len(enumerate_points(aset, []))
        t = best(lambda aset=aset: enumerate_points(aset, []))
        rows.append(f"| {name} | {count} | {t * 1e3:.1f} ms | {count / t / 1e6:.1f} M/s | "
                    f"{t / base:.2f}x np.indices |")
    return rows


def first_run(path: Path, inputs, **kwargs) -> float:
    """CPU time of the first run of a freshly loaded kernel: it pays what the interpreter
    keeps per kernel and per op (argument inference, layouts, access plans)."""
    kernel = load_kernel(path)
    start = time.process_time()
    run(kernel, inputs, **kwargs)
    return time.process_time() - start


def example_rows() -> list[str]:
    models = _numpy_models()
    rows = []
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        t_parse = best(lambda path=path: load_kernel(path))
        kernel = load_kernel(path)
        t_check = best(lambda: check_kernel(kernel.func))
        inputs = make_inputs(kernel, 0)
        t_first = first_run(path, inputs)
        t_run = best(lambda: run(kernel, inputs))
        model = models.get(path.stem)
        ratio = f"{t_run / best(lambda: model(inputs), 5):.0f}x" if model else "-"
        tile_ops = kernel.num_tiles * _op_count(kernel.func)
        rows.append(f"| {path.stem} | {kernel.num_tiles} | {t_parse * 1e3:.1f} ms | "
                    f"{t_check * 1e3:.1f} ms | {t_first * 1e3:.1f} ms | {t_run * 1e3:.1f} ms "
                    f"| {ratio} | {t_first / tile_ops * 1e6:.0f} us | "
                    f"{t_run / tile_ops * 1e6:.0f} us |")
    return rows


def _op_count(func) -> int:
    """Ops one tile executes in a kernel without loops (terminators and the function not
    counted)."""
    return sum(1 for op in func.walk() if op is not func and op.name not in
               ("func.return", "linalg.yield", "scf.yield")
               and op.parent_op() is func)


def large_add_rows() -> list[str]:
    """The first run of a freshly loaded kernel (which pays the per-kernel set-up the
    interpreter then keeps: argument inference, layouts, per-op plans) and the steady
    state (best of repeated runs of the same kernel object, new memory each run)."""
    path = ROOT / "tests" / "emulator" / "kernels" / "add_4096.mlir"
    kernel = load_kernel(path)
    inputs = make_inputs(kernel, 0)
    a, b = inputs["A"], inputs["B"]
    t_first = first_run(path, inputs)
    out = run(kernel, inputs)
    expected = f16(a.astype(np.float64) + b)
    if not np.array_equal(out["C"], expected):
        raise SystemExit("4096x4096 add: the reference result differs from numpy")
    del out
    t_run = best(lambda: run(kernel, inputs), 3)
    assert a.dtype == b.dtype == np.float16
    t_np = best(lambda: a + b, 3)
    rows = []
    for what, t in (("first run", t_first), ("steady state", t_run)):
        rows.append(f"| add 4096x4096 f16, {what} | {kernel.num_tiles} | {t:.3f} s | "
                    f"{a.size / t / 1e6:.0f} M elements/s | {t / t_np:.2f}x numpy f16 + f16 "
                    f"({a.size / t_np / 1e6:.0f} M/s) |")
    return rows


def overhead_rows() -> list[str]:
    kernels = ROOT / "bench" / "interpreter_kernels"
    rows = []

    def timed(name: str, repeats: int = 2):
        """(kernel, inputs, first run, steady state): a freshly loaded kernel's first run,
        then the best of `repeats` runs after it."""
        kernel = load_kernel(kernels / name)
        inputs = make_inputs(kernel, 0)
        t_first = first_run(kernels / name, inputs)
        run(kernel, inputs)
        return kernel, inputs, t_first, best(lambda: run(kernel, inputs), repeats)

    def row(what: str, t_first: float, t: float, unit: str) -> str:
        return f"| {what} | {t_first * 1e3:.1f} ms | {t * 1e3:.1f} ms | {unit} |"

    kernel, inputs, t_first, t = timed("loop_1024.mlir", 3)
    out = run(kernel, inputs)["Y"]
    if not np.array_equal(out, f16(inputs["X"].astype(np.float64) * 2)):
        raise SystemExit("loop_1024: the reference result differs from numpy")
    rows.append(row("1024-iteration loop of 5 ops", t_first, t,
                    f"{t / (1024 * 5) * 1e6:.1f} us per op (first run "
                    f"{t_first / (1024 * 5) * 1e6:.1f})"))
    kernel, inputs, t_first, t = timed("insert_rows.mlir")
    if not np.array_equal(run(kernel, inputs)["Y"], inputs["X"]):
        raise SystemExit("insert_rows: the reference result differs from numpy")
    rows.append(row("1024 x tensor.insert_slice of a row into 1024x64", t_first, t,
                    f"{t / 1024 * 1e6:.1f} us per iteration"))
    kernel, inputs, t_first, t = timed("diagonal_4096.mlir", 1)
    rows.append(row("diagonal of 4096x4096 (4096 points)", t_first, t, "-"))
    kernel, inputs, t_first, t = timed("matmul_256.mlir", 1)
    a, b = inputs["A"].astype(np.float32), inputs["B"].astype(np.float32)
    t_np = best(lambda: a @ b, 3)
    rows.append(row("matmul 256x256x256 f16 (f16 products: every term materialised)",
                    t_first, t, f"{t / t_np:.0f}x numpy f32 matmul"))
    kernel, inputs, t_first, t = timed("matmul_256_f32acc.mlir", 3)
    a64, b64 = inputs["A"].astype(np.float64), inputs["B"].astype(np.float64)
    ref = (a64 @ b64).astype(np.float32)  # float64 sums, rounded twice: within an ulp
    if not np.all(np.abs(run(kernel, inputs)["C"] - ref) <= np.spacing(np.abs(ref))):
        raise SystemExit("matmul_256_f32acc: the reference result differs from numpy")
    rows.append(row("matmul 256x256x256 f16, f32 accumulator (numpy.matmul, certified exact)",
                    t_first, t, f"{t / t_np:.0f}x numpy f32 matmul"))
    return rows


def main() -> None:
    def load_uncached():
        _load_cached.cache_clear()
        load_device("spyre")

    t_dev = best(load_uncached)
    print("## Enumeration\n")
    print("| set | points | time | rate | vs np.indices |\n|---|---|---|---|---|")
    print("\n".join(enumeration_rows()))
    print("\n## Examples (parse+verify, static checks, reference run)\n")
    print("| example | tiles | parse+verify | checks | reference run, first | steady state | "
          "steady / numpy | per tile-op, first | steady |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(example_rows()))
    print("\n## Large elementwise kernel\n")
    print("| kernel | tiles | reference run | rate | vs numpy |\n|---|---|---|---|---|")
    print("\n".join(large_add_rows()))
    print("\n## Interpreter overheads\n")
    print("| kernel | first run | steady state | per unit (steady state) |\n|---|---|---|---|")
    print("\n".join(overhead_rows()))
    print(f"\nDevice description `spyre` loads in {t_dev * 1e3:.1f} ms.")


if __name__ == "__main__":
    main()
