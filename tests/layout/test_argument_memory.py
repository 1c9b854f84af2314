"""The array passed for a pointer argument is the memory at that pointer, in C order.

Views are windows on it: strides [1, 2] (column-major), padded rows [10, 1], several views
on one pointer (one of them transposed, one never accessed), views on the pointer plus a
constant, and an array longer than every view needs (the elements no view reaches stay as
they were). Each kernel runs on the reference interpreter and through `spyre_sched.run`
(compile, emulate, compare with the reference) and is compared with numpy too.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import spyre_sched
from emulator.reference import make_inputs, run as reference_run
from spyre_sched.errors import ExecutionError
from spyre_sched.frontend import load_kernel, parse_kernel
from spyre_sched.frontend.arguments import infer_arguments

KERNELS = Path(__file__).parent / "kernels"
#: memory element of (row i, column j) of the 8x8 views with rows 10 elements apart
PADDED = (10 * np.arange(8)[:, None] + np.arange(8)).reshape(-1)


def f16(x) -> np.ndarray:
    """Round exactly computed values once to f16 (the kernels' one addition)."""
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16)


def inputs_for(name: str, seed: int = 3) -> dict[str, np.ndarray]:
    return make_inputs(KERNELS / f"{name}.mlir", seed)


def both_executors(name: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The reference's outputs, after checking that compile + emulate gives the same."""
    path = KERNELS / f"{name}.mlir"
    want = reference_run(path, inputs)
    result = spyre_sched.run(str(path), inputs)
    assert result.matches, result.mismatches
    assert set(result.outputs) == set(want)
    for key, value in want.items():
        np.testing.assert_array_equal(result.outputs[key], value)
        assert result.outputs[key].shape == value.shape
    return want


def shapes(name: str) -> dict[str, tuple]:
    kernel = load_kernel(KERNELS / f"{name}.mlir")
    return {a.name: (a.shape, a.extent, a.flat) for a in infer_arguments(kernel.func)}


# ---- what argument inference says -------------------------------------------------------


def test_dense_row_major_arguments_keep_their_shape():
    assert shapes("column_major")["B"] == ((2, 64), 128, False)
    assert shapes("column_major")["Y"] == ((2, 64), 128, False)
    # a transposed second view and an unused view inside the same 64 elements
    assert shapes("two_views")["X"] == ((8, 8), 64, False)
    # two views of different rows, both starting at the pointer: 32 elements
    assert shapes("lower_rows")["X"] == ((4, 8), 32, False)


def test_other_layouts_are_the_flat_memory_their_views_reach():
    assert shapes("column_major")["X"] == ((128,), 128, True)
    assert shapes("padded_rows")["X"] == ((78,), 78, True)  # 7 * 10 + 8
    assert shapes("padded_rows")["Y"] == ((78,), 78, True)
    assert shapes("pointer_offset")["X"] == ((128,), 128, True)  # %X and %X + 64
    assert shapes("pointer_offset")["Y"] == ((72,), 72, True)  # %Y + 8


def test_check_reports_the_memory_extent():
    from click.testing import CliRunner

    from spyre_sched.cli import main

    out = CliRunner().invoke(main, ["check", str(KERNELS / "padded_rows.mlir")])
    assert out.exit_code == 0, out.output
    assert "%X: 78 elements of f16 memory (in)" in out.output
    assert "%B: 8x8xf16 (in)" in out.output
    assert "%Y: 78 elements of f16 memory (out)" in out.output


# ---- both executors, and numpy ------------------------------------------------------------


def test_column_major_view():
    inputs = inputs_for("column_major")
    assert inputs["X"].shape == (128,)
    out = both_executors("column_major", inputs)
    x = inputs["X"].reshape(64, 2).T  # element (i, j) at i + 2j
    np.testing.assert_array_equal(out["Y"], f16(x.astype(np.float64) + inputs["B"]))


def test_padded_rows():
    inputs = inputs_for("padded_rows")
    out = both_executors("padded_rows", inputs)
    want = np.full(78, np.nan, np.float16)  # the 2 elements after each row: never written (poison)
    want[PADDED] = f16(inputs["X"][PADDED].astype(np.float64) + inputs["B"].reshape(-1))
    np.testing.assert_array_equal(out["Y"], want)


def test_arrays_longer_than_the_views_keep_what_no_view_reaches():
    inputs = inputs_for("padded_rows")
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, 96).astype(np.float16)  # 18 elements past what the views reach
    y = np.full(100, np.float16(7.5))  # an output pre-filled past its views
    out = both_executors("padded_rows", {"X": x, "B": inputs["B"], "Y": y})
    want = y.copy()
    want[PADDED] = f16(x[PADDED].astype(np.float64) + inputs["B"].reshape(-1))
    assert out["Y"].shape == (100,)
    np.testing.assert_array_equal(out["Y"], want)
    np.testing.assert_array_equal(y, np.full(100, np.float16(7.5)))  # the caller's array


def test_a_longer_array_of_another_shape_is_memory_in_c_order():
    b = np.arange(64, dtype=np.float16).reshape(8, 8)
    x = np.arange(160, dtype=np.float16).reshape(16, 10)  # 160 >= 78 elements
    out = reference_run(KERNELS / "padded_rows.mlir", {"X": x, "B": b})
    want = np.full(78, np.nan, np.float16)  # never written: poison
    want[PADDED] = f16(x.reshape(-1)[PADDED].astype(np.float64) + b.reshape(-1))
    np.testing.assert_array_equal(out["Y"], want)


