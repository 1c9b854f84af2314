"""Extents the SIMD width or the chosen tile does not divide, end to end: scheduled, solved
(CP-SAT and the V1 heuristic), lowered with masked partial vectors, written as a bundle that
passes the bundle checks, emulated, and compared with the reference interpreter and with a
plain numpy expression (docs/dataflowir.md, "Partial vectors").

sample_device has one core: there the kernels run with `grid = [1]` (tile 0's rows), as in
test_lower_examples.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from lower_bundle_checks import check_bundle

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "lower" / "kernels"


def _f16(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float16)


def _inputs(name: str, rng: np.random.Generator) -> dict[str, np.ndarray]:
    shapes = {"small_add": {"A": (4, 96), "B": (4, 96)},
              "odd_add": {"A": (100, 96), "B": (100, 96)},
              "row_sum_200": {"X": (8, 200)},
              "row_max_96": {"X": (8, 96)},
              "softmax_96": {"X": (64, 96)}}[name]
    out = {k: _f16(rng.standard_normal(s)) for k, s in shapes.items()}
    if name == "row_max_96":  # |X| >= 1: a padding lane (-1) would beat every real value
        x = out["X"].astype(np.float32)
        out["X"] = _f16(np.sign(x + 0.5) * (1 + np.abs(x)))
    return out


def _numpy(name: str, ins: dict[str, np.ndarray]) -> tuple[str, np.ndarray, float]:
    """(output, what numpy says, tolerance relative to the largest |value|)."""
    if name == "small_add":
        a, b = ins["A"], ins["B"]
        return "C", (a + b) * a, 0.0  # numpy's f16 ops round each result once, like ours
    if name == "odd_add":
        a, b = ins["A"], ins["B"]
        return "C", a * b + a, 0.0
    if name == "row_sum_200":
        return "S", _f16(ins["X"].astype(np.float64).sum(axis=1)), 2e-3
    if name == "row_max_96":
        x = ins["X"]
        return "M", (-(x * x) - _f16(1)).max(axis=1), 0.0
    x = ins["X"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return "Y", e / e.sum(axis=1, keepdims=True), 4e-3


CASES = [("small_add", ROOT / "tests" / "schedule" / "kernels" / "small_add.mlir", 2),
         ("odd_add", KERNELS / "odd_add.mlir", 25),
         ("row_sum_200", KERNELS / "row_sum_200.mlir", 2),
         ("row_max_96", KERNELS / "row_max_96.mlir", 2),
         ("softmax_96", KERNELS / "softmax_96.mlir", 2)]


def _kernel(path: Path, device: str, tmp_path: Path) -> Path:
    if device == "spyre":
        return path
    text = re.sub(r"grid = \[\d+\]", "grid = [1]", path.read_text())
    out = tmp_path / path.name
    out.write_text(text)
    return out


# The default run keeps every kernel once on spyre (solver) and the two smallest on
# sample_device (heuristic); every other pairing is opt-in (-m slow).
FAST = {("spyre", "solver"), ("small_add", "sample_device", "heuristic"),
        ("row_max_96", "sample_device", "heuristic")}


def _params():
    for name, path, rows in CASES:
        for device in ("spyre", "sample_device"):
            for strategy in ("solver", "heuristic"):
                fast = (device, strategy) in FAST or (name, device, strategy) in FAST
                yield pytest.param(name, path, rows, device, strategy,
                                   marks=[] if fast else [pytest.mark.slow],
                                   id=f"{name}-{device}-{strategy}")


@pytest.mark.parametrize("name,path,rows,device,strategy", list(_params()))
def test_partial_vectors_match_reference_and_numpy(name: str, path: Path, rows: int, device: str,
                                                   strategy: str, tmp_path: Path) -> None:
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    schedule = compile_kernel(str(_kernel(path, device, tmp_path)), device=device, strategy=strategy)
    out = write_bundle(schedule, tmp_path / "bundle")
    check_bundle(out)
    ins = _inputs(name, np.random.default_rng(7))
    result = spyre_sched.run(str(out), ins)
    assert result.matches, result.mismatches
    output, expected, tolerance = _numpy(name, ins)
    got = result.outputs[output].astype(np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if device != "spyre":  # grid = [1]: tile 0's rows only
        got, expected = got[:rows], expected[:rows]
    scale = max(1.0, float(np.abs(expected).max()))
    assert np.abs(got - expected).max() <= tolerance * scale, (got, expected)


def test_partial_loads_and_stores_are_masked_and_reductions_drop_padding(tmp_path: Path) -> None:
    """The DataflowIR of row_max_96: the partial vector is loaded with a masked full-width
    box, and its lanes past the data are shuffled away before the lane reduce."""
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(compile_kernel(str(KERNELS / "row_max_96.mlir"), device="spyre",
                                      strategy="solver"), tmp_path / "bundle")
    text = (out / "local_schedule_0.mlir").read_text()
    assert "mask = affine_set<(d0, d1) : (((d1 * -1) + 31) >= 0)>" in text
    keep = ", ".join(str(i) for i in range(32))
    assert f"pattern = array<i64: {keep}>}} : vector<1x64xf16> -> vector<1x32xf16>" in text
    assert 'vectorchain.reduce "max" %' in text and "vector<1x32xf16> -> vector<1xf16>" in text


def test_a_partial_vector_costs_a_whole_vector(tmp_path: Path) -> None:
    """The masked load of 32 lanes moves (and is timed as) the whole 64-lane box."""
    from spyre_sched.dialects.agen import AccessAttr
    from emulator.device.access import Access
    from xdsl.ir.affine import AffineMap

    from spyre_sched.lower.program_units import _access

    partial = _access([1, 64], [96, 1], [1, 32])
    whole = _access([1, 64], [96, 1])
    assert isinstance(partial, AccessAttr)
    assert partial.shape() == whole.shape() == (1, 64)
    a, b = Access.of(partial, 2), Access.of(whole, 2)
    assert a.box_bytes == b.box_bytes == 128
    assert a.points == 32 and b.points == 64
    assert a.span == (0, 64) and a.box_span == (0, 128)
    assert partial.order.data == AffineMap.identity(2)


def test_a_row_tile_that_does_not_divide_the_rows(tmp_path: Path) -> None:
    """odd_add on a spyre whose scratchpad is 8 KiB: the 25 rows of a tile no longer fit at
    once, and the solver picks a row tile that does not divide 25 (a smaller last tile)."""
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    text = (ROOT / "devices" / "spyre.mlir").read_text()
    old = '#LX = {kind = "LX", size = 2097152}'
    assert old in text
    device = tmp_path / "spyre_lx8k.mlir"
    device.write_text(text.replace(old, '#LX = {kind = "LX", size = 8192}'))
    schedule = compile_kernel(str(KERNELS / "odd_add.mlir"), device=str(device))
    rows = schedule.values["p0.tile.lx.d0"]
    assert 25 % rows, f"the solver chose a row tile ({rows}) that divides 25"
    out = write_bundle(schedule, tmp_path / "bundle")
    check_bundle(out)
    ins = _inputs("odd_add", np.random.default_rng(5))
    result = spyre_sched.run(str(out), ins)
    assert result.matches, result.mismatches
    _, expected, _ = _numpy("odd_add", ins)
    assert np.array_equal(result.outputs["C"], expected)


def test_a_chunked_reduction_ending_in_a_partial_vector(tmp_path: Path) -> None:
    """A row of 10000 f16 (20 KB) on a 16 KiB scratchpad is reduced in chunks; its last
    vector holds 16 of 32 lanes: the lowering finds that through the chunk loop and the
    vector loop inside it and keeps the padding out of the sum."""
    import sys

    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    sys.path.insert(0, str(ROOT / "tests" / "reductions"))
    from reduction_kernels import row_sum

    kernel = tmp_path / "row_sum_10000.mlir"
    kernel.write_text(row_sum(1, 10000, 2))
    device = str(ROOT / "tests" / "reductions" / "devices" / "small_lx.mlir")
    out = write_bundle(compile_kernel(str(kernel), device=device), tmp_path / "bundle")
    text = (out / "local_schedule_0.mlir").read_text()
    assert "} : vector<1x32xf32> -> vector<1x16xf32>" in text
    x = np.random.default_rng(11).standard_normal((2, 10000)).astype(np.float16)
    result = spyre_sched.run(str(out), {"X": x})
    assert result.matches, result.mismatches
    expected = x.astype(np.float64).sum(axis=1)
    assert np.abs(result.outputs["S"].astype(np.float64) - expected).max() <= 2e-3 * max(
        1.0, float(np.abs(expected).max()))