def test_two_views_on_one_pointer():
    inputs = inputs_for("two_views")
    out = both_executors("two_views", inputs)
    x = inputs["X"].astype(np.float64)
    np.testing.assert_array_equal(out["Y"], f16(x + x.T))


def test_an_unused_view_does_not_move_the_used_one():
    inputs = inputs_for("lower_rows")
    assert inputs["X"].shape == (4, 8)
    out = both_executors("lower_rows", inputs)
    np.testing.assert_array_equal(out["Y"], f16(2 * inputs["X"].astype(np.float64)))


def test_views_on_a_pointer_plus_an_offset():
    inputs = inputs_for("pointer_offset")
    out = both_executors("pointer_offset", inputs)
    x = inputs["X"].astype(np.float64)
    want = np.full(72, np.nan, np.float16)  # the first 8: never written (poison)
    want[8:] = f16(x[:64] + x[64:])
    np.testing.assert_array_equal(out["Y"], want)


def test_an_input_seen_only_past_its_pointer(tmp_path: Path):
    # Both views of %X start at %X + 64: the array is still the memory from %X on, and
    # its first 64 elements are read by nobody.
    text = (KERNELS / "pointer_offset.mlir").read_text().replace(
        "%Lv = ktdp.construct_memory_view %X,", "%Lv = ktdp.construct_memory_view %X64,")
    path = tmp_path / "past.mlir"
    path.write_text(text)
    x = np.random.default_rng(2).uniform(-2, 2, 128).astype(np.float16)
    want = np.full(72, np.nan, np.float16)  # the first 8: never written (poison)
    want[8:] = f16(2 * x[64:].astype(np.float64))
    np.testing.assert_array_equal(reference_run(path, {"X": x})["Y"], want)
    result = spyre_sched.run(str(path), {"X": x})
    assert result.matches, result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], want)


# ---- the bundle states the arrays' shapes ---------------------------------------------------


def test_the_bundle_states_the_memory_and_its_runtime_reads_it(tmp_path: Path):
    from emulator.runtime import Runtime

    schedule = spyre_sched.compile(str(KERNELS / "padded_rows.mlir"))
    from spyre_sched.lower.bundle import write_bundle

    bundle = write_bundle(schedule, tmp_path / "bundle")
    plan = json.loads((bundle / "jobplan.json").read_text())
    assert {a["name"]: a["shape"] for a in plan["arguments"]} == {
        "X": [78], "B": [8, 8], "Y": [78]}
    inputs = inputs_for("padded_rows")
    rt = Runtime("spyre")
    launched = rt.launch(rt.prepare(bundle), {**inputs, "Y": np.zeros(78, np.float16)})
    want = np.zeros(78, np.float16)
    want[PADDED] = f16(inputs["X"][PADDED].astype(np.float64) + inputs["B"].reshape(-1))
    np.testing.assert_array_equal(launched.outputs["Y"], want)


# ---- arrays the rule refuses ------------------------------------------------------------------


def test_an_array_shorter_than_the_memory_is_refused():
    inputs = inputs_for("padded_rows")
    with pytest.raises(ExecutionError, match=r"input %X has shape \[64\], the kernel expects "
                       r"\[78\] \(or any shape of at least 78 elements"):
        reference_run(KERNELS / "padded_rows.mlir", {**inputs, "X": inputs["X"][:64]})


def test_views_reaching_before_the_pointer_are_refused():
    text = (KERNELS / "pointer_offset.mlir").read_text().replace(
        "%Y8 = arith.addi %Y, %c8", "%Y8 = arith.subi %Y, %c8")
    kernel = parse_kernel(text, "before.mlir")
    with pytest.raises(ExecutionError, match=r"views of %Y reach 8 element\(s\) before the "
                       r"pointer"):
        reference_run(kernel, make_inputs(kernel, 0))


# ---- every layout pair of the shipped add (opt-in: 27 compiles) ------------------------------

ADD = (Path(__file__).parents[2] / "examples" / "add_96x64.mlir").read_text()
#: strides of a 96x64 view and the memory element of each (row, column)
LAYOUTS = {
    "row": ("[64, 1]", lambda r, c: 64 * r + c),
    "col": ("[1, 96]", lambda r, c: r + 96 * c),
    "padded": ("[67, 1]", lambda r, c: 67 * r + c),
}


@pytest.mark.slow
@pytest.mark.parametrize("a", sorted(LAYOUTS))
@pytest.mark.parametrize("b", sorted(LAYOUTS))
@pytest.mark.parametrize("c", sorted(LAYOUTS))
def test_add_in_every_layout(tmp_path: Path, a: str, b: str, c: str):
    text = ADD
    for name, kind in (("A", a), ("B", b), ("C", c)):
        text = text.replace(f"%{name}, sizes: [96, 64], strides: [64, 1]",
                            f"%{name}, sizes: [96, 64], strides: {LAYOUTS[kind][0]}")
    path = tmp_path / "add.mlir"
    path.write_text(text)
    inputs = make_inputs(path, 7)
    result = spyre_sched.run(str(path), inputs)
    assert result.matches, result.mismatches
    rows, cols = np.indices((96, 64))
    at = {name: LAYOUTS[kind][1](rows, cols) for name, kind in (("A", a), ("B", b), ("C", c))}
    want = f16(inputs["A"].reshape(-1)[at["A"]].astype(np.float64)
               + inputs["B"].reshape(-1)[at["B"]])
    np.testing.assert_array_equal(result.outputs["C"].reshape(-1)[at["C"]], want)
